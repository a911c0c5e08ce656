/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What dardctl needs to talk to dardd: where the control socket lives
 * (its path and address: ctlsock.h) and its messages. dardd's own state
 * is in daemon/dardd/dardd_priv.h.
 */
#ifndef _DARD_DARDD_H
#define _DARD_DARDD_H

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
 * "sched": an object, what moves our elephants (sched_mode: fast, paper,
 * pvlb or off) and its intervals. "sched MODE", "sched pvlb SECONDS":
 * the mode changed (a refusal, "invalid", for any other argument), then
 * the same object. The one command that writes.
 */
#define DARDD_CMD_SCHED "sched"

#endif /* _DARD_DARDD_H */
