// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Writer of the host configuration file (see config.h). */
#include "addr6.h"
#include "config.h"

/* An IPv4 fabric's file stays as it was before IPv6. */
static void write_family(const struct dard_plan_opts *o, struct dard_buf *b)
{
	char a[DARD_PREFIX6_STRLEN];

	if (!dard_family_has6(o->family))
		return;
	dard_buf_printf(b, "family %s\n", dard_family_name(o->family));
	dard_buf_printf(b, "base6 %s\n",
			dard_prefix6_str(&o->base6.addr, o->base6.len, a));
	dard_buf_printf(b, "ids6 %s\n",
			dard_prefix6_str(&o->ids6.addr, o->ids6.len, a));
	if (o->outer != DARD_OUTER_AUTO)
		dard_buf_printf(b, "outer %s\n", dard_outer_name(o->outer));
}

/* Lines of at most 64 aliases, well inside the parser's limits. */
static void write_aliases(const struct dard_topo *t, const struct dard_plan *p,
			  int v6, struct dard_buf *b)
{
	char a[INET6_ADDRSTRLEN];
	uint32_t i, j;

	for (i = 0; i < t->nhosts; i++) {
		uint32_t h = t->hosts[i], n = dard_plan_naliases(t, h);

		for (j = 0; j < n; j++) {
			struct in6_addr a6;

			if (j % 64 == 0)
				dard_buf_printf(b, "%salias %s", j ? "\n" : "",
						t->node[h].name);
			if (v6)
				dard_plan_alias6(t, p, h, j, &a6);
			dard_buf_printf(
				b, " %s",
				v6 ? dard_addr6_str(&a6, a)
				   : dard_addr_str(dard_plan_alias(t, p, h, j),
						   a));
		}
		dard_buf_printf(b, "\n");
	}
}

void dard_config_write(const struct dard_topo *t, const struct dard_plan *p,
		       unsigned flags, struct dard_buf *b)
{
	const struct dard_plan_opts *o = &p->opts;
	uint32_t i;
	char a[24];
	unsigned l;

	dard_buf_printf(b, "# dard %s, written by dardctl\n",
			flags & DARD_CONFIG_F_PLAN ? "host configuration"
						   : "topology");
	/* The name is optional, and a bare `topology' would not parse. */
	if (t->name[0])
		dard_buf_printf(b, "topology %s\n", t->name);
	dard_buf_printf(b, "capacity %u\nlevels", t->mbps);
	for (l = 0; l < t->nlevels; l++)
		dard_buf_printf(b, " %s", t->level_name[l]);
	dard_buf_printf(b, "\n");
	if (flags & DARD_CONFIG_F_PLAN) {
		dard_buf_printf(b, "base %s\n",
				dard_prefix_str(o->base.addr, o->base.len, a));
		dard_buf_printf(b, "mode %s\n", dard_mode_name(p->mode));
		dard_buf_printf(b, "ids %s\n",
				dard_prefix_str(o->ids.addr, o->ids.len, a));
		dard_buf_printf(
			b, "linknet %s\n",
			dard_prefix_str(o->links.addr, o->links.len, a));
		dard_buf_printf(b, "mgmtnet %s\n",
				dard_prefix_str(o->mgmt.addr, o->mgmt.len, a));
		write_family(o, b);
	}
	for (i = 0; i < t->nnodes; i++) {
		const struct dard_node *n = &t->node[i];

		if (n->is_host)
			dard_buf_printf(b, "host %s", n->name);
		else
			dard_buf_printf(b, "switch %s %s", n->name,
					t->level_name[n->level]);
		if ((flags & DARD_CONFIG_F_PLAN) && n->is_host)
			dard_buf_printf(b, " id %s", dard_addr_str(n->id, a));
		if (flags & DARD_CONFIG_F_PLAN)
			dard_buf_printf(b, " mgmt %s",
					dard_addr_str(n->mgmt, a));
		dard_buf_printf(b, "\n");
	}
	for (i = 0; i < t->nlinks; i++) {
		const struct dard_link *lk = &t->link[i];

		dard_buf_printf(b, "link %s:%u %s:%u", t->node[lk->up].name,
				lk->up_port, t->node[lk->down].name,
				lk->down_port);
		if (lk->mbps != t->mbps)
			dard_buf_printf(b, " capacity %u", lk->mbps);
		dard_buf_printf(b, "\n");
	}
	if (!(flags & DARD_CONFIG_F_ALIASES))
		return;
	if (dard_family_has4(o->family))
		write_aliases(t, p, 0, b);
	if (dard_family_has6(o->family))
		write_aliases(t, p, 1, b);
}
