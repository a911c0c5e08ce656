// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-controller: the optional controller of a dard fabric (issue 15,
 * Documentation/protocol.md "Controller protocol", routing.md). Hosts
 * report their elephants (hosts.c), every round places them (round.c,
 * libdard-algo) and pushes each host its flows' paths; the switches'
 * agents say which links failed (links.c); an operator asks the control
 * socket (control.c). main only wires.
 */
#include <limits.h>
#include <stdio.h>
#include <arpa/inet.h>

#include "cfgfile.h"
#include "ctlr.h"
#include "err.h"
#include "keyfile.h"
#include "stdopts.h"

int main(int argc, char **argv)
{
	static struct dard_config cfg;
	struct dard_keys *keys = NULL; /* out of core dumps: keyfile.h */
	static struct ctlr c = {
		.udp = -1, .swudp = -1, .ctl = -1, .tfd = -1, .epfd = -1};
	char err[DARD_ERR_MAX + PATH_MAX];
	struct in_addr in;
	struct ctlr_opts o;
	int ret;

	ret = ctlr_opts_parse(argc, argv, &o, err);
	if (ret != DARD_OPTS_RUN) {
		if (err[0])
			fprintf(stderr, "dard-controller: %s\n", err);
		return ret;
	}
	ret = 1;
	dard_log_init("dard-controller", o.level);
	if (dard_config_read(&cfg, dard_config_path(o.config), NULL, 0, err,
			     sizeof(err)) ||
	    dard_crypto_init(err) ||
	    dard_keys_open(&keys, dard_key_path(o.key), err) ||
	    ctlr_init(&c, &cfg, keys, &o, err) || control_open(&c, err) ||
	    loop_open(&c, err))
		goto out;
	in.s_addr = htonl(o.listen);
	log_info("%s on %s: %s:%u, a round every %.3g s, hosts forgotten "
		 "after %.3g s, %zu switches asked every %.3g s",
		 dard_cp_algo_name(o.algo), dard_topo_label(cfg.topo),
		 inet_ntoa(in), o.port, o.interval_ns / 1e9,
		 o.host_timeout_ns / 1e9, c.nsw, o.query_ns / 1e9);
	/* The sockets bound, the configuration read: we serve. */
	if (dard_notify_ready(&c.notify, ctlr_now_ns(), err, "%s on %s",
			      dard_cp_algo_name(o.algo),
			      dard_topo_label(cfg.topo)))
		log_warn("%s", err);
	loop_run(&c);
	dard_notify_stopping();
	log_info("stopped after %llu rounds", (unsigned long long)c.st.rounds);
	ret = 0;
out:
	if (ret)
		log_err("%s", err);
	loop_close(&c);
	control_close(&c);
	ctlr_fini(&c);
	dard_config_free(&cfg);
	dard_keys_free(keys);
	return ret;
}
