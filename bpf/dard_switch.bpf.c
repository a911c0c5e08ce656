// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The switch side of elephant counting, for dard-switchd: on the TC
 * egress hook of every switch port, note each IP-in-IP flow (or 4in6:
 * IPv4 in IPv6, an IPv6-only fabric's) whose outer DSCP carries the
 * hosts' elephant mark, by port and inner 5-tuple, with
 * the time it was last seen and the bytes it carried in the current and
 * the previous counting window. The agent counts a port's entries seen
 * within its window that carried enough bytes in one of those two
 * windows, so that a trickle of marked packets adds no elephant. The
 * program never changes, drops or redirects a packet: forwarding stays
 * the switch's own.
 */
#include <linux/ipv6.h>

#include "parse.h"

#ifndef ETH_P_IPV6
#define ETH_P_IPV6 0x86DD
#endif

char LICENSE[] SEC("license") = "Dual MIT/GPL";

const volatile int elephant_dscp = 8;
/* dard-switchd's counting window, and the largest port's threshold in
 * bytes per window: a flow's bytes are not added beyond it (0: never). */
const volatile __u64 window_ns = 1000000000;
const volatile __u64 bytes_cap;

/* Every elephant leaving a port: when last seen, its windows' bytes. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, DARD_SW_FLOWS_MAX);
	__type(key, struct dard_sw_key);
	__type(value, struct dard_sw_flow);
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
static __always_inline int inner_flow(struct __sk_buff *skb, __u32 off,
				      struct dard_flow_key *key)
{
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

/*
 * A packet of len bytes of a known flow at now, in window w. Its line is
 * written at most once a jiffy for last-seen, once a window for the
 * roll, and per packet only while the window's bytes are under bytes_cap:
 * past it the flow counts on any port, and the line stays shared between
 * CPUs. Updates race between CPUs without locks: a lost add only delays
 * a flow's count.
 */
static __always_inline void note_bytes(struct dard_sw_flow *f, __u64 now,
				       __u64 w, __u32 len)
{
	/* Only forward: a CPU whose clock read is a tick behind adds. */
	if (f->window < w) {
		if (f->bytes < bytes_cap)
			count(DARD_SW_STAT_LIGHT);
		f->prev = f->window + 1 == w ? f->bytes : 0;
		f->bytes = len < bytes_cap ? len : bytes_cap;
		f->window = w;
		f->seen_ns = now;
		return;
	}
	if (f->seen_ns != now)
		f->seen_ns = now;
	if (f->bytes < bytes_cap)
		f->bytes += len;
}

/*
 * Where a marked IPv4-in-IPv6 packet's inner header starts, or 0 for any
 * other packet: the traffic class carries the mark as IPv4's TOS does.
 */
static __always_inline __u32 marked6(struct __sk_buff *skb)
{
	struct ipv6hdr ip6;

	if (bpf_skb_load_bytes(skb, ETH_HLEN, &ip6, sizeof(ip6)) ||
	    ip6.version != 6 || ip6.nexthdr != IPPROTO_IPIP ||
	    ((ip6.priority << 4 | ip6.flow_lbl[0] >> 4) >> 2) != elephant_dscp)
		return 0;
	return ETH_HLEN + sizeof(ip6);
}

/* The same for IPv4 in IPv4. */
static __always_inline __u32 marked4(struct __sk_buff *skb)
{
	struct iphdr *ip;
	int truncated;

	ip = parse_ipv4(skb, &truncated);
	/* A later piece of a fragment carries no inner header. */
	if (!ip || ip->protocol != IPPROTO_IPIP || ip->ihl != 5 ||
	    ip->tos >> 2 != elephant_dscp ||
	    (ip->frag_off & bpf_htons(IP_OFFSET)))
		return 0;
	return ETH_HLEN + sizeof(*ip);
}

SEC("tc")
int dard_sw_egress(struct __sk_buff *skb)
{
	struct dard_sw_key key = {.ifindex = skb->ifindex};
	struct dard_sw_flow *f, fresh = {0};
	__u32 off;
	__u64 now;

	off = skb->protocol == bpf_htons(ETH_P_IPV6) ? marked6(skb)
						     : marked4(skb);
	if (!off)
		return TC_ACT_OK;
	if (inner_flow(skb, off, &key.flow)) {
		count(DARD_SW_STAT_TRUNCATED);
		return TC_ACT_OK;
	}
	now = bpf_ktime_get_coarse_ns();
	f = bpf_map_lookup_elem(&dard_sw_flows, &key);
	if (f) {
		note_bytes(f, now, now / window_ns, skb->len);
	} else {
		fresh.seen_ns = now;
		fresh.window = now / window_ns;
		fresh.bytes = skb->len < bytes_cap ? skb->len : bytes_cap;
		if (bpf_map_update_elem(&dard_sw_flows, &key, &fresh,
					BPF_ANY)) {
			count(DARD_SW_STAT_FLOW_FULL);
			return TC_ACT_OK;
		}
		count(DARD_SW_STAT_NEW_FLOW);
	}
	count(DARD_SW_STAT_NOTED);
	return TC_ACT_OK;
}
