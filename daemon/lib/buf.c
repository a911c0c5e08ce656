// SPDX-License-Identifier: GPL-2.0 OR MIT
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "buf.h"

void dard_buf_printf(struct dard_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->oom)
		return;
	for (;;) {
		size_t room = b->cap - b->len;

		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = 1;
			return;
		}
		if ((size_t)n < room) {
			b->len += n;
			return;
		}
		size_t cap = b->cap ? b->cap * 2 : 4096;
		while (cap - b->len <= (size_t)n)
			cap *= 2;
		char *s = realloc(b->s, cap);
		if (!s) {
			b->oom = 1;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
}

void dard_buf_free(struct dard_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
	b->oom = 0;
}
