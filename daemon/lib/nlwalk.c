// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The walk of one netlink datagram (nlwalk.h). */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/types.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "nlwalk.h"

/* An error or ack's errno: 0, or one the kernel could have meant. */
static int error_of(const struct nlmsghdr *m)
{
	int error;

	if (m->nlmsg_len < NLMSG_LENGTH(sizeof(error)))
		return -EBADMSG;
	memcpy(&error, NLMSG_DATA(m), sizeof(error));
	return error > 0 || error < -4095 ? -EBADMSG : error;
}

int dard_nl_walk(const void *buf, size_t len, uint32_t seq,
		 void (*each)(const struct nlmsghdr *m, void *arg), void *arg)
{
	const struct nlmsghdr *m = buf;
	ssize_t left = len;

	for (; NLMSG_OK(m, left); m = NLMSG_NEXT(m, left)) {
		if (m->nlmsg_seq != seq)
			continue;
		if (m->nlmsg_type == NLMSG_ERROR)
			return error_of(m);
		if (m->nlmsg_type == NLMSG_DONE)
			return 0;
		if (each)
			each(m, arg);
	}
	return 1;
}

int dard_nl_link_stats(const struct nlmsghdr *m, const char **name,
		       struct rtnl_link_stats64 *st)
{
	const struct ifinfomsg *ifi = NLMSG_DATA(m);
	int len = m->nlmsg_len - NLMSG_LENGTH(sizeof(*ifi));
	const struct rtattr *a;
	struct rtnl_link_stats64 got;
	const char *n = NULL;
	int have = 0;

	if (m->nlmsg_type != RTM_NEWLINK || len < 0)
		return 0;
	for (a = IFLA_RTA(ifi); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == IFLA_IFNAME &&
		    RTA_PAYLOAD(a) <= IF_NAMESIZE &&
		    memchr(RTA_DATA(a), 0, RTA_PAYLOAD(a)))
			n = RTA_DATA(a);
		/* Attributes are 4-byte aligned, the u64s maybe not. */
		if (a->rta_type == IFLA_STATS64 &&
		    RTA_PAYLOAD(a) >=
			    offsetof(struct rtnl_link_stats64, tx_bytes) +
				    sizeof(st->tx_bytes)) {
			memset(&got, 0, sizeof(got));
			memcpy(&got, RTA_DATA(a),
			       RTA_PAYLOAD(a) < sizeof(got) ? RTA_PAYLOAD(a)
							    : sizeof(got));
			have = 1;
		}
	}
	if (!n || !*n || !have)
		return 0;
	*name = n;
	*st = got;
	return 1;
}
