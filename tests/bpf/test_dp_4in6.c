// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * 4in6 (bpf/encap6.h, issue 32): in an IPv6-only fabric the datapath
 * wraps ID traffic in an outer IPv6 header whose pair is the path's IPv6
 * aliases, and unwraps what comes to one of ours. The env is dp_env.h's
 * (e1_1 of fattree:4 in paper mode, its peer e2_1) with the layout of
 * fattree:4's IPv6-only plan set as dard-switchd's attach sets it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>

#include <cmocka.h>
#include <bpf/libbpf.h>

#include "addr6.h"
#include "dp_env.h"
#include "gen.h"

/* The IPv6 forms of the env's paths {ours, the peer's}, index for index. */
static const char *const paths6[NPATHS][2] = {
	{"fd00:da::1:1:1:2", "fd00:da::1:2:1:2"},
	{"fd00:da::2:1:1:2", "fd00:da::2:2:1:2"},
	{"fd00:da::3:1:1:2", "fd00:da::3:2:1:2"},
	{"fd00:da::4:1:1:2", "fd00:da::4:2:1:2"},
};

static struct in6_addr A6(const char *s) {
	struct in6_addr a;

	if (inet_pton(AF_INET6, s, &a) != 1)
		fail_msg("bad IPv6 address `%s' in the test", s);
	return a;
}

static int
setup6(void **state)
{
	struct dard_plan_opts o;
	char err[DARD_ERR_MAX];
	struct dard_topo *t = dard_gen_spec("fattree:4", 1000, err);
	struct dard_plan *p;
	struct env *e = calloc(1, sizeof(*e));
	int ret = -1;

	*state = e;
	if (!t || !e)
		goto out;
	dard_plan_opts_init(&o);
	o.family = DARD_FAMILY_IPV6;
	p = dard_plan_new(t, &o, err);
	if (!p)
		goto out;
	/* env_load() with the layout set between open and load. */
	e->skel = dard_tc__open();
	if (e->skel) {
		dard_plan_layout6(
			(struct dard_layout6 *)&e->skel->rodata->layout6, p);
		ret = env_load_opened(e, 0);
	}
	dard_plan_free(p);
out:
	dard_topo_free(t);
	return ret;
}

/* Ethernet, an outer IPv6 header from src to dst, and o's IPv4 packet. */
static size_t wrap6(uint8_t *buf, const struct pkt_opts *o, const char *src,
		    const char *dst, uint8_t tclass, int len_delta)
{
	uint8_t inner[PKT_MAX];
	size_t n = build(inner, o) - ETH_HLEN;
	struct ipv6hdr *ip6 = (void *)(buf + ETH_HLEN);
	struct ethhdr *eth = (void *)buf;

	memset(buf, 0, PKT_MAX);
	memcpy(buf, inner, ETH_HLEN);
	eth->h_proto = htons(ETH_P_IPV6);
	ip6->version = 6;
	ip6->priority = tclass >> 4;
	ip6->flow_lbl[0] = (tclass & 0xf) << 4;
	ip6->payload_len = htons(n + len_delta);
	ip6->nexthdr = IPPROTO_IPIP;
	ip6->hop_limit = 60;
	ip6->saddr = A6(src);
	ip6->daddr = A6(dst);
	memcpy(ip6 + 1, inner + ETH_HLEN, n);
	return ETH_HLEN + sizeof(*ip6) + n;
}

/* Egress: the ID packet leaves in IPv6 on one of the paths' pairs. */
static void test_encap(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER,	.proto = IPPROTO_TCP,
			     .sport = 4000,	.dport = 80,
			     .tcp_flags = 0x10, /* ACK */ .payload = 100,
			     .tos = 0x02};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	const struct ipv6hdr *ip6 = (const void *)(out + ETH_HLEN);
	const struct ethhdr *eth = (const void *)out;
	size_t len = build(in, &o);
	uint32_t out_len, label;
	char s[INET6_ADDRSTRLEN], d[INET6_ADDRSTRLEN];
	int i, path = -1;

	assert_int_equal(run(e, 1, in, len, out, &out_len), TC_ACT_OK);
	assert_int_equal(out_len, len + sizeof(*ip6));
	assert_int_equal(ntohs(eth->h_proto), ETH_P_IPV6);
	assert_memory_equal(eth->h_dest, ((const struct ethhdr *)in)->h_dest,
			    ETH_ALEN);
	assert_int_equal(ip6->version, 6);
	assert_int_equal(ip6->nexthdr, IPPROTO_IPIP);
	assert_int_equal(ip6->hop_limit, DARD_OUTER_TTL);
	assert_int_equal(ntohs(ip6->payload_len), len - ETH_HLEN);
	/* A mouse: DSCP 0, the inner ECN (ECT(0)) copied. */
	assert_int_equal(ip6->priority, 0);
	assert_int_equal(ip6->flow_lbl[0] >> 4, 0x02);
	label = (ip6->flow_lbl[0] & 0xf) << 16 | ip6->flow_lbl[1] << 8 |
		ip6->flow_lbl[2];
	/* The flow's hash, never none: the test's skb has none of its own. */
	assert_int_not_equal(label, 0);
	inet_ntop(AF_INET6, &ip6->saddr, s, sizeof(s));
	inet_ntop(AF_INET6, &ip6->daddr, d, sizeof(d));
	for (i = 0; i < NPATHS; i++)
		if (!strcmp(s, paths6[i][0]) && !strcmp(d, paths6[i][1]))
			path = i;
	if (path < 0)
		fail_msg("outer pair %s -> %s is no path's", s, d);
	assert_memory_equal(out + ETH_HLEN + sizeof(*ip6), in + ETH_HLEN,
			    len - ETH_HLEN);
	assert_int_equal(stat_of(e, DARD_STAT_ENCAP), 1);
}

/* Ingress: IPv6 to our alias with IPv4 to our ID inside comes out. */
static void test_decap(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {PEER_TO_ME, .sport = 53, .dport = 4000,
			     .payload = 64};
	uint8_t in[PKT_MAX], out[PKT_MAX], plain[PKT_MAX];
	size_t len = wrap6(in, &o, paths6[0][1], paths6[0][0], 0, 0);
	size_t plen = build(plain, &o);
	uint32_t out_len;

	assert_int_equal(run(e, 0, in, len, out, &out_len), TC_ACT_OK);
	assert_int_equal(out_len, plen);
	assert_memory_equal(out, plain, plen);
	assert_int_equal(stat_of(e, DARD_STAT_DECAP), 1);
}

/* Never a relay: IPv6 to our alias carrying another ID is dropped. */
static void test_not_mine(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(PEER_ID),
			     .daddr = A("172.16.0.9"),
			     .sport = 53,
			     .dport = 4000,
			     .payload = 64};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = wrap6(in, &o, paths6[0][1], paths6[0][0], 0, 0);
	uint32_t out_len;

	assert_int_equal(run(e, 0, in, len, out, &out_len), TC_ACT_SHOT);
	assert_int_equal(stat_of(e, DARD_STAT_DROP_NOT_MINE), 1);
	assert_int_equal(stat_of(e, DARD_STAT_DECAP), 0);
}

/*
 * Not ours, left to the kernel untouched: another host's alias, an
 * address with bits between base6 and the root field, a field too wide.
 */
static void test_not_ours(void **state)
{
	static const char *const dst[] = {
		"fd00:da::1:1:1:3",
		"fd00:da:0:8:1:1:1:2",
		"fd00:da::1:1:1:4002",
		"fd00:db::1:1:1:2",
	};
	struct env *e = *state;
	struct pkt_opts o = {PEER_TO_ME, .sport = 53, .dport = 4000,
			     .payload = 64};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	uint32_t out_len;
	unsigned i;

	for (i = 0; i < sizeof(dst) / sizeof(dst[0]); i++) {
		size_t len = wrap6(in, &o, paths6[0][1], dst[i], 0, 0);

		assert_int_equal(run(e, 0, in, len, out, &out_len), TC_ACT_OK);
		assert_int_equal(out_len, len);
		assert_memory_equal(out, in, len);
	}
	assert_int_equal(stat_of(e, DARD_STAT_INGRESS_PASS), 4);
	assert_int_equal(stat_of(e, DARD_STAT_DECAP), 0);
}

/* Lengths that disagree, an inner header that is not IPv4: dropped. */
static void test_malformed(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {PEER_TO_ME, .sport = 53, .dport = 4000,
			     .payload = 64};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	uint32_t out_len;
	size_t len;

	len = wrap6(in, &o, paths6[0][1], paths6[0][0], 0, 4);
	assert_int_equal(run(e, 0, in, len, out, &out_len), TC_ACT_SHOT);
	len = wrap6(in, &o, paths6[0][1], paths6[0][0], 0, -4);
	assert_int_equal(run(e, 0, in, len, out, &out_len), TC_ACT_SHOT);
	assert_int_equal(stat_of(e, DARD_STAT_DROP_BAD_LEN), 2);
	len = wrap6(in, &o, paths6[0][1], paths6[0][0], 0, 0);
	in[ETH_HLEN + sizeof(struct ipv6hdr)] = 0x65; /* version 6 */
	assert_int_equal(run(e, 0, in, len, out, &out_len), TC_ACT_SHOT);
	assert_int_equal(stat_of(e, DARD_STAT_DROP_BAD_IHL), 1);
	assert_int_equal(stat_of(e, DARD_STAT_DECAP), 0);
}

/* RFC 6040: CE outside reaches an ECT inside, and drops a not-ECT one. */
static void test_ecn(void **state)
{
	struct env *e = *state;
	struct pkt_opts ect = {PEER_TO_ME, .sport = 53, .dport = 4000,
			       .payload = 64, .tos = 0x02};
	struct pkt_opts not_ect = ect;
	uint8_t in[PKT_MAX], out[PKT_MAX];
	const struct iphdr *ip = (const void *)(out + ETH_HLEN);
	uint32_t out_len;
	size_t len;

	len = wrap6(in, &ect, paths6[0][1], paths6[0][0], 0x03, 0);
	assert_int_equal(run(e, 0, in, len, out, &out_len), TC_ACT_OK);
	assert_int_equal(ip->tos & 3, 3);
	assert_int_equal(csum(ip, ip->ihl * 4), 0);
	not_ect.tos = 0;
	len = wrap6(in, &not_ect, paths6[0][1], paths6[0][0], 0x03, 0);
	assert_int_equal(run(e, 0, in, len, out, &out_len), TC_ACT_SHOT);
	assert_int_equal(stat_of(e, DARD_STAT_DROP_CE_NOT_ECT), 1);
}

/* The fabric's own IPv6 (neighbour discovery, say) passes both ways. */
static void test_plain_ipv6(void **state)
{
	struct env *e = *state;
	uint8_t in[PKT_MAX], out[PKT_MAX];
	struct ipv6hdr *ip6 = (void *)(in + ETH_HLEN);
	struct ethhdr *eth = (void *)in;
	size_t len = ETH_HLEN + sizeof(*ip6) + 8;
	uint32_t out_len;

	memset(in, 0, sizeof(in));
	eth->h_proto = htons(ETH_P_IPV6);
	ip6->version = 6;
	ip6->payload_len = htons(8);
	ip6->nexthdr = 58; /* ICMPv6 */
	ip6->hop_limit = 255;
	ip6->saddr = A6("fe80::2");
	ip6->daddr = A6("fe80::1");
	assert_int_equal(run(e, 1, in, len, out, &out_len), TC_ACT_OK);
	assert_memory_equal(out, in, len);
	assert_int_equal(run(e, 0, in, len, out, &out_len), TC_ACT_OK);
	assert_memory_equal(out, in, len);
	assert_int_equal(stat_of(e, DARD_STAT_ENCAP), 0);
	assert_int_equal(stat_of(e, DARD_STAT_DECAP), 0);
}

#define T6(f) cmocka_unit_test_setup_teardown(f, setup6, env_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T6(test_encap),	     T6(test_decap),	 T6(test_not_mine),
		T6(test_not_ours),   T6(test_malformed), T6(test_ecn),
		T6(test_plain_ipv6),
	};

	return dp_main("test_dp_4in6", NULL, 0, tests, ARRAY_SIZE(tests));
}
