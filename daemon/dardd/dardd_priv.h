/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dardd's own state and the calls between its files; dardctl sees only
 * daemon/common/dardd.h. One section per file: each owns a part of
 * struct dardd, set up by its init and released by its fini.
 */
#ifndef _DARD_DARDD_PRIV_H
#define _DARD_DARDD_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "config.h"
#include "cproto.h"
#include "ctlsock.h"
#include "dp.h"
#include "io.h"
#include "links.h"
#include "log.h"
#include "key.h"
#include "monitor.h"
#include "notify.h"
#include "receiver.h"
#include "share.h"

/*
 * What moves our elephants (opts.c), set by --sched-mode or dardctl
 * sched set: DARD's rounds (fast or paper, the mode), pVLB's random
 * re-picks (pvlb.h) or nothing (off: the datapath's hash alone, ECMP).
 */
enum dardd_mover {
	DARDD_MOVER_DARD,
	DARDD_MOVER_PVLB,
	DARDD_MOVER_OFF,
};

/* What the command line set of what the mode gives defaults to: kept
 * so that a change of mode takes the new mode's for the rest. */
struct dardd_opts_given {
	uint64_t query_ns, schedule_ns;
	double delta;
	int delta_is_frac;
	double quiet_at, quiet_sleep, busy_at, escape;
};

/* What the command line asks for (opts.c). */
struct dardd_opts {
	const char *config;   /* NULL: $DARD_CONFIG, else the default */
	const char *key;      /* NULL: $DARD_KEY, else the default */
	const char *ifname;   /* the fabric interface */
	const char *pin_root; /* NULL: $DARD_PIN_ROOT, else the default */
	int dp_kind;	      /* --datapath: enum dard_dp_kind */
	const char *host;     /* the host we run for */
	int log_level;
	/* --sched-mode (sched.h): the defaults of the next four, the hold. */
	int mode;	      /* enum dard_sched_mode_id */
	uint64_t age_ns;      /* elephant age, when we attach the datapath */
	uint64_t query_ns;    /* switch queries, paper: 1 s */
	uint64_t schedule_ns; /* rounds every this + U[0, this], paper: 5 s */
	uint64_t max_age_ns;  /* link states older are unknown: 3 queries */
	uint64_t sweep_ns;    /* walks of the flow table */
	uint64_t idle_ns;     /* flows idle this long are forgotten */
	double delta;	      /* Mbit/s (paper: 10), or when delta_is_frac */
	int delta_is_frac;    /* a share of the paths' bandwidth, 0 to 1 */
	uint16_t switch_port;
	uint32_t controller;	/* its address (host order), 0: none */
	uint64_t cp_timeout_ns; /* silent this long: back to DARD */
	uint64_t cp_report_ns;	/* a full report every this */
	int no_share;		/* --no-share: ask every switch ourselves */
	/* --quiet-at, --quiet-sleep, --busy-at: below 0 (unset), the
	 * mode's. */
	double quiet_at, quiet_sleep, busy_at, escape;
	struct dard_sched_mode sched; /* the mode's, with those three */
	int mover;		      /* enum dardd_mover */
	double pvlb;		      /* s between a flow's pVLB re-picks */
	struct dardd_opts_given given;
};

/*
 * The refusals each of dardd's receivers tells apart (receiver.h), as
 * FN(ID, name): name is the count's in `dardctl stats', which also shows
 * their total. A switch's reply (query.c), beside its late ones:
 */
#define DARDD_REPLY_REFUSALS(FN)                                               \
	FN(PROTO, refused_proto)                                               \
	FN(KEY, refused_key)                                                   \
	FN(MAC, refused_mac)                                                   \
	FN(MALFORMED, refused_malformed) /* or not a reply */                  \
	FN(SOURCE, refused_source) /* not a switch's agent's address, port */  \
	FN(SEQ, refused_seq)	   /* answers no query of ours */              \
	FN(REPLAY, refused_replay) /* answers one already answered */

/* The controller's datagrams (controller.c). */
#define DARDD_CP_REFUSALS(FN)                                                  \
	FN(PROTO, controller_refused_proto)                                    \
	FN(KEY, controller_refused_key)                                        \
	FN(MAC, controller_refused_mac)                                        \
	FN(MALFORMED, controller_refused_malformed) /* or not for a host */    \
	FN(SOURCE, controller_refused_source)                                  \
	FN(SENDER, controller_refused_sender) /* not 0, the controller's */    \
	FN(TOPO, controller_refused_topo)     /* path indices differ */        \
	FN(REPLAY, controller_refused_replay)                                  \
	FN(STALE, controller_refused_stale)                                    \
	FN(CLOCK, controller_refused_clock)

/* A ToR peer's datagrams (share.c). */
#define DARDD_SHARE_REFUSALS(FN)                                               \
	FN(SIZE, share_refused_size)                                           \
	FN(PROTO, share_refused_proto)                                         \
	FN(KEY, share_refused_key)                                             \
	FN(MAC, share_refused_mac)                                             \
	FN(MALFORMED, share_refused_malformed)                                 \
	FN(SCOPE, share_refused_scope)                                         \
	FN(SOURCE, share_refused_source)                                       \
	FN(SENDER, share_refused_sender)                                       \
	FN(TOPO, share_refused_topo)                                           \
	FN(REPLAY, share_refused_replay)                                       \
	FN(CLOCK, share_refused_clock)

/*
 * What `dardctl stats' shows, in its order: C(name), a counter of struct
 * dardd_stats; R(name, rx, ID), receiver rx's refusals of kind ID;
 * L(name, rx, LIST), the total of rx's refusals (summed when shown,
 * never stored), then each of LIST's, FN(ID, name); V(name), what ctl.c's
 * stat_NAME() adds from dardd's state. Every name is the JSON key that
 * dardctl, the tests and the scripts read: keep them.
 */
/* clang-format off */
#define DARDD_STATS(C, R, L, V)                                                \
	V(host)                                                                \
	V(mode)                         /* dard or controller */               \
	V(mode_why)                                                            \
	V(mode_since_ns)                /* CLOCK_REALTIME, as others' */       \
	V(monitors)                     /* now */                              \
	V(sched_mode)                   /* fast, paper, pvlb or off */         \
	V(pvlb_interval_s)                                                     \
	C(monitors_created)                                                    \
	C(elephants)                                                           \
	C(ended)                                                               \
	C(events)                                                              \
	C(queries)                                                             \
	C(query_bytes)                                                         \
	C(replies)                                                             \
	C(reply_bytes)                                                         \
	C(timeouts)                     /* unanswered, asked again */          \
	R(late, reply_rx, LATE)         /* no attack: not rejected */          \
	L(rejected, reply_rx, DARDD_REPLY_REFUSALS)                            \
	C(send_errors)                                                         \
	C(rounds)                                                              \
	C(rounds_quiet)                 /* skipped: monitor quiet */           \
	C(query_ticks)                  /* query ticks run */                  \
	C(monitor_ticks)                /* monitors at a tick, summed */       \
	C(quiet_ticks)                  /* quiet ones, summed */               \
	C(moves)                                                               \
	C(moves_neutral)                /* of moves: out of an equilibrium */  \
	C(pvlb_moves)                   /* pVLB's re-picks that moved */       \
	C(mode_changes)                 /* by dardctl sched set */             \
	V(ctl_refused)                  /* control clients, by reason */       \
	C(dead_paths)                   /* a monitor path's transitions */     \
	C(revived_paths)                                                       \
	C(evicted)                      /* left the flow table unreported */   \
	V(controller)                   /* its address, or none */             \
	V(controller_algo)                                                     \
	V(controller_epoch)                                                    \
	V(controller_heard_s)           /* ago; null: never */                 \
	C(controller_reports)                                                  \
	C(controller_report_bytes)                                             \
	C(controller_send_errors)                                              \
	C(controller_assigns)                                                  \
	C(controller_moves)                                                    \
	C(controller_failed)                                                   \
	C(controller_weights)                                                  \
	C(controller_weights_failed)    /* refused by the datapath */          \
	C(controller_fallbacks)                                                \
	L(controller_refused, cp.rx, DARDD_CP_REFUSALS)                        \
	V(share)                        /* on or off */                        \
	V(share_peers)                                                         \
	C(shares_sent)                                                         \
	C(share_bytes)                                                         \
	C(share_records)                                                       \
	C(wants_sent)                                                          \
	C(want_bytes)                                                          \
	C(share_send_errors)                                                   \
	C(shares_taken)                                                        \
	C(share_taken)                  /* records applied */                  \
	C(share_down)                                                          \
	C(share_stale)                  /* records too old on arrival */       \
	C(wants_taken)                                                         \
	C(share_skipped)                /* links not asked: shared */          \
	C(share_saved)                  /* queries not sent: all shared */     \
	L(share_refused, sh.rx, DARDD_SHARE_REFUSALS)
/* clang-format on */

#define __DARDD_STAT_FIELD(name) uint64_t name;
#define __DARDD_STAT_NONE(...)
/* The counters every part adds to: DARDD_STATS's C entries. */
struct dardd_stats {
	DARDD_STATS(__DARDD_STAT_FIELD, __DARDD_STAT_NONE, __DARDD_STAT_NONE,
		    __DARDD_STAT_NONE)
	/* V(ctl_refused): control clients refused, by reason (ctl.c). */
	uint64_t ctl_why[__DARD_CTL_REFUSALS];
};
#undef __DARDD_STAT_FIELD
#undef __DARDD_STAT_NONE

struct dardd;

/* Who places our elephants, and why (controller.c). */
enum cp_mode {
	CP_NONE,    /* no controller configured: DARD */
	CP_UNHEARD, /* configured, not heard from yet: DARD */
	CP_SILENT,  /* silent past the timeout: DARD */
	CP_SELF,    /* heard, leaves our elephants to us (SELF): DARD */
	CP_PLACES,  /* heard, places our elephants: no DARD moves */
};

/* The controller client's state (controller.c, cpapply.c). */
struct cp {
	enum cp_mode mode;
	uint8_t algo;	       /* of its last ASSIGN or WEIGHTS */
	uint64_t seq_in;       /* the last seq taken from the controller */
	uint64_t epoch;	       /* the last epoch applied, 0: none */
	uint64_t heard_ns;     /* when last heard, 0: never */
	uint64_t mode_wall_ns; /* CLOCK_REALTIME of the last change of mode */
	uint64_t next_report_ns;
	struct dard_cp_msg *in, *out; /* decoded; incremental report */
	/* The ASSIGN set being applied and its ACK (cpapply.c). */
	struct dard_cp_msg *ack;
	uint64_t ack_epoch;
	int ack_open, ack_sent;
	/* The WEIGHTS set being applied; per ToR rank, the set that gave
	 * it weights (0: even). */
	uint64_t wset, w_epoch, *wgen;
	uint32_t ntors;
	int w_open, w_warned;
	int weighted;	   /* some destination has the controller's weights */
	struct dard_rx rx; /* its datagrams, taken or refused */
	struct dard_ratelimit w_rl; /* weights refused */
};

enum { HIST_MAX = 8 };

/*
 * How long a path the datapath left on its own twice is not assigned
 * again. Once is not enough: a timeout is as often congestion (the
 * flows colliding before the controller placed them) as a fault, and
 * the controller knows which links are up; a second timeout on the same
 * path after it sent the flow back is the datapath's evidence of a fault
 * the switches do not report (cpapply.c).
 */
#define DARDD_LEFT_NS (10ULL * 1000000000ULL)
enum { DARDD_LEFT_TIMES = 2 };

/* One of our elephants (elephants.c). */
struct elephant {
	struct dard_flow_key key;
	uint32_t dst;		     /* destination host */
	struct mon *mon;	     /* its ToR pair's monitor */
	struct dard_alias_pair pair; /* where the datapath sends it */
	int path;		     /* index among mon's paths, or -1 */
	uint64_t since_ns;	     /* when it became an elephant */
	uint64_t first_ns;	     /* when it began (the flow table's) */
	double pvlb_next;	     /* s: its next pVLB re-pick, 0: unset */
	unsigned moves;		     /* ours, + earlier ones if adopted */
	unsigned neutral;	     /* of ours, neutral ones (mode->escape) */
	uint64_t moved_ns;	     /* our rounds' last move of it, or 0 */
	double moved_rate;	     /* Mbit/s then (the round's), 0: unknown */
	double moved_est;	     /* what that move expected, 0: unknown */
	/* Its rate over the last walk of the flow table (flows.c), for
	 * dard_monitor_quiet: Mbit/s, < 0 until two walks saw it; and at
	 * its monitor's last idle round, 0: none. */
	double rate, idle_rate;
	uint64_t rate_bytes, rate_ns;
	struct {
		uint64_t ns;
		int path;
	} hist[HIST_MAX]; /* paths taken, oldest dropped; from adoption on */
	unsigned nhist;
	int seen; /* in the last walk of the table */
	/* The datapath's own evidence (flows.c's walk): its count of moves
	 * by userspace when last seen (dp_known), and the path it left on
	 * its own (dead or timed out), -1 none, when we saw it last, and
	 * how many times in a row it left it within DARDD_LEFT_NS. */
	uint32_t dp_moves;
	int dp_known, left;
	unsigned left_times;
	uint64_t left_ns;
	struct elephant *next, **pprev; /* all, unlinked in O(1) */
	struct elephant *hnext;		/* its hash bucket */
};

/* Elephants by flow key: every event and every flow-table entry looks. */
enum { EL_BUCKETS = 1024 };

/* A monitor, one per destination ToR with elephants of ours (monitors.c). */
struct mon {
	struct dardd *d; /* whose */
	struct dard_monitor *m;
	unsigned nflows;
	/* Kept for its dead paths until then: a flow of ours that is no
	 * elephant (a transfer's ACKs, a stalled mouse) has lived the
	 * elephant age towards its ToR (flows.c, watch). */
	uint64_t watch_until_ns;
	uint64_t next_round_ns;
	uint64_t rounds, moves;
	uint64_t quiet_ticks; /* query ticks it was quiet in */
	int quiet; /* at the last query tick: it asks and moves nothing */
	uint64_t dead[DARD_PATHS_MAX / 64]; /* paths the datapath has dead */
	struct mon *next;
};

/* A switch's management address, for replies (sorted by address). */
struct sw_addr {
	uint32_t mgmt, node;
};

/* What we asked a switch and whether it answers (query.c). */
struct sw {
	uint64_t pending;	/* seq of the unanswered query, or 0 */
	uint64_t sent_ns;	/* when pending was sent */
	uint64_t spent;		/* seq of the last reply taken: a replay */
	uint64_t prev;		/* seq of the query given up on: late */
	uint64_t unanswered_ns; /* first query since the last reply */
	uint16_t nports;	/* ports of this tick's query */
	uint16_t *ports;
	int silent; /* missed its last query */
	int needed; /* this tick, by a monitor (asked or shared) */
};

/* A host under our ToR, and what we keep of it (share.c). */
struct peer {
	uint32_t mgmt, id;
	uint64_t seq_in;	    /* its last seq taken, 0: none */
	uint64_t want_ns;	    /* when its last WANT came, 0: never */
	uint8_t *want;		    /* per directed link: its last WANT's */
	unsigned nwant;		    /* links in it: 0, no monitors */
	int owed;		    /* our WANT goes to it at our next tick */
	uint64_t sent_sig, sent_ns; /* the last WANT we sent it, when */
	struct dard_share_msg *out; /* the records it wants, to send */
	uint64_t *out_ns; /* per record in out: when its switch answered */
};

/* Sharing the switches' answers with the hosts under our ToR (share.c). */
struct share {
	int on; /* set up, and not --no-share */
	struct dard_share_scope sc;
	struct dard_share_seen seen;
	struct peer *peer;
	unsigned npeers;
	uint64_t prev_tick;	    /* our previous query tick, 0: none yet */
	unsigned outstanding;	    /* this tick's queries not answered yet */
	uint64_t want_sig, want_ns; /* our last WANT, when sent */
	uint8_t *need;		    /* per directed link: scratch */
	struct dard_share_msg *msg; /* decoded, or being built */
	struct dard_rx rx;	    /* the peers' datagrams, taken or refused */
};

struct dardd {
	/* The host and its network (main.c). */
	struct dard_config cfg;
	const struct dard_topo *t;
	struct dard_pathctx *pc;
	uint32_t me, my_tor;
	/* The datapath (flows.c). */
	struct dard_dp *dp;
	const struct dard_dp_ops *ops;
	uint64_t next_sweep_ns;
	unsigned nel; /* elephants in the last walk, ours to any ToR */
	/* The datapath's own repairs at the last query tick (monitors.c). */
	uint64_t repairs;
	int repairs_seen;
	/* Link states (links.c), and the switches' answers (query.c). */
	struct dardd_links links;
	struct sw *sw;
	struct sw_addr *swaddr;
	uint32_t nswaddr;
	struct dard_keys keys; /* keys[0] signs what we send */
	uint64_t next_query_ns;
	struct dard_rx reply_rx; /* the switches' replies, taken or refused */
	/* The sockets, and how a datagram leaves (io.c). */
	struct dardd_io io;
	/* Monitors (monitors.c) and elephants (elephants.c). */
	struct mon *mons;
	uint64_t rng;
	struct elephant *els, *elh[EL_BUCKETS];
	/* The control socket (ctl.c) and the event loop (loop.c). */
	int ctl, ctl_lock; /* the socket, and the lock held beside it */
	struct dard_ratelimit ctl_rl[__DARD_CTL_REFUSALS]; /* their warnings */
	int epfd, tfd;
	struct dard_notify notify; /* systemd's watchdog, pinged by the loop */
	/* The controller client (controller.c, cpapply.c). */
	struct cp cp;
	/* Sharing among the ToR's hosts (share.c). */
	struct share sh;
	/* The options (opts.c), and the counters every part adds to. */
	struct dardd_opts o;
	struct dardd_stats st;
};

/* CLOCK_MONOTONIC in ns: every time dardd keeps (clock.c, a leaf that
 * a test replaces with its own clock). */
uint64_t dardd_now_ns(void);

/*
 * opts.c: DARD_OPTS_RUN (stdopts.h) to run, else the exit status, with
 * what to say (if getopt has not) in err (DARD_ERR_MAX).
 */
int dardd_opts_parse(struct dardd_opts *o, int argc, char **argv, char *err);
/* The defaults, and what follows from them, as dardd runs without options. */
void dardd_opts_defaults(struct dardd_opts *o);
/*
 * What moves our elephants from now on: fast, paper, pvlb or off
 * (dardd_mode_name's), pVLB every pvlb seconds (0: as it was). A DARD
 * mode takes its defaults for what the command line did not set; the
 * elephant age stays the datapath's. 0, or -EINVAL for another name.
 */
int dardd_opts_set_mode(struct dardd_opts *o, const char *name, double pvlb);
/* fast, paper, pvlb or off: what dardd_opts_set_mode takes. */
const char *dardd_mode_name(const struct dardd_opts *o);

/* elephants.c: the table of our elephants, by flow key. */
void elephants_init(struct dardd *d);
void elephants_fini(struct dardd *d);
struct elephant *el_find(struct dardd *d, const struct dard_flow_key *k);
/* A new entry for k, to host dst, in no monitor yet (path -1); NULL when
 * out of memory. track_add() fills in the rest. */
struct elephant *el_insert(struct dardd *d, const struct dard_flow_key *k,
			   const struct dard_alias_pair *pair, uint32_t dst,
			   uint64_t now);
/* Unlinks and frees e: track_end() has told the others. */
void el_remove(struct dardd *d, struct elephant *e);
void el_hist_add(struct elephant *e, uint64_t now, int path);
/* Our elephants of one monitor, for dard_monitor_round. */
void el_iter(struct mon *mon, struct dard_flow_iter *it);
const char *flow_str(const struct dard_flow_key *k, char *buf, size_t len);

/* monitors.c: a monitor per destination ToR, while it has elephants. */
void monitors_init(struct dardd *d, uint64_t seed);
void monitors_fini(struct dardd *d);
struct mon *mon_get(struct dardd *d, uint32_t dst_tor, uint64_t now);
/* Frees the monitors with neither elephants nor a watch left. */
void mon_expire(struct dardd *d, uint64_t now);
void mon_put(struct dardd *d, struct mon *mon);
unsigned mon_count(const struct dardd *d);
/*
 * At a query tick: which monitors are quiet (dard_monitor_quiet under
 * our mode), asking no switch and running no round until the next. None
 * with a dead path, none in the tick after the datapath repaired a flow
 * on its own.
 */
void mon_quiet_all(struct dardd *d, uint64_t now);
/* When mon's next round is due: schedule + U[0, schedule] after now. */
uint64_t mon_next_round(struct dardd *d, uint64_t now);
/* The index of pair among mon's paths, or -1. */
int mon_path_of(struct dardd *d, struct mon *mon,
		const struct dard_alias_pair *pair);

/* query.c: queries to the switches, their replies, the link states. */
int query_init(struct dardd *d);
/* The query socket, on this host's management address. */
int query_open(struct dardd *d);
void query_fini(struct dardd *d);
void query_send(struct dardd *d, uint64_t now);
/* One datagram from addr:port (host byte order). */
void query_reply(struct dardd *d, const uint8_t *buf, size_t len, uint32_t addr,
		 uint16_t port, uint64_t now);
/* The datagrams waiting on the query socket, DARD_RX_DRAIN_MAX at most. */
unsigned query_receive(struct dardd *d);
/* The switch with management address addr, or DARD_NONE. */
uint32_t query_switch_at(const struct dardd *d, uint32_t addr);

/* schedule.c: a monitor's round, and the move through the datapath. */
void schedule(struct dardd *d, struct mon *mon, uint64_t now);
/* delta for mon's round in Mbit/s, from m->pv when it is a fraction. */
double schedule_delta(const struct dardd *d, const struct mon *mon);
/* pvlb mode: every elephant whose re-pick is due takes a random path. */
void schedule_pvlb(struct dardd *d, uint64_t now);
/* The mode changed: pVLB's clocks start again from the flows' starts. */
void schedule_mode_changed(struct dardd *d);

/*
 * dead.c: each monitor's dead paths from the link states as of now; on a
 * change, every destination under its ToR gets its dead bitmap.
 */
void dead_update(struct dardd *d, uint64_t now);
/* mon is released: the datapath forgets its dead bits. */
void dead_forget(struct dardd *d, struct mon *mon);
/* At start over a datapath already there: every dead bit cleared. */
void dead_clear_all(struct dardd *d);

/* flows.c: the datapath, its events and its flow table. */
int flows_open(struct dardd *d);
void flows_fini(struct dardd *d);
int flows_on_event(const struct dard_event *ev, void *arg);
/* Our elephants against the flow table; idle flows forgotten. */
void flows_sweep(struct dardd *d, uint64_t now);

/*
 * track.c: an elephant's life. track_add: a flow the datapath calls an
 * elephant, in its ToR's monitor, told to the controller; NULL when
 * known already, not to another ToR's host, or out of memory.
 */
struct elephant *track_add(struct dardd *d, const struct dard_flow_key *k,
			   const struct dard_alias_pair *pair, uint64_t now);
/* e ended (why, for the log): the controller told, its monitor let go. */
void track_end(struct dardd *d, struct elephant *e, const char *why);

/* ctl.c: the control socket, answering dardctl. */
int ctl_init(struct dardd *d);
void ctl_fini(struct dardd *d);
void ctl_accept(struct dardd *d);
/* The answer to one command that reads, or NULL for an unknown one. */
struct json_object *ctl_answer(struct dardd *d, const char *cmd);
/*
 * The answer to a command line (words, dard_ctl_line's), doing what it
 * says; NULL with the refusal (enum dard_ctl_refusal) in *why.
 */
struct json_object *ctl_command(struct dardd *d, const char *line, int *why);

/*
 * controller.c: reports to dard-controller, its datagrams checked, and
 * the mode (dard or controller) with the fallback on silence.
 */
int controller_init(struct dardd *d);
/* The socket to the controller, on this host's management address. */
int controller_open(struct dardd *d);
void controller_fini(struct dardd *d);
/* Reports and the silence check, when due. */
void controller_tick(struct dardd *d, uint64_t now);
/* An elephant began (end 0) or ended: into the next incremental report. */
void controller_note(struct dardd *d, const struct elephant *e, int end);
/* The incremental report, if it has records: sent now. */
void controller_flush(struct dardd *d);
/* One datagram from addr:port (host byte order). */
void controller_input(struct dardd *d, const uint8_t *buf, size_t len,
		      uint32_t addr, uint16_t port, uint64_t now);
/* As query_receive(), from the controller's socket; how many taken. */
unsigned controller_receive(struct dardd *d);
/* Whether the controller places our elephants: DARD rounds do not move. */
int controller_places(const struct dardd *d);
/* "dard" or "controller", and why, for dardctl stats. */
const char *controller_mode_name(const struct dardd *d);
const char *controller_mode_why(const struct dardd *d);

/*
 * cpapply.c: ASSIGN and WEIGHTS through the datapath. Path indices are
 * dard_path_foreach()'s from us to the flow's destination host.
 */
/* e's path index, or -1 when its pair names none of them. */
int cp_path_index(struct dardd *d, const struct elephant *e);
void cp_assign(struct dardd *d, const struct dard_cp_msg *m, uint64_t now);
void cp_weights(struct dardd *d, const struct dard_cp_msg *m);
/* A weight record naming no ToR, or -1: checked before applying any. */
int cp_weights_check(struct dardd *d, const struct dard_cp_msg *m);
/* Every destination's weights even again: at start, and falling back. */
void cp_weights_even(struct dardd *d);

/*
 * share.c: the switches' answers shared with the hosts under our ToR
 * (share.h). Every call is a no-op unless share_init set it up.
 */
int share_init(struct dardd *d);
/* The SHARE socket on our management address; 0 or -1, logged. */
int share_open(struct dardd *d);
void share_fini(struct dardd *d);
/* A query tick begins: what is left to send goes, and our WANT if due. */
void share_tick(struct dardd *d, uint64_t now);
/* Whether dl need not be asked this tick: a peer's share covers it. */
int share_covered(struct dardd *d, uint32_t dl);
/* Adds to switch n's query the ports a peer wants; after our own. */
void share_add_wanted(struct dardd *d, uint32_t n, struct sw *s, uint64_t now);
/* This tick's queries are sent: nq of them, the tick at now. */
void share_sent(struct dardd *d, unsigned nq, uint64_t now);
/* Switch n's authentic reply, applied: its records for the peers. */
void share_reply(struct dardd *d, uint32_t n, const struct dard_msg *msg,
		 uint64_t now);
/* One datagram from addr:port (host byte order). */
void share_input(struct dardd *d, const uint8_t *buf, size_t len, uint32_t addr,
		 uint16_t port, uint64_t now);
/* As query_receive(), from the SHARE socket. */
unsigned share_receive(struct dardd *d);

/* loop.c: the epoll loop over timer, query, control and event sockets. */
int loop_init(struct dardd *d);
void loop_fini(struct dardd *d);
void loop_run(struct dardd *d);

#endif /* _DARD_DARDD_PRIV_H */
