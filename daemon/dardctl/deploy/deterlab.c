// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardctl deploy deterlab: what a DeterLab-style testbed of Linux PCs
 * needs to become a dard fabric. An NS file (ns-2 Tcl, as DeterLab takes)
 * declares a PC per switch and host, a link per topology link with its
 * /31 addresses and rate, and a management LAN; one set-up script per
 * node turns the PC into a commodity router or a dard host with the same
 * commands the namespace testbed uses, and starts dard-switchd or dardd.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ctl.h"
#include "render.h"
#include "deterlab.h"
#include "out.h"

static void write_ns(FILE *f, const struct dard_topo *t,
		     const struct dard_plan *p, uint32_t rate, const char *os,
		     const char *setup_dir)
{
	char a[24], b[24];
	uint32_t i;

	fprintf(f,
		"# dard fabric %s, written by dardctl deploy deterlab.\n"
		"# A PC per switch and host; every link a /31 at %u Mbit/s;\n"
		"# a management LAN for dardd and dard-switchd.\n"
		"set ns [new Simulator]\n"
		"source tb_compat.tcl\n\n",
		dard_topo_label(t), rate);
	for (i = 0; i < t->nnodes; i++) {
		fprintf(f, "set n(%s) [$ns node]\n", t->node[i].name);
		fprintf(f, "tb-set-node-os $n(%s) %s\n", t->node[i].name, os);
		fprintf(f,
			"tb-set-node-startcmd $n(%s) \"sudo %s/%s.sh >& /tmp/dard-setup.log\"\n",
			t->node[i].name, setup_dir, t->node[i].name);
	}
	fprintf(f, "\n");
	for (i = 0; i < t->nlinks; i++) {
		const struct dard_link *l = &t->link[i];

		fprintf(f,
			"set l(%u) [$ns duplex-link $n(%s) $n(%s) %uMb 0ms DropTail]\n",
			i, t->node[l->up].name, t->node[l->down].name,
			rate ? rate : l->mbps);
		fprintf(f, "tb-set-ip-link $n(%s) $l(%u) %s\n",
			t->node[l->up].name, i,
			dard_addr_str(dard_plan_link_addr(p, i, 1), a));
		fprintf(f, "tb-set-ip-link $n(%s) $l(%u) %s\n",
			t->node[l->down].name, i,
			dard_addr_str(dard_plan_link_addr(p, i, 0), b));
		fprintf(f, "tb-set-netmask $l(%u) 255.255.255.254\n", i);
	}
	fprintf(f, "\nset mgmt [$ns make-lan \"");
	for (i = 0; i < t->nnodes; i++)
		fprintf(f, "%s$n(%s)", i ? " " : "", t->node[i].name);
	fprintf(f, "\" 1000Mb 0ms]\n");
	for (i = 0; i < t->nnodes; i++)
		fprintf(f, "tb-set-ip-lan $n(%s) $mgmt %s\n", t->node[i].name,
			dard_addr_str(t->node[i].mgmt, a));
	fprintf(f, "tb-set-netmask $mgmt %s\n\n",
		dard_addr_str(dard_mask(p->opts.mgmt.len), a));
	fprintf(f, "$ns rtproto Static\n$ns run\n");
}

/*
 * A node's set-up script: it finds each interface by the address the
 * testbed gave it, renames it to dard's name (pN, dard0, mgmt0), then
 * applies the same commands as the namespace testbed and starts the
 * node's daemon. Where it finds its files is the layout's.
 */
void deploy_write_setup(FILE *f, const struct dard_topo *t,
			const struct dard_plan *p, uint32_t n, uint32_t rate,
			const struct setup_layout *l)
{
	const struct dard_node *nd = &t->node[n];
	char a[24], ifn[16];
	unsigned k;

	fprintf(f,
		"#!/bin/bash\n"
		"# dard set-up of %s (%s), written by dardctl deploy %s.\n"
		"# Environment:\n"
		"#   DARD_BIN      dardd, dard-switchd, dardctl (default /usr/local/sbin)\n"
		"#   DARD_CONFIG   default %s\n"
		"#   DARD_KEY      default %s\n"
		"#   DARD_ARGS     more options for the daemon\n"
		"#   DARD_LOG_DIR  where it logs (default /var/log)\n"
		"#   DARD_RUN_DIR  its pid file, NODE.pid (default /run/dard)\n"
		"#   DARD_START=0  leaves it stopped\n"
		"#   DARD_ATTACH=0 attaches no datapath: dardd will (its unit)\n"
		"#   DARD_DATAPATH the datapath's kind: auto (default), bpf, kmod\n"
		"set -eu\n"
		"here=$(cd \"$(dirname \"$0\")\" && pwd)\n"
		"bin=${DARD_BIN:-/usr/local/sbin}\n"
		"conf=${DARD_CONFIG:-%s}\n"
		"key=${DARD_KEY:-%s}\n"
		"log=${DARD_LOG_DIR:-/var/log}\n"
		"run=${DARD_RUN_DIR:-/run/dard}\n"
		"%s"
		"\n"
		"# The interface holding ADDR, renamed to NAME.\n"
		"claim() {\n"
		"\tlocal dev\n"
		"\tdev=$(ip -o -4 addr show | awk -v a=\"$1\" '{ split($4, x, \"/\"); if (x[1] == a) print $2 }' | head -n 1)\n"
		"\t[[ -n $dev ]] || { echo \"%s: no interface has $1\" >&2; exit 1; }\n"
		"\t[[ $dev == \"$2\" ]] && return 0\n"
		"\tip link set dev \"$dev\" down\n"
		"\tip link set dev \"$dev\" name \"$2\"\n"
		"\tip link set dev \"$2\" up\n"
		"}\n\n",
		nd->name, nd->is_host ? "host" : t->level_name[nd->level],
		l->by, l->conf_doc, l->key_doc, l->conf, l->key, l->key_install,
		nd->name);
	for_each_port(t, n, k) {
		uint32_t li = nd->port[k - 1];

		if (li == DARD_NONE)
			continue;
		fprintf(f, "claim %s %s\n",
			dard_addr_str(
				dard_plan_link_addr(p, li, t->link[li].up == n),
				a),
			nd->is_host ? "dard0" : render_ifname(t, n, k, ifn));
	}
	fprintf(f, "claim %s mgmt0\n\n", dard_addr_str(nd->mgmt, a));
	fprintf(f,
		"sed 's/\\.eth0\\./.dard0./' <<'EOS' | sysctl -q -p /dev/stdin\n");
	render_sysctl(f, t, p, n);
	fprintf(f, "net.ipv4.conf.mgmt0.rp_filter = 0\nEOS\n");
	/*
	 * The testbed gave the link addresses already: replace, not add.
	 * A second run (a runner's next up) replaces routes too, and drops
	 * the rules first: ip has no rule replace.
	 */
	fprintf(f,
		"batch=$(sed 's/^addr add/addr replace/; s/^route add/route replace/; s/dev eth0/dev dard0/g' <<'EOB'\n");
	if (nd->is_host)
		render_host(f, t, p, n, "");
	else
		render_switch(f, t, p, n, "");
	fprintf(f,
		"EOB\n)\n"
		"sed -n 's/^rule add/rule del/p' <<<\"$batch\" | ip -force -batch - 2>/dev/null || true\n"
		"ip -batch - <<<\"$batch\"\n");
	if (rate) {
		fprintf(f,
			"sed 's/^qdisc add/qdisc replace/; s/dev eth0/dev dard0/' <<'EOT' | tc -batch -\n");
		render_tc(f, t, n, rate);
		fprintf(f, "EOT\n");
	}
	if (nd->is_host)
		fprintf(f,
			"\n# ID traffic travels IP-in-IP through the host datapath.\n"
			"[[ ${DARD_ATTACH:-1} == 0 ]] ||\n"
			"\t\"$bin/dardctl\" -t \"$conf\" dp attach dard0 host %s\n",
			nd->name);
	fprintf(f, "\n[[ ${DARD_START:-1} == 1 ]] || exit 0\n"
		   "mkdir -p \"$log\" \"$run\"\n");
	/* The pid file lets a runner stop exactly this node's daemon. */
	if (nd->is_host)
		fprintf(f,
			"setsid \"$bin/dardd\" -c \"$conf\" -k \"$key\" -i dard0 ${DARD_ARGS:-} %s </dev/null >>\"$log/dardd.log\" 2>&1 &\n",
			nd->name);
	else
		fprintf(f,
			"setsid \"$bin/dard-switchd\" -c \"$conf\" -k \"$key\" ${DARD_ARGS:-} %s </dev/null >>\"$log/dard-switchd.log\" 2>&1 &\n",
			nd->name);
	fprintf(f, "echo $! >\"$run/%s.pid\"\n", nd->name);
}

/* DeterLab's PCs share /proj: the files sit next to the scripts there. */
static const struct setup_layout deterlab_layout = {
	.by = "deterlab",
	.conf = "$here/dard.conf",
	.conf_doc = "dard.conf next to this script",
	.key = "/etc/dard/dard.key",
	.key_doc =
		"/etc/dard/dard.key, installed root-only\n"
		"#                 from dard.key next to this script if missing",
	.key_install =
		"[[ -e $key ]] || install -D -m 0600 -o root -g root \"$here/dard.key\" \"$key\"\n",
};

/* The configuration every node reads, as SUB/dard.conf. */
int deploy_write_config(const struct dard_topo *t, const struct dard_plan *p,
			const char *sub)
{
	struct dard_buf b = {0};
	struct out o;
	int ret;

	dard_config_write(t, p, DARD_CONFIG_F_PLAN, &b);
	if (b.oom) {
		fprintf(stderr, "Unable to write `%s/dard.conf': %s\n", sub,
			strerror(ENOMEM));
		dard_buf_free(&b);
		return -1;
	}
	ret = out_open(&o, sub, "dard.conf", 0);
	if (!ret) {
		fputs(b.s ? b.s : "", o.f);
		ret = out_close(&o);
	}
	dard_buf_free(&b);
	return ret;
}

int deploy_deterlab(struct ctl *c, const char *dir, uint32_t rate,
		    const char *os, const char *setup_dir)
{
	const struct dard_topo *t = c->cfg.topo;
	const struct dard_plan *p = c->cfg.plan;
	char sub[4096], name[DARD_NAME_MAX + 8];
	struct out o;
	uint32_t i;

	snprintf(sub, sizeof(sub), "%s/setup", dir);
	if (out_mkdir(dir) || out_mkdir(sub))
		return CTL_ERR;
	if (out_open(&o, dir, "dard.ns", 0))
		return CTL_ERR;
	write_ns(o.f, t, p, rate, os, setup_dir ? setup_dir : sub);
	if (out_close(&o) || deploy_write_config(t, p, sub))
		return CTL_ERR;
	for (i = 0; i < t->nnodes; i++) {
		snprintf(name, sizeof(name), "%s.sh", t->node[i].name);
		if (out_open(&o, sub, name, 0755))
			return CTL_ERR;
		deploy_write_setup(o.f, t, p, i, rate, &deterlab_layout);
		if (out_close(&o))
			return CTL_ERR;
	}
	return CTL_OK;
}
