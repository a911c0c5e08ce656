/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* A growable text buffer, so the library can render without doing I/O. */
#ifndef _DARD_BUF_H
#define _DARD_BUF_H

#include <stddef.h>

struct dard_buf {
	char *s;
	size_t len, cap;
	int oom; /* an append failed; the text is incomplete */
};

void dard_buf_printf(struct dard_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void dard_buf_free(struct dard_buf *b);

#endif /* _DARD_BUF_H */
