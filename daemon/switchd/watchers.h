/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-switchd's watchers (proto.h's watch and notice): the hosts that
 * asked, with an authentic watch, to be told at once when one of some
 * ports' links goes down or comes up, each until its lease lapses, and
 * the notice each is owed when ports change. So a host learns of a dead
 * link in the time the kernel tells us, not at its next query, and its
 * watch asks every 20 s, not every second (Documentation/protocol.md,
 * "Watches and notices"). A hash table of fixed size, open addressing:
 * only holders of the key make entries, a sender has one, a lapsed one
 * is reused. No I/O: the clock is the caller's, for the tests.
 */
#ifndef _DARD_SWITCHD_WATCHERS_H
#define _DARD_SWITCHD_WATCHERS_H

#include <stdint.h>

#include "proto.h"
#include "reply.h"

enum sw_watchers_limits {
	/*
	 * Slots, a power of two: every host of fattree:48 (27,648) may
	 * watch a core. The table is calloc'd: its pages take memory only
	 * as slots are written (a scan reads the zero page), 2.6 MB and
	 * a byte per port a slot at most.
	 */
	SW_WATCHERS_SLOTS = 1 << 16,
	/* Slots looked at from a sender's own: past them it is refused. */
	SW_WATCHERS_PROBES = 32,
};

struct sw_watcher {
	uint32_t sender; /* the watch's: a notice goes to it alone */
	uint32_t addr;	 /* where the watch came from, host byte order */
	uint16_t port;
	uint32_t key_id; /* a notice is in the watch's key */
	uint64_t until;	 /* the caller's clock; 0: never used */
};

struct sw_watchers {
	struct sw_watcher *w; /* SW_WATCHERS_SLOTS */
	unsigned nports;      /* of the switch */
	uint8_t *bits;	      /* per slot, nports flags: watched or not */
};

int sw_watchers_init(struct sw_watchers *ws, unsigned nports);
void sw_watchers_free(struct sw_watchers *ws);

/* The slot a sender's probe starts at. */
unsigned sw_watchers_home(uint32_t sender);

/* Slot i's watched flags, one per port of the switch (its index). */
static inline uint8_t *sw_watched(const struct sw_watchers *ws, unsigned i)
{
	return ws->bits + (size_t)i * ws->nports;
}

/*
 * Keeps q's sender watching the ports q asks (none: all of them) of the
 * switch's port[nports], from addr:port, until now + lease, in place of
 * its watch before. -ENOSPC: no room (its probe's slots all live).
 */
int sw_watchers_take(struct sw_watchers *ws, const struct sw_port *port,
		     unsigned nports, const struct dard_msg *q, uint32_t addr,
		     uint16_t udp_port, uint64_t now, uint64_t lease);

/* The watchers live at now. */
unsigned sw_watchers_live(const struct sw_watchers *ws, uint64_t now);

/*
 * The records (reply.h's, as a reply has them) of slot i's watched ports
 * among those whose changed[] is set, into st: how many.
 */
unsigned sw_watcher_notice(const struct sw_watchers *ws, unsigned i,
			   const struct sw_port *port, unsigned nports,
			   const uint8_t *changed, struct dard_port_state *st);

#endif /* _DARD_SWITCHD_WATCHERS_H */
