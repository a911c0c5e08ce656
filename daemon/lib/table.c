// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Downhill and uphill tables, in the paper's order: by prefix, then port. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "addr6.h"
#include "err.h"
#include "table.h"

uint32_t dard_table_downhill_size(const struct dard_topo *t, uint32_t sw)
{
	const struct dard_node *n = &t->node[sw];

	return n->is_host ? 0 : n->nalloc * n->ndown;
}

uint32_t dard_table_downhill(const struct dard_topo *t,
			     const struct dard_plan *p, uint32_t sw,
			     struct dard_route *out)
{
	const struct dard_node *n = &t->node[sw];
	unsigned f = n->level + 1;
	uint32_t i, k, cnt = 0;

	if (n->is_host)
		return 0;
	for (i = 0; i < n->nalloc; i++) {
		uint32_t prefix = p->alloc[n->alloc + i].prefix;

		for (k = 0; k < n->ndown; k++) {
			uint32_t li = n->port[n->down[k] - 1];

			out[cnt].prefix = prefix | p->link_val[li]
							   << p->shift[f];
			out[cnt].len = p->plen[f];
			out[cnt].field = f;
			out[cnt].port = n->down[k];
			cnt++;
		}
	}
	return cnt;
}

uint32_t dard_table_uphill_size(const struct dard_topo *t, uint32_t sw)
{
	const struct dard_node *n = &t->node[sw];

	return n->is_host || !n->level ? 0 : n->nalloc;
}

/*
 * One entry per allocation: the parent's prefix it was carved from, to the
 * port it came through (Table 2: aggr1_1 sends 10.4.0.0/14 up port 3). The
 * parents' prefixes are disjoint because links join adjacent levels only.
 */
uint32_t dard_table_uphill(const struct dard_topo *t, const struct dard_plan *p,
			   uint32_t sw, struct dard_route *out)
{
	const struct dard_node *n = &t->node[sw];
	uint8_t len;
	uint32_t i;

	if (n->is_host || !n->level)
		return 0;
	len = p->plen[n->level - 1];
	for (i = 0; i < n->nalloc; i++) {
		const struct dard_alloc *a = &p->alloc[n->alloc + i];

		out[i].prefix = a->prefix & dard_mask(len);
		out[i].len = len;
		out[i].field = n->level - 1;
		out[i].port = a->up_port;
	}
	return n->nalloc;
}

uint32_t dard_sw_peer_addr(const struct dard_topo *t, const struct dard_plan *p,
			   uint32_t sw, unsigned port)
{
	uint32_t li = t->node[sw].port[port - 1];

	return dard_plan_link_addr(p, li, t->link[li].up != sw);
}

void dard_sw_peer_ll6(const struct dard_topo *t, uint32_t sw, unsigned port,
		      struct in6_addr *a)
{
	uint32_t li = t->node[sw].port[port - 1];

	dard_link_ll6(t->link[li].up != sw, a);
}

void dard_table_prefix6(const struct dard_plan *p, uint32_t prefix,
			unsigned len, unsigned field, struct dard_prefix6 *out)
{
	memset(out, 0, sizeof(*out));
	if (!len)
		return;
	dard_plan_v6(p, prefix, &out->addr);
	out->len = p->plen6[field];
}

static void add(struct dard_sw_entry *e, uint32_t *cnt, enum dard_sw_kind kind,
		uint32_t table, uint32_t prefix, uint8_t len, uint8_t field)
{
	struct dard_sw_entry *x = &e[(*cnt)++];

	x->kind = kind;
	x->table = table;
	x->prefix = prefix;
	x->len = len;
	x->field = field;
}

/* A route's port and next hop, in each family. */
static void route_via(const struct dard_topo *t, const struct dard_plan *p,
		      uint32_t sw, struct dard_sw_entry *x, unsigned port)
{
	x->port = port;
	x->via = dard_sw_peer_addr(t, p, sw, port);
	dard_sw_peer_ll6(t, sw, port, &x->via6);
}

/* Uphill entries after the downhill ones, reusing the same buffer. */
static void add_uphill(const struct dard_topo *t, const struct dard_plan *p,
		       uint32_t sw, struct dard_sw_entry *e, uint32_t *cnt,
		       struct dard_route *r)
{
	const struct dard_node *n = &t->node[sw];
	uint32_t i, nup = dard_table_uphill(t, p, sw, r);

	for (i = 0; i < n->nup; i++) {
		add(e, cnt, DARD_SW_ROUTE, DARD_TABLE_UPHILL + n->up[i], 0, 0,
		    0);
		route_via(t, p, sw, &e[*cnt - 1], n->up[i]);
	}
	for (i = 0; i < nup; i++) {
		add(e, cnt, DARD_SW_RULE, DARD_TABLE_UPHILL + r[i].port,
		    r[i].prefix, r[i].len, r[i].field);
		e[*cnt - 1].pref = DARD_TABLE_UPHILL_PREF;
	}
}

int dard_table_switch(const struct dard_topo *t, const struct dard_plan *p,
		      uint32_t sw, struct dard_sw_entry **out, uint32_t *n,
		      char *err)
{
	const struct dard_node *nd = &t->node[sw];
	uint32_t down = dard_table_downhill_size(t, sw);
	uint32_t up = dard_table_uphill_size(t, sw), i, cnt = 0, max;
	struct dard_sw_entry *e;
	struct dard_route *r;

	max = down + nd->nalloc + 1 + nd->nup + up;
	e = calloc(max, sizeof(*e));
	r = calloc((down > up ? down : up) + 1, sizeof(*r));
	if (!e || !r) {
		free(e);
		free(r);
		return dard_fail(err, -ENOMEM, "out of memory");
	}
	down = dard_table_downhill(t, p, sw, r);
	for (i = 0; i < down; i++) {
		add(e, &cnt, DARD_SW_ROUTE, DARD_TABLE_DOWNHILL, r[i].prefix,
		    r[i].len, r[i].field);
		route_via(t, p, sw, &e[cnt - 1], r[i].port);
	}
	/*
	 * An address inside one of our prefixes that no subtree below owns
	 * (the ToR's reserved host field 1, an unused port) is dropped here
	 * with an ICMP error. Without this it would miss the downhill table,
	 * go up by source and come straight back down until its TTL ran out.
	 */
	/*
	 * IPv6 may need it where IPv4 does not: a field of no IPv4 bits
	 * still has its 16 in IPv6, so there the child's prefix is longer.
	 */
	if (!nd->is_host && (p->plen[nd->level] != p->plen[nd->level + 1] ||
			     p->plen6[nd->level] != p->plen6[nd->level + 1]))
		for (i = 0; i < nd->nalloc; i++) {
			add(e, &cnt, DARD_SW_UNREACHABLE, DARD_TABLE_DOWNHILL,
			    p->alloc[nd->alloc + i].prefix, p->plen[nd->level],
			    nd->level);
			e[cnt - 1].only6 =
				p->plen[nd->level] == p->plen[nd->level + 1];
		}
	add(e, &cnt, DARD_SW_RULE, DARD_TABLE_DOWNHILL, 0, 0, 0);
	e[cnt - 1].pref = DARD_TABLE_DOWNHILL;
	add_uphill(t, p, sw, e, &cnt, r);
	for (i = 0; dard_family_has6(p->opts.family) && i < cnt; i++)
		dard_table_prefix6(p, e[i].prefix, e[i].len, e[i].field,
				   &e[i].prefix6);
	free(r);
	*out = e;
	*n = cnt;
	return 0;
}
