/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the BPF tests share: addresses, a checksum independent of the
 * programs' own, the packet builder and the root check. Include after
 * <cmocka.h>.
 */
#ifndef _DARD_TEST_BPF_H
#define _DARD_TEST_BPF_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>

enum { PKT_MAX = 2048 };

/* An address written in the test, in network order; it must parse. */
static inline uint32_t A(const char *s)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		fail_msg("bad address %s", s);
	return a.s_addr;
}

/* RFC 1071, independent of the programs' own. */
static inline uint16_t csum(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint32_t s = 0;
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += b[i] << 8 | b[i + 1];
	if (n & 1)
		s += b[n - 1] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return ~s & 0xffff;
}

/* An outer IPv4 header, as a host's encap or a peer puts it. */
struct pkt_outer {
	uint32_t saddr, daddr; /* network order */
	uint8_t tos;
	uint8_t proto; /* 0: IPPROTO_IPIP */
	uint8_t ttl;   /* 0: 64 */
	uint16_t frag; /* flags and offset, host order */
};

struct pkt_opts {
	uint32_t saddr, daddr; /* network order */
	uint8_t proto, tos, ihl;
	uint16_t sport, dport, frag; /* host order */
	int tot_len_delta;
	uint16_t payload;
	uint8_t tcp_flags;
	uint32_t seq, ack;	       /* TCP, host order */
	const uint8_t *tcp_opts;       /* TCP options, tcp_optlen bytes */
	uint8_t tcp_optlen;	       /* a multiple of 4, up to 40 */
	const struct pkt_outer *outer; /* NULL: none */
};

static inline void ipv4_outer(struct iphdr *ip, const struct pkt_outer *o,
			      size_t inner_len)
{
	ip->version = 4;
	ip->ihl = 5;
	ip->tos = o->tos;
	ip->tot_len = htons(20 + inner_len);
	ip->frag_off = htons(o->frag);
	ip->ttl = o->ttl ? o->ttl : 64;
	ip->protocol = o->proto ? o->proto : IPPROTO_IPIP;
	ip->saddr = o->saddr;
	ip->daddr = o->daddr;
	ip->check = htons(csum(ip, 20));
}

/*
 * Ethernet + [outer IPv4] + IPv4 (+ options) + UDP or TCP + payload,
 * into buf[PKT_MAX]; returns the length. The payload counts up from 0.
 */
static inline size_t build(uint8_t *buf, const struct pkt_opts *o)
{
	struct ethhdr *eth = (void *)buf;
	struct iphdr *outer = (void *)(eth + 1);
	struct iphdr *ip = (void *)((uint8_t *)outer + (o->outer ? 20 : 0));
	unsigned ihl = o->ihl ? o->ihl : 5;
	uint8_t *l4 = (uint8_t *)ip + ihl * 4;
	size_t l4hdr = o->proto == IPPROTO_TCP ? 20 + o->tcp_optlen : 8;
	size_t l4len = l4hdr + o->payload;
	size_t i;

	memset(buf, 0, PKT_MAX);
	memset(eth->h_dest, 0x02, ETH_ALEN);
	memset(eth->h_source, 0x04, ETH_ALEN);
	eth->h_proto = htons(ETH_P_IP);
	ip->version = 4;
	ip->ihl = ihl;
	ip->tos = o->tos;
	ip->tot_len = htons(ihl * 4 + l4len + o->tot_len_delta);
	ip->id = htons(0x1234);
	ip->frag_off = htons(o->frag);
	ip->ttl = 61;
	ip->protocol = o->proto ? o->proto : IPPROTO_UDP;
	ip->saddr = o->saddr;
	ip->daddr = o->daddr;
	for (i = 20; i < ihl * 4; i++)
		((uint8_t *)ip)[i] = 1; /* NOP options */
	ip->check = htons(csum(ip, ihl * 4));
	l4[0] = o->sport >> 8;
	l4[1] = o->sport;
	l4[2] = o->dport >> 8;
	l4[3] = o->dport;
	if (o->proto == IPPROTO_TCP) {
		uint32_t seq = htonl(o->seq), ack = htonl(o->ack);

		memcpy(l4 + 4, &seq, 4);
		memcpy(l4 + 8, &ack, 4);
		l4[12] = l4hdr / 4 << 4;
		l4[13] = o->tcp_flags;
		if (o->tcp_optlen)
			memcpy(l4 + 20, o->tcp_opts, o->tcp_optlen);
	} else {
		l4[4] = l4len >> 8;
		l4[5] = l4len;
	}
	for (i = 0; i < o->payload; i++)
		l4[l4hdr + i] = i;
	if (o->outer)
		ipv4_outer(outer, o->outer, ihl * 4 + l4len);
	return (uint8_t *)l4 + l4len - buf;
}

/*
 * BPF_PROG_TEST_RUN needs root: without it, exits with a skip, or with a
 * failure when CI is set (as tests/netns/lib.sh rules), where a skip would
 * pass having run nothing.
 */
static inline void bpf_test_need_root(const char *name)
{
	const char *ci = getenv("CI");

	if (!geteuid())
		return;
	if (ci && *ci) {
		fprintf(stderr,
			"%s: FAIL: BPF_PROG_TEST_RUN needs root, and CI is set\n",
			name);
		exit(1);
	}
	printf("%s: SKIP: BPF_PROG_TEST_RUN needs root\n", name);
	exit(0);
}

#endif /* _DARD_TEST_BPF_H */
