// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Tests the address plan: Table 2, Figure 2, modes, aliases and decoding. */
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
#include "gen.h"
#include "table.h"
#include "unit.h"

struct fixture {
	struct dard_topo *t;
	struct dard_plan *p;
};

/* Builds spec's topology and plan with base (NULL: default) and mode. */
static void build(struct fixture *f, const char *spec, const char *base,
		  int mode)
{
	unit_build(spec, base, mode, &f->t, &f->p);
}

static void destroy(struct fixture *f)
{
	dard_plan_free(f->p);
	dard_topo_free(f->t);
	f->p = NULL;
	f->t = NULL;
}

static void assert_route(const struct dard_route *r, const char *prefix,
			 unsigned len, unsigned port)
{
	char b[24];

	if (r->prefix != A(prefix) || r->len != len || r->port != port)
		fail_msg("route %s port %u, expected %s/%u port %u",
			 dard_prefix_str(r->prefix, r->len, b), r->port, prefix,
			 len, port);
}

/* The paper's Table 2: aggr1_1's downhill and uphill tables. */
static void test_table2(void **state)
{
	struct fixture f;
	struct dard_route r[16];
	uint32_t a11, core1, tor11;

	build(&f, "fattree:4", NULL, DARD_MODE_AUTO);
	assert_int_equal(f.p->mode, DARD_MODE_PAPER);
	a11 = find(f.t, "aggr1_1");
	core1 = find(f.t, "core1");
	tor11 = find(f.t, "tor1_1");

	assert_int_equal(dard_table_downhill_size(f.t, a11), 4);
	assert_int_equal(dard_table_downhill(f.t, f.p, a11, r), 4);
	assert_route(&r[0], "10.4.16.64", 26, 1);
	assert_route(&r[1], "10.4.16.128", 26, 2);
	assert_route(&r[2], "10.8.16.64", 26, 1);
	assert_route(&r[3], "10.8.16.128", 26, 2);

	assert_int_equal(dard_table_uphill_size(f.t, a11), 2);
	assert_int_equal(dard_table_uphill(f.t, f.p, a11, r), 2);
	assert_route(&r[0], "10.4.0.0", 14, 3);
	assert_route(&r[1], "10.8.0.0", 14, 4);

	/* A core has only the downhill table. */
	assert_int_equal(dard_table_uphill_size(f.t, core1), 0);
	memset(r, 0xa5, sizeof(r));
	assert_int_equal(dard_table_uphill(f.t, f.p, core1, r), 0);
	assert_int_equal(dard_table_downhill_size(f.t, core1), 4);
	assert_int_equal(dard_table_downhill(f.t, f.p, core1, r), 4);
	assert_route(&r[0], "10.4.16.0", 20, 1);
	assert_route(&r[1], "10.4.32.0", 20, 2);
	assert_route(&r[2], "10.4.48.0", 20, 3);
	assert_route(&r[3], "10.4.64.0", 20, 4);

	/* A ToR routes each alias of its hosts down as a /32. */
	assert_int_equal(dard_table_downhill_size(f.t, tor11), 8);
	assert_int_equal(dard_table_downhill(f.t, f.p, tor11, r), 8);
	assert_route(&r[0], "10.4.16.66", 32, 1);
	assert_route(&r[1], "10.4.16.67", 32, 2);
	assert_route(&r[2], "10.8.16.66", 32, 1);
	assert_route(&r[4], "10.12.16.66", 32, 1);
	assert_route(&r[7], "10.16.16.67", 32, 2);
	assert_int_equal(dard_table_uphill(f.t, f.p, tor11, r), 4);
	assert_route(&r[0], "10.4.16.0", 20, 3);
	assert_route(&r[1], "10.8.16.0", 20, 3);
	assert_route(&r[2], "10.12.16.0", 20, 4);
	assert_route(&r[3], "10.16.16.0", 20, 4);

	/* Hosts have no tables. */
	assert_int_equal(dard_table_downhill_size(f.t, find(f.t, "e1_1")), 0);
	assert_int_equal(dard_table_uphill_size(f.t, find(f.t, "e1_1")), 0);
	destroy(&f);
}

/* Figure 2: core1 owns 10.4.0.0/14 and hands /20s to its subtrees. */
static void test_figure2(void **state)
{
	struct fixture f;
	uint32_t chain[DARD_LEVEL_MAX + 1];
	uint32_t core1, a11, a21, e11, e21;
	const struct dard_node *n;
	char err[DARD_ERR_MAX];

	build(&f, "fattree:4", NULL, DARD_MODE_AUTO);
	core1 = find(f.t, "core1");
	a11 = find(f.t, "aggr1_1");
	a21 = find(f.t, "aggr2_1");
	e11 = find(f.t, "e1_1");
	e21 = find(f.t, "e2_1");

	assert_int_equal(f.p->nfields, 4);
	assert_int_equal(f.p->plen[0], 14);
	assert_int_equal(f.p->plen[1], 20);
	assert_int_equal(f.p->plen[2], 26);
	assert_int_equal(f.p->plen[3], 32);

	n = &f.t->node[core1];
	assert_int_equal(n->nalloc, 1);
	assert_int_equal(f.p->alloc[n->alloc].prefix, A("10.4.0.0"));
	assert_int_equal(f.p->alloc[n->alloc].up_port, 0);
	assert_int_equal(f.p->alloc[f.t->node[find(f.t, "core4")].alloc].prefix,
			 A("10.16.0.0"));

	n = &f.t->node[a11];
	assert_int_equal(n->nalloc, 2);
	assert_int_equal(f.p->alloc[n->alloc].prefix, A("10.4.16.0"));
	assert_int_equal(f.p->alloc[n->alloc].up_port, 3);
	assert_int_equal(f.p->alloc[n->alloc + 1].prefix, A("10.8.16.0"));
	assert_int_equal(f.p->alloc[n->alloc + 1].up_port, 4);
	n = &f.t->node[a21];
	assert_int_equal(f.p->alloc[n->alloc].prefix, A("10.4.32.0"));

	/* Every host has one alias per core. */
	assert_int_equal(dard_plan_naliases(f.t, e11), 4);
	assert_int_equal(dard_plan_alias(f.t, f.p, e11, 0), A("10.4.16.66"));
	assert_int_equal(dard_plan_alias(f.t, f.p, e11, 1), A("10.8.16.66"));
	assert_int_equal(dard_plan_alias(f.t, f.p, e11, 2), A("10.12.16.66"));
	assert_int_equal(dard_plan_alias(f.t, f.p, e11, 3), A("10.16.16.66"));
	assert_int_equal(dard_plan_alias(f.t, f.p, e21, 0), A("10.4.32.66"));
	assert_int_equal(dard_plan_alias(f.t, f.p, find(f.t, "e1_2"), 0),
			 A("10.4.16.67"));
	assert_int_equal(dard_plan_alias(f.t, f.p, find(f.t, "e1_3"), 0),
			 A("10.4.16.130"));

	/* 10.4.16.66 encodes core1 -> aggr1_1 -> tor1_1 -> e1_1. */
	assert_int_equal(
		dard_plan_decode(f.t, f.p, A("10.4.16.66"), chain, err), e11);
	assert_int_equal(chain[0], core1);
	assert_int_equal(chain[1], a11);
	assert_int_equal(chain[2], find(f.t, "tor1_1"));
	assert_int_equal(chain[3], e11);
	assert_int_equal(
		dard_plan_decode(f.t, f.p, A("10.4.32.66"), chain, err), e21);
	assert_int_equal(chain[0], core1);
	assert_int_equal(chain[1], a21);
	destroy(&f);
}

static void test_mode_paper(void **state)
{
	unsigned p, i;

	for (p = 4; p <= 14; p += 2) {
		struct fixture f;
		char spec[16];

		snprintf(spec, sizeof(spec), "fattree:%u", p);
		build(&f, spec, NULL, DARD_MODE_AUTO);
		if (f.p->mode != DARD_MODE_PAPER)
			fail_msg("%s picked %s", spec,
				 dard_mode_name(f.p->mode));
		for (i = 0; i < f.p->nfields; i++) {
			assert_int_equal(f.p->width[i], DARD_PAPER_BITS);
			assert_int_equal(f.p->plen[i], 14 + 6 * i);
		}
		destroy(&f);
	}
}

static void test_mode_compact(void **state)
{
	struct fixture f;
	uint32_t i;

	build(&f, "fattree:16", NULL, DARD_MODE_AUTO);
	assert_int_equal(f.p->mode, DARD_MODE_COMPACT);
	assert_int_equal(f.p->opts.base.addr, A("10.0.0.0"));
	assert_int_equal(f.p->opts.base.len, 8);
	/* 64 roots, 16 and 8 down ports, 8 hosts + 2: 6+4+3+4 bits. */
	assert_int_equal(f.p->width[0], 6);
	assert_int_equal(f.p->width[1], 4);
	assert_int_equal(f.p->width[2], 3);
	assert_int_equal(f.p->width[3], 4);
	assert_int_equal(f.p->plen[3], 32);
	assert_int_equal(f.p->plen[0], 32 - 4 - 3 - 4);
	destroy(&f);

	build(&f, "fattree:32", NULL, DARD_MODE_AUTO);
	assert_int_equal(f.p->mode, DARD_MODE_COMPACT);
	for (i = 0; i < f.t->nhosts; i++)
		assert_int_equal(dard_plan_naliases(f.t, f.t->hosts[i]), 256);
	for (i = 0; i < 256; i++) {
		uint32_t a = dard_plan_alias(f.t, f.p, f.t->hosts[0], i);

		assert_int_equal(a & 0xff000000, A("10.0.0.0"));
	}
	destroy(&f);

	/* Forcing compact works where paper would fit. */
	build(&f, "fattree:4", NULL, DARD_MODE_COMPACT);
	assert_int_equal(f.p->mode, DARD_MODE_COMPACT);
	/* 4 roots, 4 and 2 down ports, 2 hosts + 2: 2+2+1+2 bits. */
	assert_int_equal(f.p->width[0], 2);
	assert_int_equal(f.p->width[1], 2);
	assert_int_equal(f.p->width[2], 1);
	assert_int_equal(f.p->width[3], 2);
	destroy(&f);
}

static void test_mode_too_big(void **state)
{
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_plan_opts o;
	char err[DARD_ERR_MAX] = "";

	t = dard_gen_fattree(48, 1000, err);
	assert_non_null(t);
	dard_plan_opts_init(&o);
	p = dard_plan_new(t, &o, err);
	assert_null(p);
	if (!strstr(err, "fattree:48") || !strstr(err, "26"))
		fail_msg("error `%s' does not say fattree:48 needs 26 bits",
			 err);
	assert_non_null(strstr(err, "10.0.0.0/8"));

	assert_int_equal(dard_prefix_parse("16.0.0.0/4", &o.base), 0);
	p = dard_plan_new(t, &o, err);
	if (!p)
		fail_msg("fattree:48 on 16.0.0.0/4: %s", err);
	assert_int_equal(p->mode, DARD_MODE_COMPACT);
	assert_int_equal(dard_plan_naliases(t, t->hosts[0]), 576);
	assert_int_equal(dard_plan_alias(t, p, t->hosts[0], 0) >> 28, 1);
	dard_plan_free(p);
	dard_topo_free(t);

	/* Paper mode cannot number 64 cores in 6 bits. */
	t = dard_gen_fattree(16, 1000, err);
	assert_non_null(t);
	dard_plan_opts_init(&o);
	o.mode = DARD_MODE_PAPER;
	err[0] = '\0';
	p = dard_plan_new(t, &o, err);
	assert_null(p);
	assert_non_null(strstr(err, "fattree:16"));
	assert_non_null(strstr(err, "paper"));
	dard_topo_free(t);

	/* Paper mode needs 24 bits: a /9 base leaves 23. */
	t = dard_gen_fattree(4, 1000, err);
	assert_non_null(t);
	assert_int_equal(dard_prefix_parse("10.0.0.0/9", &o.base), 0);
	err[0] = '\0';
	p = dard_plan_new(t, &o, err);
	assert_null(p);
	assert_non_null(strstr(err, "paper"));
	/* Auto falls back to compact there. */
	o.mode = DARD_MODE_AUTO;
	p = dard_plan_new(t, &o, err);
	assert_non_null(p);
	assert_int_equal(p->mode, DARD_MODE_COMPACT);
	dard_plan_free(p);
	/* A base with host bits set is refused. */
	o.base.addr = A("10.0.0.1");
	o.base.len = 8;
	err[0] = '\0';
	p = dard_plan_new(t, &o, err);
	assert_null(p);
	assert_non_null(strstr(err, "host bits"));
	dard_topo_free(t);
}

static void check_naliases(const char *spec, const char *base, uint32_t want)
{
	struct fixture f;
	uint32_t i;

	build(&f, spec, base, DARD_MODE_AUTO);
	for (i = 0; i < f.t->nhosts; i++)
		if (dard_plan_naliases(f.t, f.t->hosts[i]) != want)
			fail_msg("%s: %s has %u aliases, expected %u", spec,
				 f.t->node[f.t->hosts[i]].name,
				 dard_plan_naliases(f.t, f.t->hosts[i]), want);
	destroy(&f);
}

static void test_alias_counts(void **state)
{
	unsigned p;

	for (p = 4; p <= 48; p += 2) {
		char spec[16];

		snprintf(spec, sizeof(spec), "fattree:%u", p);
		check_naliases(spec, p > 32 ? "16.0.0.0/4" : NULL, p * p / 4);
	}
	check_naliases("clos:4,4,2", NULL, 4);
	check_naliases("clos:8,8,2", NULL, 8);
	check_naliases("clos:16,16,2", NULL, 16);
	check_naliases("3tier", NULL, 16);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Every alias is unique and decodes to its host along a real chain. */
static void check_aliases(const char *spec, int mode, int want_mode)
{
	uint32_t chain[DARD_LEVEL_MAX + 1];
	char err[DARD_ERR_MAX], b[24];
	struct fixture f;
	uint32_t *all, n = 0, i, j, l;

	build(&f, spec, NULL, mode);
	assert_int_equal(f.p->mode, want_mode);
	for (i = 0; i < f.t->nhosts; i++)
		n += dard_plan_naliases(f.t, f.t->hosts[i]);
	all = calloc(n, sizeof(*all));
	assert_non_null(all);
	n = 0;
	for (i = 0; i < f.t->nhosts; i++) {
		uint32_t h = f.t->hosts[i];

		for (j = 0; j < dard_plan_naliases(f.t, h); j++) {
			uint32_t a = dard_plan_alias(f.t, f.p, h, j);

			all[n++] = a;
			memset(chain, 0xff, sizeof(chain));
			if (dard_plan_decode(f.t, f.p, a, chain, err) != h)
				fail_msg("%s: alias %s of %s: %s", spec,
					 dard_addr_str(a, b), f.t->node[h].name,
					 err);
			assert_int_equal(chain[f.t->nlevels], h);
			for (l = 0; l <= f.t->nlevels; l++)
				assert_int_equal(f.t->node[chain[l]].level, l);
			for (l = 1; l <= f.t->nlevels; l++)
				assert_int_not_equal(
					dard_topo_link_between(
						f.t, chain[l - 1], chain[l]),
					DARD_NONE);
			assert_int_equal(dard_plan_encode(f.t, f.p, chain), a);
		}
	}
	qsort(all, n, sizeof(*all), cmp_u32);
	for (i = 1; i < n; i++)
		if (all[i] == all[i - 1])
			fail_msg("%s: alias %s given twice", spec,
				 dard_addr_str(all[i], b));
	free(all);
	destroy(&f);
}

static void test_alias_unique(void **state)
{
	check_aliases("fattree:4", DARD_MODE_AUTO, DARD_MODE_PAPER);
	check_aliases("fattree:8", DARD_MODE_AUTO, DARD_MODE_PAPER);
	check_aliases("clos:4,4", DARD_MODE_AUTO, DARD_MODE_PAPER);
	check_aliases("3tier", DARD_MODE_AUTO, DARD_MODE_PAPER);
	check_aliases("fattree:4", DARD_MODE_COMPACT, DARD_MODE_COMPACT);
	check_aliases("clos:4,4", DARD_MODE_COMPACT, DARD_MODE_COMPACT);
	check_aliases("fattree:16", DARD_MODE_AUTO, DARD_MODE_COMPACT);
	check_aliases("fattree:16", DARD_MODE_COMPACT, DARD_MODE_COMPACT);
}

static void expect_reject(const struct fixture *f, const char *addr,
			  const char *msg)
{
	uint32_t chain[DARD_LEVEL_MAX + 1];
	char err[DARD_ERR_MAX] = "";

	if (dard_plan_decode(f->t, f->p, A(addr), chain, err) != DARD_NONE)
		fail_msg("%s decoded", addr);
	if (!strstr(err, msg))
		fail_msg("%s: error `%s' lacks `%s'", addr, err, msg);
}

static void test_decode_reject(void **state)
{
	uint32_t chain[DARD_LEVEL_MAX + 1];
	char err[DARD_ERR_MAX];
	struct fixture f;

	build(&f, "fattree:4", NULL, DARD_MODE_AUTO);
	expect_reject(&f, "11.4.16.66", "outside the alias base");
	expect_reject(&f, "172.16.0.1", "outside the alias base");
	/* Host field 0 is the ToR's subnet and 1 the ToR itself. */
	expect_reject(&f, "10.4.16.64", "host field 0");
	expect_reject(&f, "10.4.16.65", "host field 1");
	/* Host field 4 is ToR port 3, which goes up. */
	expect_reject(&f, "10.4.16.68", "host field 4");
	expect_reject(&f, "10.4.16.127", "host field 63");
	/* Roots are numbered from 1 and fattree:4 has 4. */
	expect_reject(&f, "10.0.16.66", "root 0");
	expect_reject(&f, "10.20.16.66", "root 5");
	expect_reject(&f, "10.252.16.66", "root 63");
	/* core1 has no port 5, and port 0 does not exist. */
	expect_reject(&f, "10.4.80.66", "field 1 (value 5)");
	expect_reject(&f, "10.4.0.66", "field 1 (value 0)");
	/* aggr1_1's port 3 goes up to core1, and it has no port 5. */
	expect_reject(&f, "10.4.16.194", "field 2 (value 3)");
	expect_reject(&f, "10.4.17.66", "field 2 (value 5)");
	expect_reject(&f, "10.4.16.2", "field 2 (value 0)");
	/* The good neighbours of those decode. */
	assert_int_equal(
		dard_plan_decode(f.t, f.p, A("10.16.64.131"), chain, err),
		find(f.t, "e4_4"));
	destroy(&f);

	/* Bits between the base and the root field must be clear. */
	build(&f, "fattree:4", "16.0.0.0/4", DARD_MODE_AUTO);
	assert_int_equal(f.p->mode, DARD_MODE_PAPER);
	assert_int_equal(
		dard_plan_decode(f.t, f.p, A("16.4.16.66"), chain, err),
		find(f.t, "e1_1"));
	expect_reject(&f, "17.4.16.66", "bits set between");
	expect_reject(&f, "32.4.16.66", "outside the alias base");
	destroy(&f);

	/* Compact mode numbers roots from 0 and down ports by rank. */
	build(&f, "fattree:4", NULL, DARD_MODE_COMPACT);
	assert_int_equal(dard_plan_decode(f.t, f.p,
					  dard_plan_alias(f.t, f.p,
							  find(f.t, "e1_1"), 0),
					  chain, err),
			 find(f.t, "e1_1"));
	assert_int_equal(chain[0], find(f.t, "core1"));
	/* Root field 0, core port rank 0, aggr port rank 0, host field 0. */
	expect_reject(&f, "10.0.0.0", "host field 0");
	expect_reject(&f, "10.0.0.1", "host field 1");
	/* Host field 3 is the second host. */
	assert_int_equal(dard_plan_decode(f.t, f.p, A("10.0.0.3"), chain, err),
			 find(f.t, "e1_2"));
	/* Root 3, core port rank 3, aggr port rank 1, host field 3. */
	assert_int_equal(
		dard_plan_decode(f.t, f.p, A("10.0.0.127"), chain, err),
		find(f.t, "e4_4"));
	assert_int_equal(chain[0], find(f.t, "core4"));
	assert_int_equal(chain[1], find(f.t, "aggr4_2"));
	/* Root 0, core port rank 1, aggr port rank 1, host field 2. */
	assert_int_equal(dard_plan_decode(f.t, f.p, A("10.0.0.14"), chain, err),
			 find(f.t, "e2_3"));
	expect_reject(&f, "10.0.0.5", "host field 1");
	expect_reject(&f, "10.0.0.128", "bits set between");
	destroy(&f);
}

static void test_prefix_parse(void **state)
{
	static const char *const bad[] = {
		"10.0.0.0/33", "10.1.0.0/8",  "1.2.3",
		"256.1.1.1",   "a.b.c.d",     "",
		"1.2.3.4.5",   "1.2.3.4/",    "1.2.3.4/x",
		"/8",	       "1.2.3.4 ",    "0001.2.3.4",
		"1..2.3",      "1.2.3.4/100", "-1.2.3.4",
		"1.2.3.4/8/8", "0.0.0.0/33",
	};
	struct dard_prefix p;
	uint32_t a;
	char buf[24];
	unsigned i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (dard_prefix_parse(bad[i], &p) != -EINVAL)
			fail_msg("prefix `%s' accepted", bad[i]);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!strchr(bad[i], '/') && dard_addr_parse(bad[i], &a) == 0)
			fail_msg("address `%s' accepted", bad[i]);
	assert_int_equal(dard_addr_parse("10.0.0.0/8", &a), -EINVAL);

	assert_int_equal(dard_prefix_parse("10.0.0.0/8", &p), 0);
	assert_int_equal(p.addr, 0x0a000000);
	assert_int_equal(p.len, 8);
	assert_int_equal(dard_prefix_parse("10.4.16.64/26", &p), 0);
	assert_int_equal(p.addr, 0x0a041040);
	assert_int_equal(p.len, 26);
	assert_int_equal(dard_prefix_parse("1.2.3.4", &p), 0);
	assert_int_equal(p.addr, 0x01020304);
	assert_int_equal(p.len, 32);
	assert_int_equal(dard_prefix_parse("0.0.0.0/0", &p), 0);
	assert_int_equal(p.addr, 0);
	assert_int_equal(p.len, 0);
	assert_int_equal(dard_prefix_parse("16.0.0.0/4", &p), 0);
	assert_int_equal(p.len, 4);
	assert_int_equal(dard_prefix_parse("255.255.255.255/32", &p), 0);
	assert_int_equal(p.addr, 0xffffffff);

	assert_int_equal(dard_addr_parse("255.255.255.255", &a), 0);
	assert_int_equal(a, 0xffffffff);
	assert_int_equal(dard_addr_parse("0.0.0.0", &a), 0);
	assert_int_equal(a, 0);
	assert_int_equal(dard_addr_parse("172.16.0.1", &a), 0);
	assert_int_equal(a, 0xac100001);

	assert_string_equal(dard_addr_str(0x0a041042, buf), "10.4.16.66");
	assert_string_equal(dard_prefix_str(0x0a040000, 14, buf),
			    "10.4.0.0/14");
	assert_string_equal(dard_prefix_str(0xffffffff, 32, buf),
			    "255.255.255.255/32");
	assert_int_equal(dard_mask(0), 0);
	assert_int_equal(dard_mask(8), 0xff000000);
	assert_int_equal(dard_mask(32), 0xffffffff);
}

static void test_mode_names(void **state)
{
	assert_int_equal(dard_mode_parse("auto"), DARD_MODE_AUTO);
	assert_int_equal(dard_mode_parse("paper"), DARD_MODE_PAPER);
	assert_int_equal(dard_mode_parse("compact"), DARD_MODE_COMPACT);
	assert_int_equal(dard_mode_parse("Paper"), -EINVAL);
	assert_int_equal(dard_mode_parse(""), -EINVAL);
	assert_string_equal(dard_mode_name(DARD_MODE_PAPER), "paper");
	assert_string_equal(dard_mode_name(DARD_MODE_COMPACT), "compact");
	assert_string_equal(dard_mode_name(DARD_MODE_AUTO), "auto");
}

/* Host IDs, management and link addresses come from their prefixes. */
static void test_other_addresses(void **state)
{
	struct fixture f;
	uint32_t e11;

	build(&f, "fattree:4", NULL, DARD_MODE_AUTO);
	e11 = find(f.t, "e1_1");
	assert_int_equal(f.t->node[e11].id, A("172.16.0.1"));
	assert_int_equal(f.t->node[f.t->hosts[15]].id, A("172.16.0.16"));
	assert_int_equal(f.t->node[0].mgmt, A("172.24.0.1"));
	assert_int_equal(f.t->node[e11].mgmt, A("172.24.0.1") + e11);
	assert_int_equal(dard_plan_link_addr(f.p, 0, 1), A("172.20.0.0"));
	assert_int_equal(dard_plan_link_addr(f.p, 0, 0), A("172.20.0.1"));
	assert_int_equal(dard_plan_link_addr(f.p, 3, 1), A("172.20.0.6"));
	destroy(&f);
}

/* dardctl and dardd name a flow's protocol the same way. */
static void test_ipproto_names(void **state)
{
	char b[DARD_IPPROTO_STRLEN];

	(void)state;
	assert_string_equal(dard_ipproto_name(6, b), "tcp");
	assert_string_equal(dard_ipproto_name(17, b), "udp");
	assert_string_equal(dard_ipproto_name(1, b), "icmp");
	assert_string_equal(dard_ipproto_name(0, b), "0");
	assert_string_equal(dard_ipproto_name(47, b), "47");
	/* The widest number fills the buffer and is not cut short. */
	assert_ptr_equal(dard_ipproto_name(255, b), b);
	assert_string_equal(b, "255");
}

static void test_ipproto_parse(void **state)
{
	static const char *bad[] = {"", "TCP", "ip", "-1", "6x", " 6", "1e2"};
	uint8_t p = 99;
	unsigned i;

	(void)state;
	assert_int_equal(dard_ipproto_parse("tcp", &p), 0);
	assert_int_equal(p, 6);
	assert_int_equal(dard_ipproto_parse("udp", &p), 0);
	assert_int_equal(p, 17);
	assert_int_equal(dard_ipproto_parse("icmp", &p), 0);
	assert_int_equal(p, 1);
	assert_int_equal(dard_ipproto_parse("0", &p), 0);
	assert_int_equal(p, 0);
	assert_int_equal(dard_ipproto_parse("255", &p), 0);
	assert_int_equal(p, 255);
	/* Past a byte is refused, not truncated to 0 or 4. */
	p = 99;
	assert_int_equal(dard_ipproto_parse("256", &p), -ERANGE);
	assert_int_equal(dard_ipproto_parse("4294967302", &p), -ERANGE);
	assert_int_equal(p, 99);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(dard_ipproto_parse(bad[i], &p), -EINVAL);
	assert_int_equal(p, 99);
	/* Every number a name has round-trips through its name. */
	for (i = 0; i < 256; i++) {
		char b[DARD_IPPROTO_STRLEN];

		assert_int_equal(
			dard_ipproto_parse(dard_ipproto_name(i, b), &p), 0);
		assert_int_equal(p, i);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table2),
		cmocka_unit_test(test_figure2),
		cmocka_unit_test(test_mode_paper),
		cmocka_unit_test(test_mode_compact),
		cmocka_unit_test(test_mode_too_big),
		cmocka_unit_test(test_alias_counts),
		cmocka_unit_test(test_alias_unique),
		cmocka_unit_test(test_decode_reject),
		cmocka_unit_test(test_prefix_parse),
		cmocka_unit_test(test_mode_names),
		cmocka_unit_test(test_other_addresses),
		cmocka_unit_test(test_ipproto_names),
		cmocka_unit_test(test_ipproto_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
