/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The watch (watch.c): the switches above our ToR sent a WATCH, every
 * watch interval, for every link of our paths they see, elephants or
 * none; they tell us of a change at once (proto.h's notice).
 */
#ifndef _DARD_DARDD_WATCH_H
#define _DARD_DARDD_WATCH_H

#include <stdint.h>

struct dardd;
struct dard_mon_query;

struct dardd_watch {
	struct dard_mon_query *q; /* in node order, as a monitor's */
	unsigned nq;
	uint64_t next_ns; /* its next tick; 0: the first */
	int due;	  /* this query tick renews it with every switch */
};

/* dard_watch_plan's queries for us: 0 or -ENOMEM (logged). */
int watch_init(struct dardd *d);
void watch_fini(struct dardd *d);
/* A query tick at now: due set when the watch renews (o.sched.watch). */
void watch_tick(struct dardd *d, uint64_t now);
/* Whether the watch runs at all under our mode. */
int watch_on(const struct dardd *d);
/*
 * Whether the watch asks q's switch at this tick: when due, when its
 * last WATCH went unanswered, and at every tick while a link of q is
 * dead, since a dead state ages to unknown after max_age (3 query
 * intervals), less than a watch interval, and the notice of the link's
 * return may be lost where an answer is not.
 */
int watch_asks(const struct dardd *d, const struct dard_mon_query *q);

#endif /* _DARD_DARDD_WATCH_H */
