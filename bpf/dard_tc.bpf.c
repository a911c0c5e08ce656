// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard's host datapath on the fabric interface's TC hooks. Egress wraps
 * packets to an ID in IP-in-IP whose outer pair names the flow's path;
 * ingress unwraps packets to one of our aliases that carry our ID inside.
 * Documentation/datapath.md has the policies.
 */
#include <linux/dard_policy.h>

#include "dsack.h"
#include "encap.h"
#include "encap6.h"
#include "maps.h"
#include "parse.h"

/* <sys/socket.h>'s, which a BPF object cannot include. */
#define AF_INET 2
#define AF_INET6 10

char LICENSE[] SEC("license") = "Dual MIT/GPL";

/* Set by the loader before load. */
const volatile __be32 my_id = 0;
const volatile __u64 elephant_age_ns = 10ULL * 1000000000; /* paper: 10 s */
const volatile __u64 elephant_bytes = 0; /* payload (dard_policy.h) */
const volatile int elephant_dscp = 8;	 /* < 0: leave DSCP alone */
const volatile __u32 hash_seed = 0;
const volatile __u32 fabric_mtu = 1500; /* the interface's, read at attach */

static __always_inline void report(struct dard_flow *f,
				   const struct dard_flow_key *key, __u32 type,
				   __u32 done_flag, __u64 now)
{
	struct dard_event *ev;

	/* Marked only once delivered: a full ring is tried again later. */
	ev = bpf_ringbuf_reserve(&dard_events, sizeof(*ev), 0);
	if (!ev) {
		count(DARD_STAT_EVENT_RETRY);
		return;
	}
	/* Filled in place; the reserved record is not zeroed. */
	ev->type = type;
	ev->pad = 0;
	ev->key = *key;
	ev->path = f->path;
	ev->ts_ns = now;
	ev->bytes = f->bytes;
	bpf_ringbuf_submit(ev, 0);
	__sync_fetch_and_or(&f->flags, done_flag);
}

/*
 * A flow the table has not seen: placed on a path of its destination if
 * that is an ID (dard_place: by hash, dead paths avoided). Returns NULL,
 * with *is_id telling whether the packet is ours to drop (an ID we
 * cannot place it for) or to pass.
 */
static __always_inline struct dard_flow *
new_flow(struct iphdr *ip, const struct dard_flow_key *key, __u64 now,
	 __u32 txhash, __u32 gen, int *is_id)
{
	const struct dard_dest *dest;
	struct dard_flow nf = {};
	struct dard_flow *f;
	__u32 i, how;

	dest = bpf_map_lookup_elem(&dard_dests, &ip->daddr);
	*is_id = !!dest;
	if (!dest)
		return NULL;
	if (!dest->npaths || dest->npaths > DARD_PATHS_MAX) {
		count(DARD_STAT_DROP_NO_PATH);
		return NULL;
	}
	i = dard_place(dest, dard_flow_hash(hash_seed, key), &how);
	/* The compiler knows i < npaths <= DARD_PATHS_MAX and would drop the
	 * check the verifier needs; hide what it knows. */
	barrier_var(i);
	if (i >= DARD_PATHS_MAX)
		return NULL;
	if (how == DARD_PLACE_DEAD_AVOIDED)
		count(DARD_STAT_NEW_FLOW_DEAD_AVOIDED);
	else if (how == DARD_PLACE_ALL_DEAD)
		count(DARD_STAT_ALL_PATHS_DEAD);
	nf.path = dest->path[i];
	nf.path_idx = i;
	nf.txhash = txhash;
	nf.live_gen = gen;
	nf.first_ns = now;
	/* Another CPU may have placed it first: then its choice stands. */
	if (bpf_map_update_elem(&dard_flows, key, &nf, BPF_NOEXIST) == 0) {
		count(DARD_STAT_NEW_FLOW);
		if (dest->weighted)
			count(DARD_STAT_NEW_FLOW_WEIGHTED);
	}
	f = bpf_map_lookup_elem(&dard_flows, key);
	if (!f)
		count(DARD_STAT_FLOW_FULL);
	return f;
}

/*
 * A known flow whose path dardd marked dead moves to the next live one,
 * now, whatever its protocol (dard_repath_dead). Checked once per
 * liveness generation (gen): a flow that noted this one already has
 * nothing to learn. A flow whose index is unknown is left to dardd.
 */
static __always_inline void repath_dead(struct iphdr *ip, struct dard_flow *f,
					__u32 gen)
{
	const struct dard_dest *dest;
	__u32 j;

	if (f->live_gen == gen)
		return;
	f->live_gen = gen;
	if (f->path_idx >= DARD_PATHS_MAX)
		return;
	dest = bpf_map_lookup_elem(&dard_dests, &ip->daddr);
	if (!dest)
		return;
	j = dard_repath_dead(dest, f->path_idx, &f->path);
	barrier_var(j);
	if (j >= DARD_PATHS_MAX)
		return;
	f->path = dest->path[j];
	f->path_idx = j;
	count(DARD_STAT_REPATH_DEAD);
}

/* Moves f on after TCP said its path failed (dard_move_on); 0 if it moved. */
static __always_inline int move_on(const struct dard_dest *dest,
				   struct dard_flow *f)
{
	__u32 j = dard_move_on(dest, f->path_idx, &f->path);

	barrier_var(j);
	if (j >= DARD_PATHS_MAX)
		return -1;
	f->path = dest->path[j];
	f->path_idx = j;
	return 0;
}

/*
 * A TCP flow whose packets leave with a new transmit hash (skb->hash):
 * Linux re-drew it as it believes the path is failing, and the flow
 * moves on (dard_rehash has the rule). A passive socket has no sock_ops
 * RTO callback before it is established, so a repeated SYN-ACK is how a
 * mouse's server repairs its side (repath_syn); an established flow's
 * new hash is a timeout the callback did not see, as on a host without a
 * cgroup v2 (repath_rehash). dard_sockops holds and moves flows on its
 * timeouts itself and zeroes the noted hash, so that a timeout moves a
 * flow once: here no timeout is held. Returns 1 if the flow moved.
 */
static __always_inline int repath_rehash(struct iphdr *ip, struct dard_flow *f,
					 __u32 hash, __u8 tcp_flags)
{
	__u32 old = f->txhash, was = f->flags, flags = was, how;
	const struct dard_dest *dest;

	f->txhash = hash;
	how = dard_rehash(old, hash, ip->protocol, tcp_flags, &flags, 0);
	/* Only its bit, atomically: other CPUs may set the others. */
	if ((flags ^ was) & DARD_FLOW_F_SYN_HASH) {
		if (flags & DARD_FLOW_F_SYN_HASH)
			__sync_fetch_and_or(&f->flags, DARD_FLOW_F_SYN_HASH);
		else
			__sync_fetch_and_and(&f->flags, ~DARD_FLOW_F_SYN_HASH);
	}
	if (how != DARD_REHASH_MOVE)
		return 0;
	dest = bpf_map_lookup_elem(&dard_dests, &ip->daddr);
	if (!dest || move_on(dest, f))
		return 0;
	count(tcp_flags & TCPHDR_SYN ? DARD_STAT_REPATH_SYN
				     : DARD_STAT_REPATH_REHASH);
	return 1;
}

/*
 * A TCP flow whose packets reach its peer but whose ACKs do not: the peer
 * times out and sends again what we already have, which we answer with a
 * D-SACK, and those answers are lost too. Linux would re-draw our hash
 * on the second copy of the same segment for IPv6 only (keyed on the flow
 * label), so we do it here for our paths: a D-SACK for the same sequence
 * number as the last one this flow sent means the peer timed out on it at
 * least twice, and the flow moves on. A flow that keeps failing keeps
 * moving, one path per further copy.
 */
static __always_inline void repath_dsack(struct __sk_buff *skb,
					 struct iphdr *ip, struct dard_flow *f,
					 __u8 l4_hlen)
{
	const struct dard_dest *dest;
	__u32 start;

	if (!tcp_dsack(skb, ip, l4_hlen, &start))
		return;
	if (f->dsack != start) {
		f->dsack = start;
		return;
	}
	dest = bpf_map_lookup_elem(&dard_dests, &ip->daddr);
	if (dest && !move_on(dest, f))
		count(DARD_STAT_REPATH_DSACK);
}

/*
 * A packet not to an ID leaves as the kernel made it, except for the
 * elephant mark, which only this datapath sets (protocol.md, threat
 * model): switches count IP-in-IP by its outer DSCP, so IP-in-IP that we
 * did not wrap (a raw socket's: any process with CAP_NET_RAW, a
 * container's too) leaves with its DSCP cleared, and so does anything
 * else carrying the mark. ECN stays. The host's own tunnels still work;
 * they lose only their DSCP.
 */
static __always_inline int pass(struct __sk_buff *skb, struct iphdr *ip)
{
	const __u32 at = ETH_HLEN + offsetof(struct iphdr, tos);
	__u8 tos = ip->tos, dscp = tos >> 2;
	__be16 from, to;

	count(DARD_STAT_EGRESS_PASS);
	if (!dscp || (ip->protocol != IPPROTO_IPIP &&
		      (elephant_dscp < 0 || dscp != elephant_dscp)))
		return TC_ACT_OK;
	/* The header's first 16-bit word: version and IHL, then TOS. */
	from = *(__be16 *)ip;
	to = bpf_htons((bpf_ntohs(from) & 0xff00) | (tos & 3));
	tos &= 3;
	if (bpf_l3_csum_replace(skb, ETH_HLEN + offsetof(struct iphdr, check),
				from, to, sizeof(to)) ||
	    bpf_skb_store_bytes(skb, at, &tos, 1, 0))
		return TC_ACT_SHOT;
	count(DARD_STAT_MARK_CLEARED);
	return TC_ACT_OK;
}

/* A malformed packet: dropped if it is to an ID, else the kernel's. */
static __always_inline int malformed(struct __sk_buff *skb, struct iphdr *ip,
				     __u32 stat)
{
	if (!bpf_map_lookup_elem(&dard_dests, &ip->daddr))
		return pass(skb, ip);
	count(stat);
	return TC_ACT_SHOT;
}

/* check_len's: no stat, as no drop. */
#define LEN_OK __DARD_STAT_MAX

/*
 * The total length of the packet at ip, into *len, once its header says
 * a length the packet has: LEN_OK, or the stat of why not.
 */
static __always_inline __u32 check_len(struct __sk_buff *skb, struct iphdr *ip,
				       __u16 *len)
{
	if (ip->ihl < 5)
		return DARD_STAT_DROP_BAD_IHL;
	*len = bpf_ntohs(ip->tot_len);
	/*
	 * BIG TCP: a GSO packet over 64 KiB carries total length 0, and so
	 * would its outer header, which the fabric's switches and the peer's
	 * checks cannot take. Attach caps the device's sizes at 64 KiB, so
	 * this counts only what an operator raised since.
	 */
	if (!*len && skb->gso_size)
		return DARD_STAT_DROP_BIG_TCP;
	if (*len < ip->ihl * 4 || *len > skb->len - ETH_HLEN)
		return DARD_STAT_DROP_BAD_LEN;
	return LEN_OK;
}

/*
 * The flow of key, placed if it is new, and moved if it is known and its
 * path died or TCP said the path failed. NULL with *verdict when there is
 * none: to an ID we cannot place a flow for, dropped (no path and a full
 * table were counted already), to anyone else, passed.
 */
static __always_inline struct dard_flow *
egress_flow(struct __sk_buff *skb, struct iphdr *ip,
	    const struct dard_flow_key *key, __u8 tcp_flags, __u8 l4_hlen,
	    __u64 now, int *verdict)
{
	__u32 zero = 0, *genp, gen;
	struct dard_flow *f;
	int is_id;

	/* Read before any destination is: an array lookup, inlined. */
	genp = bpf_map_lookup_elem(&dard_live_gen, &zero);
	gen = genp ? *genp : 0;
	/* The flow table holds only flows to IDs, so a known flow needs no
	 * look at the destinations: one lookup per packet. */
	f = bpf_map_lookup_elem(&dard_flows, key);
	if (!f) {
		f = new_flow(ip, key, now, skb->hash, gen, &is_id);
		if (!f && !is_id) {
			*verdict = pass(skb, ip);
		} else if (!f) {
			*verdict = TC_ACT_SHOT;
		}
		return f;
	}
	repath_dead(ip, f, gen);
	/*
	 * Options beyond the header: a SACK, perhaps a D-SACK. Not after a
	 * move for a new hash: a kernel before 6.7 re-draws an IPv4
	 * receiver's hash on the very packet that repeats the D-SACK, and
	 * one loss is one move.
	 */
	if ((f->txhash == skb->hash ||
	     !repath_rehash(ip, f, skb->hash, tcp_flags)) &&
	    l4_hlen > sizeof(struct tcphdr) && key->proto == IPPROTO_TCP &&
	    !(tcp_flags & TCPHDR_SYN))
		repath_dsack(skb, ip, f, l4_hlen);
	return f;
}

/*
 * Whether the fabric cannot carry the packet with 20 more bytes: a GSO
 * packet's segments (gso_size of payload behind the headers), or the
 * packet itself. The ID route's MTU makes this hold; a packet that still
 * does not fit is dropped and counted. So is a GSO packet whose outer
 * length would pass 16 bits (a UDP GSO send may be 65,535 bytes): a
 * switch would see a length shorter than its header.
 */
static __always_inline int oversize(struct __sk_buff *skb, struct iphdr *ip,
				    __u16 len, __u8 l4_hlen)
{
	__u32 outer =
		layout6.outer6 ? sizeof(struct ipv6hdr) : sizeof(struct iphdr);

	if (len > 0xffff - outer)
		return 1;
	if (skb->gso_size)
		return skb->gso_size + ip->ihl * 4 + l4_hlen + outer >
		       fabric_mtu;
	return len + outer > fabric_mtu;
}

/*
 * The packet counted into its flow: bytes, payload, the elephant test,
 * and the events of an elephant and of the flow's end.
 */
static __always_inline void account(struct dard_flow *f,
				    const struct dard_flow_key *key,
				    struct iphdr *ip, __u16 len, __u8 l4_hlen,
				    __u8 tcp_flags, __u64 now)
{
	/* A new connection on an ended flow's 5-tuple starts afresh: its
	 * client's SYN, or its server's SYN-ACK. */
	if ((tcp_flags & TCPHDR_SYN) && (f->flags & DARD_FLOW_F_ENDED)) {
		f->first_ns = now;
		f->bytes = 0;
		f->payload = 0;
		f->packets = 0;
		f->elephant_ns = 0;
		f->flags = f->flags & DARD_FLOW_F_SYN_HASH;
	}
	/*
	 * Plain adds: a flow's packets leave through one queue, so one CPU
	 * at a time; a rare race costs a count, and a locked add on every
	 * packet costs more than it is worth.
	 */
	f->bytes += len;
	f->payload += dard_payload(len, ip->ihl * 4, l4_hlen);
	f->packets++;
	if (f->last_ns != now)
		f->last_ns = now;
	if (!(f->flags & DARD_FLOW_F_ELEPHANT) &&
	    dard_is_elephant(now - f->first_ns, f->payload, elephant_age_ns,
			     elephant_bytes)) {
		f->elephant_ns = now;
		__sync_fetch_and_or(&f->flags, DARD_FLOW_F_ELEPHANT);
	}
	if ((f->flags & (DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED)) ==
	    DARD_FLOW_F_ELEPHANT)
		report(f, key, DARD_EVENT_ELEPHANT, DARD_FLOW_F_REPORTED, now);
	if (tcp_flags & (TCPHDR_FIN | TCPHDR_RST)) {
		__sync_fetch_and_or(&f->flags, DARD_FLOW_F_ENDED);
		if (!(f->flags & DARD_FLOW_F_END_REPORTED))
			report(f, key, DARD_EVENT_END, DARD_FLOW_F_END_REPORTED,
			       now);
	}
}

/*
 * The outer DSCP: elephants carry the mark; mice the inner DSCP, unless
 * it is the mark itself, which switches would count as an elephant.
 */
static __always_inline int outer_dscp(const struct dard_flow *f, __u8 tos)
{
	int dscp = tos >> 2;

	if (elephant_dscp < 0)
		return dscp;
	if (f->flags & DARD_FLOW_F_ELEPHANT)
		return elephant_dscp;
	return dscp == elephant_dscp ? 0 : dscp;
}

static __always_inline int egress(struct __sk_buff *skb)
{
	struct dard_flow_key key = {};
	__u8 tos, tcp_flags, l4_hlen;
	struct dard_flow *f;
	__be16 frag, ipid;
	struct iphdr *ip;
	int truncated, verdict = TC_ACT_SHOT;
	__u16 len = 0;
	__u32 stat;
	__u64 now;

	ip = parse_ipv4(skb, &truncated);
	if (!ip) {
		count(truncated ? DARD_STAT_DROP_TRUNCATED
				: DARD_STAT_NON_IPV4);
		return truncated ? TC_ACT_SHOT : TC_ACT_OK;
	}
	/* To an ID, it leaves wrapped or not at all; else untouched. */
	stat = check_len(skb, ip, &len);
	if (stat != LEN_OK)
		return malformed(skb, ip, stat);
	tos = ip->tos;
	frag = ip->frag_off;
	ipid = ip->id;
	if (parse_flow(skb, ip, &key, &tcp_flags, &l4_hlen))
		return malformed(skb, ip, DARD_STAT_DROP_TRUNCATED);
	/* A jiffy's resolution is plenty for ages of seconds. */
	now = bpf_ktime_get_coarse_ns();
	f = egress_flow(skb, ip, &key, tcp_flags, l4_hlen, now, &verdict);
	if (!f)
		return verdict;
	if (ip->ihl > 5)
		count(DARD_STAT_IP_OPTIONS);
	if (oversize(skb, ip, len, l4_hlen)) {
		count(DARD_STAT_DROP_OVERSIZE);
		return TC_ACT_SHOT;
	}
	account(f, &key, ip, len, l4_hlen, tcp_flags, now);
	if (layout6.outer6
		    ? push_ip6ip(skb, &f->path, tos, len, outer_dscp(f, tos),
				 bpf_get_hash_recalc(skb) & 0xfffff)
		    : push_ipip(skb, &f->path, tos, frag, ipid, len,
				outer_dscp(f, tos))) {
		count(DARD_STAT_DROP_ADJUST);
		return TC_ACT_SHOT;
	}
	count(DARD_STAT_ENCAP);
	return TC_ACT_OK;
}

_Static_assert(DARD_STAT_DROP_CE_NOT_ECT != 0 && DARD_STAT_DROP_ADJUST != 0,
	       "ecn_decap's 0 is no drop");

/*
 * RFC 6040 at decapsulation: congestion marked outside (outer_ecn, the
 * outer header's two ECN bits) reaches an ECN-capable inside, whose
 * header at in_off gets CE and its checksum mended; an inside that cannot
 * carry the mark is dropped, as the congested switch would have dropped
 * it. 0, or the counter of the drop. Packet pointers are stale after.
 */
static __always_inline __u32 ecn_decap(struct __sk_buff *skb, __u8 outer_ecn,
				       struct iphdr *in, __u32 in_off)
{
	__u16 old, new;

	if (outer_ecn != 3 || (in->tos & 3) == 3)
		return 0;
	if (!(in->tos & 3))
		return DARD_STAT_DROP_CE_NOT_ECT;
	old = *(__u16 *)in;
	in->tos |= 3;
	new = *(__u16 *)in;
	if (bpf_l3_csum_replace(skb, in_off + offsetof(struct iphdr, check),
				old, new, 2))
		return DARD_STAT_DROP_ADJUST;
	return 0;
}

/* ingress6(): 4in6 in, with the checks below; it needs my_id and count. */
#include "ingress6.h"

static __always_inline int ingress(struct __sk_buff *skb)
{
	struct iphdr *ip, *in;
	void *data_end;
	int truncated;
	__u32 stat;

	if (layout6.outer6 && skb->protocol == bpf_htons(ETH_P_IPV6))
		return ingress6(skb);
	ip = parse_ipv4(skb, &truncated);
	if (!ip) {
		count(DARD_STAT_NON_IPV4);
		return TC_ACT_OK;
	}
	data_end = pkt_end(skb);
	/* Not IP-in-IP to one of our aliases: the kernel's business. */
	if (ip->protocol != IPPROTO_IPIP ||
	    !bpf_map_lookup_elem(&dard_aliases, &ip->daddr)) {
		count(DARD_STAT_INGRESS_PASS);
		return TC_ACT_OK;
	}
	/* Ours, so we decide, and drop what we would not have sent. */
	if (ip->ihl != 5) {
		count(ip->ihl < 5 ? DARD_STAT_DROP_BAD_IHL
				  : DARD_STAT_DROP_OUTER_OPTIONS);
		return TC_ACT_SHOT;
	}
	/*
	 * We send DF whenever the inside did, and the ID route's MTU fits
	 * every packet to the fabric, so a fragment means a fabric link with
	 * a smaller MTU. Unwrapping one piece would hand up a cut packet.
	 */
	if (ip->frag_off & bpf_htons(IP_MF | IP_OFFSET)) {
		count(DARD_STAT_DROP_OUTER_FRAGMENT);
		return TC_ACT_SHOT;
	}
	/* BIG TCP's GRO: over 64 KiB, no length to check (see egress). */
	if (!ip->tot_len && skb->gso_size) {
		count(DARD_STAT_DROP_BIG_TCP);
		return TC_ACT_SHOT;
	}
	in = ip + 1;
	if ((void *)(in + 1) > data_end) {
		/* The inner header outside the linear part: pull it in. */
		void *data = pull_revalidate(skb, ETH_HLEN + 2 * sizeof(*ip));

		if (!data) {
			count(DARD_STAT_DROP_TRUNCATED);
			return TC_ACT_SHOT;
		}
		ip = data + ETH_HLEN;
		in = ip + 1;
	}
	if (bpf_ntohs(ip->tot_len) < 2 * sizeof(*ip) ||
	    bpf_ntohs(ip->tot_len) > skb->len - ETH_HLEN ||
	    bpf_ntohs(in->tot_len) + sizeof(*ip) != bpf_ntohs(ip->tot_len)) {
		count(DARD_STAT_DROP_BAD_LEN);
		return TC_ACT_SHOT;
	}
	if (in->version != 4 || in->ihl < 5) {
		count(DARD_STAT_DROP_BAD_IHL);
		return TC_ACT_SHOT;
	}
	/* Never a relay: only packets to our own ID come out. */
	if (in->daddr != my_id) {
		count(DARD_STAT_DROP_NOT_MINE);
		return TC_ACT_SHOT;
	}
	stat = ecn_decap(skb, ip->tos & 3, in, ETH_HLEN + sizeof(*ip));
	if (stat) {
		count(stat);
		return TC_ACT_SHOT;
	}
	if (pop_ipip(skb)) {
		count(DARD_STAT_DROP_ADJUST);
		return TC_ACT_SHOT;
	}
	count(DARD_STAT_DECAP);
	return TC_ACT_OK;
}

/* The bodies are inline functions so that bench/ can time them in loops. */
SEC("tc")
int dard_tc_egress(struct __sk_buff *skb)
{
	return egress(skb);
}

SEC("tc")
int dard_tc_ingress(struct __sk_buff *skb)
{
	return ingress(skb);
}

/*
 * The flow a TCP socket sends on, as egress keys it: the socket's own
 * addresses are the inner IDs. Returns 0 if it is IPv4 (or v4-mapped).
 * remote_port is in network order, shifted into the upper 16 bits on
 * some kernels; local_port is in host order.
 */
static __always_inline int sock_key(const struct bpf_sock_ops *skops,
				    struct dard_flow_key *key)
{
	/* Volatile reads, at their fields' own offsets: the verifier refuses
	 * a context pointer the compiler offset to share a load. */
#define SK_READ(f) (*(volatile const __u32 *)&skops->f)
	__u32 family = SK_READ(family), rport = SK_READ(remote_port);
	__u32 lport = SK_READ(local_port), l4 = SK_READ(local_ip4);
	__u32 r4 = SK_READ(remote_ip4), l6 = SK_READ(local_ip6[3]);
	__u32 r6a = SK_READ(remote_ip6[0]), r6b = SK_READ(remote_ip6[1]);
	__u32 r6c = SK_READ(remote_ip6[2]), r6d = SK_READ(remote_ip6[3]);
#undef SK_READ

	if (family == AF_INET) {
		key->saddr = l4;
		key->daddr = r4;
	} else if (family == AF_INET6 && !r6a && !r6b &&
		   r6c == bpf_htonl(0xffff)) {
		key->saddr = l6;
		key->daddr = r6d;
	} else {
		return -1;
	}
	key->sport = bpf_htons(lport);
	key->dport = rport > 0xffff ? rport >> 16 : rport;
	key->proto = IPPROTO_TCP;
	return 0;
}

/*
 * A retransmission timeout: the flow's path lost a whole window or its
 * SYN, so it moves on (move_on) before the retransmission leaves. A flow
 * that keeps timing out keeps going round its paths. Except once: a flow
 * that userspace placed keeps its path through the first timeout in a
 * row (dard_rto_hold), args[0] (icsk_retransmits) being 0 at the first.
 */
static __always_inline void repath_rto(const struct bpf_sock_ops *skops)
{
	struct dard_flow_key key = {};
	const struct dard_dest *dest;
	struct dard_flow *f;

	if (sock_key(skops, &key))
		return;
	f = bpf_map_lookup_elem(&dard_flows, &key);
	if (!f)
		return;
	/* The kernel re-draws the socket's hash on this timeout too: the
	 * TC program notes the new one rather than moving the flow. */
	if (dard_rto_hold(f->moves, skops->args[0] + 1,
			  skops->state == BPF_TCP_SYN_SENT)) {
		f->txhash = 0;
		count(DARD_STAT_RTO_HELD);
		return;
	}
	dest = bpf_map_lookup_elem(&dard_dests, &key.daddr);
	if (!dest || move_on(dest, f))
		return;
	/* The kernel re-draws the socket's hash on this timeout too: the
	 * TC program notes the new one rather than moving the flow again. */
	f->txhash = 0;
	count(DARD_STAT_REPATH_RTO);
}

/*
 * On every socket of the cgroup, whatever host's: a socket to one of our
 * destinations asks for RTO callbacks, and an RTO on one of our flows
 * repaths it. Other hosts' sockets find nothing in our maps.
 */
SEC("sockops")
int dard_sockops(struct bpf_sock_ops *skops)
{
	struct dard_flow_key key = {};

	switch (skops->op) {
	case BPF_SOCK_OPS_TCP_CONNECT_CB:
	case BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB:
	case BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB:
		if (!sock_key(skops, &key) &&
		    bpf_map_lookup_elem(&dard_dests, &key.daddr))
			bpf_sock_ops_cb_flags_set(
				skops, skops->bpf_sock_ops_cb_flags |
					       BPF_SOCK_OPS_RTO_CB_FLAG);
		break;
	case BPF_SOCK_OPS_RTO_CB:
		repath_rto(skops);
		break;
	}
	return 1;
}
