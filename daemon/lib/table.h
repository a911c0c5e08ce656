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
	uint8_t field; /* the plan field len ends at: p->plen[field] */
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

/*
 * How a Linux switch holds those tables: the downhill table DOWNHILL,
 * looked up first (rule preference DOWNHILL); then one table per up port
 * (UPHILL + port, a default route through it), chosen by `from PREFIX'
 * rules at preference UPHILL_PREF. dardctl renders them as commands and
 * dard-switchd installs them; both from dard_table_switch().
 */
enum {
	DARD_TABLE_DOWNHILL = 100, /* and its rule's preference */
	DARD_TABLE_UPHILL_PREF = 200,
	DARD_TABLE_UPHILL = 1000, /* + up port */
};

enum dard_sw_kind {
	DARD_SW_ROUTE,	     /* prefix/len via via out of port, in table */
	DARD_SW_UNREACHABLE, /* prefix/len unreachable, in table */
	DARD_SW_RULE,	     /* pref: from prefix/len (all if len 0) -> table */
};

struct dard_sw_entry {
	enum dard_sw_kind kind;
	uint32_t table, pref;
	uint32_t prefix, via; /* host order */
	uint8_t len;
	uint8_t field; /* p->plen[field] == len, when len is not 0 */
	uint8_t only6; /* IPv6's alone (an unreachable IPv4 does not need) */
	uint16_t port;
	/* In a fabric with IPv6: the prefix in IPv6, and a route's next hop,
	 * the far end's link-local address (dard_sw_peer_ll6). */
	struct dard_prefix6 prefix6;
	struct in6_addr via6;
};

/*
 * An entry's or route's prefix in IPv6 (addr6.h): the same fields, the
 * length of its field; ::/0 for a default.
 */
void dard_table_prefix6(const struct dard_plan *p, uint32_t prefix,
			unsigned len, unsigned field, struct dard_prefix6 *out);

/*
 * Every route and rule switch sw needs, in the order they are installed
 * (routes of a table before the rule that selects it): *out (free it) and
 * *n. Returns 0 or -ENOMEM with err (DARD_ERR_MAX).
 */
int dard_table_switch(const struct dard_topo *t, const struct dard_plan *p,
		      uint32_t sw, struct dard_sw_entry **out, uint32_t *n,
		      char *err);

/*
 * The address of the far end of switch sw's port (which has a link) on
 * the link's /31: its next hop that way.
 */
uint32_t dard_sw_peer_addr(const struct dard_topo *t, const struct dard_plan *p,
			   uint32_t sw, unsigned port);
/* The same in IPv6: the far end's link-local address (dard_link_ll6). */
void dard_sw_peer_ll6(const struct dard_topo *t, uint32_t sw, unsigned port,
		      struct in6_addr *a);

#endif /* _DARD_TABLE_H */
