// SPDX-License-Identifier: GPL-2.0 OR MIT
#include <stdarg.h>
#include <stdio.h>

#include "err.h"
#include "topo.h"

int dard_fail(char *err, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err, DARD_ERR_MAX, fmt, ap);
		va_end(ap);
	}
	return ret;
}
