/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-switchd's replay protection (Documentation/protocol.md, "dard-switchd
 * answers only if"): a sliding window of seqs per sender, as IPsec and
 * WireGuard keep per peer (RFC 6479), so that its state grows with the
 * senders, not with the queries they send. A sender's seqs are its clock
 * in µs (proto.h), so a seq further than DARD_PROTO_SKEW_US from ours is
 * refused first; a sender whose highest seq is older than that can have
 * nothing taken any more and its slot is reused. No I/O: the clock is the
 * caller's, for the tests.
 */
#ifndef _DARD_SWITCHD_WINDOW_H
#define _DARD_SWITCHD_WINDOW_H

#include <stdint.h>

#include "proto.h"

enum sw_window_limits {
	/* A window's bitmap: a ring of words, one of them the top's. */
	SW_WINDOW_WORDS = 16,
	/*
	 * Seqs below a sender's highest that may still arrive (reordered):
	 * the ring less the top's word, as RFC 6479 keeps it, 960 µs of
	 * the sender's clock. A sender's queries to one agent are a query
	 * interval apart (0.1 s at the fastest), so only a burst needs it.
	 */
	SW_WINDOW = (SW_WINDOW_WORDS - 1) * 64,
	/* Slots: a power of two, from this many ... */
	SW_SLOTS_MIN = 1024,
	/* ... to this many (144 bytes each: 37.7 MB at most). */
	SW_SLOTS_MAX = 1 << 18,
	/*
	 * A new sender is refused only when a sweep finds this many live
	 * senders: twice fattree:64's 65,536 hosts. Only an authentic query
	 * makes an entry, so only holders of the key can fill the table.
	 */
	SW_SENDERS_MAX = SW_SLOTS_MAX / 2,
};

/* One sender's window; sender 0 (never sent) marks a free slot. */
struct sw_sender {
	uint64_t top; /* its highest seq taken */
	uint32_t sender, pad;
	uint64_t bits[SW_WINDOW_WORDS]; /* seq s is bit s % 1024 */
};

/* The senders, open addressing on a keyed hash of the sender. */
struct sw_replay {
	struct sw_sender *slot;
	uint32_t nslots, used; /* used: slots not free, live or dead */
	/* Until then (µs), a new sender is refused without a sweep. */
	uint64_t full_until;
	uint64_t sweeps; /* how often the table was rebuilt */
	/* SipHash's key: nobody off the agent can aim at one chain. */
	uint8_t hkey[16];
};

/* Ready, empty, hashing with hkey (16 random bytes): 0 or -ENOMEM. */
int sw_replay_init(struct sw_replay *r, const uint8_t *hkey);
void sw_replay_free(struct sw_replay *r);

/*
 * Whether sender's seq may be taken at our CLOCK_REALTIME now_us, and if
 * so remembers it: 0; -ETIME, further than DARD_PROTO_SKEW_US from now_us;
 * -EALREADY, taken before or below the sender's window (a replay);
 * -EBUSY, a new sender while SW_SENDERS_MAX live ones are kept (or no
 * memory for more). err (DARD_ERR_MAX) says why.
 */
int sw_replay_check(struct sw_replay *r, uint32_t sender, uint64_t seq,
		    uint64_t now_us, char *err);

/* The senders live at now_us: a sweep, for the log and the tests. */
uint32_t sw_replay_live(const struct sw_replay *r, uint64_t now_us);

#endif /* _DARD_SWITCHD_WINDOW_H */
