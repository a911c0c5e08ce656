/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* dardctl deploy netns: the files a testbed of network namespaces needs. */
#ifndef _DARD_DEPLOY_NETNS_H
#define _DARD_DEPLOY_NETNS_H

#include <stdint.h>

struct ctl;

/* How the switches route. */
enum deploy_routing {
	DEPLOY_DARD, /* dard's static tables on the aliases */
	DEPLOY_ECMP, /* static multipath routes on the host IDs */
	DEPLOY_BGP,  /* FRR's eBGP and BFD on the host IDs (RFC 7938) */
};

/*
 * Writes DIR/nodes, the batch files and DIR/node/ for namespaces named
 * PREFIX-NODE, ports limited to rate Mbit/s unless 0, switches routing
 * as routing (enum deploy_routing) says; CTL_ERR after printing why.
 */
int deploy_netns(struct ctl *c, const char *dir, const char *prefix,
		 uint32_t rate, int routing);

#endif /* _DARD_DEPLOY_NETNS_H */
