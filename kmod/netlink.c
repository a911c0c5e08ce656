// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family DARD_GENL_NAME (kmod/uapi/linux/dard.h has
 * the commands and attributes). Every command names its device in the
 * caller's network namespace; those that change it need CAP_NET_ADMIN
 * over the initial user namespace (GENL_ADMIN_PERM: the root of a user
 * namespace of one's own may not) and run under the RTNL, as device
 * changes do. Policies are strict: an attribute a command does not take, or a
 * read-only one, is refused with a message naming it. This file has the
 * family, the device's commands and its destinations'; netlink_flow.c
 * the flows' commands, their dump and the events.
 */
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <net/genetlink.h>
#include <linux/dard_layout6.h>
#include "device.h"
#include "netlink.h"
#include "netlink_flow.h"
#include "wcmp.h"

/*
 * Only CAP_NET_ADMIN (in the socket's namespace) may listen. An event is
 * retried until multicast reports it delivered, and a listener with
 * NETLINK_BROADCAST_ERROR that never reads makes every try fail with
 * -ENOBUFS: anyone could otherwise stall dardd's events for good.
 * Kernels whose genetlink lacks the flag let anyone listen.
 */
static const struct genl_multicast_group dard_mcgrps[] = {
	[DARD_MCGRP_EVENTS] =
		{
			.name = DARD_GENL_MCGRP,
#ifdef GENL_MCAST_CAP_NET_ADMIN
			.flags = GENL_MCAST_CAP_NET_ADMIN,
#endif
		},
};

static const struct nla_policy path_policy[DARD_PATH_A_MAX + 1] = {
	[DARD_PATH_A_SADDR] = {.type = NLA_BE32},
	[DARD_PATH_A_DADDR] = {.type = NLA_BE32},
	[DARD_PATH_A_NEXT] = {.type = NLA_U8},
	[DARD_PATH_A_DEAD] = {.type = NLA_FLAG},
};

/* DARD_A_PATHS holds DARD_A_PATH nests only. */
static const struct nla_policy paths_policy[DARD_A_PATH + 1] = {
	[DARD_A_PATH] = NLA_POLICY_NESTED(path_policy),
};

static struct netlink_range_validation flows_max_range = {
	.min = 1,
	.max = DARD_FLOWS_MAX * 16,
};

/*
 * One policy per command, each as long as the last attribute its handler
 * reads (genl sizes info->attrs by it): strict validation then refuses
 * what the command does not take as well as the read-only attributes,
 * which have no entry anywhere. DEV_NAME_POLICY (netlink_flow.h) names
 * the device.
 */

/* GET_DEVICE and the GET_FLOW dump. */
static const struct nla_policy dev_policy[DARD_A_IFNAME + 1] = {
	DEV_NAME_POLICY,
};

static const struct nla_policy set_device_policy[DARD_A_LAYOUT6 + 1] = {
	DEV_NAME_POLICY,
	[DARD_A_ID] = {.type = NLA_BE32},
	[DARD_A_ALIAS] = {.type = NLA_BE32},
	[DARD_A_FLAGS] = NLA_POLICY_MASK(NLA_U32, __DARD_DEV_F_ALL),
	[DARD_A_ELEPHANT_AGE_NS] = {.type = NLA_U64},
	[DARD_A_ELEPHANT_BYTES] = {.type = NLA_U64},
	[DARD_A_ELEPHANT_DSCP] = {.type = NLA_U8},
	[DARD_A_FLOWS_MAX] = NLA_POLICY_FULL_RANGE(NLA_U32, &flows_max_range),
	[DARD_A_LAYOUT6] = NLA_POLICY_EXACT_LEN(sizeof(struct dard_layout6)),
};

static const struct nla_policy set_dest_policy[DARD_A_PATHS + 1] = {
	DEV_NAME_POLICY,
	[DARD_A_DEST] = {.type = NLA_BE32},
	[DARD_A_PATHS] = NLA_POLICY_NESTED(paths_policy),
};

static const struct nla_policy set_dead_policy[DARD_A_DEAD + 1] = {
	DEV_NAME_POLICY,
	[DARD_A_DEST] = {.type = NLA_BE32},
	[DARD_A_DEAD] = NLA_POLICY_EXACT_LEN(sizeof(u64) * DARD_PATHS_MAX / 64),
};

/* SET_WEIGHTS: DARD_A_WEIGHTS is checked for its length by hand (a whole
 * number of u16s), as NLA_BINARY has only a maximum here. */
static const struct nla_policy set_weights_policy[DARD_A_WEIGHTS + 1] = {
	DEV_NAME_POLICY,
	[DARD_A_DEST] = {.type = NLA_BE32},
	[DARD_A_WEIGHTS] = {.type = NLA_BINARY,
			    .len = sizeof(u16) * DARD_PATHS_MAX},
};

static const struct nla_policy get_weights_policy[DARD_A_DEST + 1] = {
	DEV_NAME_POLICY,
	[DARD_A_DEST] = {.type = NLA_BE32},
};

struct dard_dev *dard_netlink_lookup(struct net *net, struct nlattr **attrs,
				     struct netlink_ext_ack *extack)
{
	struct net_device *dev = NULL;

	if (attrs[DARD_A_IFINDEX])
		dev = __dev_get_by_index(net,
					 nla_get_u32(attrs[DARD_A_IFINDEX]));
	else if (attrs[DARD_A_IFNAME])
		dev = __dev_get_by_name(net, nla_data(attrs[DARD_A_IFNAME]));
	else {
		NL_SET_ERR_MSG(extack,
			       "DARD_A_IFINDEX or DARD_A_IFNAME needed");
		return ERR_PTR(-EINVAL);
	}
	if (!dev) {
		NL_SET_ERR_MSG(extack, "no such device");
		return ERR_PTR(-ENODEV);
	}
	if (dev->rtnl_link_ops != &dard_link_ops) {
		NL_SET_ERR_MSG(extack, "not a dard device");
		return ERR_PTR(-EOPNOTSUPP);
	}
	return netdev_priv(dev);
}

static int put_stats(struct sk_buff *skb, struct dard_dev *dd)
{
	struct nlattr *nest = nla_nest_start(skb, DARD_A_STATS);
	int cpu, i;
	u64 sum;

	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < __DARD_STAT_MAX; i++) {
		sum = 0;
		for_each_possible_cpu(cpu)
			sum += READ_ONCE(per_cpu_ptr(dd->stats, cpu)->v[i]);
		if (nla_put_u64_64bit(skb, i + 1, sum, 0))
			return -EMSGSIZE;
	}
	nla_nest_end(skb, nest);
	return 0;
}

static int fill_device(struct sk_buff *skb, struct dard_dev *dd)
{
	const struct dard_aliases *al = rtnl_dereference(dd->aliases);
	const struct dard_klayout *kl;
	u32 i;

	if (nla_put_u32(skb, DARD_A_IFINDEX, dd->dev->ifindex) ||
	    nla_put_string(skb, DARD_A_IFNAME, dd->dev->name) ||
	    nla_put_in_addr(skb, DARD_A_ID, dd->id))
		return -EMSGSIZE;
	for (i = 0; al && i < al->n; i++)
		if (nla_put_in_addr(skb, DARD_A_ALIAS, al->a[i]))
			return -EMSGSIZE;
	if (nla_put_u64_64bit(skb, DARD_A_ELEPHANT_AGE_NS, dd->elephant_age_ns,
			      DARD_A_PAD) ||
	    nla_put_u64_64bit(skb, DARD_A_ELEPHANT_BYTES, dd->elephant_bytes,
			      DARD_A_PAD) ||
	    nla_put_u8(skb, DARD_A_ELEPHANT_DSCP, dd->elephant_dscp) ||
	    nla_put_u32(skb, DARD_A_FLOWS, atomic_read(&dd->nflows)) ||
	    nla_put_u32(skb, DARD_A_FLOWS_MAX, dd->flows_max) ||
	    nla_put_u32(skb, DARD_A_DESTS, dd->ndests) ||
	    nla_put_u32(skb, DARD_A_LIVE_GEN, READ_ONCE(dd->live_gen)))
		return -EMSGSIZE;
	kl = rtnl_dereference(dd->layout6);
	if (kl && nla_put(skb, DARD_A_LAYOUT6, sizeof(kl->l), &kl->l))
		return -EMSGSIZE;
	return put_stats(skb, dd);
}

static int do_get_device(struct sk_buff *skb, struct genl_info *info)
{
	struct dard_dev *dd;
	struct sk_buff *msg;
	void *hdr;
	int ret;

	rtnl_lock();
	dd = dard_netlink_lookup(genl_info_net(info), info->attrs,
				 info->extack);
	ret = PTR_ERR_OR_ZERO(dd);
	if (ret)
		goto out;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE +
				  nla_total_size(sizeof(struct dard_layout6)) +
				  dard_aliases_count(dd) * nla_total_size(4),
			  GFP_KERNEL);
	ret = -ENOMEM;
	if (!msg)
		goto out;
	hdr = genlmsg_put_reply(msg, info, &dard_family, 0,
				DARD_CMD_GET_DEVICE);
	ret = -EMSGSIZE;
	if (!hdr || fill_device(msg, dd)) {
		nlmsg_free(msg);
		goto out;
	}
	genlmsg_end(msg, hdr);
	ret = genlmsg_reply(msg, info);
out:
	rtnl_unlock();
	return ret;
}

/* The DARD_A_ALIAS attributes of the request, in a new array. */
static int get_aliases(struct genl_info *info, __be32 **out, u32 *n)
{
	const struct nlattr *a;
	int rem;

	*n = 0;
	*out = NULL;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem)
		if (nla_type(a) == DARD_A_ALIAS)
			++*n;
	if (!*n)
		return 0;
	if (*n > DARD_ALIASES_MAX) {
		NL_SET_ERR_MSG(info->extack, "too many DARD_A_ALIAS");
		return -ENOSPC;
	}
	*out = kmalloc_array(*n, sizeof(**out), GFP_KERNEL);
	if (!*out)
		return -ENOMEM;
	*n = 0;
	nlmsg_for_each_attr(a, info->nlhdr, GENL_HDRLEN, rem)
		if (nla_type(a) == DARD_A_ALIAS)
			(*out)[(*n)++] = nla_get_in_addr(a);
	return 0;
}

static int set_device(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr **attrs = info->attrs;
	const struct dard_layout6 *l6 = NULL;
	u32 flags = 0, n;
	struct dard_dev *dd;
	__be32 *aliases;
	int ret;

	if (attrs[DARD_A_ELEPHANT_DSCP] &&
	    !dard_dscp_valid(nla_get_u8(attrs[DARD_A_ELEPHANT_DSCP]))) {
		NL_SET_ERR_MSG_ATTR(info->extack, attrs[DARD_A_ELEPHANT_DSCP],
				    "elephant DSCP is 0-63 or 255 (inherit)");
		return -EINVAL;
	}
	if (attrs[DARD_A_LAYOUT6]) {
		l6 = nla_data(attrs[DARD_A_LAYOUT6]);
		if (!l6->outer6)
			l6 = NULL;
		else if (!dard_layout6_valid(l6)) {
			NL_SET_ERR_MSG_ATTR(
				info->extack, attrs[DARD_A_LAYOUT6],
				"not a layout: outer6 0 or 1, at most 9 fields of 1-32 bits inside their address, none narrower in IPv6, none overlapping");
			return -EINVAL;
		}
	}
	if (attrs[DARD_A_FLAGS])
		flags = nla_get_u32(attrs[DARD_A_FLAGS]);
	ret = get_aliases(info, &aliases, &n);
	if (ret)
		return ret;
	rtnl_lock();
	dd = dard_netlink_lookup(genl_info_net(info), attrs, info->extack);
	ret = PTR_ERR_OR_ZERO(dd);
	if (ret)
		goto out;
	/* The changes that can fail go first: nothing else is set then. */
	if (n || (flags & DARD_DEV_F_REPLACE_ALIASES)) {
		ret = dard_aliases_set(dd, aliases, n,
				       flags & DARD_DEV_F_REPLACE_ALIASES);
		if (ret) {
			NL_SET_ERR_MSG(info->extack, "cannot set the aliases");
			goto out;
		}
	}
	if (attrs[DARD_A_LAYOUT6]) {
		ret = dard_layout6_set(dd, l6);
		if (ret) {
			NL_SET_ERR_MSG(info->extack,
				       "cannot set 4in6's layout or the MTU");
			goto out;
		}
	}
	if (attrs[DARD_A_ID])
		WRITE_ONCE(dd->id, nla_get_in_addr(attrs[DARD_A_ID]));
	if (attrs[DARD_A_ELEPHANT_AGE_NS])
		WRITE_ONCE(dd->elephant_age_ns,
			   nla_get_u64(attrs[DARD_A_ELEPHANT_AGE_NS]));
	if (attrs[DARD_A_ELEPHANT_BYTES])
		WRITE_ONCE(dd->elephant_bytes,
			   nla_get_u64(attrs[DARD_A_ELEPHANT_BYTES]));
	if (attrs[DARD_A_ELEPHANT_DSCP])
		WRITE_ONCE(dd->elephant_dscp,
			   nla_get_u8(attrs[DARD_A_ELEPHANT_DSCP]));
	if (attrs[DARD_A_FLOWS_MAX]) {
		WRITE_ONCE(dd->flows_max, nla_get_u32(attrs[DARD_A_FLOWS_MAX]));
		if (atomic_read(&dd->nflows) > dd->flows_max)
			queue_work(system_unbound_wq, &dd->gc_work);
	}
out:
	rtnl_unlock();
	kfree(aliases);
	return ret;
}

/* One DARD_A_PATH into path i of d; whether it named its next. */
static int get_path(const struct nlattr *nest, struct dard_dest *d, u32 i,
		    bool *next, struct netlink_ext_ack *extack)
{
	struct nlattr *tb[DARD_PATH_A_MAX + 1];
	int ret;

	ret = nla_parse_nested(tb, DARD_PATH_A_MAX, nest, path_policy, extack);
	if (ret)
		return ret;
	if (!tb[DARD_PATH_A_SADDR] || !tb[DARD_PATH_A_DADDR]) {
		NL_SET_ERR_MSG_ATTR(
			extack, nest,
			"a path needs DARD_PATH_A_SADDR and _DADDR");
		return -EINVAL;
	}
	d->path[i].saddr = nla_get_in_addr(tb[DARD_PATH_A_SADDR]);
	d->path[i].daddr = nla_get_in_addr(tb[DARD_PATH_A_DADDR]);
	*next = tb[DARD_PATH_A_NEXT];
	if (*next)
		d->next[i] = nla_get_u8(tb[DARD_PATH_A_NEXT]);
	if (tb[DARD_PATH_A_DEAD])
		d->dead[i / 64] |= 1ULL << (i % 64);
	return 0;
}

/* DARD_A_PATHS into a zeroed struct dard_dest, in index order. */
static int get_paths(const struct nlattr *paths, struct dard_dest *d,
		     struct netlink_ext_ack *extack)
{
	DECLARE_BITMAP(given, DARD_PATHS_MAX) = {};
	const struct nlattr *a;
	bool next;
	int rem, ret;
	u32 i;

	nla_for_each_nested(a, paths, rem) {
		if (d->npaths == DARD_PATHS_MAX) {
			NL_SET_ERR_MSG_ATTR(extack, a,
					    "over DARD_PATHS_MAX paths");
			return -E2BIG;
		}
		ret = get_path(a, d, d->npaths, &next, extack);
		if (ret)
			return ret;
		if (next)
			__set_bit(d->npaths, given);
		d->npaths++;
	}
	if (!d->npaths) {
		NL_SET_ERR_MSG_ATTR(extack, paths, "no DARD_A_PATH in it");
		return -EINVAL;
	}
	for (i = 0; i < d->npaths; i++) {
		if (!test_bit(i, given)) {
			/* The next in order, round to the first. */
			d->next[i] = i + 1 < d->npaths ? i + 1 : 0;
		} else if (d->next[i] >= d->npaths) {
			NL_SET_ERR_MSG_ATTR(extack, paths,
					    "DARD_PATH_A_NEXT past the paths");
			return -EINVAL;
		}
	}
	return 0;
}

static int set_dest(struct sk_buff *skb, struct genl_info *info)
{
	struct dard_dest *d = NULL;
	struct dard_dev *dd;
	__be32 id;
	int ret;

	ret = need(info, DARD_A_DEST);
	if (ret)
		return ret;
	id = nla_get_in_addr(info->attrs[DARD_A_DEST]);
	if (info->attrs[DARD_A_PATHS]) {
		d = kzalloc(sizeof(*d), GFP_KERNEL);
		if (!d)
			return -ENOMEM;
		ret = get_paths(info->attrs[DARD_A_PATHS], d, info->extack);
		if (ret)
			goto out_free;
	}
	rtnl_lock();
	dd = dard_netlink_lookup(genl_info_net(info), info->attrs,
				 info->extack);
	ret = PTR_ERR_OR_ZERO(dd);
	if (!ret)
		ret = dard_dest_set(dd, id, d);
	rtnl_unlock();
out_free:
	kfree(d);
	return ret;
}

static int set_dead(struct sk_buff *skb, struct genl_info *info)
{
	u64 dead[DARD_PATHS_MAX / 64];
	struct dard_dev *dd;
	int ret;

	ret = need(info, DARD_A_DEST) ?: need(info, DARD_A_DEAD);
	if (ret)
		return ret;
	memcpy(dead, nla_data(info->attrs[DARD_A_DEAD]), sizeof(dead));
	rtnl_lock();
	dd = dard_netlink_lookup(genl_info_net(info), info->attrs,
				 info->extack);
	ret = PTR_ERR_OR_ZERO(dd);
	if (!ret) {
		ret = dard_dest_set_dead(
			dd, nla_get_in_addr(info->attrs[DARD_A_DEST]), dead);
		if (ret)
			NL_SET_ERR_MSG(info->extack, "no such destination");
	}
	rtnl_unlock();
	return ret;
}

static int set_weights(struct sk_buff *skb, struct genl_info *info)
{
	const struct nlattr *a = info->attrs[DARD_A_WEIGHTS];
	u16 *w = NULL;
	struct dard_dev *dd;
	u32 n = 0;
	int ret;

	ret = need(info, DARD_A_DEST);
	if (ret)
		return ret;
	if (a) {
		n = nla_len(a) / sizeof(u16);
		if (!n || nla_len(a) % sizeof(u16)) {
			NL_SET_ERR_MSG_ATTR(info->extack, a,
					    "DARD_A_WEIGHTS: not whole u16s");
			return -EINVAL;
		}
		w = kmemdup(nla_data(a), nla_len(a), GFP_KERNEL);
		if (!w)
			return -ENOMEM;
	}
	rtnl_lock();
	dd = dard_netlink_lookup(genl_info_net(info), info->attrs,
				 info->extack);
	ret = PTR_ERR_OR_ZERO(dd);
	if (!ret)
		ret = dard_dest_set_weights(
			dd, nla_get_in_addr(info->attrs[DARD_A_DEST]), w, n,
			info->extack);
	rtnl_unlock();
	kfree(w);
	return ret;
}

static int get_weights(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg;
	struct dard_dev *dd;
	u16 *count;
	void *hdr;
	u32 n = 0;
	int ret;

	ret = need(info, DARD_A_DEST);
	if (ret)
		return ret;
	count = kmalloc_array(DARD_PATHS_MAX, sizeof(*count), GFP_KERNEL);
	if (!count)
		return -ENOMEM;
	rtnl_lock();
	dd = dard_netlink_lookup(genl_info_net(info), info->attrs,
				 info->extack);
	ret = PTR_ERR_OR_ZERO(dd);
	if (!ret)
		ret = dard_dest_weights(
			dd, nla_get_in_addr(info->attrs[DARD_A_DEST]), count,
			&n);
	rtnl_unlock();
	if (ret < 0) {
		if (ret == -ENOENT)
			NL_SET_ERR_MSG(info->extack, "no such destination");
		goto out;
	}
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg) {
		ret = -ENOMEM;
		goto out;
	}
	hdr = genlmsg_put_reply(msg, info, &dard_family, 0,
				DARD_CMD_GET_WEIGHTS);
	if (!hdr ||
	    nla_put_in_addr(msg, DARD_A_DEST,
			    nla_get_in_addr(info->attrs[DARD_A_DEST])) ||
	    (ret && nla_put(msg, DARD_A_WEIGHTS, n * sizeof(u16), count))) {
		nlmsg_free(msg);
		ret = -EMSGSIZE;
		goto out;
	}
	genlmsg_end(msg, hdr);
	ret = genlmsg_reply(msg, info);
out:
	kfree(count);
	return ret;
}

#define DARD_OP(c, fn, pol, fl)                                                \
	{                                                                      \
		.cmd = (c), fn, .policy = (pol),                               \
		.maxattr = ARRAY_SIZE(pol) - 1, .flags = (fl),                 \
	}

static const struct genl_ops dard_ops[] = {
	DARD_OP(DARD_CMD_GET_DEVICE, .doit = do_get_device, dev_policy, 0),
	DARD_OP(DARD_CMD_SET_DEVICE, .doit = set_device, set_device_policy,
		GENL_ADMIN_PERM),
	DARD_OP(DARD_CMD_SET_DEST, .doit = set_dest, set_dest_policy,
		GENL_ADMIN_PERM),
	DARD_OP(DARD_CMD_SET_DEAD, .doit = set_dead, set_dead_policy,
		GENL_ADMIN_PERM),
	DARD_OP(DARD_CMD_GET_FLOW, .dumpit = dard_netlink_dump_flows,
		dev_policy, 0),
	DARD_OP(DARD_CMD_MOVE_FLOW, .doit = dard_netlink_move_flow,
		dard_flow_op_policy, GENL_ADMIN_PERM),
	DARD_OP(DARD_CMD_DEL_FLOW, .doit = dard_netlink_del_flow,
		dard_flow_op_policy, GENL_ADMIN_PERM),
	DARD_OP(DARD_CMD_SET_WEIGHTS, .doit = set_weights, set_weights_policy,
		GENL_ADMIN_PERM),
	DARD_OP(DARD_CMD_GET_WEIGHTS, .doit = get_weights, get_weights_policy,
		0),
};

struct genl_family dard_family __ro_after_init = {
	.name = DARD_GENL_NAME,
	.version = DARD_GENL_VERSION,
	.maxattr = DARD_A_MAX, /* each command has its own policy */
	.netnsok = true,
	.parallel_ops = true,
	.resv_start_op = DARD_CMD_GET_DEVICE,
	.ops = dard_ops,
	.n_ops = ARRAY_SIZE(dard_ops),
	.mcgrps = dard_mcgrps,
	.n_mcgrps = ARRAY_SIZE(dard_mcgrps),
	.module = THIS_MODULE,
};

int dard_netlink_init(void)
{
	return genl_register_family(&dard_family);
}

void dard_netlink_uninit(void)
{
	genl_unregister_family(&dard_family);
}
