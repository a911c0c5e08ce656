/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What dardctl needs to talk to dardd: the control socket's address and
 * its messages. dardd's own state is in daemon/dardd/dardd_priv.h.
 */
#ifndef _DARD_DARDD_H
#define _DARD_DARDD_H

#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

/*
 * The control socket: an abstract UNIX socket, so one per network
 * namespace (one per testbed host) and never stale, but with no file
 * mode: each end checks the other is root by SO_PEERCRED (ctlsock.h). A
 * client writes one command line, one of the commands below and a
 * newline (DARD_CTL_LINE_MAX bytes at most), and reads one JSON document
 * back on one line (the keys: Documentation/operations.md), or
 * {"error": "why"} for a line refused or a client that is not root.
 */
#define DARDD_CTL_NAME "dard/dardd"

#define DARDD_CMD_MONITORS "monitors" /* an array, one object per monitor */
#define DARDD_CMD_FLOWS "flows"	      /* an array, one per elephant */
#define DARDD_CMD_STATS "stats"	      /* an object: dardd's counters */

/* The control socket's address, for bind and connect; returns its length. */
static inline socklen_t dardd_ctl_addr(struct sockaddr_un *sun)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	/* Abstract: a leading NUL, and the length says where it ends. */
	memcpy(sun->sun_path + 1, DARDD_CTL_NAME, strlen(DARDD_CTL_NAME));
	return offsetof(struct sockaddr_un, sun_path) + 1 +
	       strlen(DARDD_CTL_NAME);
}

#endif /* _DARD_DARDD_H */
