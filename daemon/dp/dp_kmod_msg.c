// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The generic netlink messages of the kernel module's family, built into
 * a buffer and read from one, without I/O: the unit tests build replies
 * by hand and the fuzzer (tests/fuzz/kmsg_fuzz.c) feeds arbitrary ones.
 * Addresses and ports stay in network byte order, as the kernel puts
 * them (nla_put_be32) and as struct dard_flow_key holds them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/genetlink.h>

#include "dp_kmod.h"

struct nlmsghdr *dard_kmsg_new(char *buf, uint16_t family, uint8_t cmd,
			       uint16_t flags, uint32_t seq)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = family == GENL_ID_CTRL ? 1 : DARD_GENL_VERSION;
	return nlh;
}

struct nlmsghdr *dard_kmsg_getfamily(char *buf, uint32_t seq)
{
	struct nlmsghdr *nlh =
		dard_kmsg_new(buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0, seq);

	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, DARD_GENL_NAME);
	return nlh;
}

void dard_kmsg_put_dev(struct nlmsghdr *nlh, uint32_t ifindex)
{
	mnl_attr_put_u32(nlh, DARD_A_IFINDEX, ifindex);
}

int dard_kmsg_put_dest(struct nlmsghdr *nlh, uint32_t id,
		       const struct dard_alias_pair *paths, unsigned n,
		       const uint8_t *next)
{
	struct nlattr *all, *one;
	unsigned i;

	if (!n || n > DARD_PATHS_MAX)
		return -ERANGE;
	mnl_attr_put_u32(nlh, DARD_A_DEST, htonl(id));
	all = mnl_attr_nest_start(nlh, DARD_A_PATHS);
	for (i = 0; i < n; i++) {
		one = mnl_attr_nest_start(nlh, DARD_A_PATH);
		mnl_attr_put_u32(nlh, DARD_PATH_A_SADDR, paths[i].saddr);
		mnl_attr_put_u32(nlh, DARD_PATH_A_DADDR, paths[i].daddr);
		/* An order that leaves the paths is no order: the
		 * module's default (i + 1) then, as the BPF backend. */
		if (next && next[i] < n)
			mnl_attr_put_u8(nlh, DARD_PATH_A_NEXT, next[i]);
		mnl_attr_nest_end(nlh, one);
	}
	mnl_attr_nest_end(nlh, all);
	return 0;
}

void dard_kmsg_put_flow(struct nlmsghdr *nlh, const struct dard_flow_key *key,
			const struct dard_alias_pair *path)
{
	struct nlattr *nest = mnl_attr_nest_start(nlh, DARD_A_FLOW);

	mnl_attr_put_u32(nlh, DARD_FLOW_A_SADDR, key->saddr);
	mnl_attr_put_u32(nlh, DARD_FLOW_A_DADDR, key->daddr);
	mnl_attr_put_u16(nlh, DARD_FLOW_A_SPORT, key->sport);
	mnl_attr_put_u16(nlh, DARD_FLOW_A_DPORT, key->dport);
	mnl_attr_put_u8(nlh, DARD_FLOW_A_PROTO, key->proto);
	if (path) {
		mnl_attr_put_u32(nlh, DARD_FLOW_A_PATH_SADDR, path->saddr);
		mnl_attr_put_u32(nlh, DARD_FLOW_A_PATH_DADDR, path->daddr);
	}
	mnl_attr_nest_end(nlh, nest);
}

/* The attributes of one level by type, each checked against its type. */
_Static_assert(DARD_A_MAX < 32 && DARD_FLOW_A_MAX < 32 && CTRL_ATTR_MAX < 32,
	       "struct attrs holds every attribute type");
struct attrs {
	const struct nlattr *tb[32];
	const enum mnl_attr_data_type *types;
	unsigned max;
	int bad;
};

static int attr_cb(const struct nlattr *a, void *arg)
{
	struct attrs *at = arg;
	uint16_t type = mnl_attr_get_type(a);

	/* Unknown: newer than us; skipped, as the kernel's own parsers do. */
	if (type > at->max || !at->types[type])
		return MNL_CB_OK;
	if (mnl_attr_validate(a, at->types[type]) < 0) {
		at->bad = 1;
		return MNL_CB_ERROR;
	}
	at->tb[type] = a;
	return MNL_CB_OK;
}

static int parse_msg(const struct nlmsghdr *nlh, struct attrs *at)
{
	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + GENL_HDRLEN)
		return -EINVAL;
	if (mnl_attr_parse(nlh, GENL_HDRLEN, attr_cb, at) < 0 || at->bad)
		return -EINVAL;
	return 0;
}

static int parse_nest(const struct nlattr *nest, struct attrs *at)
{
	if (mnl_attr_parse_nested(nest, attr_cb, at) < 0 || at->bad)
		return -EINVAL;
	return 0;
}

static uint64_t get_u64(const struct nlattr *a)
{
	return a ? mnl_attr_get_u64(a) : 0;
}

static uint32_t get_u32(const struct nlattr *a)
{
	return a ? mnl_attr_get_u32(a) : 0;
}

static const enum mnl_attr_data_type ctrl_types[CTRL_ATTR_MAX + 1] = {
	[CTRL_ATTR_FAMILY_ID] = MNL_TYPE_U16,
	[CTRL_ATTR_MCAST_GROUPS] = MNL_TYPE_NESTED,
};

static const enum mnl_attr_data_type grp_types[CTRL_ATTR_MCAST_GRP_MAX + 1] = {
	[CTRL_ATTR_MCAST_GRP_NAME] = MNL_TYPE_NUL_STRING,
	[CTRL_ATTR_MCAST_GRP_ID] = MNL_TYPE_U32,
};

int dard_kmsg_family(const struct nlmsghdr *nlh, uint16_t *family,
		     uint32_t *mcgrp)
{
	struct attrs at = {.types = ctrl_types, .max = CTRL_ATTR_MAX};
	const struct nlattr *g;
	int ret =
		nlh->nlmsg_type == GENL_ID_CTRL ? parse_msg(nlh, &at) : -EINVAL;

	if (ret)
		return ret;
	if (!at.tb[CTRL_ATTR_FAMILY_ID])
		return -EINVAL;
	*family = mnl_attr_get_u16(at.tb[CTRL_ATTR_FAMILY_ID]);
	*mcgrp = 0;
	if (!at.tb[CTRL_ATTR_MCAST_GROUPS])
		return 0;
	mnl_attr_for_each_nested(g, at.tb[CTRL_ATTR_MCAST_GROUPS])
	{
		struct attrs ga = {.types = grp_types,
				   .max = CTRL_ATTR_MCAST_GRP_MAX};

		if (parse_nest(g, &ga))
			return -EINVAL;
		if (ga.tb[CTRL_ATTR_MCAST_GRP_NAME] &&
		    ga.tb[CTRL_ATTR_MCAST_GRP_ID] &&
		    !strcmp(mnl_attr_get_str(ga.tb[CTRL_ATTR_MCAST_GRP_NAME]),
			    DARD_GENL_MCGRP))
			*mcgrp =
				mnl_attr_get_u32(ga.tb[CTRL_ATTR_MCAST_GRP_ID]);
	}
	return 0;
}

static const enum mnl_attr_data_type flow_types[DARD_FLOW_A_MAX + 1] = {
	[DARD_FLOW_A_SADDR] = MNL_TYPE_U32,
	[DARD_FLOW_A_DADDR] = MNL_TYPE_U32,
	[DARD_FLOW_A_SPORT] = MNL_TYPE_U16,
	[DARD_FLOW_A_DPORT] = MNL_TYPE_U16,
	[DARD_FLOW_A_PROTO] = MNL_TYPE_U8,
	[DARD_FLOW_A_PATH_SADDR] = MNL_TYPE_U32,
	[DARD_FLOW_A_PATH_DADDR] = MNL_TYPE_U32,
	[DARD_FLOW_A_PATH_IDX] = MNL_TYPE_U32,
	[DARD_FLOW_A_FIRST_NS] = MNL_TYPE_U64,
	[DARD_FLOW_A_LAST_NS] = MNL_TYPE_U64,
	[DARD_FLOW_A_BYTES] = MNL_TYPE_U64,
	[DARD_FLOW_A_PACKETS] = MNL_TYPE_U64,
	[DARD_FLOW_A_ELEPHANT_NS] = MNL_TYPE_U64,
	[DARD_FLOW_A_MOVES] = MNL_TYPE_U32,
	[DARD_FLOW_A_FLAGS] = MNL_TYPE_U32,
	[DARD_FLOW_A_PAYLOAD] = MNL_TYPE_U64,
};

/*
 * What the module does not send (txhash, dsack: BPF's in-band repair)
 * is 0; live_gen is DARD_LIVE_GEN_UNCHECKED, as for a flow just moved.
 */
int dard_kmsg_flow_nest(const struct nlattr *nest, struct dard_flow_key *key,
			struct dard_flow *f)
{
	struct attrs at = {.types = flow_types, .max = DARD_FLOW_A_MAX};
	const struct nlattr *const *tb = at.tb;

	if (mnl_attr_get_payload_len(nest) < MNL_ATTR_HDRLEN ||
	    parse_nest(nest, &at))
		return -EINVAL;
	if (!tb[DARD_FLOW_A_SADDR] || !tb[DARD_FLOW_A_DADDR] ||
	    !tb[DARD_FLOW_A_PROTO])
		return -EINVAL;
	memset(key, 0, sizeof(*key));
	memset(f, 0, sizeof(*f));
	key->saddr = mnl_attr_get_u32(tb[DARD_FLOW_A_SADDR]);
	key->daddr = mnl_attr_get_u32(tb[DARD_FLOW_A_DADDR]);
	key->sport = tb[DARD_FLOW_A_SPORT]
			     ? mnl_attr_get_u16(tb[DARD_FLOW_A_SPORT])
			     : 0;
	key->dport = tb[DARD_FLOW_A_DPORT]
			     ? mnl_attr_get_u16(tb[DARD_FLOW_A_DPORT])
			     : 0;
	key->proto = mnl_attr_get_u8(tb[DARD_FLOW_A_PROTO]);
	f->path.saddr = get_u32(tb[DARD_FLOW_A_PATH_SADDR]);
	f->path.daddr = get_u32(tb[DARD_FLOW_A_PATH_DADDR]);
	f->path_idx = tb[DARD_FLOW_A_PATH_IDX]
			      ? mnl_attr_get_u32(tb[DARD_FLOW_A_PATH_IDX])
			      : DARD_PATHS_MAX;
	f->first_ns = get_u64(tb[DARD_FLOW_A_FIRST_NS]);
	f->last_ns = get_u64(tb[DARD_FLOW_A_LAST_NS]);
	f->bytes = get_u64(tb[DARD_FLOW_A_BYTES]);
	f->packets = get_u64(tb[DARD_FLOW_A_PACKETS]);
	f->payload = get_u64(tb[DARD_FLOW_A_PAYLOAD]);
	f->elephant_ns = get_u64(tb[DARD_FLOW_A_ELEPHANT_NS]);
	f->moves = get_u32(tb[DARD_FLOW_A_MOVES]);
	f->flags = get_u32(tb[DARD_FLOW_A_FLAGS]) & __DARD_FLOW_F_ALL;
	f->live_gen = DARD_LIVE_GEN_UNCHECKED;
	return 0;
}

static const enum mnl_attr_data_type dev_types[DARD_A_MAX + 1] = {
	[DARD_A_IFINDEX] = MNL_TYPE_U32,
	[DARD_A_ID] = MNL_TYPE_U32,
	[DARD_A_ELEPHANT_AGE_NS] = MNL_TYPE_U64,
	[DARD_A_ELEPHANT_BYTES] = MNL_TYPE_U64,
	[DARD_A_ELEPHANT_DSCP] = MNL_TYPE_U8,
	[DARD_A_FLOWS] = MNL_TYPE_U32,
	[DARD_A_FLOWS_MAX] = MNL_TYPE_U32,
	[DARD_A_DESTS] = MNL_TYPE_U32,
	[DARD_A_STATS] = MNL_TYPE_NESTED,
	[DARD_A_LIVE_GEN] = MNL_TYPE_U32,
	[DARD_A_FLOW] = MNL_TYPE_NESTED,
	[DARD_A_EVENT] = MNL_TYPE_U32,
	[DARD_A_TIME_NS] = MNL_TYPE_U64,
	[DARD_A_WEIGHTS] = MNL_TYPE_BINARY,
};

int dard_kmsg_flow(const struct nlmsghdr *nlh, struct dard_flow_key *key,
		   struct dard_flow *flow, uint32_t *ifindex)
{
	struct attrs at = {.types = dev_types, .max = DARD_A_MAX};
	int ret = parse_msg(nlh, &at);

	if (ret)
		return ret;
	if (!at.tb[DARD_A_FLOW])
		return -EINVAL;
	*ifindex = get_u32(at.tb[DARD_A_IFINDEX]);
	return dard_kmsg_flow_nest(at.tb[DARD_A_FLOW], key, flow);
}

int dard_kmsg_event(const struct nlmsghdr *nlh, struct dard_event *ev,
		    uint32_t *ifindex)
{
	struct attrs at = {.types = dev_types, .max = DARD_A_MAX};
	struct dard_flow f;
	uint32_t type;
	int ret = parse_msg(nlh, &at);

	if (ret)
		return ret;
	if (!at.tb[DARD_A_EVENT] || !at.tb[DARD_A_FLOW] ||
	    !at.tb[DARD_A_IFINDEX])
		return -EINVAL;
	type = mnl_attr_get_u32(at.tb[DARD_A_EVENT]);
	if (type != DARD_EVENT_ELEPHANT && type != DARD_EVENT_END)
		return -EINVAL;
	memset(ev, 0, sizeof(*ev));
	ret = dard_kmsg_flow_nest(at.tb[DARD_A_FLOW], &ev->key, &f);
	if (ret)
		return ret;
	ev->type = type;
	ev->path = f.path;
	ev->bytes = f.bytes;
	ev->ts_ns = get_u64(at.tb[DARD_A_TIME_NS]);
	*ifindex = mnl_attr_get_u32(at.tb[DARD_A_IFINDEX]);
	return 0;
}

int dard_kmsg_weights(const struct nlmsghdr *nlh, uint16_t *slots, unsigned *n)
{
	struct attrs at = {.types = dev_types, .max = DARD_A_MAX};
	const struct nlattr *a;
	unsigned len;
	int ret = parse_msg(nlh, &at);

	if (ret)
		return ret;
	a = at.tb[DARD_A_WEIGHTS];
	if (!a)
		return 0;
	len = mnl_attr_get_payload_len(a);
	if (!len || len % sizeof(*slots) ||
	    len > DARD_PATHS_MAX * sizeof(*slots))
		return -EINVAL;
	*n = len / sizeof(*slots);
	memcpy(slots, mnl_attr_get_payload(a), len);
	return 1;
}

/* DARD_A_STATS: attribute i + 1 is counter i; newer ones are skipped. */
static int stats_cb(const struct nlattr *a, void *arg)
{
	uint64_t *stats = arg;
	uint16_t type = mnl_attr_get_type(a);

	if (!type || type > __DARD_STAT_MAX)
		return MNL_CB_OK;
	if (mnl_attr_validate(a, MNL_TYPE_U64) < 0)
		return MNL_CB_ERROR;
	stats[type - 1] = mnl_attr_get_u64(a);
	return MNL_CB_OK;
}

int dard_kmsg_device(const struct nlmsghdr *nlh, struct dard_kdev *dev)
{
	struct attrs at = {.types = dev_types, .max = DARD_A_MAX};
	const struct nlattr *const *tb = at.tb;
	int ret = parse_msg(nlh, &at);

	if (ret)
		return ret;
	if (!tb[DARD_A_IFINDEX])
		return -EINVAL;
	memset(dev, 0, sizeof(*dev));
	dev->ifindex = mnl_attr_get_u32(tb[DARD_A_IFINDEX]);
	dev->id = get_u32(tb[DARD_A_ID]);
	dev->flows = get_u32(tb[DARD_A_FLOWS]);
	dev->flows_max = get_u32(tb[DARD_A_FLOWS_MAX]);
	dev->dests = get_u32(tb[DARD_A_DESTS]);
	dev->live_gen = get_u32(tb[DARD_A_LIVE_GEN]);
	dev->elephant_age_ns = get_u64(tb[DARD_A_ELEPHANT_AGE_NS]);
	dev->elephant_bytes = get_u64(tb[DARD_A_ELEPHANT_BYTES]);
	dev->elephant_dscp = tb[DARD_A_ELEPHANT_DSCP]
				     ? mnl_attr_get_u8(tb[DARD_A_ELEPHANT_DSCP])
				     : DARD_DSCP_INHERIT;
	if (tb[DARD_A_STATS] &&
	    mnl_attr_parse_nested(tb[DARD_A_STATS], stats_cb, dev->stats) < 0)
		return -EINVAL;
	return 0;
}

static int ext_cb(const struct nlattr *a, void *arg)
{
	struct {
		char *msg;
		size_t len;
	} *out = arg;

	if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
	    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
		snprintf(out->msg, out->len, "%s", mnl_attr_get_str(a));
	return MNL_CB_OK;
}

/*
 * The reason (NL_SET_ERR_MSG) comes as TLVs after the request echoed
 * back, or after its header alone when the kernel capped it.
 */
int dard_kmsg_error(const struct nlmsghdr *nlh, char *msg, size_t len)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	struct {
		char *msg;
		size_t len;
	} out = {msg, len};
	size_t off = sizeof(*e);

	if (len)
		msg[0] = '\0';
	if (nlh->nlmsg_len < MNL_NLMSG_HDRLEN + sizeof(*e))
		return -EBADMSG;
	if (e->error > 0 || e->error < -4095)
		return -EBADMSG;
	if (!e->error)
		return 0;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (e->msg.nlmsg_len < sizeof(e->msg))
			return e->error;
		off += e->msg.nlmsg_len - sizeof(e->msg);
	}
	if ((nlh->nlmsg_flags & NLM_F_ACK_TLVS) && len &&
	    MNL_NLMSG_HDRLEN + off < nlh->nlmsg_len)
		mnl_attr_parse(nlh, off, ext_cb, &out);
	return e->error;
}
