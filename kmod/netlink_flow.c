// SPDX-License-Identifier: GPL-2.0
/*
 * The family's flow side (netlink.c has the family): MOVE_FLOW and
 * DEL_FLOW, the GET_FLOW dump, and the events multicast to the events
 * group. A flow is named by its key; what it carries is a snapshot
 * taken under its lock.
 */
#include <linux/rtnetlink.h>
#include <net/genetlink.h>
#include <net/sock.h>
#include "device.h"
#include "flows.h"
#include "netlink.h"
#include "netlink_flow.h"

/* A flow as userspace names it: its key, and for a move, the pair. */
static const struct nla_policy flow_policy[DARD_FLOW_A_PATH_DADDR + 1] = {
	[DARD_FLOW_A_SADDR] = {.type = NLA_BE32},
	[DARD_FLOW_A_DADDR] = {.type = NLA_BE32},
	[DARD_FLOW_A_SPORT] = {.type = NLA_BE16},
	[DARD_FLOW_A_DPORT] = {.type = NLA_BE16},
	[DARD_FLOW_A_PROTO] = {.type = NLA_U8},
	[DARD_FLOW_A_PATH_SADDR] = {.type = NLA_BE32},
	[DARD_FLOW_A_PATH_DADDR] = {.type = NLA_BE32},
};

/* MOVE_FLOW and DEL_FLOW. */
const struct nla_policy dard_flow_op_policy[DARD_A_FLOW + 1] = {
	DEV_NAME_POLICY,
	[DARD_A_FLOW] = NLA_POLICY_NESTED(flow_policy),
};

/* DARD_A_FLOW's key, and its pair if pair is not NULL. */
static int get_flow(struct genl_info *info, struct dard_flow_key *key,
		    struct dard_alias_pair *pair)
{
	struct nlattr *tb[DARD_FLOW_A_PATH_DADDR + 1];
	int ret;

	ret = need(info, DARD_A_FLOW);
	if (ret)
		return ret;
	ret = nla_parse_nested(tb, DARD_FLOW_A_PATH_DADDR,
			       info->attrs[DARD_A_FLOW], flow_policy,
			       info->extack);
	if (ret)
		return ret;
	if (!tb[DARD_FLOW_A_SADDR] || !tb[DARD_FLOW_A_DADDR] ||
	    !tb[DARD_FLOW_A_PROTO]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[DARD_A_FLOW],
				    "a flow key needs SADDR, DADDR and PROTO");
		return -EINVAL;
	}
	memset(key, 0, sizeof(*key));
	key->saddr = nla_get_in_addr(tb[DARD_FLOW_A_SADDR]);
	key->daddr = nla_get_in_addr(tb[DARD_FLOW_A_DADDR]);
	key->proto = nla_get_u8(tb[DARD_FLOW_A_PROTO]);
	if (tb[DARD_FLOW_A_SPORT])
		key->sport = nla_get_be16(tb[DARD_FLOW_A_SPORT]);
	if (tb[DARD_FLOW_A_DPORT])
		key->dport = nla_get_be16(tb[DARD_FLOW_A_DPORT]);
	if (!pair)
		return 0;
	if (!tb[DARD_FLOW_A_PATH_SADDR] || !tb[DARD_FLOW_A_PATH_DADDR]) {
		NL_SET_ERR_MSG_ATTR(info->extack, info->attrs[DARD_A_FLOW],
				    "a move needs PATH_SADDR and PATH_DADDR");
		return -EINVAL;
	}
	pair->saddr = nla_get_in_addr(tb[DARD_FLOW_A_PATH_SADDR]);
	pair->daddr = nla_get_in_addr(tb[DARD_FLOW_A_PATH_DADDR]);
	return 0;
}

/* Moves the flow to pair, one of its destination's paths. */
static int move(struct dard_dev *dd, const struct dard_flow_key *key,
		struct dard_alias_pair pair, struct netlink_ext_ack *extack)
{
	const struct dard_kdest *kd;
	struct dard_kflow *f;
	int ret = 0;
	u32 i;

	rcu_read_lock();
	f = dard_flow_lookup(dd, key);
	kd = dard_dest_find(dd, key->daddr);
	if (!f) {
		NL_SET_ERR_MSG(extack, "no such flow");
		ret = -ENOENT;
		goto out;
	}
	for (i = 0; kd && i < kd->d.npaths; i++)
		if (kd->d.path[i].saddr == pair.saddr &&
		    kd->d.path[i].daddr == pair.daddr)
			break;
	if (!kd || i == kd->d.npaths) {
		NL_SET_ERR_MSG(extack, "not one of its destination's paths");
		ret = -EINVAL;
		goto out;
	}
	spin_lock_bh(&f->lock);
	if (f->f.path.saddr != pair.saddr || f->f.path.daddr != pair.daddr) {
		f->f.path = pair;
		f->f.path_idx = i;
		f->dest_gen = kd->gen;
		/* The new path may be dead; its next packet checks. */
		f->f.live_gen = DARD_LIVE_GEN_UNCHECKED;
		f->f.txhash = 0;
		f->f.moves++;
	}
	spin_unlock_bh(&f->lock);
out:
	rcu_read_unlock();
	return ret;
}

int dard_netlink_move_flow(struct sk_buff *skb, struct genl_info *info)
{
	struct dard_alias_pair pair;
	struct dard_flow_key key;
	struct dard_dev *dd;
	int ret;

	ret = get_flow(info, &key, &pair);
	if (ret)
		return ret;
	rtnl_lock();
	dd = dard_netlink_lookup(genl_info_net(info), info->attrs,
				 info->extack);
	ret = PTR_ERR_OR_ZERO(dd);
	if (!ret)
		ret = move(dd, &key, pair, info->extack);
	rtnl_unlock();
	return ret;
}

int dard_netlink_del_flow(struct sk_buff *skb, struct genl_info *info)
{
	struct dard_flow_key key;
	struct dard_dev *dd;
	int ret;

	ret = get_flow(info, &key, NULL);
	if (ret)
		return ret;
	rtnl_lock();
	dd = dard_netlink_lookup(genl_info_net(info), info->attrs,
				 info->extack);
	ret = PTR_ERR_OR_ZERO(dd);
	if (!ret) {
		ret = dard_flow_del(dd, &key);
		if (ret)
			NL_SET_ERR_MSG(info->extack, "no such flow");
	}
	rtnl_unlock();
	return ret;
}

static int put_flow(struct sk_buff *skb, const struct dard_flow_key *k,
		    const struct dard_flow *f)
{
	struct nlattr *nest = nla_nest_start(skb, DARD_A_FLOW);

	if (!nest || nla_put_in_addr(skb, DARD_FLOW_A_SADDR, k->saddr) ||
	    nla_put_in_addr(skb, DARD_FLOW_A_DADDR, k->daddr) ||
	    nla_put_be16(skb, DARD_FLOW_A_SPORT, k->sport) ||
	    nla_put_be16(skb, DARD_FLOW_A_DPORT, k->dport) ||
	    nla_put_u8(skb, DARD_FLOW_A_PROTO, k->proto) ||
	    nla_put_in_addr(skb, DARD_FLOW_A_PATH_SADDR, f->path.saddr) ||
	    nla_put_in_addr(skb, DARD_FLOW_A_PATH_DADDR, f->path.daddr) ||
	    nla_put_u32(skb, DARD_FLOW_A_PATH_IDX, f->path_idx) ||
	    nla_put_u64_64bit(skb, DARD_FLOW_A_FIRST_NS, f->first_ns,
			      DARD_FLOW_A_PAD) ||
	    nla_put_u64_64bit(skb, DARD_FLOW_A_LAST_NS, f->last_ns,
			      DARD_FLOW_A_PAD) ||
	    nla_put_u64_64bit(skb, DARD_FLOW_A_BYTES, f->bytes,
			      DARD_FLOW_A_PAD) ||
	    nla_put_u64_64bit(skb, DARD_FLOW_A_PACKETS, f->packets,
			      DARD_FLOW_A_PAD) ||
	    nla_put_u64_64bit(skb, DARD_FLOW_A_PAYLOAD, f->payload,
			      DARD_FLOW_A_PAD) ||
	    nla_put_u64_64bit(skb, DARD_FLOW_A_ELEPHANT_NS, f->elephant_ns,
			      DARD_FLOW_A_PAD) ||
	    nla_put_u32(skb, DARD_FLOW_A_MOVES, f->moves) ||
	    nla_put_u32(skb, DARD_FLOW_A_FLAGS, f->flags))
		return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

/*
 * A flow dump resumes after the last flow it sent, found again by its key:
 * the walk goes through the buckets in order and a flow placed in a
 * bucket goes first in it, so flows that come or go between two parts
 * move none of the others, and none is missed or repeated for it (those
 * that come may or may not be in the dump). Two cases remain, as with any
 * table that changes while it is read: the last flow sent went away, and
 * the dump resumes by count; or the table was resized, which reorders it.
 * Flagging those with NLM_F_DUMP_INTR would make libmnl fail the dump.
 */
struct flow_dump {
	struct dard_flow_key last; /* the last flow sent */
	long sent;		   /* how many were */
};

/* One walk of part of a dump: from after ctx->last if by_key, else after
 * skip flows. The number sent, or -ENOENT if by_key found no ctx->last. */
static int dump_walk(struct sk_buff *skb, struct netlink_callback *cb,
		     struct dard_dev *dd, bool by_key, long skip)
{
	struct flow_dump *ctx = (struct flow_dump *)cb->ctx;
	bool seek = by_key;
	struct rhashtable_iter it;
	struct dard_flow snap;
	struct dard_kflow *f;
	int sent = 0;
	void *hdr;

	rhashtable_walk_enter(&dd->flows, &it);
	rhashtable_walk_start(&it);
	while ((f = rhashtable_walk_next(&it))) {
		if (IS_ERR(f)) {
			/* Resized: the walk starts over; skip what was sent. */
			if (PTR_ERR(f) != -EAGAIN)
				break;
			seek = ctx->sent > 0;
			skip = 0;
			continue;
		}
		if (seek) {
			seek = memcmp(&f->key, &ctx->last, sizeof(f->key)) != 0;
			continue;
		}
		if (skip) {
			skip--;
			continue;
		}
		spin_lock_bh(&f->lock);
		snap = f->f;
		spin_unlock_bh(&f->lock);
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &dard_family, NLM_F_MULTI,
				  DARD_CMD_GET_FLOW);
		if (!hdr)
			break;
		if (put_flow(skb, &f->key, &snap)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		genlmsg_end(skb, hdr);
		ctx->last = f->key;
		ctx->sent++;
		sent++;
	}
	rhashtable_walk_stop(&it);
	rhashtable_walk_exit(&it);
	return seek && !sent ? -ENOENT : sent;
}

int dard_netlink_dump_flows(struct sk_buff *skb, struct netlink_callback *cb)
{
	const struct genl_dumpit_info *di = genl_dumpit_info(cb);
	struct flow_dump *ctx = (struct flow_dump *)cb->ctx;
	struct net *net = sock_net(cb->skb->sk);
	struct net_device *dev;
	int sent;

	BUILD_BUG_ON(sizeof(*ctx) > sizeof(cb->ctx));
	rcu_read_lock();
	if (di->attrs[DARD_A_IFINDEX])
		dev = dev_get_by_index_rcu(
			net, nla_get_u32(di->attrs[DARD_A_IFINDEX]));
	else if (di->attrs[DARD_A_IFNAME])
		dev = dev_get_by_name_rcu(net,
					  nla_data(di->attrs[DARD_A_IFNAME]));
	else
		dev = NULL;
	if (!dev || dev->rtnl_link_ops != &dard_link_ops) {
		rcu_read_unlock();
		NL_SET_ERR_MSG(cb->extack, "no such dard device");
		return -ENODEV;
	}
	/* The key is a flow's only stable name; by count if it is gone. */
	sent = dump_walk(skb, cb, netdev_priv(dev), ctx->sent > 0, 0);
	if (sent == -ENOENT)
		sent = dump_walk(skb, cb, netdev_priv(dev), false, ctx->sent);
	rcu_read_unlock();
	/* Empty: the dump is done. */
	return sent ? skb->len : 0;
}

int dard_netlink_event(struct dard_dev *dd, const struct dard_kflow *f,
		       u32 type, u64 now, gfp_t gfp)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, gfp);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put(msg, 0, 0, &dard_family, 0, DARD_CMD_EVENT);
	if (!hdr || nla_put_u32(msg, DARD_A_EVENT, type) ||
	    nla_put_u32(msg, DARD_A_IFINDEX, dd->dev->ifindex) ||
	    nla_put_u64_64bit(msg, DARD_A_TIME_NS, now, DARD_A_PAD) ||
	    put_flow(msg, &f->key, &f->f)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	/* -ESRCH, no listener, is a failure too: dardd would miss it. */
	return genlmsg_multicast_netns(&dard_family, dev_net(dd->dev), msg, 0,
				       DARD_MCGRP_EVENTS, gfp);
}
