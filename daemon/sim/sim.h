/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-sim's parts: options (opts.c) and their help (help.c), demands
 * (demand.c), flow files (flows.c), failures and degraded links
 * (fail.c), and one file per
 * mode.
 */
#ifndef _DARD_SIM_H
#define _DARD_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "flowsim.h"
#include "route.h"

/* The modes, as bits: an option names those it applies to. */
enum sim_mode {
	SIM_PLACE = 1U << 0,
	SIM_RUN = 1U << 1,
};

enum { SIM_FAIL_MAX = 64 }; /* --fail options, and --degrade options */

/* Everything the options choose; sim_opts_parse gives the defaults. */
struct sim_args {
	unsigned mode; /* SIM_PLACE or SIM_RUN once parsed */
	const char *topo;
	/* seed (both modes), and --run's step, age, anneal and large */
	struct dard_sim_opts sim;
	/* --place */
	const char *algo_name, *demand;
	int algo; /* index for sim_place's algorithms */
	/* --run; link and goodput are in sim */
	const char *sched, *pattern_name, *csv;
	const char *flows; /* --flows FILE, or NULL: generated traffic */
	int want[DARD_SIM_NSCHED]; /* the schedulers --sched names */
	int pattern;
	double rate, size, duration;
	/* --workload (enum dard_workload, 0: none) and its --load */
	const char *workload_name;
	int workload;
	double load;
	const char *fail[SIM_FAIL_MAX]; /* --fail specs, fail.c */
	size_t nfail;
	const char *degrade[SIM_FAIL_MAX]; /* --degrade specs, fail.c */
	size_t ndegrade;
};

/*
 * Fills a from the command line: DARD_OPTS_RUN (stdopts.h) when a mode
 * is to run, else the exit status (0 after --help or --version, 2 for bad
 * usage) with what to say (if getopt has not) in err (DARD_ERR_MAX).
 */
int sim_opts_parse(int argc, char **argv, struct sim_args *a, char *err);

/* --help: the usage (help.c), and the options' lines of a mode's part. */
void sim_usage(FILE *f);
void sim_print_opts(FILE *f, unsigned section);

/* The --place algorithm named s: its index, or -1. */
int sim_algo_find(const char *s);

/*
 * A demand for --place: the pattern named by spec (one flow per host), or
 * the file of `SRC DST' lines it names. The number of flows into *out, or
 * -1 with err set ("PATH:LINE: ..." for a bad line).
 */
long sim_demand(const struct dard_topo *t, const char *spec, uint64_t seed,
		struct dard_demand **out, char *err, size_t errlen);

/*
 * Reads path whole into *text (NUL-terminated; free() it), *len bytes
 * of at most max: 0, or -1 with what went wrong, naming path, in err.
 */
int sim_read_file(const char *path, size_t max, char **text, size_t *len,
		  char *err, size_t errlen);

/*
 * The flows of the flow file at path (flowfile.h), sorted by start, into
 * *out and their numbers into *ids: how many, or -1 with err set
 * ("PATH:LINE: ..." for a bad line).
 */
long sim_flows(const struct dard_topo *t, const char *path,
	       struct dard_tflow **out, uint64_t **ids, char *err,
	       size_t errlen);

/*
 * The --fail specs resolved on t into *out (*n of them; NULL, 0 when
 * none): 0, or a negative errno with what was wrong in err.
 */
int sim_fail_resolve(const struct dard_topo *t, const struct sim_args *a,
		     struct dard_sim_fail **out, size_t *n, char *err);
/* The same for the --degrade specs: each link once at most. */
int sim_degrade_resolve(const struct dard_topo *t, const struct sim_args *a,
			struct dard_sim_degrade **out, size_t *n, char *err);

/* The modes: the exit status (0, 1, or 2 for bad usage), errors said. */
int sim_place(const struct dard_topo *t, const struct dard_plan *p,
	      const struct sim_args *a);
int sim_run(const struct dard_topo *t, const struct dard_plan *p,
	    const struct sim_args *a);

#endif /* _DARD_SIM_H */
