// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardctl deploy cluster: what each machine of a cluster needs, one
 * self-contained directory per node that scripts/cluster copies over ssh
 * as it is. The set-up script is deterlab's (interfaces claimed by their
 * addresses), reading its files from the directory's etc/dard, which
 * is laid out as /etc/dard so that a packaged install can take it whole:
 * dard.env tells setup.sh and scripts/cluster which node this is and
 * what it runs, and dardd@NODE.env (dard-switchd@NODE.env) gives the
 * systemd unit's instance its options. The instance's file, not
 * dardd.env: that one is the package's sample (a conffile), read by
 * every instance before it.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ctl.h"
#include "keyfile.h"
#include "cluster.h"
#include "deterlab.h"
#include "out.h"

static const struct setup_layout cluster_layout = {
	.by = "cluster",
	.conf = "$here/etc/dard/dard.conf",
	.conf_doc = "etc/dard/dard.conf next to this script",
	.key = "$here/etc/dard/dard.key",
	.key_doc = "etc/dard/dard.key next to this script",
	.key_install = "",
};

/* The daemon's options besides -c, -k and the node's name. */
static const char *node_args(const struct dard_node *nd)
{
	return nd->is_host ? "-i dard0" : "";
}

/* What DIR/NODE/etc/dard/dard.env says, for setup.sh (DARD_ARGS). */
static void write_env(FILE *f, const struct dard_topo *t, uint32_t n)
{
	const struct dard_node *nd = &t->node[n];

	fprintf(f,
		"# dard node %s, written by dardctl deploy cluster: which node\n"
		"# this machine is, what it runs (host: dardd, switch:\n"
		"# dard-switchd) and the daemon's options besides -c, -k and\n"
		"# the node's name, for setup.sh. The systemd units read\n"
		"# %s@%s.env instead.\n"
		"DARD_NODE=%s\n"
		"DARD_ROLE=%s\n"
		"DARD_ARGS=\"%s\"\n",
		nd->name, nd->is_host ? "dardd" : "dard-switchd", nd->name,
		nd->name, nd->is_host ? "host" : "switch", node_args(nd));
}

/*
 * DIR/NODE/etc/dard/dardd@NODE.env or dard-switchd@NODE.env: what
 * systemd/dardd@.service (dard-switchd@.service) reads for this
 * instance, after the package's dardd.env (dard-switchd.env).
 */
static int write_unit_env(const char *conf, const struct dard_node *nd)
{
	const char *unit = nd->is_host ? "dardd" : "dard-switchd";
	char name[DARD_NAME_MAX + 32];
	struct out o;

	snprintf(name, sizeof(name), "%s@%s.env", unit, nd->name);
	if (out_open(&o, conf, name, 0644))
		return CTL_ERR;
	fprintf(o.f,
		"# %s@%s.service's options, written by dardctl deploy\n"
		"# cluster; systemd reads it after /etc/dard/%s.env.\n"
		"# The unit runs: %s $%s %s\n"
		"%s=\"%s\"\n",
		unit, nd->name, unit, unit,
		nd->is_host ? "DARDD_OPTS" : "DARD_SWITCHD_OPTS", nd->name,
		nd->is_host ? "DARDD_OPTS" : "DARD_SWITCHD_OPTS",
		node_args(nd));
	return out_close(&o) ? CTL_ERR : CTL_OK;
}

/*
 * DIR/NODE/setup.sh, and etc/dard/dard.{conf,key,env} and the unit's
 * env file under it.
 */
static int write_node(const struct dard_topo *t, const struct dard_plan *p,
		      const char *dir, uint32_t n, uint32_t rate,
		      const struct dard_keys *keys)
{
	char node[PATH_MAX], etc[PATH_MAX], conf[PATH_MAX];
	char err[DARD_ERR_MAX + PATH_MAX];
	struct out o;

	if (snprintf(node, sizeof(node), "%s/%s", dir, t->node[n].name) >=
		    (int)sizeof(node) - 16 ||
	    snprintf(etc, sizeof(etc), "%s/etc", node) >= (int)sizeof(etc) ||
	    snprintf(conf, sizeof(conf), "%s/etc/dard", node) >=
		    (int)sizeof(conf) - 16) {
		fprintf(stderr, "%s: name too long\n", dir);
		return CTL_ERR;
	}
	if (out_mkdir(node) || out_mkdir(etc) || out_mkdir(conf))
		return CTL_ERR;
	if (out_open(&o, node, "setup.sh", 0755))
		return CTL_ERR;
	deploy_write_setup(o.f, t, p, n, rate, &cluster_layout);
	if (out_close(&o) || deploy_write_config(t, p, conf))
		return CTL_ERR;
	if (out_open(&o, conf, "dard.env", 0644))
		return CTL_ERR;
	write_env(o.f, t, n);
	if (out_close(&o) || write_unit_env(conf, &t->node[n]))
		return CTL_ERR;
	strcat(conf, "/dard.key");
	if (dard_keys_save(keys, conf, 1, err)) {
		fprintf(stderr, "%s\n", err);
		return CTL_ERR;
	}
	return CTL_OK;
}

int deploy_cluster(struct ctl *c, const char *dir, uint32_t rate,
		   const struct dard_keys *keys)
{
	const struct dard_topo *t = c->cfg.topo;
	const struct dard_plan *p = c->cfg.plan;
	char a[24];
	struct out o;
	uint32_t i;

	if (out_mkdir(dir))
		return CTL_ERR;
	for (i = 0; i < t->nnodes; i++)
		if (write_node(t, p, dir, i, rate, keys))
			return CTL_ERR;
	/* Last: a complete nodes file means a complete deployment. */
	if (out_open(&o, dir, "nodes", 0))
		return CTL_ERR;
	fprintf(o.f,
		"# NODE ROLE MANAGEMENT-ADDRESS, by dardctl deploy cluster\n");
	for (i = 0; i < t->nnodes; i++)
		fprintf(o.f, "%s %s %s\n", t->node[i].name,
			t->node[i].is_host ? "host" : "switch",
			dard_addr_str(t->node[i].mgmt, a));
	return out_close(&o) ? CTL_ERR : CTL_OK;
}
