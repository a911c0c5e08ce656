// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardctl deploy: write what builds a deployment. This file reads the
 * arguments of each back-end; netns.c and deterlab.c write the files.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>

#include "ctl.h"
#include "addr6.h"
#include "args.h"
#include "load.h"
#include "objects.h"
#include "objopts.h"
#include "keyfile.h"
#include "print.h"
#include "cluster.h"
#include "deterlab.h"
#include "netns.h"

static int usage(FILE *f)
{
	fprintf(f,
		"Usage: dardctl deploy netns DIR [ prefix NAME ] [ rate MBIT ]\n"
		"                        [ routing { dard | ecmp | bgp } ] [ TOPO_OPTS ] [ -k FILE ]\n"
		"       dardctl deploy deterlab DIR [ rate MBIT ] [ os IMAGE ]\n"
		"                        [ setup-dir PATH ] [ TOPO_OPTS ] [ -k FILE ]\n"
		"       dardctl deploy cluster DIR [ rate MBIT ] [ TOPO_OPTS ] [ -k FILE ]\n");
	ctl_opts_usage(f, "Where: ", CTL_OPTS_TOPO);
	fprintf(f,
		"\n"
		"netns:\n"
		"Writes into DIR, for a testbed of network namespaces named NAME-NODE\n"
		"(NAME: letters, digits and _; default dard) and a management\n"
		"namespace NAME.mgmt:\n"
		"  nodes          NODE KIND NAMESPACE per line\n"
		"  setup.batch    ip -batch: the namespaces, a veth per link and one\n"
		"                 per node to the management bridge\n"
		"  mgmt.batch     ip -batch for NAME.mgmt: the bridge\n"
		"  node/NODE.batch   ip -batch for the node: addresses, routes, rules\n"
		"  node/NODE.sysctl  sysctl -p file for the node\n"
		"  node/NODE.tc      tc -batch file limiting every port to MBIT Mbit/s\n"
		"                    (only with rate)\n"
		"  teardown.batch ip -batch deleting every namespace\n"
		"  dard.key       the switch protocol's key, mode 0600: a copy of -k's\n"
		"                 or $DARD_KEY's file, else a fresh one\n"
		"  routing ecmp builds what operators run without dard instead:\n"
		"  switches route host IDs with Linux multipath next hops hashed on\n"
		"  the 5-tuple (fib_multipath_hash_policy=3, fields 0x0037), each\n"
		"  with its own hash seed, hosts send unwrapped\n"
		"  routing bgp builds the fabric operators run today (RFC 7938):\n"
		"  switches learn the host IDs by eBGP on every link, one private\n"
		"  AS per switch (the roots share one), ECMP over equal AS paths,\n"
		"  BFD on every session (300 ms, 3 missed), hashed as with ecmp;\n"
		"  hosts send unwrapped. It adds, per switch:\n"
		"  node/NODE.D.conf  FRR's configuration for daemon D (zebra,\n"
		"                    bfdd, bgpd; log DIR/frr/NODE/frr.log)\n"
		"  node/NODE.expect  the (prefix, next hop) pairs BGP installs in the\n"
		"                    switch once converged\n"
		"\n"
		"deterlab: for a testbed of Linux PCs (DeterLab, Emulab), writes\n"
		"  dard.ns          the NS file: a PC per node (os IMAGE, default\n"
		"                   Ubuntu2204-STD), a link per topology link with its\n"
		"                   /31 addresses at MBIT Mbit/s (default: the links'\n"
		"                   capacity), a management LAN, and each PC's start\n"
		"                   command, setup-dir/NODE.sh (default DIR/setup)\n"
		"  setup/dard.conf  the host configuration file every node reads\n"
		"  setup/dard.key   the switch protocol's key, mode 0600, as for netns;\n"
		"                   each node installs it as /etc/dard/dard.key\n"
		"  setup/NODE.sh    renames the interfaces found by their addresses\n"
		"                   to pN, dard0 and mgmt0, applies the node's tables,\n"
		"                   addresses and limits as the namespace testbed\n"
		"                   does, and starts dard-switchd or dardd\n"
		"                   (Documentation/experiments.md)\n"
		"\n"
		"cluster: for machines reached over ssh (scripts/cluster), writes\n"
		"  nodes            NODE ROLE MANAGEMENT-ADDRESS per line\n"
		"  NODE/            one directory per node, shipped as it is:\n"
		"    setup.sh       deterlab's set-up script (ports limited to MBIT\n"
		"                   Mbit/s with rate), reading etc/dard next to it\n"
		"    etc/dard/dard.conf  the host configuration file\n"
		"    etc/dard/dard.key   the switch protocol's key, mode 0600, the\n"
		"                   same on every node, as for netns\n"
		"    etc/dard/dard.env   DARD_NODE=, DARD_ROLE=host|switch and\n"
		"                   DARD_ARGS= (the daemon's other options), which\n"
		"                   setup.sh reads\n"
		"    etc/dard/dardd@NODE.env  on hosts: DARDD_OPTS=\"-i dard0\", for\n"
		"                   systemd's dardd@NODE.service\n"
		"    etc/dard/dard-switchd@NODE.env  on switches: DARD_SWITCHD_OPTS=,\n"
		"                   for dard-switchd@NODE.service\n");
	return f == stdout ? CTL_OK : CTL_USAGE;
}

/* What deploy was asked, checked before any file is written. */
struct deploy_args {
	const char *dir;
	const char *prefix;    /* netns: namespaces PREFIX-NODE */
	int routing;	       /* netns: enum deploy_routing */
	uint32_t rate;	       /* Mbit/s; 0: unlimited or the links' */
	const char *os;	       /* deterlab: the PCs' image */
	const char *setup_dir; /* deterlab: where the PCs find setup/ */
};

/* [ prefix NAME ] [ rate MBIT ] [ routing { dard | ecmp | bgp } ] */
static int netns_parse(int argc, char **argv, struct deploy_args *a)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "prefix") && i + 1 < argc) {
			a->prefix = argv[++i];
			/* No '-': NAME-NODE must tell testbeds apart. */
			if (!dard_name_valid(a->prefix, 33) ||
			    strchr(a->prefix, '-')) {
				fprintf(stderr,
					"Invalid prefix `%s': letters, digits and _, at most 32\n",
					a->prefix);
				return CTL_USAGE;
			}
		} else if (!strcmp(argv[i], "rate") && i + 1 < argc) {
			/* 0: unlimited. */
			if (ctl_parse_u32("rate", argv[++i], 0, 1000000,
					  &a->rate))
				return CTL_USAGE;
		} else if (!strcmp(argv[i], "routing") && i + 1 < argc) {
			i++;
			if (!strcmp(argv[i], "dard")) {
				a->routing = DEPLOY_DARD;
			} else if (!strcmp(argv[i], "ecmp")) {
				a->routing = DEPLOY_ECMP;
			} else if (!strcmp(argv[i], "bgp")) {
				a->routing = DEPLOY_BGP;
			} else {
				fprintf(stderr,
					"Invalid routing `%s': expected dard, ecmp or bgp\n",
					argv[i]);
				return CTL_USAGE;
			}
		} else {
			fprintf(stderr, "deploy netns: unexpected `%s'\n",
				argv[i]);
			return usage(stderr);
		}
	}
	return CTL_OK;
}

/*
 * The deployment's key: a copy of -k's or $DARD_KEY's file when one is
 * named (checked as the daemons check it), else a fresh one. Every node
 * of the deployment gets this one.
 */
static int key_get(struct ctl *c, struct dard_keys *keys)
{
	const char *from = c->key_arg ? c->key_arg : getenv("DARD_KEY");
	char err[DARD_ERR_MAX + PATH_MAX];
	int ret;

	memset(keys, 0, sizeof(*keys));
	keys->n = 1;
	ret = dard_crypto_init(err);
	if (!ret && from && *from)
		ret = dard_keys_load(keys, from, err);
	else if (!ret)
		dard_key_new(&keys->key[0]);
	if (ret) {
		fprintf(stderr, "%s\n", err);
		return CTL_ERR;
	}
	return CTL_OK;
}

/* The deployment's key as DIR/dard.key, mode 0600. */
static int write_key(struct ctl *c, const char *dir)
{
	char err[DARD_ERR_MAX + PATH_MAX], path[PATH_MAX];
	struct dard_keys keys;
	int ret;

	if (snprintf(path, sizeof(path), "%s/dard.key", dir) >=
	    (int)sizeof(path)) {
		fprintf(stderr, "%s: name too long\n", dir);
		return CTL_ERR;
	}
	if (key_get(c, &keys))
		return CTL_ERR;
	ret = dard_keys_save(&keys, path, 1, err);
	sodium_memzero(&keys, sizeof(keys));
	if (ret) {
		fprintf(stderr, "%s\n", err);
		return CTL_ERR;
	}
	return CTL_OK;
}

static int netns_write(struct ctl *c, const struct deploy_args *a)
{
	int ret = deploy_netns(c, a->dir, a->prefix, a->rate, a->routing);

	return ret == CTL_OK ? write_key(c, a->dir) : ret;
}

/* [ rate MBIT ] [ os IMAGE ] [ setup-dir PATH ] */
static int deterlab_parse(int argc, char **argv, struct deploy_args *a)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "rate") && i + 1 < argc) {
			/* 0: the links' capacity. */
			if (ctl_parse_u32("rate", argv[++i], 0, 1000000,
					  &a->rate))
				return CTL_USAGE;
		} else if (!strcmp(argv[i], "os") && i + 1 < argc) {
			a->os = argv[++i];
			if (!dard_name_valid(a->os, 64)) {
				fprintf(stderr,
					"Invalid os `%s': letters, digits, _ and -\n",
					a->os);
				return CTL_USAGE;
			}
		} else if (!strcmp(argv[i], "setup-dir") && i + 1 < argc) {
			a->setup_dir = argv[++i];
			if (a->setup_dir[0] != '/' ||
			    strpbrk(a->setup_dir, " \t\"$[];\\")) {
				fprintf(stderr,
					"Invalid setup-dir `%s': an absolute path without spaces or Tcl specials\n",
					a->setup_dir);
				return CTL_USAGE;
			}
		} else {
			fprintf(stderr, "deploy deterlab: unexpected `%s'\n",
				argv[i]);
			return usage(stderr);
		}
	}
	return CTL_OK;
}

static int deterlab_write(struct ctl *c, const struct deploy_args *a)
{
	char sub[PATH_MAX];
	int ret = deploy_deterlab(c, a->dir, a->rate, a->os, a->setup_dir);

	snprintf(sub, sizeof(sub), "%s/setup", a->dir);
	return ret == CTL_OK ? write_key(c, sub) : ret;
}

/* [ rate MBIT ] */
static int cluster_parse(int argc, char **argv, struct deploy_args *a)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "rate") && i + 1 < argc) {
			/* 0: unlimited. */
			if (ctl_parse_u32("rate", argv[++i], 0, 1000000,
					  &a->rate))
				return CTL_USAGE;
		} else {
			fprintf(stderr, "deploy cluster: unexpected `%s'\n",
				argv[i]);
			return usage(stderr);
		}
	}
	return CTL_OK;
}

static int cluster_write(struct ctl *c, const struct deploy_args *a)
{
	struct dard_keys keys;
	int ret;

	if (key_get(c, &keys))
		return CTL_ERR;
	ret = deploy_cluster(c, a->dir, a->rate, &keys);
	sodium_memzero(&keys, sizeof(keys));
	return ret;
}

/* The back-ends: each reads what follows DIR, then writes into DIR. */
static const struct deploy_cmd {
	const char *name;
	int (*parse)(int argc, char **argv, struct deploy_args *a);
	int (*write)(struct ctl *c, const struct deploy_args *a);
} deploy_cmds[] = {
	{"netns", netns_parse, netns_write},
	{"deterlab", deterlab_parse, deterlab_write},
	{"cluster", cluster_parse, cluster_write},
};

int do_deploy(struct ctl *c, int argc, char **argv)
{
	struct deploy_args a = {.prefix = "dard", .os = "Ubuntu2204-STD"};
	const struct deploy_cmd *cmd = NULL;
	unsigned i;
	int ret;

	if (argc < 1)
		return usage(stderr);
	if (ctl_wants_help(argc, argv))
		return usage(stdout);
	for (i = 0; i < sizeof(deploy_cmds) / sizeof(deploy_cmds[0]); i++)
		if (!strcmp(argv[0], deploy_cmds[i].name))
			cmd = &deploy_cmds[i];
	if (!cmd)
		return ctl_unknown("deploy", argv[0]);
	if (argc < 2) {
		fprintf(stderr, "deploy %s: which directory?\n", argv[0]);
		return usage(stderr);
	}
	a.dir = argv[1];
	ret = cmd->parse(argc - 2, argv + 2, &a);
	if (ret != CTL_OK)
		return ret;
	if (is_json_context()) {
		fprintf(stderr, "deploy writes files; -j does not apply\n");
		return CTL_USAGE;
	}
	if (ctl_load(c))
		return CTL_ERR;
	/*
	 * IPv6 reaches the namespace testbed's static tables first; the
	 * others would deploy half a fabric.
	 */
	if (c->cfg.plan->opts.family != DARD_FAMILY_IPV4 &&
	    (strcmp(cmd->name, "netns") || a.routing != DEPLOY_DARD)) {
		fprintf(stderr,
			"deploy %s: family %s: only `deploy netns' with routing dard deploys IPv6 yet\n",
			cmd->name, dard_family_name(c->cfg.plan->opts.family));
		return CTL_ERR;
	}
	return cmd->write(c, &a);
}
