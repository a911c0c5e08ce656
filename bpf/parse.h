/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Header parsing: every bound checked before use. */
#ifndef _DARD_BPF_PARSE_H
#define _DARD_BPF_PARSE_H

#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/tcp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <linux/dard.h>

#define IP_MF 0x2000
#define IP_OFFSET 0x1fff
#define IP_DF 0x4000

/* The IPv4 header after Ethernet, or NULL if the packet is not IPv4. */
static __always_inline struct iphdr *parse_ipv4(struct __sk_buff *skb,
						int *truncated)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;

	*truncated = 0;
	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return NULL;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > data_end) {
		*truncated = 1;
		return NULL;
	}
	return ip;
}

/*
 * The flow key of an inner packet whose header passed the checks: ports
 * for TCP and UDP unless it is a fragment, read with bpf_skb_load_bytes
 * because IP options put them at a variable offset. Sets *tcp_flags.
 */
static __always_inline int parse_flow(struct __sk_buff *skb,
				      const struct iphdr *ip,
				      struct dard_flow_key *key,
				      __u8 *tcp_flags)
{
	__u32 l4 = ETH_HLEN + ip->ihl * 4;
	__be16 ports[2];

	key->saddr = ip->saddr;
	key->daddr = ip->daddr;
	key->proto = ip->protocol;
	*tcp_flags = 0;
	if (ip->frag_off & bpf_htons(IP_MF | IP_OFFSET))
		return 0;
	if (ip->protocol != IPPROTO_TCP && ip->protocol != IPPROTO_UDP)
		return 0;
	/* Without options, straight from the packet; else by the helper. */
	if (ip->ihl == 5) {
		void *data_end = (void *)(long)skb->data_end;
		__u8 *p = (__u8 *)(ip + 1);

		if (ip->protocol == IPPROTO_TCP) {
			if ((void *)(p + 14) > data_end)
				goto helper;
			*tcp_flags = p[13];
		} else if ((void *)(p + 4) > data_end) {
			goto helper;
		}
		key->sport = *(__be16 *)p;
		key->dport = *(__be16 *)(p + 2);
		return 0;
	}
helper:
	if (bpf_skb_load_bytes(skb, l4, ports, sizeof(ports)))
		return -1;
	key->sport = ports[0];
	key->dport = ports[1];
	if (ip->protocol == IPPROTO_TCP &&
	    bpf_skb_load_bytes(skb, l4 + 13, tcp_flags, 1))
		return -1;
	return 0;
}

#endif /* _DARD_BPF_PARSE_H */
