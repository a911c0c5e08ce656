/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A BPF program on an interface's TC hook, for the host datapath and
 * dard-switchd alike: the clsact qdisc made only where none is, filters
 * at the caller's handle and priority, and on release only what was made
 * (LBB tc.c). Helpers return 0 or a negative errno and never print.
 */
#ifndef _DARD_TC_H
#define _DARD_TC_H

#include <stdint.h>
#include <bpf/libbpf.h>

struct dard_tc_hook {
	unsigned ifindex;
	uint32_t handle, priority; /* of every filter we attach */
	int hook_created;	   /* the clsact qdisc is ours */
	int attached;		   /* BPF_TC_INGRESS | BPF_TC_EGRESS we hold */
};

/* Makes ifindex's clsact hook unless it has one, noting which it was. */
int dard_tc_hook_make(struct dard_tc_hook *tc, unsigned ifindex,
		      uint32_t handle, uint32_t priority);
/*
 * Attaches prog_fd at point (BPF_TC_INGRESS or BPF_TC_EGRESS); replace
 * takes the place of a filter left at our handle and priority.
 */
int dard_tc_attach(struct dard_tc_hook *tc, enum bpf_tc_attach_point point,
		   int prog_fd, int replace);
/*
 * Removes what dard_tc_hook_make and dard_tc_attach made: the hook if it was
 * ours (our filters go with it), else our filters. Nothing is reported:
 * the interface may be gone already, and its filters with it.
 */
void dard_tc_release(struct dard_tc_hook *tc);

#endif /* _DARD_TC_H */
