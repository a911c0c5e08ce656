/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* dard-sim's parts: options (opts.c), demands, and one file per mode. */
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

/* Everything the options choose; sim_args_init gives the defaults. */
struct sim_args {
	unsigned mode; /* SIM_PLACE or SIM_RUN once parsed */
	const char *topo;
	uint64_t seed;
	/* --place */
	const char *algo_name, *demand;
	int algo; /* index for sim_place's algorithms */
	/* --run */
	const char *sched, *pattern_name, *csv;
	int want[DARD_SIM_NSCHED]; /* the schedulers --sched names */
	int pattern;
	double rate, size, duration, step, age, large;
	uint32_t anneal;
};

/* sim_opts_parse's answer when a mode is to run. */
enum { SIM_GO = -1 };

/*
 * Fills a from the command line. SIM_GO when a mode is to run, else the
 * exit status: 0 after --help or --version, 2 for bad usage (said).
 */
int sim_opts_parse(int argc, char **argv, struct sim_args *a);

/* The --place algorithm named s: its index, or -1. */
int sim_algo_find(const char *s);

/*
 * A demand for --place: the pattern named by spec (one flow per host), or
 * the file of `SRC DST' lines it names. The number of flows into *out, or
 * -1 with err set ("PATH:LINE: ..." for a bad line).
 */
long sim_demand(const struct dard_topo *t, const char *spec, uint64_t seed,
		struct dard_demand **out, char *err, size_t errlen);

/* The modes: the exit status (0, 1, or 2 for bad usage), errors said. */
int sim_place(const struct dard_topo *t, const struct dard_plan *p,
	      const struct sim_args *a);
int sim_run(const struct dard_topo *t, const struct dard_plan *p,
	    const struct sim_args *a);

#endif /* _DARD_SIM_H */
