// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-exp bench's reading of figure lines (bench.h): the lines that are
 * figures among those that are not, values in order, nan counted apart,
 * the unit and what the figure is kept from its first line, the table's
 * numbers (0 for an sd of equal values, 2000 not 2e+03), and each
 * refusal with its line.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bench.h"
#include "topo.h"

static int add(struct exp_bench *b, const char *text, char *err)
{
	return exp_bench_add(b, text, strlen(text), err);
}

static void test_lines(void **state)
{
	struct exp_bench b = {0};
	char err[DARD_ERR_MAX];

	(void)state;
	assert_int_equal(
		add(&b,
		    "ok   [1.0s] something\n"
		    "figure dard.spread_mbps 188.5 Mbit/s the four flows' total\n"
		    "+ figure not.one 3 x\n"
		    "figure quiet.share 0.75\n"
		    "figure dard.spread_mbps 190 Mbit/s\n"
		    "figure dard.spread_mbps nan Mbit/s\n"
		    "figure dard.spread_s 12",
		    err),
		0);
	assert_int_equal(b.n, 3);
	assert_string_equal(b.fig[0].name, "dard.spread_mbps");
	assert_string_equal(b.fig[0].unit, "Mbit/s");
	assert_string_equal(b.fig[0].what, "the four flows' total");
	assert_int_equal(b.fig[0].n, 2);
	assert_int_equal(b.fig[0].nan, 1);
	assert_true(b.fig[0].v[0] == 188.5 && b.fig[0].v[1] == 190);
	assert_string_equal(b.fig[1].name, "quiet.share");
	assert_string_equal(b.fig[1].unit, "");
	assert_string_equal(b.fig[2].name, "dard.spread_s");
	assert_true(b.fig[2].n == 1 && b.fig[2].v[0] == 12);
	/* A second log adds to the same figures. */
	assert_int_equal(add(&b, "figure quiet.share 0.5\n", err), 0);
	assert_int_equal(b.fig[1].n, 2);
	exp_bench_free(&b);
}

/* The table: equal values' sd is 0, big whole numbers as they are. */
static void test_table(void **state)
{
	struct exp_bench b = {0};
	char err[DARD_ERR_MAX], *text = NULL;
	size_t size = 0;
	FILE *f;

	(void)state;
	assert_int_equal(add(&b,
			     "figure a.stall 1.6 s the stall\n"
			     "figure a.stall 1.6 s\nfigure a.stall 1.6 s\n"
			     "figure a.rate 2000 Mbit/s moved\n"
			     "figure a.rate 2000 Mbit/s\n"
			     "figure a.one 0.25 ratio alone\n",
			     err),
			 0);
	f = open_memstream(&text, &size);
	assert_non_null(f);
	exp_bench_print(&b, f);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(text, "| a.stall | 3 | 1.6 | 0 | 1.6 to 1.6 | "
				     "1.6 | 1.6 | s | the stall |\n"));
	assert_non_null(strstr(text, "| a.rate | 2 | 2000 | 0 | 2000 to 2000 "
				     "| 2000 | 2000 | Mbit/s | moved |\n"));
	/* One run: no interval. */
	assert_non_null(strstr(text, "| a.one | 1 | 0.25 | "));
	assert_non_null(strstr(text, " | - | 0.25 | 0.25 | ratio | alone |\n"));
	free(text);
	exp_bench_free(&b);
}

static void test_refused(void **state)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{"x\nfigure a.b\n", "2: a figure needs a name and a value"},
		{"figure a.b 1e2x s\n", "1: a.b's value `1e2x' is no number"},
		{"figure a.b inf s\n", "1: a.b's value `inf' is no number"},
		{"figure a 1 s\nfigure a 2 ms\n",
		 "2: a in `ms', earlier in `s'"},
	};
	char err[DARD_ERR_MAX], name[200], line[256];
	struct exp_bench b;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&b, 0, sizeof(b));
		assert_int_equal(add(&b, bad[i].text, err), -EINVAL);
		assert_string_equal(err, bad[i].why);
		exp_bench_free(&b);
	}
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	memset(&b, 0, sizeof(b));
	snprintf(line, sizeof(line), "figure %.150s 1 s\n", name);
	assert_int_equal(add(&b, line, err), -EINVAL);
	assert_non_null(strstr(err, "name over"));
	exp_bench_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
