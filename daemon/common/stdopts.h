/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The options every program shares, and the one convention of their
 * parsers: a parser returns DARD_OPTS_RUN when the program is to run,
 * else the exit status (0 after --help or --version, 2 for bad usage).
 * A value it refuses goes into the caller's err (num.h's dard_num_fail
 * for numbers), and main prints it once, with the program's prefix.
 */
#ifndef _DARD_STDOPTS_H
#define _DARD_STDOPTS_H

#include <getopt.h>
#include <stdio.h>

enum { DARD_OPTS_RUN = -1 };

/* getopt_long rows for -v, -q, and -V with -h: a program lists its own. */
/* clang-format off */
#define DARD_OPTS_VERBOSE	{"verbose", no_argument, NULL, 'v'}
#define DARD_OPTS_QUIET		{"quiet", no_argument, NULL, 'q'}
#define DARD_OPTS_INFO		{"version", no_argument, NULL, 'V'}, \
				{"help", no_argument, NULL, 'h'}
#define DARD_OPTS_COMMON	DARD_OPTS_VERBOSE, DARD_OPTS_QUIET, DARD_OPTS_INFO
/* clang-format on */

/*
 * An option the program's own switch does not take: -v and -q set *level
 * (enum dard_log_level; when level is not NULL) and return DARD_OPTS_RUN;
 * -V prints "PROG VERSION" and -h the usage on stdout, returning 0; any
 * other (getopt has said what) prints the usage on stderr and returns 2.
 */
int dard_common_opt(int opt, const char *prog, int *level,
		    void (*usage)(FILE *));

#endif /* _DARD_STDOPTS_H */
