// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Downhill and uphill tables, in the paper's order: by prefix, then port. */
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
		out[i].port = a->up_port;
	}
	return n->nalloc;
}
