/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A flow-level, event-driven simulation of elephant flows on a
 * multi-rooted tree (the DARD paper, section 4.3): flows arrive, share
 * links max-min fairly (its Appendix A), and finish; a scheduler moves
 * them. DARD here is dardd's own code: monitors (monitor.c), link states
 * assembled at every query interval, and dard_sched_round_links. The
 * centralized schedulers are the library's too: Hedera (hedera.c),
 * SDN-greedy and SDN-optimal (route.c), and so is the bound, OPT (opt.c).
 * Each scheduler is one ops table (flowsim_int.h): ECMP and pVLB in
 * flowsim_sched.c, DARD in flowsim_dard.c, the controllers in
 * flowsim_ctl.c, the bound in flowsim_bound.c. Pure: no I/O.
 */
#ifndef _DARD_FLOWSIM_H
#define _DARD_FLOWSIM_H

#include <stddef.h>
#include <stdint.h>

#include "addr.h"
#include "traffic.h"

enum dard_sim_sched {
	DARD_SIM_ECMP,	     /* a path by hash at arrival, never moved */
	DARD_SIM_PVLB,	     /* a random path every pvlb seconds of a flow */
	DARD_SIM_DARD,	     /* selfish scheduling, as dardd: the fast mode */
	DARD_SIM_DARD_PAPER, /* the same under the paper's mode (sched.h) */
	DARD_SIM_HEDERA,     /* demand estimation and simulated annealing */
	DARD_SIM_GREEDY,     /* SDN-greedy over the elephants, every round */
	/*
	 * SDN-optimal over the elephants, every round, with the ToR
	 * colouring of the whole demand and a local search that keeps L_D
	 * (dard_route_optimal_tor, dard_route_refine_rows).
	 */
	DARD_SIM_OPTIMAL,
	/*
	 * A reference for failures: ECMP in the switches, whose routing
	 * protocol withdraws a dead link and re-hashes its flows onto live
	 * paths after a convergence delay. Without failures it is ECMP.
	 */
	DARD_SIM_SWITCH_ECMP,
	/* The thesis's SDN-optimal as it stands (dard_route_optimal). */
	DARD_SIM_OPTIMAL_THESIS,
	/*
	 * A reference, not a scheduler: no flow is on a path, and every
	 * active flow runs at its max-min fair rate under the best
	 * splittable multipath routing (OPT, opt.h), which no routing of
	 * whole flows beats. On the trees OPT handles, without failures.
	 */
	DARD_SIM_BOUND,
	DARD_SIM_NSCHED,
};

/* A switch-to-switch link (topology index) down from down to up (s). */
struct dard_sim_fail {
	uint32_t link;
	double down, up; /* up: HUGE_VAL when it stays down */
};

/*
 * A link (topology index) at factor of its capacity, both directions,
 * for the whole run: a port negotiated down, a lossy cable. Several on
 * one link multiply.
 */
struct dard_sim_degrade {
	uint32_t link;
	double factor; /* above 0, up to 1 */
};

struct dard_sim_opts {
	int sched; /* enum dard_sim_sched */
	/*
	 * DARD's timers; below 0 (the default): the scheduler's mode's
	 * (dard_sched_modes: dard the fast one, dard-paper the paper's;
	 * every other scheduler counts elephants at the paper's age).
	 */
	double elephant_age; /* s; paper 10 */
	/* Bytes it must have carried too (dard_is_elephant); below 0 (the
	 * default): dard_elephant_bytes_for its host link. */
	double elephant_bytes;
	double query;	 /* s between switch queries; paper 1 */
	double schedule; /* s; rounds every this + U[0, this]; paper 5 */
	double delta;	 /* Mbit/s; paper 10 */
	double quiet;	 /* sched.h's; paper 0 */
	double sleep;	 /* s; paper 0 */
	double busy;	 /* sched.h's; paper 0 */
	double escape;	 /* sched.h's; paper 0 */
	double watch;	 /* s, sched.h's; 0: none, paper's */
	/*
	 * DARD: a switch counts an elephant on a link only while its rate
	 * is this share of the link's bandwidth or more (dard-switchd's
	 * --min-share); below 0 (the default): the mode's, dard 1/64
	 * (DARD_SW_SHARE_INV), dard-paper 0, every elephant.
	 */
	double min_share;
	/*
	 * DARD: 1 (the default), a host's rounds see another host's moves
	 * only once a query has counted them, as dardd's do, so that two
	 * hosts may move onto one link between two queries; 0: every move
	 * at once, as the simulator did before.
	 */
	uint32_t stale;
	double pvlb;	 /* s between a flow's pVLB re-picks; paper 10 */
	double central;	 /* s between centralized rounds; paper 5 */
	unsigned anneal; /* Hedera's steps per round; 0: 1000 + 10 per
			    destination host */
	double large;	 /* a controller also sees flows at this share
			    of their host link's rate (Hedera: 0.1) */
	/*
	 * 0: exact, rates recomputed at every event. Otherwise rates are
	 * recomputed every step seconds only: arrivals wait for the next
	 * step, a finished flow's share idles until it, and every other
	 * event (ages, queries, rounds) is taken at the first step after it
	 * is due. Completions stay exact within a step.
	 */
	double step;
	uint64_t seed;
	/*
	 * Link failures (flowsim_fail.c): a failed link carries nothing.
	 * None: the run is as it always was.
	 */
	const struct dard_sim_fail *fail;
	size_t nfail;
	/*
	 * Degraded links (flowsim_mbps): max-min fairness and every
	 * scheduler that reads capacities see them, as the switches report
	 * their ports' real speed (DARD's link states, Hedera's annealing);
	 * ECMP, pVLB and the SDN controllers' elephant counts are blind to
	 * capacity. None: the run is as it always was.
	 */
	const struct dard_sim_degrade *degrade;
	size_t ndegrade;
	double converge; /* s: switch-ecmp's routing convergence; 0.2 */
	double rto;	 /* s: DARD's repath of a flow stalled on a dead
			    path it was not told of; 0: none */
	/* sdn-optimal: local search passes (0: none); 4 */
	uint32_t refine;
	/* sdn-optimal: a flow keeps its path where the new one is no
	 * better (fewer moves, the same L_D); 0 */
	uint32_t keep;
	/*
	 * dard, dard-paper: a ToR's hosts share the answers of the switches
	 * they all ask (share.h, dardd's default); 0: each host asks every
	 * switch itself. Counts control traffic only: the fluid model gives
	 * every host the same answers either way.
	 */
	uint32_t share;
	/*
	 * Every link's capacity (Mbit/s, both directions), a testbed's
	 * rate; 0: the topology's. Flows share goodput times it (0 to 1;
	 * 1): what a transfer's payload gets of the wire, 1428 bytes in
	 * each 1514 for TCP over Ethernet, so that a flow alone on its path
	 * takes as long as the testbed's. The schedulers see the links at
	 * that rate too.
	 */
	double link;
	double goodput;
	/*
	 * dard, dard-paper: 1 (the default), a flow is on one path, as
	 * always; K (2 to DARD_SIM_SPLIT_MAX), split mode (issue 31): when
	 * a flow becomes an elephant, its host spreads it over K alias
	 * pairs. It gets K parts, each a fluid subflow on its own row: part
	 * 0 keeps the flow's row, the other K - 1 take distinct rows (no
	 * more than the pair has), those the host's view of the link states
	 * (the one its rounds use) gives the most bandwidth with one more
	 * elephant, or hashed before any query. Each part is a flow of its
	 * own for max-min fairness, as uncoupled MPTCP subflows or flowlets
	 * spread over the pairs would be: the flow's rate is the sum of its
	 * parts', and the flow finishes, all parts at once, when its bytes
	 * are done. The switches count each part as an elephant, and a
	 * round may move a part, never onto a path another part of its flow
	 * holds. Not fair to whole flows: at a shared bottleneck a flow of
	 * K parts takes K shares against a single-path flow's one. The
	 * other schedulers ignore it; with failures it is refused.
	 */
	uint32_t split;
};

enum { DARD_SIM_SPLIT_MAX = 8 };

struct dard_sim_flow {
	double start, end; /* s */
	unsigned moves;	   /* path switches */
};

/* Control messages, counted with the DARD paper's sizes (section 4.3.4). */
enum {
	DARD_SIM_QUERY_BYTES = 48,  /* host to switch */
	DARD_SIM_REPLY_BYTES = 32,  /* switch to host */
	DARD_SIM_REPORT_BYTES = 80, /* ToR to controller, per elephant */
	DARD_SIM_UPDATE_BYTES = 72, /* controller to switch, per new path hop */
};

struct dard_sim_stats {
	double ctl_bytes;   /* control messages, both directions */
	double share_bytes; /* of which SHAREs among a ToR's hosts */
	unsigned notices;   /* the agents' (the watch's), to hosts */
	size_t elephants;   /* flows that lived to the elephant age */
	size_t neutral;	    /* DARD's neutral moves (sched.h, escape) */
	double end;	    /* s: the last completion */
	/* With failures: */
	double stalled;	   /* flow-seconds active at rate 0 */
	size_t unfinished; /* flows stalled for good: their end is -1 */
};

void dard_sim_opts_init(struct dard_sim_opts *o);
/*
 * The share of a link's bandwidth at or above which a switch counts an
 * elephant on it under o: o->min_share, or the mode's (dard: 1/64,
 * dard-paper and the others: 0, every elephant).
 */
double dard_sim_min_share(const struct dard_sim_opts *o);
/*
 * Whether o->sched runs on t under o: 0, or -EINVAL with err saying why
 * (SDN-optimal or bound on a tree it does not handle, bound with
 * failures or with degraded links that make a sub-fat-tree uneven, DARD
 * split with failures), as dard_sim_run would refuse, before any flow.
 */
int dard_sim_check(const struct dard_topo *t, const struct dard_sim_opts *o,
		   char *err);
const char *dard_sim_sched_name(int sched);
int dard_sim_sched_parse(const char *s);

/*
 * Runs the flows (sorted by start) to completion; out[i] is flow i's
 * outcome, st (when not NULL) the totals. Link capacities are the
 * topology's or o->link's (Mbit/s, both directions), times o->goodput,
 * times a degraded link's factors.
 * Returns 0, or a negative errno with err set (-EINVAL: what
 * dard_sim_check refuses).
 */
int dard_sim_run(const struct dard_topo *t, const struct dard_plan *p,
		 const struct dard_tflow *flows, size_t n,
		 const struct dard_sim_opts *o, struct dard_sim_flow *out,
		 struct dard_sim_stats *st, char *err);

#endif /* _DARD_FLOWSIM_H */
