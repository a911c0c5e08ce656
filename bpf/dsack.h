/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The D-SACK (RFC 2883) that a TCP packet leaving this host carries: a
 * first SACK block below the packet's own ACK number says that the peer
 * sent again data we had already acknowledged, which is what a sender
 * does whose ACKs from us are not reaching it. The walk over the options
 * is dard_dsack_step (<linux/dard_policy.h>), the kernel module's too;
 * here the options are read from the packet and the steps run.
 */
#ifndef _DARD_BPF_DSACK_H
#define _DARD_BPF_DSACK_H

#include <linux/dard_policy.h>

#include "parse.h"

/* NOP, NOP, timestamp: every Linux segment but a SYN has just these. */
#define TCPOPT_TS_ONLY 0x0101080a
#define TCPOLEN_TS_ONLY 12

/*
 * What dsack_step reads and finds: no pointers, one frame. The walk's
 * position i lies 4 bytes into an 8-byte stack slot, which the verifier
 * keeps no value for: on an aligned slot, Linux 6.18's took each NOP's
 * position for a known constant and checked the step again for every
 * one, ten times the instructions of the rest of egress.
 */
struct dsack_scan {
	__u8 opt[DARD_TCP_OPTS_MAX];
	__u32 len, i, ack, start;
	int found;
} __attribute__((aligned(8)));

/* One step of the walk (dard_dsack_step): 1 ends it. */
static long dsack_step(__u32 k, void *ctx)
{
	struct dsack_scan *s = ctx;
	int r = dard_dsack_step(s->opt, s->len, s->ack, &s->i, &s->start);

	if (r == DARD_DSACK_MORE)
		return 0;
	s->found = r == DARD_DSACK_FOUND;
	return 1;
}

/*
 * dard_dsack over s->opt (s->len bytes, s->ack the packet's ACK number,
 * host order): whether they carry a D-SACK, then starting at s->start.
 * The same steps as dard_dsack's loop, by bpf_loop, whose body the
 * verifier checks once: the loop itself, walked by the verifier step by
 * step, cost half a million instructions.
 */
static __always_inline int dsack_walk(struct dsack_scan *s)
{
	s->i = 0;
	s->found = 0;
	bpf_loop(DARD_TCP_OPTS_MAX, dsack_step, s, 0);
	return s->found;
}

/*
 * Whether the TCP packet at ip, whose header is l4_hlen bytes long,
 * carries a D-SACK; if so *start is its block's first sequence number
 * (host order). A packet with no options, or with Linux's timestamps
 * alone, costs a compare or a 4-byte read: the options are copied and
 * walked only when there is more, which is a SYN or a SACK.
 */
static __always_inline int tcp_dsack(struct __sk_buff *skb,
				     const struct iphdr *ip, __u8 l4_hlen,
				     __u32 *start)
{
	__u32 l4 = ETH_HLEN + ip->ihl * 4, len;
	struct dsack_scan s;
	__be32 ack;

	if (l4_hlen <= sizeof(struct tcphdr))
		return 0;
	len = l4_hlen - sizeof(struct tcphdr);
	if (len > DARD_TCP_OPTS_MAX)
		return 0;
	if (len == TCPOLEN_TS_ONLY) {
		/* Straight from the packet when it can be: the common case. */
		const __be32 *first =
			(const void *)(ip + 1) + sizeof(struct tcphdr);
		__be32 w;

		if (ip->ihl == 5 && (void *)(first + 1) <= pkt_end(skb))
			w = *first;
		else if (bpf_skb_load_bytes(skb, l4 + sizeof(struct tcphdr), &w,
					    sizeof(w)))
			return 0;
		if (w == bpf_htonl(TCPOPT_TS_ONLY))
			return 0;
	}
	__builtin_memset(&s, 0, sizeof(s));
	s.len = len;
	/*
	 * Linux 6.1's verifier loses len's bounds through a spill and learns
	 * no lower bound from len != 0, so it refuses a possibly zero-sized
	 * read: the size the call reads is (len - 1) + 1, bounded on the
	 * register itself (the kmod tests' guest runs 6.1).
	 */
	len -= 1;
	barrier_var(len);
	if (len >= DARD_TCP_OPTS_MAX)
		return 0;
	if (bpf_skb_load_bytes(skb, l4 + sizeof(struct tcphdr), s.opt,
			       len + 1) ||
	    bpf_skb_load_bytes(skb, l4 + offsetof(struct tcphdr, ack_seq), &ack,
			       sizeof(ack)))
		return 0;
	s.ack = bpf_ntohl(ack);
	if (!dsack_walk(&s))
		return 0;
	*start = s.start;
	return 1;
}

#endif /* _DARD_BPF_DSACK_H */
