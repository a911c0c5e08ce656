// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Strict number parsing: what every program takes and what it refuses. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "err.h"
#include "num.h"
#include "topo.h"

static void test_integers(void **state)
{
	uint64_t v = 7;
	uint32_t w = 7;

	(void)state;
	assert_int_equal(dard_parse_u64("0", 0, 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(
		dard_parse_u64("18446744073709551615", 0, UINT64_MAX, &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(
		dard_parse_u64("18446744073709551616", 0, UINT64_MAX, &v),
		-ERANGE);
	assert_int_equal(dard_parse_u32("4294967295", 0, UINT32_MAX, &w), 0);
	assert_true(w == UINT32_MAX);
	/* The flow move of the security review: no 32-bit truncation. */
	w = 7;
	assert_int_equal(dard_parse_u32("4294967298", 0, UINT32_MAX, &w),
			 -ERANGE);
	assert_int_equal(w, 7);
	assert_int_equal(dard_parse_u32("11", 1, 10, &w), -ERANGE);
	assert_int_equal(dard_parse_u32("0", 1, 10, &w), -ERANGE);
}

static void test_integer_garbage(void **state)
{
	static const char *const bad[] = {"",	 " 1",	"+1",	"-1",
					  "1 ",	 "1x",	"0x10", "1e3",
					  "1.0", "inf", "nan",	"x"};
	uint64_t v = 7;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(dard_parse_u64(bad[i], 0, UINT64_MAX, &v),
				 -EINVAL);
	assert_int_equal(dard_parse_u64(NULL, 0, 1, &v), -EINVAL);
	assert_int_equal(v, 7);
}

static void test_doubles(void **state)
{
	static const char *const bad[] = {"",	  "nan",      "-nan",  "inf",
					  "-inf", "infinity", "0x1p3", "1e",
					  "1s",	  " 1",	      "."};
	double d = 7;
	unsigned i;

	(void)state;
	assert_int_equal(dard_parse_double("0.25", 0, 1, &d), 0);
	assert_true(d == 0.25);
	assert_int_equal(dard_parse_double("-1.5", -2, 0, &d), 0);
	assert_true(d == -1.5);
	assert_int_equal(dard_parse_double("1e2", 0, 1000, &d), 0);
	assert_true(d == 100);
	assert_int_equal(dard_parse_double(".5", 0, 1, &d), 0);
	assert_int_equal(dard_parse_double("1e400", 0, 1e300, &d), -ERANGE);
	assert_int_equal(dard_parse_double("2", 0, 1, &d), -ERANGE);
	d = 7;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(dard_parse_double(bad[i], -1e9, 1e9, &d),
				 -EINVAL);
	assert_true(d == 7);
}

static void test_seconds(void **state)
{
	uint64_t ns = 7;

	(void)state;
	assert_int_equal(dard_parse_seconds("1.5", 0, 3600, &ns), 0);
	assert_true(ns == 1500000000ULL);
	assert_int_equal(dard_parse_seconds("0.001", 0, 3600, &ns), 0);
	assert_true(ns == 1000000ULL);
	/* The sweep of the security review: huge, infinite and NaN idles. */
	ns = 7;
	assert_int_equal(dard_parse_seconds("1e20", 0, 86400, &ns), -ERANGE);
	assert_int_equal(dard_parse_seconds("inf", 0, 86400, &ns), -EINVAL);
	assert_int_equal(dard_parse_seconds("nan", 0, 86400, &ns), -EINVAL);
	assert_int_equal(dard_parse_seconds("-1", 0, 86400, &ns), -ERANGE);
	assert_true(ns == 7);
	assert_string_equal(dard_num_strerror(-ERANGE), "out of range");
	assert_string_equal(dard_num_strerror(-EINVAL), "not a number");
}

/* The one message every program gives for a refused number. */
static void test_fail(void **state)
{
	char err[DARD_ERR_MAX];
	uint64_t ns;
	int ret;

	(void)state;
	ret = dard_parse_seconds("x", 0.001, 86400, &ns);
	assert_int_equal(dard_num_fail(err, ret, "--query-interval", "x",
				       "seconds from 0.001 to 86400"),
			 -EINVAL);
	assert_string_equal(
		err,
		"Invalid --query-interval `x': not a number, expected seconds from 0.001 to 86400");
	ret = dard_parse_u64("65536", 1, 65535, &ns);
	assert_int_equal(dard_num_fail(err, ret, "port", "65536", "1-65535"),
			 -ERANGE);
	assert_string_equal(
		err, "Invalid port `65536': out of range, expected 1-65535");
	/* No domain to give; and no room for the text, only the return. */
	assert_int_equal(dard_num_fail(err, -EINVAL, "seed", "1.5", NULL),
			 -EINVAL);
	assert_string_equal(err, "Invalid seed `1.5': not a number");
	assert_int_equal(dard_num_fail(NULL, -ERANGE, "seed", "1", "2"),
			 -ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_integers),
		cmocka_unit_test(test_integer_garbage),
		cmocka_unit_test(test_doubles),
		cmocka_unit_test(test_seconds),
		cmocka_unit_test(test_fail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
