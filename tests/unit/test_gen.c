// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Tests the topology generators: sizes, naming, wiring and spec parsing. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gen.h"
#include "unit.h"

/* Switches per level (count[nlevels] is the hosts). */
static void count_levels(const struct dard_topo *t, uint32_t *count)
{
	uint32_t i;

	memset(count, 0, (DARD_LEVEL_MAX + 1) * sizeof(*count));
	for (i = 0; i < t->nnodes; i++)
		count[t->node[i].level]++;
}

static void check_sizes(const char *spec, uint32_t l0, uint32_t l1, uint32_t l2,
			uint32_t hosts, uint32_t links)
{
	struct dard_topo *t = unit_gen(spec);
	uint32_t count[DARD_LEVEL_MAX + 1];

	assert_int_equal(t->nlevels, 3);
	assert_true(t->finalized);
	count_levels(t, count);
	assert_int_equal(count[0], l0);
	assert_int_equal(count[1], l1);
	assert_int_equal(count[2], l2);
	assert_int_equal(count[3], hosts);
	assert_int_equal(t->nroots, l0);
	assert_int_equal(t->nhosts, hosts);
	assert_int_equal(t->nnodes, l0 + l1 + l2 + hosts);
	assert_int_equal(t->nlinks, links);
	dard_topo_free(t);
}

static void test_fattree_sizes(void **state)
{
	/* 4 cores, 8 aggr, 8 tor: 16 + 16 + 16 links. */
	check_sizes("fattree:4", 4, 8, 8, 16, 48);
	/* 16 cores, 32 aggr, 32 tor: 128 + 128 + 128 links. */
	check_sizes("fattree:8", 16, 32, 32, 128, 384);
	check_sizes("fattree:16", 64, 128, 128, 1024, 3 * 1024);
}

/*
 * Tapered at the ToRs, T:1: p/(T+1) up ports and T times as many hosts per
 * ToR, as many aggregation switches per pod, p/2 ToRs per pod.
 */
static void test_fattree_tapered_sizes(void **state)
{
	/* 2 cores, 4 aggr, 8 tor, 24 hosts: 8 + 8 + 24 links. */
	check_sizes("fattree:4,3", 2, 4, 8, 24, 40);
	/* 8 cores, 16 aggr, 32 tor, 6 hosts each: 64 + 64 + 192. */
	check_sizes("fattree:8,3", 8, 16, 32, 192, 320);
	/* The thesis's 3:1 ToR: 24 hosts, 8 up ports, on 32-port switches. */
	check_sizes("fattree:32,3", 128, 256, 512, 12288,
		    128 * 32 + 256 * 16 + 12288);
	/* Taper 1 is the full-bisection tree, named as such. */
	check_sizes("fattree:8,1", 16, 32, 32, 128, 384);
}

/*
 * fattree:8,3: a ToR's down ports are its six hosts, its up ports 7 and 8
 * reach aggregation switches 1 and 2; aggregation switch i reaches cores
 * 4(i-1)+1..4i, and each core one aggregation switch of that index per pod.
 */
static void test_fattree_tapered_wiring(void **state)
{
	struct dard_topo *t = unit_gen("fattree:8,3");
	uint32_t tor = find(t, "tor3_2"), a32 = find(t, "aggr3_2");
	unsigned k;

	assert_string_equal(t->name, "fattree:8,3");
	assert_int_equal(t->node[tor].ndown, 6);
	assert_int_equal(t->node[tor].nup, 2);
	assert_int_equal(dard_topo_peer(t, tor, 1), find(t, "e3_7"));
	assert_int_equal(dard_topo_peer(t, tor, 6), find(t, "e3_12"));
	assert_int_equal(dard_topo_peer(t, tor, 7), find(t, "aggr3_1"));
	assert_int_equal(dard_topo_peer(t, tor, 8), a32);
	assert_int_equal(t->node[a32].ndown, 4);
	assert_int_equal(t->node[a32].nup, 4);
	for (k = 0; k < 4; k++) {
		char name[DARD_NAME_MAX];

		snprintf(name, sizeof(name), "core%u", 5 + k);
		assert_int_equal(dard_topo_peer(t, a32, 5 + k), find(t, name));
	}
	for (k = 1; k <= 8; k++) {
		char name[DARD_NAME_MAX];

		snprintf(name, sizeof(name), "aggr%u_2", k);
		assert_int_equal(dard_topo_peer(t, find(t, "core6"), k),
				 find(t, name));
	}
	assert_int_equal(t->node[find(t, "core6")].ndown, 8);
	dard_topo_free(t);
}

static void test_fattree_switch_total(void **state)
{
	struct dard_topo *t = unit_gen("fattree:4");

	assert_int_equal(t->nnodes - t->nhosts, 20);
	dard_topo_free(t);
	t = unit_gen("fattree:8");
	assert_int_equal(t->nnodes - t->nhosts, 80);
	dard_topo_free(t);
}

static void test_clos_sizes(void **state)
{
	struct dard_topo *t;
	char err[DARD_ERR_MAX] = "";

	/* 2 int, 4 aggr, 4 tor, 8 hosts; 8 + 8 + 8 links. */
	check_sizes("clos:4,4,2", 2, 4, 4, 8, 24);
	/* The host count defaults to 2 per ToR. */
	check_sizes("clos:4,4", 2, 4, 4, 8, 24);
	/* 4 int, 8 aggr, 16 tor, 48 hosts: 32 + 32 + 48 links. */
	check_sizes("clos:8,8,3", 4, 8, 16, 48, 112);

	t = dard_gen_clos(4, 4, 2, 1000, err);
	assert_non_null(t);
	assert_string_equal(t->level_name[0], "int");
	assert_string_equal(t->level_name[1], "aggr");
	assert_string_equal(t->level_name[2], "tor");
	assert_string_equal(t->name, "clos:4,4,2");
	dard_topo_free(t);
}

static void test_3tier_sizes(void **state)
{
	struct dard_topo *t;
	uint32_t i;

	/* 8 cores, 4 pods of 2 aggr and 12 acc of 5 hosts. */
	check_sizes("3tier", 8, 8, 48, 240, 8 * 8 + 8 * 12 + 240);
	check_sizes("3tier:2", 8, 4, 24, 120, 8 * 4 + 4 * 12 + 120);

	/* 2.5:1 at the access level, 1.5:1 at the aggregation level. */
	t = unit_gen("3tier");
	for (i = 0; i < t->nnodes; i++) {
		const struct dard_node *n = &t->node[i];

		if (n->level == 1) {
			assert_int_equal(n->ndown, 12);
			assert_int_equal(n->nup, 8);
		} else if (n->level == 2) {
			assert_int_equal(n->ndown, 5);
			assert_int_equal(n->nup, 2);
		}
	}
	dard_topo_free(t);
}

static void test_fattree_naming(void **state)
{
	struct dard_topo *t = unit_gen("fattree:4");
	uint32_t core1 = find(t, "core1"), core2 = find(t, "core2");
	uint32_t a11 = find(t, "aggr1_1"), a21 = find(t, "aggr2_1");
	uint32_t a12 = find(t, "aggr1_2");
	uint32_t e23 = find(t, "e2_3"), tor22 = find(t, "tor2_2");
	uint32_t e11 = find(t, "e1_1"), tor11 = find(t, "tor1_1");

	assert_string_equal(t->name, "fattree:4");
	assert_string_equal(t->level_name[0], "core");
	assert_string_equal(t->level_name[1], "aggr");
	assert_string_equal(t->level_name[2], "tor");
	assert_string_equal(dard_topo_level_name(t, 3), "host");

	assert_int_equal(dard_topo_tor(t, e23), tor22);
	assert_int_equal(dard_topo_tor(t, e11), tor11);
	assert_int_equal(dard_topo_peer(t, tor22, 1), find(t, "e2_3"));
	assert_int_equal(dard_topo_peer(t, tor22, 2), find(t, "e2_4"));

	assert_int_equal(dard_topo_peer(t, core1, 1), a11);
	assert_int_equal(dard_topo_peer(t, core1, 2), a21);
	assert_int_equal(dard_topo_peer(t, core1, 4), find(t, "aggr4_1"));
	assert_int_equal(dard_topo_peer(t, core1, 5), DARD_NONE);
	assert_int_equal(dard_topo_peer(t, a11, 3), core1);
	assert_int_equal(dard_topo_peer(t, a11, 4), core2);
	assert_int_equal(dard_topo_peer(t, a11, 1), tor11);
	assert_int_equal(dard_topo_peer(t, a11, 2), find(t, "tor1_2"));
	assert_int_equal(dard_topo_peer(t, a12, 3), find(t, "core3"));
	assert_int_equal(dard_topo_peer(t, a12, 4), find(t, "core4"));
	assert_int_equal(dard_topo_peer(t, tor11, 3), a11);
	assert_int_equal(dard_topo_peer(t, tor11, 4), a12);

	/* Down ports come first, in order. */
	assert_int_equal(t->node[a11].ndown, 2);
	assert_int_equal(t->node[a11].nup, 2);
	assert_int_equal(t->node[a11].down[0], 1);
	assert_int_equal(t->node[a11].down[1], 2);
	assert_int_equal(t->node[core1].nup, 0);
	assert_int_equal(t->node[core1].ndown, 4);

	/* Roots and hosts are ranked in node order. */
	assert_int_equal(t->roots[0], core1);
	assert_int_equal(t->node[core2].rank, 1);
	assert_int_equal(t->hosts[0], e11);
	assert_true(t->node[e23].is_host);
	assert_int_equal(t->node[e23].level, 3);
	assert_int_equal(dard_topo_link_between(t, a11, core1),
			 t->node[core1].port[0]);
	assert_int_equal(dard_topo_link_between(t, core1, tor11), DARD_NONE);
	dard_topo_free(t);
}

/* Every link joins adjacent levels and both ports point back at it. */
static void check_links(const char *spec)
{
	struct dard_topo *t = unit_gen(spec);
	uint32_t i;

	for (i = 0; i < t->nlinks; i++) {
		const struct dard_link *l = &t->link[i];

		assert_int_equal(t->node[l->down].level,
				 t->node[l->up].level + 1);
		assert_false(t->node[l->up].is_host);
		assert_int_equal(t->node[l->up].port[l->up_port - 1], i);
		assert_int_equal(t->node[l->down].port[l->down_port - 1], i);
		assert_int_equal(l->mbps, 1000);
		assert_ptr_equal(dard_topo_port_link(t, l->up, l->up_port), l);
	}
	for (i = 0; i < t->nhosts; i++) {
		const struct dard_node *h = &t->node[t->hosts[i]];

		assert_int_equal(h->nports, 1);
		assert_int_equal(h->nup, 1);
		assert_int_equal(t->node[dard_topo_tor(t, t->hosts[i])].level,
				 t->nlevels - 1);
	}
	dard_topo_free(t);
}

static void test_links_adjacent(void **state)
{
	check_links("fattree:4");
	check_links("fattree:6");
	check_links("fattree:8");
	check_links("fattree:8,3");
	check_links("fattree:12,2");
	check_links("clos:4,4");
	check_links("clos:8,4,3");
	check_links("3tier");
}

static void test_mbps(void **state)
{
	char err[DARD_ERR_MAX];
	struct dard_topo *t = dard_gen_fattree(4, 100, err);

	assert_non_null(t);
	assert_int_equal(t->mbps, 100);
	assert_int_equal(t->link[0].mbps, 100);
	assert_int_equal(t->link[t->nlinks - 1].mbps, 100);
	dard_topo_free(t);
}

static void test_spec_good(void **state)
{
	static const char *const good[] = {
		"fattree:2",   "fattree:4", "fattree:6",  "fattree:4,3",
		"fattree:8,1", "clos:4,4",  "clos:4,4,3", "clos:2,2,1",
		"3tier",       "3tier:1",
	};
	unsigned i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct dard_topo *t = unit_gen(good[i]);

		assert_true(dard_gen_is_spec(good[i]));
		dard_topo_free(t);
	}
	assert_false(dard_gen_is_spec("topo.conf"));
	assert_false(dard_gen_is_spec("3tierx"));
	assert_false(dard_gen_is_spec("mesh:4"));
}

static void test_spec_bad(void **state)
{
	static const struct {
		const char *spec;
		const char *msg;
	} bad[] = {
		{"fattree:3", "p must be even"},
		{"fattree:66", "p must be even"},
		{"fattree:0", "p must be even"},
		{"fattree:", "invalid topology `fattree:'"},
		{"fattree:4x", "invalid topology `fattree:4x'"},
		{"fattree:-4", "invalid topology"},
		{"fattree:4,4", "the taper plus one must divide p"},
		{"fattree:8,0", "the taper plus one must divide p"},
		{"fattree:66,2", "p must be even"},
		{"fattree:8,3,1", "invalid topology"},
		{"fattree:8,", "invalid topology"},
		{"fattree:+4", "invalid topology"},
		{"fattree: 4", "invalid topology"},
		{"fattree:8,+1", "invalid topology"},
		{"fattree:100002", "invalid topology"},
		{"fattree:4294967300", "invalid topology"},
		{"clos:4,99999999999999999999", "invalid topology"},
		{"clos:4", "invalid topology `clos:4'"},
		{"clos:4,", "invalid topology"},
		{"clos:4,4,2,2", "invalid topology"},
		{"clos:3,4", "D_I and D_A must be even"},
		{"clos:4,130", "D_I and D_A must be even"},
		{"clos:4,4,0", "hosts per ToR"},
		{"3tier:0", "pods must be in 1..64"},
		{"3tier:65", "pods must be in 1..64"},
		{"3tier:", "invalid topology"},
		{"mesh:4", "invalid topology `mesh:4'"},
		{"", "invalid topology"},
	};
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[DARD_ERR_MAX] = "";
		struct dard_topo *t;

		t = dard_gen_spec(bad[i].spec, 1000, err);
		if (t)
			fail_msg("`%s' was accepted", bad[i].spec);
		if (!strstr(err, bad[i].msg))
			fail_msg("`%s': error `%s' lacks `%s'", bad[i].spec,
				 err, bad[i].msg);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fattree_sizes),
		cmocka_unit_test(test_fattree_switch_total),
		cmocka_unit_test(test_fattree_tapered_sizes),
		cmocka_unit_test(test_fattree_tapered_wiring),
		cmocka_unit_test(test_clos_sizes),
		cmocka_unit_test(test_3tier_sizes),
		cmocka_unit_test(test_fattree_naming),
		cmocka_unit_test(test_links_adjacent),
		cmocka_unit_test(test_mbps),
		cmocka_unit_test(test_spec_good),
		cmocka_unit_test(test_spec_bad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
