/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dardd: struct dardd, each part's state side by side, and the clock.
 * Each part has a header of its own that declares what the others call
 * (Documentation/design.md, "dardd's parts, in layers"); a file includes
 * the headers of the parts it calls, and only those. dardctl sees only
 * daemon/common/dardd.h.
 */
#ifndef _DARD_DARDD_PRIV_H
#define _DARD_DARDD_PRIV_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "config.h"
#include "controller.h"
#include "counters.h"
#include "dead.h"
#include "ctlsock.h"
#include "dp.h"
#include "elephants.h"
#include "io.h"
#include "key.h"
#include "links.h"
#include "log.h"
#include "notify.h"
#include "opts.h"
#include "receiver.h"
#include "sharing.h"
#include "watch.h"

struct mon;
struct sw;
struct sw_addr;

struct dardd {
	/* The host and its network (main.c). */
	struct dard_config cfg;
	const struct dard_topo *t;
	struct dard_pathctx *pc;
	uint32_t me, my_tor;
	/* The datapath (flows.c). */
	struct dard_dp *dp;
	const struct dard_dp_ops *ops;
	uint64_t next_sweep_ns;
	unsigned nel; /* elephants in the last walk, ours to any ToR */
	/* The datapath's own repairs at the last query tick (monitors.c). */
	uint64_t repairs;
	int repairs_seen;
	/* Link states (links.c), and the switches' answers (query.c). */
	struct dardd_links links;
	struct sw *sw;
	struct sw_addr *swaddr;
	uint32_t nswaddr;
	struct dard_keys
		*keys; /* key[0] signs; out of core dumps (keyfile.h) */
	uint64_t next_query_ns;
	struct dard_rx reply_rx; /* the switches' replies, taken or refused */
	/* The sockets, and how a datagram leaves (io.c). */
	struct dardd_io io;
	/* Monitors (monitors.c) and elephants (elephants.c). */
	struct mon *mons;
	uint64_t rng;
	struct elephant *els, *elh[EL_BUCKETS];
	/* The control socket (ctl.c) and the event loop (loop.c). */
	int ctl, ctl_lock; /* the socket, and the lock held beside it */
	struct dard_ratelimit ctl_rl[__DARD_CTL_REFUSALS]; /* their warnings */
	int epfd, tfd;
	struct dard_notify notify; /* systemd's watchdog, pinged by the loop */
	/* The controller client (controller.c, cpapply.c). */
	struct cp cp;
	/* Sharing among the ToR's hosts (share.c). */
	struct share sh;
	/* Dead paths to every ToR (dead.c), and the watch (watch.c). */
	struct dardd_dead dead;
	struct dardd_watch watch;
	/* The options (opts.c), and the counters every part adds to. */
	struct dardd_opts o;
	struct dardd_stats st;
};

/* CLOCK_MONOTONIC in ns: every time dardd keeps (clock.c, a leaf that
 * a test replaces with its own clock). */
uint64_t dardd_now_ns(void);

#endif /* _DARD_DARDD_PRIV_H */
