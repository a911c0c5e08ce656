/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A monitor of one (source ToR, destination ToR) pair on one host (paper,
 * section 2.4): the pair's paths as switch sequences and directed links,
 * which exit ports of which switches to query, and how replies become
 * link states and link states a path-state vector. Pure: no I/O.
 */
#ifndef _DARD_MONITOR_H
#define _DARD_MONITOR_H

#include <stdint.h>

#include "path.h"
#include "proto.h"
#include "sched.h"

struct dard_mon_path {
	uint32_t sw[2 * DARD_LEVEL_MAX]; /* switches, ToR to ToR */
	uint32_t dl[2 * DARD_LEVEL_MAX]; /* directed switch-switch links */
	uint8_t nsw, ndl;
};

/* One switch to query and the exit ports to ask it for. */
struct dard_mon_query {
	uint32_t sw;
	uint16_t nports;
	uint16_t *ports;
};

struct dard_monitor {
	uint32_t src_tor, dst_tor;
	unsigned npaths;
	struct dard_mon_path *path;
	unsigned nqueries;
	struct dard_mon_query *query; /* in node order */
	/* For rounds (sched.h): each path's links, and room for PV and FV. */
	struct dard_path_links *links;
	struct dard_pstate *pv;
	uint32_t *fv;
};

/*
 * The monitor of src_host's ToR towards dst_tor, or NULL with err set
 * (the ToRs are the same, have no path, or memory ran out).
 */
struct dard_monitor *dard_monitor_new(struct dard_pathctx *c,
				      const struct dard_topo *t,
				      uint32_t src_host, uint32_t dst_tor,
				      char *err);
void dard_monitor_free(struct dard_monitor *m);

/* The index of the monitor's path with path's switches, or -1. */
int dard_monitor_path_index(const struct dard_monitor *m,
			    const struct dard_path *path);

/*
 * The directed link leaving switch sw by port, or DARD_NONE when the port
 * has no link.
 */
uint32_t dard_port_dlink(const struct dard_topo *t, uint32_t sw, unsigned port);

/*
 * Stores a reply of switch sw in ls (2 * nlinks entries) and stamps each
 * updated entry in when[] with now. Ports the switch has no link on, or
 * reports down, leave their links unknown. Returns how many were stored.
 */
unsigned dard_reply_apply(const struct dard_topo *t, uint32_t sw,
			  const struct dard_msg *reply, struct dard_lstate *ls,
			  uint64_t *when, uint64_t now);

/*
 * The path-state vector of m into pv (m->npaths entries). A link whose
 * state is older than max_age (when[] against now) counts as unknown.
 */
void dard_monitor_pv(const struct dard_monitor *m, const struct dard_lstate *ls,
		     const uint64_t *when, uint64_t now, uint64_t max_age,
		     struct dard_pstate *pv);

#endif /* _DARD_MONITOR_H */
