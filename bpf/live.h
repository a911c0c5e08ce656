/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Path liveness, shared by the TC programs and the sock_ops program: which
 * of a destination's paths are dead, and the next live one after a path.
 */
#ifndef _DARD_BPF_LIVE_H
#define _DARD_BPF_LIVE_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <linux/dard.h>

/* Whether path i (< DARD_PATHS_MAX) of d is known dead. */
static __always_inline int is_dead(const struct dard_dest *d, __u32 i)
{
	return d->dead[(i / 64) & (DARD_PATHS_MAX / 64 - 1)] >> (i % 64) & 1;
}

/* What next_live's loop reads and finds: no pointers, one frame. */
struct live_scan {
	__u64 dead[DARD_PATHS_MAX / 64];
	__u32 i, n, found;
};

static long scan_step(__u32 k, void *ctx)
{
	struct live_scan *s = ctx;
	__u32 j = s->i + k + 1;

	if (j >= s->n)
		j -= s->n;
	if (s->dead[(j / 64) & (DARD_PATHS_MAX / 64 - 1)] >> (j % 64) & 1)
		return 0;
	s->found = j;
	return 1;
}

/*
 * The first live path after i, going round d's n paths; DARD_PATHS_MAX if
 * none is. Only called once path i is known dead, so the common case
 * never loops. bpf_loop, not a bounded loop: the verifier checks its body
 * once, where 255 unrolled iterations exhausted its budget.
 */
static __always_inline __u32 next_live(const struct dard_dest *d, __u32 i,
				       __u32 n)
{
	struct live_scan s = {.i = i, .n = n, .found = DARD_PATHS_MAX};

	__builtin_memcpy(s.dead, d->dead, sizeof(s.dead));
	bpf_loop(n - 1, scan_step, &s, 0);
	return s.found;
}

#endif /* _DARD_BPF_LIVE_H */
