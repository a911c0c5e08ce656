/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The switch state query protocol between a host's monitors (dardd) and
 * the switches' agents (dard-switchd), over UDP on the management network
 * (Documentation/protocol.md). Binary, versioned, big-endian, every
 * length checked. Pure: encoders and a decoder, no I/O.
 *
 *   header, 12 bytes, both directions:
 *     magic u16 (0xda4d)  version u8 (1)  type u8  length u16  count u16
 *     seq u32 (the querier's, echoed by the reply)
 *   query: count port numbers (u16 each), or none for every exit port
 *   reply: count port records of 12 bytes each:
 *     port u16  flags u16  mbps u32  elephants u32
 */
#ifndef _DARD_PROTO_H
#define _DARD_PROTO_H

#include <stddef.h>
#include <stdint.h>

#define DARD_PROTO_MAGIC 0xda4d
#define DARD_PROTO_VERSION 1
#define DARD_PROTO_PORT 7471 /* UDP port dard-switchd listens on */

enum dard_msg_type {
	DARD_MSG_QUERY = 1,
	DARD_MSG_REPLY = 2,
};

enum dard_proto_sizes {
	DARD_HDR_LEN = 12,
	DARD_PORT_REC_LEN = 12,
	DARD_MSG_PORTS_MAX = 1024, /* ports in one message */
	DARD_MSG_MAX = DARD_HDR_LEN + DARD_MSG_PORTS_MAX * DARD_PORT_REC_LEN,
};

enum dard_port_flag {
	DARD_PORT_F_UP = 1U << 0, /* the port exists and its link is up */
	__DARD_PORT_F_ALL = (1U << 1) - 1,
};

/* The state of one exit port: a link state (sched.h) as a switch sees it. */
struct dard_port_state {
	uint16_t port; /* 1..65535 */
	uint16_t flags;
	uint32_t mbps;
	uint32_t elephants;
};

struct dard_msg {
	uint8_t type;
	uint32_t seq;
	uint16_t count;
	uint16_t ports[DARD_MSG_PORTS_MAX];		  /* a query's */
	struct dard_port_state state[DARD_MSG_PORTS_MAX]; /* a reply's */
};

/* Write a message into buf; return its length, or 0 if cap is too small
 * or n too large. */
size_t dard_proto_query(void *buf, size_t cap, uint32_t seq,
			const uint16_t *ports, unsigned n);
size_t dard_proto_reply(void *buf, size_t cap, uint32_t seq,
			const struct dard_port_state *st, unsigned n);

/*
 * Decode and check one datagram of len bytes. Returns 0, or -EBADMSG with
 * err (DARD_ERR_MAX bytes) naming what was wrong and at which byte.
 */
int dard_proto_decode(const void *buf, size_t len, struct dard_msg *msg,
		      char *err);

#endif /* _DARD_PROTO_H */
