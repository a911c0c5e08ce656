// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Max-min fair rates by progressive filling, with a lazy heap of links:
 * one entry per link, re-keyed only when it comes to the top stale.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "maxmin.h"

struct entry {
	double share;
	uint32_t link;
	uint32_t version; /* stale when the link's version has moved on */
};

struct heap {
	struct entry *e;
	size_t n, cap;
};

static int push(struct heap *h, struct entry x)
{
	size_t i;

	if (h->n == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 64;
		struct entry *e = realloc(h->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		h->e = e;
		h->cap = cap;
	}
	for (i = h->n++; i && h->e[(i - 1) / 2].share > x.share;
	     i = (i - 1) / 2)
		h->e[i] = h->e[(i - 1) / 2];
	h->e[i] = x;
	return 0;
}

static struct entry pop(struct heap *h)
{
	struct entry top = h->e[0], last = h->e[--h->n];
	size_t i = 0, c;

	for (; (c = 2 * i + 1) < h->n; i = c) {
		if (c + 1 < h->n && h->e[c + 1].share < h->e[c].share)
			c++;
		if (h->e[c].share >= last.share)
			break;
		h->e[i] = h->e[c];
	}
	if (h->n)
		h->e[i] = last;
	return top;
}

int dard_maxmin(const double *capacity, uint32_t nlinks,
		const struct dard_mm_flow *flows, size_t nflows, double *rate)
{
	double *left = malloc(nlinks * sizeof(*left));
	uint32_t *active = calloc(nlinks, sizeof(*active));
	uint32_t *version = calloc(nlinks, sizeof(*version));
	size_t *start = calloc(nlinks + 1, sizeof(*start)), *on = NULL;
	uint8_t *fixed = calloc(nflows ? nflows : 1, 1);
	struct heap h = {0};
	size_t i, total = 0;
	unsigned k;
	int ret = -ENOMEM;

	if (!left || !active || !version || !start || !fixed)
		goto out;
	for (i = 0; i < nflows; i++) {
		rate[i] = HUGE_VAL;
		for (k = 0; k < flows[i].nlinks; k++) {
			if (flows[i].links[k] >= nlinks) {
				ret = -EINVAL;
				goto out;
			}
			active[flows[i].links[k]]++;
			total++;
		}
	}
	/* Each link's flows, as one array (counting sort). */
	for (k = 0; k < nlinks; k++)
		start[k + 1] = start[k] + active[k];
	on = malloc((total ? total : 1) * sizeof(*on));
	if (!on)
		goto out;
	{
		size_t *fill = calloc(nlinks ? nlinks : 1, sizeof(*fill));

		if (!fill)
			goto out;
		for (i = 0; i < nflows; i++)
			for (k = 0; k < flows[i].nlinks; k++) {
				uint32_t l = flows[i].links[k];

				on[start[l] + fill[l]++] = i;
			}
		free(fill);
	}
	for (k = 0; k < nlinks; k++) {
		left[k] = capacity[k];
		if (active[k] &&
		    push(&h, (struct entry){left[k] / active[k], k, 0}))
			goto out;
	}
	while (h.n) {
		struct entry top = pop(&h);
		uint32_t l = top.link;
		double share;

		if (!active[l])
			continue;
		/*
		 * Fixing flows at the smallest share never lowers another
		 * link's share, so a stale entry's share is a lower bound:
		 * put the link back at its share now, one entry per link.
		 */
		if (top.version != version[l]) {
			if (push(&h, (struct entry){left[l] / active[l], l,
						    version[l]}))
				goto out;
			continue;
		}
		/* The tightest link: its remaining flows get its share. */
		share = left[l] / active[l];
		if (share < 0)
			share = 0;
		for (i = start[l]; i < start[l + 1]; i++) {
			size_t f = on[i];

			if (fixed[f])
				continue;
			fixed[f] = 1;
			rate[f] = share;
			for (k = 0; k < flows[f].nlinks; k++) {
				uint32_t m = flows[f].links[k];

				left[m] -= share;
				active[m]--;
				version[m]++;
			}
		}
	}
	ret = 0;
out:
	free(h.e);
	free(left);
	free(active);
	free(version);
	free(start);
	free(on);
	free(fixed);
	return ret;
}
