// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * D-mod-k, S-mod-k and SDN-greedy placements of elephant flows, and the
 * loads and bounds every placement is scored by; SDN-optimal and
 * SDN-adaptive are in route_optimal.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	unsigned i;

	for (i = 0; i < n->nup; i++)
		if (dard_topo_peer(t, node, n->up[i]) == parent)
			return i;
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
	uint32_t dl[2 * DARD_LEVEL_MAX + 1];
	unsigned i, n = dard_path_dlinks_all(t, p, dl);

	for (i = 0; i < n; i++)
		load[dl[i]]++;
}

uint32_t dard_route_max_load(const struct dard_topo *t, const uint32_t *load)
{
	uint32_t i, m = 0;

	for (i = 0; i < 2 * t->nlinks; i++)
		if (load[i] > m)
			m = load[i];
	return m;
}

int dard_route_node_load(const struct dard_topo *t, const struct dard_demand *d,
			 size_t n, uint32_t *nl, char *err)
{
	uint32_t *out = calloc(t->nnodes, sizeof(*out));
	uint32_t *in = calloc(t->nnodes, sizeof(*in)), m = 0;
	size_t i;
	int ret = 0;

	if (!out || !in) {
		ret = dard_fail(err, -ENOMEM, "out of memory");
		goto done;
	}
	for (i = 0; i < n; i++) {
		if (++out[d[i].src] > m)
			m = out[d[i].src];
		if (++in[d[i].dst] > m)
			m = in[d[i].dst];
	}
	*nl = m;
done:
	free(out);
	free(in);
	return ret;
}

struct greedy {
	const struct dard_topo *t;
	const uint32_t *load;
	struct dard_path best;
	uint32_t best_load;
	int found;
};

/* The load of the most loaded of n directed links. */
static uint32_t worst_load(const uint32_t *load, const uint32_t *dl, unsigned n)
{
	uint32_t worst = 0;
	unsigned i;

	for (i = 0; i < n; i++)
		if (load[dl[i]] > worst)
			worst = load[dl[i]];
	return worst;
}

static int greedy_cb(const struct dard_path *p, void *arg)
{
	struct greedy *g = arg;
	uint32_t dl[2 * DARD_LEVEL_MAX];
	uint32_t worst = worst_load(g->load, dl, dard_path_dlinks(g->t, p, dl));

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

void dard_route_greedy_rows(const struct dard_cands *c, size_t n,
			    uint32_t *load, uint32_t *row)
{
	size_t i;
	uint32_t k;
	unsigned j;

	for (i = 0; i < n; i++) {
		uint32_t best = 0, best_load = UINT32_MAX;
		const uint32_t *dl;

		for (k = 0; k < c[i].npaths; k++) {
			uint32_t w = worst_load(
				load, c[i].dl + (size_t)k * c[i].ndl, c[i].ndl);

			/* Strictly less: ties keep the earlier row. */
			if (w < best_load) {
				best = k;
				best_load = w;
			}
		}
		row[i] = best;
		dl = c[i].dl + (size_t)best * c[i].ndl;
		for (j = 0; j < c[i].ndl; j++)
			load[dl[j]]++;
	}
}

/* A row's links gain or lose a flow. */
static void row_add(const struct dard_cands *c, uint32_t row, uint32_t *load,
		    int by)
{
	const uint32_t *dl = c->dl + (size_t)row * c->ndl;
	unsigned j;

	for (j = 0; j < c->ndl; j++)
		load[dl[j]] += by;
}

/* The row flow c should take given the others' loads (see route.h). */
static uint32_t refine_one(const struct dard_cands *c, uint32_t row,
			   uint32_t pref, const uint32_t *load)
{
	uint32_t best = row, k, w;
	uint32_t best_load =
		worst_load(load, c->dl + (size_t)row * c->ndl, c->ndl);

	if (pref < c->npaths && pref != row) {
		w = worst_load(load, c->dl + (size_t)pref * c->ndl, c->ndl);
		if (w <= best_load) {
			best = pref;
			best_load = w;
		}
	}
	for (k = 0; k < c->npaths; k++) {
		w = worst_load(load, c->dl + (size_t)k * c->ndl, c->ndl);
		if (w < best_load) {
			best = k;
			best_load = w;
		}
	}
	return best;
}

size_t dard_route_refine_rows(const struct dard_cands *c, size_t n,
			      const uint32_t *pref, unsigned passes,
			      uint32_t *load, uint32_t *row)
{
	size_t i, moves = 0, moved = 1;
	unsigned pass;

	for (i = 0; i < n; i++)
		row_add(&c[i], row[i], load, 1);
	for (pass = 0; moved && pass < passes; pass++) {
		for (moved = 0, i = 0; i < n; i++) {
			uint32_t to;

			/* Without itself: its own row's links look as the
			 * others' do. */
			row_add(&c[i], row[i], load, -1);
			to = refine_one(&c[i], row[i],
					pref ? pref[i] : UINT32_MAX, load);
			moved += to != row[i];
			row[i] = to;
			row_add(&c[i], row[i], load, 1);
		}
		moves += moved;
	}
	return moves;
}

int dard_route_lower_bound(const struct dard_topo *t,
			   const struct dard_demand *d, size_t n, uint32_t *lb,
			   char *err)
{
	uint32_t *cnt, m, i;
	size_t j;
	int ret = dard_route_node_load(t, d, n, &m, err);

	if (ret)
		return ret;
	cnt = calloc(2 * (size_t)t->nnodes, sizeof(*cnt));
	if (!cnt)
		return dard_fail(err, -ENOMEM, "out of memory");
	for (j = 0; j < n; j++) {
		uint32_t st = dard_topo_tor(t, d[j].src);
		uint32_t dt = dard_topo_tor(t, d[j].dst);

		if (st == dt)
			continue;
		cnt[st]++;
		cnt[t->nnodes + dt]++;
	}
	/* A ToR's non-local flows share its up links, each way. */
	for (i = 0; i < t->nnodes; i++) {
		unsigned u = t->node[i].nup;
		uint32_t x = cnt[i] > cnt[t->nnodes + i] ? cnt[i]
							 : cnt[t->nnodes + i];

		if (u && (x + u - 1) / u > m)
			m = (x + u - 1) / u;
	}
	free(cnt);
	*lb = m;
	return 0;
}
