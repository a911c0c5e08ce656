// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The WCMP slot table of a destination's path weights (wcmp.h): the
 * arithmetic is <linux/dard_policy.h>'s, which the kernel module builds
 * its tables with too; here it gets its room and libdard's errors.
 */
#include <errno.h>
#include <string.h>
#include <linux/dard_policy.h>

#include "wcmp.h"

int dard_wcmp_apportion(const uint16_t *w, unsigned n, uint16_t *count)
{
	struct dard_slots_scratch x;

	if (dard_slots_apportion(w, n, &x))
		return -EINVAL;
	memcpy(count, x.count, n * sizeof(*count));
	return 0;
}

int dard_wcmp_build(const uint16_t *w, unsigned n, const uint8_t *prev,
		    uint8_t *slot)
{
	struct dard_slots_scratch x;

	return dard_slots_build(w, n, prev, slot, &x) ? -EINVAL : 0;
}

void dard_wcmp_count(const uint8_t *slot, unsigned n, uint16_t *count)
{
	dard_slots_count(slot, n, count);
}
