// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Max-min fair rates: a worked example, and random instances checked two
 * ways, against the definition (every flow has a saturated bottleneck on
 * which no flow gets more) and against a naive water-filling written here
 * independently of the library's heap.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "maxmin.h"

static void test_example(void **state)
{
	/* Link 0 (10) carries flows 0 and 1; link 1 (4) flows 1 and 2. */
	static const uint32_t p0[] = {0}, p1[] = {0, 1}, p2[] = {1};
	const struct dard_mm_flow f[] = {{p0, 1}, {p1, 2}, {p2, 1}, {NULL, 0}};
	const double cap[] = {10, 4};
	double r[4];

	(void)state;
	assert_int_equal(dard_maxmin(cap, 2, f, 4, r), 0);
	assert_true(r[1] == 2 && r[2] == 2 && r[0] == 8);
	assert_true(isinf(r[3])); /* no link, no limit */
	/* A link index past the end. */
	assert_int_equal(dard_maxmin(cap, 1, f, 3, r), -EINVAL);
}

/* What the fixed flows use of link l, and how many others cross it. */
static void link_use(uint32_t l, const uint32_t *paths, const unsigned *len,
		     size_t nf, const uint8_t *fixed, const double *rate,
		     double *used, unsigned *unfixed)
{
	size_t i;
	unsigned k;

	*used = 0;
	*unfixed = 0;
	for (i = 0; i < nf; i++)
		for (k = 0; k < len[i]; k++)
			if (paths[i * 8 + k] == l) {
				if (fixed[i])
					*used += rate[i];
				else
					(*unfixed)++;
			}
}

/* Water-filling the slow way: raise all unfixed rates together. */
static void naive(const double *cap, uint32_t nl, const uint32_t *paths,
		  const unsigned *len, size_t nf, double *rate)
{
	uint8_t *fixed = calloc(nf, 1);
	size_t i, left = nf;
	unsigned k, n;
	double used;

	while (left) {
		double level = HUGE_VAL;
		uint32_t l;

		/* The next link to fill, given the flows fixed so far. */
		for (l = 0; l < nl; l++) {
			link_use(l, paths, len, nf, fixed, rate, &used, &n);
			if (n && (cap[l] - used) / n < level)
				level = (cap[l] - used) / n;
		}
		for (l = 0; l < nl; l++) {
			link_use(l, paths, len, nf, fixed, rate, &used, &n);
			if (!n || (cap[l] - used) / n > level + 1e-9)
				continue;
			for (i = 0; i < nf; i++)
				for (k = 0; k < len[i]; k++)
					if (paths[i * 8 + k] == l &&
					    !fixed[i]) {
						fixed[i] = 1;
						rate[i] = level;
						left--;
					}
		}
	}
	free(fixed);
}

static void test_random(void **state)
{
	enum { NL = 12, NF = 40 };
	uint32_t paths[NF * 8];
	unsigned len[NF], k, round;
	struct dard_mm_flow f[NF];
	double cap[NL], r[NF], want[NF];
	size_t i;

	(void)state;
	srand(11);
	for (round = 0; round < 200; round++) {
		for (k = 0; k < NL; k++)
			cap[k] = 1 + rand() % 100;
		for (i = 0; i < NF; i++) {
			len[i] = 1 + rand() % 5;
			for (k = 0; k < len[i]; k++) {
				uint32_t l;
				unsigned j;

				/* Distinct links on a path. */
				do {
					l = rand() % NL;
					for (j = 0;
					     j < k && paths[i * 8 + j] != l;
					     j++)
						;
				} while (j < k);
				paths[i * 8 + k] = l;
			}
			f[i].links = &paths[i * 8];
			f[i].nlinks = len[i];
		}
		assert_int_equal(dard_maxmin(cap, NL, f, NF, r), 0);
		naive(cap, NL, paths, len, NF, want);
		for (i = 0; i < NF; i++)
			if (fabs(r[i] - want[i]) > 1e-6 * (1 + want[i]))
				fail_msg("round %u flow %zu: %g, naive %g",
					 round, i, r[i], want[i]);
		/* The definition: capacities kept, a bottleneck for each. */
		for (i = 0; i < NF; i++) {
			int bottleneck = 0;

			for (k = 0; k < len[i] && !bottleneck; k++) {
				uint32_t l = paths[i * 8 + k];
				double used = 0, most = 0;
				size_t j;
				unsigned m;

				for (j = 0; j < NF; j++)
					for (m = 0; m < len[j]; m++)
						if (paths[j * 8 + m] == l) {
							used += r[j];
							if (r[j] > most)
								most = r[j];
						}
				assert_true(used <= cap[l] * (1 + 1e-9));
				bottleneck = used >= cap[l] * (1 - 1e-9) &&
					     r[i] >= most * (1 - 1e-9);
			}
			if (!bottleneck)
				fail_msg("round %u: flow %zu has no bottleneck",
					 round, i);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example),
		cmocka_unit_test(test_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
