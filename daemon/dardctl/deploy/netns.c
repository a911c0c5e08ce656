// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardctl deploy netns: the batch files scripts/testbed feeds to ip,
 * sysctl and tc, so bringing up a fat-tree of namespaces costs a few
 * process starts per node, not one per route.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "addr6.h"
#include "render.h"
#include "netns.h"
#include "out.h"
#include "rng.h"

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
			     const struct dard_plan *p, uint32_t i, int routing)
{
	char b[24];

	if (t->node[i].is_host && !dard_family_has4(p->opts.family))
		render_host_4in6(f, t, p, i, "");
	else if (t->node[i].is_host && routing == DEPLOY_DARD)
		render_host(f, t, p, i, "");
	else if (t->node[i].is_host)
		render_host_ecmp(f, t, p, i, "");
	else if (routing == DEPLOY_ECMP)
		render_switch_ecmp(f, t, p, i, "");
	else if (routing == DEPLOY_BGP)
		render_switch_bgp(f, t, p, i, "");
	else
		render_switch(f, t, p, i, "");
	fprintf(f, "addr add %s/%u dev mgmt0\nlink set dev mgmt0 up\n",
		dard_addr_str(t->node[i].mgmt, b), p->opts.mgmt.len);
}

static void write_node_sysctl(FILE *f, const struct dard_topo *t,
			      const struct dard_plan *p, uint32_t i,
			      int routing)
{
	render_sysctl(f, t, p, i);
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
	if (routing != DEPLOY_DARD && !t->node[i].is_host)
		fprintf(f,
			"net.ipv4.fib_multipath_hash_policy = 3\n"
			"net.ipv4.fib_multipath_hash_fields = 0x0037\n"
			"net.ipv4.fib_multipath_hash_seed = %u\n",
			(uint32_t)dard_mix64(i + 1) | 1);
}

/* A BGP switch's FRR configuration and what it converges to. */
static int write_node_bgp(const struct dard_topo *t, const struct dard_plan *p,
			  const char *dir, const char *nodedir, uint32_t i)
{
	char name[DARD_NAME_MAX + 8], log[PATH_MAX + DARD_NAME_MAX + 16];
	char abs[PATH_MAX];
	long expect = render_bgp_expect(t, i);
	struct out o;
	int d;

	if (expect < 0) {
		fprintf(stderr, "deploy netns: out of memory\n");
		return CTL_ERR;
	}
	/* FRR's daemons run elsewhere: the log's path must be whole. */
	if (!realpath(dir, abs)) {
		fprintf(stderr, "%s: %s\n", dir, strerror(errno));
		return CTL_ERR;
	}
	snprintf(log, sizeof(log), "%s/frr/%s/frr.log", abs, t->node[i].name);
	for (d = 0; d < RENDER_FRR_N; d++) {
		snprintf(name, sizeof(name), "%s.%s.conf", t->node[i].name,
			 render_frr_daemons[d]);
		if (out_open(&o, nodedir, name, 0))
			return CTL_ERR;
		render_frr(o.f, t, p, i, d, log);
		if (out_close(&o))
			return CTL_ERR;
	}
	snprintf(name, sizeof(name), "%s.expect", t->node[i].name);
	if (out_open(&o, nodedir, name, 0))
		return CTL_ERR;
	fprintf(o.f, "%ld\n", expect);
	return out_close(&o) ? CTL_ERR : CTL_OK;
}

int deploy_netns(struct ctl *c, const char *dir, const char *prefix,
		 uint32_t rate, int routing)
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
		write_node_batch(o.f, t, p, i, routing);
		/* IPv6's commands for `ip -6 -batch', which takes no -6. */
		if (dard_family_has6(p->opts.family)) {
			snprintf(name, sizeof(name), "%s.batch6",
				 t->node[i].name);
			if (out_close(&o) || out_open(&o, nodedir, name, 0))
				return CTL_ERR;
			if (t->node[i].is_host)
				render_host6(o.f, t, p, i, "");
			else
				render_switch6(o.f, t, p, i, "");
		}
		snprintf(name, sizeof(name), "%s.sysctl", t->node[i].name);
		if (out_close(&o) || out_open(&o, nodedir, name, 0))
			return CTL_ERR;
		write_node_sysctl(o.f, t, p, i, routing);
		if (out_close(&o))
			return CTL_ERR;
		if (routing == DEPLOY_BGP && !t->node[i].is_host &&
		    write_node_bgp(t, p, dir, nodedir, i))
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
