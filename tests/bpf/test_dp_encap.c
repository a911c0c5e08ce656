// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Encapsulation and decapsulation under BPF_PROG_TEST_RUN, as a table of
 * packet cases (dp_env.h): every outer field of what we send, its
 * checksum by an independent sum and the inner packet byte for byte; the
 * exact inverse on the way in, with RFC 6040's ECN; the no-relay rule;
 * and what is not ours left untouched. Needs root (CAP_BPF); without it,
 * says so and skips (fails under CI).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>

#include <cmocka.h>

#include "dp_env.h"

/* Outer options: we never send them (the header is not made longer). */
static size_t outer_options(uint8_t *pkt, size_t len)
{
	((struct iphdr *)(pkt + ETH_HLEN))->ihl = 6;
	return len;
}

static size_t arp(uint8_t *pkt, size_t len)
{
	((struct ethhdr *)pkt)->h_proto = htons(ETH_P_ARP);
	return len;
}

enum { DF = 0x4000 };

/* What leaves: wrapped, or untouched when it is no ID traffic. */
static int egress_cases(void)
{
	const struct dp_case cases[] = {
		{
			"encap: a mouse's DSCP and ECN copied outside",
			.egress = 1,
			.pkt = {ME_TO_PEER, .sport = 1000, .dport = 2000,
				.tos = 0x2a, .frag = DF, .payload = 64},
			.verdict = TC_ACT_OK,
			.out = DP_OUT_ENCAP,
			.tos = 0x2a, /* 64 + 36 < 3000 bytes: a mouse */
			.stats = {{DARD_STAT_ENCAP, 1},
				  {DARD_STAT_NEW_FLOW, 1}},
		},
		{
			/* The switches must not count it as an elephant. */
			"encap: a mouse whose DSCP is the mark: outer DSCP 0",
			.egress = 1,
			.pkt = {ME_TO_PEER, .sport = 1001, .dport = 2000,
				.tos = 8 << 2 | 1, .frag = DF, .payload = 64},
			.verdict = TC_ACT_OK,
			.out = DP_OUT_ENCAP,
			.tos = 0x01, /* its ECN kept */
			.stats = {{DARD_STAT_ENCAP, 1},
				  {DARD_STAT_NEW_FLOW, 1}},
		},
		{
			"encap: too big for a 1500-byte fabric once wrapped",
			.egress = 1,
			.pkt = {ME_TO_PEER, .sport = 1001, .dport = 2000,
				.frag = DF, .payload = 1500 - 20 - 8},
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_OVERSIZE, 1},
				  {DARD_STAT_NEW_FLOW, 1}},
		},
		{
			"encap: exactly 1500 bytes once wrapped",
			.egress = 1,
			.pkt = {ME_TO_PEER, .sport = 1001, .dport = 2000,
				.frag = DF, .payload = 1480 - 20 - 8},
			.verdict = TC_ACT_OK,
			.out = DP_OUT_ENCAP,
			.stats = {{DARD_STAT_ENCAP, 1},
				  {DARD_STAT_NEW_FLOW, 1}},
		},
		{
			"egress: not to an ID: untouched",
			.egress = 1,
			.pkt = {.saddr = A(MY_ALIAS),
				.daddr = A("10.4.32.66"),
				.payload = 30},
			.verdict = TC_ACT_OK,
			.out = DP_OUT_SAME,
			.stats = {{DARD_STAT_EGRESS_PASS, 1}},
		},
		{
			"egress: not IPv4 (ARP): untouched",
			.egress = 1,
			.pkt = {.saddr = A(MY_ALIAS),
				.daddr = A("10.4.32.66"),
				.payload = 30},
			.mutate = arp,
			.verdict = TC_ACT_OK,
			.out = DP_OUT_SAME,
			.stats = {{DARD_STAT_NON_IPV4, 1}},
		},
	};

	return dp_main("test_dp_encap", cases, ARRAY_SIZE(cases), NULL, 0);
}

/* What arrives: unwrapped, or dropped, or untouched. */
static int ingress_cases(void)
{
	const struct dp_case cases[] = {
		{
			"decap: the exact inverse of encap",
			.pkt = {PEER_TO_ME, .sport = 5201, .dport = 40000,
				.tos = 0x01, .payload = 100, .outer = TO_ME()},
			.verdict = TC_ACT_OK,
			.out = DP_OUT_DECAP,
			.tos = 0x01,
			.stats = {{DARD_STAT_DECAP, 1}},
		},
		{
			/* Checksum and all: the output is compared with the
			 * builder's packet marked CE. */
			"decap: outer CE reaches an ECN-capable inside (RFC 6040)",
			.pkt = {PEER_TO_ME, .sport = 5201, .dport = 40000,
				.tos = 0x01, .payload = 100,
				.outer = TO_ME(.tos = 3)},
			.verdict = TC_ACT_OK,
			.out = DP_OUT_DECAP,
			.tos = 0x03,
			.stats = {{DARD_STAT_DECAP, 1}},
		},
		{
			/* As the congested switch would have dropped it. */
			"decap: outer CE over a Not-ECT inside: dropped",
			.pkt = {PEER_TO_ME, .sport = 5201, .dport = 40000,
				.payload = 100, .outer = TO_ME(.tos = 3)},
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_CE_NOT_ECT, 1}},
		},
		{
			"decap: inner destination not our ID: never relayed",
			.pkt = {.saddr = A(PEER_ID),
				.daddr = A("172.16.0.9"),
				.payload = 10,
				.outer = TO_ME()},
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_NOT_MINE, 1}},
		},
		{
			"decap: outer options: dropped, even to us",
			.pkt = {PEER_TO_ME, .payload = 10, .outer = TO_ME()},
			.mutate = outer_options,
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_OUTER_OPTIONS, 1}},
		},
		{
			"ingress: IP-in-IP to an address not ours: untouched",
			.pkt = {PEER_TO_ME, .payload = 10,
				.outer =
					&(const struct pkt_outer){
						.saddr = A("10.4.32.66"),
						.daddr = A("10.8.16.66"),
						.ttl = 60}},
			.verdict = TC_ACT_OK,
			.out = DP_OUT_SAME,
			.stats = {{DARD_STAT_INGRESS_PASS, 1}},
		},
		{
			"ingress: not IPv4 (ARP): untouched",
			.pkt = {.saddr = A(MY_ALIAS),
				.daddr = A("10.4.32.66"),
				.payload = 30},
			.mutate = arp,
			.verdict = TC_ACT_OK,
			.out = DP_OUT_SAME,
			.stats = {{DARD_STAT_NON_IPV4, 1}},
		},
	};

	return dp_main("test_dp_encap", cases, ARRAY_SIZE(cases), NULL, 0);
}

int main(void)
{
	return egress_cases() | ingress_cases();
}
