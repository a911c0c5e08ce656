/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dardd's options (opts.c): what the command line asks for, what the mode
 * sets, and changing the mode while dardd runs (dardctl sched set).
 */
#ifndef _DARD_DARDD_OPTS_H
#define _DARD_DARDD_OPTS_H

#include <stdint.h>

#include "sched.h"

/*
 * What moves our elephants (opts.c), set by --sched-mode or dardctl
 * sched set: DARD's rounds (fast or paper, the mode), pVLB's random
 * re-picks (pvlb.h) or nothing (off: the datapath's hash alone, ECMP).
 */
enum dardd_mover {
	DARDD_MOVER_DARD,
	DARDD_MOVER_PVLB,
	DARDD_MOVER_OFF,
};

/* What the command line set of what the mode gives defaults to: kept
 * so that a change of mode takes the new mode's for the rest. */
struct dardd_opts_given {
	uint64_t query_ns, schedule_ns;
	double delta;
	int delta_is_frac;
	double quiet_at, quiet_sleep, busy_at, escape, watch;
};

/* What the command line asks for (opts.c). */
struct dardd_opts {
	const char *config;   /* NULL: $DARD_CONFIG, else the default */
	const char *key;      /* NULL: $DARD_KEY, else the default */
	const char *ifname;   /* the fabric interface */
	const char *pin_root; /* NULL: $DARD_PIN_ROOT, else the default */
	int dp_kind;	      /* --datapath: enum dard_dp_kind */
	const char *host;     /* the host we run for */
	int log_level;
	/* --sched-mode (sched.h): the defaults of the next four, the hold. */
	int mode;	      /* enum dard_sched_mode_id */
	uint64_t age_ns;      /* elephant age, when we attach the datapath */
	uint64_t query_ns;    /* switch queries, paper: 1 s */
	uint64_t schedule_ns; /* rounds every this + U[0, this], paper: 5 s */
	uint64_t max_age_ns;  /* link states older are unknown: 3 queries */
	uint64_t sweep_ns;    /* walks of the flow table */
	uint64_t idle_ns;     /* flows idle this long are forgotten */
	double delta;	      /* Mbit/s (paper: 10), or when delta_is_frac */
	int delta_is_frac;    /* a share of the paths' bandwidth, 0 to 1 */
	uint16_t switch_port;
	uint32_t controller;	/* its address (host order), 0: none */
	uint64_t cp_timeout_ns; /* silent this long: back to DARD */
	uint64_t cp_report_ns;	/* a full report every this */
	int no_share;		/* --no-share: ask every switch ourselves */
	/* --quiet-at, --quiet-sleep, --busy-at: below 0 (unset), the
	 * mode's. */
	double quiet_at, quiet_sleep, busy_at, escape;
	double watch; /* --watch-interval s, 0: none; below 0, the mode's */
	struct dard_sched_mode sched; /* the mode's, with those */
	int mover;		      /* enum dardd_mover */
	double pvlb;		      /* s between a flow's pVLB re-picks */
	struct dardd_opts_given given;
};

/*
 * opts.c: DARD_OPTS_RUN (stdopts.h) to run, else the exit status, with
 * what to say (if getopt has not) in err (DARD_ERR_MAX).
 */
int dardd_opts_parse(struct dardd_opts *o, int argc, char **argv, char *err);
/* The defaults, and what follows from them, as dardd runs without options. */
void dardd_opts_defaults(struct dardd_opts *o);
/*
 * What moves our elephants from now on: fast, paper, pvlb or off
 * (dardd_mode_name's), pVLB every pvlb seconds (0: as it was). A DARD
 * mode takes its defaults for what the command line did not set; the
 * elephant age stays the datapath's. 0, or -EINVAL for another name.
 */
int dardd_opts_set_mode(struct dardd_opts *o, const char *name, double pvlb);
/* fast, paper, pvlb or off: what dardd_opts_set_mode takes. */
const char *dardd_mode_name(const struct dardd_opts *o);

#endif /* _DARD_DARDD_OPTS_H */
