// SPDX-License-Identifier: GPL-2.0
/*
 * Receive, as the BPF datapath's ingress does it: IP-in-IP to one of our
 * aliases is ours to decide on, and only packets to our own ID come out
 * of the device (never a relay). Anything else goes on to the next
 * tunnel4 handler (the kernel's ipip, vti, xfrm), which is why we return
 * non-zero for it: our priority runs us before them, and theirs still
 * see what is not ours.
 */
#include <linux/icmp.h>
#include <linux/ip.h>
#include <net/inet_ecn.h>
#include <net/ip.h>
#include <net/ip_tunnels.h>
#include <net/xfrm.h>
#include "device.h"
#include "receive.h"

/* Before vti (0) and ipip (1): they would take a packet to any alias. */
#define DARD_TUNNEL_PRIORITY (-1)

/* The stat of why the decapsulated skb must go, or -1 to keep it. */
static int check(struct dard_dev *dd, struct sk_buff *skb)
{
	const struct iphdr *outer, *in;
	__be32 id;

	if (ip_hdr(skb)->ihl != 5)
		return DARD_STAT_DROP_OUTER_OPTIONS;
	/* ip_local_deliver reassembled it: a fabric link's MTU is short. */
	if (IPCB(skb)->flags & IPSKB_FRAG_COMPLETE)
		return DARD_STAT_DROP_OUTER_FRAGMENT;
	if (!pskb_may_pull(skb, sizeof(*in)))
		return DARD_STAT_DROP_TRUNCATED;
	/* The pull may have moved the head: both headers read after it. */
	outer = ip_hdr(skb);
	in = (const struct iphdr *)skb->data;
	if (in->version != 4 || in->ihl < 5)
		return DARD_STAT_DROP_BAD_IHL;
	if (ntohs(in->tot_len) != skb->len ||
	    ntohs(outer->tot_len) != skb->len + sizeof(*outer))
		return DARD_STAT_DROP_BAD_LEN;
	/* No ID yet: nothing is ours, 0.0.0.0 included. */
	id = READ_ONCE(dd->id);
	if (!id || in->daddr != id)
		return DARD_STAT_DROP_NOT_MINE;
	return -1;
}

static int dard_rcv(struct sk_buff *skb)
{
	const struct iphdr *outer = ip_hdr(skb);
	struct dard_dev *dd;
	int stat, len;

	rcu_read_lock();
	dd = dard_device_by_alias(dev_net(skb->dev), outer->daddr);
	if (!dd) {
		rcu_read_unlock();
		return -EINVAL; /* not ours: the next handler's */
	}
	/* tunnel4 is no_policy: the outer packet's IPsec policy is for its
	 * handlers to check, as ipip does, or IP-in-IP would bypass it. */
	if (!xfrm4_policy_check(NULL, XFRM_POLICY_IN, skb)) {
		dev_core_stats_rx_dropped_inc(dd->dev);
		rcu_read_unlock();
		kfree_skb(skb);
		return 0;
	}
	stat = check(dd, skb);
	if (stat >= 0)
		goto drop;
	/* Outer header pointers are stale once the pull moved things. */
	if (iptunnel_pull_header(skb, 0, htons(ETH_P_IP), false)) {
		stat = DARD_STAT_DROP_ADJUST;
		goto drop;
	}
	outer = ip_hdr(skb);
	skb_reset_network_header(skb);
	skb_reset_mac_header(skb);
	/* RFC 6040: an inner header that cannot carry CE goes. */
	if (IP_ECN_decapsulate(outer, skb) > 1) {
		stat = DARD_STAT_DROP_CE_NOT_ECT;
		goto drop;
	}
	skb->dev = dd->dev;
	skb->pkt_type = PACKET_HOST;
	len = skb->len;
	dard_count(dd, DARD_STAT_DECAP);
	if (gro_cells_receive(&dd->gro_cells, skb) == NET_RX_SUCCESS)
		dev_sw_netstats_rx_add(dd->dev, len);
	rcu_read_unlock();
	return 0;

drop:
	dard_count(dd, stat);
	dev_core_stats_rx_dropped_inc(dd->dev);
	rcu_read_unlock();
	kfree_skb(skb);
	return 0;
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

static struct xfrm_tunnel dard_handler __read_mostly = {
	.handler = dard_rcv,
	.err_handler = dard_err,
	.priority = DARD_TUNNEL_PRIORITY,
};

int dard_receive_init(void)
{
	return xfrm4_tunnel_register(&dard_handler, AF_INET);
}

void dard_receive_uninit(void)
{
	xfrm4_tunnel_deregister(&dard_handler, AF_INET);
}
