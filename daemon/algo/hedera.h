/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Hedera-style centralized scheduling, as the DARD paper compared against
 * it (its section 4.3.1; Hedera, NSDI 2010, sections 4.2-4.3): estimate
 * every elephant's natural demand, then simulated annealing over a choice
 * of path per destination host, minimising the capacity the demands
 * exceed. Pure: no I/O.
 *
 * Hedera's state gives each destination host one core switch, so that
 * every flow to that host crosses it. Here a host holds an index k, and a
 * flow to it takes its candidate path k mod (its number of paths): on a
 * fat-tree, where candidates run core by core, that is Hedera's core; on
 * a Clos network it names the (up, down) aggregation pair and the core,
 * which the DARD paper's Clos variant assigns.
 */
#ifndef _DARD_HEDERA_H
#define _DARD_HEDERA_H

#include <stddef.h>
#include <stdint.h>

#include "route.h"
#include "topo.h"

struct dard_hedera_flow {
	uint32_t src, dst;   /* hosts */
	double demand;	     /* Mbit/s; dard_hedera_demand fills it */
	struct dard_cands c; /* its candidate paths, listed rows (c.dl) */
	uint32_t row;	     /* out: the chosen candidate */
};

struct dard_hedera;

/*
 * The annealer's state (an index per host, kept between rounds); NULL
 * only when memory runs out.
 */
struct dard_hedera *dard_hedera_new(const struct dard_topo *t, uint64_t seed);
void dard_hedera_free(struct dard_hedera *h);

/*
 * Demand estimation: the rates the flows would reach if only the hosts'
 * links limited them, each shared max-min fairly. Hedera's estimator
 * converges to exactly these (its section 4.2: sources spread their
 * capacity, receivers cut what exceeds theirs, until nothing changes);
 * dard computes them in one pass of dard_maxmin, on cap (2 * nlinks
 * capacities, as the annealer takes). 0, or a negative errno.
 */
int dard_hedera_demand(const struct dard_topo *t, const double *cap,
		       struct dard_hedera_flow *f, size_t n);

/*
 * Simulated annealing from the state the last call left: iters steps (0:
 * 1000 plus 10 per destination host), each changing the index of one
 * destination host (swapping it with another host under the same ToR, or
 * a random index), accepted if the energy (the sum over directed switch
 * links of the demand beyond capacity, Mbit/s) falls, or else with
 * probability exp(-rise / T), T falling linearly to 0. Every flow's row is
 * set from the best state seen, and *energy (when not NULL) to its energy.
 * cap holds 2 * nlinks capacities. Returns 0, or -ENOMEM.
 */
int dard_hedera_anneal(struct dard_hedera *h, const double *cap,
		       struct dard_hedera_flow *f, size_t n, unsigned iters,
		       double *energy);

#endif /* _DARD_HEDERA_H */
