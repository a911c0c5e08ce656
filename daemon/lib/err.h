/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* How libdard reports errors: a negative errno and a message. */
#ifndef _DARD_ERR_H
#define _DARD_ERR_H

/*
 * Formats the message into err (DARD_ERR_MAX bytes) when err is not NULL,
 * and returns ret, so that callers can write `return dard_fail(...)'.
 */
int dard_fail(char *err, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* _DARD_ERR_H */
