// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dardctl topo: show the topology and its address plan, or write it out. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctl.h"
#include "addr6.h"
#include "args.h"
#include "load.h"
#include "objects.h"
#include "objopts.h"
#include "buf.h"
#include "print.h"

static int usage(FILE *f)
{
	fprintf(f,
		"Usage: dardctl topo show [ TOPO_OPTS ]\n"
		"       dardctl topo gen [ noplan ] [ noaliases ] [ output FILE ]\n"
		"                        [ TOPO_OPTS ]\n");
	ctl_opts_usage(f, "Where: ", CTL_OPTS_TOPO);
	fprintf(f,
		"\n"
		"show   the levels, switch and host counts, and the address plan.\n"
		"gen    write the host configuration file: the topology, the address\n"
		"       options, every host's ID and management address, every\n"
		"       switch's management address and every host's aliases.\n"
		"       noplan writes the bare topology file; noaliases leaves out the\n"
		"       alias lines (they are derived, and checked when present).\n");
	return f == stdout ? CTL_OK : CTL_USAGE;
}

static void show_family(const struct dard_plan *p)
{
	const struct dard_plan_opts *o = &p->opts;
	char b[DARD_PREFIX6_STRLEN];
	unsigned l;

	/* An IPv4 fabric's lines are as they were before IPv6. */
	print_string(PRINT_JSON, "family", NULL, dard_family_name(o->family));
	if (!dard_family_has6(o->family))
		return;
	open_json_object("addressing6");
	print_string(PRINT_FP, NULL, "family %s", dard_family_name(o->family));
	print_string(PRINT_ANY, "base6", ", base6 %s, field bits",
		     dard_prefix6_str(&o->base6.addr, o->base6.len, b));
	open_json_array(PRINT_JSON, "field_bits");
	for (l = 0; l < p->nfields; l++)
		print_uint(PRINT_ANY, NULL, l ? "+%llu" : " %llu",
			   p->width6[l]);
	close_json_array(PRINT_JSON, NULL);
	print_string(PRINT_FP, NULL, "%s", ", prefixes");
	open_json_array(PRINT_JSON, "prefix_lens");
	for (l = 0; l + 1 < p->nfields; l++)
		print_uint(PRINT_ANY, NULL, " /%llu", p->plen6[l]);
	close_json_array(PRINT_JSON, NULL);
	print_string(PRINT_ANY, "ids6", ", ids6 %s",
		     dard_prefix6_str(&o->ids6.addr, o->ids6.len, b));
	print_string(PRINT_ANY, "outer", ", ID traffic %s\n",
		     dard_plan_outer6(p) ? "4in6" : "IP-in-IP");
	close_json_object();
}

static int topo_show(struct ctl *c)
{
	const struct dard_topo *t = c->cfg.topo;
	const struct dard_plan *p = c->cfg.plan;
	const struct dard_plan_opts *o = &p->opts;
	uint32_t i, amin = UINT32_MAX, amax = 0;
	char b[24];
	unsigned l;

	for (i = 0; i < t->nhosts; i++) {
		uint32_t n = dard_plan_naliases(t, t->hosts[i]);

		amin = n < amin ? n : amin;
		amax = n > amax ? n : amax;
	}
	open_json_object(NULL);
	print_string(PRINT_ANY, "name", "topology %s:", t->name);
	print_uint(PRINT_ANY, "switch_levels", " %llu levels,", t->nlevels);
	print_uint(PRINT_ANY, "switches", " %llu switches,",
		   t->nnodes - t->nhosts);
	print_uint(PRINT_ANY, "hosts", " %llu hosts,", t->nhosts);
	print_uint(PRINT_ANY, "links", " %llu links,", t->nlinks);
	print_uint(PRINT_ANY, "capacity_mbps", " %llu Mbit/s\n", t->mbps);
	open_json_array(PRINT_JSON, "levels");
	for (l = 0; l < t->nlevels; l++) {
		uint32_t cnt = 0, dmax = 0, umax = 0;

		for (i = 0; i < t->nnodes; i++) {
			const struct dard_node *n = &t->node[i];

			if (n->level != l)
				continue;
			cnt++;
			dmax = n->ndown > dmax ? n->ndown : dmax;
			umax = n->nup > umax ? n->nup : umax;
		}
		open_json_object(NULL);
		print_string(PRINT_ANY, "name", "  %-6s", t->level_name[l]);
		print_uint(PRINT_ANY, "switches", " %llu switches,", cnt);
		print_uint(PRINT_ANY, "max_down", " down ports %llu,", dmax);
		print_uint(PRINT_ANY, "max_up", " up ports %llu,", umax);
		print_uint(PRINT_ANY, "prefix_len", " prefix /%llu\n",
			   p->plen[l]);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	open_json_object("addressing");
	print_string(PRINT_ANY, "mode", "addressing %s,",
		     dard_mode_name(p->mode));
	print_string(PRINT_ANY, "base", " base %s, field bits",
		     dard_prefix_str(o->base.addr, o->base.len, b));
	open_json_array(PRINT_JSON, "field_bits");
	for (l = 0; l < p->nfields; l++)
		print_uint(PRINT_ANY, NULL, l ? "+%llu" : " %llu", p->width[l]);
	close_json_array(PRINT_JSON, NULL);
	print_uint(PRINT_ANY, "aliases_min", ", aliases per host %llu", amin);
	if (amax != amin)
		print_uint(PRINT_FP, NULL, "..%llu", amax);
	print_uint(PRINT_JSON, "aliases_max", NULL, amax);
	print_nl();
	print_string(PRINT_ANY, "ids", "  ids %s",
		     dard_prefix_str(o->ids.addr, o->ids.len, b));
	print_string(PRINT_ANY, "linknet", " linknet %s",
		     dard_prefix_str(o->links.addr, o->links.len, b));
	print_string(PRINT_ANY, "mgmtnet", " mgmtnet %s\n",
		     dard_prefix_str(o->mgmt.addr, o->mgmt.len, b));
	close_json_object();
	show_family(p);
	close_json_object();
	return CTL_OK;
}

static int topo_gen(struct ctl *c, int argc, char **argv)
{
	unsigned flags = DARD_CONFIG_F_PLAN | DARD_CONFIG_F_ALIASES;
	const char *out = NULL;
	struct dard_buf b = {0};
	FILE *f = stdout;
	int i, ret = CTL_OK;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "noplan")) {
			flags &= ~(DARD_CONFIG_F_PLAN | DARD_CONFIG_F_ALIASES);
		} else if (!strcmp(argv[i], "noaliases")) {
			flags &= ~DARD_CONFIG_F_ALIASES;
		} else if (!strcmp(argv[i], "output") && i + 1 < argc) {
			out = argv[++i];
		} else {
			fprintf(stderr, "topo gen: unexpected `%s'\n", argv[i]);
			return usage(stderr);
		}
	}
	if (is_json_context()) {
		fprintf(stderr,
			"topo gen writes a configuration file; -j does not apply\n");
		return CTL_USAGE;
	}
	if (ctl_load(c))
		return CTL_ERR;
	dard_config_write(c->cfg.topo, c->cfg.plan, flags, &b);
	if (b.oom) {
		fprintf(stderr, "Out of memory\n");
		dard_buf_free(&b);
		return CTL_ERR;
	}
	if (out) {
		f = fopen(out, "w");
		if (!f) {
			fprintf(stderr, "Unable to create `%s': %s\n", out,
				strerror(errno));
			dard_buf_free(&b);
			return CTL_ERR;
		}
	}
	if (fwrite(b.s, 1, b.len, f) != b.len || fflush(f)) {
		fprintf(stderr, "Unable to write %s: %s\n",
			out ? out : "stdout", strerror(errno));
		ret = CTL_ERR;
	}
	if (out && fclose(f) && ret == CTL_OK) {
		fprintf(stderr, "Unable to write %s: %s\n", out,
			strerror(errno));
		ret = CTL_ERR;
	}
	dard_buf_free(&b);
	return ret;
}

int do_topo(struct ctl *c, int argc, char **argv)
{
	if (argc < 1)
		return usage(stderr);
	if (ctl_wants_help(argc, argv))
		return usage(stdout);
	if (!strcmp(argv[0], "show")) {
		if (argc > 1) {
			fprintf(stderr, "topo show: unexpected `%s'\n",
				argv[1]);
			return usage(stderr);
		}
		if (ctl_load(c))
			return CTL_ERR;
		return topo_show(c);
	}
	if (!strcmp(argv[0], "gen"))
		return topo_gen(c, argc - 1, argv + 1);
	return ctl_unknown("topo", argv[0]);
}
