// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libdard's statistics (daemon/lib/stats.c): Student's t against the
 * published two-sided 95% quantiles, means, deviations and intervals
 * against hand calculation, and paired gains, one interval holding 0
 * and one that does not.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "stats.h"

#define near(a, b, eps) assert_true(fabs((a) - (b)) <= (eps))

/* Printed tables (three decimals) and the normal limit. */
static void test_t95_published(void **state)
{
	static const struct {
		size_t df;
		double t;
	} pub[] = {
		{1, 12.706},  {2, 4.303},    {3, 3.182},  {4, 2.776},
		{5, 2.571},   {9, 2.262},    {10, 2.228}, {20, 2.086},
		{29, 2.045},  {30, 2.042},   {40, 2.021}, {60, 2.000},
		{120, 1.980}, {1000, 1.962},
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(pub) / sizeof(pub[0]); i++) {
		double t = dard_t95(pub[i].df);

		if (fabs(t - pub[i].t) > 0.0005)
			fail_msg("t95(%zu) = %.5f, published %.3f", pub[i].df,
				 t, pub[i].t);
	}
	near(dard_t95(100000000), 1.959964, 1e-6);
	assert_true(isnan(dard_t95(0)));
}

/* Past the table the approximation joins it and keeps falling. */
static void test_t95_monotone(void **state)
{
	size_t df;

	(void)state;
	/* t(0.975, 31) = 2.03951, 35 = 2.03011, 50 = 2.00856 (exact). */
	near(dard_t95(31), 2.03951, 1e-5);
	near(dard_t95(35), 2.03011, 1e-5);
	near(dard_t95(50), 2.00856, 1e-5);
	for (df = 1; df < 5000; df++)
		if (!(dard_t95(df + 1) < dard_t95(df)))
			fail_msg("t95 does not fall from %zu to %zu", df,
				 df + 1);
	assert_true(dard_t95(5000) > 1.959964);
}

static void test_mean_sd(void **state)
{
	static const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
	struct dard_ci ci;

	(void)state;
	near(dard_mean(x, 8), 5, 1e-12);
	/* Squares about the mean sum to 32: sqrt(32 / 7). */
	near(dard_sd(x, 8), 2.1380899, 1e-6);
	dard_ci95(x, 8, &ci);
	assert_int_equal(ci.n, 8);
	/* t(7) = 2.36462: 2.36462 * 2.1380899 / sqrt(8). */
	near(ci.half, 1.787485, 1e-5);
	/* One value: a mean, no deviation, no interval; none: nothing. */
	dard_ci95(x, 1, &ci);
	near(ci.mean, 2, 0);
	assert_true(isnan(ci.sd) && isnan(ci.half));
	assert_false(dard_ci_excludes_zero(&ci));
	dard_ci95(x, 0, &ci);
	assert_true(isnan(ci.mean));
}

static void test_gain(void **state)
{
	/* Run 4: other failed every flow; run 5: s did. */
	static const double s[] = {8, 9, 10, 5, NAN};
	static const double other[] = {10, 10, 10, NAN, 10};
	static const double s2[] = {8, 8.2, 7.8};
	double g[5];
	struct dard_ci ci;

	(void)state;
	near(dard_gain(8, 10), 0.2, 1e-12);
	near(dard_gain(12, 10), -0.2, 1e-12);
	assert_int_equal(dard_gain_pairs(s, other, 5, g), 3);
	near(g[0], 0.2, 1e-12);
	near(g[1], 0.1, 1e-12);
	near(g[2], 0, 1e-12);
	/* 0.2, 0.1, 0: mean 0.1, sd 0.1, t(2) 4.30265 * 0.1 / sqrt(3). */
	dard_gain_ci95(s, other, 5, &ci);
	assert_int_equal(ci.n, 3);
	near(ci.mean, 0.1, 1e-12);
	near(ci.sd, 0.1, 1e-12);
	near(ci.half, 0.248414, 1e-5);
	assert_false(dard_ci_excludes_zero(&ci));
	/* 0.2, 0.18, 0.22: sd 0.02, half 0.049683; 0 is outside. */
	dard_gain_ci95(s2, other, 3, &ci);
	near(ci.mean, 0.2, 1e-12);
	near(ci.half, 0.049683, 1e-5);
	assert_true(dard_ci_excludes_zero(&ci));
	/* The same losing: -0.2 +- 0.05 leaves out 0 too. */
	dard_gain_ci95(other, s2, 3, &ci);
	assert_true(ci.mean < 0 && dard_ci_excludes_zero(&ci));
	/* One pair: a mean and no interval; none: nothing. */
	dard_gain_ci95(s, other, 1, &ci);
	assert_int_equal(ci.n, 1);
	near(ci.mean, 0.2, 1e-12);
	assert_true(isnan(ci.half));
	dard_gain_ci95(s + 3, other + 3, 2, &ci);
	assert_int_equal(ci.n, 0);
	assert_true(isnan(ci.mean));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_t95_published),
		cmocka_unit_test(test_t95_monotone),
		cmocka_unit_test(test_mean_sd),
		cmocka_unit_test(test_gain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
