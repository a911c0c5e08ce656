/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The one receiver of authenticated datagrams: the switch protocol's
 * (proto.h), the controller protocol's (cproto.h) and the share
 * protocol's (share.h), at dardd, dard-controller and dard-switchd
 * alike. It drains a socket in bounded batches, checks where a datagram
 * comes from before any MAC is computed, decodes it through its codec,
 * hands it to the receiver to take or refuse, and counts each refusal
 * by its kind and warns of it at most once a second: anyone on the
 * management network can send us datagrams. A receiver supplies only
 * what is its own (struct dard_rx_ops).
 */
#ifndef _DARD_RECEIVER_H
#define _DARD_RECEIVER_H

#include <stddef.h>
#include <stdint.h>

#include "log.h"
#include "topo.h"

/*
 * Why a datagram was refused, every receiver's kinds in one list:
 * FN(ID, name, benign). A benign refusal (a late answer: a slow switch
 * is no attack) is counted, but left out of the total and logged only
 * at debug level. Each receiver tells apart only some kinds
 * (dard_rx_ops.kinds); stats show them under names of their own.
 */
/* clang-format off */
#define DARD_RX_KIND_MAPPER(FN)                                                \
	FN(SIZE, "size", 0)		/* longer than a message: unhashed */  \
	FN(PROTO, "proto", 0)		/* not this protocol or version */     \
	FN(KEY, "key", 0)		/* unknown key id */                   \
	FN(MAC, "mac", 0)		/* bad MAC */                          \
	FN(MALFORMED, "malformed", 0)	/* authentic, malformed, not ours */   \
	FN(SCOPE, "scope", 0)		/* a link the ToR does not share */    \
	FN(SOURCE, "source", 0)		/* not from whom we take it */         \
	FN(SENDER, "sender", 0)		/* its sender is not the source */     \
	FN(TOPO, "topo", 0)		/* made for another tree */            \
	FN(SEQ, "seq", 0)		/* answers no query of ours */         \
	FN(REPLAY, "replay", 0)		/* its seq was taken already */        \
	FN(LATE, "late", 1)		/* answers a query given up on */      \
	FN(STALE, "stale", 0)		/* epoch below the last applied */     \
	FN(CLOCK, "clock", 0)		/* seq or epoch far from our clock */  \
	FN(REPLAY_FULL, "replay_table_full", 0) /* cannot tell replays */      \
	FN(UNPADDED, "unpadded", 0)	/* its answer would be too long */     \
	FN(FLOW, "flow", 0)		/* a record: not the sender's flow */
/* clang-format on */

#define __DARD_RX_KIND_ENUM(id, name, benign) DARD_RX_##id,
/* clang-format off */
enum dard_rx_kind {
	DARD_RX_TAKEN, /* not refused: 0, as a success is */
	DARD_RX_KIND_MAPPER(__DARD_RX_KIND_ENUM)
	__DARD_RX_KINDS
};
/* clang-format on */
#undef __DARD_RX_KIND_ENUM

/* A set of kinds, for dard_rx_ops.kinds. */
#define DARD_RX_BIT(id) (1U << DARD_RX_##id)
/*
 * The set of a receiver's list of its refusals, LIST(FN) with
 * FN(ID, name): each name that of its counter in the daemon's stats.
 */
#define __DARD_RX_OR(id, name) | DARD_RX_BIT(id)
#define DARD_RX_KINDS_OF(LIST) (0 LIST(__DARD_RX_OR))

/* The kind's name ("mac"), "taken", or "?" for no kind. */
const char *dard_rx_kind_name(int kind);

/*
 * The kind of a codec's or a check's negative errno, the same for every
 * protocol: -EMSGSIZE size, -EPROTONOSUPPORT proto, -ENOKEY key,
 * -EKEYREJECTED mac, -ERANGE scope, -EACCES sender, -ESTALE topo,
 * -EALREADY replay, -ETIME clock, -EBUSY replay_table_full; anything else
 * (-EBADMSG) malformed.
 */
int dard_rx_kind_of(int err);

/* What a reason for a refusal may take, with a codec's message in it. */
enum { DARD_RX_WHY_MAX = DARD_ERR_MAX + 128 };

/*
 * At most this many datagrams per wakeup from one socket: a flood must
 * not starve the timer (queries, rounds, reports, the fallback) nor the
 * other sockets. epoll and poll are level-triggered: the rest wake us
 * again.
 */
enum { DARD_RX_DRAIN_MAX = 256 };

/* What is a receiver's own. */
struct dard_rx_ops {
	/* "reply": its log lines say "refused a reply from ADDR:PORT". */
	const char *what;
	/*
	 * The protocol's longest datagram (at most proto.h's DARD_MSG_MAX):
	 * one byte more is read, so that a longer one is seen to be longer.
	 */
	size_t max_len;
	/* The kinds it tells apart; another is counted as malformed. */
	unsigned kinds;
	/* Warn once a second of each kind, not once of all kinds. */
	int log_per_kind;
	/*
	 * Whether addr:port (host byte order) may send to us at all, before
	 * any hashing: DARD_RX_TAKEN or the kind, why in why
	 * (DARD_RX_WHY_MAX). NULL: anyone may.
	 */
	int (*source)(void *arg, uint32_t addr, uint16_t port, char *why);
	/*
	 * The codec: 0 when buf is authentic and well formed, kept for
	 * take; else its negative errno (dard_rx_kind_of), why in err
	 * (DARD_ERR_MAX).
	 */
	int (*decode)(void *arg, const uint8_t *buf, size_t len, char *err);
	/*
	 * The decoded datagram of len bytes from addr:port, taken
	 * (DARD_RX_TAKEN) or refused: the kind, why in why
	 * (DARD_RX_WHY_MAX).
	 */
	int (*take)(void *arg, size_t len, uint32_t addr, uint16_t port,
		    uint64_t now, char *why);
	/* The receiver's clock, read for each datagram drained. */
	uint64_t (*now)(void);
};

/* A receiver: its ops, their argument, and what it did. */
struct dard_rx {
	const struct dard_rx_ops *ops;
	void *arg;
	uint64_t n[__DARD_RX_KINDS]; /* taken, and refused by kind */
	/* Warnings: rl[0] for every kind unless log_per_kind. */
	struct dard_ratelimit rl[__DARD_RX_KINDS];
};

/* Ready to receive, nothing counted. */
void dard_rx_init(struct dard_rx *rx, const struct dard_rx_ops *ops, void *arg);

/*
 * One datagram of len bytes from addr:port (host byte order) at now:
 * checked, decoded and taken or refused. Returns DARD_RX_TAKEN or the
 * kind it was refused as, counted and logged.
 */
int dard_rx_input(struct dard_rx *rx, const void *buf, size_t len,
		  uint32_t addr, uint16_t port, uint64_t now);

/*
 * The datagrams waiting on fd, DARD_RX_DRAIN_MAX at most, each into
 * dard_rx_input. Returns how many; *empty (if not NULL) says whether it
 * stopped because fd had no more (EAGAIN), every datagram sent before
 * the call having been read.
 */
unsigned dard_rx_drain(struct dard_rx *rx, int fd, int *empty);

/*
 * A refusal of kind, counted and logged: dard_rx_input's, and a
 * receiver's of one record of a datagram it took.
 */
void dard_rx_refuse(struct dard_rx *rx, int kind, uint32_t addr, uint16_t port,
		    const char *why, uint64_t now);

/* Its refusals of every kind but the benign: a total, summed here. */
uint64_t dard_rx_refused(const struct dard_rx *rx);

#endif /* _DARD_RECEIVER_H */
