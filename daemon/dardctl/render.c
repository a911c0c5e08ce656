// SPDX-License-Identifier: GPL-2.0 OR MIT
#include <stdlib.h>
#include <string.h>

#include "addr6.h"
#include "err.h"
#include "table.h"
#include "render.h"

const char *render_ifname(const struct dard_topo *t, uint32_t node,
			  unsigned port, char *buf)
{
	if (t->node[node].is_host)
		strcpy(buf, "eth0");
	else
		sprintf(buf, "p%u", port);
	return buf;
}

/* Address of this node's end of the link on port, and of the far end. */
void render_link_ends(const struct dard_topo *t, const struct dard_plan *p,
		      uint32_t node, unsigned port, uint32_t *mine,
		      uint32_t *peer)
{
	uint32_t li = t->node[node].port[port - 1];
	int upper = t->link[li].up == node;

	*mine = dard_plan_link_addr(p, li, upper);
	*peer = dard_plan_link_addr(p, li, !upper);
}

void render_links(FILE *f, const struct dard_topo *t, const struct dard_plan *p,
		  uint32_t node, const char *ip)
{
	const struct dard_node *n = &t->node[node];
	uint32_t mine, peer;
	char b[24], ifn[16];
	unsigned k;

	fprintf(f, "%slink set dev lo up\n", ip);
	for_each_port(t, node, k) {
		if (n->port[k - 1] == DARD_NONE)
			continue;
		render_link_ends(t, p, node, k, &mine, &peer);
		render_ifname(t, node, k, ifn);
		fprintf(f, "%saddr add %s/31 dev %s\n", ip,
			dard_addr_str(mine, b), ifn);
		fprintf(f, "%slink set dev %s up\n", ip, ifn);
	}
}

void render_entry(FILE *f, const struct dard_topo *t, uint32_t sw,
		  const struct dard_sw_entry *e, const char *ip, int v6)
{
	char b[DARD_PREFIX6_STRLEN], c[INET6_ADDRSTRLEN], ifn[16];

	if (v6) {
		dard_prefix6_str(&e->prefix6.addr, e->prefix6.len, b);
		dard_addr6_str(&e->via6, c);
	} else {
		dard_prefix_str(e->prefix, e->len, b);
		dard_addr_str(e->via, c);
	}
	switch (e->kind) {
	case DARD_SW_ROUTE:
		fprintf(f,
			"%sroute add %s via %s dev %s table %u proto static\n",
			ip, e->len ? b : "default", c,
			render_ifname(t, sw, e->port, ifn), e->table);
		break;
	case DARD_SW_UNREACHABLE:
		fprintf(f, "%sroute add unreachable %s table %u proto static\n",
			ip, b, e->table);
		break;
	case DARD_SW_RULE:
		fprintf(f, "%srule add pref %u%s%s lookup %u\n", ip, e->pref,
			e->len ? " from " : "", e->len ? b : "", e->table);
		break;
	}
}

void render_switch(FILE *f, const struct dard_topo *t,
		   const struct dard_plan *p, uint32_t sw, const char *ip)
{
	const struct dard_node *n = &t->node[sw];
	char err[DARD_ERR_MAX];
	struct dard_sw_entry *e;
	uint32_t i, cnt;

	fprintf(f,
		"# %s (%s): downhill table %d on the destination first,\n"
		"# then uphill tables %d+PORT chosen by source prefix\n",
		n->name, t->level_name[n->level], DARD_TABLE_DOWNHILL,
		DARD_TABLE_UPHILL);
	if (dard_family_has4(p->opts.family)) {
		render_links(f, t, p, sw, ip);
		if (dard_table_switch(t, p, sw, &e, &cnt, err)) {
			fprintf(f, "# %s\n", err);
			return;
		}
		for (i = 0; i < cnt; i++)
			if (!e[i].only6)
				render_entry(f, t, sw, &e[i], ip, 0);
		free(e);
	}
}

/*
 * A host's addresses and routes: wrapped (dard's datapath: aliases, and
 * an ID route with room for the outer header), or not (switch ECMP).
 */
void render_id_route(FILE *f, const struct dard_topo *t,
		     const struct dard_plan *p, uint32_t host, const char *ip,
		     int wrapped)
{
	const struct dard_node *n = &t->node[host];
	unsigned hlen =
		dard_plan_outer6(p) ? RENDER_OUTER6_HLEN : RENDER_OUTER_HLEN;
	char b[24], c[INET6_ADDRSTRLEN], d[24];
	uint32_t mine, peer;
	struct in6_addr tor;

	dard_prefix_str(p->opts.ids.addr, p->opts.ids.len, b);
	if (wrapped && dard_plan_outer6(p)) {
		/* An IPv4 route by an IPv6 next hop (RFC 8950). */
		dard_link_ll6(1, &tor);
		fprintf(f, "%sroute add %s via inet6 %s dev eth0 src %s", ip, b,
			dard_addr6_str(&tor, c), dard_addr_str(n->id, d));
	} else {
		render_link_ends(t, p, host, dard_topo_host_port(t, host),
				 &mine, &peer);
		fprintf(f, "%sroute add %s via %s dev eth0 src %s", ip, b,
			dard_addr_str(peer, c), dard_addr_str(n->id, d));
	}
	/*
	 * ID traffic leaves wrapped in 20 (40: 4in6) more bytes: the route's
	 * MTU and MSS leave room for them, so the kernel sizes (or refuses,
	 * as for any route) what the fabric could not carry.
	 */
	if (wrapped)
		fprintf(f, " mtu %u advmss %u", RENDER_FABRIC_MTU - hlen,
			RENDER_FABRIC_MTU - hlen - 40);
	fprintf(f, "\n");
}

static void render_host_as(FILE *f, const struct dard_topo *t,
			   const struct dard_plan *p, uint32_t host,
			   const char *ip, int wrapped)
{
	const struct dard_node *n = &t->node[host];
	uint32_t i, na = dard_plan_naliases(t, host), mine, peer;
	char b[24];

	fprintf(f, "# %s: ID on lo, %s\n", n->name,
		wrapped ? "aliases on eth0, everything via the ToR"
			: "everything via the ToR, unwrapped");
	render_links(f, t, p, host, ip);
	for (i = 0; wrapped && i < na; i++)
		fprintf(f, "%saddr add %s/32 dev eth0\n", ip,
			dard_addr_str(dard_plan_alias(t, p, host, i), b));
	fprintf(f, "%saddr add %s/32 dev lo\n", ip, dard_addr_str(n->id, b));
	render_link_ends(t, p, host, dard_topo_host_port(t, host), &mine,
			 &peer);
	fprintf(f, "%sroute add default via %s dev eth0\n", ip,
		dard_addr_str(peer, b));
	render_id_route(f, t, p, host, ip, wrapped);
}

void render_host(FILE *f, const struct dard_topo *t, const struct dard_plan *p,
		 uint32_t host, const char *ip)
{
	render_host_as(f, t, p, host, ip, 1);
}

void render_host_ecmp(FILE *f, const struct dard_topo *t,
		      const struct dard_plan *p, uint32_t host, const char *ip)
{
	render_host_as(f, t, p, host, ip, 0);
}

void render_sysctl(FILE *f, const struct dard_topo *t,
		   const struct dard_plan *p, uint32_t node)
{
	const struct dard_node *n = &t->node[node];
	int v6 = dard_family_has6(p->opts.family);
	char ifn[16];
	unsigned k;

	/* Downhill switches have no route back to the source: no rp_filter. */
	fprintf(f, "net.ipv4.ip_forward = %d\n", !n->is_host);
	fprintf(f, "net.ipv4.conf.all.rp_filter = 0\n"
		   "net.ipv4.conf.default.rp_filter = 0\n"
		   "net.ipv4.conf.all.send_redirects = 0\n"
		   "net.ipv4.conf.default.send_redirects = 0\n");
	fprintf(f,
		"net.ipv6.conf.all.disable_ipv6 = %d\n"
		"net.ipv6.conf.default.disable_ipv6 = %d\n",
		!v6, !v6);
	if (v6)
		fprintf(f, "net.ipv6.conf.all.forwarding = %d\n", !n->is_host);
	for_each_port(t, node, k)
		if (n->port[k - 1] != DARD_NONE)
			fprintf(f, "net.ipv4.conf.%s.rp_filter = 0\n",
				render_ifname(t, node, k, ifn));
}

void render_tc(FILE *f, const struct dard_topo *t, uint32_t node, uint32_t mbit)
{
	const struct dard_node *n = &t->node[node];
	char ifn[16];
	unsigned k;

	if (!mbit)
		return;
	for_each_port(t, node, k) {
		const struct dard_link *l = dard_topo_port_link(t, node, k);
		/* A link whose capacity is below the rate runs at it. */
		uint32_t rate = l && l->mbps < mbit ? l->mbps : mbit;
		/* Two milliseconds of burst, and at least a whole GSO packet.
		 */
		uint32_t burst = rate * 1000 / 4;

		if (n->port[k - 1] == DARD_NONE)
			continue;
		if (burst < RENDER_TBF_MIN_BURST)
			burst = RENDER_TBF_MIN_BURST;
		fprintf(f,
			"qdisc add dev %s root tbf rate %umbit burst %u latency 20ms\n",
			render_ifname(t, node, k, ifn), rate, burst);
	}
}
