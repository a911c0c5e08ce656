/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Max-min fair rates of flows on fixed paths (progressive filling): the
 * rates TCP with fair queuing approaches (DARD paper, Appendix A), for
 * the simulator and the centralized schedulers. Pure: no I/O.
 *
 * Every link's fair share is its remaining capacity over its flows not
 * yet fixed; the link with the smallest share fixes its flows at that
 * share, which leaves every other link's share the same or larger. A
 * heap of link shares makes the cost grow with the flows' path lengths
 * (times a logarithm), not with links times rounds; since shares only
 * grow, a link's entry is re-keyed only when it reaches the top stale,
 * so the heap holds one entry per link.
 */
#ifndef _DARD_MAXMIN_H
#define _DARD_MAXMIN_H

#include <stddef.h>
#include <stdint.h>

struct dard_mm_flow {
	const uint32_t *links; /* indices into the capacities */
	unsigned nlinks;
};

/*
 * Fills rate[i] for every flow; a flow over no link gets HUGE_VAL.
 * Returns 0, or -ENOMEM, or -EINVAL if a link index is out of range.
 */
int dard_maxmin(const double *capacity, uint32_t nlinks,
		const struct dard_mm_flow *flows, size_t nflows, double *rate);

#endif /* _DARD_MAXMIN_H */
