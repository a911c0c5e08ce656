/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The ingress side of 4in6 (encap6.h), included by dard_tc.bpf.c after
 * my_id and beside ingress(), whose checks it repeats for IPv6 outers.
 */
#ifndef _DARD_BPF_INGRESS6_H
#define _DARD_BPF_INGRESS6_H

#include "encap6.h"
#include "maps.h"

/*
 * 4in6 (encap6.h): an IPv6 packet to one of our aliases that carries IPv4
 * to our ID comes out as that IPv4 packet; the same checks as IPv4's.
 */
static __always_inline int ingress6(struct __sk_buff *skb)
{
	struct ipv6hdr *ip6;
	struct iphdr *in;
	__u32 w[4];
	__be32 alias;
	__u32 stat;
	__u8 tclass;
	void *data;
	int i;

	/* Pulled in only when outside the linear part, as ingress() does. */
	data = pkt_data(skb);
	if (data + ETH_HLEN + sizeof(*ip6) > pkt_end(skb))
		data = pull_revalidate(skb, ETH_HLEN + sizeof(*ip6));
	if (!data) {
		count(DARD_STAT_INGRESS_PASS);
		return TC_ACT_OK;
	}
	ip6 = data + ETH_HLEN;
	if (ip6->nexthdr != IPPROTO_IPIP) {
		count(DARD_STAT_INGRESS_PASS);
		return TC_ACT_OK;
	}
#pragma unroll
	for (i = 0; i < 4; i++)
		w[i] = bpf_ntohl(ip6->daddr.in6_u.u6_addr32[i]);
	/* Not to one of our aliases: the kernel's business. */
	if (alias_v4(w, &alias) ||
	    !bpf_map_lookup_elem(&dard_aliases, &alias)) {
		count(DARD_STAT_INGRESS_PASS);
		return TC_ACT_OK;
	}
	data = pkt_data(skb);
	if (data + ETH_HLEN + sizeof(*ip6) + sizeof(*in) > pkt_end(skb))
		data = pull_revalidate(skb,
				       ETH_HLEN + sizeof(*ip6) + sizeof(*in));
	if (!data) {
		count(DARD_STAT_DROP_TRUNCATED);
		return TC_ACT_SHOT;
	}
	ip6 = data + ETH_HLEN;
	in = (void *)(ip6 + 1);
	/* A jumbogram (BIG TCP) has no payload length to check. */
	if (!ip6->payload_len ||
	    bpf_ntohs(ip6->payload_len) + sizeof(*ip6) > skb->len - ETH_HLEN ||
	    bpf_ntohs(in->tot_len) != bpf_ntohs(ip6->payload_len)) {
		count(DARD_STAT_DROP_BAD_LEN);
		return TC_ACT_SHOT;
	}
	if (in->version != 4 || in->ihl < 5) {
		count(DARD_STAT_DROP_BAD_IHL);
		return TC_ACT_SHOT;
	}
	/* Never a relay: only packets to our own ID come out. */
	if (in->daddr != my_id) {
		count(DARD_STAT_DROP_NOT_MINE);
		return TC_ACT_SHOT;
	}
	tclass = ip6->priority << 4 | ip6->flow_lbl[0] >> 4;
	stat = ecn_decap(skb, tclass & 3, in, ETH_HLEN + sizeof(*ip6));
	if (stat) {
		count(stat);
		return TC_ACT_SHOT;
	}
	if (pop_ip6ip(skb)) {
		count(DARD_STAT_DROP_ADJUST);
		return TC_ACT_SHOT;
	}
	count(DARD_STAT_DECAP);
	return TC_ACT_OK;
}

#endif /* _DARD_BPF_INGRESS6_H */
