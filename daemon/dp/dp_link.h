/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The fabric interface's settings the datapath depends on (rtnetlink). */
#ifndef _DARD_DP_LINK_H
#define _DARD_DP_LINK_H

#include <stdint.h>
#include <libmnl/libmnl.h>

/* IPv4 GSO and GRO packets are held to this: no BIG TCP (datapath.md). */
#define DARD_GSO_IPV4_MAX 65536U

/* An interface's IPv4 GSO and GRO sizes; 0 where the kernel has none. */
struct dard_link_sizes {
	uint32_t gso_ipv4_max, gro_ipv4_max;
};

/* Reads ifindex's sizes. Returns 0 or -errno. */
int dard_dp_link_sizes(unsigned ifindex, struct dard_link_sizes *s);

/*
 * Reads the sizes from one answer (RTM_NEWLINK) into arg, a struct
 * dard_link_sizes: an mnl_cb_t, apart for tests/fuzz/link_fuzz.c.
 */
int dard_dp_link_sizes_cb(const struct nlmsghdr *nlh, void *arg);

/* Sets ifindex's sizes, leaving those that are 0. Returns 0 or -errno. */
int dard_dp_link_set_sizes(unsigned ifindex, const struct dard_link_sizes *s);

/*
 * Lowers ifindex's IPv4 GSO and GRO sizes to DARD_GSO_IPV4_MAX where they
 * are above it (BIG TCP, Linux 6.3 and later); never raises them, and a
 * kernel without them has nothing to lower. Returns 0 or -errno.
 */
int dard_dp_link_cap_gso(unsigned ifindex);

/* Room for an rtnetlink answer: dumps of links are large (libmnl's
 * advice for dumps). */
#define DARD_RT_BUF 32768

/* An rtnetlink request of type in buf, which must hold what is added. */
struct nlmsghdr *dard_rt_msg(char *buf, uint16_t type, uint16_t flags);
/* The same with a struct ifinfomsg for ifindex (0: none). */
struct nlmsghdr *dard_rt_link_msg(char *buf, uint16_t type, uint16_t flags,
				  uint32_t ifindex);
/*
 * Sends nlh on a socket of its own, asking for an ack unless it is a
 * dump, and runs cb (NULL: the ack is all) over the answers until the
 * end. Returns 0 or -errno, the kernel's among them.
 */
int dard_rt_talk(struct nlmsghdr *nlh, mnl_cb_t cb, void *arg);

#endif /* _DARD_DP_LINK_H */
