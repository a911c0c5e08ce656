// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Weighted new flows (datapath.md, "Weighted new flows") under
 * BPF_PROG_TEST_RUN: 8,000 new flows split by the weights, even again
 * where they went before any, a dead weighted path going on to the next
 * live one, known flows never moved, and what set_weights refuses.
 * Needs root (CAP_BPF); without it, says so and skips (fails under CI).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include <cmocka.h>

#include "dp_env.h"

enum { WFLOWS = 8000 };

/* A new UDP flow from port sport to dport (never seen before). */
static struct pkt_opts wflow(unsigned sport, unsigned dport)
{
	struct pkt_opts o = {ME_TO_PEER, .sport = sport, .dport = dport,
			     .payload = 8};

	return o;
}

static int set_weights(struct env *e, const uint16_t *w, unsigned n)
{
	return dard_dp_bpf.set_weights(e->dp, ntohl(A(PEER_ID)), w, n);
}

/* WFLOWS new flows to dport, each's path in path[] (NULL: not kept), the
 * paths' counts in used[]; the flows are forgotten afterwards. */
static void spread(struct env *e, unsigned dport, unsigned *used, uint8_t *path)
{
	struct pkt_opts o;
	unsigned i;
	int p;

	memset(used, 0, NPATHS * sizeof(*used));
	for (i = 0; i < WFLOWS; i++) {
		o = wflow(10000 + i, dport);
		p = send_one(e, &o);
		assert_true(p >= 0 && p < NPATHS);
		used[p]++;
		if (path)
			path[i] = p;
		forget(e, &o);
	}
}

/* Whether n of WFLOWS is within 2.5 points of share (of 8). */
static void near(unsigned n, unsigned eighths)
{
	double got = (double)n / WFLOWS, want = eighths / 8.0;

	if (got < want - 0.025 || got > want + 0.025)
		fail_msg("%u of %u flows (%.3f), expected %.3f", n, WFLOWS, got,
			 want);
}

/*
 * Weights 1:3:0:4: new flows split 1/8, 3/8, 0, 4/8, each counted as
 * placed by weight; even again: every flow where it went before any
 * weights, and none counted.
 */
static void test_weights_split(void **state)
{
	static uint8_t before[WFLOWS], after[WFLOWS];
	struct env *e = *state;
	unsigned used[NPATHS], i;
	uint16_t slots[DARD_PATHS_MAX];
	uint64_t weighted;
	unsigned n;

	assert_int_equal(
		dard_dp_bpf.weights(e->dp, ntohl(A(PEER_ID)), slots, &n), 0);
	assert_int_equal(n, NPATHS);
	spread(e, 7001, used, before);
	for (i = 0; i < NPATHS; i++)
		near(used[i], 2);
	weighted = stat_of(e, DARD_STAT_NEW_FLOW_WEIGHTED);
	assert_int_equal(set_weights(e, (uint16_t[]){1, 3, 0, 4}, 4), 0);
	assert_int_equal(
		dard_dp_bpf.weights(e->dp, ntohl(A(PEER_ID)), slots, &n), 1);
	assert_int_equal(n, NPATHS);
	assert_int_equal(slots[0], 32);
	assert_int_equal(slots[1], 96);
	assert_int_equal(slots[2], 0);
	assert_int_equal(slots[3], 128);
	spread(e, 7001, used, NULL);
	printf("weights 1:3:0:4 over %u new flows: %u %u %u %u\n", WFLOWS,
	       used[0], used[1], used[2], used[3]);
	near(used[0], 1);
	near(used[1], 3);
	assert_int_equal(used[2], 0);
	near(used[3], 4);
	assert_int_equal(stat_of(e, DARD_STAT_NEW_FLOW_WEIGHTED),
			 weighted + WFLOWS);
	/* Even again: today's hash % npaths, flow for flow. */
	assert_int_equal(set_weights(e, NULL, 0), 0);
	assert_int_equal(
		dard_dp_bpf.weights(e->dp, ntohl(A(PEER_ID)), slots, &n), 0);
	spread(e, 7001, used, after);
	assert_memory_equal(before, after, WFLOWS);
	assert_int_equal(stat_of(e, DARD_STAT_NEW_FLOW_WEIGHTED),
			 weighted + WFLOWS);
}

/* A weighted choice that is dead goes on to the next live path. */
static void test_weights_dead(void **state)
{
	struct env *e = *state;
	unsigned used[NPATHS];
	uint64_t avoided;

	assert_int_equal(set_weights(e, (uint16_t[]){0, 5, 0, 0}, 4), 0);
	spread(e, 7002, used, NULL);
	assert_int_equal(used[1], WFLOWS);
	avoided = stat_of(e, DARD_STAT_NEW_FLOW_DEAD_AVOIDED);
	set_dead(e, 1U << 1);
	spread(e, 7002, used, NULL);
	assert_int_equal(used[2], WFLOWS);
	assert_int_equal(stat_of(e, DARD_STAT_NEW_FLOW_DEAD_AVOIDED),
			 avoided + WFLOWS);
	/* Path 2 dead too: on to 3, weight 0 or not (sending beats
	 * dropping, and the controller's next weights will say better). */
	set_dead(e, 1U << 1 | 1U << 2);
	spread(e, 7002, used, NULL);
	assert_int_equal(used[3], WFLOWS);
}

/* Known flows never move for weights; new paths are even again. */
static void test_weights_known_flow(void **state)
{
	struct env *e = *state;
	struct dard_alias_pair p[NPATHS];
	struct pkt_opts o = wflow(9999, 7003);
	uint16_t w[NPATHS] = {0}, slots[DARD_PATHS_MAX];
	unsigned i, n;
	int first;

	first = send_one(e, &o);
	assert_true(first >= 0);
	w[(first + 1) % NPATHS] = 1;
	assert_int_equal(set_weights(e, w, NPATHS), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(send_one(e, &o), first);
	forget(e, &o);
	assert_int_equal(send_one(e, &o), (first + 1) % NPATHS);
	forget(e, &o);
	/* set_dest replaces the paths: the weights were for the old ones. */
	for (i = 0; i < NPATHS; i++)
		p[i] = pair_of(i);
	assert_int_equal(
		dard_dp_bpf.set_dest(e->dp, ntohl(A(PEER_ID)), p, NPATHS, NULL),
		0);
	assert_int_equal(
		dard_dp_bpf.weights(e->dp, ntohl(A(PEER_ID)), slots, &n), 0);
}

/* What set_weights refuses, leaving the destination as it was. */
static void test_weights_refused(void **state)
{
	struct env *e = *state;
	uint16_t slots[DARD_PATHS_MAX];
	unsigned n;

	assert_int_equal(set_weights(e, (uint16_t[]){1, 2, 3}, 3), -EINVAL);
	assert_int_equal(set_weights(e, (uint16_t[]){1, 2, 3, 4, 5}, 5),
			 -EINVAL);
	assert_int_equal(set_weights(e, (uint16_t[]){0, 0, 0, 0}, 4), -EINVAL);
	assert_int_equal(dard_dp_bpf.set_weights(e->dp, ntohl(A("172.16.0.9")),
						 (uint16_t[]){1}, 1),
			 -ENOENT);
	assert_int_equal(
		dard_dp_bpf.weights(e->dp, ntohl(A("172.16.0.9")), slots, &n),
		-ENOENT);
	assert_int_equal(
		dard_dp_bpf.weights(e->dp, ntohl(A(PEER_ID)), slots, &n), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		DP_TEST(test_weights_split),
		DP_TEST(test_weights_dead),
		DP_TEST(test_weights_known_flow),
		DP_TEST(test_weights_refused),
	};

	return dp_main("test_dp_weights", NULL, 0, tests, ARRAY_SIZE(tests));
}
