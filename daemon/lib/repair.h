/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The order in which the datapath tries a destination's paths when TCP
 * says its path failed and nobody said where: each path's successor
 * shares as few switches with it as the rest allow. The paths through a
 * failed link or switch fail together, and they lie side by side in
 * path order (a fat-tree's paths through one aggregation switch are
 * consecutive), so stepping to the next index would spend a timeout on
 * each of them; stepping to a disjoint path spends one.
 */
#ifndef _DARD_REPAIR_H
#define _DARD_REPAIR_H

#include <stdint.h>

#include "path.h"

/*
 * Writes next[i], for each of the n (<= 256) paths from one host to
 * another, the path to try after path i: one cycle through all n,
 * starting at path 0, each step to the unvisited path sharing the fewest
 * switches with the current one (the lowest index among equals), the
 * two end switches, which every path shares, not counted. The same paths
 * give the same order.
 */
void dard_repair_order(const struct dard_path *paths, unsigned n,
		       uint8_t *next);

#endif /* _DARD_REPAIR_H */
