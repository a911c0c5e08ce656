// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Reading a whole stream, for cfgfile.c and dardctl's dardd answers. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "readall.h"

/* The first buffer: most configuration files and answers fit. */
enum { READ_FIRST = 65536 };

int dard_read_all(int fd, size_t max, char **buf, size_t *len)
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
