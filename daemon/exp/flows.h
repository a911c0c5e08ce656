/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * One scheduler's run judged: its flows against their max-min shares
 * (times, paths.log and the iperf3 reports of DIR/runR/SCHED, fairshare.c)
 * and its samples (samples.c) from its t0 to its last flow's end.
 */
#ifndef _DARD_EXP_FLOWS_H
#define _DARD_EXP_FLOWS_H

#include <stddef.h>

#include "exp.h"

/* A results.csv row. */
struct exp_rflow {
	unsigned id, line;
	const char *src, *dst;
	double start, seconds; /* seconds NAN: the flow failed */
};

/*
 * Judges e->sched[s] in run r, whose results rows are those of rf[0..n)
 * with rs[i] == s, into r->cell[s]: 0, or a negative errno with err set
 * for a bad file.
 */
int exp_judge_cell(struct exp *e, struct exp_run *r, unsigned s,
		   const struct exp_rflow *rf, const int *rs, size_t n,
		   char *err);

#endif /* _DARD_EXP_FLOWS_H */
