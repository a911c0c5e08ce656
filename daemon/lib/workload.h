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

#endif /* _DARD_WORKLOAD_H */
