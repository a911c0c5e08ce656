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

/* The least load of ch's gates, leaving the ToR or (DARD_DOWN) into it. */
static uint32_t gate_load(const uint32_t *load, const struct dard_chains *ch,
			  enum dard_dir dir)
{
	uint32_t w = UINT32_MAX, j;

	for (j = 0; j < ch->ngate; j++) {
		uint32_t x = load[dard_dlink(ch->gate[j] / 2, dir)];

		w = x < w ? x : w;
	}
	return w;
}

/*
 * best_row() of chains with c->each down chains from every up chain's
 * top: the row is u * each + j, and a chain whose first link is already
 * no better than the best is left at that.
 */
static void best_row_even(const struct dard_cands *c, const uint32_t *load,
			  uint32_t *best, uint32_t *best_load)
{
	const struct dard_chains *up = c->up, *down = c->down;
	uint32_t u, j, w, wu, ulen = up->len, dlen = down->len;
	const uint32_t *ud = up->up, *dd;

	for (u = 0; u < up->nup && *best_load; u++, ud += ulen) {
		if (load[ud[0]] >= *best_load)
			continue;
		wu = worst_load(load, ud, ulen);
		if (wu >= *best_load)
			continue;
		dd = down->down +
		     (size_t)down->first[up->top[u] - down->lo] * dlen;
		for (j = 0; j < c->each; j++, dd += dlen) {
			w = worst_load(load, dd, dlen);
			w = w > wu ? w : wu;
			if (w < *best_load) {
				*best = u * c->each + j;
				*best_load = w;
			}
		}
	}
}

/*
 * The first row of c, in order, whose most loaded link carries fewer
 * flows than *best_load, into *best and *best_load; none: unchanged.
 * Strictly fewer: ties keep the earlier row. Chained rows share their up
 * chain's load, so a chain no better than the best so far is skipped
 * whole.
 */
static void best_row(const struct dard_cands *c, const uint32_t *load,
		     uint32_t *best, uint32_t *best_load)
{
	const struct dard_chains *up = c->up, *down = c->down;
	uint32_t k = 0, u, j, b, e, w, wu;

	if (c->dl) {
		for (k = 0; k < c->npaths && *best_load; k++) {
			w = worst_load(load, c->dl + (size_t)k * c->ndl,
				       c->ndl);
			if (w < *best_load) {
				*best = k;
				*best_load = w;
			}
		}
		return;
	}
	/* Every row leaves by a source gate and arrives by a destination
	 * one: none can beat a best that the least loaded of either does
	 * not (a flow on a balanced placement, the local search's rule). */
	if (*best_load != UINT32_MAX &&
	    (gate_load(load, up, DARD_UP) >= *best_load ||
	     gate_load(load, down, DARD_DOWN) >= *best_load))
		return;
	if (c->each) {
		best_row_even(c, load, best, best_load);
		return;
	}
	for (u = 0; u < up->nup && *best_load; u++) {
		j = up->top[u] - down->lo;
		if (j >= down->n)
			continue;
		b = down->first[j];
		e = down->first[j + 1];
		wu = worst_load(load, up->up + (size_t)u * up->len, up->len);
		if (wu >= *best_load) {
			k += e - b;
			continue;
		}
		for (j = b; j < e; j++, k++) {
			w = worst_load(load, down->down + (size_t)j * down->len,
				       down->len);
			w = w > wu ? w : wu;
			if (w < *best_load) {
				*best = k;
				*best_load = w;
			}
		}
	}
}

/* A row's links gain or lose a flow. */
static void row_add(const struct dard_cands *c, uint32_t row, uint32_t *load,
		    int by)
{
	uint32_t dl[2 * DARD_LEVEL_MAX];
	unsigned j, n = dard_cands_row(c, row, dl);

	for (j = 0; j < n; j++)
		load[dl[j]] += by;
}

void dard_route_greedy_rows(const struct dard_cands *c, size_t n,
			    uint32_t *load, uint32_t *row)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t best = 0, best_load = UINT32_MAX;

		best_row(&c[i], load, &best, &best_load);
		row[i] = best;
		row_add(&c[i], best, load, 1);
	}
}

/* The load of row k's most loaded link. */
static uint32_t row_load(const struct dard_cands *c, uint32_t k,
			 const uint32_t *load)
{
	uint32_t dl[2 * DARD_LEVEL_MAX];

	return worst_load(load, dl, dard_cands_row(c, k, dl));
}

/*
 * The row flow c should take given the others' loads (see route.h),
 * its own row's load being own.
 */
static uint32_t refine_one(const struct dard_cands *c, uint32_t row,
			   uint32_t own, uint32_t pref, const uint32_t *load)
{
	uint32_t best = row, best_load = own, w;

	if (pref < c->npaths && pref != row) {
		w = row_load(c, pref, load);
		if (w <= best_load) {
			best = pref;
			best_load = w;
		}
	}
	best_row(c, load, &best, &best_load);
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
			uint32_t to, dl[2 * DARD_LEVEL_MAX], own;
			unsigned j, nd = dard_cands_row(&c[i], row[i], dl);

			/* Without itself: its own row's links look as the
			 * others' do. */
			for (j = 0; j < nd; j++)
				load[dl[j]]--;
			own = worst_load(load, dl, nd);
			to = refine_one(&c[i], row[i], own,
					pref ? pref[i] : UINT32_MAX, load);
			if (to != row[i])
				nd = dard_cands_row(&c[i], to, dl);
			for (j = 0; j < nd; j++)
				load[dl[j]]++;
			moved += to != row[i];
			row[i] = to;
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
