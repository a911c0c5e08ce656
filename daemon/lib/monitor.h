/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A monitor of one (source ToR, destination ToR) pair on one host (paper,
 * section 2.4): the pair's paths as switch sequences and directed links,
 * which exit ports of which switches to query, and how replies become
 * link states and link states a path-state vector. Pure: no I/O.
 */
#ifndef _DARD_MONITOR_H
#define _DARD_MONITOR_H

#include <stdint.h>

#include "path.h"
#include "proto.h"
#include "sched.h"

struct dard_mon_path {
	uint32_t sw[2 * DARD_LEVEL_MAX]; /* switches, ToR to ToR */
	uint32_t dl[2 * DARD_LEVEL_MAX]; /* directed switch-switch links */
	uint8_t nsw, ndl;
};

/* One switch to query and the exit ports to ask it for. */
struct dard_mon_query {
	uint32_t sw;
	uint16_t nports;
	uint16_t *ports;
};

struct dard_monitor {
	uint32_t src_tor, dst_tor;
	unsigned npaths;
	struct dard_mon_path *path;
	unsigned nqueries;
	struct dard_mon_query *query; /* in node order */
	/* For rounds (sched.h): each path's links, and room for PV and FV. */
	struct dard_path_links *links;
	struct dard_pstate *pv;
	uint32_t *fv;
	/* s, the rounds' clock: the last round wanted no move, and its
	 * flows' rates are the bar until then (mode->sleep); 0: none. */
	double idle_until;
	/* dard_link_bonf's busy for its path states and rounds: the
	 * caller's mode's (0 from dard_monitor_new: the count alone). */
	double busy;
	/* dard_splitmix64's state for the escape's draws (mode->escape):
	 * dard_monitor_new seeds it from the host and the ToR, a caller may
	 * seed it anew. */
	uint64_t rng;
};

/*
 * The monitor of src_host's ToR towards dst_tor, or NULL with err set
 * (the ToRs are the same, have no path, or memory ran out).
 */
struct dard_monitor *dard_monitor_new(struct dard_pathctx *c,
				      const struct dard_topo *t,
				      uint32_t src_host, uint32_t dst_tor,
				      char *err);
void dard_monitor_free(struct dard_monitor *m);

/* The index of the monitor's path with path's switches, or -1. */
int dard_monitor_path_index(const struct dard_monitor *m,
			    const struct dard_path *path);

/*
 * The directed link leaving switch sw by port, or DARD_NONE when the port
 * has no link.
 */
uint32_t dard_port_dlink(const struct dard_topo *t, uint32_t sw, unsigned port);

/*
 * A host's watch (sched.h, watch): its queries, in node order, ports in
 * port order, of every exit port that a path from src_host to a host of
 * any other ToR leaves by, of the switches above[] marks (its ToR and
 * those above: dard_share_scope's). On a fat tree: the ToR's and its
 * aggregation switches' up links and every core's links down to the
 * other pods, every link of its paths but the last hop down into
 * another pod's ToR. dardd's watch.c asks them, dard-sim counts them;
 * free with dard_watch_free. 0 or -ENOMEM.
 */
int dard_watch_plan(struct dard_pathctx *c, const struct dard_topo *t,
		    uint32_t src_host, const uint8_t *above,
		    struct dard_mon_query **q, unsigned *nq);
void dard_watch_free(struct dard_mon_query *q, unsigned nq);

/*
 * Stores a reply of switch sw in ls (2 * nlinks entries) and stamps each
 * updated entry in when[] with now. A port reported down makes its
 * directed link dead (sched.h) at once; one reported up again makes it
 * live. A load not measured (DARD_LOAD_UNKNOWN) leaves the link not
 * loaded. Ports the switch has no link on are skipped. Returns how many
 * were stored.
 */
unsigned dard_reply_apply(const struct dard_topo *t, uint32_t sw,
			  const struct dard_msg *reply, struct dard_lstate *ls,
			  uint64_t *when, uint64_t now);

/*
 * The path-state vector of m into pv (m->npaths entries). A link whose
 * state is older than max_age (when[] against now) counts as unknown,
 * and no longer as dead: a switch whose agent is silent may forward fine.
 */
void dard_monitor_pv(const struct dard_monitor *m, const struct dard_lstate *ls,
		     const uint64_t *when, uint64_t now, uint64_t max_age,
		     struct dard_pstate *pv);

/* One of this host's elephants, as a monitor's round sees it. */
struct dard_round_flow {
	int path;	/* index among the monitor's paths; < 0: none of them */
	unsigned moves; /* how often it has moved so far */
	double moved_at; /* s, the caller's clock: its last move, if moves */
	/* For dard_monitor_quiet and the moved load, in Mbit/s: */
	double rate;	  /* its rate lately; < 0: not known yet */
	double idle_rate; /* its rate at the monitor's last idle round, when
			   * dard_monitor_idle said so; <= 0: none */
	double share;	  /* the host's up link over the host's elephants */
	/* Mbit/s, its rate when a round last moved it; <= 0: unknown. With
	 * busy links, a move that left it there ends its moves (monitor.c). */
	double moved_rate;
	unsigned neutral; /* the neutral moves it made (mode->escape) */
	/* Mbit/s, its last move's count_est (sched.h); <= 0: unknown. A
	 * path whose counts now offer less was crowded by others' moves. */
	double moved_est;
};

/*
 * The elephants of one monitor, in the caller's order: next(arg, cur, f)
 * returns the flow after cur (the first when cur is NULL) and describes
 * it in f, or NULL after the last. The round walks it twice.
 */
struct dard_flow_iter {
	const void *(*next)(void *arg, const void *cur,
			    struct dard_round_flow *f);
	void *arg;
	/*
	 * Whether the round may move flow cur to path `to' (NULL: every
	 * flow may): one it refuses is never picked, as if it were on no
	 * path for that move. dard-sim's split mode keeps two parts of one
	 * flow off one path with it.
	 */
	int (*may_move)(void *arg, const void *cur, unsigned to);
};

/* FV: how many of the iterator's elephants are on each of m's paths. */
void dard_monitor_fv(struct dard_monitor *m, const struct dard_flow_iter *it);

/*
 * One DARD round of monitor m (paper, section 2.5) in the paper's mode
 * (dard_monitor_round_mode below is what dardd and the simulator run):
 * m->pv holds the path states (the caller takes
 * them from its link states, dard_monitor_pv); counts FV from the
 * iterator into m->fv, runs dard_sched_round_links and picks the
 * elephant to move, the first of those on the source path that has
 * moved least. Returns that flow (the iterator's pointer) and fills mv,
 * or NULL to stay. The caller moves the flow, then dard_monitor_moved().
 */
const void *dard_monitor_round(struct dard_monitor *m,
			       const struct dard_lstate *ls,
			       const struct dard_flow_iter *it, double delta,
			       struct dard_move *mv);

/*
 * dard_monitor_round under a mode (sched.h): mode->hold keeps a flow that
 * moved less than hold seconds before now (the clock of the flows'
 * moved_at) where it is, unless its path is dead. When every elephant on
 * the source path is held, nothing moves this round. When no move gains,
 * with probability mode->escape (drawn from m->rng) the round takes
 * dard_sched_neutral's move for the source's flow that moved least among
 * those not held with fewer than mode->escape_max neutral moves (mv->
 * neutral says so: the caller counts it in the flow's neutral). The
 * paper's mode gives dard_monitor_round's answers exactly.
 */
const void *dard_monitor_round_mode(struct dard_monitor *m,
				    const struct dard_lstate *ls,
				    const struct dard_flow_iter *it,
				    double delta,
				    const struct dard_sched_mode *mode,
				    double now, struct dard_move *mv);

/*
 * Whether the last round of m, at now, wanted no move with every path's
 * state known, and so began a sleep (mode->sleep): the caller keeps each
 * elephant's rate as its idle_rate.
 */
int dard_monitor_idle(const struct dard_monitor *m, double now);

/*
 * Whether m may skip its queries and its round (mode->quiet, sched.h):
 * every elephant's rate is known and at mode->quiet times its share or
 * more, or, while m sleeps after an idle round, at mode->quiet times its
 * idle_rate or more. A new elephant (no idle_rate yet) or one slowed
 * down wakes m. Never in a mode without quiet.
 */
int dard_monitor_quiet(const struct dard_monitor *m,
		       const struct dard_flow_iter *it,
		       const struct dard_sched_mode *mode, double now);

/*
 * The caller moved a flow as mv says: ls as the switches will count it,
 * so that the next round does not act on stale link states.
 */
void dard_monitor_moved(const struct dard_monitor *m, struct dard_lstate *ls,
			const struct dard_move *mv);

#endif /* _DARD_MONITOR_H */
