/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What dardctl needs to talk to dardd: the control socket's address and
 * its messages. dardd's own state is in daemon/dardd/dardd_priv.h.
 */
#ifndef _DARD_DARDD_H
#define _DARD_DARDD_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

/*
 * The control socket: a UNIX socket file in a directory only root may
 * enter (DARDD_CTL_DIR, mode 0700), one per network namespace (one per
 * testbed host), named by the namespace's inode so that dardctl finds
 * the dardd of its own namespace without being told. Nobody else can
 * bind or reach it, and each end still checks by SO_PEERCRED that the
 * other is root (ctlsock.h), should the directory's mode be changed. A
 * client writes one command line, one of the commands below and a
 * newline (DARD_CTL_LINE_MAX bytes at most), and reads one JSON document
 * back on one line (the keys: Documentation/operations.md), or
 * {"error": "why"} for a line refused or a client that is not root.
 */
#define DARD_RUN_DIR "/run/dard"
#define DARDD_CTL_DIR DARD_RUN_DIR "/dardd"

#define DARDD_CMD_MONITORS "monitors" /* an array, one object per monitor */
#define DARDD_CMD_FLOWS "flows"	      /* an array, one per elephant */
#define DARDD_CMD_STATS "stats"	      /* an object: dardd's counters */

/*
 * The control socket's path in this network namespace, with SUFFIX
 * (".sock"; dardd's lock file: ".lock"): DARDD_CTL_DIR/net-INODE.SUFFIX.
 * Returns 0, or -errno if /proc/self/ns/net cannot be read.
 */
static inline int dardd_ctl_path(char *path, size_t size, const char *suffix)
{
	struct stat st;

	if (stat("/proc/self/ns/net", &st))
		return -errno;
	snprintf(path, size, DARDD_CTL_DIR "/net-%lu%s",
		 (unsigned long)st.st_ino, suffix);
	return 0;
}

/* Its address, for bind and connect; returns its length, or -errno. */
static inline int dardd_ctl_addr(struct sockaddr_un *sun)
{
	int ret;

	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	ret = dardd_ctl_path(sun->sun_path, sizeof(sun->sun_path), ".sock");
	return ret ? ret : (int)sizeof(*sun);
}

#endif /* _DARD_DARDD_H */
