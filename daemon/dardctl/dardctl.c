// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardctl: inspect and generate dard topologies, addresses, paths and
 * switch tables. Grammar as in iproute2: dardctl [OPTIONS] OBJECT COMMAND.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "bpflog.h"
#include "cfgfile.h"
#include "ctl.h"
#include "dp.h"
#include "log.h"
#include "objects.h"
#include "print.h"
#include "stdopts.h"
#include <linux/dard.h>

/* The objects: dispatch walks this table, usage prints it. */
static const struct cmd {
	const char *name;
	int (*func)(struct ctl *c, int argc, char **argv);
	const char *description;
} cmds[] = {
	{"topo", do_topo,
	 "show or generate the topology and host configuration file"},
	{"addr", do_addr, "show a host's ID, management address and aliases"},
	{"path", do_path,
	 "list the paths between two hosts, or decode an alias pair"},
	{"key", do_key, "make or rotate the switch protocol's key file"},
	{"switch", do_switch,
	 "show a switch's tables, or query its dard-switchd"},
	{"deploy", do_deploy, "write the commands that build a testbed"},
	{"dp", do_dp, "attach the host datapath to an interface, or detach it"},
	{"flow", do_flow,
	 "show the datapath's flows, or move one to another path"},
	{"monitor", do_monitor, "show the monitors of this namespace's dardd"},
	{"stats", do_stats, "show the counters of this namespace's dardd"},
	{"controller", do_controller, "show the state of dard-controller"},
	{"traffic", do_traffic, "generate the paper's traffic patterns"},
};

#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

/* `OBJECT := { a | b ... }', wrapped before column 77. */
static void usage_objects(FILE *f)
{
	const char *lead = "where  OBJECT := {";
	size_t col = strlen(lead);
	unsigned i;

	fputs(lead, f);
	for (i = 0; i < NCMDS; i++) {
		if (col + strlen(cmds[i].name) + 3 > 76) {
			fprintf(f, "\n%*s", (int)strlen(lead), "");
			col = strlen(lead);
		}
		col += fprintf(f, " %s %s", cmds[i].name,
			       i + 1 < NCMDS ? "|" : "}");
	}
	fputc('\n', f);
}

static void usage(FILE *f)
{
	unsigned i;

	fprintf(f, "Usage: dardctl [ OPTIONS ] OBJECT { COMMAND | help }\n");
	usage_objects(f);
	fprintf(f,
		"       OPTIONS := { -j[son] | -p[retty] | -t[opo] TOPO | -c[apacity] MBIT |\n"
		"                    --base PREFIX | --mode MODE | --ids PREFIX |\n"
		"                    --linknet PREFIX | --mgmtnet PREFIX | --pin DIR |\n"
		"                    --datapath { auto | bpf | kmod } |\n"
		"                    -k[ey] FILE | -v |\n"
		"                    -V[ersion] | -h[elp] }\n"
		"       TOPO := { fattree:P[,T] | clos:DI,DA[,HOSTS] | 3tier[:PODS] | FILE }\n"
		"       MODE := { auto | paper | compact }\n"
		"\n"
		"Objects:\n");
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "  %-7s %s\n", cmds[i].name, cmds[i].description);
	fprintf(f,
		"\n"
		"Options:\n"
		"  -t, --topo TOPO     a generated topology or a topology/configuration file;\n"
		"                      default: $DARD_CONFIG, else /etc/dard/dard.conf\n"
		"  -c, --capacity MBIT link capacity of generated topologies (default 1000)\n"
		"  --base PREFIX       alias space (default 10.0.0.0/8)\n"
		"  --mode MODE         alias layout: paper (6 bits per level, ports from 1, as\n"
		"                      in the DARD paper), compact (fewest bits), or auto\n"
		"                      (paper where it fits; the default)\n"
		"  --ids PREFIX        host IDs (default 172.16.0.0/16)\n"
		"  --linknet PREFIX    /31 link addresses (default 172.20.0.0/14)\n"
		"  --mgmtnet PREFIX    management network (default 172.24.0.0/16)\n"
		"  --pin DIR           where datapaths pin their maps (default\n"
		"                      $DARD_PIN_ROOT, else " DARD_PIN_ROOT
		")\n"
		"  --datapath KIND     the host datapath dp and flow use: bpf (TC programs),\n"
		"                      kmod (the dard.ko device) or auto (default\n"
		"                      $DARD_DATAPATH, else auto: the one already on the\n"
		"                      interface, else kmod when dard.ko is loaded, else bpf)\n"
		"  -k, --key FILE      the switch protocol's key file (default $DARD_KEY,\n"
		"                      else /etc/dard/dard.key)\n"
		"  -v, --verbose       libbpf's debug messages too (its warnings always)\n"
		"  -j, --json          print JSON: an array of objects\n"
		"  -p, --pretty        indent JSON\n"
		"  -V, --version       print the version\n"
		"  -h, --help          print this help\n"
		"\n"
		"Run `dardctl OBJECT help' for the commands of an object.\n"
		"Exit status: 0 success, 1 error, 2 bad usage.\n");
}

static int prefix_opt(struct ctl *c, const char *name, const char *arg,
		      struct dard_prefix *p, unsigned bit)
{
	if (dard_prefix_parse(arg, p)) {
		fprintf(stderr,
			"Invalid %s `%s': expected A.B.C.D/LEN with no host bits set\n",
			name, arg);
		return -1;
	}
	c->opts_mask |= bit;
	return 0;
}

static int dp_kind(struct ctl *c, const char *what, const char *arg)
{
	int kind = dard_dp_kind_parse(arg);

	if (kind < 0) {
		fprintf(stderr, "Invalid %s `%s': expected auto, bpf or kmod\n",
			what, arg);
		return -1;
	}
	c->dp_kind = kind;
	return 0;
}

/* OPTIONS into c: DARD_OPTS_RUN, else the exit status (-h, -V, bad usage). */
static int parse_opts(struct ctl *c, int argc, char **argv)
{
	static const struct option longopts[] = {
		{"json", no_argument, NULL, 'j'},
		{"pretty", no_argument, NULL, 'p'},
		{"topo", required_argument, NULL, 't'},
		{"capacity", required_argument, NULL, 'c'},
		{"base", required_argument, NULL, 'B'},
		{"mode", required_argument, NULL, 'M'},
		{"ids", required_argument, NULL, 'I'},
		{"linknet", required_argument, NULL, 'L'},
		{"mgmtnet", required_argument, NULL, 'G'},
		{"pin", required_argument, NULL, 'P'},
		{"key", required_argument, NULL, 'k'},
		{"datapath", required_argument, NULL, 'D'},
		DARD_OPTS_VERBOSE,
		DARD_OPTS_INFO,
		{0}};
	/* -v: libbpf's debug messages; dardctl has no log of its own. */
	int opt, ret, level = DARD_LOG_INFO;

	/* The environment first: --datapath overrides it. */
	if (getenv("DARD_DATAPATH") &&
	    dp_kind(c, "DARD_DATAPATH", getenv("DARD_DATAPATH")))
		return CTL_USAGE;

	while ((opt = getopt_long(argc, argv, "+jpt:c:k:vVh", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'j':
			c->json = 1;
			break;
		case 'p':
			c->pretty = 1;
			break;
		case 't':
			c->topo_arg = optarg;
			break;
		case 'k':
			c->key_arg = optarg;
			break;
		case 'c':
			/* Mbit/s; UINT32_MAX is no capacity but a sentinel. */
			if (ctl_parse_u32("capacity", optarg, 1, UINT32_MAX - 1,
					  &c->mbps))
				return CTL_USAGE;
			break;
		case 'B':
			if (prefix_opt(c, "base", optarg, &c->opts.base,
				       DARD_OPT_BASE))
				return CTL_USAGE;
			break;
		case 'I':
			if (prefix_opt(c, "ID prefix", optarg, &c->opts.ids,
				       DARD_OPT_IDS))
				return CTL_USAGE;
			break;
		case 'L':
			if (prefix_opt(c, "link prefix", optarg, &c->opts.links,
				       DARD_OPT_LINKS))
				return CTL_USAGE;
			break;
		case 'G':
			if (prefix_opt(c, "management prefix", optarg,
				       &c->opts.mgmt, DARD_OPT_MGMT))
				return CTL_USAGE;
			break;
		case 'M':
			ret = dard_mode_parse(optarg);
			if (ret < 0) {
				fprintf(stderr,
					"Invalid mode `%s': expected auto, paper or compact\n",
					optarg);
				return CTL_USAGE;
			}
			c->opts.mode = ret;
			c->opts_mask |= DARD_OPT_MODE;
			break;
		case 'P':
			c->pin_root = optarg;
			break;
		case 'D':
			if (dp_kind(c, "datapath", optarg))
				return CTL_USAGE;
			break;
		default:
			ret = dard_common_opt(opt, "dardctl", &level, usage);
			if (ret != DARD_OPTS_RUN)
				return ret;
		}
	}
	c->verbose = level == DARD_LOG_DEBUG;
	return DARD_OPTS_RUN;
}

/* OBJECT ARGS...: the object's function from cmds[]. */
static int run(struct ctl *c, int argc, char **argv)
{
	unsigned i;
	int ret;

	if (argc < 1) {
		usage(stderr);
		return CTL_USAGE;
	}
	if (!strcmp(argv[0], "help")) {
		usage(stdout);
		return CTL_OK;
	}
	for (i = 0; i < NCMDS; i++) {
		if (strcmp(argv[0], cmds[i].name))
			continue;
		new_json_obj(c->json, c->pretty);
		ret = cmds[i].func(c, argc - 1, argv + 1);
		if (ret == CTL_OK)
			delete_json_obj();
		dard_config_free(&c->cfg);
		return ret;
	}
	fprintf(stderr, "Object \"%s\" is unknown, try \"dardctl help\".\n",
		argv[0]);
	return CTL_USAGE;
}

int main(int argc, char **argv)
{
	struct ctl c = {.mbps = 1000};
	int ret;

	dard_plan_opts_init(&c.opts);
	ret = parse_opts(&c, argc, argv);
	if (ret != DARD_OPTS_RUN)
		return ret;
	dard_bpf_log(c.verbose);
	if (!c.pin_root)
		c.pin_root = getenv("DARD_PIN_ROOT");
	return run(&c, argc - optind, argv + optind);
}
