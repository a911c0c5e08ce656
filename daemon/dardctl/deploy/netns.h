/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* dardctl deploy netns: the files a testbed of network namespaces needs. */
#ifndef _DARD_DEPLOY_NETNS_H
#define _DARD_DEPLOY_NETNS_H

#include <stdint.h>

struct ctl;

/*
 * Writes DIR/nodes, the batch files and DIR/node/ for namespaces named
 * PREFIX-NODE, ports limited to rate Mbit/s unless 0, switches routing
 * with multipath ECMP if ecmp; CTL_ERR after printing why.
 */
int deploy_netns(struct ctl *c, const char *dir, const char *prefix,
		 uint32_t rate, int ecmp);

#endif /* _DARD_DEPLOY_NETNS_H */
