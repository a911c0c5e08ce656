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
#include "addr6.h"
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
	r->has4 = dard_family_has4(p->opts.family);
	r->has6 = dard_family_has6(p->opts.family);
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
	r->ev = sw_nl_open(
		RTMGRP_LINK | RTMGRP_IPV4_ROUTE | RTMGRP_IPV4_RULE |
			(r->has6 ? RTMGRP_IPV6_ROUTE |
					   1u << (RTNLGRP_IPV6_RULE - 1)
				 : 0),
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

/* The most a message carries: an IPv6 route's table, oif, dst, gateway. */
_Static_assert(sizeof(((struct nlreq *)0)->attrs) >=
		       2 * RTA_SPACE(sizeof(uint32_t)) + 2 * RTA_SPACE(16),
	       "room for an IPv6 route's attributes");

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

/*
 * The message that adds entry e in family AF_INET or AF_INET6 (addresses
 * in network order).
 */
static void build(struct nlreq *q, const struct dard_sw_entry *e, int family,
		  uint32_t ifindex, uint32_t seq)
{
	uint32_t prefix = htonl(e->prefix), via = htonl(e->via);
	int v6 = family == AF_INET6;
	const void *pre = v6 ? (const void *)&e->prefix6.addr : &prefix;
	const void *gw = v6 ? (const void *)&e->via6 : &via;
	uint16_t alen = v6 ? 16 : 4;
	uint8_t len = v6 ? e->prefix6.len : e->len;

	memset(q, 0, sizeof(*q));
	q->h.nlmsg_flags =
		NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
	q->h.nlmsg_seq = seq;
	if (e->kind == DARD_SW_RULE) {
		q->h.nlmsg_type = RTM_NEWRULE;
		q->h.nlmsg_len = NLMSG_LENGTH(sizeof(q->fr));
		q->fr.family = family;
		q->fr.src_len = len;
		q->fr.action = FR_ACT_TO_TBL;
		put_u32(q, FRA_PRIORITY, e->pref);
		put_u32(q, FRA_TABLE, e->table);
		if (len)
			put_attr(q, FRA_SRC, pre, alen);
		return;
	}
	q->h.nlmsg_type = RTM_NEWROUTE;
	q->h.nlmsg_len = NLMSG_LENGTH(sizeof(q->rt));
	q->rt.rtm_family = family;
	q->rt.rtm_dst_len = len;
	q->rt.rtm_table = RT_TABLE_UNSPEC;
	q->rt.rtm_protocol = RTPROT_STATIC;
	q->rt.rtm_scope = RT_SCOPE_UNIVERSE;
	q->rt.rtm_type =
		e->kind == DARD_SW_ROUTE ? RTN_UNICAST : RTN_UNREACHABLE;
	put_u32(q, RTA_TABLE, e->table);
	if (len)
		put_attr(q, RTA_DST, pre, alen);
	if (e->kind == DARD_SW_ROUTE) {
		put_attr(q, RTA_GATEWAY, gw, alen);
		put_u32(q, RTA_OIF, ifindex);
	}
}

static const char *describe(const struct dard_sw_entry *e, int family,
			    char *buf)
{
	char p[DARD_PREFIX6_STRLEN], v[INET6_ADDRSTRLEN];

	if (family == AF_INET6) {
		dard_prefix6_str(&e->prefix6.addr, e->prefix6.len, p);
		dard_addr6_str(&e->via6, v);
	} else {
		dard_prefix_str(e->prefix, e->len, p);
		dard_addr_str(e->via, v);
	}
	if (e->kind == DARD_SW_RULE)
		sprintf(buf, "rule pref %u from %s lookup %u", e->pref,
			e->len ? p : "all", e->table);
	else if (e->kind == DARD_SW_UNREACHABLE)
		sprintf(buf, "unreachable %s table %u", p, e->table);
	else
		sprintf(buf, "route %s via %s port %u table %u",
			e->len ? p : "default", v, e->port, e->table);
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

/* Adds entry i in family if missing, and counts what happened. */
static void reconcile_one(struct sw_routes *r, uint32_t i, int family,
			  uint64_t now)
{
	char what[160];
	struct nlreq q;
	int ret;

	build(&q, &r->e[i], family, r->port[i] ? r->port[i]->ifindex : 0,
	      ++r->seq);
	ret = sw_nl_talk(r->req, &q.h, NULL, NULL);
	if (ret == -EEXIST)
		return;
	if (!ret) {
		r->restored++;
		/* The network (a flapping link) can cause these. */
		dard_log_ratelimited(&r->restore_rl, now, DARD_LOG_INFO,
				     "restored %s",
				     describe(&r->e[i], family, what));
	} else if (port_down(r, r->port[i])) {
		/*
		 * Linux refuses a nexthop out of a down port (ENETDOWN, or
		 * ENETUNREACH: its /31 went with it); the port's up event
		 * brings us back.
		 */
		r->skipped_down++;
	} else {
		r->failed++;
		dard_log_ratelimited(
			&r->fail_rl, now, DARD_LOG_WARN, "Unable to add %s: %s",
			describe(&r->e[i], family, what), strerror(-ret));
	}
}

void sw_routes_reconcile(struct sw_routes *r, uint64_t now)
{
	uint32_t i;

	r->reconciles++;
	r->pending = 0;
	r->last_ns = now;
	for (i = 0; i < r->n; i++) {
		if (r->has4 && !r->e[i].only6)
			reconcile_one(r, i, AF_INET, now);
		if (r->has6)
			reconcile_one(r, i, AF_INET6, now);
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
	log_info("tables: %u routes and rules%s, %llu reconciles on %llu "
		 "events, %llu restored, %llu waited for a down port, "
		 "%llu failed",
		 r->n,
		 r->has4 && r->has6 ? " in each family"
		 : r->has6	    ? " in IPv6"
				    : "",
		 (unsigned long long)r->reconciles,
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
