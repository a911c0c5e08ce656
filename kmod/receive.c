// SPDX-License-Identifier: GPL-2.0
/*
 * Receive, as the BPF datapath's ingress does it: IP-in-IP to one of our
 * aliases is ours to decide on, and only packets to our own ID come out
 * of the device (never a relay). Anything else goes on to the next
 * tunnel4 handler (the kernel's ipip, vti, xfrm), which is why we return
 * non-zero for it: our priority runs us before them, and theirs still
 * see what is not ours. 4in6 (IPv4 in IPv6, to an IPv6 alias that the
 * device's layout re-encodes) comes by tunnel6's IPv4 handlers, before
 * ip6_tunnel's, and meets the same checks.
 */
#include <linux/icmp.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/ip_tunnels.h>
#include <net/xfrm.h>
#include "device.h"
#include "receive.h"

/* Before vti (0) and ipip (1): they would take a packet to any alias. */
#define DARD_TUNNEL_PRIORITY (-1)

/* The outer header's length field, in what it covers: the inner packet
 * alone when there are no options or extension headers. */
static u32 outer_len(const struct sk_buff *skb)
{
	if (skb->protocol == htons(ETH_P_IPV6))
		return ntohs(ipv6_hdr(skb)->payload_len);
	return ntohs(ip_hdr(skb)->tot_len) - sizeof(struct iphdr);
}

/* The stat of why the inner packet must go, or -1 to keep it. */
static int check_inner(struct dard_dev *dd, struct sk_buff *skb)
{
	const struct iphdr *in;
	__be32 id;

	if (!pskb_may_pull(skb, sizeof(*in)))
		return DARD_STAT_DROP_TRUNCATED;
	/* The pull may have moved the head: both headers read after it. */
	in = (const struct iphdr *)skb->data;
	if (in->version != 4 || in->ihl < 5)
		return DARD_STAT_DROP_BAD_IHL;
	if (ntohs(in->tot_len) != skb->len || outer_len(skb) != skb->len)
		return DARD_STAT_DROP_BAD_LEN;
	/* No ID yet: nothing is ours, 0.0.0.0 included. */
	id = READ_ONCE(dd->id);
	if (!id || in->daddr != id)
		return DARD_STAT_DROP_NOT_MINE;
	return -1;
}

/* check_inner's, after the outer IPv4 header's own checks. */
static int check(struct dard_dev *dd, struct sk_buff *skb)
{
	if (ip_hdr(skb)->ihl != 5)
		return DARD_STAT_DROP_OUTER_OPTIONS;
	/* ip_local_deliver reassembled it: a fabric link's MTU is short. */
	if (IPCB(skb)->flags & IPSKB_FRAG_COMPLETE)
		return DARD_STAT_DROP_OUTER_FRAGMENT;
	return check_inner(dd, skb);
}

/* The same after the outer IPv6 header's: no extension header, no
 * reassembly. */
static int check6(struct dard_dev *dd, struct sk_buff *skb)
{
	if (ipv6_hdr(skb)->nexthdr != IPPROTO_IPIP)
		return DARD_STAT_DROP_OUTER_OPTIONS;
	if (IP6CB(skb)->flags & IP6SKB_FRAGMENTED)
		return DARD_STAT_DROP_OUTER_FRAGMENT;
	return check_inner(dd, skb);
}

/*
 * The inner packet of skb out of dd's device, or dropped and counted;
 * under RCU, stat check's or check6's verdict.
 */
static int deliver(struct dard_dev *dd, struct sk_buff *skb, int stat)
{
	bool v6 = skb->protocol == htons(ETH_P_IPV6);
	const struct ipv6hdr *outer6;
	const struct iphdr *outer;
	int len, ce;

	if (stat >= 0)
		goto drop;
	/* Outer header pointers are stale once the pull moved things. */
	if (iptunnel_pull_header(skb, 0, htons(ETH_P_IP), false)) {
		stat = DARD_STAT_DROP_ADJUST;
		goto drop;
	}
	outer = ip_hdr(skb);
	outer6 = ipv6_hdr(skb);
	skb_reset_network_header(skb);
	skb_reset_mac_header(skb);
	/* RFC 6040: an inner header that cannot carry CE goes. */
	ce = v6 ? IP6_ECN_decapsulate(outer6, skb)
		: IP_ECN_decapsulate(outer, skb);
	if (ce > 1) {
		stat = DARD_STAT_DROP_CE_NOT_ECT;
		goto drop;
	}
	skb->dev = dd->dev;
	skb->pkt_type = PACKET_HOST;
	len = skb->len;
	dard_count(dd, DARD_STAT_DECAP);
	if (gro_cells_receive(&dd->gro_cells, skb) == NET_RX_SUCCESS)
		dev_sw_netstats_rx_add(dd->dev, len);
	return 0;

drop:
	dard_count(dd, stat);
	dev_core_stats_rx_dropped_inc(dd->dev);
	kfree_skb(skb);
	return 0;
}

/*
 * A packet to one of dd's aliases, in IPv4 (IP-in-IP) or IPv6 (4in6):
 * the outer packet's IPsec policy first, as ipip and ip6_tunnel check it
 * (tunnel4 and tunnel6 are no_policy, or IP-in-IP would bypass it), then
 * the checks and out of the device. Under RCU.
 */
static int take(struct dard_dev *dd, struct sk_buff *skb, bool v6)
{
	if (!(v6 ? xfrm6_policy_check(NULL, XFRM_POLICY_IN, skb)
		 : xfrm4_policy_check(NULL, XFRM_POLICY_IN, skb))) {
		dev_core_stats_rx_dropped_inc(dd->dev);
		kfree_skb(skb);
		return 0;
	}
	return deliver(dd, skb, v6 ? check6(dd, skb) : check(dd, skb));
}

/* Not to one of our aliases: -EINVAL, the next handler's. */
static int dard_rcv(struct sk_buff *skb)
{
	struct dard_dev *dd;
	int ret;

	rcu_read_lock();
	dd = dard_device_by_alias(dev_net(skb->dev), ip_hdr(skb)->daddr);
	ret = dd ? take(dd, skb, false) : -EINVAL;
	rcu_read_unlock();
	return ret;
}

static int dard_rcv6(struct sk_buff *skb)
{
	struct dard_dev *dd;
	__be32 alias;
	int ret;

	rcu_read_lock();
	dd = dard_device_by_alias6(dev_net(skb->dev), &ipv6_hdr(skb)->daddr,
				   &alias);
	ret = dd ? take(dd, skb, true) : -EINVAL;
	rcu_read_unlock();
	return ret;
}

/* An ICMP error about a packet we sent: learn the fabric's MTU. */
static int dard_err(struct sk_buff *skb, u32 info)
{
	const struct iphdr *iph = (const struct iphdr *)skb->data;
	const int type = icmp_hdr(skb)->type, code = icmp_hdr(skb)->code;
	struct net *net = dev_net(skb->dev);
	bool ours;

	rcu_read_lock();
	ours = dard_device_by_alias(net, iph->saddr);
	rcu_read_unlock();
	if (!ours)
		return -ENOENT;
	if (type == ICMP_DEST_UNREACH && code == ICMP_FRAG_NEEDED)
		ipv4_update_pmtu(skb, net, info, 0, IPPROTO_IPIP);
	else if (type == ICMP_REDIRECT)
		ipv4_redirect(skb, net, 0, IPPROTO_IPIP);
	return 0;
}

/* An ICMPv6 error about a 4in6 packet we sent, the same way. */
static int dard_err6(struct sk_buff *skb, struct inet6_skb_parm *opt, u8 type,
		     u8 code, int offset, __be32 info)
{
	const struct ipv6hdr *ip6 = (const struct ipv6hdr *)skb->data;
	struct net *net = dev_net(skb->dev);
	__be32 alias;
	bool ours;

	rcu_read_lock();
	ours = dard_device_by_alias6(net, &ip6->saddr, &alias);
	rcu_read_unlock();
	if (!ours)
		return -ENOENT;
	if (type == ICMPV6_PKT_TOOBIG)
		ip6_update_pmtu(skb, net, info, 0, 0, sock_net_uid(net, NULL));
	else if (type == NDISC_REDIRECT)
		ip6_redirect(skb, net, 0, 0, sock_net_uid(net, NULL));
	return 0;
}

static struct xfrm_tunnel dard_handler __read_mostly = {
	.handler = dard_rcv,
	.err_handler = dard_err,
	.priority = DARD_TUNNEL_PRIORITY,
};

/* Before ip6_tunnel's ip4ip6 handler (1). */
static struct xfrm6_tunnel dard_handler6 __read_mostly = {
	.handler = dard_rcv6,
	.err_handler = dard_err6,
	.priority = DARD_TUNNEL_PRIORITY,
};

int dard_receive_init(void)
{
	int ret = xfrm4_tunnel_register(&dard_handler, AF_INET);

	if (ret)
		return ret;
	ret = xfrm6_tunnel_register(&dard_handler6, AF_INET);
	if (ret)
		xfrm4_tunnel_deregister(&dard_handler, AF_INET);
	return ret;
}

void dard_receive_uninit(void)
{
	xfrm6_tunnel_deregister(&dard_handler6, AF_INET);
	xfrm4_tunnel_deregister(&dard_handler, AF_INET);
}
