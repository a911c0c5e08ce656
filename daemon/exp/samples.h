/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What dard-exp sample recorded during a run (t0, cpu.csv, links.csv
 * of a scheduler's directory, or of calibration/), judged by
 * fidelity.c; and the calibration.
 */
#ifndef _DARD_EXP_SAMPLES_H
#define _DARD_EXP_SAMPLES_H

#include "exp.h"
#include "fidelity.h"

/*
 * The cpu and shaping checks of dir's samples from its t0 to t0 + end
 * (end: the last flow's, since t0; NAN: not known) at link Mbit/s
 * (NAN: shaping not judged) into v, the cpu's figures into *cf: 0, or
 * a negative errno with err set for a bad file.
 */
int exp_judge_samples(const char *dir, double end, double link,
		      struct exp_cpu_figures *cf, struct exp_verdict *v,
		      char *err);

/*
 * DIR/calibration: its flows against the link rate, then its samples
 * over t0 to the longest flow's end, into e->calib. Noted when it is
 * not there; 0, or a negative errno with err set for a bad file.
 */
int exp_calib_load(struct exp *e, char *err);

#endif /* _DARD_EXP_SAMPLES_H */
