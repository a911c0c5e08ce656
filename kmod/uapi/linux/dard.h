/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * dard's one uapi header, shared by the kernel module, the BPF datapath and
 * userspace (included as <linux/dard.h>).
 *
 * A path through a multi-rooted tree is named by a pair of hierarchical
 * aliases (DARD paper, section 2.3): the source alias encodes the uphill
 * half, the destination alias the downhill half. The datapath writes the
 * pair into the outer IPv4 header of an IP-in-IP packet; switches forward
 * on it with static tables.
 */
#ifndef _UAPI_LINUX_DARD_H
#define _UAPI_LINUX_DARD_H

#include <linux/types.h>

#define DARD_GENL_NAME "dard"
#define DARD_GENL_VERSION 1

/* The alias pair naming one path, in network byte order. */
struct dard_alias_pair {
	__be32 saddr;
	__be32 daddr;
};

#endif /* _UAPI_LINUX_DARD_H */
