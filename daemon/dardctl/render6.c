// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The IPv6 half of a fabric with IPv6 (addr6.h), as ip -6 commands: a
 * switch's link-local next hops and its tables' IPv6 routes and rules, a
 * host's IPv6 aliases, ID and default route. ip6 is prepended to every
 * command: "ip -6 " for a script, "" for `ip -6 -batch'.
 */
#include <stdlib.h>
#include <string.h>

#include "addr6.h"
#include "err.h"
#include "table.h"
#include "render.h"

/*
 * A switch's IPv6 link-local next hops (dard_link_ll6), and with no IPv4
 * its links up as render_links() would.
 */
static void render_links6(FILE *f, const struct dard_topo *t, uint32_t sw,
			  const char *ip, int has4)
{
	const struct dard_node *n = &t->node[sw];
	char b[INET6_ADDRSTRLEN], ifn[16];
	struct in6_addr a;
	unsigned k;

	if (!has4)
		fprintf(f, "%slink set dev lo up\n", ip);
	for_each_port(t, sw, k) {
		uint32_t li = n->port[k - 1];

		if (li == DARD_NONE)
			continue;
		dard_link_ll6(t->link[li].up == sw, &a);
		render_ifname(t, sw, k, ifn);
		fprintf(f, "%saddr add %s/64 dev %s nodad\n", ip,
			dard_addr6_str(&a, b), ifn);
		if (!has4)
			fprintf(f, "%slink set dev %s up\n", ip, ifn);
	}
}

void render_switch6(FILE *f, const struct dard_topo *t,
		    const struct dard_plan *p, uint32_t sw, const char *ip6)
{
	char err[DARD_ERR_MAX];
	struct dard_sw_entry *e;
	uint32_t i, cnt;

	render_links6(f, t, sw, ip6, dard_family_has4(p->opts.family));
	if (dard_table_switch(t, p, sw, &e, &cnt, err)) {
		fprintf(f, "# %s\n", err);
		return;
	}
	for (i = 0; i < cnt; i++)
		render_entry(f, t, sw, &e[i], ip6, 1);
	free(e);
}

void render_host6(FILE *f, const struct dard_topo *t, const struct dard_plan *p,
		  uint32_t host, const char *ip6)
{
	uint32_t i, na = dard_plan_naliases(t, host);
	char b[INET6_ADDRSTRLEN], c[INET6_ADDRSTRLEN];
	struct in6_addr a, tor;

	fprintf(f, "# %s: IPv6 aliases on eth0, its IPv6 ID on lo\n",
		t->node[host].name);
	dard_link_ll6(0, &a);
	dard_link_ll6(1, &tor);
	fprintf(f, "%saddr add %s/64 dev eth0 nodad\n", ip6,
		dard_addr6_str(&a, b));
	for (i = 0; i < na; i++) {
		dard_plan_alias6(t, p, host, i, &a);
		fprintf(f, "%saddr add %s/128 dev eth0 nodad\n", ip6,
			dard_addr6_str(&a, b));
	}
	dard_plan_id6(t, p, host, &a);
	fprintf(f, "%saddr add %s/128 dev lo nodad\n", ip6,
		dard_addr6_str(&a, b));
	fprintf(f, "%sroute add default via %s dev eth0\n", ip6,
		dard_addr6_str(&tor, c));
}

void render_host_4in6(FILE *f, const struct dard_topo *t,
		      const struct dard_plan *p, uint32_t host, const char *ip)
{
	const struct dard_node *n = &t->node[host];
	char b[24];

	fprintf(f, "# %s: ID on lo, its traffic wrapped in IPv6 (4in6)\n",
		n->name);
	fprintf(f, "%slink set dev lo up\n%slink set dev eth0 up\n", ip, ip);
	fprintf(f, "%saddr add %s/32 dev lo\n", ip, dard_addr_str(n->id, b));
	render_id_route(f, t, p, host, ip, 1);
}
