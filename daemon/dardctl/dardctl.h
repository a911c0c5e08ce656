/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* What the dardctl object files share. */
#ifndef _DARD_DARDCTL_H
#define _DARD_DARDCTL_H

#include <stdio.h>

#include "addr.h"
#include "config.h"
#include "topo.h"

struct ctl {
	int json, pretty, stats, verbose;
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

/* Loads the topology and plan once; prints the reason and returns -1. */
int ctl_load(struct ctl *c);
/* Whether the arguments ask for help: help first, or -h/--help anywhere. */
int ctl_wants_help(int argc, char **argv);
/* Looks a node up by name; prints an error and returns DARD_NONE. */
uint32_t ctl_node(struct ctl *c, const char *name, int want_host);
/*
 * Strict numbers from options and arguments (num.h): on a refusal each
 * prints `Invalid WHAT `S': REASON, expected RANGE' and returns -1.
 */
int ctl_parse_u64(const char *what, const char *s, uint64_t min, uint64_t max,
		  uint64_t *out);
int ctl_parse_u32(const char *what, const char *s, uint32_t min, uint32_t max,
		  uint32_t *out);
int ctl_parse_double(const char *what, const char *s, double min, double max,
		     double *out);
/* Seconds as a finite decimal in [min, max], into ns. */
int ctl_parse_seconds(const char *what, const char *s, double min, double max,
		      uint64_t *ns);

/* "Command CMD is unknown, try dardctl OBJ help"; returns CTL_USAGE. */
int ctl_unknown(const char *obj, const char *cmd);
/*
 * `format json' turns JSON on as -j does; text_only (ip, csv) is a format
 * JSON cannot carry. CTL_OK, or CTL_USAGE after printing why.
 */
int ctl_format(struct ctl *c, const char *format, const char *text_only);
struct dard_dp;
/*
 * The datapath on ifname (pinned under --pin, or a dard device), through
 * the backend --datapath chooses, kept in c->ops; prints why not, -errno.
 */
int ctl_dp_open(struct ctl *c, const char *ifname, struct dard_dp **dp);

int do_topo(struct ctl *c, int argc, char **argv);
int do_addr(struct ctl *c, int argc, char **argv);
int do_path(struct ctl *c, int argc, char **argv);
int do_switch(struct ctl *c, int argc, char **argv);
int do_key(struct ctl *c, int argc, char **argv);
int do_deploy(struct ctl *c, int argc, char **argv);
int do_dp(struct ctl *c, int argc, char **argv);
/* dp weights IF [ DEST [ W... | even ] ] (weights.c). */
int ctl_dp_weights(struct ctl *c, int argc, char **argv);
int do_flow(struct ctl *c, int argc, char **argv);
int do_monitor(struct ctl *c, int argc, char **argv);
int do_stats(struct ctl *c, int argc, char **argv);
int do_sched(struct ctl *c, int argc, char **argv);
int do_traffic(struct ctl *c, int argc, char **argv);
int do_controller(struct ctl *c, int argc, char **argv);
/* flow show without dev: the elephants of this namespace's dardd. */
int ctl_daemon_flows(struct ctl *c);
struct dard_flow_key;
/* A flow's ends, ` SRC:SPORT DST:DPORT' or src/sport/dst/dport in JSON. */
void ctl_print_ends(const struct dard_flow_key *k);

/* Exit codes. */
enum { CTL_OK = 0, CTL_ERR = 1, CTL_USAGE = 2 };

/*
 * Seconds dardctl waits for a daemon's answer on its control socket,
 * from the connect to the last byte: a stopped or hung dardd or
 * dard-controller is an error (CTL_ERR), never a wait without end.
 */
enum { CTL_ANSWER_WAIT_S = 10 };

#endif /* _DARD_DARDCTL_H */
