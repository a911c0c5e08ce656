/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The flow-level simulation's insides, shared by its engine (flowsim.c)
 * and its schedulers (flowsim_sched.c, flowsim_ctl.c); not for callers.
 */
#ifndef _DARD_FLOWSIM_INT_H
#define _DARD_FLOWSIM_INT_H

#include "flowsim.h"
#include "hedera.h"
#include "maxmin.h"
#include "monitor.h"
#include "opt.h"
#include "route.h"

enum { LINKS_MAX = 2 * DARD_LEVEL_MAX + 2 };

/*
 * The shortest paths between two ToRs, in dard_path_foreach's order (the
 * order of a monitor's paths too), as rows of switches and of directed
 * switch-to-switch links. Flows of every host pair under the two ToRs
 * share it; a flow is its row.
 */
struct pset {
	uint32_t stor, dtor;
	uint32_t npaths;
	uint8_t nsw, ndl;
	uint32_t *sw, *dl;
};

struct mon;

struct flow {
	size_t id;
	double start; /* s */
	uint32_t src, dst;
	uint32_t up, down;  /* the hosts' directed links */
	double left;	    /* Mbit */
	double size;	    /* Mbit, all it carries */
	double payload_min; /* Mbit: the elephant payload (dard_policy.h) */
	double rate;	    /* Mbit/s */
	double next_pvlb;   /* s */
	const struct pset *ps;
	uint32_t row;
	uint32_t links[LINKS_MAX]; /* directed, host links included */
	unsigned nlinks;
	int elephant;
	struct mon *mon;
	struct flow *mnext; /* the monitor's elephants */
	double dead_since;  /* s: on a failed link since; < 0: not */
	double moved_at;    /* s: DARD's last move of it */
	double moved_rate;  /* Mbit/s then; 0: never moved */
	unsigned neutral;   /* DARD's neutral moves of it (mode.escape) */
	double moved_est;   /* Mbit/s its last move expected; 0: none */
	double idle_rate;   /* Mbit/s at its monitor's last idle round; 0 */
	/*
	 * Split mode (flowsim.h, split): a part is an entry of its own in
	 * the active set, on its own row, with its own rate and DARD's
	 * per-flow state; its bytes are its flow's. head: the flow a part
	 * belongs to, NULL for a flow (its part 0). A flow's other parts
	 * are part[0 .. nparts - 1]; total is the flow's rate, the sum of
	 * its parts' (its own rate when it has none).
	 */
	struct flow *head;
	struct flow *part;
	unsigned nparts;
	double total; /* Mbit/s */
};

struct mon {
	uint32_t host;
	struct dard_monitor *m;
	double next_round;
	struct flow *flows;
	int quiet; /* at the last query: it asked, and then moves, nothing */
	int dead;  /* a path of it dead at its last query (with failures) */
	struct mon *next, **pprev; /* all monitors, unlinked in O(1) */
	struct mon *hnext;	   /* the host's */
};

/* A ToR whose hosts share (flowsim_dard.c, share.h). */
struct share_tor {
	uint32_t tor;
	uint8_t *above; /* per node: the switches whose answers they share */
	uint32_t nhosts;
};

/*
 * A ToR's watch (flowsim_dard.c, mode.watch): the switches above it
 * (dard_share_scope's) and the queries every host under it sends them
 * (dard_watch_plan, the host's ToR decides them), NULL for other nodes.
 */
struct sim_watch {
	uint8_t *above;
	uint64_t *dl; /* a bit per directed link its queries name */
	struct dard_mon_query *q;
	unsigned nq;
};

/* What a host last told its ToR peers it needs (flowsim_dard.c). */
struct share_want {
	uint64_t sig;  /* of its directed links, 0: none */
	double at;     /* s, when sent */
	uint64_t prev; /* sig before this tick: it was active */
	uint64_t cur;  /* this tick's signature */
	unsigned n;    /* and how many links */
	unsigned nrec; /* of them, asked this tick: the records it gets */
};

struct sim_sched;

/*
 * A DARD move since the last query, which only its own host sees until
 * the switches count it (o->stale): its links as dard_lstate_move takes
 * them.
 */
struct vmove {
	uint32_t host;
	uint32_t from[2 * DARD_LEVEL_MAX], to[2 * DARD_LEVEL_MAX];
	unsigned nfrom, nto;
	double rate, est;
};

struct sim {
	const struct dard_topo *t;
	const struct dard_sim_opts *o;
	struct dard_sched_mode mode; /* DARD's timers, o's over the mode's */
	double min_share;	     /* o's, or the mode's (flowsim.h) */
	const struct sim_sched *sched;
	struct dard_sim_stats *st;
	struct dard_pathctx *pc;
	double *cap;
	struct dard_lstate *ls;
	uint64_t *when;
	struct flow *all;  /* every flow, by id */
	struct flow **act; /* the active flows, and their parts */
	size_t nact;
	/* Split mode: the parts per elephant (1 but under DARD: none), room
	 * for split - 1 parts per flow by id, and how many are active. */
	uint32_t split;
	struct flow *parts;
	size_t nparts;
	struct dard_mm_flow *mm;
	double *rates;
	struct pset **ps; /* open addressing on the ToR pair */
	size_t nps, ps_cap;
	struct mon *mons, **hmon; /* hmon: per node */
	uint64_t *asked, stamp;	  /* per node: the query that asked it */
	uint32_t *nel;		  /* per node: a host's elephants */
	uint8_t *woke;		  /* per node: a timeout moved a flow of it */
	uint64_t *dlseen;	  /* per directed link: the stamp of the host
				     whose monitors saw it dead */
	/* With o->share: the ToRs, and per directed link the stamp of the
	 * host's WANT that holds it (each link once a WANT). */
	struct share_tor *tors;
	uint32_t ntors;
	uint64_t *dlhost;
	struct share_want *want; /* per node: a host's last WANT */
	/* With mode.watch: per node, a ToR's watch; per directed link,
	 * dead as the agents' notices told; when it renews next, and
	 * whether this query does. */
	struct sim_watch *watch;
	uint8_t *wdead;
	double next_watch;
	int watch_due;
	unsigned nwdead; /* links wdead holds dead */
	int noticed;	 /* this step's failure events sent notices */
	/* With o->stale: the link states of the last query, a round's view
	 * made from them, and the moves since. */
	struct dard_lstate *lq, *view;
	struct vmove *vlog;
	size_t nvlog, vlog_cap;
	struct dard_hedera *hedera;
	struct dard_route_tree *rtree; /* SDN-optimal's, built once */
	struct dard_opt *opt;	       /* bound's, built once */
	struct dard_demand *dem;       /* bound's: the active flows' ends */
	size_t nflows;		       /* flows in the run */
	uint64_t rng;
	double now;
	double next_query;   /* DARD's switch queries */
	int queried;	     /* the switches answered once: hosts have views */
	double next_central; /* a controller's rounds */
	double central_now;  /* an extra round for a port down; HUGE_VAL */
	int dirty;	     /* rates must be recomputed */
	char *err;
	/* Link failures (flowsim_fail.c), when o->nfail. */
	struct fail_ev *ev; /* downs and ups, by time */
	size_t nev, next_ev;
	uint32_t *ndown;    /* per link: failures holding it down */
	double *down_at;    /* per link: s, its last failure */
	double fail_due;    /* s: the next failure event or repair */
	double stuck_since; /* s: every active flow at rate 0 since; or -1 */
};

/*
 * A scheduler: what it does when the engine asks. Every hook is optional.
 * The engine takes, at each time it stops: completions, arrivals (arrive),
 * flows coming of elephant age (elephant), then tick. With step 0 it stops
 * at the earliest of the flows' events and of each scheduler's next().
 */
struct sim_sched {
	const char *name;
	/* Before a run (dard_sim_check): 0, or -EINVAL with err set. */
	int (*check)(const struct dard_topo *t, const struct dard_sim_opts *o,
		     char *err);
	int (*init)(struct sim *s); /* 0, or -errno with s->err set */
	void (*fini)(struct sim *s);
	void (*arrive)(struct sim *s, struct flow *f);
	/* 0, or a negative errno with s->err set or left empty (no memory). */
	int (*elephant)(struct sim *s, struct flow *f);
	void (*finish)(struct sim *s, struct flow *f);
	int (*tick)(struct sim *s, struct dard_sim_flow *out);
	/* The earlier of when and its own next event, in the exact mode. */
	double (*next)(const struct sim *s, double when);
	/* No flow is active: its timers wait for the next one. */
	void (*idle)(struct sim *s);
	/*
	 * A controller: places the n flows the ToRs reported, in the order
	 * they arrived (flowsim_ctl.c). 0 or a negative errno, s->err set.
	 */
	int (*place)(struct sim *s, struct flow **e, size_t n,
		     struct dard_sim_flow *out);
	/*
	 * The active flows' rates into s->rates (by s->act) instead of
	 * max-min fairness over their paths: 0, or -errno, s->err set.
	 */
	int (*rates)(struct sim *s);
};

/* By enum dard_sim_sched (flowsim_sched.c). */
extern const struct sim_sched *const flowsim_scheds[DARD_SIM_NSCHED];
extern const struct sim_sched flowsim_dard; /* flowsim_dard.c */
extern const struct sim_sched flowsim_dard_paper;
extern const struct sim_sched flowsim_hedera; /* flowsim_ctl.c */
extern const struct sim_sched flowsim_greedy;
extern const struct sim_sched flowsim_optimal;
extern const struct sim_sched flowsim_optimal_thesis;
extern const struct sim_sched flowsim_switch_ecmp; /* flowsim_fail.c */
extern const struct sim_sched flowsim_bound;	   /* flowsim_bound.c */

/*
 * Link l's capacity in a run under o (flowsim.h: link, goodput, degrade),
 * while it is up: what max-min shares and what a switch reports as its
 * port's speed. A loop over the few degraded links, none in most runs.
 */
static inline double flowsim_mbps(const struct dard_topo *t,
				  const struct dard_sim_opts *o, uint32_t l)
{
	double mbps = (o->link > 0 ? o->link : t->link[l].mbps) * o->goodput;
	size_t i;

	for (i = 0; i < o->ndegrade; i++)
		if (o->degrade[i].link == l)
			mbps *= o->degrade[i].factor;
	return mbps;
}

uint64_t flowsim_rnd(struct sim *s);
/* Moves a flow to another row, counting the switch. */
void flowsim_move(struct sim *s, struct flow *f, uint32_t row,
		  struct dard_sim_flow *out);
/*
 * Split mode: flow f (not a part) gets another part, on row, active and
 * an elephant from now on; returns it. At most s->split - 1 of them.
 */
struct flow *flowsim_part_add(struct sim *s, struct flow *f, uint32_t row);
/* Whether a part of f's flow (f itself included) is on row. */
int flowsim_part_on(const struct flow *f, uint32_t row);
/* The controller writes a new path into its switches, and the flow moves. */
void flowsim_place(struct sim *s, struct flow *f, uint32_t row,
		   struct dard_sim_flow *out);

/*
 * Link failures (flowsim_fail.c), called only when o->nfail. init: 0 or
 * -errno, s->err set. scan: the events due, then each scheduler's
 * repairs, after arrivals. dp: DARD's datapath after a query, moving a
 * flow off a path its host's monitors saw dead; arrive: the same for a
 * new flow. stuck: the run is to end: every flow has been stalled for
 * 30 s with no arrival or failure event to come.
 */
int flowsim_fail_init(struct sim *s);
void flowsim_fail_fini(struct sim *s);
void flowsim_fail_scan(struct sim *s, struct dard_sim_flow *out);
void flowsim_fail_dp(struct sim *s, struct dard_sim_flow *out);
void flowsim_fail_arrive(struct sim *s, struct flow *f);
/* What a controller places f on instead of row: row unless it crosses a
 * failed link and a live row is left, then the next live one. */
uint32_t flowsim_fail_live_row(const struct sim *s, const struct flow *f,
			       uint32_t row);
int flowsim_fail_stuck(struct sim *s, int arrivals);
/* Whether a row of p crosses a link its switches last reported down. */
/*
 * Whether host h's watch knows a link of p dead (the agents' notices):
 * its monitor of p keeps asking, as dardd's does from its link table.
 */
int flowsim_fail_watch_dead(const struct sim *s, const struct pset *p,
			    uint32_t h);
int flowsim_fail_any_dead(const struct sim *s, const struct pset *p);
/* Stamps every such link of p's rows in seen. */
void flowsim_fail_mark_dead(const struct sim *s, const struct pset *p,
			    uint64_t *seen, uint64_t stamp);
/* Whether a row of p crosses a link stamped so. */
int flowsim_fail_seen_dead(const struct sim *s, const struct pset *p,
			   const uint64_t *seen, uint64_t stamp);
/* When a run whose flows all stalled with nothing to come ends. */
double flowsim_fail_end(const struct sim *s);

/*
 * DARD's control traffic and watch (flowsim_share.c). watch_init: each
 * ToR's watch with mode.watch, 0 or -ENOMEM; watch_query: at a query,
 * whether the watch renews; queries: the bytes of this query's
 * questions, replies, WANTs and SHAREs, into s->st.
 */
int flowsim_watch_init(struct sim *s);
/* Whether ToR tor's watch names directed link dl (its plan's ports). */
static inline int flowsim_watched(const struct sim *s, uint32_t tor,
				  uint32_t dl)
{
	const uint64_t *b = s->watch ? s->watch[tor].dl : NULL;

	return b && b[dl / 64] >> (dl % 64) & 1;
}
void flowsim_watch_fini(struct sim *s);
void flowsim_watch_query(struct sim *s);
/*
 * Link l went down (dead) or came back: the watches that see it are told
 * at once (the agents' notices), counted. Whether any was.
 */
int flowsim_watch_notice(struct sim *s, uint32_t l, int dead);
void flowsim_queries(struct sim *s);

#endif /* _DARD_FLOWSIM_INT_H */
