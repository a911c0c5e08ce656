/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* -n NAME: run in a named network namespace, as ip -n does. */
#ifndef _DARD_NSENTER_H
#define _DARD_NSENTER_H

/* Where ip netns add binds a namespace it names. */
#define CTL_NETNS_DIR "/run/netns"

/*
 * Moves this process into the network namespace CTL_NETNS_DIR/name with
 * setns(2) alone, as nsenter --net does: mounts, /sys and /etc stay the
 * caller's. CTL_OK; CTL_USAGE for a name that is no name (a path, `.',
 * `..'); CTL_ERR for one that cannot be opened or entered; both printed.
 */
int ctl_netns_enter(const char *name);

#endif /* _DARD_NSENTER_H */
