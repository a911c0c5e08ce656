// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The dard device over rtnetlink (libmnl): finding it by its name or its
 * uplink's (IFLA_LINK), creating it as `ip link add NAME link UPLINK type
 * dard' would, bringing it up, deleting it, and moving the host's ID
 * route onto it and back.
 *
 * The route: the rendered batch gives the uplink `ID_PREFIX via PEER dev
 * eth0 src ID'. Attach copies that route to DARD_KMOD_PARKED_METRIC and
 * replaces the original with `ID_PREFIX dev dard0 src ID'; the parked copy
 * takes over by itself when the device goes (a deleted device takes its
 * routes along), and detach puts it back where it was.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>

#include "dp_kmod.h"
#include "dp_link.h"

enum { MAX_PARKED = 16 };

struct find {
	uint32_t want; /* the ifindex of the name asked for */
	struct dard_klink *dev;
	int found;
};

static int info_kind_cb(const struct nlattr *a, void *arg)
{
	const char **kind = arg;

	/* The kernel puts the kind with its NUL (nla_put_string); one
	 * without is not a kind we could compare. */
	if (mnl_attr_get_type(a) == IFLA_INFO_KIND &&
	    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
		*kind = mnl_attr_get_str(a);
	return MNL_CB_OK;
}

struct link_attrs {
	const char *name, *kind;
	uint32_t link;
};

static int link_attr_cb(const struct nlattr *a, void *arg)
{
	struct link_attrs *la = arg;

	switch (mnl_attr_get_type(a)) {
	case IFLA_IFNAME:
		if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
			la->name = mnl_attr_get_str(a);
		break;
	case IFLA_LINK:
		if (mnl_attr_validate(a, MNL_TYPE_U32) == 0)
			la->link = mnl_attr_get_u32(a);
		break;
	case IFLA_LINKINFO:
		if (mnl_attr_validate(a, MNL_TYPE_NESTED) == 0)
			mnl_attr_parse_nested(a, info_kind_cb, &la->kind);
		break;
	}
	return MNL_CB_OK;
}

static int is_dard(const char *kind)
{
	return kind && !strcmp(kind, DARD_LINK_KIND);
}

static int find_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	struct link_attrs la = {};
	struct find *f = arg;
	uint32_t index;

	if (f->found || nlh->nlmsg_type != RTM_NEWLINK ||
	    nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*ifi))
		return MNL_CB_OK;
	index = ifi->ifi_index;
	mnl_attr_parse(nlh, sizeof(*ifi), link_attr_cb, &la);
	if (!is_dard(la.kind) || (index != f->want && la.link != f->want))
		return MNL_CB_OK;
	f->found = 1;
	f->dev->ifindex = index;
	f->dev->link = la.link;
	snprintf(f->dev->name, sizeof(f->dev->name), "%s",
		 la.name ? la.name : "");
	return MNL_CB_OK;
}

int dard_klink_find(const char *ifname, struct dard_klink *dev)
{
	char buf[256];
	struct find f = {if_nametoindex(ifname), dev, 0};
	int ret;

	if (!f.want)
		return -ENODEV;
	ret = dard_rt_talk(dard_rt_link_msg(buf, RTM_GETLINK, NLM_F_DUMP, 0),
			   find_cb, &f);
	if (ret)
		return ret;
	return f.found ? 0 : -ENOENT;
}

int dard_klink_create(const char *name, uint32_t uplink, uint64_t age_ns,
		      uint64_t bytes, uint8_t dscp)
{
	char buf[512];
	struct nlmsghdr *nlh;
	struct nlattr *info, *data;

	nlh = dard_rt_link_msg(buf, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, 0);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	mnl_attr_put_u32(nlh, IFLA_LINK, uplink);
	info = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, DARD_LINK_KIND);
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	mnl_attr_put_u64(nlh, IFLA_DARD_ELEPHANT_AGE_NS, age_ns);
	mnl_attr_put_u64(nlh, IFLA_DARD_ELEPHANT_BYTES, bytes);
	mnl_attr_put_u8(nlh, IFLA_DARD_ELEPHANT_DSCP, dscp);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, info);
	return dard_rt_talk(nlh, NULL, NULL);
}

int dard_klink_up(uint32_t ifindex)
{
	char buf[256];
	struct nlmsghdr *nlh = dard_rt_link_msg(buf, RTM_NEWLINK, 0, ifindex);
	struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);

	ifi->ifi_flags = IFF_UP;
	ifi->ifi_change = IFF_UP;
	return dard_rt_talk(nlh, NULL, NULL);
}

int dard_klink_del(uint32_t ifindex)
{
	char buf[256];

	return dard_rt_talk(dard_rt_link_msg(buf, RTM_DELLINK, 0, ifindex),
			    NULL, NULL);
}

/* An IPv4 unicast route of the main table, as much as we copy of it:
 * its gateway an IPv4 one, or an IPv6 one by RTA_VIA (4in6's ID route,
 * `via inet6 fe80::1'). */
struct route {
	struct rtmsg rtm;
	uint32_t dst, gateway, prefsrc, oif, priority;
	char metrics[256];
	uint16_t metrics_len;
	char via[sizeof(struct rtvia) + 16];
	uint16_t via_len;
};

struct routes {
	uint32_t oif, dst, priority;
	unsigned plen, match_dst;
	struct route r[MAX_PARKED];
	unsigned n;
};

static int route_attr_cb(const struct nlattr *a, void *arg)
{
	struct route *r = arg;
	uint16_t type = mnl_attr_get_type(a);
	uint16_t len = mnl_attr_get_payload_len(a);

	if (type == RTA_METRICS) {
		if (len <= sizeof(r->metrics)) {
			memcpy(r->metrics, mnl_attr_get_payload(a), len);
			r->metrics_len = len;
		}
		return MNL_CB_OK;
	}
	if (type == RTA_VIA) {
		if (len <= sizeof(r->via)) {
			memcpy(r->via, mnl_attr_get_payload(a), len);
			r->via_len = len;
		}
		return MNL_CB_OK;
	}
	if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
		return MNL_CB_OK;
	if (type == RTA_DST)
		r->dst = mnl_attr_get_u32(a);
	else if (type == RTA_GATEWAY)
		r->gateway = mnl_attr_get_u32(a);
	else if (type == RTA_PREFSRC)
		r->prefsrc = mnl_attr_get_u32(a);
	else if (type == RTA_OIF)
		r->oif = mnl_attr_get_u32(a);
	else if (type == RTA_PRIORITY)
		r->priority = mnl_attr_get_u32(a);
	return MNL_CB_OK;
}

static int route_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct rtmsg *rtm = mnl_nlmsg_get_payload(nlh);
	struct routes *rs = arg;
	struct route r = {};

	if (nlh->nlmsg_type != RTM_NEWROUTE ||
	    nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*rtm) ||
	    rtm->rtm_family != AF_INET || rtm->rtm_table != RT_TABLE_MAIN ||
	    rtm->rtm_type != RTN_UNICAST || rs->n == MAX_PARKED)
		return MNL_CB_OK;
	r.rtm = *rtm;
	mnl_attr_parse(nlh, sizeof(*rtm), route_attr_cb, &r);
	if (r.oif != rs->oif || r.priority != rs->priority)
		return MNL_CB_OK;
	if (rs->match_dst && (r.dst != rs->dst || rtm->rtm_dst_len != rs->plen))
		return MNL_CB_OK;
	rs->r[rs->n++] = r;
	return MNL_CB_OK;
}

static int routes_find(struct routes *rs)
{
	char buf[256];
	struct nlmsghdr *nlh = dard_rt_msg(buf, RTM_GETROUTE, NLM_F_DUMP);
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));

	rtm->rtm_family = AF_INET;
	return dard_rt_talk(nlh, route_cb, rs);
}

/* r again at priority (0: none), or deleted; everything else as it was. */
static int route_put(const struct route *r, uint16_t type, uint32_t priority)
{
	char buf[1024];
	struct nlmsghdr *nlh = dard_rt_msg(
		buf, type,
		type == RTM_NEWROUTE ? NLM_F_CREATE | NLM_F_REPLACE : 0);
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));

	*rtm = r->rtm;
	rtm->rtm_flags = 0;
	mnl_attr_put_u32(nlh, RTA_DST, r->dst);
	mnl_attr_put_u32(nlh, RTA_OIF, r->oif);
	if (r->gateway)
		mnl_attr_put_u32(nlh, RTA_GATEWAY, r->gateway);
	if (r->via_len)
		mnl_attr_put(nlh, RTA_VIA, r->via_len, r->via);
	if (r->prefsrc)
		mnl_attr_put_u32(nlh, RTA_PREFSRC, r->prefsrc);
	if (priority)
		mnl_attr_put_u32(nlh, RTA_PRIORITY, priority);
	if (r->metrics_len)
		mnl_attr_put(nlh, RTA_METRICS, r->metrics_len, r->metrics);
	return dard_rt_talk(nlh, NULL, NULL);
}

int dard_klink_route(const struct dard_klink *dev, uint32_t id_net,
		     unsigned plen, uint32_t id)
{
	struct routes rs = {.oif = dev->link,
			    .dst = htonl(id_net),
			    .plen = plen,
			    .match_dst = 1};
	struct route mine = {};
	int ret;

	if (dev->link) {
		ret = routes_find(&rs);
		if (ret)
			return ret;
		if (rs.n) {
			ret = route_put(&rs.r[0], RTM_NEWROUTE,
					DARD_KMOD_PARKED_METRIC);
			if (ret)
				return ret;
		}
	}
	mine.rtm.rtm_family = AF_INET;
	mine.rtm.rtm_dst_len = plen;
	mine.rtm.rtm_table = RT_TABLE_MAIN;
	mine.rtm.rtm_protocol = RTPROT_STATIC;
	mine.rtm.rtm_scope = RT_SCOPE_LINK;
	mine.rtm.rtm_type = RTN_UNICAST;
	mine.dst = htonl(id_net);
	mine.oif = dev->ifindex;
	mine.prefsrc = htonl(id);
	return route_put(&mine, RTM_NEWROUTE, 0);
}

int dard_klink_unpark(uint32_t uplink)
{
	struct routes rs = {.oif = uplink, .priority = DARD_KMOD_PARKED_METRIC};
	unsigned i;
	int ret = routes_find(&rs);

	for (i = 0; i < rs.n && !ret; i++) {
		ret = route_put(&rs.r[i], RTM_NEWROUTE, 0);
		if (!ret)
			ret = route_put(&rs.r[i], RTM_DELROUTE,
					DARD_KMOD_PARKED_METRIC);
	}
	return ret;
}
