// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The control line as dardd checks it (ctlsock.h): one word and a
 * newline, or the reason it is refused; and what a log line shows of it.
 * A client's connect to a listener that takes no connection gives up.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cmocka.h>

#include "ctlsock.h"

static int line(const char *s, size_t len, char *cmd)
{
	return dard_ctl_line(s, len, cmd);
}

static void test_line(void **state)
{
	char cmd[DARD_CTL_LINE_MAX], big[DARD_CTL_LINE_MAX];

	(void)state;
	assert_int_equal(line("stats\n", 6, cmd), 0);
	assert_string_equal(cmd, "stats");
	assert_int_equal(line("frob\n", 5, cmd), 0);
	assert_string_equal(cmd, "frob");
	/* Words, one space apart: a command and its arguments. */
	assert_int_equal(line("sched pvlb 2\n", 13, cmd), 0);
	assert_string_equal(cmd, "sched pvlb 2");
	/* No newline (a client that stalled or hung up), or an empty line. */
	assert_int_equal(line("stats", 5, cmd), DARD_CTL_MALFORMED);
	assert_string_equal(cmd, "");
	assert_int_equal(line("", 0, cmd), DARD_CTL_MALFORMED);
	assert_int_equal(line("\n", 1, cmd), DARD_CTL_MALFORMED);
	/* A second line, blanks, control bytes, a NUL, bytes past ASCII. */
	assert_int_equal(line("stats\nflows\n", 12, cmd), DARD_CTL_MALFORMED);
	assert_int_equal(line("stats \n", 7, cmd), DARD_CTL_MALFORMED);
	assert_int_equal(line(" stats\n", 7, cmd), DARD_CTL_MALFORMED);
	assert_int_equal(line("sched  off\n", 11, cmd), DARD_CTL_MALFORMED);
	assert_int_equal(line("sched\toff\n", 10, cmd), DARD_CTL_MALFORMED);
	assert_int_equal(line("stats\r\n", 7, cmd), DARD_CTL_MALFORMED);
	assert_int_equal(line("st\001ts\n", 6, cmd), DARD_CTL_MALFORMED);
	assert_int_equal(line("st\0ts\n", 6, cmd), DARD_CTL_MALFORMED);
	assert_int_equal(line("st\xc3\xa9\n", 5, cmd), DARD_CTL_MALFORMED);
	/* The longest word fits; a full buffer without a newline is too long.
	 */
	memset(big, 'x', sizeof(big));
	big[sizeof(big) - 1] = '\n';
	assert_int_equal(line(big, sizeof(big), cmd), 0);
	assert_int_equal(strlen(cmd), DARD_CTL_LINE_MAX - 1);
	big[sizeof(big) - 1] = 'x';
	assert_int_equal(line(big, sizeof(big), cmd), DARD_CTL_OVERSIZED);
	assert_int_equal(line(big, sizeof(big) - 1, cmd), DARD_CTL_MALFORMED);
}

static void test_names(void **state)
{
	char s[8];

	(void)state;
	assert_string_equal(dard_ctl_refusal_name(DARD_CTL_NOT_ROOT),
			    "not_root");
	assert_string_equal(dard_ctl_refusal_name(DARD_CTL_UNKNOWN), "unknown");
	assert_string_equal(dard_ctl_refusal_name(DARD_CTL_INVALID), "invalid");
	assert_string_equal(dard_ctl_refusal_name(__DARD_CTL_REFUSALS), "?");
	assert_string_equal(dard_ctl_refusal_name(-1), "?");
	dard_ctl_printable("a\001b\n\0z", 6, s, sizeof(s));
	assert_string_equal(s, "a?b??z");
	dard_ctl_printable("abcdefghij", 10, s, sizeof(s));
	assert_string_equal(s, "abcdefg");
}

/*
 * A listener whose queue is full (a stopped daemon's: backlog 0, and a
 * connection it never took) times a connect out; none there, or bound
 * but not listening, fail at once.
 */
static void test_connect(void **state)
{
	char dir[] = "/tmp/dard-ctlsock-XXXXXX";
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	int l, first, fd;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s/s.sock", dir);
	assert_int_equal(dard_unix_connect(&sun, sizeof(sun), 50), -ENOENT);
	l = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_true(l >= 0);
	assert_int_equal(bind(l, (struct sockaddr *)&sun, sizeof(sun)), 0);
	assert_int_equal(dard_unix_connect(&sun, sizeof(sun), 50),
			 -ECONNREFUSED);
	assert_int_equal(listen(l, 0), 0);
	first = dard_unix_connect(&sun, sizeof(sun), 50);
	assert_true(first >= 0);
	assert_int_equal(dard_unix_connect(&sun, sizeof(sun), 50), -ETIMEDOUT);
	/* Taken, the queue has room again. */
	close(accept(l, NULL, NULL));
	fd = dard_unix_connect(&sun, sizeof(sun), 50);
	assert_true(fd >= 0);
	close(fd);
	close(first);
	close(l);
	unlink(sun.sun_path);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_connect),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
