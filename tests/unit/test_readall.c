// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard_read_all: whole streams, the size bound, and read errors;
 * dard_read_all_by: a peer that never ends its answer times out.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include <cmocka.h>

#include "clock.h"
#include "readall.h"

/* A file of n bytes (0, 1, ..., 250, 0, ...), rewound. */
static int file_of(size_t n)
{
	FILE *f = tmpfile();
	size_t i;
	int fd;

	assert_non_null(f);
	for (i = 0; i < n; i++)
		assert_int_not_equal(fputc(i % 251, f), EOF);
	assert_int_equal(fflush(f), 0);
	fd = dup(fileno(f));
	assert_true(fd >= 0);
	fclose(f);
	assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
	return fd;
}

static void test_empty(void **state)
{
	int fd = file_of(0);
	size_t len = 7;
	char *buf = NULL;

	(void)state;
	assert_int_equal(dard_read_all(fd, 0, &buf, &len), 0);
	assert_int_equal(len, 0);
	assert_non_null(buf);
	assert_string_equal(buf, "");
	free(buf);
	close(fd);
}

/* Past the first buffer, so it grows; the bytes come back in order. */
static void test_grows(void **state)
{
	const size_t n = 300000;
	int fd = file_of(n);
	char *buf = NULL;
	size_t len, i;

	(void)state;
	assert_int_equal(dard_read_all(fd, 1 << 20, &buf, &len), 0);
	assert_int_equal(len, n);
	for (i = 0; i < n; i++)
		if ((unsigned char)buf[i] != i % 251)
			fail_msg("byte %zu is %u", i, (unsigned char)buf[i]);
	assert_int_equal(buf[n], '\0');
	free(buf);
	close(fd);
}

/* max bytes are read; one more is refused and nothing is returned. */
static void test_bound(void **state)
{
	static const size_t max[] = {0, 1, 65535, 65536, 65537, 200000};
	char *buf, *keep = (char *)"untouched";
	size_t len, i;
	int fd;

	(void)state;
	for (i = 0; i < sizeof(max) / sizeof(max[0]); i++) {
		fd = file_of(max[i]);
		assert_int_equal(dard_read_all(fd, max[i], &buf, &len), 0);
		assert_int_equal(len, max[i]);
		free(buf);
		close(fd);

		fd = file_of(max[i] + 1);
		buf = keep;
		len = 42;
		assert_int_equal(dard_read_all(fd, max[i], &buf, &len), -EFBIG);
		assert_ptr_equal(buf, keep);
		assert_int_equal(len, 42);
		close(fd);
	}
}

/* Errors of read come back as -errno. */
static void test_read_errors(void **state)
{
	char *buf = (char *)"untouched";
	size_t len = 42;
	int fd;

	(void)state;
	assert_int_equal(dard_read_all(-1, 100, &buf, &len), -EBADF);
	fd = open("/", O_RDONLY | O_DIRECTORY);
	assert_true(fd >= 0);
	assert_int_equal(dard_read_all(fd, 100, &buf, &len), -EISDIR);
	/* A bound whose max + 2 would wrap is refused, not read as 0. */
	assert_int_equal(dard_read_all(fd, SIZE_MAX, &buf, &len), -EINVAL);
	assert_int_equal(dard_read_all(fd, SIZE_MAX / 2, &buf, &len), -EINVAL);
	close(fd);
	assert_string_equal(buf, "untouched");
	assert_int_equal(len, 42);
}

/* A stream without end stops at the bound. */
static void test_endless(void **state)
{
	int fd = open("/dev/zero", O_RDONLY);
	char *buf;
	size_t len;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(dard_read_all(fd, 1 << 20, &buf, &len), -EFBIG);
	close(fd);
}

/* CLOCK_MONOTONIC ms from now (negative: past). */
static uint64_t in_ms(int ms)
{
	return dard_clock_ns(CLOCK_MONOTONIC) + (int64_t)ms * 1000000;
}

/*
 * A peer that says nothing, or stops before its end: -ETIMEDOUT, nothing
 * returned. What came with its end is read, even past the deadline.
 */
static void test_deadline(void **state)
{
	char *buf, *keep = (char *)"untouched";
	size_t len = 42;
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	buf = keep;
	assert_int_equal(dard_read_all_by(sv[0], 100, in_ms(50), &buf, &len),
			 -ETIMEDOUT);
	assert_int_equal(write(sv[1], "ab", 2), 2);
	assert_int_equal(dard_read_all_by(sv[0], 100, in_ms(50), &buf, &len),
			 -ETIMEDOUT);
	assert_ptr_equal(buf, keep);
	assert_int_equal(len, 42);
	/* The rest and the end, there before a deadline long past. */
	assert_int_equal(write(sv[1], "c", 1), 1);
	assert_int_equal(shutdown(sv[1], SHUT_WR), 0);
	assert_int_equal(dard_read_all_by(sv[0], 100, in_ms(-1000), &buf, &len),
			 0);
	assert_int_equal(len, 1);
	assert_string_equal(buf, "c");
	free(buf);
	close(sv[0]);
	close(sv[1]);
	assert_int_equal(dard_read_all_by(-1, 100, in_ms(50), &buf, &len),
			 -EBADF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_grows),
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_read_errors),
		cmocka_unit_test(test_endless),
		cmocka_unit_test(test_deadline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
