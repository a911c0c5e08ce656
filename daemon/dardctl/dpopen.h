/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The host datapath on an interface, through the backend the options say. */
#ifndef _DARD_DPOPEN_H
#define _DARD_DPOPEN_H

struct ctl;
struct dard_dp;

/*
 * The datapath on ifname (pinned under --pin, or a dard device), through
 * the backend --datapath chooses, kept in c->ops; prints why not, -errno.
 */
int ctl_dp_open(struct ctl *c, const char *ifname, struct dard_dp **dp);

#endif /* _DARD_DPOPEN_H */
