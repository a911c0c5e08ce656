/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The fidelity checks on what the sampler recorded, and the
 * calibration's (thresholds.h): pure functions of the samples, each
 * adding its reasons, or why it could not judge, to a verdict.
 */
#ifndef _DARD_EXP_FIDELITY_H
#define _DARD_EXP_FIDELITY_H

#include <stddef.h>

#include "exp.h"

/* A cpu.csv row: epoch seconds, idle share since the sample before. */
struct exp_cpu_sample {
	double t, idle;
};

/* A links.csv row: cumulative counters read at t. */
struct exp_link_sample {
	double t;
	const char *node, *dev;
	double tx_bytes, drops;
};

/* What the cpu check found over its window. */
struct exp_cpu_figures {
	unsigned n;  /* samples in it */
	double idle; /* their mean idle share; NAN without any */
	double busy; /* the share of them under EXP_CPU_IDLE_MIN */
};

/*
 * cpu: the samples taken in [from, to] (epoch seconds); not faithful
 * when more than EXP_CPU_BUSY_MAX of them have an idle share under
 * EXP_CPU_IDLE_MIN.
 */
void exp_judge_cpu(const struct exp_cpu_sample *s, size_t n, double from,
		   double to, struct exp_cpu_figures *out,
		   struct exp_verdict *v);

/*
 * shaping: each link's intervals between consecutive samples that
 * overlap [from, to], at link Mbit/s: a rate above EXP_SHAPING_OVER x
 * link (the tbf's burst allowed on top), and drops in an interval
 * under EXP_DROP_UNDER x link. Sorts s by link and time.
 */
void exp_judge_links(struct exp_link_sample *s, size_t n, double from,
		     double to, double link, struct exp_verdict *v);

/* A calibration/flows.csv row. */
struct exp_calib_flow {
	unsigned id;
	const char *src, *dst;
	double mbps;
};

/*
 * calibration: every flow alone on its path must reach EXP_CALIB_MIN x
 * link x goodput; fills c's figures and verdict.
 */
void exp_judge_calib(const struct exp_calib_flow *f, size_t n, double link,
		     double goodput, struct exp_calib *c);

#endif /* _DARD_EXP_FIDELITY_H */
