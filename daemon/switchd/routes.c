// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The switch's tables over plain rtnetlink sockets: a handful of fixed
 * messages (one route or rule each, acked) need no library, and libmnl
 * would be one more dependency for the switches.
 *
 * Every add is NLM_F_CREATE | NLM_F_EXCL: what is there answers EEXIST
 * and is left alone, and only a real add makes the kernel announce a
 * change. A replace would announce every identical route again, and our
 * own event socket would wake us for ever.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/fib_rules.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "addr.h"
#include "err.h"
#include "nl.h"
#include "reply.h"
#include "routes.h"

int sw_routes_open(struct sw_routes *r, const struct dard_topo *t,
		   const struct dard_plan *p, uint32_t sw,
		   const struct sw_port *port, unsigned nports, char *err)
{
	uint32_t i;
	unsigned k;

	memset(r, 0, sizeof(*r));
	r->req = r->ev = r->ioctl_sock = -1;
	if (dard_table_switch(t, p, sw, &r->e, &r->n, err))
		return -ENOMEM;
	r->port = calloc(r->n + 1, sizeof(*r->port));
	if (!r->port)
		return dard_fail(err, -ENOMEM, "out of memory");
	for (i = 0; i < r->n; i++)
		for (k = 0; k < nports; k++)
			if (r->e[i].kind == DARD_SW_ROUTE &&
			    port[k].num == r->e[i].port)
				r->port[i] = &port[k];
	r->ioctl_sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (r->ioctl_sock < 0)
		return dard_fail(err, -errno, "Unable to open a socket: %s",
				 strerror(errno));
	r->req = sw_nl_open(0, err);
	if (r->req < 0)
		return r->req;
	r->ev = sw_nl_open(RTMGRP_LINK | RTMGRP_IPV4_ROUTE | RTMGRP_IPV4_RULE,
			   err);
	return r->ev < 0 ? r->ev : 0;
}

struct nlreq {
	struct nlmsghdr h;
	union {
		struct rtmsg rt;
		struct fib_rule_hdr fr;
	};
	char attrs[64];
};

static void put_attr(struct nlreq *q, uint16_t type, const void *data,
		     uint16_t len)
{
	struct rtattr *a =
		(struct rtattr *)((char *)q + NLMSG_ALIGN(q->h.nlmsg_len));

	a->rta_type = type;
	a->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(a), data, len);
	q->h.nlmsg_len = NLMSG_ALIGN(q->h.nlmsg_len) + RTA_ALIGN(a->rta_len);
}

static void put_u32(struct nlreq *q, uint16_t type, uint32_t v)
{
	put_attr(q, type, &v, sizeof(v));
}

/* The message that adds entry e (addresses in network order). */
static void build(struct nlreq *q, const struct dard_sw_entry *e,
		  uint32_t ifindex, uint32_t seq)
{
	uint32_t prefix = htonl(e->prefix), via = htonl(e->via);

	memset(q, 0, sizeof(*q));
	q->h.nlmsg_flags =
		NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
	q->h.nlmsg_seq = seq;
	if (e->kind == DARD_SW_RULE) {
		q->h.nlmsg_type = RTM_NEWRULE;
		q->h.nlmsg_len = NLMSG_LENGTH(sizeof(q->fr));
		q->fr.family = AF_INET;
		q->fr.src_len = e->len;
		q->fr.action = FR_ACT_TO_TBL;
		put_u32(q, FRA_PRIORITY, e->pref);
		put_u32(q, FRA_TABLE, e->table);
		if (e->len)
			put_u32(q, FRA_SRC, prefix);
		return;
	}
	q->h.nlmsg_type = RTM_NEWROUTE;
	q->h.nlmsg_len = NLMSG_LENGTH(sizeof(q->rt));
	q->rt.rtm_family = AF_INET;
	q->rt.rtm_dst_len = e->len;
	q->rt.rtm_table = RT_TABLE_UNSPEC;
	q->rt.rtm_protocol = RTPROT_STATIC;
	q->rt.rtm_scope = RT_SCOPE_UNIVERSE;
	q->rt.rtm_type =
		e->kind == DARD_SW_ROUTE ? RTN_UNICAST : RTN_UNREACHABLE;
	put_u32(q, RTA_TABLE, e->table);
	if (e->len)
		put_u32(q, RTA_DST, prefix);
	if (e->kind == DARD_SW_ROUTE) {
		put_u32(q, RTA_GATEWAY, via);
		put_u32(q, RTA_OIF, ifindex);
	}
}

static const char *describe(const struct dard_sw_entry *e, char *buf)
{
	char p[24], v[24];

	dard_prefix_str(e->prefix, e->len, p);
	if (e->kind == DARD_SW_RULE)
		sprintf(buf, "rule pref %u from %s lookup %u", e->pref,
			e->len ? p : "all", e->table);
	else if (e->kind == DARD_SW_UNREACHABLE)
		sprintf(buf, "unreachable %s table %u", p, e->table);
	else
		sprintf(buf, "route %s via %s port %u table %u",
			e->len ? p : "default", dard_addr_str(e->via, v),
			e->port, e->table);
	return buf;
}

/* Whether port (NULL: none) is administratively down here. */
static int port_down(const struct sw_routes *r, const struct sw_port *port)
{
	struct ifreq ifr = {0};

	if (!port)
		return 0;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", port->ifname);
	return !ioctl(r->ioctl_sock, SIOCGIFFLAGS, &ifr) &&
	       !(ifr.ifr_flags & IFF_UP);
}

void sw_routes_reconcile(struct sw_routes *r, uint64_t now)
{
	struct nlreq q;
	char what[96];
	uint32_t i;
	int ret;

	r->reconciles++;
	r->pending = 0;
	r->last_ns = now;
	for (i = 0; i < r->n; i++) {
		build(&q, &r->e[i], r->port[i] ? r->port[i]->ifindex : 0,
		      ++r->seq);
		ret = sw_nl_talk(r->req, &q.h, NULL, NULL);
		if (ret == -EEXIST)
			continue;
		if (!ret) {
			r->restored++;
			/* The network (a flapping link) can cause these. */
			dard_log_ratelimited(&r->restore_rl, now, DARD_LOG_INFO,
					     "restored %s",
					     describe(&r->e[i], what));
		} else if (port_down(r, r->port[i])) {
			/*
			 * Linux refuses a nexthop out of a down port (ENETDOWN,
			 * or ENETUNREACH: its /31 went with it); the port's up
			 * event brings us back.
			 */
			r->skipped_down++;
		} else {
			r->failed++;
			dard_log_ratelimited(&r->fail_rl, now, DARD_LOG_WARN,
					     "Unable to add %s: %s",
					     describe(&r->e[i], what),
					     strerror(-ret));
		}
	}
}

void sw_routes_event(struct sw_routes *r)
{
	char buf[8192];

	/* What changed does not matter: any change may have removed ours. */
	while (recv(r->ev, buf, sizeof(buf), MSG_DONTWAIT) > 0 ||
	       errno == ENOBUFS)
		r->pending = 1;
	r->events++;
}

void sw_routes_log(const struct sw_routes *r)
{
	log_info("tables: %u routes and rules, %llu reconciles on %llu "
		 "events, %llu restored, %llu waited for a down port, "
		 "%llu failed",
		 r->n, (unsigned long long)r->reconciles,
		 (unsigned long long)r->events, (unsigned long long)r->restored,
		 (unsigned long long)r->skipped_down,
		 (unsigned long long)r->failed);
}

void sw_routes_close(struct sw_routes *r)
{
	if (r->req >= 0)
		close(r->req);
	if (r->ev >= 0)
		close(r->ev);
	if (r->ioctl_sock >= 0)
		close(r->ioctl_sock);
	free(r->e);
	free(r->port);
	r->req = r->ev = r->ioctl_sock = -1;
	r->e = NULL;
	r->port = NULL;
}
