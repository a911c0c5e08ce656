/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Header parsing: every bound checked before use. */
#ifndef _DARD_BPF_PARSE_H
#define _DARD_BPF_PARSE_H

#include <stddef.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include <linux/dard.h>

#define IP_MF 0x2000
#define IP_OFFSET 0x1fff
#define IP_DF 0x4000

/* TCP's flag bits in the header's 14th byte, as the kernel's net/tcp.h. */
#define TCPHDR_FIN 0x01
#define TCPHDR_SYN 0x02
#define TCPHDR_RST 0x04
#define TCPHDR_ACK 0x10
#define tcp_flag_byte(th) (((__u8 *)(th))[13])
/* Bytes of a TCP header up to and with the flags. */
#define TCP_FLAGS_END 14

/*
 * skb->data and skb->data_end, loaded afresh. After a helper that moves
 * the packet (bpf_skb_pull_data), clang may otherwise reuse an earlier
 * load narrowed to 32 bits, which the verifier no longer takes for a
 * packet pointer.
 */
static __always_inline void *pkt_data(struct __sk_buff *skb)
{
	void *p;

	asm volatile("%0 = *(u32 *)(%1 + %2)"
		     : "=r"(p)
		     : "r"(skb), "i"(offsetof(struct __sk_buff, data)));
	return p;
}

static __always_inline void *pkt_end(struct __sk_buff *skb)
{
	void *p;

	asm volatile("%0 = *(u32 *)(%1 + %2)"
		     : "=r"(p)
		     : "r"(skb), "i"(offsetof(struct __sk_buff, data_end)));
	return p;
}

/*
 * Pulls the packet's first len bytes into the linear part and returns
 * skb->data with the verifier's bound on them, or NULL when the packet is
 * shorter. Every packet pointer taken before is stale afterwards: the
 * caller derives its headers again from what this returns.
 */
static __always_inline void *pull_revalidate(struct __sk_buff *skb, __u32 len)
{
	void *data;

	if (bpf_skb_pull_data(skb, len))
		return NULL;
	data = pkt_data(skb);
	if (data + len > pkt_end(skb))
		return NULL;
	return data;
}

/* The IPv4 header after Ethernet, or NULL if the packet is not IPv4. */
static __always_inline struct iphdr *parse_ipv4(struct __sk_buff *skb,
						int *truncated)
{
	void *data = pkt_data(skb);
	void *data_end = pkt_end(skb);
	struct ethhdr *eth = data;
	struct iphdr *ip;

	*truncated = 0;
	if ((void *)(eth + 1) > data_end || eth->h_proto != bpf_htons(ETH_P_IP))
		return NULL;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) <= data_end)
		return ip;
	/* The header outside the linear part (it may be in a fragment):
	 * pull it in, which fails only if the packet is too short. */
	data = pull_revalidate(skb, ETH_HLEN + sizeof(*ip));
	if (!data) {
		*truncated = 1;
		return NULL;
	}
	return data + ETH_HLEN;
}

/*
 * The flow key of an inner packet whose header passed the checks: ports
 * for TCP and UDP unless it is a fragment (read with bpf_skb_load_bytes
 * when IP options put them at a variable offset). Sets *tcp_flags and
 * *l4_hlen, the TCP or UDP header's length (0 for anything else).
 */
static __always_inline int parse_flow(struct __sk_buff *skb,
				      const struct iphdr *ip,
				      struct dard_flow_key *key,
				      __u8 *tcp_flags, __u8 *l4_hlen)
{
	__u32 l4 = ETH_HLEN + ip->ihl * 4;
	__be16 ports[2];

	key->saddr = ip->saddr;
	key->daddr = ip->daddr;
	key->proto = ip->protocol;
	*tcp_flags = 0;
	*l4_hlen = 0;
	if (ip->frag_off & bpf_htons(IP_MF | IP_OFFSET))
		return 0;
	if (ip->protocol != IPPROTO_TCP && ip->protocol != IPPROTO_UDP)
		return 0;
	/* Without options, straight from the packet; else by the helper. */
	if (ip->ihl == 5) {
		void *data_end = pkt_end(skb);
		struct tcphdr *th = (void *)(ip + 1);
		__be16 *p = (void *)(ip + 1);

		if (ip->protocol == IPPROTO_TCP) {
			if ((void *)th + TCP_FLAGS_END > data_end)
				goto helper;
			*tcp_flags = tcp_flag_byte(th);
			*l4_hlen = th->doff * 4;
		} else if ((void *)(p + 2) > data_end) {
			goto helper;
		} else {
			*l4_hlen = sizeof(struct udphdr);
		}
		key->sport = p[0];
		key->dport = p[1];
		return 0;
	}
helper:
	if (bpf_skb_load_bytes(skb, l4, ports, sizeof(ports)))
		return -1;
	key->sport = ports[0];
	key->dport = ports[1];
	*l4_hlen = sizeof(struct udphdr);
	if (ip->protocol == IPPROTO_TCP) {
		/* The data offset's byte and the flags' byte. */
		__u8 th[2];

		if (bpf_skb_load_bytes(skb, l4 + TCP_FLAGS_END - 2, th, 2))
			return -1;
		*l4_hlen = (th[0] >> 4) * 4;
		*tcp_flags = th[1];
	}
	return 0;
}

#endif /* _DARD_BPF_PARSE_H */
