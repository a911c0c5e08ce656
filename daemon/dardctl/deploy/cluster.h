/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* dardctl deploy cluster: a directory per node that scripts/cluster ships. */
#ifndef _DARD_DEPLOY_CLUSTER_H
#define _DARD_DEPLOY_CLUSTER_H

#include <stdint.h>

struct ctl;
struct dard_keys;

/*
 * Writes DIR/nodes and DIR/NODE/ for every node: its set-up script,
 * etc/dard/dard.conf, etc/dard/dard.key (keys, mode 0600) and
 * etc/dard/dard.env (setup.sh's) and etc/dard/dardd@NODE.env or
 * dard-switchd@NODE.env (the systemd unit's); CTL_ERR after printing why.
 */
int deploy_cluster(struct ctl *c, const char *dir, uint32_t rate,
		   const struct dard_keys *keys);

#endif /* _DARD_DEPLOY_CLUSTER_H */
