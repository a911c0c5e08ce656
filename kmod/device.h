/* SPDX-License-Identifier: GPL-2.0 */
/* The dard netdevice: its state, shared by every part of the module. */
#ifndef _DARD_DEVICE_H
#define _DARD_DEVICE_H

#include <linux/hashtable.h>
#include <linux/netdevice.h>
#include <linux/percpu.h>
#include <linux/rhashtable-types.h>
#include <linux/workqueue.h>
#include <net/gro_cells.h>
#include <linux/dard.h>

enum dard_defaults {
	DARD_DESTS_BITS = 10,		/* hash buckets of the destinations */
	DARD_ELEPHANT_DSCP_DEFAULT = 8, /* as the BPF loader's */
};

#define DARD_ELEPHANT_AGE_DEFAULT (10ULL * NSEC_PER_SEC) /* the paper's */

/* One destination ID's paths; replaced whole under RCU, never edited. */
struct dard_kdest {
	struct hlist_node node;
	struct rcu_head rcu;
	__be32 id;
	u32 gen; /* the path list's generation: flows re-hash on a change */
	struct dard_dest d;
};

/* This host's aliases, sorted for a binary search on receive. */
struct dard_aliases {
	struct rcu_head rcu;
	u32 n;
	__be32 a[];
};

/* 4in6's layout (linux/dard_layout6.h), replaced whole under RCU. */
struct dard_klayout {
	struct rcu_head rcu;
	struct dard_layout6 l;
};

struct dard_stats {
	u64 v[__DARD_STAT_MAX];
};

/* netdev_priv() of a dard device. Configuration changes hold the RTNL. */
struct dard_dev {
	struct net_device *dev;
	struct list_head list; /* in struct dard_net's devs, RCU */
	int link;	       /* IFLA_LINK: the uplink's ifindex, or 0 */
	__be32 id;
	u32 hash_seed;
	u64 elephant_age_ns, elephant_bytes;
	u8 elephant_dscp;
	bool dying; /* no more work is queued once set */
	u32 live_gen;
	u32 dest_gen;
	u32 ndests;
	struct dard_aliases __rcu *aliases;
	struct dard_klayout __rcu *layout6; /* NULL: IPv4 outer headers */
	DECLARE_HASHTABLE(dests, DARD_DESTS_BITS);
	struct rhashtable flows;
	atomic_t nflows;
	u32 flows_max;
	struct delayed_work event_work; /* elephant and end notifications */
	spinlock_t ev_lock;		/* ev_list and every flow's ev */
	struct list_head ev_list;	/* flows that owe an event */
	struct work_struct gc_work;	/* evicts the idlest flows */
	struct dard_stats __percpu *stats;
	struct gro_cells gro_cells;
};

static inline void dard_count(struct dard_dev *dd, enum dard_stat s)
{
	this_cpu_inc(dd->stats->v[s]);
}

extern struct rtnl_link_ops dard_link_ops;

int dard_device_init(void);
void dard_device_uninit(void);
/* The dard device owning alias a in net, or NULL; under RCU. */
struct dard_dev *dard_device_by_alias(struct net *net, __be32 a);
struct in6_addr;
/* 4in6: the dard device owning the IPv4 alias that a re-encodes in its
 * layout, and that alias, or NULL; under RCU. */
struct dard_dev *dard_device_by_alias6(struct net *net,
				       const struct in6_addr *a, __be32 *alias);
/* The dard device whose uplink is ifindex in net, or NULL; under RCU. */
struct dard_dev *dard_device_by_uplink(struct net *net, int ifindex);
bool dard_is_alias(struct dard_dev *dd, __be32 a);
const struct dard_kdest *dard_dest_find(struct dard_dev *dd, __be32 id);

/* Writers, under the RTNL. */
int dard_aliases_set(struct dard_dev *dd, const __be32 *a, u32 n, bool replace);
u32 dard_aliases_count(struct dard_dev *dd);
/* A destination to replace (hlist_replace_rcu), or NULL. */
struct dard_kdest *dard_dest_get(struct dard_dev *dd, __be32 id);
/* d NULL forgets the destination; its new paths are even. */
int dard_dest_set(struct dard_dev *dd, __be32 id, const struct dard_dest *d);
int dard_dest_set_dead(struct dard_dev *dd, __be32 id, const u64 *dead);
/* 4in6 with l's layout (checked by the caller), or IP-in-IP again when l
 * is NULL; the device's MTU leaves room for the outer header. */
int dard_layout6_set(struct dard_dev *dd, const struct dard_layout6 *l);

static inline bool dard_dscp_valid(u8 dscp)
{
	return dscp < 64 || dscp == DARD_DSCP_INHERIT;
}

#endif /* _DARD_DEVICE_H */
