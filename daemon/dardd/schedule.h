/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A monitor's DARD round, and the pvlb mode's re-picks (schedule.c).
 */
#ifndef _DARD_DARDD_SCHEDULE_H
#define _DARD_DARDD_SCHEDULE_H

#include <stdint.h>

struct dardd;
struct mon;

/* schedule.c: a monitor's round, and the move through the datapath. */
void schedule(struct dardd *d, struct mon *mon, uint64_t now);
/* delta for mon's round in Mbit/s, from m->pv when it is a fraction. */
double schedule_delta(const struct dardd *d, const struct mon *mon);
/* pvlb mode: every elephant whose re-pick is due takes a random path. */
void schedule_pvlb(struct dardd *d, uint64_t now);
/* The mode changed: pVLB's clocks start again from the flows' starts. */
void schedule_mode_changed(struct dardd *d);

#endif /* _DARD_DARDD_SCHEDULE_H */
