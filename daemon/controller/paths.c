// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The shortest paths between two ToRs, built once per pair that has a
 * flow: a flow's path index is its row (dard_path_foreach's order, the
 * same for every host pair under the two ToRs, the index hosts and the
 * datapath use), and SDN-greedy chooses among the rows' switch links.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctlr.h"
#include "rng.h"
#include "sched.h"

static void pset_free(struct cpset *p)
{
	if (!p)
		return;
	free(p->sw);
	free(p->dl);
	free(p);
}

void paths_fini(struct ctlr *c)
{
	size_t i;

	for (i = 0; i < c->ps_cap; i++)
		pset_free(c->ps[i]);
	free(c->ps);
	c->ps = NULL;
	c->ps_cap = c->nps = 0;
}

static size_t slot(const struct ctlr *c, uint32_t stor, uint32_t dtor)
{
	size_t i = dard_mix64((uint64_t)stor << 32 | dtor) & (c->ps_cap - 1);

	while (c->ps[i] && (c->ps[i]->stor != stor || c->ps[i]->dtor != dtor))
		i = (i + 1) & (c->ps_cap - 1);
	return i;
}

/* Keeps the table at most half full. */
static int grow(struct ctlr *c)
{
	struct cpset **old = c->ps;
	size_t oc = c->ps_cap, i;

	if (2 * (c->nps + 1) <= oc)
		return 0;
	c->ps_cap = oc ? 2 * oc : 1024;
	c->ps = calloc(c->ps_cap, sizeof(*c->ps));
	if (!c->ps) {
		c->ps = old;
		c->ps_cap = oc;
		return -ENOMEM;
	}
	for (i = 0; i < oc; i++)
		if (old[i])
			c->ps[slot(c, old[i]->stor, old[i]->dtor)] = old[i];
	free(old);
	return 0;
}

struct fill {
	const struct dard_topo *t;
	struct cpset *p;
	uint32_t k;
};

static int first_cb(const struct dard_path *path, void *arg)
{
	*(struct dard_path *)arg = *path;
	return 1;
}

static int fill_cb(const struct dard_path *path, void *arg)
{
	struct fill *x = arg;
	struct cpset *p = x->p;

	if (x->k >= p->npaths || path->nsw != p->nsw)
		return 1;
	memcpy(&p->sw[(size_t)x->k * p->nsw], path->sw,
	       p->nsw * sizeof(p->sw[0]));
	dard_path_dlinks(x->t, path, &p->dl[(size_t)x->k * p->ndl]);
	x->k++;
	return 0;
}

static int build(struct ctlr *c, uint32_t src, uint32_t dst, struct cpset *p)
{
	struct fill x = {.t = c->t, .p = p};
	struct dard_path first;
	long n = 1;

	if (p->stor == p->dtor) {
		/* One way, through the ToR: no switch-to-switch link. */
		first.nsw = 1;
	} else if (dard_path_foreach(c->pc, src, dst, first_cb, &first) != 1) {
		return -ENOENT;
	} else {
		n = dard_path_count(c->pc, src, dst);
	}
	if (n < 1)
		return -ENOENT;
	p->npaths = n;
	/* Shortest paths between two ToRs all turn at one level. */
	p->nsw = first.nsw;
	p->ndl = first.nsw - 1;
	p->sw = malloc((size_t)n * p->nsw * sizeof(*p->sw));
	p->dl = malloc(((size_t)n * p->ndl + 1) * sizeof(*p->dl));
	if (!p->sw || !p->dl)
		return -ENOMEM;
	if (p->stor == p->dtor) {
		p->sw[0] = p->stor;
		return 0;
	}
	dard_path_foreach(c->pc, src, dst, fill_cb, &x);
	return x.k == p->npaths ? 0 : -EIO;
}

int paths_get(struct ctlr *c, uint32_t src, uint32_t dst,
	      const struct cpset **out)
{
	uint32_t stor = dard_topo_tor(c->t, src),
		 dtor = dard_topo_tor(c->t, dst);
	struct cpset *p;
	size_t i;
	int ret;

	if (grow(c))
		return -ENOMEM;
	i = slot(c, stor, dtor);
	if (c->ps[i]) {
		c->ps[i]->used = c->st.rounds;
		*out = c->ps[i];
		return 0;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->stor = stor;
	p->dtor = dtor;
	p->used = c->st.rounds;
	ret = build(c, src, dst, p);
	if (ret) {
		pset_free(p);
		return ret;
	}
	c->ps[i] = p;
	c->nps++;
	*out = p;
	return 0;
}

void paths_trim(struct ctlr *c, size_t nflows, uint64_t since)
{
	struct cpset **old = c->ps;
	size_t oc = c->ps_cap, i;

	/* Amortised: a rebuild of the table per this many new pairs. */
	if (c->nps <= 2 * nflows + 1024)
		return;
	c->ps = calloc(oc, sizeof(*c->ps));
	if (!c->ps) {
		c->ps = old;
		return;
	}
	c->nps = 0;
	for (i = 0; i < oc; i++) {
		if (!old[i])
			continue;
		if (old[i]->used < since) {
			pset_free(old[i]);
			continue;
		}
		c->ps[slot(c, old[i]->stor, old[i]->dtor)] = old[i];
		c->nps++;
	}
	free(old);
}

int paths_row(const struct cpset *p, const struct dard_path *path)
{
	uint32_t k;

	if (path->nsw != p->nsw)
		return -1;
	for (k = 0; k < p->npaths; k++)
		if (!memcmp(&p->sw[(size_t)k * p->nsw], path->sw,
			    p->nsw * sizeof(p->sw[0])))
			return k;
	return -1;
}

unsigned paths_dlinks(const struct cpset *p, uint32_t k, uint32_t *dl)
{
	memcpy(dl, &p->dl[(size_t)k * p->ndl], p->ndl * sizeof(*dl));
	return p->ndl;
}

int paths_failed(const struct ctlr *c, const struct cpset *p, uint32_t k)
{
	unsigned j;

	if (!c->nfailed)
		return 0;
	/* A directed link's undirected one is its index / 2 (sched.h). */
	for (j = 0; j < p->ndl; j++)
		if (c->down[p->dl[(size_t)k * p->ndl + j] / 2])
			return 1;
	return 0;
}
