/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* dard-switchd's UDP side: a query in, the ports counted, a reply out. */
#ifndef _DARD_SWITCHD_ANSWER_H
#define _DARD_SWITCHD_ANSWER_H

#include <stdint.h>
#include <netinet/in.h>

#include "clock.h"
#include "counter.h"
#include "log.h"
#include "receiver.h"
#include "reply.h"
#include "watchers.h"
#include "window.h"

/*
 * The refusals the agent tells apart (receiver.h), FN(ID, name): name is
 * the count's in the log's "refused:" list.
 */
#define SW_REFUSALS(FN)                                                        \
	FN(PROTO, "not_v4") /* v1 to v3 included */                            \
	FN(KEY, "unknown_key")                                                 \
	FN(MAC, "bad_mac")                                                     \
	FN(MALFORMED, "malformed") /* or not a query */                        \
	FN(CLOCK, "clock")	   /* seq over 10 s from our clock */          \
	FN(REPLAY, "replay")	   /* its sender's seq already taken */        \
	FN(REPLAY_FULL, "replay_table_full") /* no room for its sender */      \
	FN(UNPADDED, "unpadded") /* its reply would be longer than it + slack  \
				  */

/*
 * What the agent did, logged at exit and on SIGUSR1, in the log's order:
 * C(name, text), a counter of struct sw_agent, text its name in the log;
 * T(text), the refusals' total, summed when logged, never stored;
 * L(text, LIST), "text:" and each of the refusals of LIST's kinds; NL(),
 * a new line.
 */
#define SW_STATS(C, T, L, NL)                                                  \
	C(queries, "queries")                                                  \
	C(replies, "replies")                                                  \
	T("rejected")                                                          \
	C(send_errors, "send errors")                                          \
	C(watches, "watches")                                                  \
	C(watch_full, "watches refused for room")                              \
	C(notices, "notices")                                                  \
	C(probes, "probes")                                                    \
	C(probe_answers, "answered")                                           \
	C(count_errors, "count errors")                                        \
	C(early, "before the first window")                                    \
	NL()                                                                   \
	L("refused", SW_REFUSALS)                                              \
	C(query_bytes, "bytes in")                                             \
	C(reply_bytes, "out")                                                  \
	C(notice_bytes, "notices out")

/* One probed port (probe.h): its socket, its peer, its echoes' fate. */
struct sw_probe {
	int fd;	       /* a raw ICMP socket bound to the port; -1: unprobed */
	uint32_t peer; /* host byte order */
	/* ICMPv6 (an IPv6-only fabric): the peer's link-local address. */
	int v6;
	struct in6_addr peer6;
	unsigned ifindex;
	unsigned misses; /* echoes in a row unanswered by their next tick */
	int sent;	 /* an echo went at the last tick */
	int answered;	 /* an answer came since the last tick */
	int down;	 /* misses reached SW_PROBE_MISSES, no answer since */
};

#define __SW_STAT_FIELD(name, text) uint64_t name;
#define __SW_STAT_NONE(...)
struct sw_agent {
	struct sw_port *port;
	unsigned nports;
	struct sw_counter *counter;
	/* Counts the ports' elephants (sw_counter_count when NULL: tests
	 * put a fake here). */
	int (*count)(struct sw_agent *a, uint64_t now);
	uint64_t window_ns;
	const struct dard_keys *keys; /* a reply is in its query's key */
	struct sw_replay *replay;     /* the senders' windows */
	/* CLOCK_REALTIME in µs, which seqs are (NULL: the real one). */
	uint64_t (*wall_us)(void);
	int sock, ioctl_sock;
	uint32_t mgmt; /* the address we answer on, host order */
	/* notice.h: who watches (NULL: none kept), the ports changed at
	 * the last look, rtnetlink's link events, our notices' last seq. */
	struct sw_watchers *watchers;
	uint8_t *changed;
	int link_ev;
	uint64_t notice_seq;
	/* probe.h: per port (NULL: no probes), every probe_ns, the next
	 * at probe_next; our echoes' id, seq and nonce. */
	struct sw_probe *probe;
	uint64_t probe_ns, probe_next;
	uint16_t probe_id, probe_seq;
	uint8_t probe_nonce[8];
	uint64_t counted_ns; /* of the ports' elephants; 0: none */
	/* sw_now() before which queries go unanswered: a
	 * counter started afresh has seen a window of traffic only then. */
	uint64_t ready_ns;
	/* What it did (SW_STATS), the queries it took or refused. */
	SW_STATS(__SW_STAT_FIELD, __SW_STAT_NONE, __SW_STAT_NONE,
		 __SW_STAT_NONE)
	struct dard_rx rx;
	/* Their warnings, one a second: datagrams come from anyone. */
	struct dard_ratelimit unanswered, send_failed;
};
#undef __SW_STAT_FIELD
#undef __SW_STAT_NONE

/*
 * The agent's one clock: the counter's (bpf_ktime_get_coarse_ns() is
 * CLOCK_MONOTONIC_COARSE), so that ready_ns, the answers, the loop's
 * waits and the watchdog's pings all compare times of the same clock.
 */
static inline uint64_t sw_now(void)
{
	return dard_clock_ns(CLOCK_MONOTONIC_COARSE);
}

/* Opens a's sockets and listens on addr:port; err (DARD_ERR_MAX) why. */
int sw_answer_open(struct sw_agent *a, struct in_addr addr, uint16_t port,
		   char *err);
/*
 * Answers the waiting datagrams, DARD_RX_DRAIN_MAX at most; logs what
 * went wrong.
 */
void sw_answer(struct sw_agent *a);
/* Logs what the agent and its counter did. */
void sw_answer_log(const struct sw_agent *a);
void sw_answer_close(struct sw_agent *a);

#endif /* _DARD_SWITCHD_ANSWER_H */
