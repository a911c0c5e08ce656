// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The fabric operators run today (RFC 7938): eBGP on every switch link,
 * FRR in every switch, ECMP over every equal AS path, BFD on every
 * session. Hosts send unwrapped, as with switch ECMP (render_ecmp.c).
 *
 * Autonomous systems as RFC 7938, section 5.2.1, lays them out, in the
 * four-byte private range (RFC 6996): the roots share one AS, so that no
 * root learns a route through another root (the valley a failure would
 * otherwise open through the top); every other switch has its own. A ToR
 * announces its hosts' IDs and nothing it learnt: it is no transit
 * between two of its uplinks, which the shared AS a pod's aggregation
 * switches have in RFC 7938 would otherwise ensure (our trees need not
 * have pods: a Clos ToR's uplinks overlap other ToRs').
 *
 * What the switches hold once BGP has converged is what render_ecmp.c
 * writes as static routes: a route down for every host below, over each
 * down port it is below, and one up for every other host, over every up
 * port. render_bgp_expect counts it, so that a testbed knows when BGP is
 * done.
 */
#include <stdlib.h>
#include <string.h>

#include "render.h"

/* The roots' AS, and every other switch's base (plus its node index). */
enum {
	BGP_AS_ROOTS = 4200000000u,
	BGP_AS_BASE = 4200000001u,
};

uint32_t render_bgp_asn(const struct dard_topo *t, uint32_t sw)
{
	return t->node[sw].level ? BGP_AS_BASE + sw : BGP_AS_ROOTS;
}

/* Whether sw is a ToR: its down ports lead to hosts. */
static int is_tor(const struct dard_topo *t, uint32_t sw)
{
	return t->node[sw].level + 1 == t->nlevels;
}

long render_bgp_expect(const struct dard_topo *t, uint32_t sw)
{
	const struct dard_node *n = &t->node[sw];
	uint8_t *below = calloc(t->nnodes, 1);
	long pairs = 0;
	unsigned k;
	uint32_t j;

	if (!below)
		return -1;
	for (k = 0; k < n->ndown; k++) {
		uint32_t c = dard_topo_peer(t, sw, n->down[k]);

		if (c == DARD_NONE)
			continue;
		/* A host on a port is a kernel route, not a BGP one. */
		if (t->node[c].is_host)
			continue;
		memset(below, 0, t->nnodes);
		render_mark_hosts(t, c, below);
		for (j = 0; j < t->nhosts; j++)
			pairs += below[t->hosts[j]];
	}
	/* Every host not below goes up over every up port. */
	memset(below, 0, t->nnodes);
	render_mark_hosts(t, sw, below);
	for (j = 0; j < t->nhosts; j++)
		if (!below[t->hosts[j]])
			pairs += n->nup;
	free(below);
	return pairs;
}

void render_switch_bgp(FILE *f, const struct dard_topo *t,
		       const struct dard_plan *p, uint32_t sw, const char *ip)
{
	const struct dard_node *n = &t->node[sw];
	uint32_t mine, peer, c;
	char b[24], d[24], ifn[16];
	unsigned k;

	fprintf(f,
		"# %s (%s): addresses only; FRR's eBGP (%s.*.conf) routes,\n"
		"# the ToR's own hosts by kernel routes it announces\n",
		n->name, t->level_name[n->level], n->name);
	render_links(f, t, p, sw, ip);
	for (k = 0; k < n->ndown; k++) {
		c = dard_topo_peer(t, sw, n->down[k]);
		if (c == DARD_NONE || !t->node[c].is_host)
			continue;
		render_link_ends(t, p, sw, n->down[k], &mine, &peer);
		fprintf(f, "%sroute add %s/32 via %s dev %s proto static\n", ip,
			dard_addr_str(t->node[c].id, b), dard_addr_str(peer, d),
			render_ifname(t, sw, n->down[k], ifn));
	}
}

/*
 * zebra's: its name and log, and routes with their next hops inline, not
 * as the kernel's nexthop objects: when a port goes down the kernel drops
 * its next hops from every group, and FRR 8.4's zebra, which believes
 * its groups intact, never puts them back once the port is up again
 * (seen on this testbed: a flapped core link left its aggregation switch
 * on one core for good).
 */
static void frr_zebra(FILE *f, const struct dard_topo *t, uint32_t sw,
		      const char *logfile)
{
	fprintf(f,
		"! %s: zebra\nhostname %s\nlog file %s\n"
		"no zebra nexthop kernel enable\n",
		t->node[sw].name, t->node[sw].name, logfile);
}

/*
 * bfdd's: 300 ms both ways, down after 3 missed, RFC 7938's advice and
 * FRR's defaults, named in a profile so that they show; bgpd asks for a
 * session per neighbour.
 */
static void frr_bfdd(FILE *f, const struct dard_topo *t, uint32_t sw,
		     const char *logfile)
{
	fprintf(f,
		"! %s: bfdd\n"
		"hostname %s\n"
		"log file %s\n"
		"bfd\n"
		" profile fabric\n"
		"  detect-multiplier 3\n"
		"  receive-interval 300\n"
		"  transmit-interval 300\n"
		" exit\n"
		"exit\n",
		t->node[sw].name, t->node[sw].name, logfile);
}

/*
 * bgpd's. `frr defaults datacenter' gives eBGP its data-centre timers
 * (keepalive 3 s, hold 9 s, no advertisement interval); the rest is
 * spelled out so that it reads the same in any FRR.
 */
static void frr_bgpd(FILE *f, const struct dard_topo *t,
		     const struct dard_plan *p, uint32_t sw,
		     const char *logfile)
{
	const struct dard_node *n = &t->node[sw];
	int tor = is_tor(t, sw);
	uint32_t mine, peer, c;
	char b[24];
	unsigned k;

	fprintf(f,
		"! %s (%s): eBGP on every link, AS %u (RFC 7938)\n"
		"frr defaults datacenter\n"
		"hostname %s\n"
		"log file %s\n",
		n->name, t->level_name[n->level], render_bgp_asn(t, sw),
		n->name, logfile);
	if (tor)
		fprintf(f, "! A ToR announces its own hosts only: no transit\n"
			   "! between two of its uplinks.\n"
			   "bgp as-path access-list own seq 5 permit ^$\n"
			   "route-map OWN permit 10\n"
			   " match as-path own\n"
			   "exit\n");
	fprintf(f,
		"router bgp %u\n"
		" bgp router-id %s\n"
		" no bgp ebgp-requires-policy\n"
		" no bgp network import-check\n"
		" bgp bestpath as-path multipath-relax\n"
		" timers bgp 3 9\n",
		render_bgp_asn(t, sw), dard_addr_str(n->mgmt, b));
	for_each_port(t, sw, k) {
		if (n->port[k - 1] == DARD_NONE)
			continue;
		c = dard_topo_peer(t, sw, k);
		if (c == DARD_NONE || t->node[c].is_host)
			continue;
		render_link_ends(t, p, sw, k, &mine, &peer);
		dard_addr_str(peer, b);
		fprintf(f,
			" neighbor %s remote-as %u\n"
			" neighbor %s bfd profile fabric\n"
			" neighbor %s timers connect 1\n",
			b, render_bgp_asn(t, c), b, b);
	}
	fprintf(f, " address-family ipv4 unicast\n"
		   "  maximum-paths 64\n");
	for (k = 0; k < n->ndown; k++) {
		c = dard_topo_peer(t, sw, n->down[k]);
		if (c != DARD_NONE && t->node[c].is_host)
			fprintf(f, "  network %s/32\n",
				dard_addr_str(t->node[c].id, b));
	}
	for (k = 0; tor && k < n->nup; k++) {
		c = dard_topo_peer(t, sw, n->up[k]);
		if (c == DARD_NONE)
			continue;
		render_link_ends(t, p, sw, n->up[k], &mine, &peer);
		fprintf(f, "  neighbor %s route-map OWN out\n",
			dard_addr_str(peer, b));
	}
	fprintf(f, " exit-address-family\n"
		   "exit\n");
}

const char *const render_frr_daemons[RENDER_FRR_N] = {
	[RENDER_FRR_ZEBRA] = "zebra",
	[RENDER_FRR_BFDD] = "bfdd",
	[RENDER_FRR_BGPD] = "bgpd",
};

/*
 * A file per daemon: each reads all of its file, and a command another
 * daemon's block holds (`bfd', `router bgp') is no command of its own,
 * so that their blocks' `exit's would leave its configuration mode.
 */
void render_frr(FILE *f, const struct dard_topo *t, const struct dard_plan *p,
		uint32_t sw, int daemon, const char *logfile)
{
	switch (daemon) {
	case RENDER_FRR_ZEBRA:
		frr_zebra(f, t, sw, logfile);
		break;
	case RENDER_FRR_BFDD:
		frr_bfdd(f, t, sw, logfile);
		break;
	default:
		frr_bgpd(f, t, p, sw, logfile);
		break;
	}
}
