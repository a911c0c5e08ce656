/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The link-state table (links.c): what the switches' answers, our own
 * and those our ToR's peers share, say of each directed link, and when.
 * query.c and share.c write it; dead.c, schedule.c and ctl.c read it
 * through dard_monitor_pv(); it calls no other part of dardd.
 */
#ifndef _DARD_DARDD_LINKS_H
#define _DARD_DARDD_LINKS_H

#include <stdint.h>

struct dardd;
struct dard_lstate;

struct dardd_links {
	struct dard_lstate *ls; /* per directed link (2 per link) */
	uint64_t *when;		/* when its state arrived, 0: never */
	/* The query tick that last asked it of its switch or took a
	 * peer's share of it: each is asked once a tick. */
	uint64_t *stamp;
	uint64_t tick; /* query ticks begun */
};

/* Every link unknown; -ENOMEM. */
int links_init(struct dardd *d);
void links_fini(struct dardd *d);
/* A query tick begins: no link asked or shared yet. */
void links_tick(struct dardd *d);
/* Whether dl is asked or shared this tick already; links_claim: it is. */
int links_claimed(const struct dardd *d, uint32_t dl);
void links_claim(struct dardd *d, uint32_t dl);
/* Whether dl's state is younger than the oldest a round may use. */
int links_fresh(const struct dardd *d, uint32_t dl, uint64_t now);

#endif /* _DARD_DARDD_LINKS_H */
