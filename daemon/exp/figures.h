/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The figures across runs (libdard's stats.c): each scheduler's mean of
 * its runs' averages with its 95% interval, beside the model's, and the
 * gains by formula (1) of the pairs the script's summary has always
 * printed, run by run. Pure.
 */
#ifndef _DARD_EXP_FIGURES_H
#define _DARD_EXP_FIGURES_H

#include "exp.h"

/* Fills e->ss[] and e->gain[] from the runs' cells. 0, or -ENOMEM. */
int exp_figures(struct exp *e);

/* A cell's testbed / model: NAN when either is missing. */
double exp_cell_ratio(const struct exp_cell *c);

/*
 * What a gain's interval says: "significant", "not significant" (it
 * holds 0), "one run: no interval", or "no run has both".
 */
const char *exp_gain_verdict(const struct exp_gain *g);

/* The share of the model's gain the testbed's delivered: NAN when the
 * model predicts none. */
double exp_gain_of_model(const struct exp_gain *g);

/*
 * Whether the testbed's gain agrees with the model's: "agrees" when the
 * interval of their pair-by-pair difference holds 0, "differs" when it
 * does not, "one pair" or "no model".
 */
const char *exp_gain_model_verdict(const struct exp_gain *g);

#endif /* _DARD_EXP_FIGURES_H */
