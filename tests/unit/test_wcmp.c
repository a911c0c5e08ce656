// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Tests the WCMP slot table: exact apportionment, zeros, limits, moves. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wcmp.h"

enum { S = DARD_WCMP_SLOTS };

/* Builds w's table and checks each path's count against counts. */
static void check_counts(const uint16_t *w, unsigned n, const uint16_t *counts)
{
	uint8_t slot[S];
	uint16_t c[DARD_PATHS_MAX];
	unsigned i;

	assert_int_equal(dard_wcmp_build(w, n, NULL, slot), 0);
	for (i = 0; i < S; i++)
		assert_true(slot[i] < n);
	dard_wcmp_count(slot, n, c);
	for (i = 0; i < n; i++)
		if (c[i] != counts[i])
			fail_msg("path %u: %u slots, expected %u", i, c[i],
				 counts[i]);
}

static void test_exact(void **state)
{
	/* 1:3:0:4 of 256 is 32, 96, 0, 128 exactly. */
	check_counts((uint16_t[]){1, 3, 0, 4}, 4, (uint16_t[]){32, 96, 0, 128});
	/* 256 / 3 = 85.33 each: one left over, to the lowest index. */
	check_counts((uint16_t[]){5, 5, 5}, 3, (uint16_t[]){86, 85, 85});
	/* 256 * 2/7 = 73.14, * 5/7 = 182.86: the larger remainder wins. */
	check_counts((uint16_t[]){2, 5}, 2, (uint16_t[]){73, 183});
	/* Scale does not matter. */
	check_counts((uint16_t[]){1000, 3000, 0, 4000}, 4,
		     (uint16_t[]){32, 96, 0, 128});
	/* Extremes: a weight of 1 beside 65535 still rounds to its share. */
	check_counts((uint16_t[]){65535, 1}, 2, (uint16_t[]){256, 0});
	check_counts((uint16_t[]){65535, 65535}, 2, (uint16_t[]){128, 128});
}

/* Every weight vector: each count within one slot of its exact share. */
static void test_within_one(void **state)
{
	uint16_t w[DARD_PATHS_MAX], c[DARD_PATHS_MAX];
	unsigned r, i, n, sum, total;
	double exact;

	srand(15);
	for (r = 0; r < 2000; r++) {
		n = 1 + rand() % 40;
		do {
			for (sum = i = 0; i < n; i++)
				sum += w[i] = rand() % 3 ? rand() % 1000 : 0;
		} while (!sum);
		assert_int_equal(dard_wcmp_apportion(w, n, c), 0);
		for (total = i = 0; i < n; i++) {
			exact = (double)w[i] * S / sum;
			total += c[i];
			assert_true(c[i] + 1 > exact && c[i] < exact + 1);
			if (!w[i])
				assert_int_equal(c[i], 0);
		}
		assert_int_equal(total, S);
	}
}

static void test_one_path(void **state)
{
	uint8_t slot[S];
	unsigned i;

	assert_int_equal(dard_wcmp_build((uint16_t[]){7}, 1, NULL, slot), 0);
	for (i = 0; i < S; i++)
		assert_int_equal(slot[i], 0);
}

static void test_256_paths(void **state)
{
	uint16_t w[DARD_PATHS_MAX], c[DARD_PATHS_MAX];
	uint8_t slot[S];
	unsigned i;

	for (i = 0; i < DARD_PATHS_MAX; i++)
		w[i] = 1;
	assert_int_equal(dard_wcmp_build(w, DARD_PATHS_MAX, NULL, slot), 0);
	dard_wcmp_count(slot, DARD_PATHS_MAX, c);
	for (i = 0; i < DARD_PATHS_MAX; i++)
		assert_int_equal(c[i], 1);
	/* Path 255 weighs as much as all others: half the table. */
	w[255] = 255;
	assert_int_equal(dard_wcmp_build(w, DARD_PATHS_MAX, NULL, slot), 0);
	dard_wcmp_count(slot, DARD_PATHS_MAX, c);
	assert_int_equal(c[255], 128);
}

static void test_refused(void **state)
{
	uint16_t w[DARD_PATHS_MAX + 1] = {0}, c[DARD_PATHS_MAX + 1];
	uint8_t slot[S];

	assert_int_equal(dard_wcmp_build(w, 4, NULL, slot), -EINVAL);
	assert_int_equal(dard_wcmp_apportion(w, 4, c), -EINVAL);
	w[0] = 1;
	assert_int_equal(dard_wcmp_build(w, 0, NULL, slot), -EINVAL);
	assert_int_equal(dard_wcmp_build(w, DARD_PATHS_MAX + 1, NULL, slot),
			 -EINVAL);
}

/* Each path's slots spread over the table, not in one run. */
static void test_interleaved(void **state)
{
	uint8_t slot[S];
	unsigned i, run = 1, longest = 1;

	assert_int_equal(
		dard_wcmp_build((uint16_t[]){1, 1, 1, 1}, 4, NULL, slot), 0);
	for (i = 0; i < S; i++)
		assert_int_equal(slot[i], i % 4);
	assert_int_equal(
		dard_wcmp_build((uint16_t[]){1, 3, 0, 4}, 4, NULL, slot), 0);
	for (i = 1; i < S; i++) {
		run = slot[i] == slot[i - 1] ? run + 1 : 1;
		longest = run > longest ? run : longest;
	}
	/* Path 3 holds half: at most a couple in a row. */
	assert_true(longest <= 2);
}

/* A small change of weights moves only the slots it must. */
static void test_few_moves(void **state)
{
	uint8_t a[S], b[S];
	unsigned i, moved = 0;

	assert_int_equal(dard_wcmp_build((uint16_t[]){1, 3, 0, 4}, 4, NULL, a),
			 0);
	/* 32/96/0/128 -> 32/96/32/96: 32 slots go from path 3 to 2. */
	assert_int_equal(dard_wcmp_build((uint16_t[]){1, 3, 1, 3}, 4, a, b), 0);
	for (i = 0; i < S; i++) {
		if (a[i] == b[i])
			continue;
		moved++;
		assert_int_equal(a[i], 3);
		assert_int_equal(b[i], 2);
	}
	assert_int_equal(moved, 32);
	/* A previous table naming paths past n is no help, and no harm. */
	memset(a, 200, sizeof(a));
	assert_int_equal(dard_wcmp_build((uint16_t[]){1, 1}, 2, a, b), 0);
	for (i = 0; i < S; i++)
		assert_int_equal(b[i], i % 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_within_one),
		cmocka_unit_test(test_one_path),
		cmocka_unit_test(test_256_paths),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_interleaved),
		cmocka_unit_test(test_few_moves),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
