// SPDX-License-Identifier: GPL-2.0
/*
 * The dard netdevice (rtnl link kind DARD_LINK_KIND): a layer 3 device with
 * no link-layer header that routes to IDs point at; it wraps what it is
 * given in IP-in-IP (send.c). Each network namespace lists its devices so
 * that receive can find the owner of an alias, and deletes them when it
 * goes. The destinations and aliases it holds are replaced whole under
 * RCU by their writers, who hold the RTNL.
 */
#include <linux/bsearch.h>
#include <linux/if_arp.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <net/netns/generic.h>
#include <net/rtnetlink.h>
#include <linux/dard_layout6.h>
#include "device.h"
#include "flows.h"
#include "mark.h"
#include "send.h"

/* What ipip offers: GSO and checksums are the lower device's business. */
#define DARD_FEATURES                                                          \
	(NETIF_F_SG | NETIF_F_FRAGLIST | NETIF_F_HIGHDMA |                     \
	 NETIF_F_GSO_SOFTWARE | NETIF_F_HW_CSUM)

static unsigned int dard_net_id __read_mostly;

/* A namespace's dard devices, walked by receive under RCU. */
struct dard_net {
	struct list_head devs;
};

static int cmp_alias(const void *a, const void *b)
{
	u32 x = (__force u32) * (const __be32 *)a;
	u32 y = (__force u32) * (const __be32 *)b;

	return x < y ? -1 : x > y;
}

bool dard_is_alias(struct dard_dev *dd, __be32 a)
{
	const struct dard_aliases *al = rcu_dereference(dd->aliases);

	return al && bsearch(&a, al->a, al->n, sizeof(a), cmp_alias);
}

struct dard_dev *dard_device_by_alias(struct net *net, __be32 a)
{
	struct dard_net *dn = net_generic(net, dard_net_id);
	struct dard_dev *dd;

	list_for_each_entry_rcu(dd, &dn->devs, list)
		if (dard_is_alias(dd, a))
			return dd;
	return NULL;
}

struct dard_dev *dard_device_by_alias6(struct net *net,
				       const struct in6_addr *a, __be32 *alias)
{
	struct dard_net *dn = net_generic(net, dard_net_id);
	const struct dard_klayout *kl;
	struct dard_dev *dd;
	u32 w[4], v;
	int i;

	for (i = 0; i < 4; i++)
		w[i] = ntohl(a->s6_addr32[i]);
	list_for_each_entry_rcu(dd, &dn->devs, list) {
		kl = rcu_dereference(dd->layout6);
		if (kl && !dard_alias_v4(&kl->l, w, &v) &&
		    dard_is_alias(dd, htonl(v))) {
			*alias = htonl(v);
			return dd;
		}
	}
	return NULL;
}

struct dard_dev *dard_device_by_uplink(struct net *net, int ifindex)
{
	struct dard_net *dn = net_generic(net, dard_net_id);
	struct dard_dev *dd;

	/* A device that recorded no uplink guards every interface. */
	list_for_each_entry_rcu(dd, &dn->devs, list)
		if (!dd->link || dd->link == ifindex)
			return dd;
	return NULL;
}

const struct dard_kdest *dard_dest_find(struct dard_dev *dd, __be32 id)
{
	struct dard_kdest *kd;

	hash_for_each_possible_rcu(dd->dests, kd, node, (__force u32)id)
		if (kd->id == id)
			return kd;
	return NULL;
}

int dard_aliases_set(struct dard_dev *dd, const __be32 *a, u32 n, bool replace)
{
	struct dard_aliases *old = rtnl_dereference(dd->aliases), *al;
	u32 keep = replace || !old ? 0 : old->n, i, j;

	if (keep + n > DARD_ALIASES_MAX)
		return -ENOSPC;
	al = kmalloc(struct_size(al, a, keep + n), GFP_KERNEL);
	if (!al)
		return -ENOMEM;
	if (keep)
		memcpy(al->a, old->a, keep * sizeof(*a));
	memcpy(al->a + keep, a, n * sizeof(*a));
	sort(al->a, keep + n, sizeof(*a), cmp_alias, NULL);
	/* Once each: the binary search does not care, the count does. */
	for (i = j = 0; i < keep + n; i++)
		if (!j || al->a[j - 1] != al->a[i])
			al->a[j++] = al->a[i];
	al->n = j;
	rcu_assign_pointer(dd->aliases, al);
	if (old)
		kfree_rcu(old, rcu);
	return 0;
}

u32 dard_aliases_count(struct dard_dev *dd)
{
	const struct dard_aliases *al = rtnl_dereference(dd->aliases);

	return al ? al->n : 0;
}

static void bump_live_gen(struct dard_dev *dd)
{
	u32 gen = dd->live_gen + 1;

	if (gen == DARD_LIVE_GEN_UNCHECKED)
		gen = 0;
	WRITE_ONCE(dd->live_gen, gen);
}

struct dard_kdest *dard_dest_get(struct dard_dev *dd, __be32 id)
{
	struct dard_kdest *kd;

	hash_for_each_possible(dd->dests, kd, node, (__force u32)id)
		if (kd->id == id)
			return kd;
	return NULL;
}

int dard_dest_set(struct dard_dev *dd, __be32 id, const struct dard_dest *d)
{
	struct dard_kdest *old = dard_dest_get(dd, id), *kd = NULL;

	if (d) {
		if (!old && dd->ndests >= DARD_DESTS_MAX)
			return -ENOSPC;
		kd = kmalloc(sizeof(*kd), GFP_KERNEL);
		if (!kd)
			return -ENOMEM;
		kd->id = id;
		kd->d = *d;
		/* Flows placed on the old list are placed anew. */
		kd->gen = ++dd->dest_gen;
	}
	if (old && kd)
		hlist_replace_rcu(&old->node, &kd->node);
	else if (old)
		hlist_del_rcu(&old->node);
	else if (kd)
		hash_add_rcu(dd->dests, &kd->node, (__force u32)id);
	dd->ndests += !old - !kd;
	if (old)
		kfree_rcu(old, rcu);
	bump_live_gen(dd);
	return 0;
}

int dard_dest_set_dead(struct dard_dev *dd, __be32 id, const u64 *dead)
{
	struct dard_kdest *old = dard_dest_get(dd, id), *kd;
	u32 i;

	if (!old)
		return -ENOENT;
	kd = kmemdup(old, sizeof(*kd), GFP_KERNEL);
	if (!kd)
		return -ENOMEM;
	for (i = 0; i < ARRAY_SIZE(kd->d.dead); i++)
		kd->d.dead[i] = dead[i];
	hlist_replace_rcu(&old->node, &kd->node);
	kfree_rcu(old, rcu);
	bump_live_gen(dd);
	return 0;
}

int dard_layout6_set(struct dard_dev *dd, const struct dard_layout6 *l)
{
	struct dard_klayout *kl = NULL, *old;
	unsigned int outer = l ? sizeof(struct ipv6hdr) : sizeof(struct iphdr);
	struct net_device *lower;

	if (l) {
		kl = kmalloc(sizeof(*kl), GFP_KERNEL);
		if (!kl)
			return -ENOMEM;
		kl->l = *l;
	}
	old = rcu_replace_pointer(dd->layout6, kl, lockdep_rtnl_is_held());
	if (old)
		kfree_rcu(old, rcu);
	/* Room for the outer header, as at the link's creation; a smaller
	 * MTU set by hand stays. Larger packets meet send's PMTU check. */
	lower = dd->link ? __dev_get_by_index(dev_net(dd->dev), dd->link)
			 : NULL;
	if (lower && lower->mtu >= ETH_MIN_MTU + outer &&
	    dd->dev->mtu > lower->mtu - outer)
		return dev_set_mtu(dd->dev, lower->mtu - outer);
	return 0;
}

static void dests_free(struct dard_dev *dd)
{
	struct hlist_node *tmp;
	struct dard_kdest *kd;
	int b;

	hash_for_each_safe(dd->dests, b, tmp, kd, node) {
		hash_del(&kd->node);
		kfree(kd);
	}
}

static int dard_init(struct net_device *dev)
{
	struct dard_dev *dd = netdev_priv(dev);
	int ret;

	dev->tstats = netdev_alloc_pcpu_stats(struct pcpu_sw_netstats);
	if (!dev->tstats)
		return -ENOMEM;
	dd->stats = alloc_percpu(struct dard_stats);
	ret = -ENOMEM;
	if (!dd->stats)
		goto err_free_tstats;
	ret = gro_cells_init(&dd->gro_cells, dev);
	if (ret)
		goto err_free_stats;
	ret = dard_flows_init(dd);
	if (ret)
		goto err_gro_cells;
	return 0;

err_gro_cells:
	gro_cells_destroy(&dd->gro_cells);
err_free_stats:
	free_percpu(dd->stats);
	dd->stats = NULL;
err_free_tstats:
	free_percpu(dev->tstats);
	dev->tstats = NULL;
	return ret;
}

static void dard_uninit(struct net_device *dev)
{
	struct dard_dev *dd = netdev_priv(dev);
	struct dard_net *dn = net_generic(dev_net(dev), dard_net_id);

	/* Receive and the guard stop finding us; the destructor waits. */
	if (list_empty(&dd->list))
		return;
	list_del_rcu(&dd->list);
	if (list_empty(&dn->devs))
		dard_mark_guard_del(dev_net(dev));
}

/* Runs once every reference is gone, and only after dard_init worked. */
static void dard_destruct(struct net_device *dev)
{
	struct dard_dev *dd = netdev_priv(dev);

	synchronize_net();
	dard_flows_uninit(dd);
	dests_free(dd);
	kfree(rcu_access_pointer(dd->aliases));
	kfree(rcu_access_pointer(dd->layout6));
	gro_cells_destroy(&dd->gro_cells);
	free_percpu(dd->stats);
	free_percpu(dev->tstats);
	pr_debug("%s: device destroyed\n", dev->name);
}

static int dard_get_iflink(const struct net_device *dev)
{
	const struct dard_dev *dd = netdev_priv(dev);

	return dd->link ? dd->link : dev->ifindex;
}

static const struct net_device_ops dard_netdev_ops = {
	.ndo_init = dard_init,
	.ndo_uninit = dard_uninit,
	.ndo_start_xmit = dard_xmit,
	.ndo_get_stats64 = dev_get_tstats64,
	.ndo_get_iflink = dard_get_iflink,
};

static void dard_setup(struct net_device *dev)
{
	struct dard_dev *dd = netdev_priv(dev);

	dev->netdev_ops = &dard_netdev_ops;
	dev->type = ARPHRD_NONE;
	dev->flags = IFF_POINTOPOINT | IFF_NOARP;
	dev->priv_flags |= IFF_NO_QUEUE;
	dev->hard_header_len = 0;
	dev->addr_len = 0;
	/* IPv6's outer header, the larger: 4in6 may be set later. */
	dev->needed_headroom = LL_MAX_HEADER + sizeof(struct ipv6hdr);
	/* The outer header takes 20 bytes of a 1500-byte fabric. */
	dev->mtu = ETH_DATA_LEN - sizeof(struct iphdr);
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = IP_MAX_MTU - sizeof(struct iphdr);
	/* Receive finds a device through its namespace's list. */
	dev->features |= NETIF_F_LLTX | NETIF_F_NETNS_LOCAL | DARD_FEATURES;
	dev->hw_features |= DARD_FEATURES;
	dev->hw_enc_features |= DARD_FEATURES;
	/* Transmit needs the inner route: PMTU and ICMP, as ipip's. */
	netif_keep_dst(dev);
	dev->needs_free_netdev = true;
	dev->priv_destructor = dard_destruct;

	memset(dd, 0, sizeof(*dd));
	dd->dev = dev;
	INIT_LIST_HEAD(&dd->list);
	hash_init(dd->dests);
	dd->elephant_age_ns = DARD_ELEPHANT_AGE_DEFAULT;
	dd->elephant_dscp = DARD_ELEPHANT_DSCP_DEFAULT;
	dd->hash_seed = get_random_u32();
}

static const struct nla_policy dard_link_policy[IFLA_DARD_MAX + 1] = {
	[IFLA_DARD_ID] = {.type = NLA_U32},
	[IFLA_DARD_FLOWS] = {.type = NLA_U32},
	[IFLA_DARD_FLOWS_MAX] = {.type = NLA_U32},
	[IFLA_DARD_DESTS] = {.type = NLA_U32},
	[IFLA_DARD_ALIASES] = {.type = NLA_U32},
	[IFLA_DARD_ELEPHANT_AGE_NS] = {.type = NLA_U64},
	[IFLA_DARD_ELEPHANT_BYTES] = {.type = NLA_U64},
	[IFLA_DARD_ELEPHANT_DSCP] = {.type = NLA_U8},
};

static int dard_validate(struct nlattr *tb[], struct nlattr *data[],
			 struct netlink_ext_ack *extack)
{
	static const int ro[] = {
		IFLA_DARD_ID,	 IFLA_DARD_FLOWS,   IFLA_DARD_FLOWS_MAX,
		IFLA_DARD_DESTS, IFLA_DARD_ALIASES, IFLA_DARD_PAD,
	};
	int i;

	if (!data)
		return 0;
	for (i = 0; i < ARRAY_SIZE(ro); i++) {
		if (data[ro[i]]) {
			NL_SET_ERR_MSG_ATTR(extack, data[ro[i]],
					    "read only: set it over genl");
			return -EOPNOTSUPP;
		}
	}
	if (data[IFLA_DARD_ELEPHANT_DSCP] &&
	    !dard_dscp_valid(nla_get_u8(data[IFLA_DARD_ELEPHANT_DSCP]))) {
		NL_SET_ERR_MSG_ATTR(extack, data[IFLA_DARD_ELEPHANT_DSCP],
				    "elephant DSCP is 0-63 or 255 (inherit)");
		return -EINVAL;
	}
	return 0;
}

static void apply_elephant(struct dard_dev *dd, struct nlattr *data[])
{
	if (!data)
		return;
	if (data[IFLA_DARD_ELEPHANT_AGE_NS])
		WRITE_ONCE(dd->elephant_age_ns,
			   nla_get_u64(data[IFLA_DARD_ELEPHANT_AGE_NS]));
	if (data[IFLA_DARD_ELEPHANT_BYTES])
		WRITE_ONCE(dd->elephant_bytes,
			   nla_get_u64(data[IFLA_DARD_ELEPHANT_BYTES]));
	if (data[IFLA_DARD_ELEPHANT_DSCP])
		WRITE_ONCE(dd->elephant_dscp,
			   nla_get_u8(data[IFLA_DARD_ELEPHANT_DSCP]));
}

/*
 * rtnetlink lets in CAP_NET_ADMIN over the namespace, which the root of
 * any user namespace has over its own; dard, as its genl family, wants it
 * over the initial one (Documentation/kmod.md, "Permissions"). Both run
 * in the sender's context.
 */
static int need_admin(struct netlink_ext_ack *extack)
{
	if (capable(CAP_NET_ADMIN))
		return 0;
	NL_SET_ERR_MSG(extack, "dard: CAP_NET_ADMIN over the init user ns");
	return -EPERM;
}

static int dard_newlink(struct net *src_net, struct net_device *dev,
			struct nlattr *tb[], struct nlattr *data[],
			struct netlink_ext_ack *extack)
{
	struct dard_net *dn = net_generic(dev_net(dev), dard_net_id);
	struct dard_dev *dd = netdev_priv(dev);
	struct net_device *lower;
	bool first;
	int ret;

	ret = need_admin(extack);
	if (ret < 0)
		return ret;
	if (tb[IFLA_LINK]) {
		lower = __dev_get_by_index(dev_net(dev),
					   nla_get_u32(tb[IFLA_LINK]));
		if (!lower) {
			NL_SET_ERR_MSG_ATTR(extack, tb[IFLA_LINK],
					    "no such link device");
			return -ENODEV;
		}
		dd->link = lower->ifindex;
		if (!tb[IFLA_MTU] &&
		    lower->mtu >= ETH_MIN_MTU + sizeof(struct iphdr))
			dev->mtu = lower->mtu - sizeof(struct iphdr);
	}
	apply_elephant(dd, data);
	/* The namespace's first device brings the guard (mark.c). */
	first = list_empty(&dn->devs);
	if (first) {
		ret = dard_mark_guard_add(dev_net(dev));
		if (ret < 0)
			return ret;
	}
	ret = register_netdevice(dev);
	if (ret < 0) {
		if (first)
			dard_mark_guard_del(dev_net(dev));
		return ret;
	}
	list_add_rcu(&dd->list, &dn->devs);
	pr_debug("%s: device created\n", dev->name);
	return 0;
}

static int dard_changelink(struct net_device *dev, struct nlattr *tb[],
			   struct nlattr *data[],
			   struct netlink_ext_ack *extack)
{
	int ret = need_admin(extack);

	if (ret < 0)
		return ret;
	apply_elephant(netdev_priv(dev), data);
	return 0;
}

static size_t dard_get_size(const struct net_device *dev)
{
	return nla_total_size(sizeof(__be32)) +	 /* ID */
	       4 * nla_total_size(sizeof(u32)) + /* FLOWS .. ALIASES */
	       2 * nla_total_size_64bit(
			   sizeof(u64)) +  /* ELEPHANT_AGE, _BYTES */
	       nla_total_size(sizeof(u8)); /* ELEPHANT_DSCP */
}

static int dard_fill_info(struct sk_buff *skb, const struct net_device *dev)
{
	struct dard_dev *dd = netdev_priv(dev);

	if (nla_put_in_addr(skb, IFLA_DARD_ID, dd->id) ||
	    nla_put_u32(skb, IFLA_DARD_FLOWS, atomic_read(&dd->nflows)) ||
	    nla_put_u32(skb, IFLA_DARD_FLOWS_MAX, dd->flows_max) ||
	    nla_put_u32(skb, IFLA_DARD_DESTS, dd->ndests) ||
	    nla_put_u32(skb, IFLA_DARD_ALIASES, dard_aliases_count(dd)) ||
	    nla_put_u64_64bit(skb, IFLA_DARD_ELEPHANT_AGE_NS,
			      dd->elephant_age_ns, IFLA_DARD_PAD) ||
	    nla_put_u64_64bit(skb, IFLA_DARD_ELEPHANT_BYTES, dd->elephant_bytes,
			      IFLA_DARD_PAD) ||
	    nla_put_u8(skb, IFLA_DARD_ELEPHANT_DSCP, dd->elephant_dscp))
		return -EMSGSIZE;
	return 0;
}

static void dard_dellink(struct net_device *dev, struct list_head *head)
{
	unregister_netdevice_queue(dev, head);
}

struct rtnl_link_ops dard_link_ops __read_mostly = {
	.kind = DARD_LINK_KIND,
	.priv_size = sizeof(struct dard_dev),
	.maxtype = IFLA_DARD_MAX,
	.policy = dard_link_policy,
	.setup = dard_setup,
	.validate = dard_validate,
	.newlink = dard_newlink,
	.changelink = dard_changelink,
	.dellink = dard_dellink,
	.get_size = dard_get_size,
	.fill_info = dard_fill_info,
};

static int __net_init dard_net_init(struct net *net)
{
	struct dard_net *dn = net_generic(net, dard_net_id);

	INIT_LIST_HEAD(&dn->devs);
	return 0;
}

static void __net_exit dard_net_exit_batch(struct list_head *net_list)
{
	struct dard_dev *dd, *tmp;
	struct dard_net *dn;
	struct net *net;
	LIST_HEAD(kill);

	rtnl_lock();
	list_for_each_entry(net, net_list, exit_list) {
		dn = net_generic(net, dard_net_id);
		list_for_each_entry_safe(dd, tmp, &dn->devs, list)
			dard_dellink(dd->dev, &kill);
	}
	unregister_netdevice_many(&kill);
	rtnl_unlock();
}

static struct pernet_operations dard_net_ops = {
	.init = dard_net_init,
	.exit_batch = dard_net_exit_batch,
	.id = &dard_net_id,
	.size = sizeof(struct dard_net),
};

int dard_device_init(void)
{
	int ret;

	ret = register_pernet_device(&dard_net_ops);
	if (ret < 0)
		return ret;
	ret = rtnl_link_register(&dard_link_ops);
	if (ret < 0)
		goto err_pernet;
	return 0;

err_pernet:
	unregister_pernet_device(&dard_net_ops);
	return ret;
}

void dard_device_uninit(void)
{
	/* Deletes every device left, in every namespace. */
	rtnl_link_unregister(&dard_link_ops);
	unregister_pernet_device(&dard_net_ops);
}
