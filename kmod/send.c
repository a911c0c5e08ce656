// SPDX-License-Identifier: GPL-2.0
/*
 * Transmit, as the BPF datapath's egress (bpf/dard_tc.bpf.c) does it: the
 * inner IPv4 packet's flow is looked up or placed by hash on a live path
 * of its destination, moved off a dead path or after TCP re-drew its
 * hash, counted for the elephant test, and sent in IP-in-IP with the
 * flow's alias pair through the kernel's tunnel helpers, so that GSO and
 * checksum offload happen below us; in an IPv6 fabric (4in6) the outer
 * header is IPv6, the pair's aliases re-encoded by the plan's layout.
 * Everything that reaches this device is to an ID (routes point here), so
 * what has no path is dropped.
 */
#include <linux/icmp.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/slab.h>
#include <linux/tcp.h>
#include <asm/unaligned.h>
#include <net/icmp.h>
#include <net/inet_ecn.h>
#include <net/ip6_route.h>
#include <net/ip6_tunnel.h>
#include <net/ip_tunnels.h>
#include <net/route.h>
#include <net/tcp.h>
#include <linux/dard_layout6.h>
#include <linux/dard_policy.h>
#include "device.h"
#include "flows.h"
#include "mark.h"
#include "send.h"

/* What the headers of one packet say. */
struct pkt {
	struct dard_flow_key key;
	u32 hash;
	u16 len;
	u8 tos, ihl, tcp_flags;
	u8 l4_hlen; /* TCP's or UDP's header, 0: other or a fragment */
	bool dsack; /* TCP: it carries a D-SACK starting at dsack_start */
	u32 dsack_start;
	__be16 frag;
	u8 retransmits; /* its TCP socket's timeouts in a row, or 0 */
};

enum {
	PARSE_OK = __DARD_STAT_MAX,
	TCP_HDR_MAX = 60, /* doff is 4 bits of 32-bit words */
	/* NOP, NOP, timestamp: every Linux segment but a SYN has these. */
	TCP_TS_ONLY = 0x0101080a,
};

/* Ports, flags and a D-SACK from the TCP or UDP header at off. */
static int parse_l4(struct sk_buff *skb, u32 off, struct pkt *p)
{
	u8 buf[TCP_HDR_MAX];
	const struct tcphdr *th;
	const __be16 *ports;
	u32 hlen;

	if (p->key.proto == IPPROTO_UDP) {
		ports = skb_header_pointer(skb, off, 4, buf);
		if (!ports)
			return DARD_STAT_DROP_TRUNCATED;
		p->key.sport = ports[0];
		p->key.dport = ports[1];
		p->l4_hlen = sizeof(struct udphdr);
		return PARSE_OK;
	}
	th = skb_header_pointer(skb, off, sizeof(*th), buf);
	if (!th)
		return DARD_STAT_DROP_TRUNCATED;
	p->key.sport = th->source;
	p->key.dport = th->dest;
	p->tcp_flags = tcp_flag_byte(th);
	hlen = th->doff * 4;
	p->l4_hlen = hlen;
	if (hlen <= sizeof(*th) || (p->tcp_flags & TCPHDR_SYN))
		return PARSE_OK;
	th = skb_header_pointer(skb, off, hlen, buf);
	if (!th)
		return PARSE_OK;
	/* Linux's usual segment: timestamps alone, no SACK to look for. */
	if (hlen == sizeof(*th) + TCPOLEN_TSTAMP_ALIGNED &&
	    get_unaligned((const __be32 *)(th + 1)) == htonl(TCP_TS_ONLY))
		return PARSE_OK;
	p->dsack = dard_dsack((const u8 *)(th + 1), hlen - sizeof(*th),
			      ntohl(th->ack_seq), &p->dsack_start);
	return PARSE_OK;
}

/* Returns PARSE_OK or the stat of the drop. */
static int parse(struct sk_buff *skb, struct pkt *p)
{
	const struct iphdr *ip;

	if (!pskb_may_pull(skb, sizeof(*ip)))
		return DARD_STAT_DROP_TRUNCATED;
	ip = ip_hdr(skb);
	if (ip->version != 4)
		return DARD_STAT_NON_IPV4;
	if (ip->ihl < 5)
		return DARD_STAT_DROP_BAD_IHL;
	p->len = ntohs(ip->tot_len);
	/* BIG TCP: over 64 KiB, no length for the outer header. */
	if (!p->len && skb_is_gso(skb))
		return DARD_STAT_DROP_BIG_TCP;
	if (p->len < ip->ihl * 4 || p->len > skb->len)
		return DARD_STAT_DROP_BAD_LEN;
	if (!pskb_may_pull(skb, ip->ihl * 4))
		return DARD_STAT_DROP_TRUNCATED;
	ip = ip_hdr(skb);
	memset(&p->key, 0, sizeof(p->key));
	p->key.saddr = ip->saddr;
	p->key.daddr = ip->daddr;
	p->key.proto = ip->protocol;
	p->tos = ip->tos;
	p->ihl = ip->ihl;
	p->frag = ip->frag_off;
	p->tcp_flags = 0;
	p->l4_hlen = 0;
	p->dsack = false;
	/* The socket's transmit hash, as TC's skb->hash sees it. */
	p->hash = skb->hash;
	/* What the BPF datapath's RTO callback reads as args[0], plus the
	 * timeout this retransmission is for: a local socket's packets
	 * reach us with it. sk_is_tcp, not sk_protocol: the kernel's RSTs
	 * and TIME_WAIT ACKs leave on raw sockets of IPPROTO_TCP, which have
	 * no inet_connection_sock. Read without the socket's lock. */
	p->retransmits = 0;
	if (skb->sk && sk_fullsock(skb->sk) && sk_is_tcp(skb->sk))
		p->retransmits = min_t(
			u32, READ_ONCE(inet_csk(skb->sk)->icsk_retransmits),
			U8_MAX);
	if (ip->frag_off & htons(IP_MF | IP_OFFSET))
		return PARSE_OK;
	if (ip->protocol != IPPROTO_TCP && ip->protocol != IPPROTO_UDP)
		return PARSE_OK;
	return parse_l4(skb, ip->ihl * 4, p);
}

/*
 * A new flow's path (dard_place: by hash, or its slot of a weighted
 * destination's table, dead paths avoided), counted as the BPF datapath
 * counts it.
 */
static void place(struct dard_dev *dd, const struct dard_kdest *kd,
		  struct dard_kflow *f, u32 gen)
{
	const struct dard_dest *d = &kd->d;
	u32 h = dard_flow_hash(dd->hash_seed, &f->key), how;
	u32 i = dard_place(d, h, &how);

	/* All dead, it keeps the hash's: sending beats dropping, as our view
	 * may be stale. */
	if (how == DARD_PLACE_DEAD_AVOIDED)
		dard_count(dd, DARD_STAT_NEW_FLOW_DEAD_AVOIDED);
	else if (how == DARD_PLACE_ALL_DEAD)
		dard_count(dd, DARD_STAT_ALL_PATHS_DEAD);
	f->f.path = d->path[i];
	f->f.path_idx = i;
	f->f.live_gen = gen;
	f->dest_gen = kd->gen;
}

static struct dard_kflow *new_flow(struct dard_dev *dd,
				   const struct dard_kdest *kd,
				   const struct pkt *p, u64 now, u32 gen,
				   struct dard_kflow *tmp)
{
	struct dard_kflow *nf, *f;

	nf = kzalloc(sizeof(*nf), GFP_ATOMIC);
	f = nf ? nf : tmp;
	/* account() reads the flags and counters: no stack garbage. */
	if (!nf)
		memset(tmp, 0, sizeof(*tmp));
	f->key = p->key;
	spin_lock_init(&f->lock);
	INIT_LIST_HEAD(&f->ev);
	place(dd, kd, f, gen);
	f->f.txhash = p->hash;
	f->f.first_ns = now;
	if (!nf)
		goto full;
	f = dard_flow_insert(dd, nf);
	if (f == nf) {
		dard_count(dd, DARD_STAT_NEW_FLOW);
		if (kd->d.weighted)
			dard_count(dd, DARD_STAT_NEW_FLOW_WEIGHTED);
	}
	if (f)
		return f;
	*tmp = *nf;
	spin_lock_init(&tmp->lock);
	INIT_LIST_HEAD(&tmp->ev);
	kfree(nf);
full:
	/* Sent on its hashed path all the same, and forgotten. */
	dard_count(dd, DARD_STAT_FLOW_FULL);
	return tmp;
}

/* A known flow on a path dardd marked dead moves to the next live one
 * (dard_repath_dead), once per liveness generation. */
static void repath_dead(struct dard_dev *dd, const struct dard_dest *d,
			struct dard_flow *f, u32 gen)
{
	u32 j;

	if (f->live_gen == gen)
		return;
	f->live_gen = gen;
	j = dard_repath_dead(d, f->path_idx, &f->path);
	if (j >= DARD_PATHS_MAX)
		return;
	f->path = d->path[j];
	f->path_idx = j;
	dard_count(dd, DARD_STAT_REPATH_DEAD);
}

/* After a TCP failure, where dard_move_on says; 0 if the flow moved. */
static int move_on(const struct dard_dest *d, struct dard_flow *f)
{
	u32 j = dard_move_on(d, f->path_idx, &f->path);

	if (j >= DARD_PATHS_MAX)
		return -1;
	f->path = d->path[j];
	f->path_idx = j;
	return 0;
}

/*
 * A TCP flow whose packets leave with a new transmit hash moves on
 * (dard_rehash has the rule): Linux re-drew it on a timeout or a
 * repeated SYN-ACK. The module has no RTO callback, so the hash change
 * is how it sees a timeout, and holds a placed flow there
 * (dard_rto_hold): the first timeout's retransmission leaves with
 * icsk_retransmits 1.
 */
static bool repath_rehash(struct dard_dev *dd, const struct dard_dest *d,
			  struct dard_flow *f, const struct pkt *p)
{
	u32 old = f->txhash, how;
	int hold = dard_rto_hold(f->moves, p->retransmits,
				 p->tcp_flags & TCPHDR_SYN);

	f->txhash = p->hash;
	how = dard_rehash(old, p->hash, p->key.proto, p->tcp_flags, &f->flags,
			  hold);
	if (how == DARD_REHASH_HOLD)
		dard_count(dd, DARD_STAT_RTO_HELD);
	if (how != DARD_REHASH_MOVE || move_on(d, f))
		return false;
	dard_count(dd, p->tcp_flags & TCPHDR_SYN ? DARD_STAT_REPATH_SYN
						 : DARD_STAT_REPATH_REHASH);
	return true;
}

/*
 * Our ACKs lost: the peer times out and sends again what we have, which we
 * answer with a D-SACK. The same D-SACK twice means it timed out at least
 * twice, and the flow moves on, one path per further copy.
 */
static void repath_dsack(struct dard_dev *dd, const struct dard_dest *d,
			 struct dard_flow *f, const struct pkt *p)
{
	if (f->dsack != p->dsack_start) {
		f->dsack = p->dsack_start;
		return;
	}
	if (!move_on(d, f))
		dard_count(dd, DARD_STAT_REPATH_DSACK);
}

/* Counts the packet into f; true if an event became due. */
static bool account(struct dard_dev *dd, struct dard_flow *f,
		    const struct pkt *p, u64 now)
{
	u32 before = f->flags;

	/* A new connection on an ended flow's 5-tuple starts afresh. */
	if ((p->tcp_flags & TCPHDR_SYN) && (f->flags & DARD_FLOW_F_ENDED)) {
		f->first_ns = now;
		f->bytes = 0;
		f->payload = 0;
		f->packets = 0;
		f->elephant_ns = 0;
		f->flags &= DARD_FLOW_F_SYN_HASH;
		before = f->flags;
	}
	f->bytes += p->len;
	f->payload += dard_payload(p->len, p->ihl * 4, p->l4_hlen);
	f->packets++;
	/* The GC reads it without the flow's lock. */
	WRITE_ONCE(f->last_ns, now);
	if (!(f->flags & DARD_FLOW_F_ELEPHANT) &&
	    dard_is_elephant(now - f->first_ns, f->payload,
			     READ_ONCE(dd->elephant_age_ns),
			     READ_ONCE(dd->elephant_bytes))) {
		f->elephant_ns = now;
		f->flags |= DARD_FLOW_F_ELEPHANT;
	}
	if (p->tcp_flags & (TCPHDR_FIN | TCPHDR_RST))
		f->flags |= DARD_FLOW_F_ENDED;
	return f->flags != before &&
	       (f->flags & (DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_ENDED));
}

/* Elephants carry the mark; mice their own DSCP unless it is the mark. */
static u8 outer_tos(struct dard_dev *dd, const struct pkt *p, bool elephant)
{
	u8 mark = READ_ONCE(dd->elephant_dscp), dscp = p->tos >> 2;

	if (mark != DARD_DSCP_INHERIT) {
		if (elephant)
			dscp = mark;
		else if (dscp == mark)
			dscp = 0;
	}
	/* RFC 6040 normal mode: the inner ECN field, CE included. */
	return dscp << 2 | (p->tos & INET_ECN_MASK);
}

/*
 * Whether p is too big for an outer route whose MTU leaves mtu for it:
 * then it is dropped, never sent in outer fragments (a BPF host drops
 * them), with an ICMP "fragmentation needed" if DF is set. The inner
 * route learns the MTU either way.
 */
static bool too_big(struct sk_buff *skb, const struct pkt *p, u32 mtu)
{
	skb_dst_update_pmtu_no_confirm(skb, mtu);
	if (skb_is_gso(skb) ? skb_gso_validate_network_len(skb, mtu)
			    : p->len <= mtu)
		return false;
	if (p->frag & htons(IP_DF))
		icmp_ndo_send(skb, ICMP_DEST_UNREACH, ICMP_FRAG_NEEDED,
			      htonl(mtu));
	return true;
}

/* Wraps skb as ipip's ip_tunnel_xmit does; returns the stat of a drop. */
static int encap(struct dard_dev *dd, struct sk_buff *skb,
		 struct dard_alias_pair path, const struct pkt *p, u8 tos)
{
	struct net_device *dev = dd->dev;
	struct flowi4 fl4 = {
		.daddr = path.daddr,
		.saddr = path.saddr,
		.flowi4_proto = IPPROTO_IPIP,
		.flowi4_tos = RT_TOS(tos),
	};
	struct rtable *rt;

	rt = ip_route_output_key(dev_net(dev), &fl4);
	if (IS_ERR(rt)) {
		DEV_STATS_INC(dev, tx_carrier_errors);
		return DARD_STAT_DROP_NO_PATH;
	}
	if (unlikely(rt->dst.dev == dev)) {
		/* The outer pair routes back into us: a loop. */
		DEV_STATS_INC(dev, collisions);
		goto err_rt;
	}
	if (too_big(skb, p, dst_mtu(&rt->dst) - sizeof(struct iphdr))) {
		ip_rt_put(rt);
		return DARD_STAT_DROP_OVERSIZE;
	}
	if (skb_cow_head(skb, LL_RESERVED_SPACE(rt->dst.dev) +
				      sizeof(struct iphdr) +
				      rt->dst.header_len) ||
	    iptunnel_handle_offloads(skb, SKB_GSO_IPXIP4))
		goto err_rt;
	skb_set_inner_ipproto(skb, IPPROTO_IPIP);
	dard_count(dd, DARD_STAT_ENCAP);
	dard_mark_xmit(rt, skb, fl4.saddr, fl4.daddr, tos, DARD_OUTER_TTL,
		       p->frag & htons(IP_DF));
	return PARSE_OK;

err_rt:
	ip_rt_put(rt);
	return DARD_STAT_DROP_ADJUST;
}

/* The pair's IPv6 aliases in fl6 (linux/dard_layout6.h). */
static void pair_v6(const struct dard_layout6 *l, struct dard_alias_pair path,
		    struct flowi6 *fl6)
{
	u32 s[4], d[4];
	int i;

	dard_alias_v6(l, ntohl(path.saddr), s);
	dard_alias_v6(l, ntohl(path.daddr), d);
	for (i = 0; i < 4; i++) {
		fl6->saddr.s6_addr32[i] = htonl(s[i]);
		fl6->daddr.s6_addr32[i] = htonl(d[i]);
	}
}

/*
 * 4in6: wraps skb in IPv6 as ip6_tunnel's ip6_tnl_xmit does. The flow
 * label is the flow's hash (RFC 6438), as the BPF datapath's. Returns the
 * stat of a drop.
 */
static int encap6(struct dard_dev *dd, struct sk_buff *skb,
		  const struct dard_layout6 *l, struct dard_alias_pair path,
		  const struct pkt *p, u8 tos)
{
	struct net_device *dev = dd->dev;
	struct net *net = dev_net(dev);
	struct flowi6 fl6 = {.flowi6_proto = IPPROTO_IPIP};
	/* The mask is big-endian: the hash's low 20 bits, as the BPF's. */
	__be32 label = htonl(skb_get_hash(skb) & ntohl(IPV6_FLOWLABEL_MASK));
	struct dst_entry *dst;
	struct ipv6hdr *ip6;

	pair_v6(l, path, &fl6);
	fl6.flowlabel = ip6_make_flowinfo(tos, label);
	dst = ip6_route_output(net, NULL, &fl6);
	if (dst->error) {
		dst_release(dst);
		DEV_STATS_INC(dev, tx_carrier_errors);
		return DARD_STAT_DROP_NO_PATH;
	}
	if (unlikely(dst->dev == dev)) {
		DEV_STATS_INC(dev, collisions);
		goto err_dst;
	}
	if (too_big(skb, p, dst_mtu(dst) - sizeof(struct ipv6hdr))) {
		dst_release(dst);
		return DARD_STAT_DROP_OVERSIZE;
	}
	if (skb_cow_head(skb, LL_RESERVED_SPACE(dst->dev) +
				      sizeof(struct ipv6hdr) +
				      dst->header_len) ||
	    iptunnel_handle_offloads(skb, SKB_GSO_IPXIP6))
		goto err_dst;
	skb_set_inner_ipproto(skb, IPPROTO_IPIP);
	skb_scrub_packet(skb, false);
	skb_dst_set(skb, dst);
	skb_push(skb, sizeof(*ip6));
	skb_reset_network_header(skb);
	skb->protocol = htons(ETH_P_IPV6);
	ip6 = ipv6_hdr(skb);
	ip6_flow_hdr(ip6, tos, label);
	ip6->hop_limit = DARD_OUTER_TTL;
	ip6->nexthdr = IPPROTO_IPIP;
	ip6->saddr = fl6.saddr;
	ip6->daddr = fl6.daddr;
	dard_count(dd, DARD_STAT_ENCAP);
	dard_mark_xmit6(skb, dev);
	return PARSE_OK;

err_dst:
	dst_release(dst);
	return DARD_STAT_DROP_ADJUST;
}

/*
 * The flow of p and its path, placed or moved as needed, and whether it is
 * an elephant. Returns PARSE_OK or the stat of a drop.
 */
static int choose(struct dard_dev *dd, struct sk_buff *skb, const struct pkt *p,
		  struct dard_alias_pair *path, bool *elephant)
{
	const struct dard_kdest *kd;
	struct dard_kflow *f, tmp;
	bool due;
	u32 gen;
	u64 now;

	rcu_read_lock();
	kd = dard_dest_find(dd, p->key.daddr);
	if (kd && !kd->d.npaths)
		kd = NULL;
	now = ktime_get_coarse_ns();
	gen = READ_ONCE(dd->live_gen);
	f = dard_flow_lookup(dd, &p->key);
	if (!f) {
		if (!kd) {
			rcu_read_unlock();
			icmp_ndo_send(skb, ICMP_DEST_UNREACH, ICMP_HOST_UNREACH,
				      0);
			return DARD_STAT_DROP_NO_PATH;
		}
		f = new_flow(dd, kd, p, now, gen, &tmp);
	}
	spin_lock(&f->lock);
	/* As in the BPF datapath, a known flow whose destination was
	 * forgotten (kd NULL) keeps its path until it is deleted. */
	if (kd && f->dest_gen != kd->gen) {
		/* Its destination's paths were replaced: placed anew. */
		place(dd, kd, f, gen);
	} else if (kd) {
		repath_dead(dd, &kd->d, &f->f, gen);
		/* Not after a move for a new hash: one loss, one move. */
		if ((f->f.txhash == p->hash ||
		     !repath_rehash(dd, &kd->d, &f->f, p)) &&
		    p->dsack)
			repath_dsack(dd, &kd->d, &f->f, p);
	}
	due = account(dd, &f->f, p, now);
	*path = f->f.path;
	*elephant = f->f.flags & DARD_FLOW_F_ELEPHANT;
	spin_unlock(&f->lock);
	/* Inside the read section: a concurrent delete or eviction frees f
	 * only after it, and owes_event reads f. */
	if (due && f != &tmp)
		dard_flow_owes_event(dd, f);
	rcu_read_unlock();
	return PARSE_OK;
}

netdev_tx_t dard_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct dard_dev *dd = netdev_priv(dev);
	const struct dard_klayout *kl;
	struct dard_alias_pair path;
	bool elephant;
	struct pkt p;
	int stat;

	if (skb->protocol != htons(ETH_P_IP)) {
		stat = DARD_STAT_NON_IPV4;
		goto drop;
	}
	skb_reset_network_header(skb);
	stat = parse(skb, &p);
	if (stat != PARSE_OK)
		goto drop;
	stat = choose(dd, skb, &p, &path, &elephant);
	if (stat != PARSE_OK)
		goto drop;
	if (p.ihl > 5)
		dard_count(dd, DARD_STAT_IP_OPTIONS);
	/* ndo_start_xmit runs under rcu_read_lock_bh; the layout's readers
	 * take the plain lock, as choose() does. */
	rcu_read_lock();
	kl = rcu_dereference(dd->layout6);
	if (kl)
		stat = encap6(dd, skb, &kl->l, path, &p,
			      outer_tos(dd, &p, elephant));
	else
		stat = encap(dd, skb, path, &p, outer_tos(dd, &p, elephant));
	rcu_read_unlock();
	if (stat == PARSE_OK)
		return NETDEV_TX_OK;
drop:
	dard_count(dd, stat);
	DEV_STATS_INC(dev, tx_dropped);
	kfree_skb(skb);
	return NETDEV_TX_OK;
}
