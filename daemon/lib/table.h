/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A switch's static tables (DARD paper, section 2.3, Table 2): the downhill
 * table holds the prefixes the switch allocated to the subtrees below each
 * down port and is looked up on the destination first; the uphill table
 * holds the prefixes allocated from above, by up port, and is looked up on
 * the source when the downhill table has no match. Roots have no uphill
 * table. Pure: no I/O.
 */
#ifndef _DARD_TABLE_H
#define _DARD_TABLE_H

#include "addr.h"
#include "topo.h"

struct dard_route {
	uint32_t prefix;
	uint8_t len;
	uint16_t port;
};

/*
 * Fill out (room for max entries) and return the number of entries, which
 * dard_table_*_size() gives beforehand.
 */
uint32_t dard_table_downhill_size(const struct dard_topo *t, uint32_t sw);
uint32_t dard_table_downhill(const struct dard_topo *t,
			     const struct dard_plan *p, uint32_t sw,
			     struct dard_route *out);
uint32_t dard_table_uphill_size(const struct dard_topo *t, uint32_t sw);
uint32_t dard_table_uphill(const struct dard_topo *t, const struct dard_plan *p,
			   uint32_t sw, struct dard_route *out);

#endif /* _DARD_TABLE_H */
