/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The counters `dardctl stats' shows (ctl.c prints them): one list gives
 * their fields, their names and their order; the refusal kinds each
 * receiver tells apart.
 */
#ifndef _DARD_DARDD_COUNTERS_H
#define _DARD_DARDD_COUNTERS_H

#include <stdint.h>

#include "ctlsock.h"
#include "receiver.h"

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
	C(watch_ticks)                  /* of them: the watch asked */         \
	C(watches)                      /* WATCHes sent (switches asked) */    \
	C(notices)                      /* taken: the agents' own */           \
	C(notice_bytes)                                                        \
	C(monitor_ticks)                /* monitors at a tick, summed */       \
	C(quiet_ticks)                  /* quiet ones, summed */               \
	C(moves)                                                               \
	C(moves_neutral)                /* of moves: out of an equilibrium */  \
	C(pvlb_moves)                   /* pVLB's re-picks that moved */       \
	C(mode_changes)                 /* by dardctl sched set */             \
	V(ctl_refused)                  /* control clients, by reason */       \
	C(dead_paths)                   /* a path's transitions, any ToR */    \
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

#endif /* _DARD_DARDD_COUNTERS_H */
