// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Tests the in-band repair order over a destination's paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gen.h"
#include "path.h"
#include "repair.h"
#include "unit.h"

enum { MAX_PATHS = 256 };

struct pathlist {
	struct dard_path path[MAX_PATHS];
	unsigned n;
};

static int collect(const struct dard_path *path, void *arg)
{
	struct pathlist *pl = arg;

	if (pl->n == MAX_PATHS)
		fail_msg("more than %d paths", MAX_PATHS);
	pl->path[pl->n++] = *path;
	return 0;
}

/* Switches two paths share, but for their first and last. */
static unsigned shared(const struct dard_path *a, const struct dard_path *b)
{
	unsigned i, j, n = 0;

	for (i = 1; i + 1 < a->nsw; i++)
		for (j = 1; j + 1 < b->nsw; j++)
			n += a->sw[i] == b->sw[j];
	return n;
}

/*
 * The order over the paths from the first host to host index dst of
 * spec: checked to be one cycle through them all; returns how many
 * steps share a switch with the path they leave.
 */
static unsigned order(const char *spec, unsigned dst, unsigned want_n,
		      uint8_t *next)
{
	static struct pathlist pl;
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_pathctx *c;
	unsigned i, cur = 0, overlap = 0;
	uint8_t seen[MAX_PATHS] = {0};

	unit_build(spec, NULL, DARD_MODE_AUTO, &t, &p);
	c = dard_pathctx_new(t, p);
	assert_non_null(c);
	pl.n = 0;
	assert_int_equal(
		dard_path_foreach(c, t->hosts[0], t->hosts[dst], collect, &pl),
		want_n);
	memset(next, 0xff, MAX_PATHS);
	dard_repair_order(pl.path, pl.n, next);
	for (i = 0; i < pl.n; i++) {
		if (seen[cur])
			fail_msg("%s: path %u comes twice in the cycle", spec,
				 cur);
		seen[cur] = 1;
		assert_true(next[cur] < pl.n);
		overlap += shared(&pl.path[cur], &pl.path[next[cur]]) > 0;
		cur = next[cur];
	}
	assert_int_equal(cur, 0);
	/* Nothing written past the paths. */
	if (pl.n < MAX_PATHS)
		assert_int_equal(next[pl.n], 0xff);
	dard_pathctx_free(c);
	dard_plan_free(p);
	dard_topo_free(t);
	return overlap;
}

/*
 * Fat-trees between pods: every step goes to a path through other
 * aggregation and core switches, so one failed link or switch costs one
 * step; fattree:4's order is 0, 2, 1, 3.
 */
static void test_fattree(void **state)
{
	uint8_t next[MAX_PATHS];

	(void)state;
	assert_int_equal(order("fattree:4", 8, 4, next), 0);
	assert_int_equal(next[0], 2);
	assert_int_equal(next[2], 1);
	assert_int_equal(next[1], 3);
	assert_int_equal(next[3], 0);
	assert_int_equal(order("fattree:8", 16, 16, next), 0);
	assert_int_equal(order("fattree:8", 4, 4, next), 0); /* in a pod */
	assert_int_equal(order("fattree:32", 256, 256, next), 0);
}

/* Other trees: one cycle through every path, the same each time. */
static void test_other(void **state)
{
	uint8_t a[MAX_PATHS], b[MAX_PATHS];

	(void)state;
	order("clos:4,4", 4, 8, a);
	order("clos:4,4", 4, 8, b);
	assert_memory_equal(a, b, 8);
	order("3tier", 60, 32, a);
}

/* One path: its own successor. None: nothing written. */
static void test_small(void **state)
{
	uint8_t next[MAX_PATHS];

	(void)state;
	order("fattree:4", 1, 1, next);
	assert_int_equal(next[0], 0);
	memset(next, 7, sizeof(next));
	dard_repair_order(NULL, 0, next);
	assert_int_equal(next[0], 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fattree),
		cmocka_unit_test(test_other),
		cmocka_unit_test(test_small),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
