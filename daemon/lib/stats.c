// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Means, deviations, Student's t and paired gains (stats.h). */
#include <math.h>

#include "stats.h"

/*
 * t(0.975, df) for df 1 to 30, to five decimals (any printed table:
 * 12.706, 4.303, 3.182, ... 2.042 to three).
 */
static const double t95_table[] = {
	12.70620, 4.30265, 3.18245, 2.77645, 2.57058, 2.44691, 2.36462, 2.30600,
	2.26216,  2.22814, 2.20099, 2.17881, 2.16037, 2.14479, 2.13145, 2.11991,
	2.10982,  2.10092, 2.09302, 2.08596, 2.07961, 2.07387, 2.06866, 2.06390,
	2.05954,  2.05553, 2.05183, 2.04841, 2.04523, 2.04227,
};

enum { T95_TABLE = sizeof(t95_table) / sizeof(t95_table[0]) };

/* The normal distribution's 0.975 quantile: t's limit. */
#define Z975 1.959963984540054

double dard_mean(const double *x, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

double dard_sd(const double *x, size_t n)
{
	double m = dard_mean(x, n), sq = 0;
	size_t i;

	if (n < 2)
		return NAN;
	for (i = 0; i < n; i++)
		sq += (x[i] - m) * (x[i] - m);
	return sqrt(sq / (n - 1));
}

double dard_t95(size_t df)
{
	double z = Z975, z2 = z * z, v, g1, g2, g3, g4;

	if (!df)
		return NAN;
	if (df <= T95_TABLE)
		return t95_table[df - 1];
	/*
	 * Cornish-Fisher: t = z + g1/v + g2/v^2 + g3/v^3 + g4/v^4
	 * (Abramowitz and Stegun 26.7.5); at 30 it gives the table's
	 * 2.04227, and it only improves with v.
	 */
	v = df;
	g1 = (z2 + 1) * z / 4;
	g2 = ((5 * z2 + 16) * z2 + 3) * z / 96;
	g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384;
	g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z /
	     92160;
	return z + g1 / v + g2 / (v * v) + g3 / (v * v * v) +
	       g4 / (v * v * v * v);
}

void dard_ci95(const double *x, size_t n, struct dard_ci *ci)
{
	ci->n = n;
	ci->mean = dard_mean(x, n);
	ci->sd = dard_sd(x, n);
	ci->half = n < 2 ? NAN : dard_t95(n - 1) * ci->sd / sqrt(n);
}

double dard_gain(double s, double other)
{
	return (other - s) / other;
}

/* Whether run i pairs s with other: both measured, other not 0. */
static int paired(const double *s, const double *other, size_t i)
{
	return isfinite(s[i]) && isfinite(other[i]) && other[i] > 0;
}

size_t dard_gain_pairs(const double *s, const double *other, size_t n,
		       double *gain)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (paired(s, other, i))
			gain[k++] = dard_gain(s[i], other[i]);
	return k;
}

void dard_gain_ci95(const double *s, const double *other, size_t n,
		    struct dard_ci *ci)
{
	double sum = 0, sq = 0, g;
	size_t i, k = 0;

	/* Two passes over the pairs rather than an array of them. */
	for (i = 0; i < n; i++)
		if (paired(s, other, i)) {
			sum += dard_gain(s[i], other[i]);
			k++;
		}
	ci->n = k;
	ci->mean = k ? sum / k : NAN;
	for (i = 0; k > 1 && i < n; i++)
		if (paired(s, other, i)) {
			g = dard_gain(s[i], other[i]) - ci->mean;
			sq += g * g;
		}
	ci->sd = k > 1 ? sqrt(sq / (k - 1)) : NAN;
	ci->half = k > 1 ? dard_t95(k - 1) * ci->sd / sqrt(k) : NAN;
}

int dard_ci_excludes_zero(const struct dard_ci *ci)
{
	return isfinite(ci->half) &&
	       (ci->mean - ci->half > 0 || ci->mean + ci->half < 0);
}
