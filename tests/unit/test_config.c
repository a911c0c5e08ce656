// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Tests the configuration file: round trips and overrides. Every error
 * is test_config_err.c's.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "config_fix.h"

static void test_tiny(void **state)
{
	struct dard_config cfg;
	uint32_t h1, h2;

	parse_ok(&cfg, TINY);
	assert_string_equal(cfg.topo->name, "tiny");
	assert_int_equal(cfg.topo->nnodes, 6);
	assert_int_equal(cfg.topo->nlinks, 5);
	assert_int_equal(cfg.topo->mbps, 1000);
	assert_int_equal(cfg.plan->mode, DARD_MODE_PAPER);
	h1 = find(cfg.topo, "h1");
	h2 = find(cfg.topo, "h2");
	/* The aliases the error cases below rely on. */
	assert_int_equal(dard_plan_naliases(cfg.topo, h1), 2);
	assert_int_equal(dard_plan_alias(cfg.topo, cfg.plan, h1, 0),
			 A("10.4.16.195"));
	assert_int_equal(dard_plan_alias(cfg.topo, cfg.plan, h1, 1),
			 A("10.8.16.195"));
	assert_int_equal(dard_plan_alias(cfg.topo, cfg.plan, h2, 0),
			 A("10.4.16.196"));
	assert_int_equal(dard_plan_alias(cfg.topo, cfg.plan, h2, 1),
			 A("10.8.16.196"));
	/* IDs and management addresses default from their prefixes. */
	assert_int_equal(cfg.topo->node[h1].id, A("172.16.0.1"));
	assert_int_equal(cfg.topo->node[h2].id, A("172.16.0.2"));
	assert_int_equal(cfg.topo->node[0].mgmt, A("172.24.0.1"));
	dard_config_free(&cfg);
	assert_null(cfg.topo);

	parse_ok(&cfg, TINY "alias h1 10.8.16.195 10.4.16.195\n"
			    "alias h2 10.4.16.196 10.8.16.196\n");
	dard_config_free(&cfg);
}

/* Comments, blank lines, tabs, CRLF, options and no final newline. */
static void test_syntax(void **state)
{
	static const char text[] = "# a comment\r\n"
				   "\n"
				   "   \t\n"
				   "topology\ttiny   # trailing comment\r\n"
				   "capacity 100\n"
				   "levels core aggr tor\n"
				   "base 16.0.0.0/4\n"
				   "mode compact\n"
				   "ids 192.168.0.0/24\n"
				   "linknet 172.30.0.0/16\n"
				   "mgmtnet 172.31.0.0/16\n"
				   "switch core1 core mgmt 172.31.9.9\n"
				   "switch core2 core\n"
				   "switch aggr1 aggr\n"
				   "switch tor1 tor\n"
				   "host h1 id 192.168.0.77 mgmt 172.31.7.7\n"
				   "host h2 mgmt 172.31.8.8 id 192.168.0.78\n"
				   "link core1:1 aggr1:1 capacity 40000\n"
				   "link core2:1 aggr1:2\n"
				   "link aggr1:3 tor1:1\n"
				   "link tor1:2 h1\n"
				   "link tor1:3 h2:1";
	struct dard_config cfg;
	const struct dard_topo *t;

	parse_ok(&cfg, text);
	t = cfg.topo;
	assert_string_equal(t->name, "tiny");
	assert_int_equal(t->mbps, 100);
	assert_int_equal(t->nlinks, 5);
	assert_int_equal(t->link[0].mbps, 40000);
	assert_int_equal(t->link[1].mbps, 100);
	assert_int_equal(cfg.plan->mode, DARD_MODE_COMPACT);
	assert_int_equal(cfg.opts.base.addr, A("16.0.0.0"));
	assert_int_equal(cfg.opts.base.len, 4);
	assert_int_equal(cfg.opts.ids.addr, A("192.168.0.0"));
	assert_int_equal(cfg.opts.links.len, 16);
	assert_int_equal(cfg.opts.mgmt.addr, A("172.31.0.0"));
	assert_int_equal(t->node[find(t, "core1")].mgmt, A("172.31.9.9"));
	/* The first free address: core1 took none of the prefix. */
	assert_int_equal(t->node[find(t, "core2")].mgmt, A("172.31.0.1"));
	assert_int_equal(t->node[find(t, "h1")].id, A("192.168.0.77"));
	assert_int_equal(t->node[find(t, "h1")].mgmt, A("172.31.7.7"));
	assert_int_equal(t->node[find(t, "h2")].id, A("192.168.0.78"));
	assert_int_equal(t->node[find(t, "h2")].mgmt, A("172.31.8.8"));
	assert_int_equal(dard_plan_alias(t, cfg.plan, find(t, "h1"), 0) >> 28,
			 1);
	dard_config_free(&cfg);
}

/* Two configurations describe the same tree, addresses included. */
static void assert_same(const struct dard_topo *a, const struct dard_plan *pa,
			const struct dard_topo *b, const struct dard_plan *pb,
			int aliases)
{
	uint32_t i, j;
	unsigned l;

	assert_string_equal(a->name, b->name);
	assert_int_equal(a->mbps, b->mbps);
	assert_int_equal(a->nlevels, b->nlevels);
	for (l = 0; l < a->nlevels; l++)
		assert_string_equal(a->level_name[l], b->level_name[l]);
	assert_int_equal(a->nnodes, b->nnodes);
	assert_int_equal(a->nlinks, b->nlinks);
	assert_int_equal(a->nroots, b->nroots);
	assert_int_equal(a->nhosts, b->nhosts);
	for (i = 0; i < a->nnodes; i++) {
		const struct dard_node *x = &a->node[i], *y = &b->node[i];

		assert_string_equal(x->name, y->name);
		assert_int_equal(x->level, y->level);
		assert_int_equal(x->is_host, y->is_host);
		assert_int_equal(x->nports, y->nports);
		assert_int_equal(x->id, y->id);
		assert_int_equal(x->mgmt, y->mgmt);
		assert_int_equal(x->nalloc, y->nalloc);
	}
	for (i = 0; i < a->nlinks; i++) {
		assert_int_equal(a->link[i].up, b->link[i].up);
		assert_int_equal(a->link[i].down, b->link[i].down);
		assert_int_equal(a->link[i].up_port, b->link[i].up_port);
		assert_int_equal(a->link[i].down_port, b->link[i].down_port);
		assert_int_equal(a->link[i].mbps, b->link[i].mbps);
	}
	assert_int_equal(pa->mode, pb->mode);
	assert_int_equal(pa->opts.base.addr, pb->opts.base.addr);
	assert_int_equal(pa->opts.base.len, pb->opts.base.len);
	if (!aliases)
		return;
	for (i = 0; i < a->nhosts; i++) {
		uint32_t h = a->hosts[i], n = dard_plan_naliases(a, h);

		assert_int_equal(dard_plan_naliases(b, h), n);
		for (j = 0; j < n; j++)
			assert_int_equal(dard_plan_alias(a, pa, h, j),
					 dard_plan_alias(b, pb, h, j));
	}
}

static void roundtrip(const char *spec, uint32_t mbps, unsigned flags,
		      const char *base, int mode)
{
	struct dard_buf b1 = {0}, b2 = {0};
	struct dard_plan_opts o;
	struct dard_config cfg;
	struct dard_topo *t;
	struct dard_plan *p;
	char err[DARD_ERR_MAX] = "";
	unsigned line;
	int ret;

	t = dard_gen_spec(spec, mbps, err);
	if (!t)
		fail_msg("%s: %s", spec, err);
	/* One link of its own capacity. */
	t->link[t->nlinks / 2].mbps = 12345;
	dard_plan_opts_init(&o);
	if (base)
		assert_int_equal(dard_prefix_parse(base, &o.base), 0);
	o.mode = mode;
	p = dard_plan_new(t, &o, err);
	if (!p)
		fail_msg("%s: %s", spec, err);

	dard_config_write(t, p, flags, &b1);
	assert_false(b1.oom);
	assert_non_null(b1.s);
	assert_int_equal(strlen(b1.s), b1.len);
	assert_non_null(strstr(b1.s, "capacity 12345\n"));
	assert_int_equal(!!strstr(b1.s, "\nalias "),
			 !!(flags & DARD_CONFIG_F_ALIASES));
	assert_int_equal(!!strstr(b1.s, "\nbase "),
			 !!(flags & DARD_CONFIG_F_PLAN));

	ret = dard_config_parse(&cfg, b1.s, b1.len, NULL, 0, &line, err);
	if (ret)
		fail_msg("%s: line %u: %s", spec, line, err);
	assert_same(t, p, cfg.topo, cfg.plan, flags & DARD_CONFIG_F_PLAN);

	/* Writing what was read gives the same text. */
	dard_config_write(cfg.topo, cfg.plan, flags, &b2);
	assert_int_equal(b1.len, b2.len);
	assert_memory_equal(b1.s, b2.s, b1.len);

	dard_buf_free(&b1);
	dard_buf_free(&b2);
	assert_null(b1.s);
	dard_config_free(&cfg);
	dard_plan_free(p);
	dard_topo_free(t);
}

static void test_roundtrip(void **state)
{
	roundtrip("fattree:4", 1000, DARD_CONFIG_F_PLAN | DARD_CONFIG_F_ALIASES,
		  NULL, DARD_MODE_AUTO);
	roundtrip("fattree:4", 100, DARD_CONFIG_F_PLAN, NULL, DARD_MODE_AUTO);
	roundtrip("fattree:6", 1000, DARD_CONFIG_F_PLAN | DARD_CONFIG_F_ALIASES,
		  "16.0.0.0/4", DARD_MODE_COMPACT);
	roundtrip("clos:4,4", 1000, DARD_CONFIG_F_PLAN | DARD_CONFIG_F_ALIASES,
		  NULL, DARD_MODE_AUTO);
	/* 81 aliases per host: alias lines of 64 and 17 that add up. */
	roundtrip("fattree:18", 1000,
		  DARD_CONFIG_F_PLAN | DARD_CONFIG_F_ALIASES, NULL,
		  DARD_MODE_AUTO);
	/* Bare topologies: the parsed plan is the default one. */
	roundtrip("clos:4,4", 1000, 0, NULL, DARD_MODE_AUTO);
	roundtrip("clos:8,4,3", 10000, 0, NULL, DARD_MODE_AUTO);
	roundtrip("3tier", 1000, 0, NULL, DARD_MODE_AUTO);
	roundtrip("fattree:8", 1000, 0, NULL, DARD_MODE_AUTO);
}

/* The written file is what the format says. */
static void test_write_text(void **state)
{
	struct dard_buf b = {0};
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_plan_opts o;
	char err[DARD_ERR_MAX];

	t = dard_gen_fattree(4, 1000, err);
	assert_non_null(t);
	dard_plan_opts_init(&o);
	p = dard_plan_new(t, &o, err);
	assert_non_null(p);
	dard_config_write(t, p, DARD_CONFIG_F_PLAN | DARD_CONFIG_F_ALIASES, &b);
	assert_non_null(strstr(b.s, "topology fattree:4\n"));
	assert_non_null(strstr(b.s, "\nlevels core aggr tor\n"));
	assert_non_null(strstr(b.s, "\nbase 10.0.0.0/8\n"));
	assert_non_null(strstr(b.s, "\nmode paper\n"));
	assert_non_null(strstr(b.s, "\nswitch core1 core mgmt 172.24.0.1\n"));
	assert_non_null(
		strstr(b.s, "\nhost e1_1 id 172.16.0.1 mgmt 172.24.0.21\n"));
	assert_non_null(strstr(b.s, "\nlink core1:1 aggr1_1:3\n"));
	assert_non_null(strstr(b.s, "\nlink tor1_1:1 e1_1:1\n"));
	assert_non_null(strstr(b.s, "\nalias e1_1 10.4.16.66 10.8.16.66 "
				    "10.12.16.66 10.16.16.66\n"));
	dard_buf_free(&b);

	dard_config_write(t, p, 0, &b);
	assert_null(strstr(b.s, "mgmt"));
	assert_null(strstr(b.s, " id "));
	assert_null(strstr(b.s, "alias"));
	assert_non_null(strstr(b.s, "\nhost e1_1\n"));
	dard_buf_free(&b);
	dard_plan_free(p);
	dard_topo_free(t);

	/* 81 aliases per host on fattree:18: lines of 64 and 17. */
	t = dard_gen_fattree(18, 1000, err);
	assert_non_null(t);
	p = dard_plan_new(t, &o, err);
	assert_non_null(p);
	dard_config_write(t, p, DARD_CONFIG_F_PLAN | DARD_CONFIG_F_ALIASES, &b);
	{
		const char *l = b.s;
		unsigned lines = 0, words;

		while ((l = strstr(l, "\nalias e1_1 "))) {
			l++;
			for (words = 0; *l && *l != '\n'; l++)
				words += *l == ' ';
			assert_int_equal(words, lines ? 17 + 1 : 64 + 1);
			lines++;
		}
		assert_int_equal(lines, 2);
	}
	dard_buf_free(&b);
	dard_plan_free(p);
	dard_topo_free(t);
}

/* A host's link may sit on a port other than 1. */
static void test_host_port(void **state)
{
	struct dard_config cfg;
	struct dard_pathctx *c;
	struct dard_path out;
	struct dard_buf b = {0};
	uint32_t chain[DARD_LEVEL_MAX + 1], h1, h2;
	char err[DARD_ERR_MAX];

	parse_ok(&cfg, HEAD NODES "link core1:1 aggr1:1\n"
				  "link core2:1 aggr1:2\n"
				  "link aggr1:3 tor1:1\n"
				  "link tor1:2 h1:2\n"
				  "link tor1:3 h2\n"
				  "alias h1 10.4.16.195 10.8.16.195\n");
	h1 = find(cfg.topo, "h1");
	h2 = find(cfg.topo, "h2");
	assert_int_equal(cfg.topo->node[h1].nports, 2);
	assert_int_equal(dard_topo_tor(cfg.topo, h1), find(cfg.topo, "tor1"));
	assert_int_equal(dard_plan_alias(cfg.topo, cfg.plan, h1, 1),
			 A("10.8.16.195"));
	assert_int_equal(dard_plan_decode(cfg.topo, cfg.plan, A("10.8.16.195"),
					  chain, err),
			 h1);
	c = dard_pathctx_new(cfg.topo, cfg.plan);
	assert_non_null(c);
	assert_int_equal(dard_path_count(c, h1, h2), 1);
	assert_int_equal(dard_path_decode(c, A("10.4.16.195"), A("10.8.16.196"),
					  &out, err),
			 0);
	assert_int_equal(out.nsw, 1);
	dard_pathctx_free(c);
	dard_config_write(cfg.topo, cfg.plan, 0, &b);
	assert_non_null(strstr(b.s, "\nlink tor1:2 h1:2\n"));
	dard_buf_free(&b);
	dard_config_free(&cfg);
}

/* Two trees with no common root: a valid file, but no paths across. */
static void test_disconnected(void **state)
{
	struct dard_config cfg;
	struct dard_pathctx *c;
	struct dard_path out;
	char err[DARD_ERR_MAX] = "";
	uint32_t h1, h2;

	parse_ok(&cfg, "levels core tor\n"
		       "switch c1 core\nswitch c2 core\n"
		       "switch t1 tor\nswitch t2 tor\n"
		       "host h1\nhost h2\nhost h3\n"
		       "link c1:1 t1:1\nlink c2:1 t2:1\n"
		       "link t1:2 h1\nlink t2:2 h2\nlink t2:3 h3\n");
	h1 = find(cfg.topo, "h1");
	h2 = find(cfg.topo, "h2");
	c = dard_pathctx_new(cfg.topo, cfg.plan);
	assert_non_null(c);
	assert_int_equal(dard_path_count(c, h1, h2), 0);
	assert_int_equal(dard_path_count(c, h2, find(cfg.topo, "h3")), 1);
	assert_int_equal(
		dard_path_decode(c, dard_plan_alias(cfg.topo, cfg.plan, h1, 0),
				 dard_plan_alias(cfg.topo, cfg.plan, h2, 0),
				 &out, err),
		-ENOENT);
	assert_non_null(strstr(err, "names no path"));
	dard_pathctx_free(c);
	dard_config_free(&cfg);
}

static void test_override(void **state)
{
	static const char text[] = "base 10.0.0.0/8\n"
				   "mode paper\n" TINY;
	static const char aliased[] = TINY "alias h1 10.4.16.195 10.8.16.195\n";
	struct dard_plan_opts over;
	struct dard_config cfg;
	char err[DARD_ERR_MAX];
	unsigned line;
	int ret;

	dard_plan_opts_init(&over);
	assert_int_equal(dard_prefix_parse("16.0.0.0/4", &over.base), 0);
	over.mode = DARD_MODE_COMPACT;
	assert_int_equal(dard_prefix_parse("192.168.0.0/16", &over.ids), 0);

	ret = dard_config_parse(&cfg, text, strlen(text), &over, DARD_OPT_BASE,
				NULL, NULL);
	assert_int_equal(ret, 0);
	assert_int_equal(cfg.opts.base.addr, A("16.0.0.0"));
	assert_int_equal(cfg.opts.base.len, 4);
	assert_int_equal(cfg.plan->opts.base.addr, A("16.0.0.0"));
	/* Only the base: the file's mode and the default IDs stay. */
	assert_int_equal(cfg.plan->mode, DARD_MODE_PAPER);
	assert_int_equal(cfg.opts.ids.addr, A("172.16.0.0"));
	assert_int_equal(
		dard_plan_alias(cfg.topo, cfg.plan, find(cfg.topo, "h1"), 0),
		A("16.4.16.195"));
	dard_config_free(&cfg);

	ret = dard_config_parse(&cfg, text, strlen(text), &over,
				DARD_OPT_BASE | DARD_OPT_MODE | DARD_OPT_IDS,
				NULL, NULL);
	assert_int_equal(ret, 0);
	assert_int_equal(cfg.plan->mode, DARD_MODE_COMPACT);
	assert_int_equal(cfg.topo->node[find(cfg.topo, "h1")].id,
			 A("192.168.0.1"));
	dard_config_free(&cfg);

	/* No mask, or no override: the file wins. */
	ret = dard_config_parse(&cfg, text, strlen(text), &over, 0, NULL, NULL);
	assert_int_equal(ret, 0);
	assert_int_equal(cfg.opts.base.addr, A("10.0.0.0"));
	dard_config_free(&cfg);
	ret = dard_config_parse(&cfg, text, strlen(text), NULL, DARD_OPT_BASE,
				NULL, NULL);
	assert_int_equal(ret, 0);
	assert_int_equal(cfg.opts.base.addr, A("10.0.0.0"));
	dard_config_free(&cfg);

	/* The override applies before the aliases are checked. */
	ret = dard_config_parse(&cfg, aliased, strlen(aliased), &over,
				DARD_OPT_BASE, &line, err);
	assert_int_equal(ret, -EINVAL);
	assert_int_equal(line, 14);
	assert_non_null(strstr(err, "outside the alias base 16.0.0.0/4"));
}

static void test_opts_apply(void **state)
{
	struct dard_plan_opts a, b;

	dard_plan_opts_init(&a);
	memset(&b, 0, sizeof(b));
	b.base.len = 5;
	b.mode = DARD_MODE_COMPACT;
	b.ids.len = 6;
	b.links.len = 7;
	b.mgmt.len = 9;
	dard_plan_opts_apply(&a, &b, DARD_OPT_LINKS | DARD_OPT_MGMT);
	assert_int_equal(a.base.len, 8);
	assert_int_equal(a.mode, DARD_MODE_AUTO);
	assert_int_equal(a.ids.len, 16);
	assert_int_equal(a.links.len, 7);
	assert_int_equal(a.mgmt.len, 9);
	dard_plan_opts_apply(&a, &b, DARD_OPT_BASE | DARD_OPT_MODE);
	assert_int_equal(a.base.len, 5);
	assert_int_equal(a.mode, DARD_MODE_COMPACT);
	assert_int_equal(a.ids.len, 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tiny),
		cmocka_unit_test(test_syntax),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_write_text),
		cmocka_unit_test(test_host_port),
		cmocka_unit_test(test_disconnected),
		cmocka_unit_test(test_override),
		cmocka_unit_test(test_opts_apply),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
