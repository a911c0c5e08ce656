// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The sampler's rtnetlink (nlstats.h): a libmnl socket per node, made
 * in its namespace once, and the two dumps of an interval walked by
 * libdard's dard_nl_walk. The attributes are read with the kernel's
 * RTA macros, each checked for its length, and copied out (a u64 in an
 * attribute is 4-byte aligned only).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/gen_stats.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <libmnl/libmnl.h>

#include "csv.h"
#include "nlstats.h"
#include "nlwalk.h"

/* ifindex's entry, added if new; NULL when it cannot be kept. */
static struct exp_ifstat *entry(struct exp_ifstats *s, int ifindex)
{
	struct exp_ifstat *v;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].ifindex == ifindex)
			return &s->v[i];
	if (s->n == EXP_IF_MAX) {
		s->dropped++;
		return NULL;
	}
	if (s->n == s->cap) {
		v = realloc(s->v, (s->cap ? 2 * s->cap : 16) * sizeof(*v));
		if (!v) {
			s->oom = 1;
			return NULL;
		}
		s->v = v;
		s->cap = s->cap ? 2 * s->cap : 16;
	}
	v = &s->v[s->n++];
	memset(v, 0, sizeof(*v));
	v->ifindex = ifindex;
	return v;
}

/* An RTM_NEWLINK: the interface's name and transmit counters. */
static void take_link(const struct nlmsghdr *m, struct exp_ifstats *s)
{
	const struct ifinfomsg *ifi = NLMSG_DATA(m);
	struct rtnl_link_stats64 st;
	struct exp_ifstat *e;
	const char *name;

	if (!dard_nl_link_stats(m, &name, &st))
		return;
	e = entry(s, ifi->ifi_index);
	if (!e)
		return;
	strcpy(e->name, name);
	e->tx_bytes = st.tx_bytes;
	e->tx_packets = st.tx_packets;
	e->have_link = 1;
}

/* TCA_STATS2's queue statistics, nested in a. */
static int queue_stats(const struct rtattr *a, struct gnet_stats_queue *q)
{
	int len = RTA_PAYLOAD(a);
	const struct rtattr *n;

	for (n = RTA_DATA(a); RTA_OK(n, len); n = RTA_NEXT(n, len))
		if (n->rta_type == TCA_STATS_QUEUE &&
		    RTA_PAYLOAD(n) >= sizeof(*q)) {
			memcpy(q, RTA_DATA(n), sizeof(*q));
			return 1;
		}
	return 0;
}

/* An RTM_NEWQDISC: a root qdisc's drops and backlog. */
static void take_qdisc(const struct nlmsghdr *m, struct exp_ifstats *s)
{
	const struct tcmsg *tc = NLMSG_DATA(m);
	int len = m->nlmsg_len - NLMSG_LENGTH(sizeof(*tc));
	const struct rtattr *a;
	struct gnet_stats_queue q;
	struct tc_stats old;
	struct exp_ifstat *e;
	int have = 0;

	if (len < 0 || tc->tcm_parent != TC_H_ROOT)
		return;
	for (a = TCA_RTA(tc); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		if (a->rta_type == TCA_STATS2 && queue_stats(a, &q))
			have = 2;
		/* The old struct, where no TCA_STATS2 comes. */
		if (a->rta_type == TCA_STATS && !have &&
		    RTA_PAYLOAD(a) >= sizeof(old)) {
			memcpy(&old, RTA_DATA(a), sizeof(old));
			q.drops = old.drops;
			q.backlog = old.backlog;
			have = 1;
		}
	}
	if (!have)
		return;
	e = entry(s, tc->tcm_ifindex);
	if (!e)
		return;
	e->drops = q.drops;
	e->backlog = q.backlog;
	e->have_qdisc = 1;
}

static void take(const struct nlmsghdr *m, void *arg)
{
	if (m->nlmsg_type == RTM_NEWLINK)
		take_link(m, arg);
	else if (m->nlmsg_type == RTM_NEWQDISC)
		take_qdisc(m, arg);
}

int exp_nl_walk(const void *buf, size_t len, uint32_t seq,
		struct exp_ifstats *s)
{
	int ret = dard_nl_walk(buf, len, seq, take, s);

	return s->oom ? -ENOMEM : ret;
}

void exp_ifstats_reset(struct exp_ifstats *s)
{
	s->n = 0;
	s->dropped = 0;
	s->oom = 0;
}

void exp_ifstats_free(struct exp_ifstats *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

int exp_nl_open(struct exp_nl *s, const char *ns, int self, char *err)
{
	char path[PATH_MAX];
	int fd, ret = 0;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "/run/netns/%s", ns);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return exp_fail(err, -errno, "Unable to open namespace %s: %s",
				path, strerror(errno));
	if (setns(fd, CLONE_NEWNET)) {
		ret = exp_fail(err, -errno, "Unable to enter namespace %s: %s",
			       path, strerror(errno));
		close(fd);
		return ret;
	}
	close(fd);
	s->nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!s->nl || mnl_socket_bind(s->nl, 0, MNL_SOCKET_AUTOPID) < 0)
		ret = exp_fail(err, -errno,
			       "Unable to open rtnetlink in %s: %s", ns,
			       strerror(errno));
	/* Every later socket and file is the caller's namespace's. */
	if (setns(self, CLONE_NEWNET))
		ret = exp_fail(err, -errno,
			       "Unable to return to our own namespace: %s",
			       strerror(errno));
	if (ret)
		exp_nl_close(s);
	return ret;
}

/* One dump of type into st: 0 or a negative errno. */
static int dump(struct exp_nl *s, uint16_t type, struct exp_ifstats *st,
		void *buf)
{
	struct {
		struct nlmsghdr h;
		union {
			struct ifinfomsg ifi;
			struct tcmsg tc;
		};
	} q = {.h = {.nlmsg_type = type,
		     .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		     .nlmsg_seq = ++s->seq}};
	ssize_t n;
	int ret = 1;

	q.h.nlmsg_len = NLMSG_LENGTH(type == RTM_GETLINK ? sizeof(q.ifi)
							 : sizeof(q.tc));
	if (mnl_socket_sendto(s->nl, &q, q.h.nlmsg_len) < 0)
		return -errno;
	do {
		n = mnl_socket_recvfrom(s->nl, buf, EXP_NL_BUF);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		ret = exp_nl_walk(buf, n, q.h.nlmsg_seq, st);
	} while (ret > 0);
	return ret;
}

int exp_nl_sample(struct exp_nl *s, struct exp_ifstats *st, void *buf)
{
	int ret;

	exp_ifstats_reset(st);
	ret = dump(s, RTM_GETLINK, st, buf);
	return ret ? ret : dump(s, RTM_GETQDISC, st, buf);
}

void exp_nl_close(struct exp_nl *s)
{
	if (s->nl)
		mnl_socket_close(s->nl);
	s->nl = NULL;
}
