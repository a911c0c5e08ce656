// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's command line: defaults, every number through num.h (finite,
 * in range, no trailing text), delta as Mbit/s or a percentage.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <fcntl.h>
#include <getopt.h>
#include <unistd.h>
#include <cmocka.h>

#include "dardd_priv.h"
#include "log.h"
#include "proto.h"

/* Parses argv (NULL-terminated); returns what dardd_opts_parse does. */
static int parse(struct dardd_opts *o, int *code, const char **args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = (char *)"dardd";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	optind = 0; /* getopt starts over */
	return dardd_opts_parse(o, argc, argv, code);
}

#define PARSE(o, code, ...) parse(o, code, (const char *[]){__VA_ARGS__, NULL})

static void test_defaults(void **state)
{
	struct dardd_opts o;
	int code = -1;

	(void)state;
	assert_int_equal(PARSE(&o, &code, "e1_1"), 0);
	assert_string_equal(o.host, "e1_1");
	assert_string_equal(o.ifname, "eth0");
	assert_null(o.config);
	assert_true(o.query_ns == 1000000000ULL);
	assert_true(o.schedule_ns == 5000000000ULL);
	assert_true(o.idle_ns == 10000000000ULL);
	assert_true(o.age_ns == 10000000000ULL);
	assert_true(o.max_age_ns == 3000000000ULL);
	assert_true(o.sweep_ns == 1000000000ULL);
	assert_true(o.delta_mbps == 10);
	assert_int_equal(o.delta_is_frac, 0);
	assert_int_equal(o.switch_port, DARD_PROTO_PORT);
	assert_int_equal(o.log_level, DARD_LOG_INFO);
}

static void test_values(void **state)
{
	struct dardd_opts o;
	int code = -1;

	(void)state;
	assert_int_equal(PARSE(&o, &code, "-c", "/x.conf", "-i", "fab0",
			       "--query-interval", "0.1", "-S", "2", "--idle",
			       "2", "-p", "9000", "-v", "h"),
			 0);
	assert_string_equal(o.config, "/x.conf");
	assert_string_equal(o.ifname, "fab0");
	assert_true(o.query_ns == 100000000ULL);
	assert_true(o.max_age_ns == 300000000ULL);
	assert_true(o.schedule_ns == 2000000000ULL);
	/* A quarter of the idle time, under a second. */
	assert_true(o.sweep_ns == 500000000ULL);
	assert_int_equal(o.switch_port, 9000);
	assert_int_equal(o.log_level, DARD_LOG_DEBUG);
	/* delta: the last one wins, whichever kind. */
	assert_int_equal(PARSE(&o, &code, "-d", "25%", "h"), 0);
	assert_int_equal(o.delta_is_frac, 1);
	assert_true(o.delta_frac == 0.25);
	assert_true(o.delta_mbps == 0);
	assert_int_equal(PARSE(&o, &code, "-d", "25%", "-d", "2.5", "h"), 0);
	assert_int_equal(o.delta_is_frac, 0);
	assert_true(o.delta_mbps == 2.5);
	assert_int_equal(PARSE(&o, &code, "-d", "0", "h"), 0);
	assert_true(o.delta_mbps == 0);
	assert_int_equal(PARSE(&o, &code, "-d", "100%", "h"), 0);
	assert_true(o.delta_frac == 1);
}

/* Bad values: exit status 2, and dardd does not run. */
static void test_bad(void **state)
{
	static const char *bad[][2] = {
		{"-Q", "-1"},	{"-Q", "0"},	 {"-Q", "nan"},
		{"-Q", "inf"},	{"-S", "1e20"},	 {"-I", "86401"},
		{"-e", "1s"},	{"-Q", ""},	 {"-d", "5x"},
		{"-d", "150%"}, {"-d", "inf"},	 {"-d", "-1"},
		{"-d", "%"},	{"-d", "1e300"}, {"-d", "10%%"},
		{"-p", "0"},	{"-p", "65536"}, {"-p", "4294967297"},
		{"-p", "-1"},	{"-p", "80x"},
	};
	struct dardd_opts o;
	unsigned i;
	int code, err = dup(2), null = open("/dev/null", O_WRONLY);

	(void)state;
	/* Their messages are tests/cli's business: quiet here. */
	assert_true(err >= 0 && null >= 0);
	dup2(null, 2);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		code = -1;
		if (PARSE(&o, &code, bad[i][0], bad[i][1], "h") != 1 ||
		    code != 2) {
			dup2(err, 2);
			fail_msg("%s `%s' was taken", bad[i][0], bad[i][1]);
		}
	}
	/* No host, two hosts, an unknown option. */
	assert_int_equal(parse(&o, &code, (const char *[]){NULL}), 1);
	assert_int_equal(code, 2);
	assert_int_equal(PARSE(&o, &code, "a", "b"), 1);
	assert_int_equal(code, 2);
	assert_int_equal(PARSE(&o, &code, "--bogus", "a"), 1);
	assert_int_equal(code, 2);
	/* Help and version end dardd with 0. */
	assert_int_equal(PARSE(&o, &code, "-V"), 1);
	dup2(err, 2);
	close(err);
	close(null);
	assert_int_equal(code, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
