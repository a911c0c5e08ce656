/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-controller's own state and the calls between its files. One
 * section per file: each owns a part of struct ctlr. The receive and
 * round functions take the time and send through c->xmit, so the unit
 * tests and the benchmark drive them without sockets.
 */
#ifndef _DARD_CTLR_H
#define _DARD_CTLR_H

#include <stddef.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "clock.h"
#include "config.h"
#include "cproto.h"
#include "key.h"
#include "log.h"
#include "notify.h"
#include "path.h"
#include "receiver.h"
#include "route.h"

/* What the command line asks for (opts.c). */
struct ctlr_opts {
	const char *config; /* NULL: $DARD_CONFIG, else the default */
	const char *key;    /* NULL: $DARD_KEY, else the default */
	const char *sock;   /* the control socket's path */
	int algo;	    /* enum dard_cp_algo */
	uint32_t listen;    /* host order; 0: any */
	uint16_t port;	    /* UDP, DARD_CP_PORT: no option, hosts know no
			     * other */
	uint16_t switch_port;
	uint64_t interval_ns;	  /* a round every this */
	uint64_t host_timeout_ns; /* forget a silent host's flows */
	uint64_t query_ns;	  /* ask the switches for their links */
	uint32_t lp_columns; /* oblivious: the LP's size limit; 0: default */
	int level;	     /* enum dard_log_level */
};

int ctlr_opts_parse(int argc, char **argv, struct ctlr_opts *o, char *err);

/* One reported elephant of a host (hosts.c). */
struct cflow {
	struct dard_flow_key key;
	uint32_t dst;	     /* destination host node */
	uint16_t path;	     /* the path the host says it is on */
	int32_t assigned;    /* our last choice for it, -1 for none yet */
	int32_t refused;     /* the path its host could not take, or -1 */
	uint64_t refused_ns; /* when it said so (round.c lets it go after
			      * CTLR_REFUSED_NS or when failed links change) */
	uint32_t gen;	     /* the host's full report it was last in */
};

/*
 * The most elephants one host, and all hosts together, may have
 * reported: a bound on what a holder of the key can make the controller
 * keep and place each round. A host's elephants are its few long flows
 * that carry most bytes (dardd's flow table holds 65,536 flows of every
 * size); more than these are refused, counted as "flow", and stay where
 * their hosts' DARD puts them.
 */
enum { CTLR_HOST_FLOWS_MAX = 1024, CTLR_FLOWS_MAX = 262144 };

/*
 * How long a path a host could not take (ACK FAILED) is kept from its
 * flow: dardd's own window for a path its datapath left (DARDD_LEFT_NS).
 * Past it the host takes the path again, and a refusal kept for ever
 * would hold a permutation off L_D = 1 after one transient repair.
 */
#define CTLR_REFUSED_NS (10ULL * 1000000000ULL)

/* A host of the tree, by its rank among hosts. */
struct chost {
	uint32_t node;
	uint32_t addr;	    /* where its last REPORT came from, host order */
	uint16_t port;	    /* and its port: pushes go there */
	uint64_t seq;	    /* the last seq taken from it (a clock time) */
	uint64_t heard_ns;  /* its last authenticated message; 0: gone */
	uint64_t wsent;	    /* epoch of its last WEIGHTS set; 0: none */
	uint32_t gen;	    /* its full reports so far */
	int in_set;	    /* a FIRST came, its LAST not yet */
	struct cflow *flow; /* its elephants */
	unsigned nflows, cap;
};

/*
 * The refusals of a host's datagram (hosts.c, receiver.h), FN(ID, name):
 * `dardctl controller stats' shows each as refused.NAME, in this order.
 */
#define CTLR_HOST_REFUSALS(FN)                                                 \
	FN(PROTO, proto)                                                       \
	FN(KEY, key)                                                           \
	FN(MAC, mac)                                                           \
	FN(MALFORMED, malformed) /* or not a host's type */                    \
	FN(SENDER, sender)	 /* no host of our tree */                     \
	FN(SOURCE, source)	 /* no host's address, or not the sender's */  \
	FN(REPLAY, replay)	 /* seq not above the host's last taken */     \
	FN(CLOCK, clock)	 /* seq further than DARD_CP_SKEW_NS */        \
	FN(TOPO, topology)	 /* another topology digest */                 \
	FN(FLOW, flow)		 /* a record: not its flow, or no such path */

/*
 * The ToR pair's shortest paths in dard_path_foreach order (paths.c):
 * the source's up chains s, each followed by the destination's down
 * chains d from its top, chains shared with every pair of those ToRs.
 */
struct cpset {
	uint64_t used; /* the round that last asked for it */
	uint32_t stor, dtor, npaths;
	uint8_t nsw, ndl;
	const struct dard_chains *s, *d; /* NULL: one ToR, one way */
	uint32_t each; /* rows per up chain if alike, else 0 (route.h) */
};

/*
 * What `dardctl controller stats' shows, in its order: C(name), a counter
 * of struct ctlr_stats; T(name, rx), receiver rx's refusals, summed when
 * shown, never stored; O(name, rx, LIST), an object of rx's refusals of
 * each of LIST's kinds, FN(ID, name); V(name), what control.c's
 * stat_NAME() adds from the controller's state. Every name is a JSON key
 * dardctl, the tests and the scripts read: keep them.
 */
/* clang-format off */
#define CTLR_STATS(C, T, O, V)                                                 \
	V(algo)                                                                \
	V(epoch)                                                               \
	V(hosts)                        /* heard from */                       \
	V(flows)                        /* theirs */                           \
	V(self)                         /* the last round pushed SELF */       \
	V(last_decision_ms)             /* the last round's: last_ns */        \
	C(last_msgs)                                                           \
	C(last_bytes)                                                          \
	C(last_max_load)                /* L_D over switch links, placed */    \
	V(failed_links)                                                        \
	V(lp_exact)                     /* oblivious mode only */              \
	V(lp_util)                      /* oblivious mode only */              \
	C(rounds)                                                              \
	C(recomputed)                                                          \
	C(obl_solves)                                                          \
	C(weights)                                                             \
	C(weights_bytes)                                                       \
	C(self_rounds)                                                         \
	C(moves)                                                               \
	C(reports)                                                             \
	C(report_bytes)                                                        \
	C(acks)                                                                \
	C(ack_failed)                                                          \
	C(forgotten)                                                           \
	C(assigns)                                                             \
	C(assign_bytes)                                                        \
	C(send_errors)                                                         \
	C(queries)                      /* to the switches (links.c) */        \
	C(replies)                                                             \
	T(query_refused, srx)                                                  \
	C(silent)                                                              \
	O(refused, hrx, CTLR_HOST_REFUSALS)
/* clang-format on */

#define __CTLR_STAT_FIELD(name) uint64_t name;
#define __CTLR_STAT_NONE(...)
/* The counters every part adds to: CTLR_STATS's C entries. */
struct ctlr_stats {
	CTLR_STATS(__CTLR_STAT_FIELD, __CTLR_STAT_NONE, __CTLR_STAT_NONE,
		   __CTLR_STAT_NONE)
	/* The last round's, beside: its duration and what it placed. */
	uint64_t last_ns, last_flows, last_hosts;
};
#undef __CTLR_STAT_FIELD
#undef __CTLR_STAT_NONE

struct ctlr;
typedef ssize_t (*ctlr_xmit_fn)(struct ctlr *c, const void *buf, size_t len,
				uint32_t addr, uint16_t port);

struct ctlr {
	const struct dard_topo *t;
	struct dard_pathctx *pc;
	struct ctlr_opts o;
	const struct dard_keys *keys;
	uint32_t topo; /* our tree's digest */
	uint64_t seq;  /* the last we sent */
	uint64_t epoch_base, epoch;
	/* Hosts (hosts.c). */
	struct chost *host; /* by rank */
	uint32_t nhosts;
	uint32_t *mgmt; /* hosts' management addresses, sorted */
	uint32_t nmgmt;
	uint64_t *byid;		    /* hosts' ID << 32 | node, sorted */
	uint32_t nflows, flows_max; /* every host's, CTLR_FLOWS_MAX */
	/* Path sets (paths.c): open addressing on the ToR pair. */
	struct cpset **ps;
	size_t ps_cap, nps;
	/* Every ToR's chains (by its rank) to each level above it. */
	struct dard_chains (*chains)[DARD_LEVEL_MAX];
	uint32_t nchains;
	uint32_t *lrank; /* node -> rank among its level's switches */
	/* The round (round.c). */
	struct dard_route_tree *rt; /* sdn-optimal's view; NULL otherwise */
	uint64_t sig;		    /* the demand set last placed */
	uint64_t fail_seen;	    /* fail_gen last placed against */
	int self;		    /* the last round pushed SELF */
	uint32_t *load;		    /* 2 * nlinks */
	/* Oblivious mode (oblivious.c). */
	struct dard_obl *obl; /* the LP's weights, NULL before the first */
	uint64_t obl_gen;     /* fail_gen it was solved for */
	int obl_new;	      /* solved since the last push */
	/*
	 * The solver's thread and what only it touches while obl_busy: its
	 * own path context, the failed links it solves for, its answer.
	 * obl_done (atomic) says the answer is there.
	 */
	struct dard_pathctx *obl_pc;
	pthread_t obl_thr;
	int obl_busy, obl_done, obl_ret;
	uint64_t obl_want; /* fail_gen being solved for */
	uint8_t *obl_down; /* per link, 0 or 1 */
	struct dard_obl *obl_res;
	char obl_err[DARD_ERR_MAX];
	uint32_t *tors, ntors; /* ToR nodes by rank (dard_cp_tor_rank) */
	/* Failed links (links.c). */
	uint8_t *down;	    /* per link: bit 0 its upper end, bit 1 lower */
	uint32_t nfailed;   /* links with a bit set */
	uint64_t fail_gen;  /* +1 whenever the set changes */
	struct cswitch *sw; /* the switches with an address, by it */
	size_t nsw;
	uint64_t next_query_ns;
	/* Sending; the sockets (loop.c) */
	ctlr_xmit_fn xmit;
	ctlr_xmit_fn xmit_switch;
	int udp, swudp, ctl, tfd, epfd;
	uint64_t next_round_ns;
	uint64_t drained_ns; /* the host socket last read empty; 0: never */
	struct dard_notify notify; /* systemd's watchdog, pinged by the loop */
	struct ctlr_stats st;
	struct dard_rx hrx; /* the hosts' datagrams (hosts.c) */
	struct dard_rx srx; /* the switches' replies (links.c) */
	struct dard_ratelimit rl_send, rl_switch;
};

/* core.c: everything but the sockets; ctlr_fini after a failure too. */
int ctlr_init(struct ctlr *c, const struct dard_config *cfg,
	      const struct dard_keys *keys, const struct ctlr_opts *o,
	      char *err);
void ctlr_fini(struct ctlr *c);

/* hosts.c */
int hosts_init(struct ctlr *c);
void hosts_fini(struct ctlr *c);
/* One datagram of len bytes from addr:port (host order), at now. */
void ctlr_receive(struct ctlr *c, const void *buf, size_t len, uint32_t addr,
		  uint16_t port, uint64_t now);
/* Forgets the flows of hosts silent past the timeout. */
void hosts_expire(struct ctlr *c, uint64_t now);
/* Whether a host is heard from within the timeout. */
static inline int host_live(const struct chost *h)
{
	return h->heard_ns != 0;
}

/*
 * paths.c: every ToR's chains, built once; -ENOMEM, or -E2BIG for a tree
 * with more than CTLR_CHAINS_MAX up chains from a ToR to a level (more
 * paths than a host's datapath could ever name: DARD_PATHS_MAX, 256).
 */
enum { CTLR_CHAINS_MAX = 1U << 20 };
int paths_init(struct ctlr *c);
int paths_get(struct ctlr *c, uint32_t src, uint32_t dst,
	      const struct cpset **out);
/* p's rows, as the placements take them. */
struct dard_cands paths_cands(const struct cpset *p);
/* The row of p whose switches are path's, or -1. */
int paths_row(const struct ctlr *c, const struct cpset *p,
	      const struct dard_path *path);
/* Row k's directed switch links into dl (p->ndl of them). */
unsigned paths_dlinks(const struct cpset *p, uint32_t k, uint32_t *dl);
/*
 * Frees the path sets no flow asked for since round `since', when they
 * are many more than the flows: a long run meets most ToR pairs.
 */
void paths_trim(struct ctlr *c, size_t nflows, uint64_t since);
/* Whether row k of p crosses a failed link. */
int paths_failed(const struct ctlr *c, const struct cpset *p, uint32_t k);
void paths_fini(struct ctlr *c);

/* round.c */
int round_init(struct ctlr *c, char *err);
void round_fini(struct ctlr *c);
/* A round at now: place, push; -ENOMEM when it could not place. */
int ctlr_round(struct ctlr *c, uint64_t now);
/*
 * The next seq of ours (never 0), on our clock, so that hosts can tell a
 * fresh push from a recording: inline, for round.c and oblivious.c both
 * to take without calling each other.
 */
static inline uint64_t ctlr_next_seq(struct ctlr *c)
{
	c->seq = dard_cp_next_seq(c->seq, dard_clock_ns(CLOCK_REALTIME));
	return c->seq;
}

/* oblivious.c: the LP's weights, pushed as WEIGHTS. */
struct dard_obl;
int obl_init(struct ctlr *c);
void obl_fini(struct ctlr *c);
/*
 * Solves again if the failed links changed since the last solution: in
 * a thread of its own when the event loop runs (c->epfd open), so rounds
 * go on pushing the last weights meanwhile; at once otherwise (tests).
 */
int obl_update(struct ctlr *c);
/* WEIGHTS sets to the hosts due one this round. */
void obl_push(struct ctlr *c, uint64_t now);

/* links.c: the switches' port states, for failed links. */
int links_init(struct ctlr *c);
void links_fini(struct ctlr *c);
void links_query(struct ctlr *c, uint64_t now);
/* A datagram on the switch socket from addr:port (host order). */
void links_receive(struct ctlr *c, const void *buf, size_t len, uint32_t addr,
		   uint16_t port, uint64_t now);

/* control.c: the control socket. */
int control_open(struct ctlr *c, char *err);
void control_accept(struct ctlr *c);
void control_close(struct ctlr *c);
/* The stats answer, a JSON text to free(). */
char *control_stats(struct ctlr *c);

/* loop.c */
int loop_open(struct ctlr *c, char *err);
void loop_run(struct ctlr *c);
void loop_close(struct ctlr *c);
uint64_t ctlr_now_ns(void);

#endif /* _DARD_CTLR_H */
