/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-switchd keeps its switch's downhill and uphill tables
 * (dard_table_switch) installed, as a routing daemon would: at start, when
 * a link or route changes (rtnetlink events), and every --reconcile
 * seconds. It only adds what is missing and never deletes: a route that
 * is there, whatever it says, is left alone. A fabric with IPv6 gets the
 * same tables in IPv6 too; the ports' link-local addresses (fe80::1 at a
 * link's upper end, fe80::2 at its lower) are the operator's, as the
 * IPv4 link addresses are.
 */
#ifndef _DARD_SWITCHD_ROUTES_H
#define _DARD_SWITCHD_ROUTES_H

#include <stdint.h>

#include "log.h"
#include "table.h"

struct sw_port;

struct sw_routes {
	int req, ev;	/* rtnetlink: requests and acks; events */
	int ioctl_sock; /* a port's link state */
	uint32_t seq;
	struct dard_sw_entry *e;
	uint32_t n;
	/* The families installed (the plan's), each entry once in each. */
	int has4, has6;
	const struct sw_port **port; /* each entry's port; NULL for none */
	int pending;		     /* an event came: reconcile */
	uint64_t last_ns;	     /* of the last reconcile */
	/* What it did, logged at exit and on SIGUSR1. */
	uint64_t reconciles, restored, skipped_down, failed, events;
	struct dard_ratelimit restore_rl, fail_rl;
};

/*
 * Builds sw's routes and rules and opens the sockets; err (DARD_ERR_MAX)
 * why not. Ports map the entries' ports to interfaces.
 */
int sw_routes_open(struct sw_routes *r, const struct dard_topo *t,
		   const struct dard_plan *p, uint32_t sw,
		   const struct sw_port *port, unsigned nports, char *err);
/* Adds whatever is missing; a route through a down port waits for it. */
void sw_routes_reconcile(struct sw_routes *r, uint64_t now);
/* Drains the event socket; any event marks a reconcile pending. */
void sw_routes_event(struct sw_routes *r);
void sw_routes_log(const struct sw_routes *r);
void sw_routes_close(struct sw_routes *r);

#endif /* _DARD_SWITCHD_ROUTES_H */
