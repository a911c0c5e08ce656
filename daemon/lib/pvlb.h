/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * pVLB, the paper's periodical VLB (section 4.1): "a flow randomly picks
 * a core switch every 10 seconds", so that random placement's collisions
 * do not last. One rule for dard-sim's pvlb scheduler and dardd's pvlb
 * mode, so that the testbed and the model run the same code: a flow's
 * first re-pick comes one interval after it began, and every interval
 * after that it takes a path drawn uniformly among all of its pair's
 * (its own included, as a random core switch may be the one it has).
 */
#ifndef _DARD_PVLB_H
#define _DARD_PVLB_H

#include <stdint.h>

/* The paper's interval, in seconds. */
#define DARD_PVLB_INTERVAL 10.0

/* When a flow that began at start (seconds) first re-picks. */
double dard_pvlb_first(double start, double interval);

/*
 * One flow at time now (seconds), its next re-pick at *next: not yet due,
 * -1; due, *next moves on by one interval and the path it re-picks is
 * returned, rnd(ctx) % npaths (npaths above 0; 0 paths: -1, nothing
 * drawn). Every caller draws from its own generator, one number per
 * re-pick, so that a seeded run repeats.
 */
int dard_pvlb_step(double *next, double now, double interval, unsigned npaths,
		   uint64_t (*rnd)(void *ctx), void *ctx);

#endif /* _DARD_PVLB_H */
