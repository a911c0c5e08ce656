// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Tests dard_table_switch(): the routes and rules dard-switchd installs
 * and dardctl renders, from the paper's Table 2 tables.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "addr.h"
#include "addr6.h"
#include "err.h"
#include "gen.h"
#include "table.h"
#include "unit.h"

static void assert_entry(const struct dard_sw_entry *e, enum dard_sw_kind kind,
			 uint32_t table, const char *prefix, unsigned len,
			 unsigned port)
{
	char b[24];

	if (e->kind != kind || e->table != table || e->prefix != A(prefix) ||
	    e->len != len || (kind == DARD_SW_ROUTE && e->port != port))
		fail_msg("entry %d %s table %u port %u, expected %d %s/%u "
			 "table %u port %u",
			 e->kind, dard_prefix_str(e->prefix, e->len, b),
			 e->table, e->port, kind, prefix, len, table, port);
}

/* The far end of sw's port: where its routes out of that port go. */
static uint32_t peer(const struct dard_topo *t, const struct dard_plan *p,
		     uint32_t sw, unsigned port)
{
	uint32_t li = t->node[sw].port[port - 1];

	return dard_plan_link_addr(p, li, t->link[li].up != sw);
}

/* aggr1_1: Table 2's routes, its unreachable prefixes, then the rules. */
static void test_aggr(void **state)
{
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_sw_entry *e;
	char err[DARD_ERR_MAX];
	uint32_t n, a11, i;

	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &t, &p);
	a11 = find(t, "aggr1_1");
	assert_int_equal(dard_table_switch(t, p, a11, &e, &n, err), 0);
	assert_int_equal(n, 4 + 2 + 1 + 2 + 2);
	assert_entry(&e[0], DARD_SW_ROUTE, 100, "10.4.16.64", 26, 1);
	assert_entry(&e[1], DARD_SW_ROUTE, 100, "10.4.16.128", 26, 2);
	assert_entry(&e[3], DARD_SW_ROUTE, 100, "10.8.16.128", 26, 2);
	for (i = 0; i < 4; i++)
		assert_int_equal(e[i].via, peer(t, p, a11, e[i].port));
	assert_entry(&e[4], DARD_SW_UNREACHABLE, 100, "10.4.16.0", 20, 0);
	assert_entry(&e[5], DARD_SW_UNREACHABLE, 100, "10.8.16.0", 20, 0);
	assert_entry(&e[6], DARD_SW_RULE, 100, "0.0.0.0", 0, 0);
	assert_int_equal(e[6].pref, 100);
	/* A default route per up port, in that port's own table. */
	assert_entry(&e[7], DARD_SW_ROUTE, 1003, "0.0.0.0", 0, 3);
	assert_entry(&e[8], DARD_SW_ROUTE, 1004, "0.0.0.0", 0, 4);
	assert_int_equal(e[7].via, peer(t, p, a11, 3));
	assert_int_not_equal(e[7].via, e[8].via);
	assert_entry(&e[9], DARD_SW_RULE, 1003, "10.4.0.0", 14, 0);
	assert_entry(&e[10], DARD_SW_RULE, 1004, "10.8.0.0", 14, 0);
	assert_int_equal(e[9].pref, 200);
	assert_int_equal(e[10].pref, 200);
	free(e);
	dard_plan_free(p);
	dard_topo_free(t);
}

/*
 * Every switch: the sizes add up, and a table's routes come before the
 * rule that selects it (a rule to an empty table would send packets on
 * to the main table while the rest is installed).
 */
static void test_every_switch(void **state)
{
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_sw_entry *e;
	char err[DARD_ERR_MAX];
	uint32_t n, sw, i, j, rules;

	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &t, &p);
	for (sw = 0; sw < t->nnodes; sw++) {
		const struct dard_node *nd = &t->node[sw];

		if (nd->is_host)
			continue;
		assert_int_equal(dard_table_switch(t, p, sw, &e, &n, err), 0);
		assert_in_range(
			n, dard_table_downhill_size(t, sw) + 1 + nd->nup,
			dard_table_downhill_size(t, sw) + nd->nalloc + 1 +
				nd->nup + dard_table_uphill_size(t, sw));
		for (i = 0, rules = 0; i < n; i++) {
			if (e[i].kind != DARD_SW_RULE)
				continue;
			rules++;
			for (j = i + 1; j < n; j++)
				if (e[j].kind != DARD_SW_RULE)
					assert_int_not_equal(e[j].table,
							     e[i].table);
		}
		assert_int_equal(rules, 1 + dard_table_uphill_size(t, sw));
		/* A core has no uphill table, nor a way up. */
		if (!nd->level)
			for (i = 0; i < n; i++)
				assert_true(e[i].table == 100);
		free(e);
	}
	dard_plan_free(p);
	dard_topo_free(t);
}

/*
 * Every entry's IPv6 prefix, in a dual-stack fabric: the IPv4 prefix
 * re-encoded with its field's IPv6 length (aggr1_1 of fattree:4).
 */
static void test_prefix6(void **state)
{
	static const char *const want[] = {
		"fd00:da::1:1:1:0/112",
		"fd00:da::1:1:2:0/112",
		"fd00:da::2:1:1:0/112",
		"fd00:da::2:1:2:0/112",
		"fd00:da::1:1:0:0/96",
		"fd00:da::2:1:0:0/96",
		"::/0",
		"::/0",
		"::/0",
		"fd00:da:0:0:1::/80",
		"fd00:da:0:0:2::/80",
	};
	struct dard_plan_opts o;
	struct dard_topo *t = unit_gen("fattree:4");
	struct dard_plan *p;
	struct dard_sw_entry *e;
	struct dard_prefix6 pre;
	char err[DARD_ERR_MAX], b[DARD_PREFIX6_STRLEN];
	uint32_t n, i;

	dard_plan_opts_init(&o);
	o.family = DARD_FAMILY_DUAL;
	p = dard_plan_new(t, &o, err);
	assert_non_null(p);
	assert_int_equal(
		dard_table_switch(t, p, find(t, "aggr1_1"), &e, &n, err), 0);
	assert_int_equal(n, sizeof(want) / sizeof(want[0]));
	for (i = 0; i < n; i++) {
		dard_table_prefix6(p, e[i].prefix, e[i].len, e[i].field, &pre);
		if (strcmp(dard_prefix6_str(&pre.addr, pre.len, b), want[i]))
			fail_msg("entry %u: %s, expected %s", i, b, want[i]);
	}
	free(e);
	dard_plan_free(p);
	dard_topo_free(t);
}

/*
 * A field of no IPv4 bits (fattree:2, compact: an aggregation switch has
 * one down port) still has 16 in IPv6: the switch's own IPv6 prefix is
 * shorter than its child's, and unreachable in IPv6 alone.
 */
static void test_unreachable_only6(void **state)
{
	struct dard_plan_opts o;
	struct dard_topo *t = unit_gen("fattree:2");
	struct dard_plan *p;
	struct dard_sw_entry *e;
	char err[DARD_ERR_MAX];
	uint32_t n, i, only6 = 0, unreach = 0;
	int family;

	for (family = DARD_FAMILY_IPV4; family <= DARD_FAMILY_DUAL;
	     family += DARD_FAMILY_DUAL - DARD_FAMILY_IPV4) {
		dard_plan_opts_init(&o);
		o.family = family;
		o.mode = DARD_MODE_COMPACT;
		p = dard_plan_new(t, &o, err);
		assert_non_null(p);
		assert_int_equal(dard_table_switch(t, p, find(t, "aggr1_1"), &e,
						   &n, err),
				 0);
		for (i = 0; i < n; i++) {
			unreach += e[i].kind == DARD_SW_UNREACHABLE;
			only6 += e[i].only6;
		}
		free(e);
		dard_plan_free(p);
	}
	/* None in IPv4; one in dual stack, IPv6's alone. */
	assert_int_equal(unreach, 1);
	assert_int_equal(only6, 1);
	dard_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_aggr),
		cmocka_unit_test(test_every_switch),
		cmocka_unit_test(test_prefix6),
		cmocka_unit_test(test_unreachable_only6),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
