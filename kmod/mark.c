// SPDX-License-Identifier: GPL-2.0
/*
 * The host owns the mark. Switches count IP-in-IP (and 4in6) with the
 * elephant DSCP as elephants, so a process with CAP_NET_RAW (a container
 * has it by default) could forge them: raw IP-in-IP leaves by the uplink
 * without passing dard0. Netfilter hooks on IPv4's and IPv6's
 * POST_ROUTING, registered in a namespace while a dard device lives
 * there, clear the DSCP (ECN kept, checksum fixed) of what leaves by a
 * dard device's uplink and is either IP-in-IP (IPv4 in either) the module
 * did not send or marked with that device's elephant DSCP, and count it
 * in the device's mark_cleared. POST_ROUTING sees
 * what the host sends and what it forwards (a container's packets),
 * before neighbour resolution can defer them.
 *
 * The module's own packets are told apart by pointer: dard_mark_xmit
 * notes the skb it sends in a per-CPU slot around iptunnel_xmit, inside
 * which ip_local_out runs the hooks synchronously; transmit runs with
 * BHs off, so the CPU does not change. A packet queued to userspace
 * (NFQUEUE) on the way comes back outside that window and loses its
 * mark: the guard fails closed. AF_PACKET sockets bypass the IP layer and
 * so the guard (Documentation/kmod.md, "The mark").
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/percpu.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/ip6_tunnel.h>
#include <net/ip_tunnels.h>
#include "device.h"
#include "mark.h"

/* The skb this CPU's dard_xmit is sending, or NULL. */
static DEFINE_PER_CPU(const struct sk_buff *, dard_sending);

void dard_mark_xmit(struct rtable *rt, struct sk_buff *skb, __be32 src,
		    __be32 dst, u8 tos, u8 ttl, __be16 df)
{
	/* Saved and put back: an outer route into another dard device
	 * nests a second send on this CPU. */
	const struct sk_buff *prev = this_cpu_read(dard_sending);

	this_cpu_write(dard_sending, skb);
	iptunnel_xmit(NULL, rt, skb, src, dst, IPPROTO_IPIP, tos, ttl, df,
		      false);
	this_cpu_write(dard_sending, prev);
}

void dard_mark_xmit6(struct sk_buff *skb, struct net_device *dev)
{
	const struct sk_buff *prev = this_cpu_read(dard_sending);

	this_cpu_write(dard_sending, skb);
	ip6tunnel_xmit(NULL, skb, dev);
	this_cpu_write(dard_sending, prev);
}

/* Whether dd's elephant mark, or IP-in-IP not ours, is on a packet of
 * that DSCP and protocol (the next header's, in IPv6). */
static bool forged(const struct dard_dev *dd, u8 dscp, u8 proto)
{
	u8 mark = READ_ONCE(dd->elephant_dscp);

	if (!dscp)
		return false;
	return proto == IPPROTO_IPIP ||
	       (mark != DARD_DSCP_INHERIT && dscp == mark);
}

/* The device guarding the uplink skb leaves by, if skb is not ours. */
static struct dard_dev *guarding(const struct sk_buff *skb,
				 const struct nf_hook_state *state)
{
	if (this_cpu_read(dard_sending) == skb || !state->out)
		return NULL;
	/* Hooks run under RCU. */
	return dard_device_by_uplink(state->net, state->out->ifindex);
}

/* Makes the header writable; on failure counts the drop. */
static bool writable(struct dard_dev *dd, struct sk_buff *skb, u32 len)
{
	if (likely(!skb_ensure_writable(skb, len)))
		return true;
	/* Never out with the mark. */
	dard_count(dd, DARD_STAT_DROP_ADJUST);
	return false;
}

static unsigned int mark_guard(void *priv, struct sk_buff *skb,
			       const struct nf_hook_state *state)
{
	struct dard_dev *dd = guarding(skb, state);

	if (!dd || !forged(dd, ip_hdr(skb)->tos >> 2, ip_hdr(skb)->protocol))
		return NF_ACCEPT;
	if (!writable(dd, skb, sizeof(struct iphdr)))
		return NF_DROP;
	ipv4_change_dsfield(ip_hdr(skb), INET_ECN_MASK, 0);
	dard_count(dd, DARD_STAT_MARK_CLEARED);
	return NF_ACCEPT;
}

/* The same for IPv6: a switch counts 4in6 (next header IPIP) too. */
static unsigned int mark_guard6(void *priv, struct sk_buff *skb,
				const struct nf_hook_state *state)
{
	struct dard_dev *dd = guarding(skb, state);

	if (!dd || !forged(dd, ipv6_get_dsfield(ipv6_hdr(skb)) >> 2,
			   ipv6_hdr(skb)->nexthdr))
		return NF_ACCEPT;
	if (!writable(dd, skb, sizeof(struct ipv6hdr)))
		return NF_DROP;
	ipv6_change_dsfield(ipv6_hdr(skb), INET_ECN_MASK, 0);
	dard_count(dd, DARD_STAT_MARK_CLEARED);
	return NF_ACCEPT;
}

/* Last: after mangle and NAT, whatever they set. */
static const struct nf_hook_ops guard_ops[] = {
	{
		.hook = mark_guard,
		.pf = NFPROTO_IPV4,
		.hooknum = NF_INET_POST_ROUTING,
		.priority = NF_IP_PRI_LAST,
	},
	{
		.hook = mark_guard6,
		.pf = NFPROTO_IPV6,
		.hooknum = NF_INET_POST_ROUTING,
		.priority = NF_IP6_PRI_LAST,
	},
};

int dard_mark_guard_add(struct net *net)
{
	return nf_register_net_hooks(net, guard_ops, ARRAY_SIZE(guard_ops));
}

void dard_mark_guard_del(struct net *net)
{
	nf_unregister_net_hooks(net, guard_ops, ARRAY_SIZE(guard_ops));
}
