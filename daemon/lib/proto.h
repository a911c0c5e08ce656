/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The switch state query protocol between a host's monitors (dardd) and
 * the switches' agents (dard-switchd), over UDP on the management network
 * (Documentation/protocol.md). Binary, versioned, big-endian, every
 * length checked, every message authenticated. Pure: encoders and a
 * decoder, no I/O (the MAC is libsodium's, computed in memory).
 *
 *   header, 24 bytes, both directions:
 *     magic u16 (0xda4d)  version u8 (4)  type u8  length u16  count u16
 *     key id u32
 *     sender u32 (who asks, never 0: a host's ID address, the
 *                 controller's DARD_PROTO_SENDER_CONTROLLER, a dardctl
 *                 run's random value; echoed)
 *     seq u64 (the sender's, strictly increasing, its CLOCK_REALTIME in
 *              microseconds: dard_proto_next_seq(); echoed)
 *   query (type 1): count port numbers (u16 each), or none for every
 *          exit port, then zero bytes of padding (the querier pads to
 *          the reply)
 *   watch (type 3): agent u32 (the management address of the agent it
 *          is sent to), then a query's body, count at least 1: a query
 *          that also asks for notices (below) of those ports for
 *          DARD_PROTO_LEASE_US
 *   reply (type 2): count port records of 16 bytes each
 *   notice (type 4): agent u32 (the sending agent's management
 *          address), then count port records, at least 1
 *   a port record:
 *     port u16  flags u16  mbps u32  elephants u32  load u32
 *     (load: kbit/s leaving by the port over the agent's window,
 *     0xffffffff not measured, 0xfffffffe or more saturated)
 *   trailer, 32 bytes: HMAC-SHA-512-256 of every byte before it under
 *     the key named by key id
 *
 * A notice is the agent's, unasked: the records of a watched port whose
 * link went down or came up, sent at once to the address the watch came
 * from, in the watch's key, sender the watcher's; its seq is the agent's
 * own (dard_proto_next_seq() of its CLOCK_REALTIME), so that a watcher
 * takes each switch's notices in order and each once. The agent field,
 * under the MAC, binds a watch to the agent it was sent to and a notice
 * to the agent that sent it: neither can be replayed as another's.
 */
#ifndef _DARD_PROTO_H
#define _DARD_PROTO_H

#include <stddef.h>
#include <stdint.h>

#include "key.h"

#define DARD_PROTO_MAGIC 0xda4d
#define DARD_PROTO_VERSION 4
#define DARD_PROTO_PORT 7471 /* UDP port dard-switchd listens on */

enum dard_msg_type {
	DARD_MSG_QUERY = 1,
	DARD_MSG_REPLY = 2,
	DARD_MSG_WATCH = 3,
	DARD_MSG_NOTICE = 4,
};

/*
 * How long an agent keeps a watch: a watcher renews it well within (dardd
 * every --watch-interval, at most a third of it: two renewals may be
 * lost).
 */
#define DARD_PROTO_LEASE_US (60ULL * 1000000ULL)

/* The controller's sender (no host's ID address: a broadcast address). */
#define DARD_PROTO_SENDER_CONTROLLER 0xffffffffU

/*
 * How far a query's seq may be from the agent's CLOCK_REALTIME, in µs,
 * either way: the deployment's clocks agree within it (NTP), and a
 * recording older than it is refused (`clock') even by an agent that
 * has just started, so its replay table keeps a sender no longer.
 */
#define DARD_PROTO_SKEW_US (10ULL * 1000000ULL)

enum dard_proto_sizes {
	DARD_HDR_LEN = 24,
	DARD_MAC_LEN = 32,
	DARD_PORT_REC_LEN = 16,
	DARD_MSG_PORTS_MAX = 1024, /* ports in one message */
	DARD_MSG_MAX = DARD_HDR_LEN + DARD_MSG_PORTS_MAX * DARD_PORT_REC_LEN +
		       DARD_MAC_LEN,
	/*
	 * No reply is longer than its query plus this: an agent cannot be
	 * made to amplify. Four records fit without padding: a query for
	 * every port of a four-port switch needs none.
	 */
	DARD_PROTO_SLACK = 4 * DARD_PORT_REC_LEN,
};

enum dard_port_flag {
	DARD_PORT_F_UP = 1U << 0, /* the port exists and its link is up */
	__DARD_PORT_F_ALL = (1U << 1) - 1,
};

/* A load_kbps the switch could not measure (its counters unread). */
#define DARD_LOAD_UNKNOWN 0xffffffffU
/* The largest load_kbps: a faster port's load saturates at it. */
#define DARD_LOAD_MAX 0xfffffffeU

/* The state of one exit port: a link state (sched.h) as a switch sees it. */
struct dard_port_state {
	uint16_t port; /* 1..65535 */
	uint16_t flags;
	uint32_t mbps;
	uint32_t elephants;
	uint32_t load_kbps; /* leaving by it; DARD_LOAD_UNKNOWN */
};

struct dard_msg {
	uint8_t type;
	uint32_t key_id;
	uint32_t sender;
	uint32_t agent; /* a watch's or notice's; 0 for the others */
	uint64_t seq;
	uint16_t count;
	uint16_t len;					  /* of the datagram */
	uint16_t ports[DARD_MSG_PORTS_MAX];		  /* a query's */
	struct dard_port_state state[DARD_MSG_PORTS_MAX]; /* a reply's */
};

/* The length of a reply with n records. */
size_t dard_proto_reply_len(unsigned n);
/* The least length of a query whose reply has n records (the padding rule). */
size_t dard_proto_query_len(unsigned n);

/*
 * The seq a sender sends after last at CLOCK_REALTIME now_us: the clock,
 * or one more than last if the clock has not moved past it. A restarted
 * sender's seqs are thus above every one it sent before (unless its
 * clock went back), so an agent neither refuses it nor takes its old
 * queries again.
 */
uint64_t dard_proto_next_seq(uint64_t last, uint64_t now_us);

/*
 * Write a message signed with key k into buf; return its length, or 0 if
 * cap is too small, n too large, sender or seq 0. A query is padded with
 * zeros to padto bytes when padto is longer than its ports need. A reply
 * echoes its query's sender and seq.
 */
size_t dard_proto_query(void *buf, size_t cap, const struct dard_key *k,
			uint32_t sender, uint64_t seq, const uint16_t *ports,
			unsigned n, size_t padto);
size_t dard_proto_reply(void *buf, size_t cap, const struct dard_key *k,
			uint32_t sender, uint64_t seq,
			const struct dard_port_state *st, unsigned n);
/*
 * A watch of n ports (at least 1) to the agent at management address
 * agent, as dard_proto_query() otherwise; dard_proto_watch_len(n) is the
 * least length padded for its reply.
 */
size_t dard_proto_watch(void *buf, size_t cap, const struct dard_key *k,
			uint32_t sender, uint64_t seq, uint32_t agent,
			const uint16_t *ports, unsigned n, size_t padto);
size_t dard_proto_watch_len(unsigned n);
/* A notice to sender from the agent at agent, its own seq; n at least 1. */
size_t dard_proto_notice(void *buf, size_t cap, const struct dard_key *k,
			 uint32_t sender, uint64_t seq, uint32_t agent,
			 const struct dard_port_state *st, unsigned n);
/* Whether a message of type carries ports (a query or watch), not records. */
static inline int dard_proto_asks(uint8_t type)
{
	return type == DARD_MSG_QUERY || type == DARD_MSG_WATCH;
}

/*
 * Decode and check one datagram of len bytes against keys. Magic and
 * version are read first, to pick the layout only; then the key id and
 * the MAC (compared in constant time); nothing else is looked at before
 * the MAC is good. Returns 0, or with err (DARD_ERR_MAX) naming what was
 * wrong and at which byte: -EPROTONOSUPPORT (not this protocol or
 * version), -ENOKEY (no such key id), -EKEYREJECTED (bad MAC), -EBADMSG
 * (malformed, though authentic).
 */
int dard_proto_decode(const void *buf, size_t len, const struct dard_keys *keys,
		      struct dard_msg *msg, char *err);

#endif /* _DARD_PROTO_H */
