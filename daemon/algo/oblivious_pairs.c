// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The ToRs, their hose capacities and every ToR pair's paths. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "oblivious_int.h"
#include "sched.h"

int obl_check(const struct dard_topo *t, struct dard_pathctx *pc,
	      const uint8_t *down, size_t ndown, char *err)
{
	uint32_t l;

	if (!t || !pc)
		return dard_fail(err, -EINVAL, "no %s given",
				 t ? "path context" : "topology");
	if (!t->finalized)
		return dard_fail(err, -EINVAL, "%s is not finalized",
				 dard_topo_label(t));
	if (!down)
		return 0;
	if (ndown != t->nlinks)
		return dard_fail(err, -EINVAL,
				 "down[] has %zu entries, %s has %u links",
				 ndown, dard_topo_label(t), t->nlinks);
	for (l = 0; l < t->nlinks; l++)
		if (down[l] > 1)
			return dard_fail(err, -EINVAL,
					 "down[%u] (%s-%s) is %u, not 0 or 1",
					 l, t->node[t->link[l].up].name,
					 t->node[t->link[l].down].name,
					 down[l]);
	return 0;
}

void obl_tors_free(struct obl_tors *tr)
{
	free(tr->node);
	free(tr->idx);
	free(tr->host);
	free(tr->h);
	memset(tr, 0, sizeof(*tr));
}

/* The live host links below ToR n: what its hosts send and receive. */
static double hose(const struct dard_topo *t, uint32_t n, const uint8_t *down)
{
	const struct dard_node *node = &t->node[n];
	double h = 0;
	unsigned k;

	for (k = 0; k < node->ndown; k++) {
		uint32_t l = node->port[node->down[k] - 1];

		if (l == DARD_NONE || !t->node[t->link[l].down].is_host)
			continue;
		if (!down || !down[l])
			h += t->link[l].mbps;
	}
	return h;
}

int obl_tors_init(struct obl_tors *tr, const struct dard_topo *t,
		  const uint8_t *down, char *err)
{
	uint32_t i, n = 0;

	memset(tr, 0, sizeof(*tr));
	tr->nnodes = t->nnodes;
	for (i = 0; i < t->nnodes; i++)
		n += !t->node[i].is_host && t->node[i].level == t->nlevels - 1;
	tr->node = calloc(n ? n : 1, sizeof(*tr->node));
	tr->host = calloc(n ? n : 1, sizeof(*tr->host));
	tr->h = calloc(n ? n : 1, sizeof(*tr->h));
	tr->idx = malloc(t->nnodes * sizeof(*tr->idx));
	if (!tr->node || !tr->host || !tr->h || !tr->idx) {
		obl_tors_free(tr);
		return dard_fail(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < t->nnodes; i++) {
		tr->idx[i] = DARD_NONE;
		if (t->node[i].is_host || t->node[i].level != t->nlevels - 1)
			continue;
		tr->idx[i] = tr->n;
		tr->node[tr->n] = i;
		tr->host[tr->n] = dard_topo_tor_host(t, i);
		tr->h[tr->n++] = hose(t, i, down);
	}
	return 0;
}

static int path_cb(const struct dard_path *path, void *arg)
{
	struct obl_pair *pp = arg;
	unsigned i = pp->n, k;

	if (i >= DARD_PATHS_MAX)
		return -E2BIG;
	pp->path[i] = *path;
	pp->ndl[i] = dard_path_dlinks(pp->t, path, pp->dl[i]);
	pp->dead[i] = 0;
	for (k = 0; pp->down && k < pp->ndl[i]; k++)
		pp->dead[i] |= pp->down[pp->dl[i][k] / 2];
	pp->nlive += !pp->dead[i];
	pp->n++;
	return 0;
}

int obl_each_pair(const struct dard_topo *t, struct dard_pathctx *pc,
		  const uint8_t *down, const struct obl_tors *tr,
		  struct obl_pair *pp, int (*fn)(struct obl_pair *, void *),
		  void *arg, char *err)
{
	uint32_t a, b;
	long r;
	int ret;

	pp->t = t;
	pp->down = down;
	for (a = 0; a < tr->n; a++) {
		if (tr->host[a] == DARD_NONE)
			continue;
		for (b = 0; b < tr->n; b++) {
			if (b == a || tr->host[b] == DARD_NONE)
				continue;
			pp->a = a;
			pp->b = b;
			pp->n = pp->nlive = 0;
			r = dard_path_foreach(pc, tr->host[a], tr->host[b],
					      path_cb, pp);
			if (r == -E2BIG)
				return dard_fail(
					err, -E2BIG,
					"%s -> %s has more than %u paths, the most the datapath holds",
					t->node[tr->node[a]].name,
					t->node[tr->node[b]].name,
					DARD_PATHS_MAX);
			ret = fn(pp, arg);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int cmp_hop(const void *x, const void *y)
{
	const struct obl_hop *p = x, *q = y;

	if (p->dl != q->dl)
		return p->dl < q->dl ? -1 : 1;
	return (int)p->path - (int)q->path;
}

size_t obl_hops(const struct obl_pair *pp, const double *w, struct obl_hop *hop)
{
	size_t n = 0;
	unsigned i, k;

	for (i = 0; i < pp->n; i++) {
		if (pp->dead[i] || (w && w[i] == 0))
			continue;
		for (k = 0; k < pp->ndl[i]; k++)
			hop[n++] = (struct obl_hop){pp->dl[i][k], i};
	}
	qsort(hop, n, sizeof(*hop), cmp_hop);
	return n;
}

double obl_scale(const struct dard_topo *t)
{
	double s = 0;
	uint32_t l;

	for (l = 0; l < t->nlinks; l++)
		if (t->link[l].mbps > s)
			s = t->link[l].mbps;
	return s > 0 ? s : 1;
}
