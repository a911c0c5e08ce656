// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dardctl addr: a node's addresses, and the chain each alias encodes. */
#include <stdio.h>
#include <string.h>

#include "ctl.h"
#include "addr6.h"
#include "args.h"
#include "load.h"
#include "objects.h"
#include "objopts.h"
#include "print.h"

static int usage(FILE *f)
{
	fprintf(f, "Usage: dardctl addr show [ NODE ] [ TOPO_OPTS ]\n");
	ctl_opts_usage(f, "Where: ", CTL_OPTS_TOPO);
	fprintf(f,
		"\n"
		"For a host: its ToR, ID, management address and every alias, each\n"
		"with the chain of switches that allocated it (root first). For a\n"
		"switch: its management address and the prefixes allocated to it.\n"
		"Without NODE: every host.\n");
	return f == stdout ? CTL_OK : CTL_USAGE;
}

static void show_chain(struct ctl *c, uint32_t addr)
{
	const struct dard_topo *t = c->cfg.topo;
	uint32_t chain[DARD_LEVEL_MAX + 1];
	unsigned l;

	if (dard_plan_decode(t, c->cfg.plan, addr, chain, NULL) == DARD_NONE)
		return;
	open_json_array(PRINT_JSON, "via");
	for (l = 0; l < t->nlevels; l++)
		print_string(PRINT_ANY, NULL, " %s", t->node[chain[l]].name);
	close_json_array(PRINT_JSON, NULL);
}

static void show_aliases(struct ctl *c, uint32_t h, int v6)
{
	const struct dard_topo *t = c->cfg.topo;
	uint32_t i, na = dard_plan_naliases(t, h);
	char b[INET6_ADDRSTRLEN];

	open_json_array(PRINT_JSON, v6 ? "aliases6" : "aliases");
	for (i = 0; i < na; i++) {
		uint32_t a = dard_plan_alias(t, c->cfg.plan, h, i);
		struct in6_addr a6;

		dard_plan_v6(c->cfg.plan, a, &a6);
		open_json_object(NULL);
		print_string(PRINT_ANY, "addr", "    alias %s via",
			     v6 ? dard_addr6_str(&a6, b) : dard_addr_str(a, b));
		show_chain(c, a);
		print_nl();
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

static void show_host(struct ctl *c, uint32_t h)
{
	const struct dard_topo *t = c->cfg.topo;
	const struct dard_node *n = &t->node[h];
	int family = c->cfg.plan->opts.family;
	char b[INET6_ADDRSTRLEN];
	struct in6_addr id6;

	open_json_object(NULL);
	print_string(PRINT_ANY, "name", "%s:", n->name);
	print_string(PRINT_ANY, "tor", " tor %s",
		     t->node[dard_topo_tor(t, h)].name);
	/* IDs are IPv4 in every family: 4in6 carries them over IPv6. */
	print_string(PRINT_ANY, "id", " id %s", dard_addr_str(n->id, b));
	if (dard_family_has6(family)) {
		dard_plan_id6(t, c->cfg.plan, h, &id6);
		print_string(PRINT_ANY, "id6", " id6 %s",
			     dard_addr6_str(&id6, b));
	}
	print_string(PRINT_ANY, "mgmt", " mgmt %s", dard_addr_str(n->mgmt, b));
	print_uint(PRINT_ANY, "naliases", " aliases %llu\n",
		   dard_plan_naliases(t, h));
	if (dard_family_has4(family))
		show_aliases(c, h, 0);
	if (dard_family_has6(family))
		show_aliases(c, h, 1);
	close_json_object();
}

static void show_switch(struct ctl *c, uint32_t s)
{
	const struct dard_topo *t = c->cfg.topo;
	const struct dard_plan *p = c->cfg.plan;
	const struct dard_node *n = &t->node[s];
	char b[DARD_PREFIX6_STRLEN];
	struct in6_addr a6;
	uint32_t i;

	open_json_object(NULL);
	print_string(PRINT_ANY, "name", "%s:", n->name);
	print_string(PRINT_ANY, "level", " level %s", t->level_name[n->level]);
	print_string(PRINT_ANY, "mgmt", " mgmt %s", dard_addr_str(n->mgmt, b));
	print_uint(PRINT_ANY, "nprefixes", " prefixes %llu\n", n->nalloc);
	open_json_array(PRINT_JSON, "prefixes");
	for (i = 0; i < n->nalloc; i++) {
		const struct dard_alloc *a = &p->alloc[n->alloc + i];

		open_json_object(NULL);
		if (dard_family_has4(p->opts.family))
			print_string(PRINT_ANY, "prefix", "    prefix %s",
				     dard_prefix_str(a->prefix,
						     p->plen[n->level], b));
		if (dard_family_has6(p->opts.family)) {
			dard_plan_v6(p, a->prefix, &a6);
			print_string(
				PRINT_ANY, "prefix6",
				dard_family_has4(p->opts.family)
					? " prefix6 %s"
					: "    prefix6 %s",
				dard_prefix6_str(&a6, p->plen6[n->level], b));
		}
		if (a->up_port) {
			print_uint(PRINT_ANY, "port", " from port %llu",
				   a->up_port);
			print_string(
				PRINT_ANY, "parent", " (%s)",
				t->node[dard_topo_peer(t, s, a->up_port)].name);
		}
		print_nl();
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	close_json_object();
}

int do_addr(struct ctl *c, int argc, char **argv)
{
	uint32_t n, i;

	if (argc < 1)
		return usage(stderr);
	if (ctl_wants_help(argc, argv))
		return usage(stdout);
	if (strcmp(argv[0], "show"))
		return ctl_unknown("addr", argv[0]);
	if (argc > 2) {
		fprintf(stderr, "addr show: unexpected `%s'\n", argv[2]);
		return usage(stderr);
	}
	if (ctl_load(c))
		return CTL_ERR;
	if (argc == 1) {
		for (i = 0; i < c->cfg.topo->nhosts; i++)
			show_host(c, c->cfg.topo->hosts[i]);
		return CTL_OK;
	}
	n = ctl_node(c, argv[1], -1);
	if (n == DARD_NONE)
		return CTL_ERR;
	if (c->cfg.topo->node[n].is_host)
		show_host(c, n);
	else
		show_switch(c, n);
	return CTL_OK;
}
