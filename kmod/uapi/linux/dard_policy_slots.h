/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Part of <linux/dard_policy.h>, which includes it: the weighted slot
 * table's builder, which libdard runs for the BPF backend's map and the
 * kernel module for its own destinations. Apart for its size only; the
 * same rules hold (pure, integer, three builds).
 */
#ifndef _UAPI_LINUX_DARD_POLICY_SLOTS_H
#define _UAPI_LINUX_DARD_POLICY_SLOTS_H

#include <linux/types.h>
#include <linux/dard.h>
#include <linux/dard_policy.h>

/*
 * Weighted hashing of new flows (WCMP): a destination's path weights
 * become its table of DARD_WCMP_SLOTS slots (struct dard_dest's slot[]),
 * each naming a path, which dard_hash_path indexes by the flow's hash.
 * libdard builds it for the BPF backend's map, the kernel module for its
 * own destinations. Path i gets w[i] / sum(w) of the slots to within
 * one (largest remainder), the slots are dealt out interleaved, and a
 * slot keeps the path it had while that path has slots to spare, so a
 * small change moves few hashes.
 *
 * A table is built in steps (dard_slots_step) of one loop over the paths
 * at most, which dard_slots_build runs in turn and a BPF program by
 * bpf_loop (tests/bpf/policy_digest.bpf.c). The BPF verifier walks
 * every turn of a loop, and learns the path count where a loop over the
 * paths ends: the build in one piece, loops over the paths after one
 * another and inside one over the slots, was 30 times its budget of a
 * million instructions. For the same reason the searches for the
 * largest value choose without a branch (dard_pick).
 */

enum dard_slots_phase {
	DARD_SLOTS_SUM,	     /* the weights' sum */
	DARD_SLOTS_SHARE,    /* each path's whole slots, and those left over */
	DARD_SLOTS_LEFTOVER, /* one left over to the largest remainder */
	DARD_SLOTS_KEEP,     /* one slot kept on its old path, or vacant */
	DARD_SLOTS_DEAL,     /* one vacant slot dealt */
	DARD_SLOTS_DONE,
};

/* Steps of a build at most: the sum, the shares, a leftover per path
 * but one, a keep and a deal per slot, the end of each. */
#define DARD_SLOTS_STEPS (DARD_PATHS_MAX + 2 * DARD_WCMP_SLOTS + 4)

/* A build's state: too big for a kernel stack or a BPF frame, so the
 * caller provides it. */
struct dard_slots_scratch {
	__u32 n;     /* paths */
	__u32 phase; /* enum dard_slots_phase */
	__u32 sum;   /* of the weights */
	__u32 left;  /* slots left over after the whole shares */
	__u32 s;     /* the next slot to keep or deal */
	__s32 total; /* the vacant slots: the paths' shortfalls added up */
	__u32 rem[DARD_PATHS_MAX];
	__s32 credit[DARD_PATHS_MAX];
	__u16 count[DARD_PATHS_MAX];
	__u16 want[DARD_PATHS_MAX]; /* slots still short of count */
	__u8 vacant[DARD_WCMP_SLOTS];
};

/* Makes x ready to build a table for n paths. */
static __inline__ void dard_slots_start(struct dard_slots_scratch *x, __u32 n)
{
	x->n = n;
	x->phase = DARD_SLOTS_SUM;
	x->sum = 0;
	x->left = 0;
	x->s = 0;
	x->total = 0;
}

/* The weights' sum; -1 if there are no paths or more than
 * DARD_PATHS_MAX, or every weight is 0. */
static __inline__ int dard_slots_sum(const __u16 *w,
				     struct dard_slots_scratch *x)
{
	__u32 n = x->n, sum = 0, i;

	if (!n || n > DARD_PATHS_MAX)
		return -1;
	/* The sum of 256 weights, and any of them times SLOTS, fit in 32
	 * bits. */
	for (i = 0; i < n && i < DARD_PATHS_MAX; i++)
		sum += w[i];
	if (!sum)
		return -1;
	x->sum = sum;
	x->phase = DARD_SLOTS_SHARE;
	return 0;
}

/* Each path's whole slots, floor(w[i] * SLOTS / sum), and the rest's
 * remainders; each path is short of all its slots. */
static __inline__ void dard_slots_share(const __u16 *w,
					struct dard_slots_scratch *x)
{
	__u32 n = x->n, sum = x->sum, left = DARD_WCMP_SLOTS, i, c;

	for (i = 0; i < n && i < DARD_PATHS_MAX; i++) {
		c = (__u32)w[i] * DARD_WCMP_SLOTS / sum;
		x->count[i] = c;
		x->want[i] = c;
		x->credit[i] = 0;
		x->rem[i] = (__u32)w[i] * DARD_WCMP_SLOTS % sum;
		left -= c;
	}
	x->left = left;
	x->phase = left ? DARD_SLOTS_LEFTOVER : DARD_SLOTS_KEEP;
}

/*
 * One slot left over to the largest remainder (the lowest index among
 * equals), which is then 0. Fewer than n are left over, each to a
 * distinct path: the remainders add up to left * sum and each is under
 * sum, so at least left of them are not 0, and a weight of 0 never gets
 * one.
 */
static __inline__ void dard_slots_leftover(struct dard_slots_scratch *x)
{
	__u32 n = x->n, i, best = 0, top = x->rem[0], more;

	for (i = 1; i < n && i < DARD_PATHS_MAX; i++) {
		more = dard_gt_mask(x->rem[i], top);
		best = dard_pick(more, i, best);
		top = dard_pick(more, x->rem[i], top);
	}
	best &= DARD_PATHS_MAX - 1;
	x->count[best]++;
	x->want[best]++;
	x->rem[best] = 0;
	if (!--x->left)
		x->phase = DARD_SLOTS_KEEP;
}

/*
 * Slot x->s keeps its path in prev (NULL: none) while that path has
 * slots to spare, or is vacant. After the last, the vacant slots are
 * as many as the paths' shortfalls add up to, as every path's count
 * adds up to DARD_WCMP_SLOTS.
 */
static __inline__ void dard_slots_keep(const __u8 *prev, __u8 *slot,
				       struct dard_slots_scratch *x)
{
	__u32 n = x->n, s = x->s, p;

	if (s >= DARD_WCMP_SLOTS) {
		x->s = 0;
		x->phase = DARD_SLOTS_DEAL;
		return;
	}
	x->s = s + 1;
	p = prev ? prev[s] : n;
	x->vacant[s] = p >= n || !x->want[p];
	if (x->vacant[s]) {
		x->total++;
		return;
	}
	x->want[p]--;
	slot[s] = p;
}

/*
 * Deals slot x->s if it is vacant, by smooth weighted round robin: every
 * path still short gains its shortfall in credit, and the richest (the
 * lowest index among equals) takes the slot and pays the total, so each
 * path's slots interleave. Every round finds a path short (as many
 * rounds as shortfalls), and every path ends with its count. 1 once
 * every slot is dealt.
 */
static __inline__ int dard_slots_deal(__u8 *slot, struct dard_slots_scratch *x)
{
	__u32 n = x->n, s = x->s, i, best = 0, found = 0, take, shorts;
	__s32 c, top = 0;

	if (s >= DARD_WCMP_SLOTS) {
		x->phase = DARD_SLOTS_DONE;
		return 1;
	}
	x->s = s + 1;
	if (!x->vacant[s])
		return 0;
	for (i = 0; i < n && i < DARD_PATHS_MAX; i++) {
		/* A path not short gains 0, and takes nothing. */
		c = x->credit[i] + x->want[i];
		x->credit[i] = c;
		shorts = dard_gt_mask(x->want[i], 0);
		take = shorts & (~found | dard_gt_mask(c, top));
		best = dard_pick(take, i, best);
		top = dard_pick(take, c, top);
		found |= shorts;
	}
	/* No path short: cannot be, as said. */
	if (!found)
		return -1;
	best &= DARD_PATHS_MAX - 1;
	x->credit[best] = top - x->total;
	slot[s] = best;
	return 0;
}

/*
 * One step of building the table for weights w (any scale, x->n of
 * them), over prev (the table these weights replace, for as many
 * paths; NULL: none; slot itself will do), into slot: 0 to be called
 * again, 1 when slot is the table, -1 when there is none (no paths, too
 * many, or every weight 0).
 */
static __inline__ int dard_slots_step(const __u16 *w, const __u8 *prev,
				      __u8 *slot, struct dard_slots_scratch *x)
{
	switch (x->phase) {
	case DARD_SLOTS_SUM:
		return dard_slots_sum(w, x);
	case DARD_SLOTS_SHARE:
		dard_slots_share(w, x);
		return 0;
	case DARD_SLOTS_LEFTOVER:
		dard_slots_leftover(x);
		return 0;
	case DARD_SLOTS_KEEP:
		dard_slots_keep(prev, slot, x);
		return 0;
	case DARD_SLOTS_DEAL:
		return dard_slots_deal(slot, x);
	}
	return 1;
}

/* Each of n paths' slots for weights w into x->count: the whole shares
 * and the leftovers. 0, or -1 as dard_slots_step. */
static __inline__ int dard_slots_apportion(const __u16 *w, __u32 n,
					   struct dard_slots_scratch *x)
{
	__u32 k;

	dard_slots_start(x, n);
	if (dard_slots_sum(w, x))
		return -1;
	dard_slots_share(w, x);
	for (k = 0; k < DARD_PATHS_MAX && x->phase == DARD_SLOTS_LEFTOVER; k++)
		dard_slots_leftover(x);
	return 0;
}

/* The table for weights w of n paths over prev, into slot (as
 * dard_slots_step): 0, or -1 when there is none. */
static __inline__ int dard_slots_build(const __u16 *w, __u32 n,
				       const __u8 *prev, __u8 *slot,
				       struct dard_slots_scratch *x)
{
	__u32 k;
	int r;

	dard_slots_start(x, n);
	for (k = 0; k < DARD_SLOTS_STEPS; k++) {
		r = dard_slots_step(w, prev, slot, x);
		if (r)
			return r < 0 ? -1 : 0;
	}
	return -1;
}

/* Each of n paths' slots in table slot into count (entries past n are
 * not counted). */
static __inline__ void dard_slots_count(const __u8 *slot, __u32 n, __u16 *count)
{
	__u32 s, i;

	for (i = 0; i < n; i++) {
		__dard_no_libcall(i);
		count[i] = 0;
	}
	for (s = 0; s < DARD_WCMP_SLOTS; s++)
		if (slot[s] < n)
			count[slot[s]]++;
}

#endif /* _UAPI_LINUX_DARD_POLICY_SLOTS_H */
