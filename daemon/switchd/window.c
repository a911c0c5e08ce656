// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Per-sender sliding windows of seqs (window.h; RFC 6479's bitmap ring):
 * a seq above the sender's highest slides its window and is taken, one
 * inside it is taken once, one below it never. Senders sit in an open
 * addressed table on SipHash of their id; an entry is never removed, only
 * dead (its highest seq older than the clock allows) and then reused, and
 * the table is rebuilt without the dead when it is three quarters full.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>

#include "err.h"
#include "window.h"

_Static_assert(SW_WINDOW_WORDS * 64 == 1024 &&
		       (SW_SLOTS_MIN & (SW_SLOTS_MIN - 1)) == 0 &&
		       (SW_SLOTS_MAX & (SW_SLOTS_MAX - 1)) == 0,
	       "bit s % 1024; slots a power of two");

int sw_replay_init(struct sw_replay *r, const uint8_t *hkey)
{
	memset(r, 0, sizeof(*r));
	memcpy(r->hkey, hkey, sizeof(r->hkey));
	r->slot = calloc(SW_SLOTS_MIN, sizeof(*r->slot));
	if (!r->slot)
		return -ENOMEM;
	r->nslots = SW_SLOTS_MIN;
	return 0;
}

void sw_replay_free(struct sw_replay *r)
{
	free(r->slot);
	memset(r, 0, sizeof(*r));
}

/* Nothing it could still send is taken (the clock check refuses it). */
static int dead(const struct sw_sender *e, uint64_t now_us)
{
	return e->top + DARD_PROTO_SKEW_US < now_us;
}

static uint32_t home(const struct sw_replay *r, uint32_t sender)
{
	uint8_t in[4] = {sender >> 24, sender >> 16, sender >> 8, sender};
	uint8_t h[crypto_shorthash_BYTES];

	crypto_shorthash(h, in, sizeof(in), r->hkey);
	return ((uint32_t)h[0] | (uint32_t)h[1] << 8 | (uint32_t)h[2] << 16 |
		(uint32_t)h[3] << 24) &
	       (r->nslots - 1);
}

/*
 * sender's entry, or NULL; *spot is then where a new one goes: the first
 * dead slot on its chain, else the free slot that ends the chain (there is
 * one: at most three quarters are used).
 */
static struct sw_sender *find(struct sw_replay *r, uint32_t sender,
			      uint64_t now_us, struct sw_sender **spot)
{
	uint32_t mask = r->nslots - 1, i = home(r, sender);

	*spot = NULL;
	for (;; i = (i + 1) & mask) {
		struct sw_sender *e = &r->slot[i];

		if (!e->sender) {
			if (!*spot)
				*spot = e;
			return NULL;
		}
		if (e->sender == sender)
			return e;
		if (!*spot && dead(e, now_us))
			*spot = e;
	}
}

/* The live senders into a table of n slots; the dead are left behind. */
static int rebuild(struct sw_replay *r, uint32_t n, uint64_t now_us)
{
	struct sw_sender *old = r->slot, *spot;
	uint32_t i, oldn = r->nslots, live = 0;

	r->slot = calloc(n, sizeof(*r->slot));
	if (!r->slot) {
		r->slot = old;
		return -ENOMEM;
	}
	r->nslots = n;
	for (i = 0; i < oldn; i++) {
		if (!old[i].sender || dead(&old[i], now_us))
			continue;
		find(r, old[i].sender, now_us, &spot);
		*spot = old[i];
		live++;
	}
	free(old);
	r->used = live;
	r->sweeps++;
	return 0;
}

static const char *name(uint32_t sender, char *s)
{
	snprintf(s, 16, "%u.%u.%u.%u", sender >> 24, sender >> 16 & 255,
		 sender >> 8 & 255, sender & 255);
	return s;
}

/*
 * Room for one more sender: a sweep of the table, rebuilt at twice its
 * live senders (so a sweep is paid for by a quarter of a table's new
 * senders), or -EBUSY while SW_SENDERS_MAX of them are live: until the
 * oldest of those dies, without another sweep.
 */
static int make_room(struct sw_replay *r, uint64_t now_us, char *err)
{
	uint64_t oldest = UINT64_MAX;
	uint32_t i, live = 0, n = SW_SLOTS_MIN;

	if (now_us < r->full_until)
		goto full;
	for (i = 0; i < r->nslots; i++) {
		const struct sw_sender *e = &r->slot[i];

		if (!e->sender || dead(e, now_us))
			continue;
		live++;
		if (e->top < oldest)
			oldest = e->top;
	}
	if (live >= SW_SENDERS_MAX) {
		r->full_until = oldest + DARD_PROTO_SKEW_US + 1;
		goto full;
	}
	while (n < SW_SLOTS_MAX && n < 2 * (live + 1))
		n *= 2;
	if (rebuild(r, n, now_us))
		return dard_fail(err, -EBUSY,
				 "no memory for more than %u senders' windows",
				 live);
	return 0;
full:
	return dard_fail(err, -EBUSY,
			 "%d senders sent within %.0f s: no room for another",
			 SW_SENDERS_MAX, DARD_PROTO_SKEW_US / 1e6);
}

/* Takes seq into e's window, sliding it up if seq is above its top. */
static int slide(struct sw_sender *e, uint64_t seq, char *err)
{
	uint64_t word = seq / 64, top = e->top / 64, i;
	char s[16];

	if (seq > e->top) {
		if (word - top >= SW_WINDOW_WORDS)
			memset(e->bits, 0, sizeof(e->bits));
		else
			for (i = top + 1; i <= word; i++)
				e->bits[i % SW_WINDOW_WORDS] = 0;
		e->top = seq;
	} else if (e->top - seq >= SW_WINDOW) {
		return dard_fail(err, -EALREADY,
				 "seq %llu of %s is %llu below its highest, "
				 "under its window of %d (a replay)",
				 (unsigned long long)seq, name(e->sender, s),
				 (unsigned long long)(e->top - seq), SW_WINDOW);
	} else if (e->bits[word % SW_WINDOW_WORDS] >> seq % 64 & 1) {
		return dard_fail(err, -EALREADY,
				 "seq %llu of %s taken already (a replay)",
				 (unsigned long long)seq, name(e->sender, s));
	}
	e->bits[word % SW_WINDOW_WORDS] |= 1ULL << seq % 64;
	return 0;
}

int sw_replay_check(struct sw_replay *r, uint32_t sender, uint64_t seq,
		    uint64_t now_us, char *err)
{
	uint64_t far = seq > now_us ? seq - now_us : now_us - seq;
	struct sw_sender *e, *spot;
	int ret;

	if (far > DARD_PROTO_SKEW_US)
		return dard_fail(err, -ETIME,
				 "seq %llu is %.1f s %s our clock (at most "
				 "%.0f s: a recording, or clocks apart)",
				 (unsigned long long)seq, far / 1e6,
				 seq < now_us ? "behind" : "ahead of",
				 DARD_PROTO_SKEW_US / 1e6);
	e = find(r, sender, now_us, &spot);
	if (e)
		return slide(e, seq, err);
	if (!spot->sender && (r->used + 1) * 4 > r->nslots * 3) {
		ret = make_room(r, now_us, err);
		if (ret)
			return ret;
		find(r, sender, now_us, &spot);
	}
	r->used += !spot->sender;
	memset(spot, 0, sizeof(*spot));
	spot->sender = sender;
	spot->top = seq;
	spot->bits[seq / 64 % SW_WINDOW_WORDS] = 1ULL << seq % 64;
	return 0;
}

uint32_t sw_replay_live(const struct sw_replay *r, uint64_t now_us)
{
	uint32_t i, live = 0;

	for (i = 0; i < r->nslots; i++)
		live += r->slot[i].sender && !dead(&r->slot[i], now_us);
	return live;
}
