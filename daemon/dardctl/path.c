// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dardctl path: list the paths between two hosts, decode an alias pair. */
#include <stdio.h>
#include <string.h>

#include "ctl.h"
#include "args.h"
#include "load.h"
#include "objects.h"
#include "objopts.h"
#include "addr6.h"
#include "path.h"
#include "print.h"

static int usage(FILE *f)
{
	fprintf(f,
		"Usage: dardctl path list SRC DST [ TOPO_OPTS ]\n"
		"       dardctl path decode SRC_ALIAS DST_ALIAS [ TOPO_OPTS ]\n"
		"Where: SRC, DST := { HOST | ID | ID6 }\n");
	ctl_opts_usage(f, "       ", CTL_OPTS_TOPO);
	fprintf(f,
		"\n"
		"list    every shortest path from SRC to DST, each with the alias\n"
		"        pair that names it and the switches it crosses.\n"
		"decode  the switches and links an alias pair's packets cross, as the\n"
		"        downhill and uphill tables forward them; an error if the pair\n"
		"        names no path. Both aliases IPv4, or both IPv6 in a fabric\n"
		"        with IPv6 (--family).\n"
		"A pair is shown in IPv6 in an IPv6-only fabric or when decoded from\n"
		"IPv6; JSON gives saddr6 and daddr6 too in any fabric with IPv6.\n");
	return f == stdout ? CTL_OK : CTL_USAGE;
}

/* A host by name or by ID address, IPv4 or IPv6. */
static uint32_t host_arg(struct ctl *c, const char *s)
{
	const struct dard_plan *p = c->cfg.plan;
	struct in6_addr a6;
	uint32_t addr, h;

	if (!dard_addr6_parse(s, &a6)) {
		h = dard_family_has6(p->opts.family)
			    ? dard_plan_find_id6(c->cfg.topo, p, &a6)
			    : DARD_NONE;
		if (h == DARD_NONE)
			fprintf(stderr, "No host has IPv6 ID %s%s\n", s,
				dard_family_has6(p->opts.family)
					? ""
					: " (the fabric is IPv4 only)");
		return h;
	}
	if (!dard_addr_parse(s, &addr)) {
		h = dard_topo_find_id(c->cfg.topo, addr);
		if (h == DARD_NONE)
			fprintf(stderr, "No host has ID %s\n", s);
		return h;
	}
	return ctl_node(c, s, 1);
}

/* The pair: in IPv6 (v6) or IPv4 in text, both in JSON where it has. */
static void print_pair(struct ctl *c, const struct dard_path *p, int v6)
{
	const struct dard_plan *plan = c->cfg.plan;
	char b[INET6_ADDRSTRLEN];
	struct in6_addr s6, d6;

	dard_plan_v6(plan, p->saddr, &s6);
	dard_plan_v6(plan, p->daddr, &d6);
	if (v6) {
		print_string(PRINT_ANY, "saddr6", "%s", dard_addr6_str(&s6, b));
		print_string(PRINT_ANY, "daddr6", " -> %s ",
			     dard_addr6_str(&d6, b));
	}
	if (dard_family_has4(plan->opts.family)) {
		print_string(v6 ? PRINT_JSON : PRINT_ANY, "saddr", "%s",
			     dard_addr_str(p->saddr, b));
		print_string(v6 ? PRINT_JSON : PRINT_ANY, "daddr", " -> %-15s ",
			     dard_addr_str(p->daddr, b));
	}
	if (!v6 && dard_family_has6(plan->opts.family)) {
		print_string(PRINT_JSON, "saddr6", NULL,
			     dard_addr6_str(&s6, b));
		print_string(PRINT_JSON, "daddr6", NULL,
			     dard_addr6_str(&d6, b));
	}
}

static void print_path(struct ctl *c, const struct dard_path *p, long index,
		       int v6)
{
	const struct dard_topo *t = c->cfg.topo;
	uint32_t links[2 * DARD_LEVEL_MAX + 1];
	unsigned i, n;

	open_json_object(NULL);
	if (index)
		print_uint(PRINT_ANY, "index", "%-4llu", index);
	print_pair(c, p, v6);
	print_string(PRINT_ANY, "src", " %s", t->node[p->src].name);
	open_json_array(PRINT_JSON, "switches");
	for (i = 0; i < p->nsw; i++)
		print_string(PRINT_ANY, NULL, " %s", t->node[p->sw[i]].name);
	close_json_array(PRINT_JSON, NULL);
	print_string(PRINT_ANY, "dst", " %s", t->node[p->dst].name);
	print_string(PRINT_ANY, "turn", " turns at %s",
		     t->node[p->sw[t->nlevels - 1 - p->top]].name);
	if (!index) {
		print_bool(PRINT_ANY, "shortest", ", shortest: %s",
			   p->shortest);
		print_nl();
		n = dard_path_links(t, p, links);
		print_text("  links:");
		open_json_array(PRINT_JSON, "links");
		for (i = 0; i < n; i++) {
			const struct dard_link *l = &t->link[links[i]];
			char s[2 * DARD_NAME_MAX + 16];

			snprintf(s, sizeof(s), "%s:%u-%s:%u",
				 t->node[l->up].name, l->up_port,
				 t->node[l->down].name, l->down_port);
			print_string(PRINT_ANY, NULL, " %s", s);
		}
		close_json_array(PRINT_JSON, NULL);
	}
	print_nl();
	close_json_object();
}

static int list_cb(const struct dard_path *p, void *arg)
{
	struct ctl *c = arg;
	static long index;

	print_path(c, p, ++index, !dard_family_has4(c->cfg.plan->opts.family));
	return 0;
}

static int path_list(struct ctl *c, const char *src, const char *dst)
{
	struct dard_pathctx *pc;
	uint32_t s, d;
	long n;

	s = host_arg(c, src);
	if (s == DARD_NONE)
		return CTL_ERR;
	d = host_arg(c, dst);
	if (d == DARD_NONE)
		return CTL_ERR;
	if (s == d) {
		fprintf(stderr, "Source and destination are both %s\n",
			c->cfg.topo->node[s].name);
		return CTL_ERR;
	}
	pc = dard_pathctx_new(c->cfg.topo, c->cfg.plan);
	if (!pc) {
		fprintf(stderr, "Out of memory\n");
		return CTL_ERR;
	}
	n = dard_path_foreach(pc, s, d, list_cb, c);
	dard_pathctx_free(pc);
	if (n <= 0) {
		fprintf(stderr, "No path from %s to %s\n",
			c->cfg.topo->node[s].name, c->cfg.topo->node[d].name);
		return CTL_ERR;
	}
	return CTL_OK;
}

/* An alias argument in either family, as its IPv4 form; CTL_OK or why not. */
static int alias_arg(struct ctl *c, const char *what, const char *s,
		     uint32_t *a, int *v6)
{
	const struct dard_plan *p = c->cfg.plan;
	char err[DARD_ERR_MAX];
	struct in6_addr a6;

	*v6 = !dard_addr6_parse(s, &a6);
	if (*v6 && !dard_family_has6(p->opts.family)) {
		fprintf(stderr,
			"Invalid %s alias `%s': the fabric is IPv4 only (--family)\n",
			what, s);
		return CTL_USAGE;
	}
	if (*v6 && dard_plan_v4(p, &a6, a, err)) {
		fprintf(stderr, "Unable to decode the pair: %s\n", err);
		return CTL_ERR;
	}
	if (!*v6 && dard_addr_parse(s, a)) {
		fprintf(stderr,
			"Invalid %s alias `%s': expected an IPv4 address A.B.C.D%s\n",
			what, s,
			dard_family_has6(p->opts.family) ? " or an IPv6 address"
							 : "");
		return CTL_USAGE;
	}
	return CTL_OK;
}

static int path_decode(struct ctl *c, const char *sa, const char *da)
{
	char err[DARD_ERR_MAX];
	struct dard_pathctx *pc;
	struct dard_path p;
	uint32_t s, d;
	int ret, sv6, dv6;

	ret = alias_arg(c, "source", sa, &s, &sv6);
	if (ret == CTL_OK)
		ret = alias_arg(c, "destination", da, &d, &dv6);
	if (ret != CTL_OK)
		return ret;
	if (sv6 != dv6) {
		fprintf(stderr,
			"The pair `%s' -> `%s' mixes IPv4 and IPv6 aliases\n",
			sa, da);
		return CTL_USAGE;
	}
	pc = dard_pathctx_new(c->cfg.topo, c->cfg.plan);
	if (!pc) {
		fprintf(stderr, "Out of memory\n");
		return CTL_ERR;
	}
	ret = dard_path_decode(pc, s, d, &p, err);
	dard_pathctx_free(pc);
	if (ret) {
		fprintf(stderr, "Unable to decode the pair: %s\n", err);
		return CTL_ERR;
	}
	print_path(c, &p, 0, sv6);
	return CTL_OK;
}

int do_path(struct ctl *c, int argc, char **argv)
{
	if (argc < 1)
		return usage(stderr);
	if (ctl_wants_help(argc, argv))
		return usage(stdout);
	if (strcmp(argv[0], "list") && strcmp(argv[0], "decode"))
		return ctl_unknown("path", argv[0]);
	if (argc != 3) {
		fprintf(stderr, "path %s: expected two arguments\n", argv[0]);
		return usage(stderr);
	}
	if (ctl_load(c))
		return CTL_ERR;
	if (!strcmp(argv[0], "list"))
		return path_list(c, argv[1], argv[2]);
	return path_decode(c, argv[1], argv[2]);
}
