// SPDX-License-Identifier: GPL-2.0
/*
 * The slot table of a weighted destination (struct dard_dest's slot[]),
 * built by dard_slots_build (<linux/dard_policy.h>): the arithmetic
 * libdard's builds the BPF backend's tables with, compiled into the
 * module.
 */
#include <linux/slab.h>
#include <linux/dard_policy.h>
#include "wcmp.h"

int dard_dest_set_weights(struct dard_dev *dd, __be32 id, const u16 *w, u32 n,
			  struct netlink_ext_ack *extack)
{
	struct dard_kdest *old = dard_dest_get(dd, id), *kd;
	/* Too big for a kernel stack. */
	struct dard_slots_scratch *x;

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
	/* Over the old table, which kd's is a copy of: a slot keeps its
	 * path while that path has slots to spare. */
	if (w && dard_slots_build(w, n, old->d.weighted ? kd->d.slot : NULL,
				  kd->d.slot, x)) {
		kfree(kd);
		kfree(x);
		NL_SET_ERR_MSG(extack, "DARD_A_WEIGHTS: all 0");
		return -EINVAL;
	}
	if (!w)
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

	if (!kd)
		return -ENOENT;
	*n = kd->d.npaths;
	if (!kd->d.weighted)
		return 0;
	dard_slots_count(kd->d.slot, kd->d.npaths, count);
	return 1;
}
