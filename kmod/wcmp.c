// SPDX-License-Identifier: GPL-2.0
/*
 * The slot table of a weighted destination (struct dard_dest's slot[]):
 * path i holds w[i] / sum(w) of DARD_WCMP_SLOTS slots to within one
 * (largest remainder), dealt out interleaved, and a slot keeps the path
 * it had while that path has slots to spare, so a small change moves few
 * hashes. The same arithmetic as userspace's daemon/lib/wcmp.c, which
 * the BPF backend uses; this small copy lets the module build its own.
 */
#include <linux/slab.h>
#include "wcmp.h"

/* The arithmetic's arrays: too big for a kernel stack together. */
struct scratch {
	u32 rem[DARD_PATHS_MAX];
	s32 credit[DARD_PATHS_MAX];
	u16 count[DARD_PATHS_MAX], want[DARD_PATHS_MAX];
	bool vacant[DARD_WCMP_SLOTS];
};

/* The largest remainder method; false if every weight is 0. */
static bool apportion(const u16 *w, u32 n, u16 *count, u32 *rem)
{
	u32 sum = 0, left = DARD_WCMP_SLOTS, i, best;

	for (i = 0; i < n; i++)
		sum += w[i];
	if (!sum)
		return false;
	for (i = 0; i < n; i++) {
		count[i] = (u32)w[i] * DARD_WCMP_SLOTS / sum;
		rem[i] = (u32)w[i] * DARD_WCMP_SLOTS % sum;
		left -= count[i];
	}
	/* Each leftover slot to a distinct largest remainder, never 0. */
	while (left--) {
		for (best = 0, i = 1; i < n; i++)
			if (rem[i] > rem[best])
				best = i;
		count[best]++;
		rem[best] = 0;
	}
	return true;
}

/*
 * Keeps what prev (NULL: nothing) can, then deals the free slots to the
 * paths still short, smooth weighted round robin so they interleave.
 */
static void build(struct scratch *x, u32 n, const u8 *prev, u8 *slot)
{
	s32 *credit = x->credit, total = 0;
	u16 *want = x->want;
	bool *vacant = x->vacant;
	u32 s, i, best;

	memset(credit, 0, sizeof(x->credit));
	memcpy(want, x->count, n * sizeof(*want));
	for (s = 0; s < DARD_WCMP_SLOTS; s++) {
		i = prev ? prev[s] : n;
		vacant[s] = i >= n || !want[i];
		if (!vacant[s])
			want[i]--;
	}
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

int dard_dest_set_weights(struct dard_dev *dd, __be32 id, const u16 *w, u32 n,
			  struct netlink_ext_ack *extack)
{
	struct dard_kdest *old = dard_dest_get(dd, id), *kd;
	struct scratch *x;

	if (!old) {
		NL_SET_ERR_MSG(extack, "no such destination");
		return -ENOENT;
	}
	if (w && n != old->d.npaths) {
		NL_SET_ERR_MSG(extack, "DARD_A_WEIGHTS: not one per path");
		return -EINVAL;
	}
	x = kmalloc(sizeof(*x), GFP_KERNEL);
	/* A copy, as readers see a destination whole or not at all. Its
	 * generation stays: known flows keep their paths. */
	kd = kmemdup(old, sizeof(*kd), GFP_KERNEL);
	if (!kd || !x) {
		kfree(kd);
		kfree(x);
		return -ENOMEM;
	}
	if (w && !apportion(w, n, x->count, x->rem)) {
		kfree(kd);
		kfree(x);
		NL_SET_ERR_MSG(extack, "DARD_A_WEIGHTS: all 0");
		return -EINVAL;
	}
	if (w)
		build(x, n, old->d.weighted ? old->d.slot : NULL, kd->d.slot);
	else
		memset(kd->d.slot, 0, sizeof(kd->d.slot));
	kd->d.weighted = !!w;
	kfree(x);
	hlist_replace_rcu(&old->node, &kd->node);
	kfree_rcu(old, rcu);
	return 0;
}

int dard_dest_weights(struct dard_dev *dd, __be32 id, u16 *count, u32 *n)
{
	const struct dard_kdest *kd = dard_dest_get(dd, id);
	u32 s;

	if (!kd)
		return -ENOENT;
	*n = kd->d.npaths;
	if (!kd->d.weighted)
		return 0;
	memset(count, 0, kd->d.npaths * sizeof(*count));
	for (s = 0; s < DARD_WCMP_SLOTS; s++)
		if (kd->d.slot[s] < kd->d.npaths)
			count[kd->d.slot[s]]++;
	return 1;
}
