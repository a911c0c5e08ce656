/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What a dardctl command runs with: the options given, the topology once
 * loaded, and the exit codes. Every object file and helper includes it;
 * it declares no function, so that including it calls into nothing.
 */
#ifndef _DARD_CTL_H
#define _DARD_CTL_H

#include <stdio.h>

#include "addr.h"
#include "config.h"
#include "topo.h"

struct ctl {
	int json, pretty, stats, verbose;
	const char *netns;    /* -n: the network namespace to run in */
	const char *topo_arg; /* --topo: a generator or a file */
	const char *pin_root; /* --pin: where datapaths pin their maps */
	const char *key_arg;  /* --key: the switch protocol's key file */
	int dp_kind;	      /* --datapath: enum dard_dp_kind */
	const struct dard_dp_ops *ops; /* the backend ctl_dp_open chose */
	uint32_t mbps;		       /* --capacity for generators */
	struct dard_plan_opts opts;    /* --base, --mode, --ids, ... */
	unsigned opts_mask;	       /* which of those were given */
	struct dard_config cfg;	       /* loaded on first use */
	int loaded;
};

/* Exit codes. */
enum { CTL_OK = 0, CTL_ERR = 1, CTL_USAGE = 2 };

/*
 * Seconds dardctl waits for a daemon's answer on its control socket,
 * from the connect to the last byte: a stopped or hung dardd or
 * dard-controller is an error (CTL_ERR), never a wait without end.
 */
enum { CTL_ANSWER_WAIT_S = 10 };

#endif /* _DARD_CTL_H */
