// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Tests the configuration file: round trips, overrides and every error. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "config.h"
#include "gen.h"
#include "path.h"
#include "unit.h"

/*
 * A small valid tree: two cores above one aggregation switch, one ToR and
 * two hosts, so every host has two aliases. The line numbers matter.
 */
#define HEAD                                                                   \
	"topology tiny\n"                                                      \
	"levels core aggr tor\n" /* 2 */
#define NODES                                                                  \
	"switch core1 core\n"                                                  \
	"switch core2 core\n"                                                  \
	"switch aggr1 aggr\n"                                                  \
	"switch tor1 tor\n"                                                    \
	"host h1\n"                                                            \
	"host h2\n" /* 3..8 */
#define LINKS                                                                  \
	"link core1:1 aggr1:1\n"                                               \
	"link core2:1 aggr1:2\n"                                               \
	"link aggr1:3 tor1:1\n"                                                \
	"link tor1:2 h1\n"                                                     \
	"link tor1:3 h2\n" /* 9..13 */
#define TINY HEAD NODES LINKS

static void parse_ok(struct dard_config *cfg, const char *text)
{
	char err[DARD_ERR_MAX];
	unsigned line;
	int ret =
		dard_config_parse(cfg, text, strlen(text), NULL, 0, &line, err);

	if (ret)
		fail_msg("line %u: %s (%d)", line, err, ret);
	assert_non_null(cfg->topo);
	assert_non_null(cfg->plan);
}

/* Parses text of length len and expects an error on line with msg. */
static void expect_err_len(const char *text, size_t len, unsigned line,
			   const char *msg)
{
	struct dard_config cfg;
	char err[DARD_ERR_MAX];
	unsigned l;
	int ret = dard_config_parse(&cfg, text, len, NULL, 0, &l, err);

	if (!ret) {
		dard_config_free(&cfg);
		fail_msg("accepted, expected line %u: %s\n%s", line, msg, text);
	}
	assert_true(ret < 0);
	assert_null(cfg.topo);
	assert_null(cfg.plan);
	if (l != line || !strstr(err, msg))
		fail_msg("got line %u: %s\nexpected line %u: ...%s...\n%s", l,
			 err, line, msg, text);
}

static void expect_err(const char *text, unsigned line, const char *msg)
{
	expect_err_len(text, strlen(text), line, msg);
}

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

/*
 * The keyword table: its list in the unknown-keyword message, each
 * single-valued keyword refused on a second line, each keyword's word
 * count (options in pairs for switch and host), and numbers as strict as
 * num.h: digits only, within range.
 */
static void test_err_keywords(void **state)
{
	static const char *const once[] = {
		"topology t",
		"capacity 10",
		"levels core tor",
		"base 10.0.0.0/8",
		"mode auto",
		"ids 172.16.0.0/16",
		"linknet 172.20.0.0/14",
		"mgmtnet 172.24.0.0/16",
	};
	char text[256], msg[64];
	unsigned i;

	(void)state;
	expect_err(
		"nope\n", 1,
		"unknown keyword `nope' (expected topology, capacity, levels, base, mode, ids, linknet, mgmtnet, switch, host, link or alias)");
	for (i = 0; i < sizeof(once) / sizeof(once[0]); i++) {
		snprintf(text, sizeof(text), "%s\n%s\n", once[i], once[i]);
		snprintf(msg, sizeof(msg), "`%.*s' given twice",
			 (int)strcspn(once[i], " "), once[i]);
		expect_err(text, 2, msg);
	}
	expect_err("ids\n", 1, "expected `ids PREFIX', got 1 word");
	expect_err("linknet 1 2\n", 1,
		   "expected `linknet PREFIX', got 3 words");
	expect_err("mgmtnet 10.0.0.0/33\n", 1, "mgmtnet: invalid prefix");
	expect_err(HEAD "host h9 id 172.16.0.9 mgmt\n", 3,
		   "expected `host NAME [id ADDR] [mgmt ADDR]', got 5 words");
	expect_err(HEAD "switch s9 core mgmt 172.24.0.9 x\n", 3,
		   "expected `switch NAME LEVEL [mgmt ADDR]', got 6 words");
	expect_err(
		HEAD NODES "link core1:1 aggr1:1 capacity 10 x\n", 9,
		"expected `link UPPER:PORT LOWER[:PORT] [capacity MBIT]', got 6 words");
	expect_err(HEAD "alias\n", 3,
		   "expected `alias HOST ADDR...', got 1 word");
	expect_err("capacity +5\n" HEAD, 1, "invalid capacity `+5'");
	expect_err("capacity 0x10\n" HEAD, 1, "invalid capacity `0x10'");
	expect_err("capacity 1e3\n" HEAD, 1, "invalid capacity `1e3'");
	expect_err("capacity 4294967295\n" HEAD, 1,
		   "invalid capacity `4294967295'");
	expect_err(HEAD NODES "link tor1:+1 h1\n", 9, "invalid port `+1'");
}

static void test_err_statements(void **state)
{
	expect_err("frobnicate 1\n", 1, "unknown keyword `frobnicate'");
	expect_err(HEAD "\n# comment\nswitches core1 core\n", 5,
		   "unknown keyword `switches'");
	expect_err(HEAD "levels a b\n", 3, "`levels' given twice");
	expect_err("base 10.0.0.0/8\nbase 11.0.0.0/8\n" TINY, 2,
		   "`base' given twice");
	expect_err("topology a\n" TINY, 2, "`topology' given twice");
	expect_err("levels\n", 1, "expected `levels LEVEL...'");
	expect_err("levels core host\n", 1, "invalid level name `host'");
	expect_err("levels a b!c\n", 1, "invalid level name `b!c'");
	expect_err("levels a b a\n", 1, "level `a' given twice");
	expect_err("levels a b c d e f g h i\n", 1,
		   "at most 8 switch levels, got 9");
	expect_err("topology\n", 1, "expected `topology NAME'");
	expect_err("topology a b\n", 1, "got 3 words");
	expect_err("switch core1 core\n" HEAD, 1, "switch before `levels'");
	expect_err("host h1\n" HEAD, 1, "host before `levels'");
	expect_err(HEAD "switch s1 spine\n", 3,
		   "switch `s1': unknown level `spine'");
	expect_err(HEAD "switch s1\n", 3,
		   "expected `switch NAME LEVEL [mgmt ADDR]', got 2 words");
	expect_err(HEAD NODES "switch aggr1 tor\n", 9,
		   "node `aggr1' declared twice");
	expect_err(HEAD NODES "host h2\n", 9, "node `h2' declared twice");
	expect_err(HEAD "switch bad!name core\n", 3,
		   "invalid node name `bad!name'");
	expect_err(HEAD "host -h\n", 3, "invalid node name `-h'");
	expect_err(HEAD "host aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n", 3,
		   "invalid node name");
}

static void test_err_links(void **state)
{
	expect_err(HEAD NODES "link core1:1 nosuch:1\n", 9,
		   "unknown node `nosuch'");
	expect_err(HEAD NODES "link nosuch:1 aggr1:1\n", 9,
		   "unknown node `nosuch'");
	expect_err(HEAD NODES "link tor1:x h1\n", 9,
		   "invalid port `x' of `tor1'");
	expect_err(HEAD NODES "link tor1:0 h1\n", 9,
		   "invalid port `0' of `tor1'");
	expect_err(HEAD NODES "link tor1:4097 h1\n", 9, "invalid port `4097'");
	expect_err(HEAD NODES "link tor1: h1\n", 9, "invalid port `'");
	expect_err(HEAD NODES "link tor1:2 h1:y\n", 9,
		   "invalid port `y' of `h1'");
	expect_err(HEAD NODES "link core1 aggr1:1\n", 9, "expected core1:PORT");
	expect_err(HEAD NODES "link core1:1 aggr1\n", 9, "expected aggr1:PORT");
	expect_err(HEAD NODES "link core1:1\n", 9, "expected `link UPPER:PORT");
	/* The upper end's port is taken. */
	expect_err(TINY "switch tor2 tor\nlink aggr1:3 tor2:1\n", 15,
		   "aggr1: port 3 is used twice");
	/* The lower end's port is taken. */
	expect_err(TINY "switch aggr2 aggr\n"
			"link core1:2 aggr2:1\n"
			"link core2:2 aggr2:1\n",
		   16, "aggr2: port 1 is used twice");
	expect_err(TINY "link core1:2 tor1:4\n", 14,
		   "`tor1' (tor) is not one level below `core1' (core)");
	expect_err(TINY "link tor1:4 aggr1:4\n", 14,
		   "`aggr1' (aggr) is not one level below `tor1' (tor)");
	expect_err(TINY "link h1:2 tor1:4\n", 14,
		   "`h1' is a host and cannot be the upper end");
	expect_err(TINY "link core1:2 aggr1:4\n", 14, "parallel links");
	expect_err(TINY "switch tor2 tor\n"
			"link aggr1:4 tor2:1\n"
			"link tor2:2 h1\n",
		   16, "host `h1' already has a link");
	expect_err(TINY "switch aggr2 aggr\nlink core1:2 aggr2:1 capacity 0\n",
		   15, "link: invalid capacity `0'");
	expect_err(TINY "switch aggr2 aggr\nlink core1:2 aggr2:1 capacity x\n",
		   15, "link: invalid capacity `x'");
	expect_err(TINY "switch aggr2 aggr\nlink core1:2 aggr2:1 speed 10\n",
		   15, "expected `capacity MBIT' after the ends, got `speed'");
	expect_err(TINY "switch aggr2 aggr\nlink core1:2 aggr2:1 capacity\n",
		   15, "expected `capacity MBIT' after the ends");
}

static void test_err_options(void **state)
{
	expect_err("capacity 0\n" HEAD, 1, "invalid capacity `0'");
	expect_err("capacity abc\n" HEAD, 1, "invalid capacity `abc'");
	expect_err("capacity -5\n" HEAD, 1, "invalid capacity `-5'");
	expect_err("capacity 99999999999\n" HEAD, 1, "invalid capacity");
	expect_err(TINY "capacity 100\n", 14,
		   "capacity must come before the links");
	expect_err(HEAD "base 10.1.0.0/8\n", 3,
		   "base: invalid prefix `10.1.0.0/8'");
	expect_err(HEAD "base 10.0.0.0/33\n", 3, "base: invalid prefix");
	expect_err(HEAD "base\n", 3, "expected `base PREFIX', got 1 word");
	expect_err(HEAD "ids 172.16.0.0/33\n", 3,
		   "ids: invalid prefix `172.16.0.0/33'");
	expect_err(HEAD "ids 172.16.1.0/16\n", 3, "ids: invalid prefix");
	expect_err(HEAD "linknet 1.2.3\n", 3, "linknet: invalid prefix");
	expect_err(HEAD "mgmtnet 256.0.0.0/8\n", 3, "mgmtnet: invalid prefix");
	expect_err(HEAD "mode fancy\n", 3, "invalid mode `fancy'");
	expect_err(HEAD "mode\n", 3, "expected `mode auto|paper|compact'");
	expect_err(HEAD "host h9 color red\n", 3, "h9: unknown option `color'");
	expect_err(HEAD "switch s9 core id 172.16.0.9\n", 3,
		   "s9: unknown option `id' (expected `mgmt ADDR')");
	expect_err(HEAD "host h9 id\n", 3, "expected `host NAME");
	expect_err(HEAD "host h9 id 1.2.3\n", 3,
		   "h9: invalid id address `1.2.3'");
	expect_err(HEAD "host h9 id 0.0.0.0\n", 3, "h9: invalid id address");
	expect_err(HEAD "host h9 mgmt 300.1.1.1\n", 3,
		   "h9: invalid mgmt address `300.1.1.1'");
	expect_err(HEAD "switch s9 core mgmt x\n", 3,
		   "s9: invalid mgmt address `x'");
	/* The plan's own checks name the whole file. */
	expect_err("mode paper\n" TINY "host h3\nlink tor1:70 h3\n", 0,
		   "does not fit paper addressing");
	/* A /31 or /32 has no room for hosts, nodes or /31 links. */
	expect_err("ids 172.16.0.0/31\n" TINY, 0,
		   "ID prefix 172.16.0.0/31 holds 0 hosts, not 2");
	expect_err("ids 172.16.0.1/32\n" TINY, 0, "holds 0 hosts");
	expect_err("mgmtnet 172.24.0.1/32\n" TINY, 0, "holds 0 nodes");
	expect_err("mgmtnet 172.24.0.0/30\n" TINY, 0, "holds 2 nodes, not 6");
	expect_err("linknet 172.20.0.0/32\n" TINY, 0, "holds 0 /31 links");
	expect_err("linknet 172.20.0.0/30\n" TINY, 0,
		   "holds 2 /31 links, not 5");
	expect_err(
		"ids 10.9.0.0/16\n" TINY, 0,
		"the alias base 10.0.0.0/8 overlaps the ID prefix 10.9.0.0/16");
}

static void test_err_duplicate_addr(void **state)
{
	/* The second holder's line, naming both. */
	expect_err(HEAD "switch core1 core\n"
			"switch core2 core\n"
			"switch aggr1 aggr\n"
			"switch tor1 tor\n"
			"host h1 id 172.16.5.5\n"
			"host h2 id 172.16.5.5\n" LINKS,
		   8, "h2: ID address 172.16.5.5 is also h1's");
	/* Defaults skip what was given explicitly, wherever it was. */
	{
		struct dard_config cfg;
		const struct dard_topo *t;

		parse_ok(&cfg, HEAD "switch core1 core\n"
				    "switch core2 core mgmt 172.24.0.1\n"
				    "switch aggr1 aggr\n"
				    "switch tor1 tor\n"
				    "host h1\n"
				    "host h2 id 172.16.0.1\n" LINKS);
		t = cfg.topo;
		assert_int_equal(t->node[find(t, "h1")].id, A("172.16.0.2"));
		assert_int_equal(t->node[find(t, "h2")].id, A("172.16.0.1"));
		assert_int_equal(t->node[find(t, "core1")].mgmt,
				 A("172.24.0.2"));
		assert_int_equal(t->node[find(t, "core2")].mgmt,
				 A("172.24.0.1"));
		dard_config_free(&cfg);
	}
	/* Explicit addresses lie in their prefix: kinds cannot collide. */
	expect_err(TINY "host h3 id 8.8.8.8\nlink tor1:4 h3\n", 14,
		   "h3: ID 8.8.8.8 is not a node address of 172.16.0.0/16");
	expect_err(
		TINY "host h3 mgmt 172.16.0.9\nlink tor1:4 h3\n", 14,
		"h3: management address 172.16.0.9 is not a node address of 172.24.0.0/16");
	expect_err(TINY "host h3 id 172.16.0.0\nlink tor1:4 h3\n", 14,
		   "is not a node address");
	expect_err(TINY "host h3 id 172.16.0.1 id 172.16.0.2\n", 14,
		   "h3: `id' given twice");
	/* And the prefixes are disjoint. */
	expect_err(
		"linknet 10.0.0.0/16\n" TINY, 0,
		"the alias base 10.0.0.0/8 overlaps the link prefix 10.0.0.0/16");
	expect_err("ids 172.20.0.0/14\n" TINY, 0,
		   "the ID prefix 172.20.0.0/14 overlaps the link prefix");
	expect_err(
		"mgmtnet 172.16.0.0/16\n" TINY, 0,
		"the ID prefix 172.16.0.0/16 overlaps the management prefix");
}

static void test_err_aliases(void **state)
{
	expect_err(TINY "alias h1 11.0.0.1 10.8.16.195\n", 14,
		   "alias h1: 11.0.0.1 is outside the alias base");
	expect_err(TINY "alias h1 10.4.16.195 10.4.16.194\n", 14,
		   "alias h1: 10.4.16.194 is not a host alias");
	expect_err(TINY "alias h1 10.4.16.196 10.8.16.195\n", 14,
		   "alias h1: 10.4.16.196 belongs to h2");
	expect_err(TINY "alias h2 10.8.16.196\n", 14,
		   "alias h2: 1 aliases listed, the plan gives 2");
	expect_err(TINY "alias h2 10.4.16.196 10.8.16.196\n"
			"alias h1 10.4.16.195 10.8.16.195 10.8.16.195\n",
		   15, "alias h1: 10.8.16.195 listed twice");
	expect_err(TINY "alias tor1 10.4.16.195\n", 14,
		   "alias: `tor1' is not a host");
	expect_err(TINY "alias h7 10.4.16.195\n", 14,
		   "alias: `h7' is not a host");
	expect_err(TINY "alias h1 10.4.16\n", 14,
		   "alias: invalid address `10.4.16'");
	expect_err(TINY "alias h1\n", 14, "expected `alias HOST ADDR...'");
	/* Aliases may come before the links they depend on. */
	expect_err(HEAD NODES "alias h1 10.4.16.195\n" LINKS, 9,
		   "alias h1: 1 aliases listed, the plan gives 2");
}

static void test_err_whole_file(void **state)
{
	expect_err("", 0, "no switch levels");
	expect_err("# nothing\n\n   \n", 0, "no switch levels");
	expect_err("topology x\n", 0, "no switch levels");
	expect_err(HEAD, 0, "no switch at level `core' (the roots)");
	/* Errors about one node point at the line that declares it. */
	expect_err(TINY "switch core3 core\n", 14,
		   "switch `core3' (core) has nothing below it");
	expect_err(TINY "switch tor2 tor\nlink aggr1:4 tor2:1\n", 14,
		   "switch `tor2' (tor) has nothing below it");
	expect_err(
		TINY "switch aggr2 aggr\n", 14,
		"switch `aggr2' (aggr) has no link to a core switch above it");
	expect_err(TINY "host h3\n", 14,
		   "host `h3' has no link to a tor switch");
	expect_err(HEAD "switch core1 core\n", 3,
		   "switch `core1' (core) has nothing below it");
	/* Without a topology line, messages still name something. */
	expect_err("levels core tor\nswitch c core\nswitch t tor\nhost h\n"
		   "link c:1 t:2\nlink t:1 h\nmode paper\nbase 10.0.0.0/24\n",
		   0, "this topology does not fit paper addressing");
}

static void test_err_bytes(void **state)
{
	static const char nul[] = "topology tiny\n"
				  "levels core aggr tor\n"
				  "switch co\0re1 core\n"
				  "switch core2 core\n";
	char big[70000];

	expect_err_len(nul, sizeof(nul) - 1, 3, "NUL byte in line");
	/* Bytes after len are never read. */
	expect_err_len(TINY "capacity 10\n", strlen(TINY) + 8, 14,
		       "expected `capacity MBIT'");

	memset(big, 'a', sizeof(big));
	memcpy(big, "topology tiny\n", 14);
	big[sizeof(big) - 1] = '\n';
	expect_err_len(big, sizeof(big), 2, "line longer than");
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
		cmocka_unit_test(test_err_statements),
		cmocka_unit_test(test_err_keywords),
		cmocka_unit_test(test_err_links),
		cmocka_unit_test(test_err_options),
		cmocka_unit_test(test_err_duplicate_addr),
		cmocka_unit_test(test_err_aliases),
		cmocka_unit_test(test_err_whole_file),
		cmocka_unit_test(test_err_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
