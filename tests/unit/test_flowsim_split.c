// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The simulation's split mode (flowsim.h, split; issue 31): an elephant's
 * parts on distinct rows, placed by its host's view, the flow at the sum
 * of their rates; K = 1 as before, the other schedulers ignoring it, and
 * bad K refused.
 *
 * The timed cases run on fattree:4 with 2 Gbit/s host links and 1 Gbit/s
 * switch links, so that one path carries half of what a host sends:
 *
 *            core1  core2      core3  core4
 *               \    /            \    /
 *              aggr1_1            aggr1_2       (pod 1; pod 2 alike)
 *                   \  X side      /  Y side
 *                    \            /
 *                       tor1_1  ------  2 Gbit/s to e1_1, e1_2
 *
 * Rows 0 and 1 of a pod-to-pod pair go up through aggr1_1 (X), rows 2
 * and 3 through aggr1_2 (Y). Flows start at 0.5 s, after the switches'
 * first answer (at 0 s, before any rate), and become elephants at 1.5 s
 * (dard's age, 1 s), after the answer at 1 s has measured them.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "flowsim_fix.h"

enum { MBIT5000 = 625000000 }; /* bytes: 5000 Mbit */

/* Every host link at mbps, the switch links as they are. */
static void host_links(uint32_t mbps)
{
	uint32_t l;

	for (l = 0; l < t->nlinks; l++)
		if (t->node[t->link[l].up].is_host ||
		    t->node[t->link[l].down].is_host)
			t->link[l].mbps = mbps;
}

static int fast_hosts(void **state)
{
	(void)state;
	host_links(2000);
	return 0;
}

static int slow_hosts(void **state)
{
	(void)state;
	host_links(1000);
	return 0;
}

/* sched with --split k, on the fixture's tree. */
static void run_split(int sched, uint32_t k, uint64_t seed,
		      const struct dard_tflow *f, size_t n,
		      struct dard_sim_flow *out)
{
	struct dard_sim_opts o;

	dard_sim_opts_init(&o);
	o.sched = sched;
	o.seed = seed;
	o.split = k;
	/* The paper's mode's 10 s age would end the flows first. */
	if (sched == DARD_SIM_DARD_PAPER)
		o.elephant_age = 1;
	run_o(&o, f, n, out);
}

/*
 * One flow alone, 5000 Mbit: on one path 1 Gbit/s, 5 s. Split, its
 * second part goes where its host's view shows the first is not: up
 * the other aggregation switch, and the flow has its host link's
 * 2 Gbit/s from 1.5 s on: 1.5 + 4000 / 2000 = 3.5 s. Four parts (and
 * eight, which the pair's four paths cap) take every row, two a side:
 * the same 2 Gbit/s.
 */
static void test_alone(void **state)
{
	struct dard_tflow f[1] = {
		{0.5, find(t, "e1_1"), find(t, "e2_1"), MBIT5000},
	};
	static const uint32_t ks[] = {2, 3, 4, 8};
	struct dard_sim_flow out[1];
	unsigned i;

	(void)state;
	run_split(DARD_SIM_DARD, 1, 1, f, 1, out);
	assert_true(fabs(out[0].end - 5.5) < 1e-9);
	for (i = 0; i < sizeof(ks) / sizeof(ks[0]); i++) {
		run_split(DARD_SIM_DARD, ks[i], 1, f, 1, out);
		assert_true(fabs(out[0].end - 3.5) < 1e-9);
		run_split(DARD_SIM_DARD_PAPER, ks[i], 1, f, 1, out);
		assert_true(fabs(out[0].end - 3.5) < 1e-9);
	}
	/* ECMP ignores it: one path. */
	run_split(DARD_SIM_ECMP, 2, 1, f, 1, out);
	assert_true(fabs(out[0].end - 5.5) < 1e-9);
}

/*
 * e1_1 to e2_1 and e1_2 to e2_2, 5000 Mbit each, under a seed whose hash
 * puts both up aggr1_1 (ECMP: 500 Mbit/s each, 10.5 s). Split in two,
 * each host sees its own first part on X, the measured load there and Y
 * free: both second parts go up Y, and each flow gets a half of X and a
 * half of Y, 1 Gbit/s, the bound's rate (which has it from the start:
 * 5.5 s): 1.5 + 4500 / 1000 = 6 s. Whole flows need a round to undo the
 * collision, and end later.
 */
static void test_collide(void **state)
{
	struct dard_tflow f[2] = {
		{0.5, find(t, "e1_1"), find(t, "e2_1"), MBIT5000},
		{0.5, find(t, "e1_2"), find(t, "e2_2"), MBIT5000},
	};
	struct dard_sim_flow out[2];
	uint64_t seed;

	(void)state;
	for (seed = 1; seed < 100; seed++) {
		run_split(DARD_SIM_ECMP, 1, seed, f, 2, out);
		if (fabs(out[0].end - 10.5) < 1e-9 &&
		    fabs(out[1].end - 10.5) < 1e-9)
			break;
	}
	assert_true(seed < 100);
	run_split(DARD_SIM_BOUND, 1, seed, f, 2, out);
	assert_true(fabs(out[0].end - 5.5) < 1e-9);
	run_split(DARD_SIM_DARD, 2, seed, f, 2, out);
	assert_true(fabs(out[0].end - 6.0) < 1e-9);
	assert_true(fabs(out[1].end - 6.0) < 1e-9);
	run_split(DARD_SIM_DARD, 1, seed, f, 2, out);
	assert_true((out[0].end + out[1].end) / 2 > 6.0 + 0.1);
}

/*
 * Stride traffic on the plain tree: --split 1 is the default, and every
 * scheduler but DARD's two ignores --split (scripts/sim-grid's hashes
 * hold K = 1 to what it gave before split mode). DARD split in 4 moves
 * the same bytes: every flow ends, none before its start.
 */
static void test_one_unchanged(void **state)
{
	static const int others[] = {DARD_SIM_ECMP, DARD_SIM_PVLB,
				     DARD_SIM_HEDERA, DARD_SIM_GREEDY,
				     DARD_SIM_BOUND};
	struct dard_traffic_opts to;
	struct dard_sim_opts o;
	struct dard_sim_flow *a, *b;
	struct dard_tflow *f;
	char err[DARD_ERR_MAX];
	unsigned i;
	long n, j;

	(void)state;
	dard_traffic_opts_init(&to);
	to.rate = 0.5;
	to.duration = 30;
	to.bytes = 256ULL << 20;
	n = dard_traffic_gen(t, &to, &f, err);
	if (n <= 20)
		fail_msg("%ld flows: %s", n, n < 0 ? err : "too few");
	a = calloc(n, sizeof(*a));
	b = calloc(n, sizeof(*b));
	assert_non_null(a);
	assert_non_null(b);
	dard_sim_opts_init(&o);
	assert_int_equal(o.split, 1);
	run_o(&o, f, n, a);
	run_split(DARD_SIM_DARD, 1, 1, f, n, b);
	assert_memory_equal(a, b, n * sizeof(*a));
	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		run_split(others[i], 1, 1, f, n, a);
		run_split(others[i], 4, 1, f, n, b);
		assert_memory_equal(a, b, n * sizeof(*a));
	}
	run_split(DARD_SIM_DARD, 4, 1, f, n, b);
	for (j = 0; j < n; j++)
		assert_true(b[j].end > b[j].start);
	free(a);
	free(b);
	free(f);
}

/* K outside 1 to 8 is refused; so is split mode with failures. */
static void test_bad(void **state)
{
	struct dard_tflow f[1] = {
		{0, find(t, "e1_1"), find(t, "e2_1"), MBIT5000},
	};
	struct dard_sim_fail fl = {0, 10, HUGE_VAL};
	static const uint32_t bad[] = {0, DARD_SIM_SPLIT_MAX + 1, 1000};
	struct dard_sim_flow out[1];
	struct dard_sim_opts o;
	char err[DARD_ERR_MAX];
	unsigned i;

	(void)state;
	dard_sim_opts_init(&o);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		o.split = bad[i];
		assert_int_equal(dard_sim_run(t, p, f, 1, &o, out, NULL, err),
				 -EINVAL);
	}
	o.split = 2;
	o.fail = &fl;
	o.nfail = 1;
	assert_int_equal(dard_sim_check(t, &o, err), -EINVAL);
	assert_non_null(strstr(err, "split"));
	o.sched = DARD_SIM_DARD_PAPER;
	assert_int_equal(dard_sim_check(t, &o, err), -EINVAL);
	assert_int_equal(dard_sim_run(t, p, f, 1, &o, out, NULL, err), -EINVAL);
	o.sched = DARD_SIM_ECMP;
	assert_int_equal(dard_sim_check(t, &o, err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_alone, fast_hosts,
						slow_hosts),
		cmocka_unit_test_setup_teardown(test_collide, fast_hosts,
						slow_hosts),
		cmocka_unit_test(test_one_unchanged),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
