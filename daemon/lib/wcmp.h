/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Weighted hashing of new flows (WCMP): a destination's path weights
 * become a table of DARD_WCMP_SLOTS slots, each naming a path, which the
 * datapath indexes by the flow's hash. Path i holds w[i] / sum(w) of the
 * slots to within one slot (largest remainder), so a new flow lands on it
 * with that probability to within 1 / DARD_WCMP_SLOTS. Pure: dp_bpf, the
 * tests and the benchmark share it. The arithmetic is dard_slots_build
 * of <linux/dard_policy.h>, which the kernel module builds its own
 * tables with; these give it libdard's errors.
 */
#ifndef _DARD_WCMP_H
#define _DARD_WCMP_H

#include <stdint.h>
#include <linux/dard.h>

/*
 * Each of n paths' slots out of DARD_WCMP_SLOTS for weights w (any
 * scale): floor(w[i] * SLOTS / sum), then one more to the largest
 * remainders (the lowest index among equals). A weight of 0 gets none.
 * -EINVAL if n is 0 or over DARD_PATHS_MAX, or every weight is 0.
 */
int dard_wcmp_apportion(const uint16_t *w, unsigned n, uint16_t *count);

/*
 * The slot table for weights w of n paths. With prev (the table these
 * weights replace, for as many paths; NULL: none) a slot keeps its path
 * while that path has slots to spare, so a small change of weights moves
 * few hashes; the rest are dealt out interleaved (each path's slots
 * spread over the table, not in one run). -EINVAL as apportion.
 */
int dard_wcmp_build(const uint16_t *w, unsigned n, const uint8_t *prev,
		    uint8_t *slot);

/* Each of n paths' slots in table slot (entries past n are not counted). */
void dard_wcmp_count(const uint8_t *slot, unsigned n, uint16_t *count);

#endif /* _DARD_WCMP_H */
