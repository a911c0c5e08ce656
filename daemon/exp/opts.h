/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-exp's options, one parser per command: each returns
 * DARD_OPTS_RUN (stdopts.h) with its struct filled, or the exit status
 * (0 after --help or --version, 2 for bad usage) with what to say, if
 * getopt has not, in err (DARD_ERR_MAX). usage prints the whole help.
 */
#ifndef _DARD_EXP_OPTS_H
#define _DARD_EXP_OPTS_H

#include <stdio.h>

/* Where the testbeds keep their state, as scripts/testbed's. */
#define EXP_TESTBED_DIR "/run/dard/testbed"

struct exp_sample_args {
	const char *prefix, *out;
	const char *state; /* --state, $DARD_TESTBED_DIR or the default */
	double interval;   /* s */
};

struct exp_report_args {
	const char *dir;
	const char *json; /* NULL: DIR/summary.json */
};

int exp_sample_opts(int argc, char **argv, struct exp_sample_args *a,
		    void (*usage)(FILE *), char *err);
int exp_report_opts(int argc, char **argv, struct exp_report_args *a,
		    void (*usage)(FILE *), char *err);

/* The commands' descriptions and options, for the program's --help. */
void exp_opts_help(FILE *f);

#endif /* _DARD_EXP_OPTS_H */
