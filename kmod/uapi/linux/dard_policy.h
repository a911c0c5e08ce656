/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Decisions both host datapaths make, written once: pure integer
 * functions that the BPF programs, the kernel module and userspace
 * (libdard, its tests, the simulator, dardd's defaults) all include, so
 * that one definition holds everywhere and the unit tests test the
 * kernel's. Nothing here touches a packet, a map or a lock: the callers
 * read and write those, and count what these return.
 *
 *   dard_is_elephant      the elephant rule, on dard_payload's bytes
 *   dard_flow_hash        a flow key's hash, which places a new flow
 *   dard_hash_path        a hash's path: its slot's, or hash % npaths
 *   dard_path_dead        whether a path is known dead
 *   dard_next_live        the first live path after one, going round
 *   dard_place            a new flow's path: hashed, dead ones avoided
 *   dard_repath_dead      a known flow's path once its own is dead
 *   dard_move_on          a TCP flow's path once TCP said it failed: a
 *                         timeout, a new transmit hash, a D-SACK twice
 *   dard_rto_hold         whether a placed flow sits a timeout out
 *   dard_rehash           what a TCP packet's new transmit hash says
 *   dard_dsack_step       one step of the walk of a packet's TCP options
 *   dard_dsack            whether they carry a D-SACK, and its start
 *   dard_slots_step       one step of building a weighted destination's
 *                         slot table (WCMP)
 *   dard_slots_apportion  each weighted path's share of the slots
 *   dard_slots_build      the whole table
 *   dard_slots_count      each path's slots in a table
 *
 * Each compiles three times: clang -target bpf, the kernel's gcc and
 * userspace's. Hence <linux/types.h> types only, no libc, no helper of
 * one world, and loops with a constant bound, or over a destination's
 * paths, which the BPF verifier walks turn by turn; the D-SACK walk and
 * the table's build come in steps that a BPF program runs by bpf_loop.
 * <linux/dard_policy_digest.h> runs them all on the same inputs in each
 * build (Documentation/datapath.md, "One policy, three builds").
 *
 * An elephant is a flow that has lived the elephant age and carried the
 * elephant payload: bytes of TCP or UDP data, headers left out. A flow
 * that carries only ACKs (a transfer's receiver) never becomes one,
 * whatever the thresholds say, so no switch counts it and no dardd
 * schedules it.
 */
#ifndef _UAPI_LINUX_DARD_POLICY_H
#define _UAPI_LINUX_DARD_POLICY_H

#include <linux/types.h>
#include <linux/dard.h>

/* Sparse's cast of a __be32 to its bits, which the hash takes as they are. */
#ifdef __CHECKER__
#define __dard_force __attribute__((force))
#else
#define __dard_force
#endif

/*
 * The BPF verifier's bound check, named. The compiler drops a check of
 * i < DARD_PATHS_MAX that follows i < npaths <= DARD_PATHS_MAX, as it is
 * implied; Linux 6.1's verifier (the kmod tests' guest runs it) learns
 * nothing from comparing two unknown values, and then refuses the read
 * that the dropped check guarded. An empty asm makes the compiler forget
 * what it knew of x, so the check stays. It emits no instruction, and
 * costs nothing where nothing verifies.
 */
#define __dard_opaque(x) __asm__ __volatile__("" : "+r"(x))

/*
 * In a loop that clears or copies an array of a length the compiler
 * does not know, hides the index so that the loop is not made a call to
 * memset or memcpy: clang -target bpf has neither to call.
 */
#define __dard_no_libcall(i) __dard_opaque(i)

/*
 * The default elephant payload as a share of the host link's capacity
 * over a second, in percent: Hedera's 10%. 12,500 bytes per Mbit/s:
 * 250 KB on a 20 Mbit/s link, 1.25 MB on 100 Mbit/s, 125 MB on
 * 10 Gbit/s.
 */
#define DARD_ELEPHANT_SHARE_PCT 10

static __inline__ __u64 dard_elephant_bytes_for(__u64 link_mbps)
{
	return link_mbps * (1000000 / 8 / 100) * DARD_ELEPHANT_SHARE_PCT;
}

/*
 * The payload of an IPv4 packet of tot_len bytes with an ip_hlen-byte
 * header and an l4_hlen-byte TCP or UDP header (0 for other protocols
 * and fragments, whose every byte past the IP header counts). A GSO
 * packet carries its headers once, so this is its segments' payload.
 */
static __inline__ __u32 dard_payload(__u32 tot_len, __u32 ip_hlen,
				     __u32 l4_hlen)
{
	return tot_len > ip_hlen + l4_hlen ? tot_len - ip_hlen - l4_hlen : 0;
}

/*
 * Whether a flow age_ns old that has carried payload bytes is an
 * elephant by min_age_ns and min_payload. At least one byte of payload
 * always: with min_payload 0, any flow of data of the age.
 */
static __inline__ int dard_is_elephant(__u64 age_ns, __u64 payload,
				       __u64 min_age_ns, __u64 min_payload)
{
	return age_ns >= min_age_ns && payload > 0 && payload >= min_payload;
}

/*
 * A flow key's hash: murmur3's finaliser over the key's bits as they lie
 * in memory (network order), cheap and well mixed. seed is the
 * datapath's: a BPF loader's choice, or random per kmod device.
 */
static __inline__ __u32 dard_flow_hash(__u32 seed,
				       const struct dard_flow_key *k)
{
	__u32 h = seed ^ (__dard_force __u32)k->saddr;

	h = h * 0xcc9e2d51 ^ (__dard_force __u32)k->daddr;
	h = h * 0x1b873593 ^ ((__u32)(__dard_force __u16)k->sport << 16 |
			      (__dard_force __u16)k->dport);
	h = h * 0xcc9e2d51 ^ k->proto;
	h ^= h >> 16;
	h *= 0x85ebca6b;
	h ^= h >> 13;
	h *= 0xc2b2ae35;
	h ^= h >> 16;
	return h;
}

/*
 * The path of d a flow hashed to h takes: its hash's slot of a weighted
 * destination's table, else h % npaths. A slot past the paths (none of
 * ours writes one) is taken as even. DARD_PATHS_MAX when d has no paths
 * or more than it can hold.
 */
static __inline__ __u32 dard_hash_path(const struct dard_dest *d, __u32 h)
{
	__u32 n = d->npaths, i;

	if (!n || n > DARD_PATHS_MAX)
		return DARD_PATHS_MAX;
	i = d->weighted ? d->slot[h % DARD_WCMP_SLOTS] : n;
	if (i >= n)
		i = h % n;
	return i;
}

/* Whether path i (< DARD_PATHS_MAX) of d is known dead. */
static __inline__ int dard_path_dead(const struct dard_dest *d, __u32 i)
{
	__dard_opaque(i);
	return d->dead[(i / 64) & (DARD_PATHS_MAX / 64 - 1)] >> (i % 64) & 1;
}

/* Whether path i of d is still the pair cur: a flow's index names it. */
static __inline__ int dard_path_is(const struct dard_dest *d, __u32 i,
				   const struct dard_alias_pair *cur)
{
	__dard_opaque(i);
	if (i >= DARD_PATHS_MAX)
		return 0;
	return d->path[i].saddr == cur->saddr && d->path[i].daddr == cur->daddr;
}

/*
 * Choices without a branch. The BPF verifier follows both ways of every
 * branch, each with what it then knows exactly: a search that branched
 * on each path's value or position left it as many states as indices
 * (the largest remainder over 256 paths ran past its budget of a
 * million instructions; the next live path, inlined at five places of
 * egress, made egress's check five times as long).
 */

/*
 * All ones if a > b, else 0, as a value (a and b within 62 bits). The
 * compiler would make the comparison a branch again (BPF has no
 * conditional move), so it is kept from seeing through the difference
 * and the mask.
 */
static __inline__ __u64 dard_gt_mask64(__s64 a, __s64 b)
{
	__u64 d = (__u64)b - (__u64)a, m;

	__dard_opaque(d);
	m = -(d >> 63);
	__dard_opaque(m);
	return m;
}

static __inline__ __u32 dard_gt_mask(__s64 a, __s64 b)
{
	return dard_gt_mask64(a, b);
}

/* x where mask is all ones, y where it is 0. */
static __inline__ __u32 dard_pick(__u32 mask, __u32 x, __u32 y)
{
	return y ^ ((x ^ y) & mask);
}

/* The number of 0 bits below x's lowest 1 (64 for none): a count of
 * the bits of (x & -x) - 1. */
static __inline__ __u32 dard_ctz64(__u64 x)
{
	x = (x & -x) - 1;
	x -= (x >> 1) & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (x * 0x0101010101010101ULL) >> 56;
}

/* Of the bitmap word for paths lo to lo + 63, the bits of the paths
 * below x. */
static __inline__ __u64 dard_below(__u32 x, __u32 lo)
{
	__u64 all = dard_gt_mask64(x, lo + 63), some = dard_gt_mask64(x, lo);

	return all | (some & ((1ULL << ((x - lo) & 63)) - 1));
}

/*
 * The first live path after path i (< npaths) of d, going round its
 * paths; DARD_PATHS_MAX if none is (or i is no path). Every choice that
 * leaves a dead path takes this one, so that both datapaths, and every
 * rule in each, agree on where a flow goes. A bitmap word at a time,
 * masked without a branch: the live paths after i, then those before.
 */
static __inline__ __u32 dard_next_live(const struct dard_dest *d, __u32 i)
{
	__u32 n = d->npaths, w, lo;
	__u64 live;

	if (n > DARD_PATHS_MAX || i >= n)
		return DARD_PATHS_MAX;
	for (w = 0; w < DARD_PATHS_MAX / 64; w++) {
		lo = w * 64;
		live = ~d->dead[w] & dard_below(n, lo) & ~dard_below(i + 1, lo);
		if (live)
			return lo + dard_ctz64(live);
	}
	for (w = 0; w < DARD_PATHS_MAX / 64; w++) {
		lo = w * 64;
		live = ~d->dead[w] & dard_below(i, lo);
		if (live)
			return lo + dard_ctz64(live);
	}
	return DARD_PATHS_MAX;
}

/* How dard_place chose, for the callers' counters. */
enum dard_place_how {
	DARD_PLACE_HASHED,	 /* the hash's path, not known dead */
	DARD_PLACE_DEAD_AVOIDED, /* the next live one after the hash's */
	DARD_PLACE_ALL_DEAD,	 /* the hash's, every path being dead */
};

/*
 * A new flow's path among d's, the flow hashed to h (dard_flow_hash):
 * the hash's (dard_hash_path), or the next live one after it if that one
 * is dead. When all are dead it keeps the hash's: sending beats
 * dropping, as the fabric may know better than our view of it. *how
 * says which; DARD_PATHS_MAX if d has no paths.
 */
static __inline__ __u32 dard_place(const struct dard_dest *d, __u32 h,
				   __u32 *how)
{
	__u32 i = dard_hash_path(d, h), j;

	*how = DARD_PLACE_HASHED;
	if (i >= DARD_PATHS_MAX || !dard_path_dead(d, i))
		return i;
	j = dard_next_live(d, i);
	if (j < DARD_PATHS_MAX) {
		*how = DARD_PLACE_DEAD_AVOIDED;
		return j;
	}
	*how = DARD_PLACE_ALL_DEAD;
	return i;
}

/*
 * Where a known flow on path i of d, sending on pair cur, goes when the
 * dead bits changed: the next live path after its own if its own is
 * dead. DARD_PATHS_MAX to stay: its path is live, its index is unknown
 * (userspace moved it to a pair outside the list) or names another pair
 * (a new path list), whose death says nothing about this flow, or no
 * path is live (sending beats dropping).
 */
static __inline__ __u32 dard_repath_dead(const struct dard_dest *d, __u32 i,
					 const struct dard_alias_pair *cur)
{
	if (d->npaths > DARD_PATHS_MAX || i >= d->npaths ||
	    !dard_path_dead(d, i) || !dard_path_is(d, i, cur))
		return DARD_PATHS_MAX;
	return dard_next_live(d, i);
}

/*
 * Where a TCP flow on path i of d, sending on pair cur, goes after TCP
 * said its path failed: to the path d's repair order names after its
 * own (d->next: one that shares few switches with it, as the paths
 * through a failed link fail together), or, if that one is known dead,
 * to the next live path after it. If none is live it goes all the same:
 * the caller has evidence about this path, and a dead bit may be stale.
 * A flow whose index is unknown, or names another pair, is tried from
 * path 0. DARD_PATHS_MAX when d has fewer than two paths: nowhere to go.
 */
static __inline__ __u32 dard_move_on(const struct dard_dest *d, __u32 i,
				     const struct dard_alias_pair *cur)
{
	__u32 j, k, n = d->npaths;

	if (n < 2 || n > DARD_PATHS_MAX)
		return DARD_PATHS_MAX;
	if (i >= n || !dard_path_is(d, i, cur)) {
		j = 0;
	} else {
		__dard_opaque(i);
		j = d->next[i & (DARD_PATHS_MAX - 1)];
		if (j >= n || j == i)
			j = i + 1 < n ? i + 1 : 0;
	}
	if (dard_path_dead(d, j)) {
		k = dard_next_live(d, j);
		if (k < n)
			j = k;
	}
	return j;
}

/* TCP's numbers, which not every build has a header for. */
enum dard_tcp {
	DARD_IPPROTO_TCP = 6,
	DARD_TCPHDR_FIN = 0x01, /* flags, in the header's 14th byte */
	DARD_TCPHDR_SYN = 0x02,
	DARD_TCPHDR_RST = 0x04,
	DARD_TCPOPT_EOL = 0,
	DARD_TCPOPT_NOP = 1,
	DARD_TCPOPT_SACK = 5,
	DARD_TCP_OPTS_MAX = 40, /* a TCP header's 60 bytes less its fixed 20 */
	DARD_TCPOLEN_SACK_MIN = 10, /* kind, length, one block's two edges */
};

/*
 * Whether a TCP flow keeps its path through a retransmission timeout,
 * the timeouts-th in a row, rather than moving on. One that userspace
 * placed (moves: dardd's scheduler or the controller chose its path
 * knowing the load) keeps it through the first: with full tail-drop
 * queues a flow alone on its path times out now and then, and moving it
 * would put it beside another placed flow and time that one out too
 * (measured: 6 such moves in 8 s undid a controller's placement of 16
 * flows; none with the hold). A dead path costs the second timeout in a
 * row, one backed-off RTO more, or dardd's liveness first. Never a SYN's
 * timeout: a new connection on a reused 5-tuple keeps the old one's
 * moves.
 */
static __inline__ int dard_rto_hold(__u32 moves, __u32 timeouts, int syn)
{
	return moves && timeouts == 1 && !syn;
}

/* What a TCP flow's transmit hash says (dard_rehash). */
enum dard_rehash_how {
	DARD_REHASH_KEEP, /* nothing: the hash is only noted */
	DARD_REHASH_HOLD, /* a timeout the flow sits out (dard_rto_hold) */
	DARD_REHASH_MOVE, /* its path failed: it moves on (dard_move_on) */
};

/*
 * What the hash a TCP flow's packet leaves with (hash, skb->hash) says,
 * the flow having noted old (0: none) and its flags (enum
 * dard_flow_flag) being *flags, whose DARD_FLOW_F_SYN_HASH bit it sets
 * as it is to be. Linux re-draws a TCP socket's transmit hash when it
 * believes the socket's path is failing: on a retransmission timeout,
 * and when it answers a repeated SYN with its SYN-ACK again (the first
 * SYN-ACK was lost), so a new hash moves the flow on. A hash of 0, or
 * none noted, is only noted; so is a FIN's or RST's, which ends the
 * flow, an ended flow's (its SYN is a new connection), and the first
 * after a SYN's: a server's socket may take another hash than its
 * SYN-ACK's (a SYN cookie's request is made anew, a Fast Open child keeps
 * the first). hold: this is a timeout the flow sits out (dard_rto_hold;
 * 0 where the timeout is seen and held elsewhere, as by BPF's sock_ops).
 */
static __inline__ __u32 dard_rehash(__u32 old, __u32 hash, __u8 proto,
				    __u8 tcp_flags, __u32 *flags, int hold)
{
	if (proto != DARD_IPPROTO_TCP)
		return DARD_REHASH_KEEP;
	if (tcp_flags & DARD_TCPHDR_SYN) {
		*flags |= DARD_FLOW_F_SYN_HASH;
	} else if (*flags & DARD_FLOW_F_SYN_HASH) {
		*flags &= ~DARD_FLOW_F_SYN_HASH;
		return DARD_REHASH_KEEP;
	}
	if (!old || !hash ||
	    (tcp_flags & (DARD_TCPHDR_FIN | DARD_TCPHDR_RST)) ||
	    (*flags & DARD_FLOW_F_ENDED))
		return DARD_REHASH_KEEP;
	return hold ? DARD_REHASH_HOLD : DARD_REHASH_MOVE;
}

/* What a step of the D-SACK walk found. */
enum dard_dsack_step {
	DARD_DSACK_MORE,  /* an option passed over: walk on from *i */
	DARD_DSACK_NONE,  /* the end, or an option that cannot be */
	DARD_DSACK_FOUND, /* a D-SACK, starting at *start */
};

/*
 * One step of dard_dsack's walk, at option *i of opt (len bytes) of a
 * packet acknowledging ack: an EOL ends it, a NOP is a byte, and an
 * option that says it runs past the end is not read, as Linux's
 * tcp_parse_options has it. The first SACK option decides: a D-SACK if
 * its first block starts below ack. One step at a time so that a BPF
 * program can run the walk by bpf_loop, whose body the verifier checks
 * once (bpf/dsack.h): a plain loop of its 40 steps, walked by the
 * verifier step by step, cost half a million instructions alone.
 */
static __inline__ int dard_dsack_step(const __u8 *opt, __u32 len, __u32 ack,
				      __u32 *i, __u32 *start)
{
	__u32 at = *i, olen, s;

	if (at >= len || at >= DARD_TCP_OPTS_MAX || opt[at] == DARD_TCPOPT_EOL)
		return DARD_DSACK_NONE;
	if (opt[at] == DARD_TCPOPT_NOP) {
		*i = at + 1;
		return DARD_DSACK_MORE;
	}
	if (at + 1 >= len || at + 1 >= DARD_TCP_OPTS_MAX)
		return DARD_DSACK_NONE;
	olen = opt[at + 1];
	if (olen < 2 || at + olen > len)
		return DARD_DSACK_NONE;
	if (opt[at] != DARD_TCPOPT_SACK) {
		*i = at + olen;
		return DARD_DSACK_MORE;
	}
	/* at + olen <= len: the block's start is there. */
	__dard_opaque(at);
	if (olen < DARD_TCPOLEN_SACK_MIN || at + 6 > DARD_TCP_OPTS_MAX)
		return DARD_DSACK_NONE;
	s = (__u32)opt[at + 2] << 24 | (__u32)opt[at + 3] << 16 |
	    (__u32)opt[at + 4] << 8 | opt[at + 5];
	if ((__s32)(s - ack) >= 0)
		return DARD_DSACK_NONE;
	*start = s;
	return DARD_DSACK_FOUND;
}

/*
 * Whether the TCP options opt (len bytes) of a packet acknowledging ack
 * (host order) carry a D-SACK (RFC 2883): a first SACK block starting
 * below the packet's own ACK number, which says that the peer sent again
 * data we had already acknowledged, as a sender does whose ACKs from us
 * are not reaching it. If so *start is the block's start (host order).
 * Each step moves on a byte at least, so DARD_TCP_OPTS_MAX steps walk
 * any header.
 */
static __inline__ int dard_dsack(const __u8 *opt, __u32 len, __u32 ack,
				 __u32 *start)
{
	__u32 i = 0, k;
	int r;

	for (k = 0; k < DARD_TCP_OPTS_MAX; k++) {
		r = dard_dsack_step(opt, len, ack, &i, start);
		if (r != DARD_DSACK_MORE)
			return r == DARD_DSACK_FOUND;
	}
	return 0;
}

/* The weighted slot table's builder: its own file, for its size. */
#include <linux/dard_policy_slots.h>

#endif /* _UAPI_LINUX_DARD_POLICY_H */
