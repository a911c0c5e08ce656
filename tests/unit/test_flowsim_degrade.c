// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The flow-level simulation with a degraded link (dard-sim --degrade):
 * a flow alone on it runs at the link's share under ECMP, DARD moves an
 * elephant off it onto a free path, a factor of 1 changes nothing, the
 * bound refuses a tree it makes uneven, and bad degrades are refused.
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

/* The link between two named nodes. */
static uint32_t link_between(const char *a, const char *b)
{
	uint32_t x = find(t, a), y = find(t, b), l;

	for (l = 0; l < t->nlinks; l++)
		if ((t->link[l].up == x && t->link[l].down == y) ||
		    (t->link[l].up == y && t->link[l].down == x))
			return l;
	fail_msg("%s and %s are not linked", a, b);
	return 0;
}

/*
 * The four core links down into pod 3: every path from pod 1 to pod 3
 * crosses exactly one of them.
 */
static const char *const into3[4][2] = {
	{"core1", "aggr3_1"},
	{"core2", "aggr3_1"},
	{"core3", "aggr3_2"},
	{"core4", "aggr3_2"},
};

/* One flow of mb Mbit from e1_1 to e3_1 under sched, link l at factor. */
static struct dard_sim_flow run_one(int sched, double mb, uint32_t l,
				    double factor)
{
	struct dard_tflow f = {0, find(t, "e1_1"), find(t, "e3_1"),
			       (uint64_t)(mb * 1e6 / 8)};
	struct dard_sim_degrade d = {l, factor};
	struct dard_sim_flow out;
	struct dard_sim_opts o;

	dard_sim_opts_init(&o);
	o.sched = sched;
	o.degrade = &d;
	o.ndegrade = 1;
	run_o(&o, &f, 1, &out);
	return out;
}

/* The core link into pod 3 that ECMP's hash puts the flow on. */
static uint32_t hashed_core(void)
{
	uint32_t l, on = UINT32_MAX;
	unsigned i;

	for (i = 0; i < 4; i++) {
		struct dard_sim_flow out;

		l = link_between(into3[i][0], into3[i][1]);
		out = run_one(DARD_SIM_ECMP, 1000, l, 0.25);
		if (fabs(out.end - 4) < 1e-9) {
			assert_int_equal(on, UINT32_MAX);
			on = l;
		} else {
			/* Off its path: the 1000 Mbit in 1 s at 1 Gbit/s. */
			assert_true(fabs(out.end - 1) < 1e-9);
		}
	}
	assert_int_not_equal(on, UINT32_MAX);
	return on;
}

/*
 * ECMP: 1000 Mbit alone on its path, whose core link runs at a quarter
 * of 1 Gbit/s, take 4 s, not 1 s; on any other path, 1 s. Exactly one
 * of the four core links into pod 3 is on its path.
 */
static void test_degrade_ecmp(void **state)
{
	(void)state;
	hashed_core();
}

/*
 * DARD sees the link at 250 Mbit/s in its switches' answers and moves
 * the elephant onto a free path: 8000 Mbit take ECMP 32 s at 250 Mbit/s,
 * DARD a few seconds there, then the rest at 1 Gbit/s.
 */
static void test_degrade_dard(void **state)
{
	struct dard_sim_flow ecmp, dard;
	uint32_t l;

	(void)state;
	l = hashed_core();
	ecmp = run_one(DARD_SIM_ECMP, 8000, l, 0.25);
	assert_true(fabs(ecmp.end - 32) < 1e-9);
	assert_int_equal(ecmp.moves, 0);
	dard = run_one(DARD_SIM_DARD, 8000, l, 0.25);
	assert_int_equal(dard.moves, 1);
	/* At least 8 s at 1 Gbit/s, and off the link within 5 s. */
	assert_true(dard.end > 8);
	assert_true(dard.end < 5 + (8000 - 5 * 250) / 1000.0);
	assert_true(dard.end < ecmp.end);
}

enum { NR = 40 };

/*
 * A factor of 1 is no degrade: the same ends and moves under every
 * scheduler that reads capacities, and ECMP.
 */
static void test_degrade_one(void **state)
{
	static const int sched[] = {DARD_SIM_ECMP, DARD_SIM_DARD,
				    DARD_SIM_HEDERA, DARD_SIM_GREEDY};
	struct dard_sim_degrade d = {link_between("core1", "aggr3_1"), 1};
	struct dard_sim_flow a[NR], b[NR];
	struct dard_tflow f[NR];
	struct dard_sim_opts o;
	size_t i, k;

	(void)state;
	/* Flows across pods, from every host, a few seconds apart. */
	for (i = 0; i < NR; i++)
		f[i] = (struct dard_tflow){i * 0.3, t->hosts[i % t->nhosts],
					   t->hosts[(i * 5 + 4) % t->nhosts],
					   100000000ULL};
	for (k = 0; k < sizeof(sched) / sizeof(sched[0]); k++) {
		dard_sim_opts_init(&o);
		o.sched = sched[k];
		o.elephant_age = 1;
		run_o(&o, f, NR, a);
		o.degrade = &d;
		o.ndegrade = 1;
		run_o(&o, f, NR, b);
		for (i = 0; i < NR; i++) {
			assert_true(a[i].end == b[i].end);
			assert_int_equal(a[i].moves, b[i].moves);
		}
	}
}

/*
 * The bound: OPT needs a sub-fat-tree's up links at one capacity, so one
 * degraded core link is refused, saying so; every core link at half, the
 * tree stays even and OPT takes it.
 */
static void test_degrade_bound(void **state)
{
	struct dard_sim_degrade d[16];
	struct dard_sim_opts o;
	char err[DARD_ERR_MAX];
	uint32_t l, n = 0;

	(void)state;
	dard_sim_opts_init(&o);
	o.sched = DARD_SIM_BOUND;
	d[0] = (struct dard_sim_degrade){link_between("core1", "aggr3_1"),
					 0.25};
	o.degrade = d;
	o.ndegrade = 1;
	assert_int_equal(dard_sim_check(t, &o, err), -EINVAL);
	assert_non_null(strstr(err, "degraded"));
	for (l = 0; l < t->nlinks; l++)
		if (t->node[t->link[l].up].level == 0)
			d[n++] = (struct dard_sim_degrade){l, 0.5};
	assert_int_equal(n, 16);
	o.ndegrade = n;
	assert_int_equal(dard_sim_check(t, &o, err), 0);
}

/* Bad degrades are refused before any flow. */
static void test_degrade_bad(void **state)
{
	static const double bad[] = {0, -0.5, 1.5, NAN, INFINITY};
	struct dard_tflow f[1] = {{0, find(t, "e1_1"), find(t, "e2_1"), 1000}};
	struct dard_sim_degrade d = {t->nlinks, 0.5};
	struct dard_sim_flow out[1];
	struct dard_sim_opts o;
	char err[DARD_ERR_MAX];
	size_t i;

	(void)state;
	dard_sim_opts_init(&o);
	o.degrade = &d;
	o.ndegrade = 1;
	assert_int_equal(dard_sim_run(t, p, f, 1, &o, out, NULL, err), -EINVAL);
	assert_non_null(strstr(err, "bad degraded link"));
	d.link = 0;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		d.factor = bad[i];
		assert_int_equal(dard_sim_run(t, p, f, 1, &o, out, NULL, err),
				 -EINVAL);
	}
	d.factor = 1;
	assert_int_equal(dard_sim_run(t, p, f, 1, &o, out, NULL, err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_degrade_ecmp),
		cmocka_unit_test(test_degrade_dard),
		cmocka_unit_test(test_degrade_one),
		cmocka_unit_test(test_degrade_bound),
		cmocka_unit_test(test_degrade_bad),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
