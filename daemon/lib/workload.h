/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Measured data-centre flow sizes, for traffic at a given load: the web
 * search workload (DCTCP, Alizadeh et al., SIGCOMM 2010) and the data
 * mining workload (VL2, Greenberg et al., SIGCOMM 2009), as the empirical
 * CDFs that pFabric, HPCC and the ns-3 studies after them sample. Sizes
 * are drawn by inverse CDF, linear between the table's points. Pure.
 */
#ifndef _DARD_WORKLOAD_H
#define _DARD_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

enum dard_workload {
	DARD_WORKLOAD_NONE,	  /* the paper's: one fixed size */
	DARD_WORKLOAD_WEBSEARCH,  /* DCTCP's: 10 KB to 30 MB */
	DARD_WORKLOAD_DATAMINING, /* VL2's: mostly mice, 1 GB at most */
	__DARD_WORKLOAD_MAX,
};

/* The workload named s (not none), or -1. */
int dard_workload_parse(const char *s);
const char *dard_workload_name(int w);

/* A workload's mean, least and largest flow, in bytes, from its table. */
double dard_workload_mean(int w);
double dard_workload_min(int w);
double dard_workload_max(int w);

/*
 * The flow size at u in [0, 1] of w's CDF, in bytes (1 at least): the
 * inverse CDF, linear between the table's points.
 */
uint64_t dard_workload_size(int w, double u);

/*
 * Flows per second from a host whose link runs at mbps Mbit/s, for its
 * link to carry load (0 to 1) of it on average: load * capacity / mean.
 */
double dard_workload_rate(int w, double load, double mbps);

/*
 * A flow's slowdown is its completion time over the time it would take
 * alone on an idle fabric; the studies these workloads come from report
 * it by size: small flows' 99th percentile and large flows' mean are the
 * headline figures. Sizes in decimal bytes, as the tables are.
 */
enum dard_size_bucket {
	DARD_BUCKET_SMALL,  /* below 100 KB */
	DARD_BUCKET_MEDIUM, /* 100 KB to 10 MB */
	DARD_BUCKET_LARGE,  /* 10 MB and more */
	DARD_NBUCKETS,
};
#define DARD_BUCKET_SMALL_BELOW 100000ULL
#define DARD_BUCKET_LARGE_FROM 10000000ULL

struct dard_slowdown {
	size_t n;	  /* flows in the bucket */
	double mean, p99; /* 0 when n is 0 */
};

int dard_size_bucket(uint64_t bytes);
const char *dard_size_bucket_name(int b);

/*
 * Each bucket's count, mean and 99th percentile (nearest rank) of n
 * flows' slowdowns, slow[i] for a flow of bytes[i]; a slowdown below 0
 * (a flow that never finished) is left out. 0, or -ENOMEM.
 */
int dard_slowdown_stats(const double *slow, const uint64_t *bytes, size_t n,
			struct dard_slowdown out[DARD_NBUCKETS]);

#endif /* _DARD_WORKLOAD_H */
