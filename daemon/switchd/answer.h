/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* dard-switchd's UDP side: a query in, the ports counted, a reply out. */
#ifndef _DARD_SWITCHD_ANSWER_H
#define _DARD_SWITCHD_ANSWER_H

#include <stdint.h>
#include <netinet/in.h>

#include "clock.h"
#include "counter.h"
#include "log.h"
#include "reply.h"

/* Why a datagram went unanswered: each counted (sw_refusal_name). */
enum sw_refusal {
	SW_REF_PROTO,	  /* not this protocol or version (v1, v2 included) */
	SW_REF_KEY,	  /* unknown key id */
	SW_REF_MAC,	  /* bad MAC */
	SW_REF_MALFORMED, /* authentic but malformed, or not a query */
	SW_REF_REPLAY,	  /* a query already taken */
	SW_REF_BUSY,	  /* the replay table is full */
	SW_REF_UNPADDED,  /* its reply would be longer than it plus the slack */
	__SW_REF_MAX,
};
const char *sw_refusal_name(enum sw_refusal r);

struct sw_agent {
	struct sw_port *port;
	unsigned nports;
	struct sw_counter *counter;
	/* Counts the ports' elephants (sw_counter_count when NULL: tests
	 * put a fake here). */
	int (*count)(struct sw_agent *a, uint64_t now);
	uint64_t window_ns;
	const struct dard_keys *keys; /* a reply is in its query's key */
	struct sw_replay *replay;
	int sock, ioctl_sock;
	uint64_t counted_ns; /* of the ports' elephants; 0: none */
	/* sw_now() before which queries go unanswered: a
	 * counter started afresh has seen a window of traffic only then. */
	uint64_t ready_ns;
	/* What it did, logged at exit and on SIGUSR1. */
	uint64_t queries, replies, rejected, send_errors, count_errors, early;
	uint64_t refused[__SW_REF_MAX]; /* rejected, by reason */
	uint64_t query_bytes, reply_bytes;
	/* Their warnings, one a second: datagrams come from anyone. */
	struct dard_ratelimit rejects, unanswered, send_failed;
};

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
/* Answers one waiting datagram, if there is one; logs what went wrong. */
void sw_answer(struct sw_agent *a);
/* Logs what the agent and its counter did. */
void sw_answer_log(const struct sw_agent *a);
void sw_answer_close(struct sw_agent *a);

#endif /* _DARD_SWITCHD_ANSWER_H */
