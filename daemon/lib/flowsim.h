/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A flow-level, event-driven simulation of elephant flows on a
 * multi-rooted tree (the DARD paper, section 4.3): flows arrive, share
 * links max-min fairly (its Appendix A), and finish; a scheduler moves
 * them. DARD here is dardd's own code: monitors (monitor.c), link states
 * assembled at every query interval, and dard_sched_round_links. Pure: no
 * I/O.
 */
#ifndef _DARD_FLOWSIM_H
#define _DARD_FLOWSIM_H

#include <stddef.h>
#include <stdint.h>

#include "addr.h"
#include "traffic.h"

enum dard_sim_sched {
	DARD_SIM_ECMP, /* a path by hash at arrival, never moved */
	DARD_SIM_PVLB, /* a random path every pvlb interval */
	DARD_SIM_DARD, /* selfish scheduling, as dardd */
};

struct dard_sim_opts {
	int sched;	     /* enum dard_sim_sched */
	double elephant_age; /* s; paper 10 */
	double query;	     /* s between switch queries; paper 1 */
	double schedule;     /* rounds every this + U[0, this]; paper 5 */
	double delta;	     /* Mbit/s; paper 10 */
	double pvlb;	     /* s between pVLB re-picks; paper 10 */
	uint64_t seed;
};

struct dard_sim_flow {
	double start, end; /* s */
	unsigned moves;	   /* path switches */
};

void dard_sim_opts_init(struct dard_sim_opts *o);
const char *dard_sim_sched_name(int sched);
int dard_sim_sched_parse(const char *s);

/*
 * Runs the flows (sorted by start) to completion; out[i] is flow i's
 * outcome. Link capacities are the topology's (Mbit/s, both directions).
 * Returns 0, or a negative errno with err set.
 */
int dard_sim_run(const struct dard_topo *t, const struct dard_plan *p,
		 const struct dard_tflow *flows, size_t n,
		 const struct dard_sim_opts *o, struct dard_sim_flow *out,
		 char *err);

#endif /* _DARD_FLOWSIM_H */
