/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Pushing and popping the outer IPv4 header of IP-in-IP. */
#ifndef _DARD_BPF_ENCAP_H
#define _DARD_BPF_ENCAP_H

#include "parse.h"

/* Kernels since 6.3 know these; the Debian 12 uapi headers predate them. */
#ifndef BPF_F_ADJ_ROOM_DECAP_L3_IPV4
#define BPF_F_ADJ_ROOM_DECAP_L3_IPV4 (1ULL << 7)
#endif

/*
 * ENCAP marks the skb as encapsulated (inner headers, GSO type) so GSO and
 * checksum offload work on the inner packet. The kernel takes it once per
 * skb, so the benchmark, which wraps one buffer again and again, builds
 * without it (bench/bench_dp.bpf.c).
 */
#ifndef DARD_ENCAP_FLAGS
#define DARD_ENCAP_FLAGS BPF_F_ADJ_ROOM_ENCAP_L3_IPV4
#endif

static __always_inline __u16 ip_csum(const struct iphdr *ip)
{
	const __u16 *w = (const __u16 *)ip;
	__u32 sum = 0;
	int i;

#pragma unroll
	for (i = 0; i < (int)(sizeof(*ip) / 2); i++)
		sum += w[i];
	sum = (sum & 0xffff) + (sum >> 16);
	sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

/*
 * Wraps the packet in an outer header from pair. As a careful tunnel does
 * (RFC 2003, RFC 6040 normal mode): the outer TTL is fresh, ECN is copied
 * from the inner header, DSCP is dscp, and DF and the IP ID are copied.
 */
static __always_inline int push_ipip(struct __sk_buff *skb,
				     const struct dard_alias_pair *pair,
				     __u8 inner_tos, __be16 inner_frag,
				     __be16 inner_id, __u16 inner_len, int dscp)
{
	void *data, *data_end;
	struct iphdr outer = {
		.version = 4,
		.ihl = 5,
		.ttl = DARD_OUTER_TTL,
		.protocol = IPPROTO_IPIP,
		.saddr = pair->saddr,
		.daddr = pair->daddr,
	};

	outer.tos = (dscp << 2) | (inner_tos & 3);
	outer.frag_off = inner_frag & bpf_htons(IP_DF);
	/* RFC 6864: a packet that may be fragmented needs a unique ID. */
	outer.id = inner_id;
	outer.tot_len = bpf_htons(inner_len + sizeof(outer));
	outer.check = ip_csum(&outer);

	/*
	 * FIXED_GSO: the ID route's MTU already left room for our header, so
	 * gso_size stays as the sender chose it (and UDP GSO, which the
	 * helper refuses to resize, works at all).
	 */
	if (bpf_skb_adjust_room(skb, sizeof(outer), BPF_ADJ_ROOM_MAC,
				DARD_ENCAP_FLAGS | BPF_F_ADJ_ROOM_FIXED_GSO))
		return -1;
	/* Written in place: cheaper than bpf_skb_store_bytes. */
	data = pkt_data(skb);
	data_end = pkt_end(skb);
	if (data + ETH_HLEN + sizeof(outer) > data_end)
		return bpf_skb_store_bytes(skb, ETH_HLEN, &outer, sizeof(outer),
					   0);
	__builtin_memcpy(data + ETH_HLEN, &outer, sizeof(outer));
	return 0;
}

/*
 * Removes the outer header. FIXED_GSO keeps gso_size as it is: letting it
 * grow by 20 bytes makes GRO-aggregated packets near the MTU too big to
 * segment again, and tcp_gso_segment drops them.
 */
static __always_inline int pop_ipip(struct __sk_buff *skb)
{
	int ret = bpf_skb_adjust_room(
		skb, -(int)sizeof(struct iphdr), BPF_ADJ_ROOM_MAC,
		BPF_F_ADJ_ROOM_FIXED_GSO | BPF_F_ADJ_ROOM_DECAP_L3_IPV4);

	/*
	 * Kernels before 6.3 know no DECAP flag and refuse the call: IPv4
	 * in IPv4 changes no protocol, so the call without it pops the same
	 * header (the kmod tests' guest runs 6.1).
	 */
	if (ret)
		ret = bpf_skb_adjust_room(skb, -(int)sizeof(struct iphdr),
					  BPF_ADJ_ROOM_MAC,
					  BPF_F_ADJ_ROOM_FIXED_GSO);
	return ret;
}

#endif /* _DARD_BPF_ENCAP_H */
