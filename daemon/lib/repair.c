// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The datapath's in-band repair order over a destination's paths. */
#include <string.h>

#include "repair.h"

/* Switches a and b share, but for the first and last, common to all. */
static unsigned shared(const struct dard_path *a, const struct dard_path *b)
{
	unsigned i, j, n = 0;

	for (i = 1; i + 1 < a->nsw; i++)
		for (j = 1; j + 1 < b->nsw; j++)
			n += a->sw[i] == b->sw[j];
	return n;
}

void dard_repair_order(const struct dard_path *paths, unsigned n, uint8_t *next)
{
	uint8_t seen[256];
	unsigned cur = 0, k, i;

	if (!n || n > 256)
		return;
	memset(seen, 0, sizeof(seen));
	seen[0] = 1;
	/* Greedy, n^2 comparisons of a few switches: once per ToR pair. */
	for (k = 1; k < n; k++) {
		unsigned best = n, best_shared = ~0U;

		for (i = 0; i < n; i++) {
			unsigned s;

			if (seen[i])
				continue;
			s = shared(&paths[cur], &paths[i]);
			if (s < best_shared) {
				best = i;
				best_shared = s;
			}
		}
		next[cur] = best;
		seen[best] = 1;
		cur = best;
	}
	next[cur] = 0;
}
