/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The fabric interface's settings the datapath depends on (rtnetlink). */
#ifndef _DARD_DP_LINK_H
#define _DARD_DP_LINK_H

#include <stdint.h>

/* IPv4 GSO and GRO packets are held to this: no BIG TCP (datapath.md). */
#define DARD_GSO_IPV4_MAX 65536U

/* An interface's IPv4 GSO and GRO sizes; 0 where the kernel has none. */
struct dard_link_sizes {
	uint32_t gso_ipv4_max, gro_ipv4_max;
};

/* Reads ifindex's sizes. Returns 0 or -errno. */
int dard_dp_link_sizes(unsigned ifindex, struct dard_link_sizes *s);

/* Sets ifindex's sizes, leaving those that are 0. Returns 0 or -errno. */
int dard_dp_link_set_sizes(unsigned ifindex, const struct dard_link_sizes *s);

/*
 * Lowers ifindex's IPv4 GSO and GRO sizes to DARD_GSO_IPV4_MAX where they
 * are above it (BIG TCP, Linux 6.3 and later); never raises them, and a
 * kernel without them has nothing to lower. Returns 0 or -errno.
 */
int dard_dp_link_cap_gso(unsigned ifindex);

#endif /* _DARD_DP_LINK_H */
