/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The statistics of repeated experiments: a mean, its sample standard
 * deviation and the 95% confidence interval of the mean by Student's t,
 * and the paired gain of one scheduler over another (the DARD paper's
 * formula (1), run by run). Pure: no I/O, no globals. A figure that
 * cannot be had (no values, one value for a deviation) is NAN.
 */
#ifndef _DARD_STATS_H
#define _DARD_STATS_H

#include <stddef.h>

/* A mean and the half-width of its 95% interval (NAN below 2 values). */
struct dard_ci {
	size_t n;
	double mean, sd, half;
};

double dard_mean(const double *x, size_t n);
/* The sample standard deviation (n - 1 in the denominator). */
double dard_sd(const double *x, size_t n);

/*
 * The two-sided 95% quantile of Student's t with df degrees of freedom,
 * t(0.975, df): exact to the table's five decimals up to 30, the
 * Cornish-Fisher expansion beyond (within 1e-6 from 30 on), 1.959964 in
 * the limit. NAN for df 0.
 */
double dard_t95(size_t df);

/* x's mean with sd and the 95% interval's half-width, t(n - 1) sd/sqrt(n). */
void dard_ci95(const double *x, size_t n, struct dard_ci *ci);

/* Formula (1): (other - s) / other, the share of other's time s saves. */
double dard_gain(double s, double other);

/*
 * The gains of s over other run by run, for the runs (i < n) where both
 * are finite and other is above 0, into gain[] (room for n); returns
 * how many.
 */
size_t dard_gain_pairs(const double *s, const double *other, size_t n,
		       double *gain);

/* The mean of those per-pair gains and its 95% interval (t over them). */
void dard_gain_ci95(const double *s, const double *other, size_t n,
		    struct dard_ci *ci);

/* Whether the interval [mean - half, mean + half] leaves out 0. */
int dard_ci_excludes_zero(const struct dard_ci *ci);

#endif /* _DARD_STATS_H */
