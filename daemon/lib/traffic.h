/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The paper's traffic patterns (section 4.1) as a list of elephant flows:
 * random, staggered(ToRP, PodP) and stride(step). Every host is a source;
 * its flows arrive as a Poisson process of the given rate, each to a
 * destination the pattern draws. With a workload (workload.h) the sizes
 * are drawn from it instead, and each source's rate loads its host link
 * to the given share. A seed fixes everything. Pure: no I/O; shared by
 * the experiment runner and the simulator.
 */
#ifndef _DARD_TRAFFIC_H
#define _DARD_TRAFFIC_H

#include <stddef.h>
#include <stdint.h>

#include "topo.h"

enum dard_pattern {
	DARD_PATTERN_RANDOM,
	DARD_PATTERN_STAGGERED,
	DARD_PATTERN_STRIDE,
};

struct dard_traffic_opts {
	int pattern;	   /* enum dard_pattern */
	double torp, podp; /* staggered: same ToR, same pod (paper 0.5, 0.3) */
	unsigned step;	   /* stride; 0: the hosts of one pod, so that every
			      destination is in another pod */
	double rate;	   /* flows per second per source */
	double duration;   /* seconds in which flows start */
	uint64_t bytes;	   /* per flow */
	uint64_t seed;
	/*
	 * enum dard_workload: NONE (0) is rate and bytes above; any other
	 * draws each flow's size from its distribution, and each source's
	 * flows arrive at load * its link's capacity / the mean size. Then
	 * rate and bytes must be 0: one traffic, said one way.
	 */
	int workload;
	double load; /* a share of the host link, (0, 1] */
	double mbps; /* every host link's capacity; 0: the topology's */
};

struct dard_tflow {
	double start; /* seconds from the experiment's start */
	uint32_t src, dst;
	uint64_t bytes;
};

void dard_traffic_opts_init(struct dard_traffic_opts *o);
int dard_pattern_parse(const char *s);
const char *dard_pattern_name(int pattern);

/*
 * perm[i] for i < n: a random permutation of 0..n-1 with no fixed point
 * (Sattolo's shuffle: one cycle, so that nobody sends to itself), drawn
 * with xorshift64* from *rng (not 0).
 */
void dard_derangement(uint32_t *perm, uint32_t n, uint64_t *rng);

/* The pod of a host: the first aggregation switch above its ToR. */
uint32_t dard_host_pod(const struct dard_topo *t, uint32_t host);

/*
 * The flows, sorted by start time, into *out (free() it). Returns how
 * many, or a negative errno with err set (bad options, a pattern the
 * topology cannot serve: staggered without a second host under a ToR).
 */
long dard_traffic_gen(const struct dard_topo *t,
		      const struct dard_traffic_opts *o,
		      struct dard_tflow **out, char *err);

#endif /* _DARD_TRAFFIC_H */
