// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The log's rate limiter, on an injected clock: the first line of a kind
 * goes out, then at most one a second saying how many were dropped; and
 * the lines that pass any level (libbpf's warnings).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "log.h"

#define MS 1000000ULL

static void test_limiter(void **state)
{
	struct dard_ratelimit rl = {0};
	uint64_t n = 99;

	(void)state;
	/* The first goes out at any time, the clock's zero too. */
	assert_true(dard_ratelimit(&rl, 0, &n));
	assert_int_equal(n, 0);
	/* Within the second: dropped and counted, n untouched. */
	n = 99;
	assert_false(dard_ratelimit(&rl, 1, &n));
	assert_false(dard_ratelimit(&rl, 500 * MS, &n));
	assert_false(dard_ratelimit(&rl, 1000 * MS - 1, &n));
	assert_int_equal(n, 99);
	/* A second after the last that went out: out, with the count. */
	assert_true(dard_ratelimit(&rl, 1000 * MS, &n));
	assert_int_equal(n, 3);
	/* The count starts again; the second runs from the last line. */
	assert_false(dard_ratelimit(&rl, 1500 * MS, &n));
	assert_true(dard_ratelimit(&rl, 2000 * MS, &n));
	assert_int_equal(n, 1);
	/* After a quiet spell, nothing was dropped. */
	assert_true(dard_ratelimit(&rl, 60000 * MS, &n));
	assert_int_equal(n, 0);
}

static void test_limiters_apart(void **state)
{
	struct dard_ratelimit a = {0}, b = {0};
	uint64_t n;

	(void)state;
	assert_true(dard_ratelimit(&a, 5 * MS, &n));
	/* Another kind of message has its own second. */
	assert_true(dard_ratelimit(&b, 6 * MS, &n));
	assert_false(dard_ratelimit(&a, 7 * MS, &n));
	assert_false(dard_ratelimit(&b, 8 * MS, &n));
}

/* What dard_log_ratelimited wrote to stderr while fn ran. */
static void logged(void (*fn)(struct dard_ratelimit *),
		   struct dard_ratelimit *rl, char *out, size_t size)
{
	FILE *f = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t len;

	assert_non_null(f);
	assert_true(saved >= 0);
	fflush(stderr);
	assert_true(dup2(fileno(f), STDERR_FILENO) >= 0);
	fn(rl);
	fflush(stderr);
	assert_true(dup2(saved, STDERR_FILENO) >= 0);
	close(saved);
	rewind(f);
	len = fread(out, 1, size - 1, f);
	out[len] = 0;
	fclose(f);
}

static void burst(struct dard_ratelimit *rl)
{
	uint64_t t;

	for (t = 0; t <= 1000 * MS; t += 100 * MS)
		dard_log_ratelimited(rl, t, DARD_LOG_WARN, "rejected %llu",
				     (unsigned long long)(t / MS));
	/* Below the log's level: neither said nor counted. */
	dard_log_ratelimited(rl, 2500 * MS, DARD_LOG_DEBUG, "noise");
	dard_log_ratelimited(rl, 2600 * MS, DARD_LOG_WARN, "quiet");
}

static void test_log_lines(void **state)
{
	struct dard_ratelimit rl = {0};
	char out[512];

	(void)state;
	dard_log_init("t", DARD_LOG_INFO);
	logged(burst, &rl, out, sizeof(out));
	assert_string_equal(
		out, "t: warning: rejected 0\n"
		     "t: warning: rejected 1000 (9 more like it suppressed)\n"
		     "t: warning: quiet\n");
}

static void quiet(struct dard_ratelimit *rl)
{
	(void)rl;
	dard_log(DARD_LOG_WARN, "dropped under -q");
	dard_log_always(DARD_LOG_WARN, "libbpf: the verifier said no");
	dard_log(DARD_LOG_ERR, "an error");
}

/* Under -q only errors go out, and what must always reach the operator. */
static void test_always(void **state)
{
	char out[512];

	(void)state;
	dard_log_init("t", DARD_LOG_ERR);
	logged(quiet, NULL, out, sizeof(out));
	assert_string_equal(out, "t: warning: libbpf: the verifier said no\n"
				 "t: error: an error\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_limiter),
		cmocka_unit_test(test_limiters_apart),
		cmocka_unit_test(test_log_lines),
		cmocka_unit_test(test_always),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
