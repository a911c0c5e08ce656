// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The web search and data mining flow-size distributions. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

/* A point of an empirical CDF: this share of flows is this size or less. */
struct cdf_point {
	double bytes, cdf;
};

/*
 * Web search (DCTCP, Alizadeh et al., SIGCOMM 2010, figure 4), in bytes:
 * the table HPCC's traffic generator ships (alibaba-edu/High-Precision-
 * Congestion-Control, traffic_gen/WebSearch_distribution.txt, its CDF in
 * percent), the same as pFabric's CDF_dctcp.tcl in 1460-byte packets.
 * Its mean, 1711250 bytes, is the mean_flow_size those ns-2 scripts set.
 */
static const struct cdf_point websearch[] = {
	{0, 0},		 {10000, 0.15},	  {20000, 0.20},    {30000, 0.30},
	{50000, 0.40},	 {80000, 0.53},	  {200000, 0.60},   {1000000, 0.70},
	{2000000, 0.80}, {5000000, 0.90}, {10000000, 0.97}, {30000000, 1},
};

/*
 * Data mining (VL2, Greenberg et al., SIGCOMM 2009, figure 2), as pFabric
 * samples it: CDF_vl2.tcl, in 1460-byte packets (a copy is in HKUST-SING/
 * MQ-ECN-NS2, scripts/CDF_vl2.tcl), times 1460 here. Half the flows are
 * one packet; the mean is about 5117 packets, the meanFlowSize those
 * scripts set.
 */
#define PKT 1460.0
static const struct cdf_point datamining[] = {
	{1 * PKT, 0},	    {1 * PKT, 0.5},	 {2 * PKT, 0.6},
	{3 * PKT, 0.7},	    {7 * PKT, 0.8},	 {267 * PKT, 0.9},
	{2107 * PKT, 0.95}, {66667 * PKT, 0.99}, {666667 * PKT, 1},
};
#undef PKT

static const struct {
	const char *name;
	const struct cdf_point *p;
	unsigned n;
} tables[] = {
	[DARD_WORKLOAD_NONE] = {"none", NULL, 0},
	[DARD_WORKLOAD_WEBSEARCH] = {"websearch", websearch,
				     sizeof(websearch) / sizeof(websearch[0])},
	[DARD_WORKLOAD_DATAMINING] = {"datamining", datamining,
				      sizeof(datamining) /
					      sizeof(datamining[0])},
};

static int valid(int w)
{
	return w > DARD_WORKLOAD_NONE && w < __DARD_WORKLOAD_MAX;
}

int dard_workload_parse(const char *s)
{
	int w;

	for (w = DARD_WORKLOAD_NONE + 1; w < __DARD_WORKLOAD_MAX; w++)
		if (!strcmp(s, tables[w].name))
			return w;
	return -1;
}

const char *dard_workload_name(int w)
{
	return w >= 0 && w < __DARD_WORKLOAD_MAX ? tables[w].name : "?";
}

/* Linear between points: each segment's share times its midpoint. */
double dard_workload_mean(int w)
{
	const struct cdf_point *p;
	double sum = 0;
	unsigned i;

	if (!valid(w))
		return 0;
	p = tables[w].p;
	for (i = 1; i < tables[w].n; i++)
		sum += (p[i].cdf - p[i - 1].cdf) *
		       (p[i].bytes + p[i - 1].bytes) / 2;
	return sum;
}

double dard_workload_min(int w)
{
	return valid(w) ? fmax(tables[w].p[0].bytes, 1) : 0;
}

double dard_workload_max(int w)
{
	return valid(w) ? tables[w].p[tables[w].n - 1].bytes : 0;
}

uint64_t dard_workload_size(int w, double u)
{
	const struct cdf_point *p;
	double x;
	unsigned i, n;

	if (!valid(w))
		return 0;
	p = tables[w].p;
	n = tables[w].n;
	u = fmin(fmax(u, 0), 1);
	/* The first segment that reaches u; a flat one is a step. */
	for (i = 1; i < n - 1 && p[i].cdf < u; i++)
		;
	if (p[i].cdf > p[i - 1].cdf)
		x = p[i - 1].bytes + (u - p[i - 1].cdf) /
					     (p[i].cdf - p[i - 1].cdf) *
					     (p[i].bytes - p[i - 1].bytes);
	else
		x = p[i].bytes;
	/* A flow carries something: web search's table starts at 0. */
	return x < 1 ? 1 : (uint64_t)(x + 0.5);
}

double dard_workload_rate(int w, double load, double mbps)
{
	double mean = dard_workload_mean(w);

	return mean > 0 ? load * mbps * 1e6 / (mean * 8) : 0;
}

int dard_size_bucket(uint64_t bytes)
{
	if (bytes < DARD_BUCKET_SMALL_BELOW)
		return DARD_BUCKET_SMALL;
	return bytes < DARD_BUCKET_LARGE_FROM ? DARD_BUCKET_MEDIUM
					      : DARD_BUCKET_LARGE;
}

const char *dard_size_bucket_name(int b)
{
	static const char *const names[] = {"small", "medium", "large"};

	return b >= 0 && b < DARD_NBUCKETS ? names[b] : "?";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int dard_slowdown_stats(const double *slow, const uint64_t *bytes, size_t n,
			struct dard_slowdown out[DARD_NBUCKETS])
{
	size_t start[DARD_NBUCKETS + 1] = {0}, pos[DARD_NBUCKETS], i;
	double *by = malloc((n ? n : 1) * sizeof(*by));
	int b;

	if (!by)
		return -ENOMEM;
	/* Grouped by bucket, then each group sorted: n log n in all. */
	for (i = 0; i < n; i++)
		if (slow[i] >= 0)
			start[dard_size_bucket(bytes[i]) + 1]++;
	for (b = 0; b < DARD_NBUCKETS; b++) {
		start[b + 1] += start[b];
		pos[b] = start[b];
	}
	for (i = 0; i < n; i++)
		if (slow[i] >= 0)
			by[pos[dard_size_bucket(bytes[i])]++] = slow[i];
	for (b = 0; b < DARD_NBUCKETS; b++) {
		double *x = by + start[b], sum = 0;
		size_t k, m = start[b + 1] - start[b];

		out[b] = (struct dard_slowdown){.n = m};
		if (!m)
			continue;
		qsort(x, m, sizeof(*x), cmp_double);
		for (k = 0; k < m; k++)
			sum += x[k];
		out[b].mean = sum / m;
		/* Nearest rank: the smallest that 99% are at or below. */
		out[b].p99 = x[(99 * m + 99) / 100 - 1];
	}
	free(by);
	return 0;
}
