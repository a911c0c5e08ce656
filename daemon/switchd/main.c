// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-switchd: a switch's state-query agent (paper, section 2.4.2). It
 * counts the elephant flows leaving each port with a BPF program on the
 * port's TC egress hook (counter.c, bpf/dard_switch.bpf.c) and answers
 * monitors' queries (answer.c, reply.c; Documentation/protocol.md) over
 * UDP on the management network with each port's bandwidth, elephant
 * count and load, sampled from the interfaces' counters every window
 * (load.c). It also keeps the switch's downhill and uphill tables installed
 * (routes.c). main only wires.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sodium.h>

#include "answer.h"
#include "bpflog.h"
#include "cfgfile.h"
#include "config.h"
#include "err.h"
#include "keyfile.h"
#include "load.h"
#include "log.h"
#include "notice.h"
#include "notify.h"
#include "probe.h"
#include "opts.h"
#include "routes.h"
#include "stdopts.h"

static volatile sig_atomic_t stop, dump;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		dump = 1;
	else
		stop = 1;
}

/* The switch's ports that have a link, each with its interface here. */
static int ports_init(struct sw_agent *a, const struct dard_topo *t,
		      uint32_t sw, const struct switchd_opts *o, char *err)
{
	unsigned k;

	a->port = calloc(t->node[sw].nports ? t->node[sw].nports : 1,
			 sizeof(*a->port));
	if (!a->port)
		return dard_fail(err, -ENOMEM, "out of memory");
	for_each_port(t, sw, k) {
		const struct dard_link *l = dard_topo_port_link(t, sw, k);
		struct sw_port *p = &a->port[a->nports];

		if (!l)
			continue;
		p->num = k;
		p->mbps = l->mbps;
		p->load_kbps = DARD_LOAD_UNKNOWN;
		snprintf(p->ifname, sizeof(p->ifname), o->ifname_fmt, k);
		p->ifindex = if_nametoindex(p->ifname);
		if (!p->ifindex)
			return dard_fail(
				err, -ENODEV,
				"port %u of %s: no interface `%s' here (--ifname sets the names)",
				k, o->sw, p->ifname);
		a->nports++;
	}
	return 0;
}

/* The switch's name, ports, tables and address, from the configuration file. */
static int setup(struct sw_agent *a, struct sw_routes *r,
		 struct dard_config *cfg, const struct switchd_opts *o,
		 struct in_addr *addr, char *err)
{
	const char *config = dard_config_path(o->config);
	uint32_t sw;

	if (dard_config_read(cfg, config, NULL, 0, err,
			     DARD_ERR_MAX + PATH_MAX))
		return -EINVAL;
	sw = dard_topo_find(cfg->topo, o->sw);
	if (sw == DARD_NONE || cfg->topo->node[sw].is_host)
		return dard_fail(err, -ENOENT, "%s: no switch `%s' in %s",
				 config, o->sw, dard_topo_label(cfg->topo));
	if (ports_init(a, cfg->topo, sw, o, err))
		return -ENODEV;
	if (!o->no_tables && sw_routes_open(r, cfg->topo, cfg->plan, sw,
					    a->port, a->nports, err))
		return -EIO;
	addr->s_addr = o->has_listen ? o->listen.s_addr
				     : htonl(cfg->topo->node[sw].mgmt);
	if (!o->has_listen && !addr->s_addr)
		return dard_fail(
			err, -EINVAL,
			"%s has no management address in %s: give --listen",
			o->sw, config);
	return 0;
}

/* The senders' windows, hashed with a key of this run's. */
static int replay_init(struct sw_replay *r, char *err)
{
	uint8_t hkey[16];

	randombytes_buf(hkey, sizeof(hkey));
	if (sw_replay_init(r, hkey))
		return dard_fail(err, -ENOMEM, "out of memory");
	return 0;
}

/* The earlier of the poll timeout wait (ms, -1: none) and until ns. */
static int sooner(int wait, uint64_t now, uint64_t until)
{
	uint64_t ms = until > now ? (until - now) / 1000000 + 1 : 0;

	return wait < 0 || ms < (uint64_t)wait ? (int)ms : wait;
}

/*
 * Answers queries; reconciles the tables on an event (after draining
 * them all) and every reconcile_ns at least; samples the ports' counters
 * every window, whether queries come or not, so that a load is always
 * the rate over the last window.
 */
/*
 * The loads' clock: the agent's one (coarse, a jiffy's steps) would make
 * a window's rate off by a tick over the window, 5% of a 0.2 s window.
 * Samples compare only with samples.
 */
static uint64_t sample_ns(void)
{
	return dard_clock_ns(CLOCK_MONOTONIC);
}

static void run(struct sw_agent *a, struct sw_routes *r, struct sw_load *l,
		const struct switchd_opts *o, struct dard_notify *n)
{
	int counting = 1;

	while (!stop) {
		struct pollfd pfd[3] = {{.fd = a->sock, .events = POLLIN},
					{.fd = a->link_ev, .events = POLLIN},
					{.fd = r->ev, .events = POLLIN}};
		uint64_t now = sw_now();
		int wait = -1;

		if (dump) {
			dump = 0;
			sw_answer_log(a);
			sw_load_log(l);
			if (!o->no_tables)
				sw_routes_log(r);
		}
		if (now >= l->next_ns) {
			sw_load_sample(l, a->port, a->nports, sample_ns());
			/* Link events lost (a full socket): a window late. */
			sw_notify(a, now);
			/* Behind (a stopped process): a window from now. */
			l->next_ns = l->next_ns + a->window_ns > now
					     ? l->next_ns + a->window_ns
					     : now + a->window_ns;
		}
		if (!o->no_tables) {
			if (r->pending || now - r->last_ns >= o->reconcile_ns)
				sw_routes_reconcile(r, now);
			wait = (r->last_ns + o->reconcile_ns - now) / 1000000 +
			       1;
		}
		/* The first window is counted: systemd's status says so. */
		if (counting && now >= a->ready_ns) {
			counting = 0;
			dard_notify_status("%s: %u ports, answering", o->sw,
					   a->nports);
		}
		if (counting)
			wait = sooner(wait, now, a->ready_ns);
		if (a->probe && now >= a->probe_next) {
			sw_probe_tick(a, now);
			a->probe_next = now + a->probe_ns;
		}
		if (a->probe)
			wait = sooner(wait, now, a->probe_next);
		wait = sooner(wait, now, l->next_ns);
		wait = dard_notify_watchdog(n, now, wait);
		if (poll(pfd, o->no_tables ? 2 : 3, wait) <= 0)
			continue;
		if (pfd[1].revents & POLLIN)
			sw_notice_events(a, sw_now());
		if (pfd[0].revents & POLLIN)
			sw_answer(a);
		if (pfd[2].revents & POLLIN)
			sw_routes_event(r);
	}
}

int main(int argc, char **argv)
{
	static struct dard_config cfg;
	struct dard_keys *keys = NULL; /* out of core dumps: keyfile.h */
	static struct sw_replay replay;
	char err[DARD_ERR_MAX + PATH_MAX], addr[INET_ADDRSTRLEN];
	struct sigaction sig = {.sa_handler = on_signal};
	struct sw_agent a = {.sock = -1, .ioctl_sock = -1, .link_ev = -1};
	struct sw_routes r = {.req = -1, .ev = -1, .ioctl_sock = -1};
	struct sw_load load = {.fd = -1};
	struct dard_notify notify = {0};
	struct switchd_opts o;
	struct in_addr listen;
	int ret = 1;

	ret = switchd_opts_parse(argc, argv, &o, err);
	if (ret != DARD_OPTS_RUN) {
		if (err[0])
			fprintf(stderr, "dard-switchd: %s\n", err);
		return ret;
	}
	ret = 1;
	dard_log_init("dard-switchd", o.level);
	dard_bpf_log(o.level == DARD_LOG_DEBUG);
	a.window_ns = o.window_ns;
	a.replay = &replay;
	if (setup(&a, &r, &cfg, &o, &listen, err) || dard_crypto_init(err) ||
	    dard_keys_open(&keys, dard_key_path(o.key), err) ||
	    replay_init(&replay, err) ||
	    sw_answer_open(&a, listen, o.port, err) ||
	    sw_load_open(&load, err) ||
	    sw_probe_open(&a, cfg.topo, cfg.plan,
			  dard_topo_find(cfg.topo, o.sw), o.probe_ns, err) ||
	    sw_notice_open(&a, err))
		goto out;
	a.keys = keys;
	sigaction(SIGINT, &sig, NULL);
	sigaction(SIGTERM, &sig, NULL);
	sigaction(SIGUSR1, &sig, NULL);
	if (sw_counter_attach(
		    &a.counter, a.port, a.nports,
		    &(struct sw_count_opts){o.dscp, o.window_ns, o.min_share},
		    err))
		goto out;
	a.ready_ns = sw_now() + a.window_ns;
	/*
	 * The first sample: the counter and the loads start together, so
	 * the first answer, a window on, has a window's rate (a port read
	 * once has none: not measured, never 0).
	 */
	sw_load_sample(&load, a.port, a.nports, sample_ns());
	load.next_ns = a.ready_ns;
	inet_ntop(AF_INET, &listen, addr, sizeof(addr));
	log_info(
		"%s: %u ports, answering on %s:%u, window %.3g s, elephant DSCP %u, min share %.3g",
		o.sw, a.nports, addr, o.port, o.window_ns / 1e9, o.dscp,
		o.min_share);
	if (!o.no_tables)
		log_info(
			"%s: keeping %u routes and rules, checked every %.3g s",
			o.sw, r.n, o.reconcile_ns / 1e9);
	/*
	 * The programs attached, the socket bound: we serve, but answer
	 * only after a window's counting (answer.c), up to an hour, too
	 * long to hold systemctl start; the status tells.
	 */
	if (dard_notify_ready(&notify, sw_now(), err,
			      "%s: %u ports on %s:%u, counting elephants for "
			      "%.3g s before answering",
			      o.sw, a.nports, addr, o.port, o.window_ns / 1e9))
		log_warn("%s", err);
	run(&a, &r, &load, &o, &notify);
	dard_notify_stopping();
	if (!o.no_tables)
		sw_routes_log(&r);
	sw_answer_log(&a);
	sw_load_log(&load);
	ret = 0;
out:
	if (ret)
		log_err("%s", err);
	sw_counter_detach(a.counter);
	sw_notice_close(&a);
	sw_probe_close(&a);
	sw_answer_close(&a);
	sw_load_close(&load);
	sw_routes_close(&r);
	free(a.port);
	sw_replay_free(&replay);
	dard_config_free(&cfg);
	dard_keys_free(keys);
	return ret;
}
