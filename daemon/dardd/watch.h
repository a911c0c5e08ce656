/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The watch (watch.c): the switches above our ToR asked, every watch
 * interval, for every link of our paths they see, elephants or none.
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
	int due;	  /* this query tick asks its switches */
};

/* dard_watch_plan's queries for us: 0 or -ENOMEM (logged). */
int watch_init(struct dardd *d);
void watch_fini(struct dardd *d);
/* A query tick at now: due set when the watch asks (o.sched.watch). */
void watch_tick(struct dardd *d, uint64_t now);
/* Whether the watch runs at all under our mode: its links are WANTed. */
int watch_on(const struct dardd *d);

#endif /* _DARD_DARDD_WATCH_H */
