// SPDX-License-Identifier: GPL-2.0 OR MIT
/* D-mod-k, S-mod-k and SDN-greedy placements of elephant flows. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "edgecolour.h"
#include "err.h"
#include "route.h"
#include "sched.h"
#include "traffic.h"

const char *dard_modk_name(int which)
{
	static const char *const names[] = {
		[DARD_DMODK_LITERAL] = "d-mod-k (literal)",
		[DARD_DMODK_DIGIT] = "d-mod-k (digit)",
		[DARD_SMODK_LITERAL] = "s-mod-k (literal)",
		[DARD_SMODK_DIGIT] = "s-mod-k (digit)",
	};

	return which >= 0 && which <= DARD_SMODK_DIGIT ? names[which] : "?";
}

/* The index among a node's up ports of the port leading to parent. */
static int up_index(const struct dard_topo *t, uint32_t node, uint32_t parent)
{
	const struct dard_node *n = &t->node[node];
	unsigned k;
	int i = 0;

	for (k = 1; k <= n->nports; k++) {
		uint32_t li = n->port[k - 1];

		if (li == DARD_NONE || t->link[li].down != node)
			continue;
		if (t->link[li].up == parent)
			return i;
		i++;
	}
	return -1;
}

struct modk {
	const struct dard_topo *t;
	uint32_t x; /* the rank the rule reads */
	int digit;
	struct dard_path *out;
	int found;
};

static int modk_cb(const struct dard_path *p, void *arg)
{
	struct modk *m = arg;
	const struct dard_topo *t = m->t;
	uint32_t prev = p->src, x = m->x, div = 1;
	unsigned i;

	/* Up while the next switch is nearer the roots. */
	for (i = 0; i < p->nsw; i++) {
		uint32_t sw = p->sw[i];
		unsigned k;

		if (i && t->node[sw].level >= t->node[prev].level)
			break;
		if (i) {
			k = t->node[prev].nup;
			if (up_index(t, prev, sw) !=
			    (int)((m->digit ? x / div : x) % k))
				return 0;
			div *= k;
		}
		prev = sw;
	}
	*m->out = *p;
	m->found = 1;
	return 1;
}

int dard_route_modk(struct dard_pathctx *c, const struct dard_topo *t,
		    uint32_t src, uint32_t dst, int which,
		    struct dard_path *out)
{
	struct modk m = {
		.t = t,
		.x = t->node[which <= DARD_DMODK_DIGIT ? dst : src].rank,
		.digit = which == DARD_DMODK_DIGIT || which == DARD_SMODK_DIGIT,
		.out = out,
	};

	dard_path_foreach(c, src, dst, modk_cb, &m);
	return m.found ? 0 : -ENOENT;
}

void dard_route_load(const struct dard_topo *t, const struct dard_path *p,
		     uint32_t *load)
{
	uint32_t dl[2 * DARD_LEVEL_MAX], links[2 * DARD_LEVEL_MAX + 1];
	unsigned i, n = dard_path_dlinks(t, p, dl);

	for (i = 0; i < n; i++)
		load[dl[i]]++;
	/* And the host links at both ends: up from the source, down to
	 * the destination. */
	n = dard_path_links(t, p, links);
	load[dard_dlink(links[0], DARD_UP)]++;
	load[dard_dlink(links[n - 1], DARD_DOWN)]++;
}

uint32_t dard_route_max_load(const struct dard_topo *t, const uint32_t *load)
{
	uint32_t i, m = 0;

	for (i = 0; i < 2 * t->nlinks; i++)
		if (load[i] > m)
			m = load[i];
	return m;
}

uint32_t dard_route_node_load(const struct dard_topo *t,
			      const struct dard_demand *d, size_t n)
{
	uint32_t *out = calloc(t->nnodes, sizeof(*out));
	uint32_t *in = calloc(t->nnodes, sizeof(*in)), m = 0;
	size_t i;

	if (!out || !in)
		goto done;
	for (i = 0; i < n; i++) {
		if (++out[d[i].src] > m)
			m = out[d[i].src];
		if (++in[d[i].dst] > m)
			m = in[d[i].dst];
	}
done:
	free(out);
	free(in);
	return m;
}

struct greedy {
	const struct dard_topo *t;
	const uint32_t *load;
	struct dard_path best;
	uint32_t best_load;
	int found;
};

static int greedy_cb(const struct dard_path *p, void *arg)
{
	struct greedy *g = arg;
	uint32_t dl[2 * DARD_LEVEL_MAX], worst = 0;
	unsigned i, n = dard_path_dlinks(g->t, p, dl);

	for (i = 0; i < n; i++)
		if (g->load[dl[i]] > worst)
			worst = g->load[dl[i]];
	/* Strictly less: ties keep the earlier path. */
	if (!g->found || worst < g->best_load) {
		g->best = *p;
		g->best_load = worst;
		g->found = 1;
	}
	return 0;
}

int dard_route_greedy(struct dard_pathctx *c, const struct dard_topo *t,
		      const struct dard_demand *d, size_t n, uint32_t *load,
		      struct dard_path *out)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct greedy g = {.t = t, .load = load};
		long r =
			dard_path_foreach(c, d[i].src, d[i].dst, greedy_cb, &g);

		if (r < 0)
			return (int)r;
		if (!g.found)
			return -ENOENT;
		out[i] = g.best;
		dard_route_load(t, &g.best, load);
	}
	return 0;
}

struct want {
	const struct dard_topo *t;
	int a, c; /* up index at the ToR, at the aggregation switch */
	struct dard_path *out;
	int found;
};

static int want_cb(const struct dard_path *p, void *arg)
{
	struct want *w = arg;

	if (p->nsw >= 3 && up_index(w->t, p->sw[0], p->sw[1]) != w->a)
		return 0;
	if (p->nsw == 5 && up_index(w->t, p->sw[1], p->sw[2]) != w->c)
		return 0;
	*w->out = *p;
	w->found = 1;
	return 1;
}

/* A full-bisection three-level fat-tree, or err says why not. */
static int check_fattree(const struct dard_topo *t, char *err)
{
	uint32_t i;

	if (t->nlevels != 3)
		return dard_fail(
			err, -EINVAL,
			"SDN-optimal needs a three-level fat-tree; %s has %u levels",
			dard_topo_label(t), t->nlevels);
	for (i = 0; i < t->nnodes; i++) {
		const struct dard_node *n = &t->node[i];

		if (n->is_host || !n->level)
			continue;
		if (n->nup != n->ndown)
			return dard_fail(
				err, -EINVAL,
				"SDN-optimal needs full bisection; %s has %u up and %u down ports",
				n->name, n->nup, n->ndown);
	}
	return 0;
}

/* Where each flow's ends are: their ToRs and pods, looked up once. */
struct ends {
	uint32_t st, dt, sp, dp;
};

int dard_route_optimal(struct dard_pathctx *c, const struct dard_topo *t,
		       const struct dard_demand *d, size_t n,
		       struct dard_path *out, char *err)
{
	uint32_t nl = dard_route_node_load(t, d, n), tors, *tor_no = NULL;
	size_t cnt = n ? n : 1, i, j, m, mm;
	struct dard_bedge *e = calloc(cnt, sizeof(*e));
	struct ends *x = calloc(cnt, sizeof(*x));
	unsigned *perm = calloc(cnt, sizeof(*perm));
	unsigned *col = calloc(cnt, sizeof(*col));
	unsigned *aidx = calloc(cnt, sizeof(*aidx));
	size_t *idx = calloc(cnt, sizeof(*idx));
	size_t *sel = calloc(cnt, sizeof(*sel));
	unsigned k_tor = 0, k_agg = 0, p, a;
	int ret;

	ret = check_fattree(t, err);
	if (ret)
		goto out;
	tor_no = malloc(t->nnodes * sizeof(*tor_no));
	if (!e || !x || !perm || !col || !aidx || !idx || !sel || !tor_no) {
		ret = dard_fail(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0, tors = 0; i < t->nnodes; i++) {
		tor_no[i] = DARD_NONE;
		if (!t->node[i].is_host && t->node[i].level == t->nlevels - 1) {
			tor_no[i] = tors++;
			k_tor = t->node[i].nup;
		} else if (!t->node[i].is_host && t->node[i].level == 1) {
			k_agg = t->node[i].nup;
		}
	}
	for (i = 0; i < n; i++) {
		x[i].st = dard_topo_tor(t, d[i].src);
		x[i].dt = dard_topo_tor(t, d[i].dst);
		/* Pods by their first aggregation switch. */
		x[i].sp = dard_host_pod(t, d[i].src);
		x[i].dp = dard_host_pod(t, d[i].dst);
	}
	/* 1. NL_D permutations: colour the hosts' demand multigraph. */
	for (i = 0; i < n; i++) {
		e[i].l = t->node[d[i].src].rank;
		e[i].r = t->node[d[i].dst].rank;
	}
	ret = dard_edge_colour(t->nhosts, t->nhosts, e, n, nl ? nl : 1, perm);
	if (ret)
		goto fail;
	for (p = 0; p < nl; p++) {
		/* 2. Aggregation indices: ToR-to-ToR demand, k_tor colours. */
		for (i = 0, m = 0; i < n; i++) {
			if (perm[i] != p || x[i].st == x[i].dt)
				continue;
			e[m].l = tor_no[x[i].st];
			e[m].r = tor_no[x[i].dt];
			idx[m++] = i;
		}
		ret = dard_edge_colour(tors, tors, e, m, k_tor, col);
		if (ret)
			goto fail;
		for (i = 0; i < m; i++)
			aidx[idx[i]] = col[i];
		/* 3. Cores: per index, pod-to-pod demand, k_agg colours. */
		for (a = 0; a < k_tor; a++) {
			for (j = 0, mm = 0; j < m; j++) {
				size_t f = idx[j];

				if (aidx[f] != a || x[f].sp == x[f].dp)
					continue;
				e[mm].l = x[f].sp;
				e[mm].r = x[f].dp;
				sel[mm++] = f;
			}
			ret = dard_edge_colour(t->nnodes, t->nnodes, e, mm,
					       k_agg, col);
			for (j = 0; !ret && j < mm; j++) {
				struct want w = {t, a, col[j], &out[sel[j]], 0};

				dard_path_foreach(c, d[sel[j]].src,
						  d[sel[j]].dst, want_cb, &w);
				if (!w.found)
					ret = -ENOENT;
			}
			if (ret)
				goto fail;
		}
		/* Within a pod or under one ToR: the aggregation index only
		 * (a path under one ToR has no up hop to check). */
		for (i = 0; i < n; i++) {
			struct want w = {t, (int)aidx[i], 0, &out[i], 0};

			if (perm[i] != p ||
			    (x[i].st != x[i].dt && x[i].sp != x[i].dp))
				continue;
			dard_path_foreach(c, d[i].src, d[i].dst, want_cb, &w);
			if (!w.found) {
				ret = -ENOENT;
				goto fail;
			}
		}
	}
	ret = 0;
	goto out;
fail:
	dard_fail(err, ret, "SDN-optimal could not place the demand on %s",
		  dard_topo_label(t));
out:
	free(e);
	free(x);
	free(perm);
	free(col);
	free(aidx);
	free(idx);
	free(sel);
	free(tor_no);
	return ret;
}
