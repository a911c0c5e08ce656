/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Dead paths (dead.c): the datapath told which of our paths to every
 * destination the link states show down, whoever asked for them.
 */
#ifndef _DARD_DARDD_DEAD_H
#define _DARD_DARDD_DEAD_H

#include <stdint.h>
#include <linux/dard.h>

struct dardd;
struct dard_monitor;

/* Our paths to one destination ToR, and the dead ones the datapath has. */
struct dead_view {
	struct dard_monitor *m;		    /* paths and links only */
	uint64_t dead[DARD_PATHS_MAX / 64]; /* by path of m, as pushed */
	int retry;			    /* a push failed */
};

struct dardd_dead {
	struct dead_view **tor; /* per node: a ToR's view; NULL, ours */
	uint8_t *dl;		/* per directed link: dead at the update */
	uint32_t ndl;		/* how many of them are */
	int retry;		/* a view's push failed: try again */
};

/* A view per ToR but ours: 0 or -ENOMEM (logged). */
int dead_init(struct dardd *d);
void dead_fini(struct dardd *d);
/*
 * The dead links as of now, from every answer in the link table (our
 * queries, our monitors' and the watch's, and the peers' SHAREs); on a
 * change, every destination whose paths cross one gets its dead bitmap,
 * and each monitor its ToR's.
 */
void dead_update(struct dardd *d, uint64_t now);
/* Our paths to ToR tor (not ours), as the datapath has them; or NULL. */
const struct dard_monitor *dead_paths_to(const struct dardd *d, uint32_t tor);
/* At start over a datapath already there: every dead bit cleared. */
void dead_clear_all(struct dardd *d);

#endif /* _DARD_DARDD_DEAD_H */
