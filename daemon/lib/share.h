/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Sharing switch answers among the hosts of one ToR (issue 17): a host
 * that got an authentic reply from a switch every host under its ToR
 * queries (the ToR and the switches above it) sends the reply's link
 * states to its ToR peers, so that they need not ask the same switch the
 * same thing in the same interval (Documentation/protocol.md, "Sharing
 * among a ToR's hosts"; design.md says why). UDP on the management
 * network, authenticated with the deployment's keys (key.h) as the
 * switch and controller protocols are; the magic differs, and the MAC
 * covers it. Pure: encoder, decoder and the receiver's rules, no I/O.
 *
 *   header, 32 bytes:
 *     magic u16 (0xda4f)  version u8 (2)  type u8 (1: SHARE, 2: WANT)
 *     length u16  count u16 (records)
 *     key id u32  sender u32 (the sharer's ID address)
 *     topo u32 (dard_cp_topo_digest() of the sender's tree)
 *     reserved u32 (0)
 *     seq u64 (the sender's CLOCK_REALTIME ns, strictly increasing, as
 *              the controller protocol's: dard_cp_next_seq())
 *   SHARE record, 12 bytes, one directed link (sched.h, dard_dlink()):
 *     dlink u32  elephants u16 (saturated)
 *     flags u8 (DARD_PORT_F_UP)  age u8 (10 ms units since its switch
 *                                        answered the sharer)
 *     load u32 (kbit/s, as the switch protocol's: 0xffffffff not
 *               measured)
 *     (no bandwidth: the agents answer their tree's link capacities,
 *     and the digest makes the trees the same)
 *   WANT record, 4 bytes: dlink u32, a directed link the sender's
 *     monitors need; a WANT replaces the sender's last one whole (none:
 *     it needs nothing), so a peer shares with it only what it uses
 *   trailer, 32 bytes: HMAC-SHA-512-256 of every byte before it under
 *     the key named by key id
 */
#ifndef _DARD_SHARE_H
#define _DARD_SHARE_H

#include <stddef.h>
#include <stdint.h>

#include "key.h"
#include "sched.h"
#include "topo.h"

#define DARD_SHARE_MAGIC 0xda4f
#define DARD_SHARE_VERSION 2
#define DARD_SHARE_PORT 7473 /* UDP port dardd takes peers' shares on */

enum dard_share_type {
	DARD_SHARE_MSG = 1,
	DARD_SHARE_WANT = 2,
};

enum dard_share_sizes {
	DARD_SHARE_HDR_LEN = 32,
	DARD_SHARE_MAC_LEN = 32,
	DARD_SHARE_REC_LEN = 12,
	DARD_SHARE_WREC_LEN = 4,
	/* A datagram fits a 1500-byte MTU after IPv4 and UDP headers. */
	DARD_SHARE_MSG_MAX = 1472,
	DARD_SHARE_RECS_MAX =
		(DARD_SHARE_MSG_MAX - DARD_SHARE_HDR_LEN - DARD_SHARE_MAC_LEN) /
		DARD_SHARE_REC_LEN, /* 117 */
	DARD_SHARE_WANTS_MAX =
		(DARD_SHARE_MSG_MAX - DARD_SHARE_HDR_LEN - DARD_SHARE_MAC_LEN) /
		DARD_SHARE_WREC_LEN, /* 352 */
	/*
	 * A host sends its WANT when its needs change (to active peers) and
	 * every this many ms (to all); a peer forgets a WANT three times as
	 * old (three lost).
	 */
	DARD_SHARE_WANT_REFRESH_MS = 10000,
	DARD_SHARE_WANT_TTL_MS = 3 * DARD_SHARE_WANT_REFRESH_MS,
	DARD_SHARE_AGE_MS = 10,	  /* one unit of age */
	DARD_SHARE_AGE_MAX = 255, /* older answers are not shared */
};

/* One directed link's state as its switch answered the sharer. */
struct dard_share_rec {
	uint32_t dl;
	uint16_t elephants;
	uint8_t flags;	    /* DARD_PORT_F_UP or 0 */
	uint8_t age;	    /* DARD_SHARE_AGE_MS units */
	uint32_t load_kbps; /* DARD_LOAD_UNKNOWN: not measured */
};

struct dard_share_msg {
	uint8_t type; /* enum dard_share_type */
	uint16_t count;
	uint16_t len; /* of the datagram (decoded) */
	uint32_t key_id, sender, topo;
	uint64_t seq;
	struct dard_share_rec rec[DARD_SHARE_RECS_MAX]; /* a SHARE's */
	uint32_t want[DARD_SHARE_WANTS_MAX];		/* a WANT's */
};

/*
 * The directed links a ToR's hosts share: those leaving the ToR or a
 * switch above it (every switch reachable upwards from it) towards
 * another switch. Every host under the ToR asks the same switches for
 * them, whatever its destinations; the switches below other ToRs'
 * ancestors answer one host's monitors only and are not shared.
 */
struct dard_share_scope {
	uint32_t tor;
	uint32_t ndl;	/* 2 * nlinks */
	uint8_t *in;	/* per directed link: 1 if shared */
	uint8_t *above; /* per node: 1 for the ToR and the switches above */
};

/* The scope of ToR tor: 0, -EINVAL (not a ToR) or -ENOMEM. */
int dard_share_scope_init(struct dard_share_scope *sc,
			  const struct dard_topo *t, uint32_t tor);
void dard_share_scope_free(struct dard_share_scope *sc);
/* Whether switch sw is the ToR or above it: its answers are shared. */
int dard_share_scope_switch(const struct dard_share_scope *sc, uint32_t sw);

/* The length of a message of type with n records (0: unknown type). */
size_t dard_share_len(unsigned type, unsigned n);

/*
 * Writes m signed with key k into buf; returns its length, or 0 if it
 * does not fit cap, has an unknown type, more records than its type
 * holds, a seq of 0 or flags other than DARD_PORT_F_UP. m->len and
 * m->key_id are ignored.
 */
size_t dard_share_encode(void *buf, size_t cap, const struct dard_key *k,
			 const struct dard_share_msg *m);

/*
 * Decodes and checks one datagram of len bytes against keys: its length
 * first (no one makes us hash more than a message holds), magic and
 * version, then the key id and the MAC (in constant time), nothing else
 * before the MAC is good; then every record against scope sc (NULL:
 * any directed link of ndl). Returns 0, or with err (DARD_ERR_MAX)
 * naming what was wrong and at which byte: -EMSGSIZE (longer than a
 * message), -EPROTONOSUPPORT (not this protocol or version), -ENOKEY (no
 * such key id), -EKEYREJECTED (bad MAC), -EBADMSG (malformed, though
 * authentic), -ERANGE (a directed link outside the scope).
 */
int dard_share_decode(const void *buf, size_t len, const struct dard_keys *keys,
		      const struct dard_share_scope *sc,
		      struct dard_share_msg *m, char *err);

/*
 * Whether an authentic m may be taken from the peer whose ID address is
 * sender, whose last taken seq is last (0: none), by a host whose tree's
 * digest is topo, at CLOCK_REALTIME now_ns: 0, -EACCES (another sender),
 * -ESTALE (another tree: directed links would name other links),
 * -EALREADY (a replay) or -ETIME (seq too far from our clock, see
 * DARD_CP_SKEW_NS), with err saying which.
 */
int dard_share_check(const struct dard_share_msg *m, uint32_t sender,
		     uint32_t topo, uint64_t last, uint64_t now_ns, char *err);

/*
 * What a host keeps of its peers' shares: per directed link, when a
 * shared state was taken (0: never).
 */
struct dard_share_seen {
	uint64_t *got_ns;
};

/* What dard_share_apply() did not take, and why. */
struct dard_share_counts {
	unsigned down;	/* ports down: left to the switch itself */
	unsigned stale; /* older than DARD_SHARE_AGE_MAX units on arrival */
};

/*
 * Takes an authentic, checked SHARE m received at now (the caller's
 * monotonic clock, as when[]'s) and at CLOCK_REALTIME wall into ls and
 * when[]. A record's age on arrival is its age at the sender plus the
 * time since m's seq (the sender's wall clock when it sent m, within
 * DARD_CP_SKEW_NS of ours by dard_share_check()), so a SHARE held on
 * the way ages as it waits; older than DARD_SHARE_AGE_MAX units (the
 * oldest a sharer sends), the record is neither applied nor covers the
 * link (c->stale). A record is taken only when it is fresher than what
 * ls holds (a shared state never overrides a fresher one, our switch's
 * own answer included), the port is up, and ls does not hold the link
 * dead: a link dies and comes back only on its switch's own word, so a
 * peer can neither kill nor revive one. A record taken sets the link's
 * load, not loaded for DARD_LOAD_UNKNOWN, as the switch's own answer
 * would. A record of a port down (c->down) uncovers the link: it is left to the
 * switch. A record not taken leaves the link to our own query. Returns how many
 * were taken.
 */
unsigned dard_share_apply(const struct dard_topo *t,
			  const struct dard_share_msg *m,
			  struct dard_lstate *ls, uint64_t *when,
			  struct dard_share_seen *seen, uint64_t now,
			  uint64_t wall, struct dard_share_counts *c);

/*
 * Whether directed link dl need not be asked at a query tick, because a
 * peer's share of it was taken since our previous tick (prev_tick, the
 * same clock; 0: none yet). The suppression rule: one host per ToR asks
 * each shared switch per interval, the others listen, and a silent
 * sharer leaves them asking again at their next tick.
 */
int dard_share_covered(const struct dard_share_seen *seen, uint32_t dl,
		       uint64_t prev_tick);

/*
 * Directed link dl's part of a WANT's signature (splitmix64's mix): a
 * WANT is the sum over its links, so it changes when they do, in any
 * order. dardd and dard-sim must mix alike to count the same WANTs.
 */
uint64_t dard_share_mix(uint32_t dl);

/*
 * A record of dl as we hold it (ls, answered at when_ns) for a SHARE
 * sent at now, its load in kbit/s rounded, saturated at DARD_LOAD_MAX,
 * DARD_LOAD_UNKNOWN when not loaded: 0, or -ERANGE when the answer is older
 * than DARD_SHARE_AGE_MAX units (not worth sharing).
 */
int dard_share_rec_of(struct dard_share_rec *r, uint32_t dl,
		      const struct dard_lstate *ls, uint64_t when_ns,
		      uint64_t now);

#endif /* _DARD_SHARE_H */
