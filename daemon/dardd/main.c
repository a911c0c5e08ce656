// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd: the DARD host daemon (paper, sections 2.4, 2.5 and 3.1). One
 * event loop (loop.c) over the datapath's ring buffer, a timer, the query
 * socket and the control socket:
 *
 *   - the elephant flow detector: elephants come from the datapath
 *     (flows.c) into our table (elephants.c);
 *   - on-demand monitors, one per destination ToR with our elephants
 *     (monitors.c);
 *   - path-state assembly: every query interval, one query to each switch
 *     some monitor needs, for the exit ports it needs (query.c);
 *   - the flow scheduler: each monitor runs a selfish round every
 *     schedule interval plus a random time up to one more, and moves one
 *     elephant through the datapath when it pays by more than delta
 *     (schedule.c);
 *   - the optional controller: reports of our elephants to
 *     dard-controller, its assignments and weights applied, and DARD
 *     again when it is silent (controller.c, cpapply.c);
 *   - the control socket that dardctl asks (ctl.c).
 *
 * Forwarding never depends on the daemon: the datapath's maps are pinned,
 * and a restarted daemon picks its elephants back up from them.
 */
#include <limits.h>
#include <stdio.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "bpflog.h"
#include "cfgfile.h"
#include "dardd_priv.h"
#include "controller.h"
#include "ctl.h"
#include "dead.h"
#include "elephants.h"
#include "flows.h"
#include "io.h"
#include "links.h"
#include "loop.h"
#include "monitors.h"
#include "opts.h"
#include "query.h"
#include "sharing.h"
#include "watch.h"
#include "log.h"
#include "stdopts.h"

/* The configuration, and this host in it. */
static int host_init(struct dardd *d)
{
	const char *config = dard_config_path(d->o.config);
	char err[DARD_ERR_MAX + PATH_MAX];

	if (dard_config_read(&d->cfg, config, NULL, 0, err, sizeof(err))) {
		log_err("%s", err);
		return -1;
	}
	d->t = d->cfg.topo;
	d->me = dard_topo_find(d->t, d->o.host);
	if (d->me == DARD_NONE || !d->t->node[d->me].is_host) {
		log_err("%s: no host `%s' in %s", config, d->o.host,
			dard_topo_label(d->t));
		return -1;
	}
	d->my_tor = dard_topo_tor(d->t, d->me);
	d->pc = dard_pathctx_new(d->t, d->cfg.plan);
	if (!d->pc) {
		log_err("out of memory");
		return -1;
	}
	return 0;
}

static void host_fini(struct dardd *d)
{
	dard_pathctx_free(d->pc);
	dard_config_free(&d->cfg);
}

static void log_start(const struct dardd *d)
{
	const struct dardd_opts *o = &d->o;

	log_info(
		"%s: datapath on %s, %s mode, query every %.3g s, rounds every %.3g s + U[0, %.3g s], delta %.3g%s",
		o->host, o->ifname, dard_sched_modes[o->mode].name,
		o->query_ns / 1e9, o->schedule_ns / 1e9, o->schedule_ns / 1e9,
		o->delta_is_frac ? o->delta * 100 : o->delta,
		o->delta_is_frac ? "% of the path bandwidth" : " Mbit/s");
	if (d->sh.on)
		log_info("sharing switches' answers with %u hosts under %s",
			 d->sh.npeers, d->t->node[d->my_tor].name);
	if (o->controller) {
		struct in_addr in = {.s_addr = htonl(o->controller)};

		log_info(
			"controller %s: a full report every %.3g s, DARD again after %.3g s of silence",
			inet_ntoa(in), o->cp_report_ns / 1e9,
			o->cp_timeout_ns / 1e9);
	}
}

static void log_stop(const struct dardd *d)
{
	log_info(
		"stopping: %llu queries, %llu replies, %llu timeouts, %llu moves, %llu queries saved by sharing",
		(unsigned long long)d->st.queries,
		(unsigned long long)d->st.replies,
		(unsigned long long)d->st.timeouts,
		(unsigned long long)d->st.moves,
		(unsigned long long)d->st.share_saved);
}

int main(int argc, char **argv)
{
	static struct dardd d;
	char err[DARD_ERR_MAX];
	int ret;

	ret = dardd_opts_parse(&d.o, argc, argv, err);
	if (ret != DARD_OPTS_RUN) {
		if (err[0])
			fprintf(stderr, "dardd: %s\n", err);
		return ret;
	}
	ret = 1;
	dard_log_init("dardd", d.o.log_level);
	/* libbpf's warnings always, even under -q; its debug with -v. */
	dard_bpf_log(d.o.log_level == DARD_LOG_DEBUG);
	d.ctl = -1;
	d.ctl_lock = -1;
	if (host_init(&d))
		goto err_host;
	/* Before the datapath: a dardd already here stops us unchanged. */
	if (ctl_init(&d))
		goto err_host;
	io_init(&d);
	if (links_init(&d) || query_init(&d) || controller_init(&d) ||
	    share_init(&d) || dead_init(&d) || watch_init(&d)) {
		log_err("out of memory");
		goto err_query;
	}
	elephants_init(&d);
	monitors_init(&d, dardd_now_ns() ^ ((uint64_t)getpid() << 32) ^ d.me);
	d.ops = dard_dp_choose(d.o.dp_kind, d.o.ifname, d.o.pin_root);
	if (flows_open(&d))
		goto err_query;
	if (query_open(&d) || controller_open(&d) || share_open(&d))
		goto err_flows;
	if (loop_init(&d))
		goto err_loop;
	/* Elephants reported before we started. */
	flows_sweep(&d, dardd_now_ns());
	log_start(&d);
	/* The datapath attached, the sockets bound: we serve. */
	if (dard_notify_ready(&d.notify, dardd_now_ns(), err,
			      "%s: datapath on %s", d.o.host, d.o.ifname))
		log_warn("%s", err);
	loop_run(&d);
	dard_notify_stopping();
	log_stop(&d);
	ret = 0;
err_loop:
	loop_fini(&d);
err_flows:
	flows_fini(&d);
	elephants_fini(&d);
	monitors_fini(&d);
err_query:
	watch_fini(&d);
	dead_fini(&d);
	share_fini(&d);
	controller_fini(&d);
	query_fini(&d);
	links_fini(&d);
err_host:
	host_fini(&d);
	ctl_fini(&d);
	return ret;
}
