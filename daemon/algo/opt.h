/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * OPT: the max-min fair rates of flows under the best splittable
 * multipath routing (MMF-MCF) on a fat-tree, the seed paper's
 * MMF_PGFT_OPT (Mollah et al., TPDS 2017, section 3.4), and its parallel
 * form (section 3.5). It is the upper bound that no routing of whole
 * flows, ECMP, DARD or SDN, can beat in the max-min order.
 *
 * A sub-fat-tree is the set of switches at one level that reach the same
 * hosts (a ToR; a pod's aggregation switches). Any routing must take
 * what leaves a sub-fat-tree over its up links and what enters over its
 * down links, and spreading every flow evenly over all shortest paths
 * loads each of those links alike (Lemma 1), so the rates are those of
 * progressive filling over one "up" and one "down" resource per
 * sub-fat-tree, each as large as all its links together (Lemma 2).
 * Documentation/scheduling.md has the conditions and the argument.
 * Pure: no I/O.
 */
#ifndef _DARD_OPT_H
#define _DARD_OPT_H

#include <stddef.h>
#include <stdint.h>

#include "route.h"
#include "topo.h"

enum dard_opt_limits {
	DARD_OPT_THREADS_MAX = 16,
};

/* A tree's sub-fat-trees and their capacities, for dard_opt_rates(). */
struct dard_opt;

/* What one computation took. */
struct dard_opt_stats {
	unsigned rounds; /* filling rounds: distinct rate levels */
	unsigned threads;
	double thread_cpu_ms[DARD_OPT_THREADS_MAX]; /* CPU time per thread */
};

/*
 * Finds the sub-fat-trees of a finalized tree. Returns NULL with err
 * saying why for a tree where they do not decide the rates (a switch that
 * reaches some but not all of a sub-fat-tree's children, uneven up links,
 * capacities that differ within a sub-fat-tree's up links, more than one
 * group of roots), or when memory runs out.
 */
struct dard_opt *dard_opt_new(const struct dard_topo *t, char *err);
/*
 * The same with link l's capacity mbps[l] (Mbit/s, both directions;
 * t->nlinks of them, read only here) instead of the topology's: the
 * flow-level simulation's links at another rate (flowsim.h).
 */
struct dard_opt *dard_opt_new_cap(const struct dard_topo *t, const double *mbps,
				  char *err);
void dard_opt_free(struct dard_opt *o);

/*
 * Fills rate[i] (Mbit/s) for each demand d[i] (host node indices), on
 * threads threads (0 means 1); a flow from a host to itself gets
 * HUGE_VAL. The result does not depend on threads: every sum is taken in
 * the same order. Returns 0, -EINVAL with err set (not a host, too many
 * threads or flows), or -ENOMEM. st, when not NULL, gets the statistics.
 */
int dard_opt_rates(const struct dard_opt *o, const struct dard_demand *d,
		   size_t n, unsigned threads, double *rate,
		   struct dard_opt_stats *st, char *err);

#endif /* _DARD_OPT_H */
