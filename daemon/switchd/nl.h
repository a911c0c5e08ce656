/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-switchd's plain rtnetlink (no libmnl on the switches): a socket,
 * and one request's exchange, for the tables (routes.c) and the ports'
 * counters (load.c) alike. Helpers return 0 or a negative errno.
 */
#ifndef _DARD_SWITCHD_NL_H
#define _DARD_SWITCHD_NL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>

/* An rtnetlink socket bound to groups (0: none); err (DARD_ERR_MAX). */
int sw_nl_open(unsigned groups, char *err);

/*
 * Sends the request h and reads the answers of its sequence number until
 * the kernel's error or ack (its error, 0 for an ack) or a dump's end
 * (0); each other message goes to each (NULL: none) with arg: each
 * datagram walked by libdard's dard_nl_walk (nlwalk.h). -errno if
 * sending or receiving fails.
 */
int sw_nl_talk(int fd, const struct nlmsghdr *h,
	       void (*each)(const struct nlmsghdr *m, void *arg), void *arg);

#endif /* _DARD_SWITCHD_NL_H */
