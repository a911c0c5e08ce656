// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The policy digest (<linux/dard_policy_digest.h>) in the BPF build:
 * clang -target bpf compiles the policy as it does for the datapath, and
 * the kernel's verifier and JIT run it. test_policy_bpf.c runs this
 * program by BPF_PROG_TEST_RUN over the inputs in chunks, each from
 * where the last one stopped, and compares the digests it leaves in pd
 * with the expected ones. Test-only: no datapath loads it.
 *
 * Two walks run as a BPF program must run them, by bpf_loop over the
 * policy's steps: the D-SACK walk through the datapath's own dsack_walk
 * (bpf/dsack.h), the weighted table's build through dard_slots_step, as
 * dard_slots_build would (the BPF datapath builds no table).
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <linux/dard_policy_digest.h>

#include "dsack.h"
#include "policy_digest.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* The digests and the inputs' room, kept between runs (.bss). */
struct dard_pd pd;

/* One step of input's table; 1 ends the build, its result in *ret. */
static long wcmp_step(__u32 k, void *ctx)
{
	int *ret = ctx;

	*ret = dard_slots_step(pd.w, dard_pd_wcmp_prev(&pd), pd.slot, &pd.x);
	return *ret != 0;
}

/* dard_slots_build, by bpf_loop: -1 too if the steps run out. */
static __always_inline int wcmp_build(void)
{
	int ret = -1;

	dard_slots_start(&pd.x, pd.wn);
	bpf_loop(DARD_SLOTS_STEPS, wcmp_step, &ret, 0);
	return ret < 0 ? -1 : 0;
}

/* Input first + i through every function: dard_pd_input's order. */
static long one_input(__u32 i, void *ctx)
{
	const struct pd_chunk *c = ctx;
	__u32 k = c->first + i;
	struct dsack_scan s;

	dard_pd_paths(&pd, k);
	dard_pd_tcp(&pd, k);

	dard_pd_gen_opts(&pd, k);
	__builtin_memset(&s, 0, sizeof(s));
	__builtin_memcpy(s.opt, pd.opt, sizeof(s.opt));
	s.len = pd.opt_len;
	s.ack = pd.ack;
	dard_pd_dsack_fold(&pd, dsack_walk(&s), s.start);

	dard_pd_wcmp_gen(&pd, k);
	dard_pd_wcmp_fold(&pd, wcmp_build());
	return 0;
}

/* Inputs first to first + count - 1; the first chunk (first 0) starts
 * the digests. */
SEC("syscall")
int policy_digest(struct pd_chunk *ctx)
{
	struct pd_chunk c = *ctx;

	if (c.count > PD_CHUNK_MAX || c.first > DARD_PD_INPUTS ||
	    c.count > DARD_PD_INPUTS - c.first)
		return -1;
	if (!c.first)
		dard_pd_init(&pd);
	bpf_loop(c.count, one_input, &c, 0);
	return 0;
}
