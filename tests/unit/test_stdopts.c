// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The options every program shares (daemon/common/stdopts.c): -v and -q
 * set the level, -V and -h end with 0, anything else with 2 and the
 * usage on stderr.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include "log.h"
#include "stdopts.h"

static FILE *usage_to;
static unsigned usages;

static void usage(FILE *f)
{
	usage_to = f;
	usages++;
}

static void test_level(void **state)
{
	int level = DARD_LOG_INFO;

	(void)state;
	assert_int_equal(dard_common_opt('v', "p", &level, usage),
			 DARD_OPTS_RUN);
	assert_int_equal(level, DARD_LOG_DEBUG);
	assert_int_equal(dard_common_opt('q', "p", &level, usage),
			 DARD_OPTS_RUN);
	assert_int_equal(level, DARD_LOG_ERR);
	assert_int_equal(usages, 0);
	/* A program without a log level takes neither. */
	assert_int_equal(dard_common_opt('v', "p", NULL, usage), 2);
	assert_ptr_equal(usage_to, stderr);
}

static void test_help_and_others(void **state)
{
	int level = DARD_LOG_INFO, out, null, ret;

	(void)state;
	usages = 0;
	assert_int_equal(dard_common_opt('h', "p", &level, usage), 0);
	assert_ptr_equal(usage_to, stdout);
	assert_int_equal(dard_common_opt('?', "p", &level, usage), 2);
	assert_ptr_equal(usage_to, stderr);
	assert_int_equal(dard_common_opt('x', "p", &level, usage), 2);
	assert_int_equal(usages, 3);
	assert_int_equal(level, DARD_LOG_INFO);
	/* -V prints the version, not the usage: quiet here. */
	out = dup(1);
	null = open("/dev/null", O_WRONLY);
	assert_true(out >= 0 && null >= 0);
	fflush(stdout);
	dup2(null, 1);
	ret = dard_common_opt('V', "p", &level, usage);
	fflush(stdout);
	dup2(out, 1);
	close(out);
	close(null);
	assert_int_equal(ret, 0);
	assert_int_equal(usages, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_level),
		cmocka_unit_test(test_help_and_others),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
