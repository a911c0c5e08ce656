/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The D-SACK (RFC 2883) that a TCP packet leaving this host carries: a
 * first SACK block below the packet's own ACK number says that the peer
 * sent again data we had already acknowledged, which is what a sender
 * does whose ACKs from us are not reaching it.
 */
#ifndef _DARD_BPF_DSACK_H
#define _DARD_BPF_DSACK_H

#include "parse.h"

#define TCPOPT_EOL 0
#define TCPOPT_NOP 1
#define TCPOPT_SACK 5
#define TCP_OPTS_MAX 40
/* Bytes of a SACK option up to the end of its first block's start. */
#define TCPOLEN_SACK_START 6
/* NOP, NOP, timestamp: every Linux segment but a SYN has just these. */
#define TCPOPT_TS_ONLY 0x0101080a
#define TCPOLEN_TS_ONLY 12

/* What dsack_step reads and finds: no pointers, one frame. */
struct dsack_scan {
	__u8 opt[TCP_OPTS_MAX];
	__u32 len, i, start, found;
};

/* One option of s->opt from s->i: 1 ends the walk (found, or nowhere to go). */
static long dsack_step(__u32 k, void *ctx)
{
	struct dsack_scan *s = ctx;
	__u32 i = s->i;
	__u8 kind, olen;

	if (i >= s->len || i >= TCP_OPTS_MAX)
		return 1;
	kind = s->opt[i];
	if (kind == TCPOPT_EOL)
		return 1;
	if (kind == TCPOPT_NOP) {
		s->i = i + 1;
		return 0;
	}
	if (i + 1 >= s->len || i + 1 >= TCP_OPTS_MAX)
		return 1;
	olen = s->opt[i + 1];
	if (olen < 2)
		return 1;
	if (kind == TCPOPT_SACK) {
		if (olen < TCPOLEN_SACK_START + 4 ||
		    i + TCPOLEN_SACK_START > s->len ||
		    i + TCPOLEN_SACK_START > TCP_OPTS_MAX)
			return 1;
		s->start = (__u32)s->opt[i + 2] << 24 |
			   (__u32)s->opt[i + 3] << 16 |
			   (__u32)s->opt[i + 4] << 8 | s->opt[i + 5];
		s->found = 1;
		return 1;
	}
	s->i = i + olen;
	return 0;
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
	if (len > TCP_OPTS_MAX)
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
	if (len >= TCP_OPTS_MAX)
		return 0;
	if (bpf_skb_load_bytes(skb, l4 + sizeof(struct tcphdr), s.opt,
			       len + 1) ||
	    bpf_skb_load_bytes(skb, l4 + offsetof(struct tcphdr, ack_seq), &ack,
			       sizeof(ack)))
		return 0;
	bpf_loop(TCP_OPTS_MAX, dsack_step, &s, 0);
	if (!s.found || (__s32)(s.start - bpf_ntohl(ack)) >= 0)
		return 0;
	*start = s.start;
	return 1;
}

#endif /* _DARD_BPF_DSACK_H */
