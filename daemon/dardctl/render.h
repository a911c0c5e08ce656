/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Linux commands that make a commodity Linux router (or host) of a node:
 * addresses on the /31 link network, the downhill table looked up first
 * on the destination, and one uphill table per up port selected by
 * `ip rule from PREFIX`. Interfaces are named p<PORT> on switches and eth0
 * on hosts.
 */
#ifndef _DARD_RENDER_H
#define _DARD_RENDER_H

#include <stdio.h>

#include "addr.h"
#include "topo.h"

enum {
	RENDER_FABRIC_MTU = 1500,
	RENDER_OUTER_HLEN = 20,	 /* the IP-in-IP outer header */
	RENDER_OUTER6_HLEN = 40, /* 4in6's outer IPv6 header */
	/*
	 * The least tbf burst: one whole GSO packet as a qdisc counts it,
	 * up to 64 KiB of data plus every segment's headers (68,130 bytes:
	 * 45 segments of 1,428 with 86 bytes of headers each). tbf
	 * cuts a packet over its burst into frames, and every hop after it
	 * then forwards frames.
	 */
	RENDER_TBF_MIN_BURST = 80000,
};

/* ip is prepended to every command: "ip " for a script, "" for -batch. */
void render_switch(FILE *f, const struct dard_topo *t,
		   const struct dard_plan *p, uint32_t sw, const char *ip);
void render_host(FILE *f, const struct dard_topo *t, const struct dard_plan *p,
		 uint32_t host, const char *ip);
/*
 * A host's route to the IDs: by its ToR's end of the link, or in a
 * fabric whose ID traffic goes 4in6 (dard_plan_outer6) by the ToR's
 * fe80::1, an IPv4 route by an IPv6 next hop; when wrapped, with room
 * for the outer header (20 or 40 bytes).
 */
void render_id_route(FILE *f, const struct dard_topo *t,
		     const struct dard_plan *p, uint32_t host, const char *ip,
		     int wrapped);
/*
 * One route or rule of dard_table_switch() as an ip command, in IPv6
 * (its prefix6 and via6) or IPv4.
 */
struct dard_sw_entry;
void render_entry(FILE *f, const struct dard_topo *t, uint32_t sw,
		  const struct dard_sw_entry *e, const char *ip, int v6);
/*
 * A fabric with IPv6 (render6.c): a switch's IPv6 link-local addresses,
 * routes and rules, and a host's IPv6 aliases, ID and default route; ip6
 * is "ip -6 " for a script, "" for `ip -6 -batch'. render_switch()
 * writes the IPv4 half only (nothing in an IPv6-only fabric).
 */
void render_switch6(FILE *f, const struct dard_topo *t,
		    const struct dard_plan *p, uint32_t sw, const char *ip6);
void render_host6(FILE *f, const struct dard_topo *t, const struct dard_plan *p,
		  uint32_t host, const char *ip6);
/*
 * A host of an IPv6-only fabric, in IPv4 commands: its ID on lo and the
 * IDs' route by its ToR's link-local address, with room for the 40-byte
 * IPv6 header the datapath puts around ID traffic (4in6).
 */
void render_host_4in6(FILE *f, const struct dard_topo *t,
		      const struct dard_plan *p, uint32_t host, const char *ip);
/*
 * The sysctl settings a node needs, in `sysctl -p' form: IPv6 off in an
 * IPv4 fabric, on (and forwarding on a switch) in one with IPv6.
 */
void render_sysctl(FILE *f, const struct dard_topo *t,
		   const struct dard_plan *p, uint32_t node);
/*
 * Rate limits on every port, in `tc -batch' form: mbit, or the port's link
 * capacity where that is lower (a degraded link); nothing if mbit is 0.
 */
void render_tc(FILE *f, const struct dard_topo *t, uint32_t node,
	       uint32_t mbit);
/* Switch ECMP: destination routes, multipath up (render_ecmp.c); hosts
 * unwrapped (render.c). */
void render_switch_ecmp(FILE *f, const struct dard_topo *t,
			const struct dard_plan *p, uint32_t sw, const char *ip);
void render_host_ecmp(FILE *f, const struct dard_topo *t,
		      const struct dard_plan *p, uint32_t host, const char *ip);
/*
 * eBGP (render_bgp.c): a switch's addresses and, on a ToR, kernel routes
 * to its hosts; each FRR daemon's configuration of it (logging to
 * logfile), in the order they start; its AS; and how many (prefix, next
 * hop) pairs BGP gives it once converged (-1: no memory). Hosts:
 * render_host_ecmp.
 */
enum { RENDER_FRR_ZEBRA, RENDER_FRR_BFDD, RENDER_FRR_BGPD, RENDER_FRR_N };
extern const char *const render_frr_daemons[RENDER_FRR_N];
void render_switch_bgp(FILE *f, const struct dard_topo *t,
		       const struct dard_plan *p, uint32_t sw, const char *ip);
void render_frr(FILE *f, const struct dard_topo *t, const struct dard_plan *p,
		uint32_t sw, int daemon, const char *logfile);
uint32_t render_bgp_asn(const struct dard_topo *t, uint32_t sw);
long render_bgp_expect(const struct dard_topo *t, uint32_t sw);
/* Marks in below[] (per node) every host under node, node itself if a
 * host (render_ecmp.c). */
void render_mark_hosts(const struct dard_topo *t, uint32_t node,
		       uint8_t *below);
/* Addresses and link state of every port, and lo up. */
void render_links(FILE *f, const struct dard_topo *t, const struct dard_plan *p,
		  uint32_t node, const char *ip);
/* This node's and the far end's address of the link on port. */
void render_link_ends(const struct dard_topo *t, const struct dard_plan *p,
		      uint32_t node, unsigned port, uint32_t *mine,
		      uint32_t *peer);
/* The interface name of a node's port. */
const char *render_ifname(const struct dard_topo *t, uint32_t node,
			  unsigned port, char *buf);

#endif /* _DARD_RENDER_H */
