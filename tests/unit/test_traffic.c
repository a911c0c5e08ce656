// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The paper's traffic patterns: who sends to whom, how often, repeatably. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "traffic.h"
#include "unit.h"

static struct dard_topo *t;
static struct dard_plan *p;

static int setup(void **state)
{
	(void)state;
	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &t, &p);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dard_plan_free(p);
	dard_topo_free(t);
	return 0;
}

static long gen(int pattern, double rate, double duration, uint64_t seed,
		struct dard_tflow **f)
{
	struct dard_traffic_opts o;
	char err[DARD_ERR_MAX];
	long n;

	dard_traffic_opts_init(&o);
	o.pattern = pattern;
	o.rate = rate;
	o.duration = duration;
	o.seed = seed;
	n = dard_traffic_gen(t, &o, f, err);
	if (n < 0)
		fail_msg("%s", err);
	return n;
}

static void test_stride(void **state)
{
	struct dard_tflow *f;
	long n, i;

	(void)state;
	n = gen(DARD_PATTERN_STRIDE, 1, 100, 1, &f);
	/* 16 sources, about 100 flows each: Poisson, so within 4 sigma. */
	assert_true(fabs(n - 1600.0) < 4 * 40);
	for (i = 0; i < n; i++) {
		/* Step 4, the hosts of a pod: e1_1 -> e2_1, e4_4 -> e1_4. */
		unsigned s = t->node[f[i].src].rank, d = t->node[f[i].dst].rank;

		assert_int_equal(d, (s + 4) % 16);
		assert_int_not_equal(dard_host_pod(t, f[i].src),
				     dard_host_pod(t, f[i].dst));
		assert_true(f[i].start >= 0 && f[i].start < 100);
		if (i)
			assert_true(f[i].start >= f[i - 1].start);
		assert_int_equal(f[i].bytes, 16 << 20);
	}
	free(f);
}

static void test_repeatable(void **state)
{
	struct dard_tflow *a, *b;
	long n = gen(DARD_PATTERN_RANDOM, 0.5, 30, 7, &a);

	(void)state;
	assert_int_equal(gen(DARD_PATTERN_RANDOM, 0.5, 30, 7, &b), n);
	assert_memory_equal(a, b, n * sizeof(*a));
	free(b);
	/* Another seed, other flows. */
	assert_true(gen(DARD_PATTERN_RANDOM, 0.5, 30, 8, &b) != n ||
		    memcmp(a, b, n * sizeof(*a)));
	free(a);
	free(b);
}

static void test_random(void **state)
{
	unsigned hits[16] = {0}, i;
	struct dard_tflow *f;
	long n = gen(DARD_PATTERN_RANDOM, 2, 200, 3, &f), k;

	(void)state;
	for (k = 0; k < n; k++) {
		assert_int_not_equal(f[k].src, f[k].dst);
		hits[t->node[f[k].dst].rank]++;
	}
	/* Uniform over the others: every host about n / 16. */
	for (i = 0; i < 16; i++)
		assert_true(fabs(hits[i] - n / 16.0) < 5 * sqrt(n / 16.0));
	free(f);
}

static void test_staggered(void **state)
{
	unsigned tor = 0, pod = 0, other = 0;
	struct dard_tflow *f;
	long n = gen(DARD_PATTERN_STAGGERED, 2, 200, 5, &f), k;

	(void)state;
	for (k = 0; k < n; k++) {
		assert_int_not_equal(f[k].src, f[k].dst);
		if (dard_topo_tor(t, f[k].src) == dard_topo_tor(t, f[k].dst))
			tor++;
		else if (dard_host_pod(t, f[k].src) ==
			 dard_host_pod(t, f[k].dst))
			pod++;
		else
			other++;
	}
	/* The paper's 0.5 and 0.3. */
	assert_true(fabs(tor / (double)n - 0.5) < 0.03);
	assert_true(fabs(pod / (double)n - 0.3) < 0.03);
	assert_true(fabs(other / (double)n - 0.2) < 0.03);
	free(f);
}

static void test_refused(void **state)
{
	struct dard_traffic_opts o;
	struct dard_tflow *f;
	char err[DARD_ERR_MAX];

	(void)state;
	dard_traffic_opts_init(&o);
	o.rate = 0;
	assert_int_equal(dard_traffic_gen(t, &o, &f, err), -EINVAL);
	assert_non_null(strstr(err, "must be positive"));
	dard_traffic_opts_init(&o);
	o.step = 16;
	assert_int_equal(dard_traffic_gen(t, &o, &f, err), -EINVAL);
	assert_non_null(strstr(err, "to itself"));
	dard_traffic_opts_init(&o);
	o.pattern = DARD_PATTERN_STAGGERED;
	o.torp = 0.8;
	assert_int_equal(dard_traffic_gen(t, &o, &f, err), -EINVAL);
	assert_int_equal(dard_pattern_parse("stride"), DARD_PATTERN_STRIDE);
	assert_int_equal(dard_pattern_parse("zigzag"), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stride),
		cmocka_unit_test(test_repeatable),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_staggered),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
