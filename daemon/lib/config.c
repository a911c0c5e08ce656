// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Parser of the host configuration file (see config.h); config_alias.c
 * reads and checks its alias lines, config_write.c writes it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addr6.h"
#include "config.h"
#include "config_int.h"
#include "err.h"
#include "num.h"

int cfg_perr(struct parser *ps, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ps->err, DARD_ERR_MAX, fmt, ap);
	va_end(ap);
	*ps->err_line = ps->line;
	return ret;
}

static int prefix_arg(struct parser *ps, struct dard_prefix *p)
{
	if (dard_prefix_parse(ps->tok[1], p))
		return cfg_perr(
			ps, -EINVAL,
			"%s: invalid prefix `%s' (expected A.B.C.D/LEN with no host bits set)",
			ps->tok[0], ps->tok[1]);
	return 0;
}

static int note_node(struct parser *ps)
{
	uint32_t n = ps->cfg->topo->nnodes;

	if (n > ps->node_line_cap) {
		size_t cap = ps->node_line_cap ? ps->node_line_cap * 2 : 256;
		unsigned *p;

		while (cap < n)
			cap *= 2;
		p = realloc(ps->node_line, cap * sizeof(*p));
		if (!p)
			return cfg_perr(ps, -ENOMEM, "out of memory");
		ps->node_line = p;
		ps->node_line_cap = cap;
	}
	ps->node_line[n - 1] = ps->line;
	return 0;
}

/* "mgmt ADDR" and "id ADDR" options after a node's name. */
static int node_opts(struct parser *ps, unsigned from, int host)
{
	struct dard_topo *t = ps->cfg->topo;
	struct dard_node *n = &t->node[t->nnodes - 1];
	unsigned i;

	for (i = from; i < ps->ntok; i += 2) {
		uint32_t *dst;

		if (!strcmp(ps->tok[i], "mgmt"))
			dst = &n->mgmt;
		else if (host && !strcmp(ps->tok[i], "id"))
			dst = &n->id;
		else
			return cfg_perr(ps, -EINVAL,
					"%s: unknown option `%s' (expected %s)",
					n->name, ps->tok[i],
					host ? "`id ADDR' or `mgmt ADDR'"
					     : "`mgmt ADDR'");
		if (i + 1 >= ps->ntok)
			return cfg_perr(ps, -EINVAL,
					"%s: `%s' needs an address", n->name,
					ps->tok[i]);
		if (*dst)
			return cfg_perr(ps, -EINVAL, "%s: `%s' given twice",
					n->name, ps->tok[i]);
		if (dard_addr_parse(ps->tok[i + 1], dst) || !*dst)
			return cfg_perr(ps, -EINVAL,
					"%s: invalid %s address `%s'", n->name,
					ps->tok[i], ps->tok[i + 1]);
	}
	return 0;
}

/* "NAME:PORT" of a declared node, or "NAME" (port 1) of a host. */
static int endpoint(struct parser *ps, char *s, unsigned *port)
{
	const struct dard_topo *t = ps->cfg->topo;
	char *colon = strrchr(s, ':');
	uint32_t v, n;

	if (colon)
		*colon = '\0';
	n = dard_topo_find(t, s);
	if (n == DARD_NONE)
		return cfg_perr(ps, -ENOENT, "link: unknown node `%s'", s);
	if (!colon) {
		if (!t->node[n].is_host)
			return cfg_perr(
				ps, -EINVAL,
				"link: expected %s:PORT (only a host's port may be left out)",
				s);
		*port = 1;
		return 0;
	}
	if (dard_parse_u32(colon + 1, 1, DARD_PORT_MAX, &v))
		return cfg_perr(
			ps, -EINVAL,
			"link: invalid port `%s' of `%s' (expected 1..%d)",
			colon + 1, s, DARD_PORT_MAX);
	*port = v;
	return 0;
}

static int do_link(struct parser *ps)
{
	struct dard_topo *t = ps->cfg->topo;
	unsigned up_port, down_port;
	uint32_t mbps = ps->capacity;
	char err[DARD_ERR_MAX];
	int ret;

	if (ps->ntok > 3) {
		if (ps->ntok != 5 || strcmp(ps->tok[3], "capacity"))
			return cfg_perr(
				ps, -EINVAL,
				"link: expected `capacity MBIT' after the ends, got `%s'",
				ps->tok[3]);
		if (dard_parse_u32(ps->tok[4], 1, UINT32_MAX - 1, &mbps))
			return cfg_perr(
				ps, -EINVAL,
				"link: invalid capacity `%s' (Mbit/s, > 0)",
				ps->tok[4]);
	}
	ret = endpoint(ps, ps->tok[1], &up_port);
	if (ret)
		return ret;
	ret = endpoint(ps, ps->tok[2], &down_port);
	if (ret)
		return ret;
	ret = dard_topo_add_link(t, ps->tok[1], up_port, ps->tok[2], down_port,
				 mbps, err);
	if (ret)
		return cfg_perr(ps, ret, "link: %s", err);
	ps->have_links = 1;
	return 0;
}

static int do_topology(struct parser *ps)
{
	struct dard_topo *t = ps->cfg->topo;

	snprintf(t->name, sizeof(t->name), "%s", ps->tok[1]);
	return 0;
}

static int do_capacity(struct parser *ps)
{
	if (ps->have_links)
		return cfg_perr(ps, -EINVAL,
				"capacity must come before the links");
	if (dard_parse_u32(ps->tok[1], 1, UINT32_MAX - 1, &ps->capacity))
		return cfg_perr(ps, -EINVAL,
				"invalid capacity `%s' (Mbit/s, > 0)",
				ps->tok[1]);
	ps->cfg->topo->mbps = ps->capacity;
	return 0;
}

static int do_levels(struct parser *ps)
{
	char err[DARD_ERR_MAX];
	unsigned i;
	int ret;

	if (ps->ntok - 1 > DARD_LEVEL_MAX)
		return cfg_perr(ps, -E2BIG,
				"levels: at most %d switch levels, got %u",
				DARD_LEVEL_MAX, ps->ntok - 1);
	for (i = 1; i < ps->ntok; i++) {
		ret = dard_topo_add_level(ps->cfg->topo, ps->tok[i], err);
		if (ret)
			return cfg_perr(ps, ret, "levels: %s", err);
	}
	return 0;
}

static int do_base(struct parser *ps)
{
	return prefix_arg(ps, &ps->cfg->opts.base);
}

static int do_ids(struct parser *ps)
{
	return prefix_arg(ps, &ps->cfg->opts.ids);
}

static int do_linknet(struct parser *ps)
{
	return prefix_arg(ps, &ps->cfg->opts.links);
}

static int do_mgmtnet(struct parser *ps)
{
	return prefix_arg(ps, &ps->cfg->opts.mgmt);
}

/* "base6 PREFIX" or "ids6 PREFIX". */
static int do_prefix6(struct parser *ps)
{
	struct dard_plan_opts *o = &ps->cfg->opts;

	if (dard_prefix6_parse(ps->tok[1], strcmp(ps->tok[0], "base6")
						   ? &o->ids6
						   : &o->base6))
		return cfg_perr(
			ps, -EINVAL,
			"%s: invalid IPv6 prefix `%s' (expected ADDR/LEN with no host bits set)",
			ps->tok[0], ps->tok[1]);
	return 0;
}

/* A keyword's one named value: "invalid KEYWORD `VALUE' (expected ...)". */
static int choice_arg(struct parser *ps, int (*parse)(const char *s),
		      const char *expected, int *dst)
{
	int ret = parse(ps->tok[1]);

	if (ret < 0)
		return cfg_perr(ps, -EINVAL, "invalid %s `%s' (expected %s)",
				ps->tok[0], ps->tok[1], expected);
	*dst = ret;
	return 0;
}

static int do_family(struct parser *ps)
{
	return choice_arg(ps, dard_family_parse, "ipv4, ipv6 or dual",
			  &ps->cfg->opts.family);
}

static int do_outer(struct parser *ps)
{
	return choice_arg(ps, dard_outer_parse, "auto, ipv4 or ipv6",
			  &ps->cfg->opts.outer);
}

static int do_mode(struct parser *ps)
{
	return choice_arg(ps, dard_mode_parse, "auto, paper or compact",
			  &ps->cfg->opts.mode);
}

/* "switch NAME LEVEL ..." and "host NAME ...": the node, then options. */
static int do_node(struct parser *ps, int host)
{
	struct dard_topo *t = ps->cfg->topo;
	char err[DARD_ERR_MAX];
	int ret;

	if (!t->nlevels)
		return cfg_perr(ps, -EINVAL,
				"%s before `levels': declare the levels first",
				ps->tok[0]);
	ret = host ? dard_topo_add_host(t, ps->tok[1], err)
		   : dard_topo_add_switch(t, ps->tok[1], ps->tok[2], err);
	if (ret)
		return cfg_perr(ps, ret, "%s", err);
	return note_node(ps) ?: node_opts(ps, host ? 2 : 3, host);
}

static int do_switch(struct parser *ps)
{
	return do_node(ps, 0);
}

static int do_host(struct parser *ps)
{
	return do_node(ps, 1);
}

/*
 * The statements. A statement has min..max words, keyword included; a
 * paired one's words past min come in pairs (KEY VALUE options). A once
 * keyword may appear on one line only.
 */
static const struct keyword {
	const char *name;
	int (*fn)(struct parser *ps);
	const char *usage;
	unsigned min, max;
	unsigned once : 1, paired : 1;
} keywords[] = {
	/* name, handler, usage, min and max words, once, paired */
	{"topology", do_topology, "topology NAME", 2, 2, 1, 0},
	{"capacity", do_capacity, "capacity MBIT", 2, 2, 1, 0},
	{"levels", do_levels, "levels LEVEL...", 2, MAX_TOKENS, 1, 0},
	{"base", do_base, "base PREFIX", 2, 2, 1, 0},
	{"mode", do_mode, "mode auto|paper|compact", 2, 2, 1, 0},
	{"ids", do_ids, "ids PREFIX", 2, 2, 1, 0},
	{"linknet", do_linknet, "linknet PREFIX", 2, 2, 1, 0},
	{"mgmtnet", do_mgmtnet, "mgmtnet PREFIX", 2, 2, 1, 0},
	{"family", do_family, "family ipv4|ipv6|dual", 2, 2, 1, 0},
	{"base6", do_prefix6, "base6 PREFIX", 2, 2, 1, 0},
	{"ids6", do_prefix6, "ids6 PREFIX", 2, 2, 1, 0},
	{"outer", do_outer, "outer auto|ipv4|ipv6", 2, 2, 1, 0},
	{"switch", do_switch, "switch NAME LEVEL [mgmt ADDR]", 3, MAX_TOKENS, 0,
	 1},
	{"host", do_host, "host NAME [id ADDR] [mgmt ADDR]", 2, MAX_TOKENS, 0,
	 1},
	{"link", do_link, "link UPPER:PORT LOWER[:PORT] [capacity MBIT]", 3, 5,
	 0, 0},
	{"alias", cfg_do_alias, "alias HOST ADDR...", 3, MAX_TOKENS, 0, 0},
};

#define NKEYWORDS (sizeof(keywords) / sizeof(keywords[0]))
/* parser.seen has a bit per keyword. */
_Static_assert(NKEYWORDS <= 32, "more keywords than bits in seen");

static int statement(struct parser *ps)
{
	const char *kw = ps->tok[0];
	const struct keyword *k;
	char list[128] = "";
	size_t len = 0;
	unsigned i;

	for (i = 0; i < NKEYWORDS && strcmp(kw, keywords[i].name); i++)
		;
	if (i == NKEYWORDS) {
		for (i = 0; i < NKEYWORDS && len < sizeof(list); i++)
			len += snprintf(list + len, sizeof(list) - len, "%s%s",
					!i		    ? ""
					: i < NKEYWORDS - 1 ? ", "
							    : " or ",
					keywords[i].name);
		/* Not quoted when no keyword is that long: a key file given
		 * as the configuration would put its key in the message. */
		if (strlen(kw) > 16)
			return cfg_perr(ps, -EINVAL,
					"unknown keyword of %zu characters "
					"(expected %s)",
					strlen(kw), list);
		return cfg_perr(ps, -EINVAL,
				"unknown keyword `%s' (expected %s)", kw, list);
	}
	k = &keywords[i];
	if (k->once && ps->seen & 1U << i)
		return cfg_perr(ps, -EINVAL, "`%s' given twice", kw);
	ps->seen |= 1U << i;
	if (ps->ntok < k->min || ps->ntok > k->max ||
	    (k->paired && (ps->ntok - k->min) % 2))
		return cfg_perr(ps, -EINVAL, "expected `%s', got %u word%s",
				k->usage, ps->ntok, ps->ntok == 1 ? "" : "s");
	return k->fn(ps);
}

struct addr_owner {
	uint32_t addr;
	uint32_t node;
};

static int cmp_owner(const void *a, const void *b)
{
	const struct addr_owner *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;
}

/* IDs and management addresses must each be unique. */
static int check_unique(struct parser *ps, int ids)
{
	struct dard_topo *t = ps->cfg->topo;
	struct addr_owner *o = calloc(t->nnodes + 1, sizeof(*o));
	uint32_t i, n = 0;
	char b[24];
	int ret = 0;

	if (!o)
		return cfg_perr(ps, -ENOMEM, "out of memory");
	for (i = 0; i < t->nnodes; i++) {
		if (ids && !t->node[i].is_host)
			continue;
		o[n].addr = ids ? t->node[i].id : t->node[i].mgmt;
		o[n++].node = i;
	}
	qsort(o, n, sizeof(*o), cmp_owner);
	for (i = 1; i < n; i++) {
		if (o[i].addr != o[i - 1].addr)
			continue;
		ps->line = ps->node_line[o[i].node];
		ret = cfg_perr(ps, -EEXIST, "%s: %s address %s is also %s's",
			       t->node[o[i].node].name, ids ? "ID" : "mgmt",
			       dard_addr_str(o[i].addr, b),
			       t->node[o[i - 1].node].name);
		break;
	}
	free(o);
	return ret;
}

static int tokenize(struct parser *ps, char *line)
{
	char *s = line, *hash = strchr(line, '#');

	if (hash)
		*hash = '\0';
	ps->ntok = 0;
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r')
			s++;
		if (!*s)
			return 0;
		if (ps->ntok == MAX_TOKENS)
			return cfg_perr(ps, -E2BIG,
					"more than %d words on a line",
					MAX_TOKENS);
		ps->tok[ps->ntok++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r')
			s++;
		if (*s)
			*s++ = '\0';
	}
}

void dard_plan_opts_apply(struct dard_plan_opts *dst,
			  const struct dard_plan_opts *src, unsigned mask)
{
	if (mask & DARD_OPT_BASE)
		dst->base = src->base;
	if (mask & DARD_OPT_MODE)
		dst->mode = src->mode;
	if (mask & DARD_OPT_IDS)
		dst->ids = src->ids;
	if (mask & DARD_OPT_LINKS)
		dst->links = src->links;
	if (mask & DARD_OPT_MGMT)
		dst->mgmt = src->mgmt;
	if (mask & DARD_OPT_FAMILY)
		dst->family = src->family;
	if (mask & DARD_OPT_BASE6)
		dst->base6 = src->base6;
	if (mask & DARD_OPT_IDS6)
		dst->ids6 = src->ids6;
	if (mask & DARD_OPT_OUTER)
		dst->outer = src->outer;
}

int dard_config_parse(struct dard_config *cfg, const char *text, size_t len,
		      const struct dard_plan_opts *over, unsigned mask,
		      unsigned *err_line, char *err)
{
	char ebuf[DARD_ERR_MAX];
	uint32_t bad;
	unsigned lbuf;
	struct parser ps = {.cfg = cfg,
			    .err = err ? err : ebuf,
			    .err_line = err_line ? err_line : &lbuf,
			    .capacity = 1000};
	char *line = NULL;
	size_t off = 0;
	int ret = 0;

	memset(cfg, 0, sizeof(*cfg));
	*ps.err_line = 0;
	dard_plan_opts_init(&cfg->opts);
	cfg->topo = dard_topo_new();
	line = malloc(LINE_MAX_LEN + 1);
	if (!cfg->topo || !line) {
		ret = cfg_perr(&ps, -ENOMEM, "out of memory");
		goto out;
	}
	while (off < len) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (text + off)) : len - off;

		ps.line++;
		if (n > LINE_MAX_LEN) {
			ret = cfg_perr(&ps, -E2BIG, "line longer than %d bytes",
				       LINE_MAX_LEN);
			goto out;
		}
		if (memchr(text + off, '\0', n)) {
			ret = cfg_perr(&ps, -EINVAL, "NUL byte in line");
			goto out;
		}
		memcpy(line, text + off, n);
		line[n] = '\0';
		off += n + 1;
		ret = tokenize(&ps, line);
		if (ret)
			goto out;
		if (!ps.ntok)
			continue;
		ret = statement(&ps);
		if (ret)
			goto out;
	}
	ps.line = 0;
	if (over)
		dard_plan_opts_apply(&cfg->opts, over, mask);
	ret = dard_topo_finalize(cfg->topo, &bad, ps.err);
	if (!ret)
		ret = dard_plan_build(cfg->topo, &cfg->opts, &cfg->plan, &bad,
				      ps.err);
	if (ret) {
		/* An error about one node points at the line declaring it. */
		if (bad != DARD_NONE)
			*ps.err_line = ps.node_line[bad];
		goto out;
	}
	ret = check_unique(&ps, 1) ?: check_unique(&ps, 0) ?:
					       cfg_check_aliases(&ps);
out:
	free(ps.aliases);
	free(ps.addr6);
	free(ps.node_line);
	free(line);
	if (ret) {
		dard_plan_free(cfg->plan);
		dard_topo_free(cfg->topo);
		cfg->plan = NULL;
		cfg->topo = NULL;
	}
	return ret;
}

void dard_config_free(struct dard_config *cfg)
{
	dard_plan_free(cfg->plan);
	dard_topo_free(cfg->topo);
	cfg->plan = NULL;
	cfg->topo = NULL;
}
