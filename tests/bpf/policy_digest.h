/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* What test_policy_bpf.c passes policy_digest.bpf.c in each run. */
#ifndef _DARD_TEST_POLICY_DIGEST_H
#define _DARD_TEST_POLICY_DIGEST_H

#include <linux/types.h>

/*
 * A run is one BPF_PROG_TEST_RUN: a program runs to its end on one CPU,
 * so the inputs are cut into chunks that each take a fraction of a
 * second.
 */
enum { PD_CHUNK_MAX = 10000 };

/* The program's context: inputs first to first + count - 1. */
struct pd_chunk {
	__u32 first;
	__u32 count;
};

#endif /* _DARD_TEST_POLICY_DIGEST_H */
