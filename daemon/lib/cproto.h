/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The controller protocol between hosts' dardd and dard-controller, over
 * UDP on the management network (Documentation/protocol.md, "Controller
 * protocol"). Binary, versioned, big-endian, every length checked, every
 * message authenticated with the deployment's keys (key.h), as the switch
 * protocol (proto.h) is; the magic differs, and the MAC covers it, so a
 * message of one protocol is never taken for one of the other. Pure:
 * encoder and decoder, no I/O.
 *
 *   header, 40 bytes:
 *     magic u16 (0xda4e)  version u8 (1)  type u8  length u16  count u16
 *     flags u16  algo u8  reserved u8 (0)
 *     key id u32  sender u32 (a host's ID address; 0: the controller)
 *     topo u32 (dard_cp_topo_digest() of the sender's tree)
 *     seq u64 (the sender's; strictly increasing, never 0: a replay is
 *              one not above the last taken)
 *     epoch u64 (the controller's round; in a host's message, the last
 *                round it applied, 0 for none)
 *   body, by type:
 *     REPORT (host): count flow records, the host's elephants
 *     ASSIGN (controller): count flow records, a path for each flow
 *     WEIGHTS (controller): count weight records
 *     ACK (host): count flow records, the assigned flows it could not
 *                 move (flag FAILED)
 *   flow record, 16 bytes:
 *     saddr u32  daddr u32  sport u16  dport u16  proto u8  flags u8
 *     path u16 (index in dard_path_foreach() order from the flow's source
 *               host to its destination host)
 *   weight record, 8 + 2 * npaths bytes:
 *     dst tor u32 (the ToR's rank among ToRs, see dard_cp_tor_rank())
 *     npaths u16  reserved u16 (0)  weight u16 * npaths (path order as
 *     above; at least one non-zero)
 *   trailer, 32 bytes: HMAC-SHA-512-256 of every byte before it under
 *     the key named by key id
 *
 * A report, an assignment or a set of weights may take several
 * datagrams: FIRST marks the first of one set and LAST its last (one
 * datagram: both), so that a set replaces the one before it whole.
 */
#ifndef _DARD_CPROTO_H
#define _DARD_CPROTO_H

#include <stddef.h>
#include <stdint.h>
#include <linux/dard.h>

#include "key.h"
#include "topo.h"

#define DARD_CP_MAGIC 0xda4e
#define DARD_CP_VERSION 1
#define DARD_CP_PORT 7472 /* UDP port dard-controller listens on */

enum dard_cp_type {
	DARD_CP_REPORT = 1,
	DARD_CP_ASSIGN = 2,
	DARD_CP_WEIGHTS = 3,
	DARD_CP_ACK = 4,
	__DARD_CP_TYPE_MAX,
};

enum dard_cp_flag {
	DARD_CP_F_FIRST = 1U << 0, /* the first datagram of a set */
	DARD_CP_F_LAST = 1U << 1,  /* the last datagram of a set */
	/*
	 * ASSIGN: schedule yourself (DARD) meanwhile, the controller is
	 * there but leaves these flows to the hosts (SDN-adaptive when the
	 * demand is more than a permutation).
	 */
	DARD_CP_F_SELF = 1U << 2,
	__DARD_CP_F_ALL = (1U << 3) - 1,
};

/* Which algorithm made an ASSIGN or WEIGHTS (header's algo). */
enum dard_cp_algo {
	DARD_CP_ALGO_NONE = 0, /* a host's message */
	DARD_CP_ALGO_GREEDY = 1,
	DARD_CP_ALGO_OPTIMAL = 2,
	DARD_CP_ALGO_ADAPTIVE = 3,
	DARD_CP_ALGO_OBLIVIOUS = 4,
	__DARD_CP_ALGO_MAX,
};

enum dard_cp_flow_flag {
	DARD_CP_FL_END = 1U << 0,    /* REPORT: the flow ended */
	DARD_CP_FL_FAILED = 1U << 1, /* ACK: the move did not happen */
	__DARD_CP_FL_ALL = (1U << 2) - 1,
};

enum dard_cp_sizes {
	DARD_CP_HDR_LEN = 40,
	DARD_CP_MAC_LEN = 32,
	DARD_CP_FLOW_LEN = 16,
	DARD_CP_WREC_LEN = 8, /* without its weights */
	/* A datagram fits a 1500-byte MTU after IPv4 and UDP headers. */
	DARD_CP_MSG_MAX = 1472,
	DARD_CP_BODY_MAX = DARD_CP_MSG_MAX - DARD_CP_HDR_LEN - DARD_CP_MAC_LEN,
	DARD_CP_FLOWS_MAX = DARD_CP_BODY_MAX / DARD_CP_FLOW_LEN, /* 87 */
	/* The most weight records and weights one datagram can hold. */
	DARD_CP_WRECS_MAX = DARD_CP_BODY_MAX / (DARD_CP_WREC_LEN + 2),
	DARD_CP_WVALS_MAX = (DARD_CP_BODY_MAX - DARD_CP_WREC_LEN) / 2,
};

struct dard_cp_flow {
	struct dard_flow_key key; /* network byte order, as the datapath's */
	uint16_t path;
	uint8_t flags;
};

struct dard_cp_wrec {
	uint32_t dst_tor;
	uint16_t npaths;
	uint16_t off; /* its first weight in dard_cp_msg.w */
};

struct dard_cp_msg {
	uint8_t type, algo;
	uint16_t flags, count;
	uint16_t len; /* of the datagram (decoded) */
	uint32_t key_id;
	uint32_t sender, topo;
	uint64_t seq, epoch;
	struct dard_cp_flow flow[DARD_CP_FLOWS_MAX]; /* REPORT, ASSIGN, ACK */
	struct dard_cp_wrec wrec[DARD_CP_WRECS_MAX]; /* WEIGHTS */
	uint16_t w[DARD_CP_WVALS_MAX];		     /* their weights */
};

/*
 * A seq is the sender's CLOCK_REALTIME in ns when it sends (or one more
 * than its last, if the clock has not moved on), so a receiver can tell
 * a fresh message from a recording without keeping anything across its
 * own restarts: it refuses a seq more than DARD_CP_SKEW_NS away from its
 * own clock. A recording older than that replays to no one, even right
 * after a restart, and a key holder's forged seq far ahead cannot lock a
 * sender out for longer than that. The deployment's clocks must agree
 * within it (NTP); if they do not, messages are refused, counted as
 * "clock", and hosts schedule by DARD.
 */
#define DARD_CP_SKEW_NS (10ULL * 1000000000ULL)

/* The seq to send after last, at CLOCK_REALTIME now_ns. */
uint64_t dard_cp_next_seq(uint64_t last, uint64_t now_ns);

/*
 * Whether a received seq may be taken, last being the sender's last one
 * taken (0 at start) and now_ns our CLOCK_REALTIME: 0, -EALREADY (not
 * above last: a replay) or -ETIME (further than DARD_CP_SKEW_NS from our
 * clock), with err saying which and by how much.
 */
int dard_cp_seq_check(uint64_t seq, uint64_t last, uint64_t now_ns, char *err);

/*
 * The controller's epochs follow its CLOCK_REALTIME: a round's epoch is
 * the clock's seconds shifted left by 20, or one more than the last
 * round's if that is higher (dard_cp_next_epoch). A host refuses an
 * epoch DARD_CP_SKEW_NS or more ahead of its clock (-ETIME). So the
 * largest epoch a host takes is below what the real controller sends
 * DARD_CP_SKEW_NS later: a forged epoch makes the controller's pushes
 * stale for at most that long, plus one round (and the clocks' offset).
 */
uint64_t dard_cp_first_epoch(uint64_t now_ns);
uint64_t dard_cp_next_epoch(uint64_t last, uint64_t now_ns);
/* The largest epoch a host whose clock reads now_ns takes. */
uint64_t dard_cp_epoch_max(uint64_t now_ns);
int dard_cp_epoch_check(uint64_t epoch, uint64_t now_ns, char *err);

/* The bytes m would take encoded (its body from type, count, wrec). */
size_t dard_cp_len(const struct dard_cp_msg *m);

/*
 * Writes m signed with key k into buf; returns its length, or 0 if it
 * does not fit cap or DARD_CP_MSG_MAX, or m is not valid as
 * dard_cp_decode() would check it (a seq of 0, unknown type or flags,
 * a weight record with no paths or all weights 0, ...). m->len and
 * m->key_id are ignored.
 */
size_t dard_cp_encode(void *buf, size_t cap, const struct dard_key *k,
		      const struct dard_cp_msg *m);

/*
 * Appends a weight record to m (a WEIGHTS message): 0, or -ENOSPC when
 * the datagram would be too long (send m and start another), -EINVAL
 * for n 0, n over DARD_PATHS_MAX or all weights 0.
 */
int dard_cp_add_weights(struct dard_cp_msg *m, uint32_t dst_tor,
			const uint16_t *w, unsigned n);

/*
 * Decodes and checks one datagram of len bytes against keys: magic and
 * version first, then the key id and the MAC (in constant time), nothing
 * else before the MAC is good. Returns 0, or with err (DARD_ERR_MAX)
 * naming what was wrong and at which byte: -EPROTONOSUPPORT (not this
 * protocol or version), -ENOKEY (no such key id), -EKEYREJECTED (bad
 * MAC), -EBADMSG (malformed, though authentic). Whether the sender may
 * send it (its address, its seq, the epoch) is the receiver's to check.
 */
int dard_cp_decode(const void *buf, size_t len, const struct dard_keys *keys,
		   struct dard_cp_msg *m, char *err);

/*
 * A digest of the tree's shape (levels, nodes' names, links, ports,
 * capacities and host IDs), so that a host and the controller refuse each
 * other's messages when their configurations differ and path indices
 * could name different paths. FNV-1a, not a MAC: the MAC authenticates.
 */
uint32_t dard_cp_topo_digest(const struct dard_topo *t);

/* A ToR's rank among the ToRs (the switches hosts hang from, in node
 * order), or DARD_NONE; and the ToR of a rank, or DARD_NONE. */
uint32_t dard_cp_tor_rank(const struct dard_topo *t, uint32_t tor);
uint32_t dard_cp_tor_of_rank(const struct dard_topo *t, uint32_t rank);

const char *dard_cp_type_name(unsigned type);
/* "greedy" ... "oblivious", or NULL. */
const char *dard_cp_algo_name(unsigned algo);

#endif /* _DARD_CPROTO_H */
