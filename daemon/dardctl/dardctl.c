// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardctl: inspect and generate dard topologies, addresses, paths and
 * switch tables. Grammar as in iproute2: dardctl [OPTIONS] OBJECT COMMAND.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpflog.h"
#include "cfgfile.h"
#include "dardctl.h"
#include "gen.h"
#include "num.h"
#include "dp.h"
#include "log.h"
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
	{"sched", do_sched,
	 "show or set what moves this namespace's dardd's elephants"},
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

int ctl_load(struct ctl *c)
{
	/* Generated trees keep 10.0.0.0/8 unless --base says otherwise. */
	const struct dard_load_opts o = {
		.mbps = c->mbps,
		.over = &c->opts,
		.mask = c->opts_mask,
	};
	char err[DARD_ERR_MAX + PATH_MAX] = "";
	int ret;

	if (c->loaded)
		return 0;
	ret = dard_topo_load(&c->cfg, dard_config_path(c->topo_arg), &o, err,
			     sizeof(err));
	if (ret) {
		fprintf(stderr, "%s%s\n", err,
			ret == -ENOENT && !c->topo_arg
				? " (give --topo fattree:P, clos:DI,DA, 3tier or FILE)"
				: "");
		return -1;
	}
	c->loaded = 1;
	return 0;
}

int ctl_wants_help(int argc, char **argv)
{
	int i;

	if (argc > 0 && !strcmp(argv[0], "help"))
		return 1;
	for (i = 0; i < argc; i++)
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return 1;
	return 0;
}

uint32_t ctl_node(struct ctl *c, const char *name, int want_host)
{
	const struct dard_topo *t = c->cfg.topo;
	uint32_t n = dard_topo_find(t, name);

	if (n == DARD_NONE) {
		fprintf(stderr, "No node `%s' in %s\n", name, t->name);
		return DARD_NONE;
	}
	if (want_host > 0 && !t->node[n].is_host) {
		fprintf(stderr, "`%s' is a switch, not a host\n", name);
		return DARD_NONE;
	}
	if (!want_host && t->node[n].is_host) {
		fprintf(stderr, "`%s' is a host, not a switch\n", name);
		return DARD_NONE;
	}
	return n;
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

/* dardctl says a ctl_parse_* refusal in num.h's one form. */
static int num_fail(const char *what, const char *s, int ret, const char *range)
{
	char err[DARD_ERR_MAX];

	dard_num_fail(err, ret, what, s, range);
	fprintf(stderr, "%s\n", err);
	return -1;
}

int ctl_parse_u64(const char *what, const char *s, uint64_t min, uint64_t max,
		  uint64_t *out)
{
	char range[48];
	int ret = dard_parse_u64(s, min, max, out);

	if (!ret)
		return 0;
	snprintf(range, sizeof(range), "%llu-%llu", (unsigned long long)min,
		 (unsigned long long)max);
	return num_fail(what, s, ret, range);
}

int ctl_parse_u32(const char *what, const char *s, uint32_t min, uint32_t max,
		  uint32_t *out)
{
	uint64_t v;

	if (ctl_parse_u64(what, s, min, max, &v))
		return -1;
	*out = v;
	return 0;
}

int ctl_parse_double(const char *what, const char *s, double min, double max,
		     double *out)
{
	char range[64];
	int ret = dard_parse_double(s, min, max, out);

	if (!ret)
		return 0;
	snprintf(range, sizeof(range), "a decimal from %.15g to %.15g", min,
		 max);
	return num_fail(what, s, ret, range);
}

int ctl_parse_seconds(const char *what, const char *s, double min, double max,
		      uint64_t *ns)
{
	char range[64];
	int ret = dard_parse_seconds(s, min, max, ns);

	if (!ret)
		return 0;
	snprintf(range, sizeof(range), "seconds from %.15g to %.15g", min, max);
	return num_fail(what, s, ret, range);
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

/*
 * Helpers every object file shares; kept apart from option and number
 * parsing above.
 */
int ctl_unknown(const char *obj, const char *cmd)
{
	fprintf(stderr, "Command \"%s\" is unknown, try \"dardctl %s help\".\n",
		cmd, obj);
	return CTL_USAGE;
}

int ctl_format(struct ctl *c, const char *format, const char *text_only)
{
	if (!strcmp(format, "json") && !is_json_context())
		new_json_obj(1, c->pretty);
	if (!strcmp(format, text_only) && is_json_context()) {
		fprintf(stderr, "format %s and -j do not mix\n", text_only);
		return CTL_USAGE;
	}
	return CTL_OK;
}

int ctl_dp_open(struct ctl *c, const char *ifname, struct dard_dp **dp)
{
	int ret;

	c->ops = dard_dp_choose(c->dp_kind, ifname, c->pin_root);
	ret = c->ops->open(dp, ifname, c->pin_root);
	if (ret)
		fprintf(stderr, "No %s datapath on %s: %s\n", c->ops->name,
			ifname, dard_dp_strerror(ret));
	return ret;
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
