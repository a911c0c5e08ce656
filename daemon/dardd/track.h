/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * An elephant's life (track.c).
 */
#ifndef _DARD_DARDD_TRACK_H
#define _DARD_DARDD_TRACK_H

#include <stdint.h>
#include <linux/dard.h>

struct dardd;
struct elephant;

/*
 * track.c: an elephant's life. track_add: a flow the datapath calls an
 * elephant, in its ToR's monitor, told to the controller; NULL when
 * known already, not to another ToR's host, or out of memory.
 */
struct elephant *track_add(struct dardd *d, const struct dard_flow_key *k,
			   const struct dard_alias_pair *pair, uint64_t now);
/* e ended (why, for the log): the controller told, its monitor let go. */
void track_end(struct dardd *d, struct elephant *e, const char *why);

#endif /* _DARD_DARDD_TRACK_H */
