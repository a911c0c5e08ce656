// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Reading a whole stream, for cfgfile.c and dardctl's dardd answers. */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "clock.h"
#include "readall.h"

/* The first buffer: most configuration files and answers fit. */
enum { READ_FIRST = 65536 };

/* dard_read_all's: files, whose reads wait on no peer. */
#define NO_DEADLINE UINT64_MAX

/* 0 once fd has a byte, its end or an error to read; -ETIMEDOUT past by. */
static int readable_by(int fd, uint64_t by)
{
	struct pollfd p = {.fd = fd, .events = POLLIN};
	uint64_t now, ms;
	int n;

	/* poll skips a negative fd: it would wait, then time out. */
	if (fd < 0)
		return -EBADF;
	for (;;) {
		now = dard_clock_ns(CLOCK_MONOTONIC);
		/* Rounded up: poll never returns before the deadline. */
		ms = now < by ? (by - now + 999999) / 1000000 : 0;
		n = poll(&p, 1, ms > INT_MAX ? INT_MAX : (int)ms);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
		if (!n && !ms)
			return -ETIMEDOUT;
	}
}

static int read_all(int fd, size_t max, uint64_t by, char **buf, size_t *len)
{
	size_t n = 0, cap = 0;
	char *b = NULL;
	ssize_t r;
	int ret;

	/* max + 2 bytes must be countable (readall.h). */
	if (max >= SIZE_MAX / 2)
		return -EINVAL;
	for (;;) {
		if (n == cap) {
			/* Room for max + 1 bytes tells a stream too long. */
			size_t want = cap ? cap * 2 : READ_FIRST;
			char *p;

			if (want > max + 1)
				want = max + 1;
			p = realloc(b, want + 1);
			if (!p) {
				ret = -ENOMEM;
				goto err;
			}
			b = p;
			cap = want;
		}
		if (by != NO_DEADLINE) {
			ret = readable_by(fd, by);
			if (ret)
				goto err;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			goto err;
		}
		if (!r)
			break;
		n += r;
		if (n > max) {
			ret = -EFBIG;
			goto err;
		}
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
err:
	free(b);
	return ret;
}

int dard_read_all(int fd, size_t max, char **buf, size_t *len)
{
	return read_all(fd, max, NO_DEADLINE, buf, len);
}

int dard_read_all_by(int fd, size_t max, uint64_t by, char **buf, size_t *len)
{
	return read_all(fd, max, by, buf, len);
}
