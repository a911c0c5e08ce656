// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The host owns the elephant mark (issue 30; protocol.md, threat model):
 * under BPF_PROG_TEST_RUN, IP-in-IP that the datapath did not wrap (a raw
 * socket's) leaves with its DSCP cleared, and so does any other packet
 * not to an ID that carries the mark; ECN is kept, the header checksum
 * stays right, `mark_cleared` counts each; other DSCPs and the datapath's
 * own elephants are left as they were. Needs root (CAP_BPF); without it,
 * says so and skips (fails under CI).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>

#include <cmocka.h>

#include "dp_env.h"

enum { MARK = 8 << 2 };

/* An alias that is no ID: a raw IP-in-IP packet's outer destination. */
#define OTHER_ALIAS "10.4.48.66"

/*
 * Runs o's packet out; it must pass, the same but for the first IPv4
 * header's TOS, which must be want_tos, with a right checksum.
 */
static void out_with_tos(struct env *e, const struct pkt_opts *o,
			 uint8_t want_tos)
{
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, o);
	uint32_t out_len = sizeof(out);
	struct iphdr *ip = (void *)(out + ETH_HLEN);

	assert_int_equal(run(e, 1, in, len, out, &out_len), TC_ACT_OK);
	assert_int_equal(out_len, len);
	assert_int_equal(ip->tos, want_tos);
	assert_int_equal(csum(ip, 20), 0);
	ip->tos = ((struct iphdr *)(in + ETH_HLEN))->tos;
	ip->check = ((struct iphdr *)(in + ETH_HLEN))->check;
	assert_memory_equal(in, out, len);
}

/* A raw socket's IP-in-IP with the mark and ECT(1): the mark goes. */
static void test_raw_ipip_marked(void **state)
{
	struct env *e = *state;
	const struct pkt_outer outer = {
		.saddr = A(MY_ALIAS), .daddr = A(OTHER_ALIAS), .tos = MARK | 1};
	const struct pkt_opts o = {ME_TO_PEER,	   .proto = IPPROTO_UDP,
				   .sport = 1000,  .dport = 2000,
				   .payload = 100, .outer = &outer};

	out_with_tos(e, &o, 1);
	assert_int_equal(stat_of(e, DARD_STAT_MARK_CLEARED), 1);
	assert_int_equal(stat_of(e, DARD_STAT_EGRESS_PASS), 1);
	assert_int_equal(stat_of(e, DARD_STAT_ENCAP), 0);
}

/* IP-in-IP of any DSCP: a switch could be told to count another. */
static void test_raw_ipip_other_dscp(void **state)
{
	struct env *e = *state;
	const struct pkt_outer outer = {.saddr = A(MY_ALIAS),
					.daddr = A(OTHER_ALIAS),
					.tos = 46 << 2 | 2};
	const struct pkt_opts o = {ME_TO_PEER,	  .proto = IPPROTO_TCP,
				   .sport = 1000, .dport = 2000,
				   .payload = 10, .outer = &outer};

	out_with_tos(e, &o, 2);
	assert_int_equal(stat_of(e, DARD_STAT_MARK_CLEARED), 1);
}

/* IP-in-IP with no DSCP: nothing to clear, nothing counted. */
static void test_raw_ipip_plain(void **state)
{
	struct env *e = *state;
	const struct pkt_outer outer = {
		.saddr = A(MY_ALIAS), .daddr = A(OTHER_ALIAS), .tos = 3};
	const struct pkt_opts o = {ME_TO_PEER, .proto = IPPROTO_UDP,
				   .payload = 10, .outer = &outer};

	out_with_tos(e, &o, 3);
	assert_int_equal(stat_of(e, DARD_STAT_MARK_CLEARED), 0);
}

/* Not IP-in-IP, not to an ID: the mark goes, another DSCP stays. */
static void test_plain_marked(void **state)
{
	struct env *e = *state;
	const struct pkt_opts marked = {.saddr = A(MY_ID),
					.daddr = A("192.0.2.7"),
					.proto = IPPROTO_UDP,
					.tos = MARK,
					.payload = 50};
	struct pkt_opts af41 = marked;

	af41.tos = 34 << 2;
	out_with_tos(e, &marked, 0);
	assert_int_equal(stat_of(e, DARD_STAT_MARK_CLEARED), 1);
	out_with_tos(e, &af41, 34 << 2);
	assert_int_equal(stat_of(e, DARD_STAT_MARK_CLEARED), 1);
	assert_int_equal(stat_of(e, DARD_STAT_EGRESS_PASS), 2);
}

/*
 * A malformed packet not to an ID (IP options past the packet's length
 * claim nothing of ours) passes as the kernel's, but without the mark.
 */
static void test_malformed_marked(void **state)
{
	struct env *e = *state;
	const struct pkt_opts o = {.saddr = A(MY_ID),
				   .daddr = A("192.0.2.7"),
				   .proto = IPPROTO_UDP,
				   .tos = MARK,
				   .payload = 50};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, &o);
	uint32_t out_len = sizeof(out);
	struct iphdr *ip = (void *)(in + ETH_HLEN);

	/* A total length past the packet: malformed, not to an ID. */
	ip->tot_len = htons(len);
	ip->check = 0;
	ip->check = htons(csum(ip, 20));
	assert_int_equal(run(e, 1, in, len, out, &out_len), TC_ACT_OK);
	assert_int_equal(((struct iphdr *)(out + ETH_HLEN))->tos, 0);
	assert_int_equal(csum(out + ETH_HLEN, 20), 0);
	assert_int_equal(stat_of(e, DARD_STAT_MARK_CLEARED), 1);
}

/* Ours: an ID's packet carrying the mark inside leaves wrapped unmarked. */
static void test_own_mouse(void **state)
{
	struct env *e = *state;
	const struct pkt_opts o = {ME_TO_PEER,	    .proto = IPPROTO_UDP,
				   .sport = 1000,   .dport = 2000,
				   .tos = MARK | 1, .payload = 50};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, &o);
	uint32_t out_len = sizeof(out);

	assert_int_equal(run(e, 1, in, len, out, &out_len), TC_ACT_OK);
	assert_true(check_encap(in, len, out, out_len, 1) >= 0);
	assert_int_equal(stat_of(e, DARD_STAT_MARK_CLEARED), 0);
	assert_int_equal(stat_of(e, DARD_STAT_ENCAP), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		DP_TEST(test_raw_ipip_marked),
		DP_TEST(test_raw_ipip_other_dscp),
		DP_TEST(test_raw_ipip_plain),
		DP_TEST(test_plain_marked),
		DP_TEST(test_malformed_marked),
		DP_TEST(test_own_mouse),
	};

	return dp_main("test_dp_mark", NULL, 0, tests, ARRAY_SIZE(tests));
}
