/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The policy digest: every function of <linux/dard_policy.h> run on the
 * same DARD_PD_INPUTS seeded inputs, each one's outputs folded into a
 * 64-bit FNV-1a of its own, in each of the three builds that compile the
 * policy, all held to one table of expected digests (DARD_PD_EXPECT_*):
 *
 *   userspace   tests/unit/test_policy_digest.c      make test-unit
 *   BPF         tests/bpf/policy_digest.bpf.c, run    make test-bpf
 *               by BPF_PROG_TEST_RUN in chunks
 *               (tests/bpf/test_policy_bpf.c)
 *   kernel      kmod/selftest.c: insmod dard.ko       make test-kmod
 *               selftest=1 in the qemu guest
 *
 * A compiler, a flag or a verifier workaround that changes a decision in
 * one build changes that build's digest. The expected digests are those
 * of the two datapaths' own copies before they became one (issue 29),
 * so they also say the merge changed no decision.
 *
 * Test code, but the module's self-test compiles it too, and this is the
 * one place all three builds include from. Pure and integer-only, as
 * the policy is: the generator draws input k's values from k alone
 * (splitmix64 of the seed, k and a draw number), so a BPF run can start
 * at any k and the chunks' digests fold in order.
 */
#ifndef _UAPI_LINUX_DARD_POLICY_DIGEST_H
#define _UAPI_LINUX_DARD_POLICY_DIGEST_H

#include <linux/types.h>
#include <linux/dard.h>
#include <linux/dard_policy.h>

#define DARD_PD_INPUTS 100000
#define DARD_PD_SEED 0x2029da4d5eedULL
/* The weighted builder's inputs have 1 to DARD_PD_WCMP_PATHS paths: a
 * build deals each of 256 slots over every path, and 100,000 builds of
 * 16 paths keep the module's self-test to seconds under qemu's TCG. */
#define DARD_PD_WCMP_PATHS 16

/* One digest per function, or group of functions that answer together. */
enum dard_pd_fn {
	DARD_PD_HASH,	     /* dard_flow_hash */
	DARD_PD_HASH_PATH,   /* dard_hash_path */
	DARD_PD_LIVE,	     /* dard_path_dead, dard_next_live */
	DARD_PD_PLACE,	     /* dard_place, its path and how */
	DARD_PD_REPATH_DEAD, /* dard_repath_dead */
	DARD_PD_MOVE_ON,     /* dard_move_on */
	DARD_PD_DSACK,	     /* dard_dsack */
	DARD_PD_WCMP,	     /* dard_slots_build, dard_slots_count */
	DARD_PD_REHASH,	     /* dard_rto_hold, dard_rehash */
	DARD_PD_NR
};

/* What each build must compute, by enum dard_pd_fn; the guest's
 * tests/kmod/test.sh reads these lines too. */
#define DARD_PD_EXPECT_HASH 0x750176c0070516baULL
#define DARD_PD_EXPECT_HASH_PATH 0x14ccda6884d3901dULL
#define DARD_PD_EXPECT_LIVE 0x7a083b8445d178beULL
#define DARD_PD_EXPECT_PLACE 0x2c622876961e3866ULL
#define DARD_PD_EXPECT_REPATH_DEAD 0x6be1f02a4fd43e52ULL
#define DARD_PD_EXPECT_MOVE_ON 0x26b214d095707494ULL
#define DARD_PD_EXPECT_DSACK 0xbd26495bb3a91a51ULL
#define DARD_PD_EXPECT_WCMP 0x13077b89f3357580ULL
#define DARD_PD_EXPECT_REHASH 0xb528c4d20961f6bcULL

#define DARD_PD_EXPECT                                                         \
	{                                                                      \
		DARD_PD_EXPECT_HASH, DARD_PD_EXPECT_HASH_PATH,                 \
			DARD_PD_EXPECT_LIVE, DARD_PD_EXPECT_PLACE,             \
			DARD_PD_EXPECT_REPATH_DEAD, DARD_PD_EXPECT_MOVE_ON,    \
			DARD_PD_EXPECT_DSACK, DARD_PD_EXPECT_WCMP,             \
			DARD_PD_EXPECT_REHASH                                  \
	}
#define DARD_PD_NAMES                                                          \
	{                                                                      \
		"HASH", "HASH_PATH", "LIVE", "PLACE", "REPATH_DEAD",           \
			"MOVE_ON", "DSACK", "WCMP", "REHASH"                   \
	}

/* The digests, and input k's values: too big for a BPF frame or a
 * kernel stack, so a global of the BPF program and a kmod allocation. */
struct dard_pd {
	__u64 digest[DARD_PD_NR];
	struct dard_dest dest;
	struct dard_flow_key key;
	struct dard_alias_pair cur;
	__u32 seed, idx;
	__u32 opt_len, ack;
	__u32 wn, prev_from;
	__u8 opt[DARD_TCP_OPTS_MAX];
	__u16 w[DARD_PD_WCMP_PATHS];
	__u16 count[DARD_PD_WCMP_PATHS];
	__u8 prev[DARD_WCMP_SLOTS];
	__u8 slot[DARD_WCMP_SLOTS];
	struct dard_slots_scratch x;
};

/* Input k's draw j: splitmix64's finaliser over the seed and a counter. */
static __inline__ __u64 dard_pd_draw(__u32 k, __u32 j)
{
	__u64 z = DARD_PD_SEED +
		  (((__u64)k << 16 | j) + 1) * 0x9e3779b97f4a7c15ULL;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* FNV-1a of h and v's four bytes, the lowest first. */
static __inline__ __u64 dard_pd_fold(__u64 h, __u32 v)
{
	h = (h ^ (v & 0xff)) * 0x100000001b3ULL;
	h = (h ^ (v >> 8 & 0xff)) * 0x100000001b3ULL;
	h = (h ^ (v >> 16 & 0xff)) * 0x100000001b3ULL;
	return (h ^ (v >> 24)) * 0x100000001b3ULL;
}

/* The four bytes of t from byte i, the lowest first, as one value. */
static __inline__ __u32 dard_pd_word(const __u8 *t, __u32 i)
{
	return t[i] | (__u32)t[i + 1] << 8 | (__u32)t[i + 2] << 16 |
	       (__u32)t[i + 3] << 24;
}

/* Before input 0: FNV's offset basis, and paths whose pairs differ. */
static __inline__ void dard_pd_init(struct dard_pd *p)
{
	__u32 i;

	for (i = 0; i < DARD_PD_NR; i++)
		p->digest[i] = 0xcbf29ce484222325ULL;
	for (i = 0; i < DARD_PATHS_MAX; i++) {
		p->dest.path[i].saddr = (__dard_force __be32)(0x0a000000 + i);
		p->dest.path[i].daddr =
			(__dard_force __be32)(0x0b000000 + i * 3);
	}
}

/* A byte table of values mostly below m, m itself about 1 in m + 1. */
static __inline__ void dard_pd_table(__u8 *t, __u32 m, __u32 k, __u32 j)
{
	__u64 r;
	__u32 s, b;

	for (s = 0; s < DARD_WCMP_SLOTS; s += 8) {
		r = dard_pd_draw(k, j + s / 8);
		for (b = 0; b < 8; b++)
			t[s + b] = ((r >> (8 * b) & 0xff) * (m + 1)) >> 8;
	}
}

/*
 * Input k's destination, flow and position: path counts from none to
 * one too many, most of them small, so that dead runs wrap round and
 * every path is dead now and then; dead bits from none to all; slots
 * and repair orders that sometimes name no path; an index that is
 * sometimes unknown, and a pair that sometimes is not its path's.
 */
static __inline__ void dard_pd_gen_dest(struct dard_pd *p, __u32 k)
{
	struct dard_dest *d = &p->dest;
	__u64 r = dard_pd_draw(k, 0), a;
	__u64 b = dard_pd_draw(k, 2), c = dard_pd_draw(k, 3);
	__u32 n, i, w;

	switch (r & 3) {
	case 0:
		n = 1 + (r >> 8 & 7);
		break;
	case 1:
		n = 1 + (r >> 8 & 63);
		break;
	default:
		n = 1 + (r >> 8 & 255);
		break;
	}
	if ((r >> 16 & 63) == 0)
		n = r >> 22 & 1 ? DARD_PATHS_MAX + 1 : 0;
	d->npaths = n;
	d->weighted = r >> 24 & 1;
	for (w = 0; w < DARD_PATHS_MAX / 64; w++) {
		a = dard_pd_draw(k, 4 + w);
		switch (r >> 25 & 7) {
		case 0:
			d->dead[w] = 0;
			break;
		case 1:
			d->dead[w] = a & b & c;
			break;
		case 2:
		case 3:
			d->dead[w] = a;
			break;
		case 4:
		case 5:
			d->dead[w] = a | b | c;
			break;
		default:
			d->dead[w] = ~0ULL;
			break;
		}
		b = b >> 7 | b << 57;
		c = c >> 13 | c << 51;
	}
	dard_pd_table(d->slot, n, k, 8);
	dard_pd_table(d->next, n, k, 40);
	r = dard_pd_draw(k, 72);
	p->seed = r;
	i = (r >> 32 & 0xffff) % (n + 2);
	if ((r >> 48 & 15) == 0)
		i = DARD_PATHS_MAX;
	p->idx = i;
	p->cur = d->path[i & (DARD_PATHS_MAX - 1)];
	if ((r >> 52 & 3) == 0)
		p->cur.daddr ^= (__dard_force __be32)0x00ff0000;
	r = dard_pd_draw(k, 73);
	p->key.saddr = (__dard_force __be32)(__u32)r;
	p->key.daddr = (__dard_force __be32)(__u32)(r >> 32);
	r = dard_pd_draw(k, 74);
	p->key.sport = (__dard_force __be16)(__u16)r;
	p->key.dport = (__dard_force __be16)(__u16)(r >> 16);
	p->key.proto =
		(r >> 32 & 3) == 3 ? (__u8)(r >> 40) : (r >> 32 & 1 ? 6 : 17);
}

/* The path decisions of input k. */
static __inline__ void dard_pd_paths(struct dard_pd *p, __u32 k)
{
	const struct dard_dest *d = &p->dest;
	__u32 h, i, how;

	dard_pd_gen_dest(p, k);
	h = dard_flow_hash(p->seed, &p->key);
	p->digest[DARD_PD_HASH] = dard_pd_fold(p->digest[DARD_PD_HASH], h);
	p->digest[DARD_PD_HASH_PATH] = dard_pd_fold(
		p->digest[DARD_PD_HASH_PATH], dard_hash_path(d, h));
	i = p->idx;
	p->digest[DARD_PD_LIVE] = dard_pd_fold(
		dard_pd_fold(p->digest[DARD_PD_LIVE],
			     dard_path_dead(d, i & (DARD_PATHS_MAX - 1))),
		dard_next_live(d, i));
	i = dard_place(d, h, &how);
	p->digest[DARD_PD_PLACE] =
		dard_pd_fold(dard_pd_fold(p->digest[DARD_PD_PLACE], i), how);
	p->digest[DARD_PD_REPATH_DEAD] =
		dard_pd_fold(p->digest[DARD_PD_REPATH_DEAD],
			     dard_repath_dead(d, p->idx, &p->cur));
	p->digest[DARD_PD_MOVE_ON] = dard_pd_fold(
		p->digest[DARD_PD_MOVE_ON], dard_move_on(d, p->idx, &p->cur));
}

/*
 * Input k's TCP flow and packet: whether a timeout is sat out (a placed
 * flow or not, the first timeout in a row or not, a SYN's or not), and
 * what a transmit hash says (none noted, the same, another; none; TCP or
 * not; any flags of the packet and of the flow).
 */
static __inline__ void dard_pd_tcp(struct dard_pd *p, __u32 k)
{
	__u64 r = dard_pd_draw(k, 90), q = dard_pd_draw(k, 91);
	__u64 h = p->digest[DARD_PD_REHASH];
	__u32 moves = r & 3, timeouts = r >> 2 & 3, hash, old, flags, how;
	__u8 proto = DARD_IPPROTO_TCP;
	int hold;

	if (moves == 3)
		moves = r >> 32;
	if (timeouts == 3)
		timeouts = r >> 16;
	hold = dard_rto_hold(moves, timeouts, r >> 4 & 1);
	hash = (q >> 8 & 3) ? (__u32)(q >> 32) : 0;
	old = (q & 3) == 0 ? 0 : (q & 3) == 1 ? hash : (__u32)r;
	if ((q >> 10 & 3) == 3)
		proto = q >> 16;
	else if ((q >> 10 & 3) == 2)
		proto = 17;
	flags = q >> 24 & __DARD_FLOW_F_ALL;
	how = dard_rehash(old, hash, proto, q >> 40, &flags, q >> 12 & 1);
	h = dard_pd_fold(dard_pd_fold(dard_pd_fold(h, hold), how), flags);
	p->digest[DARD_PD_REHASH] = h;
}

/* A SACK option at off of the 40-byte options: its length by l, its
 * first block near ack's number, below it or not. */
static __inline__ void dard_pd_sack(struct dard_pd *p, __u32 off, __u64 r)
{
	__u32 start = p->ack + (__u32)(r >> 8 & 31) - 16;

	if (r >> 13 & 1)
		start = r >> 32;
	p->opt[off] = DARD_TCPOPT_SACK;
	/* 10, 18, 26, 34 (one to four blocks), 9, 2, 12, 255: a byte each. */
	p->opt[off + 1] = 0xff0c0209221a120aULL >> (8 * (r & 7));
	p->opt[off + 2] = start >> 24;
	p->opt[off + 3] = start >> 16;
	p->opt[off + 4] = start >> 8;
	p->opt[off + 5] = start;
}

/*
 * Input k's TCP options: random bytes under one of Linux's layouts (NOP
 * NOP timestamps, then NOP NOP SACK), a SACK alone or after other
 * options, an EOL first, or a length that cannot be; cut at any length.
 */
static __inline__ void dard_pd_gen_opts(struct dard_pd *p, __u32 k)
{
	__u64 r = dard_pd_draw(k, 80), s = dard_pd_draw(k, 81);
	__u32 i;

	for (i = 0; i < DARD_TCP_OPTS_MAX; i++)
		p->opt[i] = dard_pd_draw(k, 82 + i / 8) >> (8 * (i % 8));
	p->ack = r >> 32;
	switch (r & 7) {
	case 0:
		break;
	case 1:
		dard_pd_sack(p, 0, s);
		break;
	case 2:
		p->opt[0] = p->opt[1] = DARD_TCPOPT_NOP;
		dard_pd_sack(p, 2, s);
		break;
	case 3:
	case 4:
		p->opt[0] = p->opt[1] = DARD_TCPOPT_NOP;
		p->opt[2] = 8;
		p->opt[3] = 10;
		p->opt[12] = p->opt[13] = DARD_TCPOPT_NOP;
		dard_pd_sack(p, r & 1 ? 12 : 14, s);
		break;
	case 5:
		p->opt[0] = DARD_TCPOPT_EOL;
		break;
	case 6:
		p->opt[0] = 2;
		p->opt[1] = 4;
		dard_pd_sack(p, 4, s);
		break;
	default:
		p->opt[1] = r >> 3 & 1;
		break;
	}
	p->opt_len = (r >> 8 & 0xff) % (DARD_TCP_OPTS_MAX + 1);
	if (r >> 16 & 1)
		p->opt_len = DARD_TCP_OPTS_MAX;
}

/* What the D-SACK walk of input k's options found, into its digest. */
static __inline__ void dard_pd_dsack_fold(struct dard_pd *p, __u32 found,
					  __u32 start)
{
	p->digest[DARD_PD_DSACK] =
		dard_pd_fold(dard_pd_fold(p->digest[DARD_PD_DSACK], found),
			     found ? start : 0);
}

static __inline__ void dard_pd_dsack(struct dard_pd *p, __u32 k)
{
	__u32 start = 0, found;

	dard_pd_gen_opts(p, k);
	found = dard_dsack(p->opt, p->opt_len, p->ack, &start);
	dard_pd_dsack_fold(p, found, start);
}

/*
 * Input k's weights and old table: 1 to DARD_PD_WCMP_PATHS paths
 * (p->wn), weights all 0 (refused), small (many ties and zeros) or any;
 * built anew (p->prev_from 0), over an old table that names paths past
 * the new count (1: p->prev), or over itself (2: p->slot), as libdard's
 * BPF backend builds it.
 */
static __inline__ void dard_pd_wcmp_gen(struct dard_pd *p, __u32 k)
{
	__u64 r = dard_pd_draw(k, 100), v = 0;
	__u32 i;

	p->wn = 1 + (r & (DARD_PD_WCMP_PATHS - 1));
	for (i = 0; i < DARD_PD_WCMP_PATHS; i++) {
		if (i % 4 == 0)
			v = dard_pd_draw(k, 101 + i / 4);
		switch (r >> 8 & 3) {
		case 0:
			p->w[i] = 0;
			break;
		case 1:
			p->w[i] = v & 3;
			break;
		default:
			p->w[i] = v;
			break;
		}
		v >>= 16;
	}
	if ((r >> 10 & 7) == 0)
		p->w[r >> 16 & (DARD_PD_WCMP_PATHS - 1)] = 1;
	p->prev_from = r >> 20 & 3;
	if (p->prev_from > 2)
		p->prev_from = 2;
	if (p->prev_from == 1)
		dard_pd_table(p->prev, p->wn + 1, k, 110);
	else if (p->prev_from == 2)
		dard_pd_table(p->slot, p->wn + 1, k, 110);
}

/* The old table input k's build starts from. */
static __inline__ const __u8 *dard_pd_wcmp_prev(const struct dard_pd *p)
{
	if (p->prev_from == 1)
		return p->prev;
	return p->prev_from == 2 ? p->slot : (void *)0;
}

/*
 * What the build of input k's table returned, and the table with its
 * count, into the digest. Counted for DARD_PD_WCMP_PATHS paths, the
 * last few with none: the BPF verifier, which learns a count of paths
 * exactly where a loop over them ends, walks what follows once per
 * count it may have been.
 */
static __inline__ void dard_pd_wcmp_fold(struct dard_pd *p, __u32 ret)
{
	__u64 h = dard_pd_fold(p->digest[DARD_PD_WCMP], ret);
	__u32 s, i;

	if (!ret) {
		for (s = 0; s < DARD_WCMP_SLOTS; s += 4)
			h = dard_pd_fold(h, dard_pd_word(p->slot, s));
		dard_slots_count(p->slot, DARD_PD_WCMP_PATHS, p->count);
		for (i = 0; i < DARD_PD_WCMP_PATHS; i++)
			h = dard_pd_fold(h, p->count[i]);
	}
	p->digest[DARD_PD_WCMP] = h;
}

static __inline__ void dard_pd_wcmp(struct dard_pd *p, __u32 k)
{
	dard_pd_wcmp_gen(p, k);
	dard_pd_wcmp_fold(p, dard_slots_build(p->w, p->wn, dard_pd_wcmp_prev(p),
					      p->slot, &p->x));
}

/* Input k through every function. */
static __inline__ void dard_pd_input(struct dard_pd *p, __u32 k)
{
	dard_pd_paths(p, k);
	dard_pd_tcp(p, k);
	dard_pd_dsack(p, k);
	dard_pd_wcmp(p, k);
}

#endif /* _UAPI_LINUX_DARD_POLICY_DIGEST_H */
