// SPDX-License-Identifier: GPL-2.0 OR MIT
/* libbpf's print callback: filter by level, never silence. */
#include <stdarg.h>
#include <stdio.h>
#include <bpf/libbpf.h>

#include "bpflog.h"

static int bpf_verbose;

static int print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG && !bpf_verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

void dard_bpf_log(int verbose)
{
	bpf_verbose = verbose;
	libbpf_set_print(print);
}
