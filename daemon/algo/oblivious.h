/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Hose-model oblivious routing (the compact-oblivious-routing seed,
 * Applegate and Cohen's dual): per (source ToR, destination ToR) pair,
 * weights over the pair's shortest paths that minimise the largest
 * switch-link utilisation under the worst demand in which every host
 * sends and receives at most its link's capacity, failed links left out.
 * Solved as one LP with GLPK. Documentation/routing.md, "Oblivious
 * routing", has the LP, why solving it per ToR pair is exact, and what
 * happens beyond the sizes where it is practical. Pure: no I/O.
 *
 * Utilisations count switch-to-switch links only: a host link carries at
 * most what its host sends or receives, so it is at most 1 under any
 * routing, and 1 under the worst demand. A value under 1 says the
 * fabric is never the bottleneck.
 */
#ifndef _DARD_OBLIVIOUS_H
#define _DARD_OBLIVIOUS_H

#include <stddef.h>
#include <stdint.h>

#include "path.h"
#include "topo.h"

enum dard_obl_limits {
	/*
	 * LP columns solved by default: fattree:6 (6,427 columns) and
	 * clos:8,8,4 (5,217) solve in seconds, fattree:8 (about 31,000)
	 * did not in 17 minutes (Documentation/benchmarks.md).
	 */
	DARD_OBL_VARS_DEFAULT = 20000,
	/* GLPK's time limit by default (ms): past it, the fallback. */
	DARD_OBL_TIME_DEFAULT = 60000,
	/* The sum of a pair's quantized weights (dard_obl_quantize). */
	DARD_OBL_WEIGHT_SUM = 65535,
};

struct dard_obl; /* the weights of every ToR pair, and how they came */

/*
 * The hose-model oblivious routing of t with the links down[l] != 0
 * failed (l: index in t->link; down NULL: none): path weights per
 * (source ToR, destination ToR) pair minimising the worst-case maximum
 * link utilisation over every demand in which each host sends and
 * receives at most its link's capacity. Beyond max_vars LP columns
 * (0: DARD_OBL_VARS_DEFAULT) it does not solve the LP but returns the
 * fallback (uniform over the paths that survive) and says so
 * (dard_obl_exact, dard_obl_why); so it does when GLPK fails or takes
 * longer than DARD_OBL_TIME_DEFAULT.
 *
 * A host whose link is down sends and receives nothing. A ToR pair with
 * no surviving path is left out: it has no weights, its hosts' demand
 * between them cannot be carried and does not count against the other
 * pairs, and dard_obl_unreachable() counts such pairs. pc must be t's.
 * 0, or -errno with err (DARD_ERR_MAX): -EINVAL for a tree that is not
 * finalized, a down[] entry other than 0 or 1, a NULL argument; -E2BIG
 * for a pair with more paths than the datapath holds (DARD_PATHS_MAX);
 * -ENOMEM for our own allocations. GLPK's own failing allocation aborts
 * the process (its documented behaviour): that one is not reported.
 */
int dard_obl_solve(const struct dard_topo *t, struct dard_pathctx *pc,
		   const uint8_t *down, size_t max_vars, struct dard_obl **out,
		   char *err);
/*
 * The same, with down's length: -EINVAL unless ndown is t->nlinks (or
 * down is NULL), as dard_obl_solve() cannot tell a short array; and with
 * GLPK's time limit in ms (0: DARD_OBL_TIME_DEFAULT, wall clock).
 */
int dard_obl_solve_n(const struct dard_topo *t, struct dard_pathctx *pc,
		     const uint8_t *down, size_t ndown, size_t max_vars,
		     unsigned time_ms, struct dard_obl **out, char *err);
void dard_obl_free(struct dard_obl *o);

/* Worst-case switch-link utilisation (1.0 = full); NAN for the fallback. */
double dard_obl_util(const struct dard_obl *o);
int dard_obl_exact(const struct dard_obl *o); /* 1: LP, 0: fallback */
/* Why the fallback ("" when exact): the column count over the limit... */
const char *dard_obl_why(const struct dard_obl *o);
/* The LP's rows and columns (what they would have been, for a fallback
 * over the limit: columns counted until the limit was passed). */
void dard_obl_size(const struct dard_obl *o, size_t *rows, size_t *cols);
/* Ordered ToR pairs, both with hosts, that no surviving path joins. */
uint32_t dard_obl_unreachable(const struct dard_obl *o);

/*
 * The weights of paths from any host under src_tor to any host under
 * dst_tor, in dard_path_foreach() order (the datapath's path index),
 * summing to 1 (dead paths 0); *n gets the number of paths. NULL for a
 * pair with no surviving path or src_tor == dst_tor (or not ToRs).
 */
const double *dard_obl_weights(const struct dard_obl *o, uint32_t src_tor,
			       uint32_t dst_tor, unsigned *n);

/*
 * Fills w[0..n-1] for the paths from src_tor to dst_tor (ToR nodes;
 * paths[i] between their first hosts, dead[i] != 0 if it crosses a
 * failed link). Called only for pairs with a live path. 0, or -errno.
 */
typedef int (*dard_obl_weights_cb)(uint32_t src_tor, uint32_t dst_tor,
				   const struct dard_path *paths,
				   const uint8_t *dead, unsigned n, double *w,
				   void *arg);

/*
 * The worst-case hose utilisation of the weights cb gives (the same
 * layout as dard_obl_weights) on t with down[] failed, link by link: the
 * largest demand a link can get is a transportation problem, solved with
 * GLPK. Weights must be finite, >= 0, 0 on dead paths (a flow there is
 * lost: map it first, as dard_obl_ecmp_cb does) and sum to 1; otherwise
 * -EINVAL naming the pair and path. *util gets the utilisation. Errors
 * as dard_obl_solve(); the callback's error stops it.
 */
int dard_obl_eval(const struct dard_topo *t, struct dard_pathctx *pc,
		  const uint8_t *down, dard_obl_weights_cb cb, void *arg,
		  double *util, char *err);

/* Callbacks for dard_obl_eval: arg is unused but for dard_obl_cb. */
/* A solution's weights (arg: const struct dard_obl *, of the same t). */
int dard_obl_cb(uint32_t src_tor, uint32_t dst_tor,
		const struct dard_path *paths, const uint8_t *dead, unsigned n,
		double *w, void *arg);
/* Uniform over the live paths: the fallback. */
int dard_obl_live_cb(uint32_t src_tor, uint32_t dst_tor,
		     const struct dard_path *paths, const uint8_t *dead,
		     unsigned n, double *w, void *arg);
/*
 * ECMP as both datapaths place a new flow: uniform over all n paths by
 * hash, and a flow hashed onto a dead path takes the first live path
 * after it in index order (dard_next_live() in <linux/dard_policy.h>).
 */
int dard_obl_ecmp_cb(uint32_t src_tor, uint32_t dst_tor,
		     const struct dard_path *paths, const uint8_t *dead,
		     unsigned n, double *w, void *arg);
/*
 * The same, but a flow on a dead path following the repair order
 * (dard_repair_order) to the first live path: what TCP's in-band repair
 * does with flows already placed when the path died.
 */
int dard_obl_repair_cb(uint32_t src_tor, uint32_t dst_tor,
		       const struct dard_path *paths, const uint8_t *dead,
		       unsigned n, double *w, void *arg);

/*
 * The datapath's integer weights: out[i] proportional to w[i], summing
 * to DARD_OBL_WEIGHT_SUM by largest remainder (ties to the lower index),
 * every w[i] > 0 keeping at least 1. All zeros when no w[i] is > 0 or
 * n > DARD_PATHS_MAX.
 */
void dard_obl_quantize(const double *w, unsigned n, uint16_t *out);

#endif /* _DARD_OBLIVIOUS_H */
