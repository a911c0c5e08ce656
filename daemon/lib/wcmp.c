// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The WCMP slot table of a destination's path weights (wcmp.h). */
#include <errno.h>
#include <string.h>

#include "wcmp.h"

int dard_wcmp_apportion(const uint16_t *w, unsigned n, uint16_t *count)
{
	uint32_t rem[DARD_PATHS_MAX], sum = 0, left = DARD_WCMP_SLOTS;
	unsigned i, best;

	if (!n || n > DARD_PATHS_MAX)
		return -EINVAL;
	for (i = 0; i < n; i++)
		sum += w[i];
	if (!sum)
		return -EINVAL;
	/* w[i] * SLOTS and the sum of 256 weights fit in 32 bits. */
	for (i = 0; i < n; i++) {
		count[i] = (uint32_t)w[i] * DARD_WCMP_SLOTS / sum;
		rem[i] = (uint32_t)w[i] * DARD_WCMP_SLOTS % sum;
		left -= count[i];
	}
	/*
	 * Fewer than n left over, each to a distinct largest remainder: the
	 * remainders add up to left * sum and each is under sum, so at least
	 * left of them are not 0, and a weight of 0 never gets one.
	 */
	while (left--) {
		for (best = 0, i = 1; i < n; i++)
			if (rem[i] > rem[best])
				best = i;
		count[best]++;
		rem[best] = 0;
	}
	return 0;
}

/*
 * Deals the free slots (vacant[s] set) to the paths short of their count
 * (want[i] more each, as many as are free), smooth weighted round robin: each
 * step every short path gains its shortfall in credit and the richest takes the
 * slot and pays the total, so a path's slots are spread evenly.
 */
static void deal(uint8_t *slot, const unsigned char *vacant, unsigned n,
		 const uint16_t *want)
{
	int32_t credit[DARD_PATHS_MAX] = {0};
	int32_t total = 0;
	unsigned s, i, best;

	for (i = 0; i < n; i++)
		total += want[i];
	for (s = 0; s < DARD_WCMP_SLOTS; s++) {
		if (!vacant[s])
			continue;
		best = n;
		for (i = 0; i < n; i++) {
			if (!want[i])
				continue;
			credit[i] += want[i];
			if (best == n || credit[i] > credit[best])
				best = i;
		}
		credit[best] -= total;
		slot[s] = best;
	}
}

int dard_wcmp_build(const uint16_t *w, unsigned n, const uint8_t *prev,
		    uint8_t *slot)
{
	uint16_t count[DARD_PATHS_MAX], want[DARD_PATHS_MAX];
	unsigned char vacant[DARD_WCMP_SLOTS];
	unsigned s, p;
	int ret;

	ret = dard_wcmp_apportion(w, n, count);
	if (ret)
		return ret;
	memcpy(want, count, n * sizeof(*want));
	for (s = 0; s < DARD_WCMP_SLOTS; s++) {
		p = prev ? prev[s] : n;
		vacant[s] = p >= n || !want[p];
		if (!vacant[s]) {
			want[p]--;
			slot[s] = p;
		}
	}
	deal(slot, vacant, n, want);
	return 0;
}

void dard_wcmp_count(const uint8_t *slot, unsigned n, uint16_t *count)
{
	unsigned s;

	memset(count, 0, n * sizeof(*count));
	for (s = 0; s < DARD_WCMP_SLOTS; s++)
		if (slot[s] < n)
			count[slot[s]]++;
}
