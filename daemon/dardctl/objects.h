/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The objects' entry points: do_<object>() for dardctl.c's table, and the
 * two an object borrows from another. Each returns an exit code (ctl.h).
 */
#ifndef _DARD_OBJECTS_H
#define _DARD_OBJECTS_H

#include "ctl.h"

int do_topo(struct ctl *c, int argc, char **argv);
int do_addr(struct ctl *c, int argc, char **argv);
int do_path(struct ctl *c, int argc, char **argv);
int do_switch(struct ctl *c, int argc, char **argv);
int do_key(struct ctl *c, int argc, char **argv);
int do_deploy(struct ctl *c, int argc, char **argv);
int do_dp(struct ctl *c, int argc, char **argv);
int do_flow(struct ctl *c, int argc, char **argv);
int do_monitor(struct ctl *c, int argc, char **argv);
int do_stats(struct ctl *c, int argc, char **argv);
int do_sched(struct ctl *c, int argc, char **argv);
int do_traffic(struct ctl *c, int argc, char **argv);
int do_controller(struct ctl *c, int argc, char **argv);

/* dp weights IF [ DEST [ W... | even ] ] (weights.c, for dp.c). */
int ctl_dp_weights(struct ctl *c, int argc, char **argv);
/* flow show without dev: the elephants of this namespace's dardd. */
int ctl_daemon_flows(struct ctl *c);

#endif /* _DARD_OBJECTS_H */
