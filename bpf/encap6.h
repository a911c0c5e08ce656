/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * 4in6: the IPv4 packet to an ID wrapped in an outer IPv6 header whose
 * pair is the path's IPv6 aliases, for an IPv6-only fabric. The flow
 * table, the paths and the IDs stay IPv4; an IPv6 alias is the IPv4 one
 * re-encoded field by field (daemon/lib/addr6.h), so the program turns
 * one into the other with the plan's layout, which the loader sets, by
 * the arithmetic the kernel module shares (<linux/dard_layout6.h>).
 */
#ifndef _DARD_BPF_ENCAP6_H
#define _DARD_BPF_ENCAP6_H

#include <linux/ipv6.h>
#include <linux/dard_layout6.h>

#include "parse.h"

#ifndef ETH_P_IPV6
#define ETH_P_IPV6 0x86DD
#endif
#ifndef BPF_F_ADJ_ROOM_DECAP_L3_IPV4
#define BPF_F_ADJ_ROOM_DECAP_L3_IPV4 (1ULL << 7)
#endif
/*
 * As DARD_ENCAP_FLAGS (encap.h): the benchmark, which runs one buffer
 * again and again, builds without them (bench/bench_dp.bpf.c).
 */
#ifndef EINVAL
#define EINVAL 22 /* the flag a kernel before 6.3 does not know */
#endif
#ifndef DARD_ENCAP6_FLAGS
#define DARD_ENCAP6_FLAGS BPF_F_ADJ_ROOM_ENCAP_L3_IPV6
#endif
#ifndef DARD_DECAP6_FLAGS
#define DARD_DECAP6_FLAGS BPF_F_ADJ_ROOM_DECAP_L3_IPV4
#define DARD_DECAP6_FALLBACK 1 /* pop_ip6ip's, before Linux 6.3 */
#else
#define DARD_DECAP6_FALLBACK 0
#endif

/* The plan's layout, set by the loader; outer6 0: IPv4 outer headers. */
const volatile struct dard_layout6 layout6 = {};

/* An IPv4 alias (network order) as IPv6 words (host order). */
static __always_inline void alias_v6(__be32 a, __u32 *w)
{
	dard_alias_v6(&layout6, bpf_ntohl(a), w);
}

/* The IPv4 alias an IPv6 address re-encodes, or -1 (dard_alias_v4). */
static __always_inline int alias_v4(const __u32 *w, __be32 *out)
{
	__u32 v;

	if (dard_alias_v4(&layout6, w, &v))
		return -1;
	*out = bpf_htonl(v);
	return 0;
}

/*
 * Wraps the IPv4 packet in an IPv6 header from pair, as push_ipip() does
 * in IPv4: hop limit fresh, ECN copied, DSCP dscp, and the flow label the
 * flow's hash (RFC 6438), so that what hashes on labels spreads flows.
 */
static __always_inline int push_ip6ip(struct __sk_buff *skb,
				      const struct dard_alias_pair *pair,
				      __u8 inner_tos, __u16 inner_len, int dscp,
				      __u32 label)
{
	__u8 tclass = (dscp << 2) | (inner_tos & 3);
	__be16 proto = bpf_htons(ETH_P_IPV6);
	struct ipv6hdr outer = {
		.version = 6,
		.nexthdr = IPPROTO_IPIP,
		.hop_limit = DARD_OUTER_TTL,
	};
	__u32 s[4], d[4];
	int i;

	outer.priority = tclass >> 4;
	outer.flow_lbl[0] = (tclass & 0xf) << 4 | ((label >> 16) & 0xf);
	outer.flow_lbl[1] = label >> 8;
	outer.flow_lbl[2] = label;
	outer.payload_len = bpf_htons(inner_len);
	alias_v6(pair->saddr, s);
	alias_v6(pair->daddr, d);
#pragma unroll
	for (i = 0; i < 4; i++) {
		outer.saddr.in6_u.u6_addr32[i] = bpf_htonl(s[i]);
		outer.daddr.in6_u.u6_addr32[i] = bpf_htonl(d[i]);
	}
	if (bpf_skb_adjust_room(skb, sizeof(outer), BPF_ADJ_ROOM_MAC,
				DARD_ENCAP6_FLAGS | BPF_F_ADJ_ROOM_FIXED_GSO))
		return -1;
	if (bpf_skb_store_bytes(skb, ETH_HLEN, &outer, sizeof(outer), 0))
		return -1;
	return bpf_skb_store_bytes(skb, offsetof(struct ethhdr, h_proto),
				   &proto, sizeof(proto), 0);
}

/*
 * Removes the IPv6 header; the packet is IPv4 again. Linux 6.3 has the
 * flag that says so (BPF_F_ADJ_ROOM_DECAP_L3_IPV4: skb->protocol and the
 * GSO type follow); before it (Debian 12's 6.1) the flag is -EINVAL, and
 * bpf_skb_change_proto takes the header's first 20 bytes with the
 * protocol, as NAT64 would, and the room the other 20.
 */
static __always_inline int pop_ip6ip(struct __sk_buff *skb)
{
	const int diff = sizeof(struct ipv6hdr) - sizeof(struct iphdr);
	__be16 proto = bpf_htons(ETH_P_IP);
	long ret;

	ret = bpf_skb_adjust_room(skb, -(int)sizeof(struct ipv6hdr),
				  BPF_ADJ_ROOM_MAC,
				  BPF_F_ADJ_ROOM_FIXED_GSO | DARD_DECAP6_FLAGS);
#if DARD_DECAP6_FALLBACK
	if (ret == -EINVAL)
		ret = bpf_skb_change_proto(skb, proto, 0) ||
		      bpf_skb_adjust_room(skb, -diff, BPF_ADJ_ROOM_MAC,
					  BPF_F_ADJ_ROOM_FIXED_GSO);
#endif
	if (ret)
		return -1;
	return bpf_skb_store_bytes(skb, offsetof(struct ethhdr, h_proto),
				   &proto, sizeof(proto), 0);
}

#endif /* _DARD_BPF_ENCAP6_H */
