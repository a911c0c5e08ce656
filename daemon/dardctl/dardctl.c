// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardctl: inspect and generate dard topologies, addresses, paths and
 * switch tables. Grammar as in iproute2: dardctl [OPTIONS] OBJECT COMMAND,
 * with the options only some objects take among COMMAND's words.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpflog.h"
#include "cfgfile.h"
#include "ctl.h"
#include "dp.h"
#include "log.h"
#include "objects.h"
#include "nsenter.h"
#include "objopts.h"
#include "print.h"
#include "stdopts.h"
#include <linux/dard.h>

/*
 * The objects: dispatch walks this table, usage prints it, and opts says
 * which object options (objopts.h) each takes after its name.
 */
static const struct cmd {
	const char *name;
	int (*func)(struct ctl *c, int argc, char **argv);
	unsigned opts;
	const char *description;
} cmds[] = {
	{"topo", do_topo, CTL_OPTS_TOPO,
	 "show or generate the topology and host configuration file"},
	{"addr", do_addr, CTL_OPTS_TOPO,
	 "show a host's ID, management address and aliases"},
	{"path", do_path, CTL_OPTS_TOPO,
	 "list the paths between two hosts, or decode an alias pair"},
	{"key", do_key, CTL_OPTS_KEY,
	 "make or rotate the switch protocol's key file"},
	{"switch", do_switch, CTL_OPTS_TOPO | CTL_OPTS_KEY,
	 "show a switch's tables, or query its dard-switchd"},
	{"deploy", do_deploy, CTL_OPTS_TOPO | CTL_OPTS_KEY,
	 "write the commands that build a testbed"},
	{"dp", do_dp, CTL_OPTS_TOPO | CTL_OPTS_DP,
	 "attach the host datapath to an interface, or detach it"},
	{"flow", do_flow, CTL_OPTS_TOPO | CTL_OPTS_DP,
	 "show the datapath's flows, or move one to another path"},
	{"monitor", do_monitor, 0,
	 "show the monitors of this namespace's dardd"},
	{"stats", do_stats, 0, "show the counters of this namespace's dardd"},
	{"sched", do_sched, 0,
	 "show or set what moves this namespace's dardd's elephants"},
	{"controller", do_controller, 0, "show the state of dard-controller"},
	{"traffic", do_traffic, CTL_OPTS_TOPO,
	 "generate the paper's traffic patterns"},
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

/* `  WHAT: the objects taking set', from the table. */
static void usage_takers(FILE *f, const char *what, unsigned set)
{
	unsigned i;

	fprintf(f, "  %-10s", what);
	for (i = 0; i < NCMDS; i++)
		if (cmds[i].opts & set)
			fprintf(f, " %s", cmds[i].name);
	fputc('\n', f);
}

static void usage(FILE *f)
{
	unsigned i;

	fprintf(f, "Usage: dardctl [ OPTIONS ] OBJECT { COMMAND | help }\n");
	usage_objects(f);
	fprintf(f,
		"       OPTIONS := { -j[son] | -p[retty] | -n[etns] NAME | -v[erbose] |\n"
		"                    -V[ersion] | -h[elp] }\n");
	ctl_opts_usage(f, "       ", CTL_OPTS_TOPO | CTL_OPTS_DP);
	fprintf(f,
		"       TOPO := { fattree:P[,T] | clos:DI,DA[,HOSTS] | 3tier[:PODS] | FILE }\n"
		"       MODE := { auto | paper | compact }\n"
		"       FAMILY := { ipv4 | ipv6 | dual }\n"
		"       OUTER := { auto | ipv4 | ipv6 }\n"
		"       KIND := { auto | bpf | kmod }\n"
		"\n"
		"Objects:\n");
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "  %-7s %s\n", cmds[i].name, cmds[i].description);
	fprintf(f,
		"\n"
		"Options:\n"
		"  -n, --netns NAME    run in network namespace NAME (" CTL_NETNS_DIR
		"/NAME), as\n"
		"                      ip -n does; setns(2) alone (nsenter --net): files,\n"
		"                      /sys and bpffs stay the caller's\n"
		"  -v, --verbose       libbpf's debug messages too (its warnings always)\n"
		"  -j, --json          print JSON: an array of objects\n"
		"  -p, --pretty        indent JSON\n"
		"  -V, --version       print the version\n"
		"  -h, --help          print this help\n"
		"\n"
		"Object options, after OBJECT among COMMAND's words (topo show -t fattree:4):\n");
	ctl_opts_help(f);
	fprintf(f, "\n"
		   "The objects that take them (others refuse them):\n");
	usage_takers(f, "TOPO_OPTS:", CTL_OPTS_TOPO);
	usage_takers(f, "DP_OPTS:", CTL_OPTS_DP);
	usage_takers(f, "-k:", CTL_OPTS_KEY);
	fprintf(f,
		"Before OBJECT, where earlier versions took them, every object takes\n"
		"them still; after OBJECT they count over those.\n"
		"\n"
		"Run `dardctl OBJECT help' for the commands of an object.\n"
		"Exit status: 0 success, 1 error, 2 bad usage.\n");
}

/* The global options; the object options join them (objopts.h). */
static const struct option global_opts[] = {
	{"json", no_argument, NULL, 'j'},
	{"pretty", no_argument, NULL, 'p'},
	{"netns", required_argument, NULL, 'n'},
	DARD_OPTS_VERBOSE,
	DARD_OPTS_INFO,
};

#define NGLOBAL (sizeof(global_opts) / sizeof(global_opts[0]))

/* OPTIONS into c: DARD_OPTS_RUN, else the exit status (-h, -V, bad usage). */
static int parse_opts(struct ctl *c, int argc, char **argv)
{
	struct option longopts[NGLOBAL + CTL_OBJ_OPTS_MAX + 1] = {};
	char shortopts[64] = "+jpn:vVh";
	/* -v: libbpf's debug messages; dardctl has no log of its own. */
	int opt, ret, level = DARD_LOG_INFO;

	/* Where earlier versions took the object options: every object. */
	memcpy(longopts, global_opts, sizeof(global_opts));
	ctl_opts_getopt(longopts, NGLOBAL, shortopts, sizeof(shortopts));
	/* The environment first: the options override it. */
	ret = ctl_opts_env(c);
	if (ret != CTL_OK)
		return ret;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 'j':
			c->json = 1;
			break;
		case 'p':
			c->pretty = 1;
			break;
		case 'n':
			c->netns = optarg;
			break;
		default:
			ret = ctl_opts_apply(c, opt, optarg);
			if (ret < 0)
				return CTL_USAGE;
			if (!ret)
				break;
			ret = dard_common_opt(opt, "dardctl", &level, usage);
			if (ret != DARD_OPTS_RUN)
				return ret;
		}
	}
	c->verbose = level == DARD_LOG_DEBUG;
	return DARD_OPTS_RUN;
}

/* OBJECT ARGS...: its options taken, the object's function from cmds[]. */
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
		argc--;
		ret = ctl_opts_take(c, cmds[i].name, cmds[i].opts, &argc,
				    argv + 1);
		if (ret != CTL_OK)
			return ret;
		new_json_obj(c->json, c->pretty);
		ret = cmds[i].func(c, argc, argv + 1);
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
	/* Before any socket, netlink request or datapath is opened. */
	if (c.netns) {
		ret = ctl_netns_enter(c.netns);
		if (ret != CTL_OK)
			return ret;
	}
	dard_bpf_log(c.verbose);
	return run(&c, argc - optind, argv + optind);
}
