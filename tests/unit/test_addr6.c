// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Tests the IPv6 address plan: the aliases, prefixes and IDs of a fabric
 * with IPv6, their decoding and refusals, and the configuration file's
 * family, base6, ids6 and IPv6 alias lines.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <linux/dard_layout6.h>

#include "addr6.h"
#include "config.h"
#include "unit.h"

/* An IPv6 address written in the test, which must parse. */
static struct in6_addr A6(const char *s) {
	struct in6_addr a;

	if (dard_addr6_parse(s, &a))
		fail_msg("bad IPv6 address `%s' in the test", s);
	return a;
}

static void
assert_addr6(const struct in6_addr *a, const char *want)
{
	char b[INET6_ADDRSTRLEN];

	if (strcmp(dard_addr6_str(a, b), want))
		fail_msg("%s, expected %s", b, want);
}

/*
 * spec's plan for family with base6 (NULL: the default); NULL and the
 * reason in err when the plan refuses.
 */
static struct dard_plan *plan6(struct dard_topo **t, const char *spec,
			       int family, const char *base6, int mode,
			       char *err)
{
	struct dard_plan_opts o;

	*t = unit_gen(spec);
	dard_plan_opts_init(&o);
	o.family = family;
	o.mode = mode;
	if (base6 && dard_prefix6_parse(base6, &o.base6))
		fail_msg("bad base6 `%s' in the test", base6);
	return dard_plan_new(*t, &o, err);
}

/* The layout the header promises, on fattree:4 in paper mode. */
static void test_fattree4(void **state)
{
	char err[DARD_ERR_MAX] = "", b[DARD_PREFIX6_STRLEN];
	struct dard_topo *t;
	struct dard_plan *p =
		plan6(&t, "fattree:4", DARD_FAMILY_DUAL, NULL, 0, err);
	static const char *const want[] = {
		"fd00:da::1:1:1:2",
		"fd00:da::2:1:1:2",
		"fd00:da::3:1:1:2",
		"fd00:da::4:1:1:2",
	};
	uint32_t h, i, core1, aggr, tor;
	struct in6_addr a;

	if (!p)
		fail_msg("plan: %s", err);
	assert_int_equal(p->mode, DARD_MODE_PAPER);
	assert_int_equal(p->width6[0], 16);
	assert_int_equal(p->plen6[0], 80);
	assert_int_equal(p->plen6[1], 96);
	assert_int_equal(p->plen6[2], 112);
	assert_int_equal(p->plen6[3], 128);
	h = find(t, "e1_1");
	assert_int_equal(dard_plan_naliases(t, h), 4);
	for (i = 0; i < 4; i++) {
		dard_plan_alias6(t, p, h, i, &a);
		assert_addr6(&a, want[i]);
	}
	dard_plan_id6(t, p, h, &a);
	assert_addr6(&a, "fd00:da:1::1");
	/* Each switch's prefix, a whole number of groups. */
	core1 = find(t, "core1");
	aggr = find(t, "aggr1_1");
	tor = find(t, "tor1_1");
	dard_plan_v6(p, p->alloc[t->node[core1].alloc].prefix, &a);
	assert_string_equal(dard_prefix6_str(&a, p->plen6[0], b),
			    "fd00:da:0:0:1::/80");
	dard_plan_v6(p, p->alloc[t->node[aggr].alloc].prefix, &a);
	assert_string_equal(dard_prefix6_str(&a, p->plen6[1], b),
			    "fd00:da::1:1:0:0/96");
	dard_plan_v6(p, p->alloc[t->node[tor].alloc].prefix, &a);
	assert_string_equal(dard_prefix6_str(&a, p->plen6[2], b),
			    "fd00:da::1:1:1:0/112");
	dard_plan_free(p);
	dard_topo_free(t);
}

/*
 * What both datapaths compute from the plan's layout (dard_layout6.h):
 * the plan's own IPv6 alias, and back.
 */
static void assert_datapath6(const struct dard_layout6 *l, uint32_t a4,
			     const struct in6_addr *a)
{
	uint32_t w[4], v;
	int i;

	dard_alias_v6(l, a4, w);
	for (i = 0; i < 4; i++)
		assert_int_equal(w[i], ntohl(a->s6_addr32[i]));
	assert_int_equal(dard_alias_v4(l, w, &v), 0);
	assert_int_equal(v, a4);
	/* Outside the base (a /32 at the longest): refused. */
	w[0] ^= 1;
	assert_int_equal(dard_alias_v4(l, w, &v), -1);
}

/*
 * Every alias of every host decodes, in IPv6, to its host along the chain
 * its IPv4 form names, the datapaths' layout agrees, and every IPv6 ID
 * finds its host.
 */
static void roundtrip(const char *spec, const char *base6, int mode)
{
	char err[DARD_ERR_MAX] = "";
	uint32_t c4[DARD_LEVEL_MAX + 1], c6[DARD_LEVEL_MAX + 1];
	struct dard_topo *t;
	struct dard_plan *p =
		plan6(&t, spec, DARD_FAMILY_IPV6, base6, mode, err);
	struct dard_layout6 l;
	uint32_t i, j, v4;

	if (!p)
		fail_msg("%s: %s", spec, err);
	dard_plan_layout6(&l, p);
	assert_true(dard_layout6_valid(&l));
	for (i = 0; i < t->nhosts; i++) {
		uint32_t h = t->hosts[i];
		struct in6_addr a;

		for (j = 0; j < dard_plan_naliases(t, h); j++) {
			uint32_t a4 = dard_plan_alias(t, p, h, j);

			dard_plan_alias6(t, p, h, j, &a);
			assert_true(dard_in_prefix6(&a, &p->opts.base6));
			assert_int_equal(dard_plan_v4(p, &a, &v4, err), 0);
			assert_int_equal(v4, a4);
			assert_datapath6(&l, a4, &a);
			if (dard_plan_decode6(t, p, &a, c6, err) != h)
				fail_msg("%s: %s", spec, err);
			assert_int_equal(dard_plan_decode(t, p, a4, c4, NULL),
					 h);
			assert_memory_equal(c4, c6,
					    (t->nlevels + 1) * sizeof(*c4));
		}
		dard_plan_id6(t, p, h, &a);
		assert_true(dard_in_prefix6(&a, &p->opts.ids6));
		assert_int_equal(dard_plan_find_id6(t, p, &a), h);
	}
	dard_plan_free(p);
	dard_topo_free(t);
}

static void test_roundtrip(void **state)
{
	roundtrip("fattree:4", NULL, DARD_MODE_AUTO);
	roundtrip("fattree:8", NULL, DARD_MODE_COMPACT);
	roundtrip("clos:4,4", "2001:db8::/32", DARD_MODE_AUTO);
	roundtrip("3tier", NULL, DARD_MODE_AUTO);
	/* Four fields of 16 bits do not fit below a /72: nibbles do. */
	roundtrip("fattree:8", "fd00:da::/72", DARD_MODE_COMPACT);
	roundtrip("fattree:4", "fd00:da::/96", DARD_MODE_PAPER);
}

/* A base too long for the fields says how long it may be. */
static void test_narrow_base(void **state)
{
	char err[DARD_ERR_MAX] = "";
	struct dard_topo *t;
	struct dard_plan *p;

	/* Paper mode: four 6-bit fields, a byte each in nibbles. */
	p = plan6(&t, "fattree:4", DARD_FAMILY_DUAL, "fd00:da::/96",
		  DARD_MODE_PAPER, err);
	assert_non_null(p);
	assert_int_equal(p->width6[0], 8);
	assert_int_equal(p->plen6[0], 104);
	dard_plan_free(p);
	dard_topo_free(t);
	p = plan6(&t, "fattree:4", DARD_FAMILY_DUAL, "fd00:da::/100",
		  DARD_MODE_PAPER, err);
	assert_null(p);
	assert_string_equal(
		err,
		"4 alias fields need 32 bits below the IPv6 base, but fd00:da::/100 leaves 28; use a base of /96 or shorter");
	dard_topo_free(t);
	/* The IPv4 family ignores base6 and ids6 altogether. */
	p = plan6(&t, "fattree:4", DARD_FAMILY_IPV4, "fd00:da::/100",
		  DARD_MODE_PAPER, err);
	assert_non_null(p);
	assert_int_equal(p->plen6[0], 0);
	dard_plan_free(p);
	dard_topo_free(t);
}

/* A layout from outside (the module's netlink) that the arithmetic could
 * not read one-to-one is refused. */
static void test_layout6_refused(void **state)
{
	char err[DARD_ERR_MAX] = "";
	struct dard_topo *t;
	struct dard_plan *p =
		plan6(&t, "fattree:4", DARD_FAMILY_IPV6, NULL, 0, err);
	struct dard_layout6 l, bad;

	assert_non_null(p);
	dard_plan_layout6(&l, p);
	assert_true(dard_layout6_valid(&l));
	bad = l;
	bad.outer6 = 0;
	assert_false(dard_layout6_valid(&bad));
	bad = l;
	bad.nfields = DARD_LAYOUT_FIELDS + 1;
	assert_false(dard_layout6_valid(&bad));
	bad = l;
	bad.width4[0] = 0;
	assert_false(dard_layout6_valid(&bad));
	bad = l;
	bad.shift6[0] = 120; /* past the address's end */
	assert_false(dard_layout6_valid(&bad));
	bad = l;
	bad.width6[1] = bad.width4[1] - 1; /* narrower than the IPv4 field */
	assert_false(dard_layout6_valid(&bad));
	bad = l;
	bad.shift4[1] = bad.shift4[0]; /* two fields over one bit */
	assert_false(dard_layout6_valid(&bad));
	bad = l;
	bad.shift6[1] = bad.shift6[0];
	assert_false(dard_layout6_valid(&bad));
	dard_plan_free(p);
	dard_topo_free(t);
}

static void expect_refused(const struct dard_topo *t, const struct dard_plan *p,
			   const char *addr, const char *why)
{
	uint32_t chain[DARD_LEVEL_MAX + 1];
	char err[DARD_ERR_MAX] = "";
	struct in6_addr a = A6(addr);

	assert_int_equal(dard_plan_decode6(t, p, &a, chain, err), DARD_NONE);
	if (!strstr(err, why))
		fail_msg("%s: `%s', expected `%s'", addr, err, why);
	/* Without err, the same refusal. */
	assert_int_equal(dard_plan_decode6(t, p, &a, chain, NULL), DARD_NONE);
}

static void test_decode_refused(void **state)
{
	char err[DARD_ERR_MAX] = "";
	struct dard_topo *t;
	struct dard_plan *p =
		plan6(&t, "fattree:4", DARD_FAMILY_DUAL, NULL, 0, err);
	struct in6_addr a;

	assert_non_null(p);
	expect_refused(t, p, "fd00:db::1:1:1:2",
		       "is outside the IPv6 alias base fd00:da::/48");
	expect_refused(t, p, "fd00:da:0:8:1:1:1:2",
		       "has bits set between the base and the root field");
	expect_refused(t, p, "fd00:da::1:1:1:40",
		       "field 3 (value 64) is wider than its 6 bits");
	expect_refused(
		t, p, "fd00:da::9:1:1:2",
		"fd00:da::9:1:1:2, in IPv4 form: 10.36.16.66 names root 9, but fattree:4 has 4 roots");
	expect_refused(t, p, "fd00:da::1:1:1:1", "is not a host alias");
	/* IDs: outside ids6, high bits set, no such host. */
	a = A6("fd00:da:2::1");
	assert_int_equal(dard_plan_find_id6(t, p, &a), DARD_NONE);
	a = A6("fd00:da:1:0:1::1");
	assert_int_equal(dard_plan_find_id6(t, p, &a), DARD_NONE);
	a = A6("fd00:da:1::1:1");
	assert_int_equal(dard_plan_find_id6(t, p, &a), DARD_NONE);
	a = A6("fd00:da:1::3e8");
	assert_int_equal(dard_plan_find_id6(t, p, &a), DARD_NONE);
	a = A6("fd00:da:1::10");
	assert_int_equal(dard_plan_find_id6(t, p, &a), find(t, "e4_4"));
	dard_plan_free(p);
	dard_topo_free(t);
}

static void test_prefix6_parse(void **state)
{
	static const char *const bad[] = {
		"fd00::1/64",  "fd00::/129", "fd00::/",	  "fd00::/x",
		"fd00::/0064", "10.0.0.0/8", "",	  "/64",
		"fd00::/-1",   "fd00::g/64", " fd00::/8", "fd00::/8 ",
	};
	struct dard_prefix6 p;
	char b[DARD_PREFIX6_STRLEN];
	unsigned i;

	assert_int_equal(dard_prefix6_parse("fd00::/8", &p), 0);
	assert_int_equal(p.len, 8);
	assert_int_equal(dard_prefix6_parse("::/0", &p), 0);
	assert_int_equal(p.len, 0);
	assert_int_equal(dard_prefix6_parse("fd00:da::1", &p), 0);
	assert_int_equal(p.len, 128);
	assert_string_equal(dard_prefix6_str(&p.addr, p.len, b),
			    "fd00:da::1/128");
	assert_int_equal(dard_prefix6_parse("2001:db8:ff00::/40", &p), 0);
	assert_int_equal(dard_prefix6_parse("2001:db8:ff80::/40", &p), -EINVAL);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (dard_prefix6_parse(bad[i], &p) != -EINVAL)
			fail_msg("`%s' parsed", bad[i]);
}

static void test_family_names(void **state)
{
	int f;

	for (f = DARD_FAMILY_IPV4; f <= DARD_FAMILY_DUAL; f++)
		assert_int_equal(dard_family_parse(dard_family_name(f)), f);
	assert_int_equal(dard_family_parse("inet6"), -EINVAL);
	assert_int_equal(dard_family_parse(""), -EINVAL);
	assert_true(dard_family_has4(DARD_FAMILY_DUAL));
	assert_true(dard_family_has6(DARD_FAMILY_DUAL));
	assert_false(dard_family_has4(DARD_FAMILY_IPV6));
	assert_false(dard_family_has6(DARD_FAMILY_IPV4));
}

/* The outer header: by family when auto, refused where it cannot go. */
static void test_outer(void **state)
{
	static const struct {
		int family, outer, outer6;
		const char *err;
	} rows[] = {
		{DARD_FAMILY_IPV4, DARD_OUTER_AUTO, 0, NULL},
		{DARD_FAMILY_DUAL, DARD_OUTER_AUTO, 0, NULL},
		{DARD_FAMILY_IPV6, DARD_OUTER_AUTO, 1, NULL},
		{DARD_FAMILY_DUAL, DARD_OUTER_IPV6, 1, NULL},
		{DARD_FAMILY_DUAL, DARD_OUTER_IPV4, 0, NULL},
		{DARD_FAMILY_IPV4, DARD_OUTER_IPV6, 0,
		 "outer ipv6 needs a fabric with IPv6 (family ipv6 or dual)"},
		{DARD_FAMILY_IPV6, DARD_OUTER_IPV4, 0,
		 "outer ipv4 needs IPv4 aliases, which an IPv6-only fabric has not"},
	};
	struct dard_topo *t = unit_gen("fattree:4");
	char err[DARD_ERR_MAX];
	unsigned i;
	int o;

	for (o = DARD_OUTER_AUTO; o <= DARD_OUTER_IPV6; o++)
		assert_int_equal(dard_outer_parse(dard_outer_name(o)), o);
	assert_int_equal(dard_outer_parse("4in6"), -EINVAL);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct dard_plan_opts opts;
		struct dard_plan *p;

		dard_plan_opts_init(&opts);
		opts.family = rows[i].family;
		opts.outer = rows[i].outer;
		err[0] = '\0';
		p = dard_plan_new(t, &opts, err);
		if (rows[i].err) {
			assert_null(p);
			assert_string_equal(err, rows[i].err);
			continue;
		}
		if (!p)
			fail_msg("row %u: %s", i, err);
		assert_int_equal(dard_plan_outer6(p), rows[i].outer6);
		dard_plan_free(p);
	}
	dard_topo_free(t);
}

/* An ids6 longer than /96: the IDs' offsets fill its few host bits. */
static void test_long_ids6(void **state)
{
	struct dard_plan_opts o;
	char err[DARD_ERR_MAX] = "";
	struct dard_topo *t = unit_gen("fattree:4");
	struct dard_plan *p;
	struct in6_addr a;
	uint32_t i;

	dard_plan_opts_init(&o);
	o.family = DARD_FAMILY_DUAL;
	assert_int_equal(dard_prefix_parse("172.16.0.0/24", &o.ids), 0);
	assert_int_equal(dard_prefix6_parse("fd00:da:1::1:0/112", &o.ids6), 0);
	p = dard_plan_new(t, &o, err);
	if (!p)
		fail_msg("%s", err);
	for (i = 0; i < t->nhosts; i++) {
		dard_plan_id6(t, p, t->hosts[i], &a);
		assert_int_equal(dard_plan_find_id6(t, p, &a), t->hosts[i]);
	}
	a = A6("fd00:da:1::1:1");
	assert_int_equal(dard_plan_find_id6(t, p, &a), find(t, "e1_1"));
	dard_plan_free(p);
	dard_topo_free(t);
}

/* IDs and aliases in separate, large enough IPv6 prefixes. */
static void test_ids6_refused(void **state)
{
	struct dard_plan_opts o;
	char err[DARD_ERR_MAX] = "";
	struct dard_topo *t = unit_gen("fattree:4");

	dard_plan_opts_init(&o);
	o.family = DARD_FAMILY_IPV6;
	assert_int_equal(dard_prefix6_parse("fd00:da:0:1::/64", &o.ids6), 0);
	assert_null(dard_plan_new(t, &o, err));
	assert_string_equal(
		err,
		"the IPv6 alias base fd00:da::/48 overlaps the IPv6 ID prefix fd00:da:0:1::/64");
	assert_int_equal(dard_prefix6_parse("fd00:da:1::/120", &o.ids6), 0);
	assert_null(dard_plan_new(t, &o, err));
	assert_string_equal(
		err,
		"ids6 fd00:da:1::/120 leaves 8 bits for host IDs, but ids /16 numbers them with 16");
	o.base6.addr = A6("fd00:da::1");
	assert_null(dard_plan_new(t, &o, err));
	assert_string_equal(err, "base6 fd00:da::1/48 has host bits set");
	dard_topo_free(t);
}

/* Written with IPv6, a file reads back the same, and says the same. */
static void test_config(void **state)
{
	static const int families[] = {DARD_FAMILY_DUAL, DARD_FAMILY_IPV6};
	struct dard_config cfg = {0};
	struct dard_buf b1 = {0}, b2 = {0};
	char err[DARD_ERR_MAX] = "";
	unsigned i, line = 0;

	for (i = 0; i < 2; i++) {
		struct dard_topo *t;
		struct dard_plan *p = plan6(&t, "fattree:4", families[i],
					    "2001:db8:5::/48", 0, err);

		assert_non_null(p);
		dard_config_write(
			t, p, DARD_CONFIG_F_PLAN | DARD_CONFIG_F_ALIASES, &b1);
		assert_non_null(strstr(b1.s, "\nbase6 2001:db8:5::/48\n"));
		assert_non_null(strstr(b1.s, "\nids6 fd00:da:1::/64\n"));
		assert_non_null(
			strstr(b1.s, "\nalias e1_1 2001:db8:5:0:1:1:1:2 "));
		assert_int_equal(!!strstr(b1.s, "\nalias e1_1 10.4.16.66 "),
				 families[i] == DARD_FAMILY_DUAL);
		if (dard_config_parse(&cfg, b1.s, b1.len, NULL, 0, &line, err))
			fail_msg("line %u: %s", line, err);
		assert_int_equal(cfg.plan->opts.family, families[i]);
		dard_config_write(cfg.topo, cfg.plan,
				  DARD_CONFIG_F_PLAN | DARD_CONFIG_F_ALIASES,
				  &b2);
		assert_int_equal(b1.len, b2.len);
		assert_memory_equal(b1.s, b2.s, b1.len);
		dard_config_free(&cfg);
		dard_buf_free(&b1);
		dard_buf_free(&b2);
		dard_plan_free(p);
		dard_topo_free(t);
	}
}

/* What a file may not say about IPv6, and the line that says it. */
static void expect_config_error(const char *tail, unsigned want_line,
				const char *want)
{
	static const char head[] = "levels core aggr edge\n"
				   "switch c1 core\n"
				   "switch a1 aggr\n"
				   "switch t1 edge\n"
				   "host h1\n"
				   "link c1:1 a1:1\n"
				   "link a1:2 t1:1\n"
				   "link t1:2 h1\n";
	struct dard_config cfg = {0};
	char text[1024], err[DARD_ERR_MAX] = "";
	unsigned line = 0;

	snprintf(text, sizeof(text), "%s%s", head, tail);
	assert_int_not_equal(dard_config_parse(&cfg, text, strlen(text), NULL,
					       0, &line, err),
			     0);
	if (!strstr(err, want) || line != want_line)
		fail_msg("line %u: `%s', expected line %u: `%s'", line, err,
			 want_line, want);
}

static void test_config_refused(void **state)
{
	expect_config_error(
		"family inet6\n", 9,
		"invalid family `inet6' (expected ipv4, ipv6 or dual)");
	expect_config_error("base6 fd00::1/64\n", 9,
			    "base6: invalid IPv6 prefix `fd00::1/64'");
	expect_config_error("family dual\nfamily ipv6\n", 10, "family");
	expect_config_error("alias h1 fd00:da::1:1:1:2\n", 9,
			    "is IPv6, but the fabric's family is ipv4");
	expect_config_error("family ipv6\nalias h1 10.1.1.2\n", 10,
			    "is IPv4, but the fabric's family is ipv6");
	expect_config_error("family ipv6\nalias h1 fd00:da::1:1:2:1\n", 10,
			    "is not a host alias");
	expect_config_error(
		"family dual\nalias h1 fd00:da::1:1:2:3 fd00:da::1:1:2:3\n", 10,
		"alias h1: fd00:da::1:1:2:3 listed twice");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fattree4),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_narrow_base),
		cmocka_unit_test(test_decode_refused),
		cmocka_unit_test(test_layout6_refused),
		cmocka_unit_test(test_prefix6_parse),
		cmocka_unit_test(test_family_names),
		cmocka_unit_test(test_outer),
		cmocka_unit_test(test_long_ids6),
		cmocka_unit_test(test_ids6_refused),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_config_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
