/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The sampler's rtnetlink: one socket per testbed node, made in the
 * node's network namespace and kept, and per interval one RTM_GETLINK
 * dump (each interface's IFLA_STATS64 tx_bytes and tx_packets) and one
 * RTM_GETQDISC dump (each interface's root qdisc's drops and backlog,
 * TCA_STATS2's TCA_STATS_QUEUE) on it. The walk of a dump's datagram is
 * pure (exp_nl_walk), for the fuzzer and the tests.
 */
#ifndef _DARD_EXP_NLSTATS_H
#define _DARD_EXP_NLSTATS_H

#include <stddef.h>
#include <stdint.h>
#include <net/if.h>

/* Interfaces kept per namespace; more are left out (and counted). */
enum { EXP_IF_MAX = 4096 };

/* One interface's counters, as the dumps gave them. */
struct exp_ifstat {
	int ifindex;
	char name[IF_NAMESIZE];
	uint64_t tx_bytes, tx_packets; /* IFLA_STATS64 */
	uint64_t drops, backlog;       /* the root qdisc's; 0 without one */
	uint8_t have_link, have_qdisc;
};

struct exp_ifstats {
	struct exp_ifstat *v;
	size_t n, cap;
	unsigned dropped; /* interfaces past EXP_IF_MAX */
	int oom;	  /* an interface not kept for want of memory */
};

/*
 * One datagram buf[0..len) (aligned to NLMSG_ALIGNTO) of a link or
 * qdisc dump of sequence seq, into s: returns as dard_nl_walk (nlwalk.h)
 * does, 1 for more to come, 0 at the dump's end, a negative errno for
 * the kernel's error; -ENOMEM if an interface could not be kept.
 */
int exp_nl_walk(const void *buf, size_t len, uint32_t seq,
		struct exp_ifstats *s);
void exp_ifstats_reset(struct exp_ifstats *s);
void exp_ifstats_free(struct exp_ifstats *s);

struct mnl_socket;

/* A node's socket. */
struct exp_nl {
	struct mnl_socket *nl;
	uint32_t seq;
};

/*
 * Opens a NETLINK_ROUTE socket in network namespace ns (/run/netns/NS),
 * entering it and coming back to self (an fd of the caller's own
 * namespace): 0, or a negative errno with err (DARD_ERR_MAX) naming
 * what failed.
 */
int exp_nl_open(struct exp_nl *s, const char *ns, int self, char *err);
/*
 * Both dumps of s's namespace into st (reset first), with buf (room for
 * EXP_NL_BUF bytes, aligned) to receive into: 0 or a negative errno.
 */
int exp_nl_sample(struct exp_nl *s, struct exp_ifstats *st, void *buf);
void exp_nl_close(struct exp_nl *s);

/* A dump's datagrams are a page or two; libmnl's advice for dumps. */
enum { EXP_NL_BUF = 32768 };

#endif /* _DARD_EXP_NLSTATS_H */
