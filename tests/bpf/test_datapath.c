// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The BPF datapath under BPF_PROG_TEST_RUN: the real skeleton, maps filled
 * through the daemon's own datapath code, packets from a small builder,
 * and every output byte checked by code independent of the programs.
 * Needs root (CAP_BPF); without it, says so and skips (fails under CI).
 */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>

#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_test.h"
#include "bpflog.h"
#include "dard_tc.skel.h"
#include "dp.h"
#include "dp_link.h"

#define MY_ID "172.16.0.1"
#define PEER_ID "172.16.0.5"
#define MY_ALIAS "10.4.16.66"

static const char *const paths[][2] = {
	{"10.4.16.66", "10.4.32.66"},
	{"10.8.16.66", "10.8.32.66"},
	{"10.12.16.66", "10.12.32.66"},
	{"10.16.16.66", "10.16.32.66"},
};
enum { NPATHS = 4 };

struct env {
	struct dard_tc *skel;
	struct dard_dp *dp;
};

/* Runs a program on in, with ctx (NULL: none) as its __sk_buff. */
static int run_ctx(struct env *e, int egress, const uint8_t *in, size_t len,
		   struct __sk_buff *ctx, uint8_t *out, uint32_t *out_len)
{
	struct bpf_program *prog = egress ? e->skel->progs.dard_tc_egress
					  : e->skel->progs.dard_tc_ingress;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = in, .data_size_in = len,
		    .data_out = out, .data_size_out = PKT_MAX, .repeat = 1,
		    .ctx_in = ctx, .ctx_size_in = ctx ? sizeof(*ctx) : 0);
	int err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);

	assert_int_equal(err, 0);
	*out_len = opts.data_size_out;
	return opts.retval;
}

static int run(struct env *e, int egress, const uint8_t *in, size_t len,
	       uint8_t *out, uint32_t *out_len)
{
	return run_ctx(e, egress, in, len, NULL, out, out_len);
}

static uint64_t stat(struct env *e, unsigned which)
{
	uint64_t v[__DARD_STAT_MAX];

	assert_int_equal(dard_dp_bpf.stats(e->dp, v), 0);
	return v[which];
}

/* Loads the skeleton into e, its flow table flows_max (0: the default). */
static int env_load(struct env *e, uint32_t flows_max)
{
	struct dard_alias_pair p[NPATHS];
	int i;

	memset(e, 0, sizeof(*e));
	e->skel = dard_tc__open();
	if (!e->skel)
		return -1;
	e->skel->rodata->my_id = A(MY_ID);
	e->skel->rodata->elephant_age_ns = 0; /* every flow, at once */
	e->skel->rodata->elephant_bytes = 3000;
	e->skel->rodata->elephant_dscp = 8;
	e->skel->rodata->hash_seed = 7;
	if (flows_max &&
	    bpf_map__set_max_entries(e->skel->maps.dard_flows, flows_max))
		return -1;
	if (dard_tc__load(e->skel))
		return -1;
	if (dard_dp_bpf_adopt(&e->dp, e->skel->obj))
		return -1;
	for (i = 0; i < NPATHS; i++) {
		p[i].saddr = A(paths[i][0]);
		p[i].daddr = A(paths[i][1]);
	}
	if (dard_dp_bpf.set_dest(e->dp, ntohl(A(PEER_ID)), p, NPATHS, NULL) ||
	    dard_dp_bpf.add_alias(e->dp, ntohl(A(MY_ALIAS))))
		return -1;
	return 0;
}

static void env_close(struct env *e)
{
	if (e->dp)
		dard_dp_bpf.close(e->dp);
	dard_tc__destroy(e->skel);
}

static int setup(void **state)
{
	static struct env e;

	if (env_load(&e, 0))
		return -1;
	*state = &e;
	return 0;
}

static int teardown(void **state)
{
	env_close(*state);
	return 0;
}

static int path_of(uint32_t saddr, uint32_t daddr)
{
	int i;

	for (i = 0; i < NPATHS; i++)
		if (A(paths[i][0]) == saddr && A(paths[i][1]) == daddr)
			return i;
	return -1;
}

/* Checks out is in wrapped in a valid outer header; returns the path. */
static int check_encap(const uint8_t *in, size_t len, const uint8_t *out,
		       uint32_t out_len, uint8_t want_tos)
{
	const struct iphdr *outer = (const void *)(out + ETH_HLEN);
	const struct iphdr *inner = (const void *)(in + ETH_HLEN);

	assert_int_equal(out_len, len + 20);
	assert_memory_equal(out, in, ETH_HLEN);
	assert_int_equal(outer->version, 4);
	assert_int_equal(outer->ihl, 5);
	assert_int_equal(outer->tos, want_tos);
	assert_int_equal(ntohs(outer->tot_len), ntohs(inner->tot_len) + 20);
	assert_int_equal(outer->frag_off, inner->frag_off & htons(0x4000));
	assert_int_equal(outer->ttl, DARD_OUTER_TTL);
	assert_int_equal(outer->protocol, IPPROTO_IPIP);
	assert_int_equal(csum(outer, 20), 0);
	assert_memory_equal(out + ETH_HLEN + 20, in + ETH_HLEN, len - ETH_HLEN);
	return path_of(outer->saddr, outer->daddr);
}

/* What the peer sends us: o's packet behind an outer header to our alias. */
static struct iphdr *wrap(uint8_t *wrapped, struct pkt_opts o)
{
	const struct pkt_outer to_me = {
		.saddr = A("10.4.32.66"), .daddr = A(MY_ALIAS), .ttl = 60};

	o.outer = &to_me;
	build(wrapped, &o);
	return (void *)(wrapped + ETH_HLEN);
}

/* The flow table's entry for key, which must exist. */
static void flow_of(struct env *e, const struct dard_flow_key *key,
		    struct dard_flow *f)
{
	assert_int_equal(bpf_map_lookup_elem(
				 bpf_map__fd(e->skel->maps.dard_flows), key, f),
			 0);
}

static void test_encap(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .sport = 1000,
			     .dport = 2000,
			     .tos = 0x2a,
			     .frag = 0x4000,
			     .payload = 64};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	uint64_t before = stat(e, DARD_STAT_ENCAP);
	size_t len = build(in, &o);
	uint32_t n;

	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	/* DSCP and ECN copied: not an elephant yet (64 + 36 < 3000 bytes). */
	assert_true(check_encap(in, len, out, n, 0x2a) >= 0);
	assert_int_equal(stat(e, DARD_STAT_ENCAP), before + 1);
	/* A mouse whose own DSCP is the elephant mark must not look like
	 * one to the switches: its outer DSCP is 0, its ECN kept. */
	o.tos = 8 << 2 | 1;
	o.sport = 1001;
	len = build(in, &o);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_true(check_encap(in, len, out, n, 0x01) >= 0);
	/* Too big for a 1500-byte fabric once wrapped: dropped, counted. */
	o.tos = 0;
	o.payload = 1500 - 20 - 8;
	len = build(in, &o);
	before = stat(e, DARD_STAT_DROP_OVERSIZE);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_SHOT);
	assert_int_equal(stat(e, DARD_STAT_DROP_OVERSIZE), before + 1);
	o.payload = 1480 - 20 - 8; /* exactly fits */
	len = build(in, &o);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
}

static void test_decap_inverse(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(PEER_ID),
			     .daddr = A(MY_ID),
			     .sport = 5201,
			     .dport = 40000,
			     .payload = 100,
			     .tos = 0x01};
	uint8_t in[PKT_MAX], wrapped[PKT_MAX], out[PKT_MAX];
	struct iphdr *outer;
	size_t len = build(in, &o);
	uint64_t before;
	uint32_t n;

	outer = wrap(wrapped, o);
	assert_int_equal(run(e, 0, wrapped, len + 20, out, &n), TC_ACT_OK);
	assert_int_equal(n, len);
	assert_memory_equal(out, in, len);

	/* Congestion met outside reaches the ECN-capable inside (RFC 6040). */
	outer->tos = 3;
	outer->check = 0;
	outer->check = htons(csum(outer, 20));
	assert_int_equal(run(e, 0, wrapped, len + 20, out, &n), TC_ACT_OK);
	assert_int_equal(((struct iphdr *)(out + ETH_HLEN))->tos, 3);
	assert_int_equal(csum(out + ETH_HLEN, 20), 0);

	/* An inside that cannot carry the mark is dropped (RFC 6040). */
	((struct iphdr *)(wrapped + ETH_HLEN + 20))->tos = 0;
	before = stat(e, DARD_STAT_DROP_CE_NOT_ECT);
	assert_int_equal(run(e, 0, wrapped, len + 20, out, &n), TC_ACT_SHOT);
	assert_int_equal(stat(e, DARD_STAT_DROP_CE_NOT_ECT), before + 1);

	/* A piece of a fragmented outer packet is never unwrapped. */
	outer->tos = 0;
	outer->frag_off = htons(0x2000); /* MF */
	outer->check = 0;
	outer->check = htons(csum(outer, 20));
	before = stat(e, DARD_STAT_DROP_OUTER_FRAGMENT);
	assert_int_equal(run(e, 0, wrapped, len + 20, out, &n), TC_ACT_SHOT);
	outer->frag_off = htons(185); /* a later piece, 1480 bytes in */
	outer->check = 0;
	outer->check = htons(csum(outer, 20));
	assert_int_equal(run(e, 0, wrapped, len + 20, out, &n), TC_ACT_SHOT);
	assert_int_equal(stat(e, DARD_STAT_DROP_OUTER_FRAGMENT), before + 2);
}

static void test_not_mine(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {
		.saddr = A(PEER_ID), .daddr = A("172.16.0.9"), .payload = 10};
	uint8_t in[PKT_MAX], wrapped[PKT_MAX], out[PKT_MAX];
	struct iphdr *outer;
	size_t len = build(in, &o);
	uint64_t before = stat(e, DARD_STAT_DROP_NOT_MINE);
	uint32_t n;

	outer = wrap(wrapped, o);
	/* Inner destination not our ID: never relayed. */
	assert_int_equal(run(e, 0, wrapped, len + 20, out, &n), TC_ACT_SHOT);
	assert_int_equal(stat(e, DARD_STAT_DROP_NOT_MINE), before + 1);
	/* Outer options: we never send them, so we drop them, even to us. */
	((struct iphdr *)(wrapped + ETH_HLEN + 20))->daddr = A(MY_ID);
	outer->ihl = 6;
	before = stat(e, DARD_STAT_DROP_OUTER_OPTIONS);
	assert_int_equal(run(e, 0, wrapped, len + 20, out, &n), TC_ACT_SHOT);
	assert_int_equal(stat(e, DARD_STAT_DROP_OUTER_OPTIONS), before + 1);
	/* To an address that is not ours: left to the kernel, untouched. */
	outer->ihl = 5;
	outer->daddr = A("10.8.16.66");
	assert_int_equal(run(e, 0, wrapped, len + 20, out, &n), TC_ACT_OK);
	assert_int_equal(n, len + 20);
	assert_memory_equal(out, wrapped, len + 20);
}

static void test_pass(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {
		.saddr = A(MY_ALIAS), .daddr = A("10.4.32.66"), .payload = 30};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, &o);
	uint32_t n;

	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_int_equal(n, len);
	assert_memory_equal(out, in, len);
	/* Not IPv4 at all (ARP): untouched, both ways. */
	((struct ethhdr *)in)->h_proto = htons(ETH_P_ARP);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_memory_equal(out, in, len);
	assert_int_equal(run(e, 0, in, len, out, &n), TC_ACT_OK);
	assert_memory_equal(out, in, len);
}

static void test_move(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .proto = IPPROTO_TCP,
			     .sport = 3333,
			     .dport = 80,
			     .payload = 10};
	struct dard_flow_key key = {.saddr = A(MY_ID),
				    .daddr = A(PEER_ID),
				    .sport = htons(3333),
				    .dport = htons(80),
				    .proto = IPPROTO_TCP};
	struct dard_alias_pair to;
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, &o);
	uint32_t n;
	int first, moved;

	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	first = check_encap(in, len, out, n, 0);
	assert_true(first >= 0);
	to.saddr = A(paths[(first + 1) % NPATHS][0]);
	to.daddr = A(paths[(first + 1) % NPATHS][1]);
	assert_int_equal(dard_dp_bpf.move(e->dp, &key, &to), 0);
	/* The very next packet takes the new pair. */
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	moved = check_encap(in, len, out, n, 0);
	assert_int_equal(moved, (first + 1) % NPATHS);
}

static void test_hash_spreads(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .dport = 9,
			     .payload = 8};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	unsigned used[NPATHS] = {0}, i;
	uint32_t n;

	for (i = 0; i < 400; i++) {
		size_t len;
		int p;

		o.sport = 20000 + i;
		len = build(in, &o);
		assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
		p = check_encap(in, len, out, n, 0);
		assert_true(p >= 0);
		used[p]++;
	}
	/* Every path, none with less than half its share. */
	for (i = 0; i < NPATHS; i++)
		assert_true(used[i] >= 400 / NPATHS / 2);
}

/* Marks the paths in mask (bit i: path i) dead, the others live. */
static void set_dead(struct env *e, unsigned mask)
{
	uint64_t dead[DARD_PATHS_MAX / 64] = {mask};

	assert_int_equal(dard_dp_bpf.set_dead(e->dp, ntohl(A(PEER_ID)), dead),
			 0);
}

/* One packet of o's flow out; returns its path. */
static int send_one(struct env *e, const struct pkt_opts *o)
{
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, o);
	uint32_t n;

	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	return check_encap(in, len, out, n, o->tos);
}

static struct dard_flow_key key_of(const struct pkt_opts *o)
{
	struct dard_flow_key k = {.saddr = o->saddr,
				  .daddr = o->daddr,
				  .sport = htons(o->sport),
				  .dport = htons(o->dport),
				  .proto = o->proto ? o->proto : IPPROTO_UDP};

	return k;
}

/* Forgets o's flow, so that its next packet is a new flow again. */
static void forget(struct env *e, const struct pkt_opts *o)
{
	struct dard_flow_key k = key_of(o);

	assert_int_equal(
		bpf_map_delete_elem(bpf_map__fd(e->skel->maps.dard_flows), &k),
		0);
}

/*
 * A new flow hashed to path h, with the paths dead that the row names
 * relative to h (bit r: path h + r): where it goes, relative to h.
 */
static const struct {
	unsigned dead; /* relative to the hashed path */
	int to;	       /* relative to the hashed path */
	int avoided, all_dead;
} new_dead_rows[] = {
	{0x0, 0, 0, 0}, /* nothing dead: the hash's choice */
	{0x2, 0, 0, 0}, /* another path dead: still the hash's */
	{0x1, 1, 1, 0}, /* the next live one */
	{0x3, 2, 1, 0}, {0x7, 3, 1, 0},
	{0xb, 2, 1, 0}, /* the first live one, not the last */
	{0xf, 0, 0, 1}, /* all dead: the hashed one, counted */
};

static void test_new_flow_dead(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .dport = 53,
			     .payload = 8};
	unsigned found = 0, r, h, rel;
	uint16_t sport[NPATHS] = {0};
	int p;

	/* A flow hashed to each path, found with nothing dead. */
	set_dead(e, 0);
	for (o.sport = 30000; found != (1U << NPATHS) - 1; o.sport++) {
		assert_true(o.sport < 30400);
		p = send_one(e, &o);
		assert_true(p >= 0);
		forget(e, &o);
		if (!(found & 1U << p))
			sport[p] = o.sport;
		found |= 1U << p;
	}
	for (r = 0; r < sizeof(new_dead_rows) / sizeof(new_dead_rows[0]); r++) {
		for (h = 0; h < NPATHS; h++) {
			uint64_t avoided =
				stat(e, DARD_STAT_NEW_FLOW_DEAD_AVOIDED);
			uint64_t all = stat(e, DARD_STAT_ALL_PATHS_DEAD);
			unsigned mask = 0;
			struct dard_flow f;
			struct dard_flow_key k;

			for (rel = 0; rel < NPATHS; rel++)
				if (new_dead_rows[r].dead & 1U << rel)
					mask |= 1U << (h + rel) % NPATHS;
			set_dead(e, mask);
			o.sport = sport[h];
			p = send_one(e, &o);
			if (p != (int)(h + new_dead_rows[r].to) % NPATHS)
				fail_msg("row %u, hashed to %u: path %d", r, h,
					 p);
			assert_int_equal(
				stat(e, DARD_STAT_NEW_FLOW_DEAD_AVOIDED),
				avoided + new_dead_rows[r].avoided);
			assert_int_equal(stat(e, DARD_STAT_ALL_PATHS_DEAD),
					 all + new_dead_rows[r].all_dead);
			/* The flow knows its path's index. */
			k = key_of(&o);
			flow_of(e, &k, &f);
			assert_int_equal(f.path_idx, p);
			forget(e, &o);
		}
	}
	set_dead(e, 0);
}

static void test_repath_dead(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .sport = 5555,
			     .dport = 53,
			     .payload = 8};
	uint64_t before = stat(e, DARD_STAT_REPATH_DEAD);
	int k, p;

	set_dead(e, 0);
	k = send_one(e, &o);
	assert_true(k >= 0);
	assert_int_equal(send_one(e, &o), k);
	assert_int_equal(stat(e, DARD_STAT_REPATH_DEAD), before);
	/* Its path dies: the very next packet leaves on the next live one. */
	set_dead(e, 1U << k | 1U << (k + 1) % NPATHS);
	p = send_one(e, &o);
	assert_int_equal(p, (k + 2) % NPATHS);
	assert_int_equal(stat(e, DARD_STAT_REPATH_DEAD), before + 1);
	assert_int_equal(send_one(e, &o), p);
	assert_int_equal(stat(e, DARD_STAT_REPATH_DEAD), before + 1);
	/* Back to life: the flow stays where it is now. */
	set_dead(e, 0);
	assert_int_equal(send_one(e, &o), p);
	/* All dead: nowhere better to go, so it stays and is not counted. */
	set_dead(e, (1U << NPATHS) - 1);
	assert_int_equal(send_one(e, &o), p);
	assert_int_equal(stat(e, DARD_STAT_REPATH_DEAD), before + 1);
	set_dead(e, 0);
	forget(e, &o);
}

/* A userspace move tells the program the new path's index, or that none. */
static void test_repath_after_move(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .proto = IPPROTO_TCP,
			     .sport = 6666,
			     .dport = 80,
			     .payload = 8};
	struct dard_flow_key key = key_of(&o);
	struct dard_alias_pair to;
	struct dard_flow f;
	uint64_t before = stat(e, DARD_STAT_REPATH_DEAD);
	int k, m;

	set_dead(e, 0);
	k = send_one(e, &o);
	assert_true(k >= 0);
	m = (k + 2) % NPATHS;
	to.saddr = A(paths[m][0]);
	to.daddr = A(paths[m][1]);
	assert_int_equal(dard_dp_bpf.move(e->dp, &key, &to), 0);
	flow_of(e, &key, &f);
	assert_int_equal(f.path_idx, m);
	/* The old path dying means nothing to it now; its own path does. */
	set_dead(e, 1U << k);
	assert_int_equal(send_one(e, &o), m);
	set_dead(e, 1U << m);
	assert_int_equal(send_one(e, &o), (m + 1) % NPATHS);
	assert_int_equal(stat(e, DARD_STAT_REPATH_DEAD), before + 1);
	/* A pair not among the destination's paths: the index is unknown
	 * and the program leaves the flow to userspace, dead or not. */
	to.saddr = A("10.99.16.66");
	to.daddr = A("10.99.32.66");
	set_dead(e, 0);
	assert_int_equal(dard_dp_bpf.move(e->dp, &key, &to), 0);
	flow_of(e, &key, &f);
	assert_int_equal(f.path_idx, DARD_PATHS_MAX);
	set_dead(e, (1U << (NPATHS - 1)) - 1); /* path 0 too: idx 0 */
	assert_int_equal(send_one(e, &o), -1);
	assert_int_equal(stat(e, DARD_STAT_REPATH_DEAD), before + 1);
	set_dead(e, 0);
	forget(e, &o);
}

/*
 * A new path list (set_dest) may put another pair at a flow's index: that
 * index dying says nothing about the flow's own pair, which stays.
 */
static void test_repath_stale_index(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .sport = 7777,
			     .dport = 53,
			     .payload = 8};
	uint64_t before = stat(e, DARD_STAT_REPATH_DEAD);
	struct dard_alias_pair p[NPATHS];
	int i, k;

	set_dead(e, 0);
	k = send_one(e, &o);
	assert_true(k >= 0);
	/* The same pairs, rotated by one: index k now names path k + 1. */
	for (i = 0; i < NPATHS; i++) {
		p[i].saddr = A(paths[(i + 1) % NPATHS][0]);
		p[i].daddr = A(paths[(i + 1) % NPATHS][1]);
	}
	assert_int_equal(
		dard_dp_bpf.set_dest(e->dp, ntohl(A(PEER_ID)), p, NPATHS, NULL),
		0);
	set_dead(e, 1U << k);
	assert_int_equal(send_one(e, &o), k);
	assert_int_equal(stat(e, DARD_STAT_REPATH_DEAD), before);
	for (i = 0; i < NPATHS; i++) {
		p[i].saddr = A(paths[i][0]);
		p[i].daddr = A(paths[i][1]);
	}
	assert_int_equal(
		dard_dp_bpf.set_dest(e->dp, ntohl(A(PEER_ID)), p, NPATHS, NULL),
		0);
	forget(e, &o);
}

static uint32_t live_gen(struct env *e)
{
	uint32_t zero = 0, gen;

	assert_int_equal(
		bpf_map_lookup_elem(bpf_map__fd(e->skel->maps.dard_live_gen),
				    &zero, &gen),
		0);
	return gen;
}

/*
 * The generation that spares known flows the liveness check moves on
 * every change of a destination's dead bits, in any word, and on every
 * new path list; not when the bits written are the ones there, nor for
 * an unknown destination, which is refused.
 */
static void test_live_gen(void **state)
{
	struct env *e = *state;
	uint64_t none[DARD_PATHS_MAX / 64] = {0}, last[DARD_PATHS_MAX / 64] = {
							  0, 0, 0, 1ULL << 63};
	struct dard_alias_pair p[NPATHS];
	uint32_t g;
	int i;

	for (i = 0; i < NPATHS; i++) {
		p[i].saddr = A(paths[i][0]);
		p[i].daddr = A(paths[i][1]);
	}
	set_dead(e, 0);
	g = live_gen(e);
	set_dead(e, 0);
	assert_int_equal(live_gen(e), g);
	set_dead(e, 0x1);
	assert_int_equal(live_gen(e), g + 1);
	set_dead(e, 0x1);
	assert_int_equal(live_gen(e), g + 1);
	set_dead(e, 0x3);
	assert_int_equal(live_gen(e), g + 2);
	assert_int_equal(dard_dp_bpf.set_dead(e->dp, ntohl(A(PEER_ID)), last),
			 0);
	assert_int_equal(live_gen(e), g + 3);
	assert_int_equal(
		dard_dp_bpf.set_dead(e->dp, ntohl(A("172.16.0.9")), none),
		-ENOENT);
	assert_int_equal(live_gen(e), g + 3);
	assert_int_equal(dard_dp_bpf.set_dead(e->dp, ntohl(A(PEER_ID)), none),
			 0);
	assert_int_equal(live_gen(e), g + 4);
	assert_int_equal(
		dard_dp_bpf.set_dest(e->dp, ntohl(A(PEER_ID)), p, NPATHS, NULL),
		0);
	assert_int_equal(live_gen(e), g + 5);
}

/*
 * A known flow looks at the dead bits once per generation: a bit set
 * under the generation it noted (as a writer other than set_dead would)
 * goes unseen until the generation moves, and then moves it.
 */
static void test_live_gen_checked_once(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .sport = 7777,
			     .dport = 53,
			     .payload = 8};
	int fd = bpf_map__fd(e->skel->maps.dard_dests);
	uint32_t key = A(PEER_ID);
	struct dard_dest d;
	int k;

	set_dead(e, 0);
	k = send_one(e, &o);
	assert_true(k >= 0);
	assert_int_equal(bpf_map_lookup_elem(fd, &key, &d), 0);
	d.dead[0] = 1ULL << k;
	assert_int_equal(bpf_map_update_elem(fd, &key, &d, BPF_EXIST), 0);
	assert_int_equal(send_one(e, &o), k);
	set_dead(e, 1ULL << k | 1ULL << (k + 2) % NPATHS);
	assert_int_equal(send_one(e, &o), (k + 1) % NPATHS);
	set_dead(e, 0);
	forget(e, &o);
}

/* TCP options as Linux lays them out: NOP NOP TS, then NOP NOP SACK. */
enum { TS_LEN = 12, SACK1_LEN = 12 };

static uint8_t *opt_ts(uint8_t *p)
{
	static const uint8_t ts[TS_LEN] = {1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2};

	memcpy(p, ts, sizeof(ts));
	return p + sizeof(ts);
}

static uint8_t *opt_sack(uint8_t *p, uint32_t start, uint32_t end)
{
	uint32_t s = htonl(start), e = htonl(end);

	p[0] = 1;
	p[1] = 1;
	p[2] = 5;
	p[3] = 10;
	memcpy(p + 4, &s, 4);
	memcpy(p + 8, &e, 4);
	return p + SACK1_LEN;
}

/* An ACK of o's flow for ack, options opts; returns its path. */
static int send_ack(struct env *e, struct pkt_opts o, uint32_t ack,
		    const uint8_t *opts, size_t optlen)
{
	o.tcp_flags = 0x10;
	o.seq = 7000;
	o.ack = ack;
	o.tcp_opts = opts;
	o.tcp_optlen = optlen;
	return send_one(e, &o);
}

/*
 * Our ACKs lost: a D-SACK for the same segment sent twice moves the flow
 * on, and a third time again; a SACK above the ACK number, a D-SACK for
 * another segment, timestamps alone or a SYN's options move nothing.
 */
static void test_repath_dsack(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .proto = IPPROTO_TCP,
			     .sport = 5201,
			     .dport = 40001};
	uint64_t before = stat(e, DARD_STAT_REPATH_DSACK);
	uint8_t ts[TS_LEN], sack[TS_LEN + SACK1_LEN], dsack[TS_LEN + SACK1_LEN],
		bare[SACK1_LEN], syn[20] = {2, 4, 5, 180, 4, 2, 8, 10};
	int k, i;

	set_dead(e, 0);
	opt_ts(ts);
	opt_sack(opt_ts(sack), 90000, 91000); /* above the ACK: plain SACK */
	opt_sack(opt_ts(dsack), 40000, 41000);
	k = send_ack(e, o, 50000, NULL, 0);
	assert_true(k >= 0);
	for (i = 0; i < 3; i++) {
		assert_int_equal(send_ack(e, o, 50000, ts, sizeof(ts)), k);
		assert_int_equal(send_ack(e, o, 50000, sack, sizeof(sack)), k);
	}
	o.tcp_flags = 0x02;
	o.tcp_opts = syn;
	o.tcp_optlen = sizeof(syn);
	assert_int_equal(send_one(e, &o), k);
	o.tcp_optlen = 0;
	assert_int_equal(stat(e, DARD_STAT_REPATH_DSACK), before);
	/* The first D-SACK for 40000 is noted; the second moves the flow. */
	assert_int_equal(send_ack(e, o, 50000, dsack, sizeof(dsack)), k);
	assert_int_equal(send_ack(e, o, 50000, dsack, sizeof(dsack)),
			 (k + 1) % NPATHS);
	assert_int_equal(stat(e, DARD_STAT_REPATH_DSACK), before + 1);
	/* Still not through: on again, past a dead path, without timestamps. */
	set_dead(e, 1U << (k + 2) % NPATHS);
	opt_sack(bare, 40000, 41000);
	assert_int_equal(send_ack(e, o, 50000, bare, sizeof(bare)),
			 (k + 3) % NPATHS);
	assert_int_equal(stat(e, DARD_STAT_REPATH_DSACK), before + 2);
	/* Another segment's D-SACK is only noted; an ACK past it is normal. */
	opt_sack(opt_ts(dsack), 45000, 46000);
	assert_int_equal(send_ack(e, o, 50000, dsack, sizeof(dsack)),
			 (k + 3) % NPATHS);
	assert_int_equal(send_ack(e, o, 60000, ts, sizeof(ts)),
			 (k + 3) % NPATHS);
	assert_int_equal(stat(e, DARD_STAT_REPATH_DSACK), before + 2);
	set_dead(e, 0);
	forget(e, &o);
}

/*
 * In-band repair follows the repair order set_dest was given (here 0, 2,
 * 1, 3, as a fat-tree's), skipping to the next live path when the one it
 * names is known dead; an order that names no path is index order.
 */
static void test_repair_order(void **state)
{
	struct env *e = *state;
	static const uint8_t order[NPATHS] = {2, 3, 1, 0},
			     bad[NPATHS] = {9, 9, 9, 9};
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .proto = IPPROTO_TCP,
			     .sport = 5202,
			     .dport = 40002};
	struct dard_alias_pair p[NPATHS];
	uint8_t dsack[TS_LEN + SACK1_LEN];
	int i, k;

	for (i = 0; i < NPATHS; i++) {
		p[i].saddr = A(paths[i][0]);
		p[i].daddr = A(paths[i][1]);
	}
	assert_int_equal(dard_dp_bpf.set_dest(e->dp, ntohl(A(PEER_ID)), p,
					      NPATHS, order),
			 0);
	set_dead(e, 0);
	opt_sack(opt_ts(dsack), 40000, 41000);
	k = send_ack(e, o, 50000, NULL, 0);
	assert_true(k >= 0);
	/* Each D-SACK after the first moves the flow one step of the order. */
	assert_int_equal(send_ack(e, o, 50000, dsack, sizeof(dsack)), k);
	for (i = 0; i < NPATHS; i++) {
		int want = order[k];

		k = send_ack(e, o, 50000, dsack, sizeof(dsack));
		assert_int_equal(k, want);
	}
	/* The next in the order known dead: the next live after it. */
	set_dead(e, 1U << order[k]);
	assert_int_equal(send_ack(e, o, 50000, dsack, sizeof(dsack)),
			 (order[k] + 1) % NPATHS);
	set_dead(e, 0);
	forget(e, &o);
	assert_int_equal(
		dard_dp_bpf.set_dest(e->dp, ntohl(A(PEER_ID)), p, NPATHS, bad),
		0);
	k = send_ack(e, o, 50000, NULL, 0);
	assert_int_equal(send_ack(e, o, 50000, dsack, sizeof(dsack)), k);
	assert_int_equal(send_ack(e, o, 50000, dsack, sizeof(dsack)),
			 (k + 1) % NPATHS);
	forget(e, &o);
	assert_int_equal(
		dard_dp_bpf.set_dest(e->dp, ntohl(A(PEER_ID)), p, NPATHS, NULL),
		0);
}

static void test_fragments(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .sport = 1,
			     .dport = 2,
			     .frag = 0x2000 | 10,
			     .payload = 16};
	struct dard_flow_key key = {
		.saddr = A(MY_ID), .daddr = A(PEER_ID), .proto = IPPROTO_UDP};
	struct dard_flow f;
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, &o);
	uint32_t n;

	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_true(check_encap(in, len, out, n, 0) >= 0);
	/* A later fragment has no ports: its flow is keyed without them. */
	flow_of(e, &key, &f);
}

struct evcount {
	unsigned elephant, end;
	uint16_t sport;
	uint64_t ts_ns; /* the last event's */
};

static int count_ev(const struct dard_event *ev, void *arg)
{
	struct evcount *c = arg;

	if (ntohs(ev->key.sport) != c->sport)
		return 0;
	c->ts_ns = ev->ts_ns;
	c->elephant += ev->type == DARD_EVENT_ELEPHANT;
	c->end += ev->type == DARD_EVENT_END;
	return 0;
}

static void test_elephant_once(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .proto = IPPROTO_TCP,
			     .sport = 4444,
			     .dport = 80,
			     .payload = 1400};
	struct evcount c = {.sport = 4444};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, &o);
	uint32_t n;
	int i;

	/* Two packets stay under 3000 bytes, the third makes it. */
	for (i = 0; i < 6; i++) {
		assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
		check_encap(in, len, out, n, i < 2 ? 0 : 8 << 2);
	}
	o.tcp_flags = 0x01; /* FIN */
	len = build(in, &o);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_true(dard_dp_bpf.poll(e->dp, count_ev, &c, 100) >= 0);
	assert_int_equal(c.elephant, 1);
	assert_int_equal(c.end, 1);
}

/* A new connection on an ended flow's 5-tuple starts afresh. */
static void test_syn_resets(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .proto = IPPROTO_TCP,
			     .sport = 4444,
			     .dport = 80,
			     .tcp_flags = 0x02};
	struct dard_flow_key key = {.saddr = A(MY_ID),
				    .daddr = A(PEER_ID),
				    .sport = htons(4444),
				    .dport = htons(80),
				    .proto = IPPROTO_TCP};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, &o);
	struct dard_flow f;
	uint32_t n;

	/* test_elephant_once left this flow an ended elephant. */
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_int_equal(check_encap(in, len, out, n, 0) >= 0, 1);
	flow_of(e, &key, &f);
	assert_int_equal(f.flags, 0);
	assert_int_equal(f.packets, 1);

	/* Ended again; a server's SYN-ACK on the 5-tuple starts afresh too. */
	o.tcp_flags = 0x11; /* FIN, ACK */
	send_one(e, &o);
	flow_of(e, &key, &f);
	assert_true(f.flags & DARD_FLOW_F_ENDED);
	o.tcp_flags = 0x12; /* SYN, ACK */
	send_one(e, &o);
	flow_of(e, &key, &f);
	assert_false(f.flags & DARD_FLOW_F_ENDED);
	assert_int_equal(f.packets, 1);
}

static int drain(const struct dard_event *ev, void *arg)
{
	return 0;
}

/*
 * An event the ring cannot take is not lost: the flow stays unreported
 * and its next packet tries again.
 */
static void test_ring_full(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .proto = IPPROTO_TCP,
			     .dport = 443,
			     .tcp_flags = 0x01};
	struct dard_flow_key key = {.saddr = A(MY_ID),
				    .daddr = A(PEER_ID),
				    .sport = htons(60000),
				    .dport = htons(443),
				    .proto = IPPROTO_TCP};
	struct evcount c = {.sport = 60000};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	uint64_t retries = stat(e, DARD_STAT_EVENT_RETRY);
	struct dard_flow f;
	size_t len;
	uint32_t n, i;

	/* FINs of 6000 flows: more end events than 256 KiB holds. */
	for (i = 0; i < 6000; i++) {
		o.sport = 10000 + i;
		len = build(in, &o);
		assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	}
	assert_true(stat(e, DARD_STAT_EVENT_RETRY) > retries);
	/* An elephant now: its event cannot go out yet. */
	o.sport = 60000;
	o.tcp_flags = 0x10;
	o.payload = 1400;
	len = build(in, &o);
	for (i = 0; i < 3; i++)
		assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	flow_of(e, &key, &f);
	assert_true(f.flags & DARD_FLOW_F_ELEPHANT);
	assert_false(f.flags & DARD_FLOW_F_REPORTED);
	/* Once the daemon reads, the next packet delivers it. */
	assert_true(dard_dp_bpf.poll(e->dp, drain, NULL, 0) > 0);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_true(dard_dp_bpf.poll(e->dp, count_ev, &c, 100) >= 0);
	assert_int_equal(c.elephant, 1);
	flow_of(e, &key, &f);
	assert_true(f.flags & DARD_FLOW_F_REPORTED);
}

static void test_malformed(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .sport = 7,
			     .dport = 7,
			     .payload = 20};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	uint64_t before;
	size_t len;
	uint32_t n;

	/*
	 * BPF_PROG_TEST_RUN refuses packets cut inside the IPv4 header, so
	 * that guard is not exercised here; one cut inside UDP is, below.
	 * An IHL claiming more header than the packet holds:
	 */
	len = build(in, &o);
	((struct iphdr *)(in + ETH_HLEN))->ihl = 15;
	before = stat(e, DARD_STAT_DROP_BAD_LEN);
	assert_int_equal(run(e, 1, in, ETH_HLEN + 40, out, &n), TC_ACT_SHOT);
	assert_int_equal(stat(e, DARD_STAT_DROP_BAD_LEN), before + 1);
	/* IHL below 5. */
	((struct iphdr *)(in + ETH_HLEN))->ihl = 4;
	before = stat(e, DARD_STAT_DROP_BAD_IHL);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_SHOT);
	assert_int_equal(stat(e, DARD_STAT_DROP_BAD_IHL), before + 1);
	/* Total length past the packet, and below the header. */
	o.tot_len_delta = 100;
	len = build(in, &o);
	before = stat(e, DARD_STAT_DROP_BAD_LEN);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_SHOT);
	o.tot_len_delta = -(int)(8 + 20 + 10);
	len = build(in, &o);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_SHOT);
	assert_int_equal(stat(e, DARD_STAT_DROP_BAD_LEN), before + 2);
	/* Options: the ports are further in, and the packet is wrapped. */
	o.tot_len_delta = 0;
	o.ihl = 7;
	len = build(in, &o);
	before = stat(e, DARD_STAT_IP_OPTIONS);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_true(check_encap(in, len, out, n, 0) >= 0);
	assert_int_equal(stat(e, DARD_STAT_IP_OPTIONS), before + 1);
	/* UDP header cut off: ports cannot be read. */
	o.ihl = 5;
	len = build(in, &o);
	((struct iphdr *)(in + ETH_HLEN))->tot_len = htons(22);
	before = stat(e, DARD_STAT_DROP_TRUNCATED);
	assert_int_equal(run(e, 1, in, ETH_HLEN + 22, out, &n), TC_ACT_SHOT);
	assert_int_equal(stat(e, DARD_STAT_DROP_TRUNCATED), before + 1);
	/* Not to an ID: the same malformations are the kernel's business. */
	o.daddr = A("172.16.0.77");
	len = build(in, &o);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_memory_equal(out, in, len);
	((struct iphdr *)(in + ETH_HLEN))->ihl = 4;
	before = stat(e, DARD_STAT_EGRESS_PASS);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_memory_equal(out, in, len);
	((struct iphdr *)(in + ETH_HLEN))->ihl = 5;
	((struct iphdr *)(in + ETH_HLEN))->tot_len = htons(22);
	assert_int_equal(run(e, 1, in, ETH_HLEN + 22, out, &n), TC_ACT_OK);
	assert_int_equal(n, ETH_HLEN + 22);
	assert_memory_equal(out, in, ETH_HLEN + 22);
	assert_int_equal(stat(e, DARD_STAT_EGRESS_PASS), before + 2);
}

/*
 * BIG TCP: a GSO packet over 64 KiB has total length 0 (its length is the
 * skb's). Such a packet cannot be wrapped, nor unwrapped: both ways it is
 * dropped and counted, while a packet of length 0 that is not GSO stays a
 * bad length, and one not to an ID is the kernel's. BPF_PROG_TEST_RUN
 * builds no 64 KiB packet; the ctx makes a small one GSO.
 */
static void test_big_tcp(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .proto = IPPROTO_TCP,
			     .sport = 5555,
			     .dport = 80,
			     .tcp_flags = 0x10,
			     .payload = 1000};
	struct __sk_buff gso = {.gso_size = 500, .gso_segs = 2};
	struct dard_flow_key key = {.saddr = A(MY_ID),
				    .daddr = A(PEER_ID),
				    .sport = htons(5555),
				    .dport = htons(80),
				    .proto = IPPROTO_TCP};
	uint8_t in[PKT_MAX], wrapped[PKT_MAX], out[PKT_MAX];
	struct dard_flow f;
	struct iphdr *ip, *outer;
	uint64_t big, bad, pass;
	size_t len = build(in, &o);
	uint32_t n;

	/* Known, so that the drop below is seen not to count toward it. */
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	ip = (void *)(in + ETH_HLEN);
	ip->tot_len = 0;
	ip->check = 0;
	ip->check = htons(csum(ip, 20));
	big = stat(e, DARD_STAT_DROP_BIG_TCP);
	bad = stat(e, DARD_STAT_DROP_BAD_LEN);
	assert_int_equal(run_ctx(e, 1, in, len, &gso, out, &n), TC_ACT_SHOT);
	assert_int_equal(stat(e, DARD_STAT_DROP_BIG_TCP), big + 1);
	assert_int_equal(stat(e, DARD_STAT_DROP_BAD_LEN), bad);
	/* Dropped before it counts toward its flow. */
	flow_of(e, &key, &f);
	assert_int_equal(f.packets, 1);
	/* Not GSO: length 0 is a bad length. */
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_SHOT);
	assert_int_equal(stat(e, DARD_STAT_DROP_BAD_LEN), bad + 1);
	assert_int_equal(stat(e, DARD_STAT_DROP_BIG_TCP), big + 1);
	/* Not to an ID: BIG TCP is the kernel's business there. */
	pass = stat(e, DARD_STAT_EGRESS_PASS);
	ip->daddr = A("172.16.0.77");
	ip->check = 0;
	ip->check = htons(csum(ip, 20));
	assert_int_equal(run_ctx(e, 1, in, len, &gso, out, &n), TC_ACT_OK);
	assert_int_equal(n, len);
	assert_memory_equal(out, in, len);
	assert_int_equal(stat(e, DARD_STAT_EGRESS_PASS), pass + 1);
	assert_int_equal(stat(e, DARD_STAT_DROP_BIG_TCP), big + 1);

	/* Ingress: GRO past 64 KiB leaves both lengths 0. */
	o.saddr = A(PEER_ID);
	o.daddr = A(MY_ID);
	len = build(in, &o);
	outer = wrap(wrapped, o);
	outer->tot_len = 0;
	outer->check = 0;
	outer->check = htons(csum(outer, 20));
	ip = outer + 1;
	ip->tot_len = 0;
	ip->check = 0;
	ip->check = htons(csum(ip, 20));
	assert_int_equal(run_ctx(e, 0, wrapped, len + 20, &gso, out, &n),
			 TC_ACT_SHOT);
	assert_int_equal(stat(e, DARD_STAT_DROP_BIG_TCP), big + 2);
	assert_int_equal(run(e, 0, wrapped, len + 20, out, &n), TC_ACT_SHOT);
	assert_int_equal(stat(e, DARD_STAT_DROP_BAD_LEN), bad + 2);
	assert_int_equal(stat(e, DARD_STAT_DROP_BIG_TCP), big + 2);
	/*
	 * With its lengths it is unwrapped. (Not as GSO: the test run's skb
	 * has a gso_size but no GSO type, which bpf_skb_adjust_room refuses.)
	 */
	wrap(wrapped, o);
	assert_int_equal(run(e, 0, wrapped, len + 20, out, &n), TC_ACT_OK);
	assert_int_equal(n, len);
	assert_memory_equal(out, in, len);
}

/*
 * Headers outside the skb's linear part are pulled in (pull_revalidate):
 * egress with the IPv4 header cut, ingress with the inner one cut. This
 * needs a test run that builds a non-linear skb, its linear part as long
 * as the ctx's data_end; a kernel whose test run builds linear ones only
 * refuses that ctx (EINVAL, as 6.18 does), and the case is skipped.
 */
static void test_pulled_headers(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .sport = 6000,
			     .dport = 6001,
			     .payload = 1000};
	struct __sk_buff ctx = {.data_end = ETH_HLEN + 10};
	uint8_t in[PKT_MAX], wrapped[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, &o);
	struct bpf_program *prog = e->skel->progs.dard_tc_egress;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = in, .data_size_in = len,
		    .data_out = out, .data_size_out = PKT_MAX, .repeat = 1,
		    .ctx_in = &ctx, .ctx_size_in = sizeof(ctx));
	uint32_t n;

	if (bpf_prog_test_run_opts(bpf_program__fd(prog), &opts) == -EINVAL) {
		print_message("this kernel's test run has no non-linear skb\n");
		skip();
	}
	assert_int_equal(opts.retval, TC_ACT_OK);
	assert_true(check_encap(in, len, out, opts.data_size_out, 0) >= 0);
	o.saddr = A(PEER_ID);
	o.daddr = A(MY_ID);
	len = build(in, &o);
	wrap(wrapped, o);
	ctx.data_end = ETH_HLEN + 20 + 4;
	assert_int_equal(run_ctx(e, 0, wrapped, len + 20, &ctx, out, &n),
			 TC_ACT_OK);
	assert_int_equal(n, len);
	assert_memory_equal(out, in, len);
}

/*
 * Attach's step against BIG TCP: sizes above 64 KiB are lowered, others
 * left, and an interface that is not there is an error. On lo, whose BIG
 * TCP is raised for the test (lo's TSO limit allows it) and put back.
 */
static void test_link_cap_gso(void **state)
{
	struct dard_link_sizes was, s, big = {.gso_ipv4_max = 131072};
	unsigned lo = if_nametoindex("lo");

	(void)state;
	assert_true(lo > 0);
	assert_int_equal(dard_dp_link_sizes(lo, &was), 0);
	if (!was.gso_ipv4_max) {
		print_message(
			"no IPv4 BIG TCP before Linux 6.3: cap skipped\n");
		assert_int_equal(dard_dp_link_cap_gso(lo), 0);
		return;
	}
	assert_int_equal(dard_dp_link_set_sizes(lo, &big), 0);
	big.gso_ipv4_max = 0;
	big.gro_ipv4_max = 65536; /* at the cap: left as it is */
	assert_int_equal(dard_dp_link_set_sizes(lo, &big), 0);
	assert_int_equal(dard_dp_link_sizes(lo, &s), 0);
	assert_int_equal(s.gso_ipv4_max, 131072);
	assert_int_equal(dard_dp_link_cap_gso(lo), 0);
	assert_int_equal(dard_dp_link_sizes(lo, &s), 0);
	assert_int_equal(s.gso_ipv4_max, DARD_GSO_IPV4_MAX);
	assert_int_equal(s.gro_ipv4_max, 65536);
	/* Below the cap: never raised. */
	big.gso_ipv4_max = 32768;
	big.gro_ipv4_max = 0;
	assert_int_equal(dard_dp_link_set_sizes(lo, &big), 0);
	assert_int_equal(dard_dp_link_cap_gso(lo), 0);
	assert_int_equal(dard_dp_link_sizes(lo, &s), 0);
	assert_int_equal(s.gso_ipv4_max, 32768);
	assert_int_equal(dard_dp_link_set_sizes(lo, &was), 0);
	/* No such interface: the kernel's error comes back. */
	assert_int_equal(dard_dp_link_cap_gso(0x7fffffff), -ENODEV);
}

static int count_flow(const struct dard_flow_key *key,
		      const struct dard_flow *flow, void *arg)
{
	unsigned *n = arg;

	(*n)++;
	return 0;
}

static int stop_at_three(const struct dard_flow_key *key,
			 const struct dard_flow *flow, void *arg)
{
	unsigned *n = arg;

	return ++(*n) == 3 ? -EINTR : 0;
}

static int count_end(const struct dard_event *ev, void *arg)
{
	unsigned *n = arg;

	*n += ev->type == DARD_EVENT_END;
	return 0;
}

/* The walks read the table in batches: more flows than one batch holds. */
static void test_walk_and_sweep(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {
		.saddr = A(MY_ID), .daddr = A(PEER_ID), .sport = 1, .dport = 9};
	int fd = bpf_map__fd(e->skel->maps.dard_flows);
	struct dard_flow_key k, next;
	uint8_t in[PKT_MAX], out[PKT_MAX];
	unsigned before = 0, walked = 0, ends = 0, i;
	void *prev = NULL;
	uint32_t n;

	for (i = 0; i < 600; i++) {
		o.sport = 20000 + i;
		assert_int_equal(run(e, 1, in, build(in, &o), out, &n),
				 TC_ACT_OK);
	}
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		before++;
	}
	assert_true(before >= 600);
	assert_int_equal(dard_dp_bpf.flows(e->dp, count_flow, &walked), 0);
	assert_int_equal(walked, before);
	walked = 0;
	assert_int_equal(dard_dp_bpf.flows(e->dp, stop_at_three, &walked),
			 -EINTR);
	assert_int_equal(walked, 3);
	/* Nothing is idle for a day; after a few jiffies all is for 1 ns. */
	assert_int_equal(dard_dp_bpf.sweep(e->dp, 86400e9, count_end, &ends),
			 0);
	usleep(50000);
	assert_int_equal(dard_dp_bpf.sweep(e->dp, 1, count_end, &ends),
			 (int)before);
	/* Flows whose end was reported already are not reported again. */
	assert_true(ends >= 600 && ends <= before);
	walked = 0;
	assert_int_equal(dard_dp_bpf.flows(e->dp, count_flow, &walked), 0);
	assert_int_equal(walked, 0);
}

/*
 * LRU eviction. A BPF LRU hash has no eviction callback, and an insert
 * cannot tell that it evicted something: the program cannot report an
 * evicted flow's end, and does not. What it leaves is the evidence
 * dardd's walk ends an elephant by (daemon/dardd/flows.c, walk_cb): the
 * flow's next packet makes a new entry, begun (first_ns) after dardd took
 * the old one for an elephant, with no moves and no elephant flags. Shown
 * here on the real program with the table shrunk to LRU_FLOWS entries:
 * an elephant, moved once, then LRU_FLOWS new flows, one packet each.
 *
 * Why the elephant must go, and by the last of them: an LRU hash
 * preallocates exactly max_entries entries, no spares, so it and
 * LRU_FLOWS others cannot all be there. The common LRU hands each CPU
 * free entries in batches (128 at most; on 6.18 max_entries / possible
 * CPUs / 2, 16 with 2 CPUs), keeps the entries a CPU made on that CPU's
 * pending list until its next batch, and once no entry is free evicts a
 * batch from the tail of the global inactive list, oldest first among
 * those not looked up since they went there. Pinned to one CPU
 * (setup_lru), every entry goes through that CPU's lists in the order it
 * was made, and no flow is seen again, so the oldest, the elephant, is
 * in the first batch evicted. Unpinned, it could wait on another CPU's
 * pending list, which this CPU's evictions never reach: with the mice
 * sent from the other CPU it kept its entry through all 64. The test
 * prints when it went and how many went with it (6.18, 2 CPUs: at the
 * 64th, with 15 others).
 */
enum { LRU_FLOWS = 64 };

static cpu_set_t lru_was;

static int teardown_lru(void **state)
{
	env_close(*state);
	sched_setaffinity(0, sizeof(lru_was), &lru_was);
	return 0;
}

static int setup_lru(void **state)
{
	static struct env e;
	cpu_set_t one;

	if (sched_getaffinity(0, sizeof(lru_was), &lru_was))
		return -1;
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	*state = &e;
	if (sched_setaffinity(0, sizeof(one), &one) ||
	    env_load(&e, LRU_FLOWS)) {
		teardown_lru(state);
		return -1;
	}
	return 0;
}

/* Whether key has an entry; a syscall's lookup, which the LRU ignores. */
static int has_flow(struct env *e, const struct dard_flow_key *key)
{
	struct dard_flow f;

	return !bpf_map_lookup_elem(bpf_map__fd(e->skel->maps.dard_flows), key,
				    &f);
}

struct find {
	struct dard_flow_key key;
	struct dard_flow flow;
	unsigned found;
};

static int find_flow(const struct dard_flow_key *key,
		     const struct dard_flow *flow, void *arg)
{
	struct find *w = arg;

	if (!memcmp(key, &w->key, sizeof(*key))) {
		w->flow = *flow;
		w->found++;
	}
	return 0;
}

static void test_lru_evicted(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .sport = 40000,
			     .dport = 7000,
			     .payload = 1400};
	struct dard_flow_key key = key_of(&o);
	struct evcount c = {.sport = 40000};
	struct find w = {.key = key};
	struct dard_alias_pair to;
	struct dard_flow old;
	uint8_t in[PKT_MAX], out[PKT_MAX];
	uint64_t new_flows, full, since;
	unsigned i, at = 0, left = 0, ends = 0, size;
	size_t len = build(in, &o);
	uint32_t n;
	int k = -1, m;

	/* An elephant at its third packet (3000 bytes), reported once. */
	for (i = 0; i < 3; i++) {
		assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
		k = check_encap(in, len, out, n, i < 2 ? 0 : 8 << 2);
		assert_true(k >= 0);
	}
	assert_true(dard_dp_bpf.poll(e->dp, count_ev, &c, 100) >= 0);
	assert_int_equal(c.elephant, 1);
	/* dardd takes it for an elephant as it reads the event (el_add). */
	since = dard_clock_ns(CLOCK_MONOTONIC);
	assert_true(c.ts_ns <= since);
	m = (k + 1) % NPATHS;
	to.saddr = A(paths[m][0]);
	to.daddr = A(paths[m][1]);
	assert_int_equal(dard_dp_bpf.move(e->dp, &key, &to), 0);
	flow_of(e, &key, &old);
	assert_int_equal(old.moves, 1);
	assert_int_equal(old.path_idx, m);
	assert_int_equal(old.flags &
				 (DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED),
			 DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED);

	/* LRU_FLOWS mice: every one gets an entry, the elephant loses its. */
	new_flows = stat(e, DARD_STAT_NEW_FLOW);
	full = stat(e, DARD_STAT_FLOW_FULL);
	for (i = 1; i <= LRU_FLOWS; i++) {
		struct pkt_opts mouse = o;

		mouse.sport = 1000 + i;
		mouse.payload = 8;
		assert_true(send_one(e, &mouse) >= 0);
		if (!at && !has_flow(e, &key)) {
			at = i;
			assert_int_equal(
				dard_dp_bpf.flows(e->dp, count_flow, &left), 0);
		}
	}
	assert_int_equal(stat(e, DARD_STAT_NEW_FLOW), new_flows + LRU_FLOWS);
	assert_int_equal(stat(e, DARD_STAT_FLOW_FULL), full);
	size = bpf_map__max_entries(e->skel->maps.dard_flows);
	if (!at)
		fail_msg("the elephant kept its entry through %u new flows in "
			 "a table of %u",
			 LRU_FLOWS, size);
	printf("flow table of %u: the elephant evicted by new flow %u after "
	       "it, with %u others\n",
	       size, at, at - left);
	/* Nothing reported its end, nor any other evicted flow's. */
	c.elephant = 0;
	assert_true(dard_dp_bpf.poll(e->dp, count_ev, &c, 0) >= 0);
	assert_int_equal(c.elephant + c.end, 0);
	assert_true(dard_dp_bpf.poll(e->dp, count_end, &ends, 0) >= 0);
	assert_int_equal(ends, 0);

	/*
	 * Its next packet, a few jiffies on (the coarse clock's): a new
	 * flow, on its hashed path (the move is gone with the entry), a
	 * mouse that leaves unmarked. dardd's walk sees a first_ns after it
	 * took the old entry for an elephant, and ends that.
	 */
	usleep(50000);
	o.payload = 8;
	assert_int_equal(send_one(e, &o), k);
	assert_int_equal(stat(e, DARD_STAT_NEW_FLOW),
			 new_flows + LRU_FLOWS + 1);
	assert_int_equal(dard_dp_bpf.flows(e->dp, find_flow, &w), 0);
	assert_int_equal(w.found, 1);
	assert_true(w.flow.first_ns > since);
	assert_true(w.flow.first_ns > old.elephant_ns);
	assert_int_equal(w.flow.moves, 0);
	assert_int_equal(w.flow.path_idx, k);
	assert_int_equal(w.flow.flags &
				 (DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED),
			 0);
	assert_int_equal(w.flow.elephant_ns, 0);
	assert_int_equal(w.flow.packets, 1);

	/* An elephant again: a second event, for dardd to adopt it by. */
	o.payload = 1400;
	len = build(in, &o);
	for (i = 0; i < 3; i++)
		assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_true(dard_dp_bpf.poll(e->dp, count_ev, &c, 100) >= 0);
	assert_int_equal(c.elephant, 1);
	assert_true(c.ts_ns > since);
}

enum { WFLOWS = 8000 };

/* A new UDP flow from port sport to dport (never seen before). */
static struct pkt_opts wflow(unsigned sport, unsigned dport)
{
	struct pkt_opts o = {.saddr = A(MY_ID),
			     .daddr = A(PEER_ID),
			     .sport = sport,
			     .dport = dport,
			     .payload = 8};

	return o;
}

static int set_weights(struct env *e, const uint16_t *w, unsigned n)
{
	return dard_dp_bpf.set_weights(e->dp, ntohl(A(PEER_ID)), w, n);
}

/* WFLOWS new flows to dport, each's path in path[] (NULL: not kept), the
 * paths' counts in used[]; the flows are forgotten afterwards. */
static void spread(struct env *e, unsigned dport, unsigned *used, uint8_t *path)
{
	struct pkt_opts o;
	unsigned i;
	int p;

	memset(used, 0, NPATHS * sizeof(*used));
	for (i = 0; i < WFLOWS; i++) {
		o = wflow(10000 + i, dport);
		p = send_one(e, &o);
		assert_true(p >= 0 && p < NPATHS);
		used[p]++;
		if (path)
			path[i] = p;
		forget(e, &o);
	}
}

/* Whether n of WFLOWS is within 2.5 points of share (of 8). */
static void near(unsigned n, unsigned eighths)
{
	double got = (double)n / WFLOWS, want = eighths / 8.0;

	if (got < want - 0.025 || got > want + 0.025)
		fail_msg("%u of %u flows (%.3f), expected %.3f", n, WFLOWS, got,
			 want);
}

/*
 * Weights 1:3:0:4: new flows split 1/8, 3/8, 0, 4/8, each counted as
 * placed by weight; even again: every flow where it went before any
 * weights, and none counted.
 */
static void test_weights_split(void **state)
{
	static uint8_t before[WFLOWS], after[WFLOWS];
	struct env *e = *state;
	unsigned used[NPATHS], i;
	uint16_t slots[DARD_PATHS_MAX];
	uint64_t weighted;
	unsigned n;

	set_dead(e, 0);
	assert_int_equal(
		dard_dp_bpf.weights(e->dp, ntohl(A(PEER_ID)), slots, &n), 0);
	assert_int_equal(n, NPATHS);
	spread(e, 7001, used, before);
	for (i = 0; i < NPATHS; i++)
		near(used[i], 2);
	weighted = stat(e, DARD_STAT_NEW_FLOW_WEIGHTED);
	assert_int_equal(set_weights(e, (uint16_t[]){1, 3, 0, 4}, 4), 0);
	assert_int_equal(
		dard_dp_bpf.weights(e->dp, ntohl(A(PEER_ID)), slots, &n), 1);
	assert_int_equal(n, NPATHS);
	assert_int_equal(slots[0], 32);
	assert_int_equal(slots[1], 96);
	assert_int_equal(slots[2], 0);
	assert_int_equal(slots[3], 128);
	spread(e, 7001, used, NULL);
	printf("weights 1:3:0:4 over %u new flows: %u %u %u %u\n", WFLOWS,
	       used[0], used[1], used[2], used[3]);
	near(used[0], 1);
	near(used[1], 3);
	assert_int_equal(used[2], 0);
	near(used[3], 4);
	assert_int_equal(stat(e, DARD_STAT_NEW_FLOW_WEIGHTED),
			 weighted + WFLOWS);
	/* Even again: today's hash % npaths, flow for flow. */
	assert_int_equal(set_weights(e, NULL, 0), 0);
	assert_int_equal(
		dard_dp_bpf.weights(e->dp, ntohl(A(PEER_ID)), slots, &n), 0);
	spread(e, 7001, used, after);
	assert_memory_equal(before, after, WFLOWS);
	assert_int_equal(stat(e, DARD_STAT_NEW_FLOW_WEIGHTED),
			 weighted + WFLOWS);
}

/* A weighted choice that is dead goes on to the next live path. */
static void test_weights_dead(void **state)
{
	struct env *e = *state;
	unsigned used[NPATHS];
	uint64_t avoided;

	assert_int_equal(set_weights(e, (uint16_t[]){0, 5, 0, 0}, 4), 0);
	spread(e, 7002, used, NULL);
	assert_int_equal(used[1], WFLOWS);
	avoided = stat(e, DARD_STAT_NEW_FLOW_DEAD_AVOIDED);
	set_dead(e, 1U << 1);
	spread(e, 7002, used, NULL);
	assert_int_equal(used[2], WFLOWS);
	assert_int_equal(stat(e, DARD_STAT_NEW_FLOW_DEAD_AVOIDED),
			 avoided + WFLOWS);
	/* Path 2 dead too: on to 3, weight 0 or not (sending beats
	 * dropping, and the controller's next weights will say better). */
	set_dead(e, 1U << 1 | 1U << 2);
	spread(e, 7002, used, NULL);
	assert_int_equal(used[3], WFLOWS);
	set_dead(e, 0);
	assert_int_equal(set_weights(e, NULL, 0), 0);
}

/* Known flows never move for weights; new paths are even again. */
static void test_weights_known_flow(void **state)
{
	struct env *e = *state;
	struct dard_alias_pair p[NPATHS];
	struct pkt_opts o = wflow(9999, 7003);
	uint16_t w[NPATHS] = {0}, slots[DARD_PATHS_MAX];
	unsigned i, n;
	int first;

	first = send_one(e, &o);
	assert_true(first >= 0);
	w[(first + 1) % NPATHS] = 1;
	assert_int_equal(set_weights(e, w, NPATHS), 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(send_one(e, &o), first);
	forget(e, &o);
	assert_int_equal(send_one(e, &o), (first + 1) % NPATHS);
	forget(e, &o);
	/* set_dest replaces the paths: the weights were for the old ones. */
	for (i = 0; i < NPATHS; i++) {
		p[i].saddr = A(paths[i][0]);
		p[i].daddr = A(paths[i][1]);
	}
	assert_int_equal(
		dard_dp_bpf.set_dest(e->dp, ntohl(A(PEER_ID)), p, NPATHS, NULL),
		0);
	assert_int_equal(
		dard_dp_bpf.weights(e->dp, ntohl(A(PEER_ID)), slots, &n), 0);
}

/* What set_weights refuses, leaving the destination as it was. */
static void test_weights_refused(void **state)
{
	struct env *e = *state;
	uint16_t slots[DARD_PATHS_MAX];
	unsigned n;

	assert_int_equal(set_weights(e, (uint16_t[]){1, 2, 3}, 3), -EINVAL);
	assert_int_equal(set_weights(e, (uint16_t[]){1, 2, 3, 4, 5}, 5),
			 -EINVAL);
	assert_int_equal(set_weights(e, (uint16_t[]){0, 0, 0, 0}, 4), -EINVAL);
	assert_int_equal(dard_dp_bpf.set_weights(e->dp, ntohl(A("172.16.0.9")),
						 (uint16_t[]){1}, 1),
			 -ENOENT);
	assert_int_equal(
		dard_dp_bpf.weights(e->dp, ntohl(A("172.16.0.9")), slots, &n),
		-ENOENT);
	assert_int_equal(
		dard_dp_bpf.weights(e->dp, ntohl(A(PEER_ID)), slots, &n), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encap),
		cmocka_unit_test(test_decap_inverse),
		cmocka_unit_test(test_not_mine),
		cmocka_unit_test(test_pass),
		cmocka_unit_test(test_move),
		cmocka_unit_test(test_hash_spreads),
		cmocka_unit_test(test_new_flow_dead),
		cmocka_unit_test(test_repath_dead),
		cmocka_unit_test(test_repath_after_move),
		cmocka_unit_test(test_repath_stale_index),
		cmocka_unit_test(test_live_gen),
		cmocka_unit_test(test_live_gen_checked_once),
		cmocka_unit_test(test_repath_dsack),
		cmocka_unit_test(test_repair_order),
		cmocka_unit_test(test_fragments),
		cmocka_unit_test(test_elephant_once),
		cmocka_unit_test(test_syn_resets),
		cmocka_unit_test(test_ring_full),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_big_tcp),
		cmocka_unit_test(test_link_cap_gso),
		cmocka_unit_test(test_pulled_headers),
		cmocka_unit_test(test_walk_and_sweep),
		cmocka_unit_test_setup_teardown(test_lru_evicted, setup_lru,
						teardown_lru),
		cmocka_unit_test(test_weights_split),
		cmocka_unit_test(test_weights_dead),
		cmocka_unit_test(test_weights_known_flow),
		cmocka_unit_test(test_weights_refused),
	};

	bpf_test_need_root("test_datapath");
	dard_bpf_log(getenv("V") != NULL);
	return cmocka_run_group_tests(tests, setup, teardown);
}
