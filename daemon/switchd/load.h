/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Each port's load: the bytes its interface transmitted, all traffic,
 * from the kernel's own counters (IFLA_STATS64 tx_bytes of one
 * RTM_GETLINK dump), sampled every window; reply.c's sw_load_take()
 * makes the rate. Helpers return 0 or a negative errno and never print.
 */
#ifndef _DARD_SWITCHD_LOAD_H
#define _DARD_SWITCHD_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "log.h"
#include "reply.h"

struct sw_load {
	int fd; /* rtnetlink, requests only */
	uint32_t seq;
	uint64_t next_ns; /* the next sample is due; 0: none taken yet */
	/* What it did, logged at exit and on SIGUSR1. */
	uint64_t samples, failed, resets, gone;
	struct dard_ratelimit fail_rl;
};

/* Opens l's socket; err (DARD_ERR_MAX) why not. */
int sw_load_open(struct sw_load *l, char *err);
/*
 * Samples every port's counter at now and sets its load over the time
 * since the last sample. On a failed dump every port's load is not
 * measured (their last samples stay, for the next window) and the
 * failure is logged, once a second at most; a port whose interface is
 * gone is not measured either.
 */
void sw_load_sample(struct sw_load *l, struct sw_port *port, unsigned nports,
		    uint64_t now);
/*
 * One datagram of the dump (sequence seq) in buf[0..len), as dard_nl_walk
 * takes it: each port named sets its cur[] (its counter at now) and
 * found[]. Returns as dard_nl_walk; apart for tests/fuzz/load_fuzz.c.
 */
int sw_load_walk(const void *buf, size_t len, uint32_t seq,
		 const struct sw_port *port, unsigned nports, uint64_t now,
		 struct sw_tx *cur, uint8_t *found);
void sw_load_log(const struct sw_load *l);
void sw_load_close(struct sw_load *l);

#endif /* _DARD_SWITCHD_LOAD_H */
