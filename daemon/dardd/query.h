/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Queries to the switches' agents and their replies (query.c).
 */
#ifndef _DARD_DARDD_QUERY_H
#define _DARD_DARDD_QUERY_H

#include <stddef.h>
#include <stdint.h>

struct dardd;

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
	int silent;	    /* missed its last query */
	int needed;	    /* this tick, by a monitor (asked or shared) */
	int watching;	    /* this tick's query is our watch's (a WATCH) */
	uint64_t noticed;   /* seq of the last notice taken (the agent's) */
	uint64_t watch_seq; /* of our last WATCH while unanswered, else 0 */
};

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

#endif /* _DARD_DARDD_QUERY_H */
