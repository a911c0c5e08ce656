/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The options only some objects take: which topology (-t) and how to
 * address it, which datapath (--pin, --datapath), which key file (-k).
 * They follow the object (dardctl topo show -t fattree:4); before it,
 * where earlier versions took them, dardctl.c takes them still.
 */
#ifndef _DARD_OBJOPTS_H
#define _DARD_OBJOPTS_H

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>

struct ctl;

/* The kinds of object option; an object takes some of them. */
enum ctl_opts {
	CTL_OPTS_TOPO = 1U << 0, /* TOPO_OPTS: -t, -c, --base ... --mgmtnet */
	CTL_OPTS_DP = 1U << 1,	 /* DP_OPTS: --pin, --datapath */
	CTL_OPTS_KEY = 1U << 2,	 /* -k */
};

/*
 * $DARD_DATAPATH and $DARD_PIN_ROOT into c, before any option overrides
 * them: CTL_OK, or CTL_USAGE after printing why the datapath is refused.
 */
int ctl_opts_env(struct ctl *c);
/*
 * getopt_long's rows for every object option, appended at lo[n] (room
 * for CTL_OBJ_OPTS_MAX more), and their letters appended to shortopts
 * (size bytes in all): for the options before OBJECT. Returns the rows.
 */
int ctl_opts_getopt(struct option *lo, int n, char *shortopts, size_t size);
enum { CTL_OBJ_OPTS_MAX = 16 };
/*
 * Option id (getopt's val) with its value into c: 0; -1 after printing
 * why val is refused; 1 if id is not an object option.
 */
int ctl_opts_apply(struct ctl *c, int id, const char *val);
/*
 * Takes the options of sets (enum ctl_opts) out of OBJECT's words,
 * wherever they stand, as OPTION VALUE or --OPTION=VALUE, and applies
 * them; argv keeps the rest, in order, with *argc their number. CTL_OK,
 * or CTL_USAGE after printing why (a bad value, or an option of
 * another object: obj names this one).
 */
int ctl_opts_take(struct ctl *c, const char *obj, unsigned sets, int *argc,
		  char **argv);
/*
 * The groups of sets for an object's usage: `TOPO_OPTS := { -t TOPO |
 * ... }' and `DP_OPTS := ...', the first line led by lead, the next ones
 * as far in.
 */
void ctl_opts_usage(FILE *f, const char *lead, unsigned sets);
/* One line or more per object option, for dardctl help. */
void ctl_opts_help(FILE *f);

#endif /* _DARD_OBJOPTS_H */
