/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* dardd's options and counters, and the address of its control socket. */
#ifndef _DARD_DARDD_H
#define _DARD_DARDD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

/*
 * The control socket: an abstract UNIX socket, so one per network
 * namespace (one per testbed host); root only (SO_PEERCRED). A client
 * writes one command line, "monitors", "flows" or "stats", and reads one
 * JSON document back.
 */
#define DARDD_CTL_NAME "dard/dardd"

/* The control socket's address, for bind and connect; returns its length. */
static inline socklen_t dardd_ctl_addr(struct sockaddr_un *sun)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	/* Abstract: a leading NUL, and the length says where it ends. */
	memcpy(sun->sun_path + 1, DARDD_CTL_NAME, strlen(DARDD_CTL_NAME));
	return offsetof(struct sockaddr_un, sun_path) + 1 +
	       strlen(DARDD_CTL_NAME);
}

struct dardd_opts {
	uint64_t query_ns;    /* switch queries, paper: 1 s */
	uint64_t schedule_ns; /* rounds every this + U[0, this], paper: 5 s */
	uint64_t max_age_ns;  /* link states older are unknown: 3 queries */
	uint64_t sweep_ns;    /* walks of the flow table */
	uint64_t idle_ns;     /* flows idle this long are forgotten */
	double delta_mbps;    /* paper: 10 Mbit/s */
	double delta_frac;    /* delta as a share of the bandwidth... */
	int delta_is_frac;    /* ...when this is set */
	uint16_t switch_port;
};

struct dardd_stats {
	uint64_t monitors_created, elephants, ended, events;
	uint64_t queries, query_bytes, replies, reply_bytes;
	uint64_t timeouts, late, rejected, send_errors;
	uint64_t rounds, moves, ctl_refused;
};

#endif /* _DARD_DARDD_H */
