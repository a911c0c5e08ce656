/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The monitors (monitors.c): one per destination ToR with elephants of
 * ours, or a flow that watches for dead paths.
 */
#ifndef _DARD_DARDD_MONITORS_H
#define _DARD_DARDD_MONITORS_H

#include <stdint.h>
#include <linux/dard.h>

#include "monitor.h"

struct dardd;

/* A monitor, one per destination ToR with elephants of ours (monitors.c). */
struct mon {
	struct dardd *d; /* whose */
	struct dard_monitor *m;
	unsigned nflows;
	/* Kept for its dead paths until then: a flow of ours that is no
	 * elephant (a transfer's ACKs, a stalled mouse) has lived the
	 * elephant age towards its ToR (flows.c, watch). */
	uint64_t watch_until_ns;
	uint64_t next_round_ns;
	uint64_t rounds, moves;
	uint64_t quiet_ticks; /* query ticks it was quiet in */
	int quiet; /* at the last query tick: it asks and moves nothing */
	uint64_t dead[DARD_PATHS_MAX / 64]; /* paths the datapath has dead */
	struct mon *next;
};

/* monitors.c: a monitor per destination ToR, while it has elephants. */
void monitors_init(struct dardd *d, uint64_t seed);
void monitors_fini(struct dardd *d);
struct mon *mon_get(struct dardd *d, uint32_t dst_tor, uint64_t now);
/* Frees the monitors with neither elephants nor a watch left. */
void mon_expire(struct dardd *d, uint64_t now);
void mon_put(struct dardd *d, struct mon *mon);
unsigned mon_count(const struct dardd *d);
/*
 * At a query tick: which monitors are quiet (dard_monitor_quiet under
 * our mode), asking no switch and running no round until the next. None
 * with a dead path, none in the tick after the datapath repaired a flow
 * on its own.
 */
void mon_quiet_all(struct dardd *d, uint64_t now);
/* When mon's next round is due: schedule + U[0, schedule] after now. */
uint64_t mon_next_round(struct dardd *d, uint64_t now);
/* The index of pair among mon's paths, or -1. */
int mon_path_of(struct dardd *d, struct mon *mon,
		const struct dard_alias_pair *pair);

#endif /* _DARD_DARDD_MONITORS_H */
