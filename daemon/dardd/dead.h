/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Dead paths (dead.c): the datapath told which paths the link states
 * show down.
 */
#ifndef _DARD_DARDD_DEAD_H
#define _DARD_DARDD_DEAD_H

#include <stdint.h>

struct dardd;
struct mon;

/*
 * dead.c: each monitor's dead paths from the link states as of now; on a
 * change, every destination under its ToR gets its dead bitmap.
 */
void dead_update(struct dardd *d, uint64_t now);
/* mon is released: the datapath forgets its dead bits. */
void dead_forget(struct dardd *d, struct mon *mon);
/* At start over a datapath already there: every dead bit cleared. */
void dead_clear_all(struct dardd *d);

#endif /* _DARD_DARDD_DEAD_H */
