/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-exp bench: the figures the tests print (tests/lib.sh's figure:
 * `figure NAME VALUE UNIT [WHAT]'), gathered from the logs of repeated
 * runs into each figure's mean, deviation and 95% interval (libdard's
 * stats.c): what make bench makes of the rates and times the tests
 * measure but never judge.
 */
#ifndef _DARD_EXP_BENCH_H
#define _DARD_EXP_BENCH_H

#include <stddef.h>
#include <stdio.h>

enum {
	EXP_BENCH_NAME_MAX = 96,
	EXP_BENCH_UNIT_MAX = 24,
	EXP_BENCH_WHAT_MAX = 200
};

/* One figure: its values in the order met, and what it is. */
struct exp_bfig {
	char name[EXP_BENCH_NAME_MAX];
	char unit[EXP_BENCH_UNIT_MAX];
	char what[EXP_BENCH_WHAT_MAX];
	double *v;
	size_t n, cap;
	size_t nan; /* values that were no number (nan): not in v */
};

struct exp_bench {
	struct exp_bfig *fig; /* in the order first met */
	size_t n, cap;
};

/*
 * Adds the figure lines of text (len bytes; other lines are skipped) to
 * b. A figure line with a name too long, no value, a value that is no
 * number (but nan, counted apart) or a unit that differs from the
 * figure's earlier one is refused: -EINVAL with "LINE: why" in err
 * (DARD_ERR_MAX). Returns 0, or -ENOMEM. Pure.
 */
int exp_bench_add(struct exp_bench *b, const char *text, size_t len, char *err);
void exp_bench_free(struct exp_bench *b);

/*
 * b as a markdown table: per figure its runs, mean, sd, 95% interval,
 * least and largest (three significant digits; whole numbers from 100
 * as they are; what rounding leaves of 0 is 0), unit and what it is.
 */
void exp_bench_print(const struct exp_bench *b, FILE *out);

/* The command, from its own argv ("bench" first): the exit status. */
int exp_bench_cmd(int argc, char **argv, void (*usage)(FILE *));

#endif /* _DARD_EXP_BENCH_H */
