/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The switch's elephant counter: bpf/dard_switch.bpf.c on every port's TC
 * egress hook, and the counting of its table. Helpers return 0 or a
 * negative errno and never print.
 */
#ifndef _DARD_SWITCHD_COUNTER_H
#define _DARD_SWITCHD_COUNTER_H

#include <stdint.h>
#include <linux/dard.h>

#include "reply.h"

struct sw_counter;

/* What the counter counts. */
struct sw_count_opts {
	uint32_t dscp;	    /* the hosts' elephant mark */
	uint64_t window_ns; /* the counting window */
	double min_share;   /* of a port's bandwidth over the window that
			     * a counted flow carried; 0: every flow */
};

/*
 * Sets every port's min_bytes from o, loads the program noting flows
 * marked with o->dscp and attaches it to every port; on failure nothing
 * stays attached and err (DARD_ERR_MAX) says which step failed.
 */
int sw_counter_attach(struct sw_counter **c, struct sw_port *port,
		      unsigned nports, const struct sw_count_opts *o,
		      char *err);
/*
 * Sets every port's elephants to the flows seen within window_ns of now
 * that carried its min_bytes in a window (sw_tally), reading the table
 * in batches, and forgets entries long gone. On a failed read the counts
 * are partial: the caller must not use them.
 */
int sw_counter_count(struct sw_counter *c, struct sw_port *port,
		     unsigned nports, uint64_t now, uint64_t window_ns);
/* The same on a dard_sw_flows map's fd: for the tests. */
int sw_count_map(int fd, struct sw_port *port, unsigned nports, uint64_t now,
		 uint64_t window_ns);
/* The program's dard_sw_stats, summed over CPUs, by enum dard_sw_stat. */
int sw_counter_stats(struct sw_counter *c, uint64_t out[__DARD_SW_STAT_MAX]);
const char *sw_stat_name(unsigned stat);
/* Detaches from every port and frees c (NULL is fine). */
void sw_counter_detach(struct sw_counter *c);

#endif /* _DARD_SWITCHD_COUNTER_H */
