// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardctl deploy: write what builds a deployment. `deploy netns' writes the
 * batch files scripts/testbed feeds to ip, sysctl and tc, so bringing up a
 * fat-tree of namespaces costs a few process starts per node, not one per
 * route.
 */
#include <stdio.h>
#include <string.h>

#include "../dardctl.h"
#include "../render.h"
#include "deterlab.h"
#include "out.h"
#include "../print.h"
#include "rng.h"

static int usage(FILE *f)
{
	fprintf(f,
		"Usage: dardctl [ -t TOPO ] deploy netns DIR [ prefix NAME ] [ rate MBIT ]\n"
		"                                       [ routing { dard | ecmp } ]\n"
		"       dardctl [ -t TOPO ] deploy deterlab DIR [ rate MBIT ] [ os IMAGE ]\n"
		"                                          [ setup-dir PATH ]\n"
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
		"  routing ecmp builds what operators run without dard instead:\n"
		"  switches route host IDs with Linux multipath next hops hashed on\n"
		"  the 5-tuple (fib_multipath_hash_policy=3, fields 0x0037), each\n"
		"  with its own hash seed, hosts send unwrapped\n"
		"\n"
		"deterlab: for a testbed of Linux PCs (DeterLab, Emulab), writes\n"
		"  dard.ns          the NS file: a PC per node (os IMAGE, default\n"
		"                   Ubuntu2204-STD), a link per topology link with its\n"
		"                   /31 addresses at MBIT Mbit/s (default: the links'\n"
		"                   capacity), a management LAN, and each PC's start\n"
		"                   command, setup-dir/NODE.sh (default DIR/setup)\n"
		"  setup/dard.conf  the host configuration file every node reads\n"
		"  setup/NODE.sh    renames the interfaces found by their addresses\n"
		"                   to pN, dard0 and mgmt0, applies the node's tables,\n"
		"                   addresses and limits as the namespace testbed\n"
		"                   does, and starts dard-switchd or dardd\n"
		"                   (Documentation/experiments.md)\n");
	return f == stdout ? CTL_OK : CTL_USAGE;
}

/* nodes: NODE KIND NAMESPACE per line. */
static void write_nodes(FILE *f, const struct dard_topo *t, const char *prefix)
{
	uint32_t i;

	for (i = 0; i < t->nnodes; i++)
		fprintf(f, "%s %s %s-%s\n", t->node[i].name,
			t->node[i].is_host ? "host" : "switch", prefix,
			t->node[i].name);
}

static void write_teardown(FILE *f, const struct dard_topo *t,
			   const char *prefix)
{
	uint32_t i;

	for (i = 0; i < t->nnodes; i++)
		fprintf(f, "netns del %s-%s\n", prefix, t->node[i].name);
	fprintf(f, "netns del %s.mgmt\n", prefix);
}

/* The namespaces, a veth per link and one per node to the bridge. */
static void write_setup(FILE *f, const struct dard_topo *t, const char *prefix)
{
	char e1[16], e2[16];
	uint32_t i;

	fprintf(f, "netns add %s.mgmt\n", prefix);
	for (i = 0; i < t->nnodes; i++)
		fprintf(f, "netns add %s-%s\n", prefix, t->node[i].name);
	for (i = 0; i < t->nlinks; i++) {
		const struct dard_link *l = &t->link[i];

		fprintf(f,
			"link add %s netns %s-%s type veth peer name %s netns %s-%s\n",
			render_ifname(t, l->up, l->up_port, e1), prefix,
			t->node[l->up].name,
			render_ifname(t, l->down, l->down_port, e2), prefix,
			t->node[l->down].name);
	}
	for (i = 0; i < t->nnodes; i++)
		fprintf(f,
			"link add mgmt0 netns %s-%s type veth peer name m%u netns %s.mgmt\n",
			prefix, t->node[i].name, i, prefix);
}

static void write_mgmt(FILE *f, const struct dard_topo *t)
{
	uint32_t i;

	fprintf(f, "link add br0 type bridge\nlink set dev br0 up\n");
	for (i = 0; i < t->nnodes; i++)
		fprintf(f, "link set dev m%u master br0 up\n", i);
}

static void write_node_batch(FILE *f, const struct dard_topo *t,
			     const struct dard_plan *p, uint32_t i, int ecmp)
{
	char b[24];

	if (t->node[i].is_host)
		(ecmp ? render_host_ecmp : render_host)(f, t, p, i, "");
	else
		(ecmp ? render_switch_ecmp : render_switch)(f, t, p, i, "");
	fprintf(f, "addr add %s/%u dev mgmt0\nlink set dev mgmt0 up\n",
		dard_addr_str(t->node[i].mgmt, b), p->opts.mgmt.len);
}

static void write_node_sysctl(FILE *f, const struct dard_topo *t, uint32_t i,
			      int ecmp)
{
	render_sysctl(f, t, i);
	fprintf(f, "net.ipv4.conf.mgmt0.rp_filter = 0\n");
	/*
	 * Multipath next hops hashed on the 5-tuple, as in a DC, by
	 * each switch with a seed of its own, as real switches are.
	 * Not policy 1: for a forwarded packet that already carries
	 * an L4 hash (the sender's socket sets one, and veth keeps
	 * it) policy 1 uses that hash as it is, so every switch on
	 * the way would make the same choice, and a fat-tree's ToR
	 * and aggregation switch together would use half its cores.
	 * Policy 3 hashes the listed fields (0x37: addresses,
	 * protocol, ports) with the switch's seed.
	 */
	if (ecmp && !t->node[i].is_host)
		fprintf(f,
			"net.ipv4.fib_multipath_hash_policy = 3\n"
			"net.ipv4.fib_multipath_hash_fields = 0x0037\n"
			"net.ipv4.fib_multipath_hash_seed = %u\n",
			(uint32_t)dard_mix64(i + 1) | 1);
}

static int deploy_netns(struct ctl *c, const char *dir, const char *prefix,
			uint32_t rate, int ecmp)
{
	const struct dard_topo *t = c->cfg.topo;
	const struct dard_plan *p = c->cfg.plan;
	char nodedir[4096], name[DARD_NAME_MAX + 8];
	struct out o;
	uint32_t i;

	/* Node files apart, so no node name can replace setup.batch. */
	snprintf(nodedir, sizeof(nodedir), "%s/node", dir);
	if (out_mkdir(dir) || out_mkdir(nodedir))
		return CTL_ERR;
	if (out_open(&o, dir, "nodes", 0))
		return CTL_ERR;
	write_nodes(o.f, t, prefix);
	if (out_close(&o) || out_open(&o, dir, "teardown.batch", 0))
		return CTL_ERR;
	write_teardown(o.f, t, prefix);
	if (out_close(&o) || out_open(&o, dir, "setup.batch", 0))
		return CTL_ERR;
	write_setup(o.f, t, prefix);
	if (out_close(&o) || out_open(&o, dir, "mgmt.batch", 0))
		return CTL_ERR;
	write_mgmt(o.f, t);
	if (out_close(&o))
		return CTL_ERR;
	for (i = 0; i < t->nnodes; i++) {
		snprintf(name, sizeof(name), "%s.batch", t->node[i].name);
		if (out_open(&o, nodedir, name, 0))
			return CTL_ERR;
		write_node_batch(o.f, t, p, i, ecmp);
		snprintf(name, sizeof(name), "%s.sysctl", t->node[i].name);
		if (out_close(&o) || out_open(&o, nodedir, name, 0))
			return CTL_ERR;
		write_node_sysctl(o.f, t, i, ecmp);
		if (out_close(&o))
			return CTL_ERR;
		if (!rate)
			continue;
		snprintf(name, sizeof(name), "%s.tc", t->node[i].name);
		if (out_open(&o, nodedir, name, 0))
			return CTL_ERR;
		render_tc(o.f, t, i, rate);
		if (out_close(&o))
			return CTL_ERR;
	}
	return CTL_OK;
}

static int do_deterlab(struct ctl *c, int argc, char **argv)
{
	const char *os = "Ubuntu2204-STD", *setup_dir = NULL;
	uint32_t rate = 0;
	int i;

	if (argc < 2) {
		fprintf(stderr, "deploy deterlab: which directory?\n");
		return usage(stderr);
	}
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "rate") && i + 1 < argc) {
			/* 0: the links' capacity. */
			if (ctl_parse_u32("rate", argv[++i], 0, 1000000, &rate))
				return CTL_USAGE;
		} else if (!strcmp(argv[i], "os") && i + 1 < argc) {
			os = argv[++i];
			if (!dard_name_valid(os, 64)) {
				fprintf(stderr,
					"Invalid os `%s': letters, digits, _ and -\n",
					os);
				return CTL_USAGE;
			}
		} else if (!strcmp(argv[i], "setup-dir") && i + 1 < argc) {
			setup_dir = argv[++i];
			if (setup_dir[0] != '/' ||
			    strpbrk(setup_dir, " \t\"$[];\\")) {
				fprintf(stderr,
					"Invalid setup-dir `%s': an absolute path without spaces or Tcl specials\n",
					setup_dir);
				return CTL_USAGE;
			}
		} else {
			fprintf(stderr, "deploy deterlab: unexpected `%s'\n",
				argv[i]);
			return usage(stderr);
		}
	}
	if (is_json_context()) {
		fprintf(stderr, "deploy writes files; -j does not apply\n");
		return CTL_USAGE;
	}
	if (ctl_load(c))
		return CTL_ERR;
	return deploy_deterlab(c, argv[1], rate, os, setup_dir);
}

int do_deploy(struct ctl *c, int argc, char **argv)
{
	const char *prefix = "dard";
	uint32_t rate = 0;
	int ecmp = 0;
	int i;

	if (argc < 1)
		return usage(stderr);
	if (ctl_wants_help(argc, argv))
		return usage(stdout);
	if (!strcmp(argv[0], "deterlab"))
		return do_deterlab(c, argc, argv);
	if (strcmp(argv[0], "netns"))
		return ctl_unknown("deploy", argv[0]);
	if (argc < 2) {
		fprintf(stderr, "deploy netns: which directory?\n");
		return usage(stderr);
	}
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "prefix") && i + 1 < argc) {
			prefix = argv[++i];
			/* No '-': NAME-NODE must tell testbeds apart. */
			if (!dard_name_valid(prefix, 33) ||
			    strchr(prefix, '-')) {
				fprintf(stderr,
					"Invalid prefix `%s': letters, digits and _, at most 32\n",
					prefix);
				return CTL_USAGE;
			}
		} else if (!strcmp(argv[i], "rate") && i + 1 < argc) {
			/* 0: unlimited. */
			if (ctl_parse_u32("rate", argv[++i], 0, 1000000, &rate))
				return CTL_USAGE;
		} else if (!strcmp(argv[i], "routing") && i + 1 < argc) {
			i++;
			if (strcmp(argv[i], "dard") &&
			    strcmp(argv[i], "ecmp")) {
				fprintf(stderr,
					"Invalid routing `%s': expected dard or ecmp\n",
					argv[i]);
				return CTL_USAGE;
			}
			ecmp = !strcmp(argv[i], "ecmp");
		} else {
			fprintf(stderr, "deploy netns: unexpected `%s'\n",
				argv[i]);
			return usage(stderr);
		}
	}
	if (is_json_context()) {
		fprintf(stderr, "deploy writes files; -j does not apply\n");
		return CTL_USAGE;
	}
	if (ctl_load(c))
		return CTL_ERR;
	return deploy_netns(c, argv[1], prefix, rate, ecmp);
}
