// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Path liveness and in-band repair under BPF_PROG_TEST_RUN: a known flow
 * on a path marked dead leaving on the next live one at its next packet,
 * the index a move or a new path list leaves it, the generation that
 * spares known flows the check, and D-SACKs repeated (our ACKs lost)
 * moving a flow along the repair order. The transmit-hash repairs (RTO,
 * SYN, rehash) need skb->hash, which BPF_PROG_TEST_RUN cannot set:
 * tests/netns/faults.sh covers them. Needs root (CAP_BPF); without it,
 * says so and skips (fails under CI).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/in.h>

#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dp_env.h"

static void test_repath_dead(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER, .sport = 5555, .dport = 53,
			     .payload = 8};
	uint64_t before = stat_of(e, DARD_STAT_REPATH_DEAD);
	int k, p;

	k = send_one(e, &o);
	assert_true(k >= 0);
	assert_int_equal(send_one(e, &o), k);
	assert_int_equal(stat_of(e, DARD_STAT_REPATH_DEAD), before);
	/* Its path dies: the very next packet leaves on the next live one. */
	set_dead(e, 1U << k | 1U << (k + 1) % NPATHS);
	p = send_one(e, &o);
	assert_int_equal(p, (k + 2) % NPATHS);
	assert_int_equal(stat_of(e, DARD_STAT_REPATH_DEAD), before + 1);
	assert_int_equal(send_one(e, &o), p);
	assert_int_equal(stat_of(e, DARD_STAT_REPATH_DEAD), before + 1);
	/* Back to life: the flow stays where it is now. */
	set_dead(e, 0);
	assert_int_equal(send_one(e, &o), p);
	/* All dead: nowhere better to go, so it stays and is not counted. */
	set_dead(e, (1U << NPATHS) - 1);
	assert_int_equal(send_one(e, &o), p);
	assert_int_equal(stat_of(e, DARD_STAT_REPATH_DEAD), before + 1);
}

/* A userspace move tells the program the new path's index, or that none. */
static void test_repath_after_move(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER, .proto = IPPROTO_TCP, .sport = 6666,
			     .dport = 80, .payload = 8};
	struct dard_flow_key key = key_of(&o);
	struct dard_alias_pair to;
	struct dard_flow f;
	uint64_t before = stat_of(e, DARD_STAT_REPATH_DEAD);
	int k, m;

	k = send_one(e, &o);
	assert_true(k >= 0);
	m = (k + 2) % NPATHS;
	to = pair_of(m);
	assert_int_equal(dard_dp_bpf.move(e->dp, &key, &to), 0);
	flow_of(e, &key, &f);
	assert_int_equal(f.path_idx, m);
	/* The old path dying means nothing to it now; its own path does. */
	set_dead(e, 1U << k);
	assert_int_equal(send_one(e, &o), m);
	set_dead(e, 1U << m);
	assert_int_equal(send_one(e, &o), (m + 1) % NPATHS);
	assert_int_equal(stat_of(e, DARD_STAT_REPATH_DEAD), before + 1);
	/* A pair not among the destination's paths: the index is unknown
	 * and the program leaves the flow to userspace, dead or not. */
	to.saddr = A("10.99.16.66");
	to.daddr = A("10.99.32.66");
	set_dead(e, 0);
	assert_int_equal(dard_dp_bpf.move(e->dp, &key, &to), 0);
	flow_of(e, &key, &f);
	assert_int_equal(f.path_idx, DARD_PATHS_MAX);
	set_dead(e, (1U << (NPATHS - 1)) - 1); /* path 0 too: idx 0 */
	assert_int_equal(send_one(e, &o), -1);
	assert_int_equal(stat_of(e, DARD_STAT_REPATH_DEAD), before + 1);
}

/*
 * A new path list (set_dest) may put another pair at a flow's index: that
 * index dying says nothing about the flow's own pair, which stays.
 */
static void test_repath_stale_index(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER, .sport = 7777, .dport = 53,
			     .payload = 8};
	uint64_t before = stat_of(e, DARD_STAT_REPATH_DEAD);
	struct dard_alias_pair p[NPATHS];
	int i, k;

	k = send_one(e, &o);
	assert_true(k >= 0);
	/* The same pairs, rotated by one: index k now names path k + 1. */
	for (i = 0; i < NPATHS; i++)
		p[i] = pair_of((i + 1) % NPATHS);
	assert_int_equal(
		dard_dp_bpf.set_dest(e->dp, ntohl(A(PEER_ID)), p, NPATHS, NULL),
		0);
	set_dead(e, 1U << k);
	assert_int_equal(send_one(e, &o), k);
	assert_int_equal(stat_of(e, DARD_STAT_REPATH_DEAD), before);
}

static uint32_t live_gen(struct env *e)
{
	uint32_t zero = 0, gen;

	assert_int_equal(
		bpf_map_lookup_elem(bpf_map__fd(e->skel->maps.dard_live_gen),
				    &zero, &gen),
		0);
	return gen;
}

/*
 * The generation that spares known flows the liveness check moves on
 * every change of a destination's dead bits, in any word, and on every
 * new path list; not when the bits written are the ones there, nor for
 * an unknown destination, which is refused.
 */
static void test_live_gen(void **state)
{
	struct env *e = *state;
	uint64_t none[DARD_PATHS_MAX / 64] = {0}, last[DARD_PATHS_MAX / 64] = {
							  0, 0, 0, 1ULL << 63};
	struct dard_alias_pair p[NPATHS];
	uint32_t g;
	int i;

	for (i = 0; i < NPATHS; i++)
		p[i] = pair_of(i);
	set_dead(e, 0);
	g = live_gen(e);
	set_dead(e, 0);
	assert_int_equal(live_gen(e), g);
	set_dead(e, 0x1);
	assert_int_equal(live_gen(e), g + 1);
	set_dead(e, 0x1);
	assert_int_equal(live_gen(e), g + 1);
	set_dead(e, 0x3);
	assert_int_equal(live_gen(e), g + 2);
	assert_int_equal(dard_dp_bpf.set_dead(e->dp, ntohl(A(PEER_ID)), last),
			 0);
	assert_int_equal(live_gen(e), g + 3);
	assert_int_equal(
		dard_dp_bpf.set_dead(e->dp, ntohl(A("172.16.0.9")), none),
		-ENOENT);
	assert_int_equal(live_gen(e), g + 3);
	assert_int_equal(dard_dp_bpf.set_dead(e->dp, ntohl(A(PEER_ID)), none),
			 0);
	assert_int_equal(live_gen(e), g + 4);
	assert_int_equal(
		dard_dp_bpf.set_dest(e->dp, ntohl(A(PEER_ID)), p, NPATHS, NULL),
		0);
	assert_int_equal(live_gen(e), g + 5);
}

/*
 * A known flow looks at the dead bits once per generation: a bit set
 * under the generation it noted (as a writer other than set_dead would)
 * goes unseen until the generation moves, and then moves it.
 */
static void test_live_gen_checked_once(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER, .sport = 7777, .dport = 53,
			     .payload = 8};
	int fd = bpf_map__fd(e->skel->maps.dard_dests);
	uint32_t key = A(PEER_ID);
	struct dard_dest d;
	int k;

	k = send_one(e, &o);
	assert_true(k >= 0);
	assert_int_equal(bpf_map_lookup_elem(fd, &key, &d), 0);
	d.dead[0] = 1ULL << k;
	assert_int_equal(bpf_map_update_elem(fd, &key, &d, BPF_EXIST), 0);
	assert_int_equal(send_one(e, &o), k);
	set_dead(e, 1ULL << k | 1ULL << (k + 2) % NPATHS);
	assert_int_equal(send_one(e, &o), (k + 1) % NPATHS);
}

/* TCP options as Linux lays them out: NOP NOP TS, then NOP NOP SACK. */
enum { TS_LEN = 12, SACK1_LEN = 12 };

static uint8_t *opt_ts(uint8_t *p)
{
	static const uint8_t ts[TS_LEN] = {1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2};

	memcpy(p, ts, sizeof(ts));
	return p + sizeof(ts);
}

static uint8_t *opt_sack(uint8_t *p, uint32_t start, uint32_t end)
{
	uint32_t s = htonl(start), e = htonl(end);

	p[0] = 1;
	p[1] = 1;
	p[2] = 5;
	p[3] = 10;
	memcpy(p + 4, &s, 4);
	memcpy(p + 8, &e, 4);
	return p + SACK1_LEN;
}

/* An ACK of o's flow for ack, options opts; returns its path. */
static int send_ack(struct env *e, struct pkt_opts o, uint32_t ack,
		    const uint8_t *opts, size_t optlen)
{
	o.tcp_flags = 0x10;
	o.seq = 7000;
	o.ack = ack;
	o.tcp_opts = opts;
	o.tcp_optlen = optlen;
	return send_one(e, &o);
}

/*
 * Our ACKs lost: a D-SACK for the same segment sent twice moves the flow
 * on, and a third time again; a SACK above the ACK number, a D-SACK for
 * another segment, timestamps alone or a SYN's options move nothing.
 */
static void test_repath_dsack(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER, .proto = IPPROTO_TCP, .sport = 5201,
			     .dport = 40001};
	uint64_t before = stat_of(e, DARD_STAT_REPATH_DSACK);
	uint8_t ts[TS_LEN], sack[TS_LEN + SACK1_LEN], dsack[TS_LEN + SACK1_LEN],
		bare[SACK1_LEN], syn[20] = {2, 4, 5, 180, 4, 2, 8, 10};
	int k, i;

	opt_ts(ts);
	opt_sack(opt_ts(sack), 90000, 91000); /* above the ACK: plain SACK */
	opt_sack(opt_ts(dsack), 40000, 41000);
	k = send_ack(e, o, 50000, NULL, 0);
	assert_true(k >= 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(send_ack(e, o, 50000, ts, sizeof(ts)), k);
		assert_int_equal(send_ack(e, o, 50000, sack, sizeof(sack)), k);
	}
	o.tcp_flags = 0x02;
	o.tcp_opts = syn;
	o.tcp_optlen = sizeof(syn);
	assert_int_equal(send_one(e, &o), k);
	o.tcp_optlen = 0;
	assert_int_equal(stat_of(e, DARD_STAT_REPATH_DSACK), before);
	/* The first D-SACK for 40000 is noted; the second moves the flow. */
	assert_int_equal(send_ack(e, o, 50000, dsack, sizeof(dsack)), k);
	assert_int_equal(send_ack(e, o, 50000, dsack, sizeof(dsack)),
			 (k + 1) % NPATHS);
	assert_int_equal(stat_of(e, DARD_STAT_REPATH_DSACK), before + 1);
	/* Still not through: on again, past a dead path, without timestamps. */
	set_dead(e, 1U << (k + 2) % NPATHS);
	opt_sack(bare, 40000, 41000);
	assert_int_equal(send_ack(e, o, 50000, bare, sizeof(bare)),
			 (k + 3) % NPATHS);
	assert_int_equal(stat_of(e, DARD_STAT_REPATH_DSACK), before + 2);
	/* Another segment's D-SACK is only noted; an ACK past it is normal. */
	opt_sack(opt_ts(dsack), 45000, 46000);
	assert_int_equal(send_ack(e, o, 50000, dsack, sizeof(dsack)),
			 (k + 3) % NPATHS);
	assert_int_equal(send_ack(e, o, 60000, ts, sizeof(ts)),
			 (k + 3) % NPATHS);
	assert_int_equal(stat_of(e, DARD_STAT_REPATH_DSACK), before + 2);
}

/*
 * In-band repair follows the repair order set_dest was given (here 0, 2,
 * 1, 3, as a fat-tree's), skipping to the next live path when the one it
 * names is known dead; an order that names no path is index order.
 */
static void test_repair_order(void **state)
{
	struct env *e = *state;
	static const uint8_t order[NPATHS] = {2, 3, 1, 0},
			     bad[NPATHS] = {9, 9, 9, 9};
	struct pkt_opts o = {ME_TO_PEER, .proto = IPPROTO_TCP, .sport = 5202,
			     .dport = 40002};
	struct dard_alias_pair p[NPATHS];
	uint8_t dsack[TS_LEN + SACK1_LEN];
	int i, k;

	for (i = 0; i < NPATHS; i++)
		p[i] = pair_of(i);
	assert_int_equal(dard_dp_bpf.set_dest(e->dp, ntohl(A(PEER_ID)), p,
					      NPATHS, order),
			 0);
	opt_sack(opt_ts(dsack), 40000, 41000);
	k = send_ack(e, o, 50000, NULL, 0);
	assert_true(k >= 0);
	/* Each D-SACK after the first moves the flow one step of the order. */
	assert_int_equal(send_ack(e, o, 50000, dsack, sizeof(dsack)), k);
	for (i = 0; i < NPATHS; i++) {
		int want = order[k];

		k = send_ack(e, o, 50000, dsack, sizeof(dsack));
		assert_int_equal(k, want);
	}
	/* The next in the order known dead: the next live after it. */
	set_dead(e, 1U << order[k]);
	assert_int_equal(send_ack(e, o, 50000, dsack, sizeof(dsack)),
			 (order[k] + 1) % NPATHS);
	set_dead(e, 0);
	forget(e, &o);
	assert_int_equal(
		dard_dp_bpf.set_dest(e->dp, ntohl(A(PEER_ID)), p, NPATHS, bad),
		0);
	k = send_ack(e, o, 50000, NULL, 0);
	assert_int_equal(send_ack(e, o, 50000, dsack, sizeof(dsack)), k);
	assert_int_equal(send_ack(e, o, 50000, dsack, sizeof(dsack)),
			 (k + 1) % NPATHS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		DP_TEST(test_repath_dead),
		DP_TEST(test_repath_after_move),
		DP_TEST(test_repath_stale_index),
		DP_TEST(test_live_gen),
		DP_TEST(test_live_gen_checked_once),
		DP_TEST(test_repath_dsack),
		DP_TEST(test_repair_order),
	};

	return dp_main("test_dp_repair", NULL, 0, tests, ARRAY_SIZE(tests));
}
