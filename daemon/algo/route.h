/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Centralized and static routing of elephant flows on multi-rooted trees,
 * for the controller and the simulator (the SDN thesis, sections 2.2.1 and
 * 4.3.1). Pure: no I/O. A placement is one shortest path per flow; loads
 * count flows per directed link (sched.h's dard_dlink), host links
 * included, so that L_D >= NL_D holds for any placement (Theorem 1).
 * Choices look at switch-to-switch links only: a flow's host links are
 * the same on every path.
 */
#ifndef _DARD_ROUTE_H
#define _DARD_ROUTE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "path.h"

enum dard_modk {
	DARD_DMODK_LITERAL, /* every up hop takes port d mod k (the thesis) */
	DARD_DMODK_DIGIT,   /* the XGFT form: digit i of d, i per level */
	DARD_SMODK_LITERAL, /* as D-mod-k, on the source */
	DARD_SMODK_DIGIT,
};

const char *dard_modk_name(int which);

/*
 * The path of src -> dst under D-mod-k or S-mod-k: at each upward hop the
 * switch picks up port index (x mod k) (literal) or (x / w_1..w_i mod k)
 * (digit), x being the host's rank among hosts, k the switch's up ports,
 * w the up-port counts below it; then the unique way down. 0, or -ENOENT.
 */
int dard_route_modk(struct dard_pathctx *c, const struct dard_topo *t,
		    uint32_t src, uint32_t dst, int which,
		    struct dard_path *out);

struct dard_demand {
	uint32_t src, dst; /* hosts */
};

/*
 * SDN-greedy (the thesis's Algorithm 2): flows in the given order, each on
 * the shortest path whose most loaded switch-to-switch link carries the
 * fewest flows so far (ties: the first in dard_path_foreach's order), its
 * links' loads then raised by one. load holds 2 * nlinks counters and is
 * added to, so earlier flows may be in it. 0, or a negative errno.
 */
int dard_route_greedy(struct dard_pathctx *c, const struct dard_topo *t,
		      const struct dard_demand *d, size_t n, uint32_t *load,
		      struct dard_path *out);

/*
 * A ToR's chains of directed switch links to one level above it, len
 * links each: up from the ToR (nup of them, in dard_path_foreach's order,
 * each with the rank of its top switch among its level's switches), and
 * down to the ToR from each switch of that level whose rank is in lo ..
 * lo + n - 1: rank r's down chains, in that order too, are rows
 * first[r - lo] .. first[r - lo + 1] - 1 of down. A ToR pair's shortest
 * paths turning at that level are the source's up chains, each followed
 * by the destination's down chains from its top: built once per ToR and
 * level, shared by every pair (the controller's path rows).
 */
struct dard_chains {
	uint32_t nup, lo, n;
	uint32_t *top, *up;
	uint32_t *first, *down;
	uint32_t each; /* down chains from every such switch, or 0: differ */
	uint32_t set;  /* equal for two ToRs with the same such switches */
	/* The ToR's own up links, as dard_dlink(l, DARD_UP): every up
	 * chain starts with one, every down chain ends with one downward. */
	const uint32_t *gate;
	uint32_t ngate;
	uint8_t len;
};

/* How many down chains of ch start at the switch of rank r. */
static inline uint32_t dard_chains_from(const struct dard_chains *ch,
					uint32_t r)
{
	r -= ch->lo;
	return r < ch->n ? ch->first[r + 1] - ch->first[r] : 0;
}

/*
 * A flow's candidate paths: npaths rows of ndl directed switch links.
 * Listed in dl, or when dl is NULL as chains: up's up chains, each
 * followed by down's down chains from its top (npaths rows in all; each
 * such count, or 0 when they differ).
 */
struct dard_cands {
	const uint32_t *dl;
	uint32_t npaths;
	uint8_t ndl;
	const struct dard_chains *up, *down;
	uint32_t each;
};

/*
 * Row k of c's ndl directed links into dl; returns ndl. Inline: the
 * controller's path sets read rows without linking the placements.
 */
static inline unsigned dard_cands_row(const struct dard_cands *c, uint32_t k,
				      uint32_t *dl)
{
	const struct dard_chains *up = c->up, *down = c->down;
	uint32_t u = k, d = 0, n;
	const uint32_t *x;
	unsigned i;

	if (c->dl) {
		memcpy(dl, c->dl + (size_t)k * c->ndl, c->ndl * sizeof(*dl));
		return c->ndl;
	}
	if (c->each > 1) {
		u = k / c->each;
		d = k % c->each;
	} else if (!c->each) {
		/* Chains differ in how many go down from their tops. */
		for (u = 0, d = k;
		     d >= (n = dard_chains_from(down, up->top[u])); u++)
			d -= n;
	}
	x = up->up + (size_t)u * up->len;
	for (i = 0; i < up->len; i++)
		*dl++ = x[i];
	d += down->first[up->top[u] - down->lo];
	x = down->down + (size_t)d * down->len;
	for (i = 0; i < down->len; i++)
		*dl++ = x[i];
	return c->ndl;
}

/*
 * SDN-greedy, the same rule and ties, on candidates given as rows (the
 * simulator keeps them per ToR pair, so nothing is enumerated): row[i]
 * gets flow i's choice, and load (2 * nlinks) its switch links' counts.
 */
void dard_route_greedy_rows(const struct dard_cands *c, size_t n,
			    uint32_t *load, uint32_t *row);

/*
 * SDN-optimal on a three-level fat-tree (Documentation/routing.md), each
 * path built from its (aggregation index, core) choice:
 * - full bisection (every switch with as many up ports as down): the
 *   demand is split into NL_D permutations by edge-colouring the host
 *   multigraph (the thesis's Algorithm 3), and each permutation is routed
 *   free of contention by two more colourings, of ToR-to-ToR demand onto
 *   aggregation indices and then, per index, of pod-to-pod demand onto
 *   cores. L_D = NL_D, the lower bound (Theorem 2);
 * - ToRs tapered (more hosts than up ports u, e.g. fattree:P,T): the
 *   sub-permutation scheme with links counted per switch: the ToR-to-ToR
 *   demand is coloured with u * ceil(D / u) colours, D the most non-local
 *   flows a ToR sends or receives, and every u colours make a round that
 *   puts at most one flow on any switch-to-switch link. L_D equals
 *   dard_route_lower_bound(), so it is optimal too.
 * Aggregation switches must not be tapered. Returns 0, -EINVAL with err
 * set for another kind of tree, or -ENOMEM.
 */
int dard_route_optimal(struct dard_pathctx *c, const struct dard_topo *t,
		       const struct dard_demand *d, size_t n,
		       struct dard_path *out, char *err);

/*
 * SDN-optimal's checked view of t, built once for callers that place many
 * demands on one tree (dard-sim's controller rounds): 0, or -EINVAL with
 * err saying why t is refused, or -ENOMEM. t must outlive it.
 */
struct dard_route_tree;
int dard_route_tree_new(const struct dard_topo *t, struct dard_route_tree **out,
			char *err);
void dard_route_tree_free(struct dard_route_tree *rt);
/* dard_route_optimal() on a tree built by dard_route_tree_new(). */
int dard_route_optimal_tree(struct dard_pathctx *c,
			    const struct dard_route_tree *rt,
			    const struct dard_demand *d, size_t n,
			    struct dard_path *out, char *err);

/*
 * SDN-optimal with the ToR colouring of the whole demand on full-bisection
 * trees too (the scheme the thesis's tapered variant uses), not the NL_D
 * permutations first. L_D is the same lower bound, but switch-to-switch
 * links carry at most ceil(D / u) flows, D the most non-local flows a ToR
 * sends or receives: the permutations, each routed free of contention on
 * its own, can stack up to NL_D flows on one switch link, far above that
 * when L_D is set by a busy host (Documentation/experiments.md).
 */
int dard_route_optimal_tor(struct dard_pathctx *c,
			   const struct dard_route_tree *rt,
			   const struct dard_demand *d, size_t n,
			   struct dard_path *out, char *err);

/*
 * Local search on a placement given as rows: load (2 * nlinks) is added
 * the rows' switch-link counts, then each flow in turn moves to the row
 * whose most loaded link, without the flow, carries the fewest flows, if
 * that is strictly fewer than on its own row; with pref, to pref[i] when
 * that is no worse than its own row (a controller's current paths: kept
 * where the new placement gains nothing). Passes over the flows repeat,
 * at most passes times, until none moves. A move never raises the largest
 * load of any link, so L_D never grows. Returns the moves made; row and
 * load hold the result.
 */
size_t dard_route_refine_rows(const struct dard_cands *c, size_t n,
			      const uint32_t *pref, unsigned passes,
			      uint32_t *load, uint32_t *row);

/* Whether dard_route_optimal handles t: 0, or -EINVAL with err saying why. */
int dard_route_optimal_check(const struct dard_topo *t, char *err);

/*
 * The least L_D any single-path placement of d can have: NL_D, and for
 * each ToR its non-local flows, either way, over its up ports, rounded up.
 * On the trees dard_route_optimal() accepts, it reaches this bound.
 * Returns 0 with the bound in *lb, or -ENOMEM with err set.
 */
int dard_route_lower_bound(const struct dard_topo *t,
			   const struct dard_demand *d, size_t n, uint32_t *lb,
			   char *err);

enum dard_sdn_choice {
	DARD_SDN_SINGLE,    /* SDN-optimal's paths, free of contention */
	DARD_SDN_MULTIPATH, /* left to the adaptive multipath routing */
};

/*
 * SDN-adaptive (the thesis, section 4.3.3): "if the traffic demand D is
 * less than a permutation, use SDN-optimal; otherwise, use the underlying
 * adaptive routing". Read as: if SDN-optimal can place d free of
 * contention (dard_route_lower_bound() <= 1: at most a permutation, and on
 * a tapered tree no ToR with more non-local flows either way than up
 * ports), out gets its paths and DARD_SDN_SINGLE is returned; otherwise
 * DARD_SDN_MULTIPATH, out untouched. A negative errno as
 * dard_route_optimal() for a tree it refuses, or -ENOMEM: never a choice
 * made on a bound memory ran out computing.
 */
int dard_route_adaptive(struct dard_pathctx *c, const struct dard_topo *t,
			const struct dard_demand *d, size_t n,
			struct dard_path *out, char *err);

/* Adds a path's links, host links included, to load. */
void dard_route_load(const struct dard_topo *t, const struct dard_path *p,
		     uint32_t *load);
/* L_D: the largest load of any link. */
uint32_t dard_route_max_load(const struct dard_topo *t, const uint32_t *load);
/*
 * NL_D: the most flows any host sends or receives. Returns 0 with it in
 * *nl, or -ENOMEM with err set.
 */
int dard_route_node_load(const struct dard_topo *t, const struct dard_demand *d,
			 size_t n, uint32_t *nl, char *err);

#endif /* _DARD_ROUTE_H */
