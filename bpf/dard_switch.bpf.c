// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The switch side of elephant counting, for dard-switchd: on the TC
 * egress hook of every switch port, note each IP-in-IP flow whose outer
 * DSCP carries the hosts' elephant mark, by port and inner 5-tuple, with
 * the time it was last seen. The agent counts a port's entries seen
 * within its window. The program never changes, drops or redirects a
 * packet: forwarding stays the switch's own.
 */
#include "parse.h"

char LICENSE[] SEC("license") = "Dual MIT/GPL";

const volatile int elephant_dscp = 8;

/* Every elephant leaving a port: when it was last seen. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DARD_SW_FLOWS_MAX);
	__type(key, struct dard_sw_key);
	__type(value, __u64); /* last seen, bpf_ktime_get_coarse_ns() */
} dard_sw_flows SEC(".maps");

/* What the counter did with marked packets, per CPU, by enum dard_sw_stat. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, __DARD_SW_STAT_MAX);
	__type(key, __u32);
	__type(value, __u64);
} dard_sw_stats SEC(".maps");

static __always_inline void count(__u32 stat)
{
	__u64 *v = bpf_map_lookup_elem(&dard_sw_stats, &stat);

	if (v)
		*v += 1;
}

/* The inner flow of an IP-in-IP packet, read behind its outer header. */
static __always_inline int inner_flow(struct __sk_buff *skb,
				      struct dard_flow_key *key)
{
	__u32 off = ETH_HLEN + sizeof(struct iphdr);
	struct iphdr in;
	__be16 ports[2];

	if (bpf_skb_load_bytes(skb, off, &in, sizeof(in)) || in.version != 4 ||
	    in.ihl < 5)
		return -1;
	key->saddr = in.saddr;
	key->daddr = in.daddr;
	key->proto = in.protocol;
	if (in.frag_off & bpf_htons(IP_MF | IP_OFFSET) ||
	    (in.protocol != IPPROTO_TCP && in.protocol != IPPROTO_UDP))
		return 0;
	if (bpf_skb_load_bytes(skb, off + in.ihl * 4, ports, sizeof(ports)))
		return -1;
	key->sport = ports[0];
	key->dport = ports[1];
	return 0;
}

SEC("tc")
int dard_sw_egress(struct __sk_buff *skb)
{
	struct dard_sw_key key = {.ifindex = skb->ifindex};
	struct iphdr *ip;
	__u64 now, *seen;
	int truncated;

	ip = parse_ipv4(skb, &truncated);
	/* A later piece of a fragment carries no inner header. */
	if (!ip || ip->protocol != IPPROTO_IPIP || ip->ihl != 5 ||
	    ip->tos >> 2 != elephant_dscp ||
	    (ip->frag_off & bpf_htons(IP_OFFSET)))
		return TC_ACT_OK;
	if (inner_flow(skb, &key.flow)) {
		count(DARD_SW_STAT_TRUNCATED);
		return TC_ACT_OK;
	}
	now = bpf_ktime_get_coarse_ns();
	seen = bpf_map_lookup_elem(&dard_sw_flows, &key);
	/* Written once a jiffy at most: the line stays shared between CPUs. */
	if (seen) {
		if (*seen != now)
			*seen = now;
	} else if (bpf_map_update_elem(&dard_sw_flows, &key, &now, BPF_ANY)) {
		count(DARD_SW_STAT_FLOW_FULL);
		return TC_ACT_OK;
	} else {
		count(DARD_SW_STAT_NEW_FLOW);
	}
	count(DARD_SW_STAT_NOTED);
	return TC_ACT_OK;
}
