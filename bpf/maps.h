/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The datapath's maps; their types are in <linux/dard.h>. */
#ifndef _DARD_BPF_MAPS_H
#define _DARD_BPF_MAPS_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <linux/dard.h>

/*
 * This host's alias pairs to each destination ID, one per path. Not
 * preallocated: a preallocated hash hands an updated key's old element
 * to the next update on that CPU at once, while a program may still be
 * reading it, so a new flow could take another destination's path.
 * Without preallocation an element is freed only after an RCU grace
 * period, and an idle host does not hold 160 MiB of destinations.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, DARD_DESTS_MAX);
	__type(key, __be32);
	__type(value, struct dard_dest);
} dard_dests SEC(".maps");

/* This host's own aliases: the outer destinations it decapsulates. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, DARD_ALIASES_MAX);
	__type(key, __be32);
	__type(value, __u8);
} dard_aliases SEC(".maps");

/* Every flow to an ID: its path, counters and elephant state. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DARD_FLOWS_MAX);
	__type(key, struct dard_flow_key);
	__type(value, struct dard_flow);
} dard_flows SEC(".maps");

/* Elephant and flow-end events for the daemon. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 256 * 1024);
} dard_events SEC(".maps");

/* What happened to every packet, per CPU, by enum dard_stat. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, __DARD_STAT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} dard_stats SEC(".maps");

/* How the loader attached us, for a later detach; never read here. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct dard_meta);
} dard_meta SEC(".maps");

/*
 * The liveness generation: userspace bumps it after it changes any
 * destination's dead bits or paths. A known flow checks its path against
 * the dead bits only when the generation it noted is not this one, so a
 * packet pays one array read and a compare whether or not anything is
 * dead.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} dard_live_gen SEC(".maps");

static __always_inline void count(__u32 stat)
{
	__u64 *v = bpf_map_lookup_elem(&dard_stats, &stat);

	if (v)
		*v += 1;
}

#endif /* _DARD_BPF_MAPS_H */
