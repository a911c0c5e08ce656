/* SPDX-License-Identifier: GPL-2.0 */
/* The uplink's guard: only the module's own IP-in-IP leaves marked. */
#ifndef _DARD_MARK_H
#define _DARD_MARK_H

#include <linux/skbuff.h>
#include <net/route.h>

struct net;

/* iptunnel_xmit for the module's own packets: they keep their DSCP. */
void dard_mark_xmit(struct rtable *rt, struct sk_buff *skb, __be32 src,
		    __be32 dst, u8 tos, u8 ttl, __be16 df);
/* ip6tunnel_xmit for the module's own 4in6 packets, the same way. */
void dard_mark_xmit6(struct sk_buff *skb, struct net_device *dev);
/* Under the RTNL: the guard on net's IPv4 and IPv6 output, from its
 * first dard device to its last. */
int dard_mark_guard_add(struct net *net);
void dard_mark_guard_del(struct net *net);

#endif /* _DARD_MARK_H */
