// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Where new flows go, under BPF_PROG_TEST_RUN: the hash spreading flows
 * over every path, a new flow whose hashed path is dead going to the
 * next live one, and a userspace move taking effect at the next packet.
 * Needs root (CAP_BPF); without it, says so and skips (fails under CI).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <arpa/inet.h>
#include <linux/in.h>
#include <linux/pkt_cls.h>

#include <cmocka.h>

#include "dp_env.h"

static void test_move(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER, .proto = IPPROTO_TCP, .sport = 3333,
			     .dport = 80, .payload = 10};
	struct dard_flow_key key = {.saddr = A(MY_ID),
				    .daddr = A(PEER_ID),
				    .sport = htons(3333),
				    .dport = htons(80),
				    .proto = IPPROTO_TCP};
	struct dard_alias_pair to;
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, &o);
	uint32_t n;
	int first, moved;

	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	first = check_encap(in, len, out, n, 0);
	assert_true(first >= 0);
	to = pair_of((first + 1) % NPATHS);
	assert_int_equal(dard_dp_bpf.move(e->dp, &key, &to), 0);
	/* The very next packet takes the new pair. */
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	moved = check_encap(in, len, out, n, 0);
	assert_int_equal(moved, (first + 1) % NPATHS);
}

static void test_hash_spreads(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER, .dport = 9, .payload = 8};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	unsigned used[NPATHS] = {0}, i;
	uint32_t n;

	for (i = 0; i < 400; i++) {
		size_t len;
		int p;

		o.sport = 20000 + i;
		len = build(in, &o);
		assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
		p = check_encap(in, len, out, n, 0);
		assert_true(p >= 0);
		used[p]++;
	}
	/* Every path, none with less than half its share. */
	for (i = 0; i < NPATHS; i++)
		assert_true(used[i] >= 400 / NPATHS / 2);
}

/*
 * A new flow hashed to path h, with the paths dead that the row names
 * relative to h (bit r: path h + r): where it goes, relative to h.
 */
static const struct {
	unsigned dead; /* relative to the hashed path */
	int to;	       /* relative to the hashed path */
	int avoided, all_dead;
} new_dead_rows[] = {
	{0x0, 0, 0, 0}, /* nothing dead: the hash's choice */
	{0x2, 0, 0, 0}, /* another path dead: still the hash's */
	{0x1, 1, 1, 0}, /* the next live one */
	{0x3, 2, 1, 0}, {0x7, 3, 1, 0},
	{0xb, 2, 1, 0}, /* the first live one, not the last */
	{0xf, 0, 0, 1}, /* all dead: the hashed one, counted */
};

static void test_new_flow_dead(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER, .dport = 53, .payload = 8};
	unsigned found = 0, r, h, rel;
	uint16_t sport[NPATHS] = {0};
	int p;

	/* A flow hashed to each path, found with nothing dead. */
	set_dead(e, 0);
	for (o.sport = 30000; found != (1U << NPATHS) - 1; o.sport++) {
		assert_true(o.sport < 30400);
		p = send_one(e, &o);
		assert_true(p >= 0);
		forget(e, &o);
		if (!(found & 1U << p))
			sport[p] = o.sport;
		found |= 1U << p;
	}
	for (r = 0; r < ARRAY_SIZE(new_dead_rows); r++) {
		for (h = 0; h < NPATHS; h++) {
			uint64_t avoided =
				stat_of(e, DARD_STAT_NEW_FLOW_DEAD_AVOIDED);
			uint64_t all = stat_of(e, DARD_STAT_ALL_PATHS_DEAD);
			unsigned mask = 0;
			struct dard_flow f;
			struct dard_flow_key k;

			for (rel = 0; rel < NPATHS; rel++)
				if (new_dead_rows[r].dead & 1U << rel)
					mask |= 1U << (h + rel) % NPATHS;
			set_dead(e, mask);
			o.sport = sport[h];
			p = send_one(e, &o);
			if (p != (int)(h + new_dead_rows[r].to) % NPATHS)
				fail_msg("row %u, hashed to %u: path %d", r, h,
					 p);
			assert_int_equal(
				stat_of(e, DARD_STAT_NEW_FLOW_DEAD_AVOIDED),
				avoided + new_dead_rows[r].avoided);
			assert_int_equal(stat_of(e, DARD_STAT_ALL_PATHS_DEAD),
					 all + new_dead_rows[r].all_dead);
			/* The flow knows its path's index. */
			k = key_of(&o);
			flow_of(e, &k, &f);
			assert_int_equal(f.path_idx, p);
			forget(e, &o);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		DP_TEST(test_move),
		DP_TEST(test_hash_spreads),
		DP_TEST(test_new_flow_dead),
	};

	return dp_main("test_dp_placement", NULL, 0, tests, ARRAY_SIZE(tests));
}
