/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the BPF backend's files share: its handle on the pinned maps, and
 * the writers of dard_dests (dp_bpf_dest.c) that its ops table names.
 */
#ifndef _DARD_DP_BPF_H
#define _DARD_DP_BPF_H

#include <limits.h>

#include "dp.h"

/* The maps, in the order of map_names in dp_bpf.c. */
enum {
	M_DESTS,
	M_ALIASES,
	M_FLOWS,
	M_EVENTS,
	M_STATS,
	M_META,
	M_LIVE_GEN,
	M_NR
};

struct dard_dp {
	char dir[PATH_MAX];
	int fd[M_NR];
	struct ring_buffer *rb;
	dard_dp_event_cb cb;
	void *cb_arg;
	int ncpus;
	/* A destination was written but the generation's bump failed: the
	 * next set_dead bumps it, even with its bits unchanged. */
	int live_gen_owed;
};

int dp_bpf_set_dest(struct dard_dp *dp, uint32_t id,
		    const struct dard_alias_pair *paths, unsigned n,
		    const uint8_t *next);
int dp_bpf_set_dead(struct dard_dp *dp, uint32_t id, const uint64_t *dead);
int dp_bpf_set_weights(struct dard_dp *dp, uint32_t id, const uint16_t *w,
		       unsigned n);
int dp_bpf_weights(struct dard_dp *dp, uint32_t id, uint16_t *slots,
		   unsigned *n);

#endif /* _DARD_DP_BPF_H */
