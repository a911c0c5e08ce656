/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-sim's option table's entry and the parsers it names: each takes
 * one option's argument into struct sim_args (at the entry's off, for the
 * numbers), 0, or a negative errno with why in err.
 */
#ifndef _DARD_SIM_OPTPARSE_H
#define _DARD_SIM_OPTPARSE_H

#include <stddef.h>

#include "sim.h"

struct sim_opt;
/* 0, or a negative errno with why in err (the exit status is then 2). */
typedef int (*opt_parse_fn)(const struct sim_opt *o, const char *arg,
			    struct sim_args *a, char *err);

enum opt_flags {
	OPT_ABOVE_MIN = 1U << 0, /* a number must exceed min, not reach it */
	OPT_OR_ZERO = 1U << 1,	 /* 0 is taken as well as [min, max] */
	OPT_TRAFFIC = 1U << 2,	 /* draws the traffic: not with --flows */
};

struct sim_opt {
	const char *name;
	int val;	    /* getopt's: the short option's letter */
	unsigned modes;	    /* SIM_PLACE | SIM_RUN: where it applies */
	opt_parse_fn parse; /* NULL: a flag, handled by the caller */
	size_t off;	    /* where parse stores, in struct sim_args */
	double min, max;    /* a number's bounds */
	unsigned flags;	    /* enum opt_flags */
	const char *domain; /* what a number may be, for messages */
	unsigned help_in;   /* the --help section listing it */
	const char *help;   /* its lines there */
};

int opt_string(const struct sim_opt *o, const char *arg, struct sim_args *a,
	       char *err);
int opt_double(const struct sim_opt *o, const char *arg, struct sim_args *a,
	       char *err);
int opt_u32(const struct sim_opt *o, const char *arg, struct sim_args *a,
	    char *err);
int opt_u64(const struct sim_opt *o, const char *arg, struct sim_args *a,
	    char *err);
int opt_algo(const struct sim_opt *o, const char *arg, struct sim_args *a,
	     char *err);
int opt_pattern(const struct sim_opt *o, const char *arg, struct sim_args *a,
		char *err);
int opt_workload(const struct sim_opt *o, const char *arg, struct sim_args *a,
		 char *err);
int opt_sched(const struct sim_opt *o, const char *arg, struct sim_args *a,
	      char *err);
int opt_fail_spec(const struct sim_opt *o, const char *arg, struct sim_args *a,
		  char *err);
int opt_degrade_spec(const struct sim_opt *o, const char *arg,
		     struct sim_args *a, char *err);

#endif /* _DARD_SIM_OPTPARSE_H */
