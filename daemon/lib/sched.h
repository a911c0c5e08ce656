/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * DARD's selfish flow scheduling (paper, sections 2.2, 2.4 and 2.5): link
 * and path states, the switches a monitor queries, and one scheduling
 * round of a monitor. Shared by dardd, the controller, the simulator and
 * the tests. Pure: no I/O.
 *
 * A link's state is its bandwidth and the number of elephant flows
 * leaving through it; its BoNF is bandwidth / flows, infinite with no
 * flow. A path's state is that of its link with the smallest BoNF,
 * host-switch links left out (a flow cannot leave its first and last
 * link by changing paths).
 *
 * A link whose switch reports its exit port down is *dead*, and so is
 * every path through it: a fact, unlike *unknown* (no fresh answer). A
 * switch agent can die while its switch forwards fine, so silence never
 * makes a link dead.
 */
#ifndef _DARD_SCHED_H
#define _DARD_SCHED_H

#include <stdint.h>

#include "path.h"
#include "topo.h"

/*
 * A directed link: a link index and the direction of travel, so the exit
 * port of one switch. dard_dlink(l, DARD_UP) leaves the lower node.
 */
enum dard_dir { DARD_UP = 0, DARD_DOWN = 1 };

static inline uint32_t dard_dlink(uint32_t link, enum dard_dir dir)
{
	return link * 2 + dir;
}

/* The node directed link dl leaves, whose port it is. */
static inline uint32_t dard_dlink_exit(const struct dard_topo *t, uint32_t dl)
{
	const struct dard_link *l = &t->link[dl / 2];

	return dl % 2 == DARD_UP ? l->down : l->up;
}

/* A host's link to its ToR, directed: up from the host, or down to it. */
uint32_t dard_host_dlink(const struct dard_topo *t, uint32_t host,
			 enum dard_dir dir);

/*
 * Link state, indexed by directed link (2 * topo->nlinks entries). The
 * load is what the switch measured leaving by the port over its last
 * counting window, elephants and mice alike; a switch that cannot
 * measure it says so, and the link is then judged by its count alone.
 */
struct dard_lstate {
	double mbps;	/* bandwidth */
	double load;	/* Mbit/s measured leaving through it, if loaded */
	uint32_t flows; /* elephant flows leaving through it */
	uint8_t known;	/* 0: its switch did not answer */
	uint8_t dead;	/* its switch reports the exit port down */
	uint8_t loaded; /* 0: its switch did not measure the load */
};

/*
 * A link's BoNF and its estimate with one more flow, as a round sees
 * them. With busy > 0 and a measured load, a link loaded below busy
 * times its bandwidth is nobody's bottleneck (its flows are limited
 * elsewhere, by their hosts or other links): its BoNF is infinite. Its
 * estimate is the larger of bandwidth / (flows + 1) and what it leaves
 * unused: elephants limited elsewhere take less than their count says.
 * With busy 0 or no load, the paper's bandwidth / flows and
 * bandwidth / (flows + 1).
 */
double dard_link_bonf(const struct dard_lstate *l, double busy);
double dard_link_est(const struct dard_lstate *l, double busy);

/* Path state: its bottleneck and what one more flow would leave it. */
struct dard_pstate {
	double bonf;	/* smallest bandwidth / flows, HUGE_VAL if none */
	double est;	/* smallest bandwidth / (flows + 1): with one more */
	double mbps;	/* the bottleneck's bandwidth */
	uint32_t flows; /* and its elephants */
	uint8_t known;	/* 0: a link of it is unknown */
	uint8_t dead;	/* a link of it is dead: BoNF and est are 0 */
};

double dard_bonf(double mbps, uint32_t flows);

/*
 * The switch-to-switch directed links of a path, in order; returns how
 * many (path->nsw - 1).
 */
unsigned dard_path_dlinks(const struct dard_topo *t,
			  const struct dard_path *path, uint32_t *dlinks);
/*
 * All the directed links a path's packets cross: up from the source
 * host, the switch-to-switch ones, down to the destination host; returns
 * how many (path->nsw + 1). dlinks holds 2 * DARD_LEVEL_MAX + 1.
 */
unsigned dard_path_dlinks_all(const struct dard_topo *t,
			      const struct dard_path *path, uint32_t *dlinks);

/*
 * The state of a path over n directed links. With every link's bandwidth
 * alike, est is the paper's bandwidth / (flows + 1) of the bottleneck;
 * with mixed bandwidths it is the smallest over the links, what the path
 * would really offer with one more flow if no other path changed. A path
 * with a dead link is dead, whatever its other links: it offers nothing.
 * busy: as dard_link_bonf's (0: the paper's count alone).
 */
void dard_path_state(const struct dard_lstate *ls, const uint32_t *dlinks,
		     unsigned n, double busy, struct dard_pstate *ps);

/*
 * The switches a monitor of (src_tor, dst_tor) queries: every switch on
 * some path between them but the destination ToR, whose exit ports all
 * lead to hosts. On a fat-tree, the paper's four groups: the source ToR,
 * its aggregation switches, the cores and the destination's aggregation
 * switches. Writes at most max node indices to out, in node order, and
 * returns how many there are (more than max: out holds the first max).
 */
unsigned dard_monitor_switches(struct dard_pathctx *c,
			       const struct dard_topo *t, uint32_t src_tor,
			       uint32_t dst_tor, uint32_t *out, unsigned max);

/* A monitor's decision: move one elephant from path `from' to path `to'. */
struct dard_move {
	unsigned from, to;
	double from_bonf; /* the source path's BoNF */
	double estimate;  /* the target's BoNF with the moved flow */
	double rate;	  /* Mbit/s, the moved flow's lately; < 0: unknown */
	int neutral;	  /* dard_sched_neutral's: it gains nothing itself */
	/* The target's BoNF with the moved flow by the elephants' counts
	 * alone (dard_path_count_est; 0 from dard_sched_round, which has
	 * no links), for the flow's moved_est. */
	double count_est;
};

/*
 * One round of selfish flow scheduling for a monitor with n paths: pv
 * their states, fv this host's elephants on each. The source is the path
 * with the smallest BoNF among those carrying our elephants (fv > 0), the
 * target the path with the largest BoNF among all known paths (ties go to
 * the lower index); one elephant moves when the target's estimate beats
 * the source's BoNF by more than delta. Paths whose state is unknown are
 * never chosen, as source or target. A dead path carrying our elephants
 * is always the source (the first such), and its elephant moves to the
 * best live known path whatever delta says; a dead path is never a
 * target. Returns 1 and fills m to move, 0 to stay.
 *
 * The paper's printed pseudo-code (section 2.5) tests fv > 0 on the
 * branch that picks the largest BoNF and closes the loop over monitors
 * before the decision; this is what its text and Table 1 describe.
 */
int dard_sched_round(const struct dard_pstate *pv, const uint32_t *fv,
		     unsigned n, double delta, struct dard_move *m);

/* A path as the directed links it crosses (dard_path_dlinks). */
struct dard_path_links {
	const uint32_t *dl;
	unsigned n;
};

/* Whether path p crosses directed link dl. */
int dard_path_links_has(const struct dard_path_links *p, uint32_t dl);

/*
 * Path to's BoNF by the elephants' counts alone with one more flow from
 * path from (a link both cross keeps its count; from == to: the path's
 * own BoNF by the counts): what a move expects, whatever the rates.
 */
double dard_path_count_est(const struct dard_lstate *ls,
			   const struct dard_path_links *from,
			   const struct dard_path_links *to);

/*
 * The round dardd runs: as dard_sched_round, but with each target's
 * estimate taken from the link states as the move would leave them. A
 * link the source path shares with the target keeps its count (the
 * moving flow is on it either way); only the target's other links gain
 * one. The target is the path with the best such estimate (ties: the
 * larger BoNF, then the lower index). On a fat-tree, paths from one ToR
 * share its up link: without this, a host whose elephant shares a core
 * with another host's can never see that a free core would double its
 * rate, and the paper's estimate leaves such pairs stuck at half rate.
 * With busy 0, no move lowers the global minimum BoNF either way: every
 * link that gains the flow ends above the source's BoNF. Dead paths as
 * in dard_sched_round: a source regardless of delta, never a target.
 * busy (dard_link_bonf): the shared links by their BoNF, the others by
 * their estimate; pv must have been made with the same busy. A link
 * whose elephants are limited elsewhere may then gain the flow and end
 * below the source's count-BoNF: scheduling.md, "Busy links", says what
 * holds instead.
 */
int dard_sched_round_links(const struct dard_lstate *ls,
			   const struct dard_path_links *paths,
			   const struct dard_pstate *pv, const uint32_t *fv,
			   unsigned n, double delta, double busy,
			   struct dard_move *m);

/*
 * Hosts that read the same switches' answers compute the same estimates,
 * so a round that takes the best target sends every host whose round
 * falls in the same query interval onto the same free path (issue 28:
 * two senders under different ToRs moved onto one free core together
 * twice in a row, and parted again each time). This draws m's target
 * instead uniformly, from *rng (dard_splitmix64), among the paths whose
 * estimate is within delta of m's, or a twentieth of it if that is less
 * (the measurement's noise on equally free paths, not a delta set high
 * to stop moves), and that would still be a move the round makes (beating
 * the source's BoNF by more than delta, unless it is dead). m must be
 * dard_sched_round_links's move on the same states. Returns 1 if it
 * changed m (its target, estimate and count_est), 0 if it kept it.
 */
int dard_sched_spread_ties(const struct dard_lstate *ls,
			   const struct dard_path_links *paths,
			   const struct dard_pstate *pv, unsigned n,
			   double delta, double busy, uint64_t *rng,
			   struct dard_move *m);

/*
 * A neutral move out of an equilibrium of selfish rounds, for a round in
 * which dard_sched_round_links found no move. Four elephants from one
 * pod to another on a fat-tree can settle two to a ToR's up link, the
 * other ToR's pair on the cores the first pair's free up link leads to:
 * every flow at half a link, and no single move gains, since each free
 * up link leads to a core another flow uses (the two ToR peers may also
 * have moved onto one up link in the same query interval, before
 * either saw the other). Moving one of them onto such a core costs it
 * nothing, frees its ToR peer, and gives the flow it joins a move that
 * gains.
 *
 * It needs the switches' loads (busy > 0; none with busy 0). The source
 * is dard_sched_round_links's (our elephants' path with the smallest
 * BoNF); its bottleneck links (those at its BoNF, which must be finite,
 * so busy) must carry two elephants or more, so that leaving frees one.
 * The target is a live known path that crosses none of those bottleneck
 * links, every other link of which was measured below busy (its
 * elephants are limited elsewhere: it has room), and whose estimate, as
 * dard_sched_round_links takes it (shared links by their BoNF, the
 * others by dard_link_est), is at least the source's BoNF: no link the
 * flow joins ends below the level it leaves. On links that are all
 * full, where a swap would only churn, there is none. Of those, the one with
 * the best estimate; ties are drawn at random from *rng (dard_splitmix64), so
 * that ToR peers in the same state need not choose alike. Returns 1 and fills m
 * (m->neutral set), 0 if there is none. Whether to take it is the caller's
 * (dard_monitor_round_mode: mode->escape).
 */
int dard_sched_neutral(const struct dard_lstate *ls,
		       const struct dard_path_links *paths,
		       const struct dard_pstate *pv, const uint32_t *fv,
		       unsigned n, double busy, uint64_t *rng,
		       struct dard_move *m);

/*
 * One of our flows moved from path `from' to path `to': the link states
 * as the switches will count them once their window has passed. The
 * load, where measured, moves too: rate (< 0: unknown, nothing taken)
 * off the links it leaves, and est, what the move expects it to get
 * (not finite: nothing), onto the links it joins.
 */
void dard_lstate_move(struct dard_lstate *ls,
		      const struct dard_path_links *from,
		      const struct dard_path_links *to, double rate,
		      double est);

/*
 * A mode of DARD's scheduling: its timers and the rule's one knob. Both
 * dardd and the simulator take their defaults from here. The elephant
 * age is the datapath's: dardd applies it only when it attaches the
 * datapath itself (one attached by `dardctl dp attach' keeps that
 * command's, 10 s by default), so a testbed runs the tables' mode only
 * with --elephant-age 1 (Documentation/experiments.md, "Closing the gap
 * to the central schedulers").
 *
 * paper: the paper's sections 2.5 and 3.1: elephants at 10 s, rounds
 * every 5 s + U[0, 5 s], queries every 1 s, delta 10 Mbit/s, no hold.
 * fast: the default. Elephants at 1 s and rounds every 1 s + U[0, 1 s]:
 * the 10 s age and the 5-10 s rounds were most of DARD's gap to the
 * central schedulers, which see a flow at its first report. The same
 * queries and estimate; delta 1% of the paths' bandwidth, which is the
 * paper's 10 Mbit/s on the 1 Gbit/s links of its simulations and works
 * alike on 20 Mbit/s and on 100 Gbit/s (an absolute 10 Mbit/s is half
 * of a 20 Mbit/s link: two elephants sharing it could never leave for
 * an idle one, as the move gains exactly 10). A flow that moved stays
 * on its new path for 8 s (hold): with five times the rounds, a flow
 * would otherwise chase paths that other hosts' moves, not yet in the
 * last query, have already filled (fattree:16 random: 18 switches for
 * one flow, 8 with the hold). The hold only removes moves, so the
 * paper's argument that rounds converge (Appendix B) still holds: every
 * move keeps the global minimum BoNF and gains more than delta.
 */
enum dard_sched_mode_id {
	DARD_SCHED_PAPER = 0, /* 0: zeroed options keep the paper's rule */
	DARD_SCHED_FAST,
	DARD_SCHED_NMODES,
};

struct dard_sched_mode {
	const char *name;
	double elephant_age; /* s: a flow this old is an elephant */
	double round;	     /* s: rounds every round + U[0, round] */
	double query;	     /* s between switch queries */
	double delta;	     /* Mbit/s: a move must gain more */
	/* delta as this share of the slowest live path's bandwidth
	 * (dard_sched_delta) instead; 0: delta in Mbit/s. */
	double delta_share;
	double hold; /* s: a moved flow stays this long; 0: never */
	/*
	 * A monitor is quiet, asks no switch and runs no round, while each
	 * of its elephants runs at quiet times its share of the host's up
	 * link or more (no path could give it more), or, for sleep seconds
	 * after a round that wanted no move, at quiet times the rate that
	 * round saw (nothing changed for it). 0: never quiet.
	 */
	double quiet;
	double sleep; /* s */
	/*
	 * A round that wants no move takes dard_sched_neutral's neutral
	 * move with this probability, for an elephant not held that has
	 * made fewer than escape_max of them: each flow's are bounded, so
	 * rounds still end (improving moves are finite, Appendix B). Above
	 * 0, a round's target is also drawn among near-equal ones
	 * (dard_sched_spread_ties). 0: neither (the paper's rule).
	 */
	double escape;
	unsigned escape_max;
	/*
	 * dard_link_bonf's: a link is a bottleneck when its switch measured
	 * it at busy times its bandwidth or more. 0: by its count alone.
	 */
	double busy;
	/*
	 * s between a host's watches, elephants or none: the switches above
	 * its ToR asked for every link of its paths they see, each keeping
	 * the watch DARD_PROTO_LEASE_US and telling the host of a link's
	 * fall or return at once (proto.h's notice), so that every
	 * destination's dead paths are known (dardd's watch.c, flowsim's
	 * model of it); at most DARD_WATCH_MAX. 0: none, only the monitors
	 * ask (the paper's).
	 */
	double watch;
};

/* The longest watch interval: a third of the agents' lease (proto.h). */
#define DARD_WATCH_MAX 20

extern const struct dard_sched_mode dard_sched_modes[DARD_SCHED_NMODES];

/*
 * The delta a round of a monitor with n paths in states pv uses under
 * mode: mode->delta, or with mode->delta_share that share of the
 * bandwidth of the slowest path known and live (0 when there is none).
 */
double dard_sched_delta(const struct dard_sched_mode *mode,
			const struct dard_pstate *pv, unsigned n);

/* The mode called name, or -1. */
int dard_sched_mode_parse(const char *name);

#endif /* _DARD_SCHED_H */
