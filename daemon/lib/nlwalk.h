/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The walk of one netlink datagram, as recv() hands it: pure, so that
 * dard-switchd's exchanges and dard-exp's dumps share it and the fuzz
 * targets feed it bytes. Messages are walked with the kernel's own
 * NLMSG_OK (no length of 2 GiB or more is taken, as libmnl's
 * mnl_nlmsg_ok would).
 */
#ifndef _DARD_NLWALK_H
#define _DARD_NLWALK_H

#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

struct rtnl_link_stats64;

/*
 * Walks buf[0..len) (aligned to NLMSG_ALIGNTO): the messages of
 * sequence seq go to each (NULL: none) until an error or ack (its
 * error, 0 for an ack; -EBADMSG for one too short or not an errno) or a
 * dump's end (0). 1: more is to come.
 */
int dard_nl_walk(const void *buf, size_t len, uint32_t seq,
		 void (*each)(const struct nlmsghdr *m, void *arg), void *arg);

/*
 * An RTM_NEWLINK of a links dump: its interface's name (NUL-terminated
 * within IF_NAMESIZE, not empty) into *name and its IFLA_STATS64 into
 * *st (those the kernel sent, at least tx_bytes; the rest 0). 1 when it
 * had both, else 0 and nothing written.
 */
int dard_nl_link_stats(const struct nlmsghdr *m, const char **name,
		       struct rtnl_link_stats64 *st);

#endif /* _DARD_NLWALK_H */
