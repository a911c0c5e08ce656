/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What the host datapath's BPF tests (tests/bpf/test_dp_*.c) share: the
 * real skeleton loaded afresh for every test and filled through the
 * daemon's own datapath code, the runs, the checks of an output packet,
 * and the table of packet cases (struct dp_case) with its one runner.
 * Include after <cmocka.h>.
 */
#ifndef _DARD_TEST_DP_ENV_H
#define _DARD_TEST_DP_ENV_H

#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>
#include <linux/dard.h>

#include "bpf_test.h"
#include "dard_tc.skel.h"
#include "dp.h"

#define MY_ID "172.16.0.1"
#define PEER_ID "172.16.0.5"
#define MY_ALIAS "10.4.16.66"

enum { NPATHS = 4 };

struct env {
	struct dard_tc *skel;
	struct dard_dp *dp;
};

/*
 * Loads the skeleton into e, its flow table flows_max entries (0: the
 * default), with our ID and alias and the peer's NPATHS paths, all live;
 * -1 on failure.
 */
int env_load(struct env *e, uint32_t flows_max);
/* The same for e->skel opened already, its other rodata set. */
int env_load_opened(struct env *e, uint32_t flows_max);

/* cmocka's per-test fixtures: a freshly loaded env in *state. */
int env_setup(void **state);
int env_teardown(void **state);
#define DP_TEST(f) cmocka_unit_test_setup_teardown(f, env_setup, env_teardown)

/* Runs a program on in, with ctx (NULL: none) as its __sk_buff. */
int run_ctx(struct env *e, int egress, const uint8_t *in, size_t len,
	    const struct __sk_buff *ctx, uint8_t *out, uint32_t *out_len);
int run(struct env *e, int egress, const uint8_t *in, size_t len, uint8_t *out,
	uint32_t *out_len);

/* A counter's value (not stat(): libc's). */
uint64_t stat_of(struct env *e, unsigned which);

/* The alias pair {ours, the peer's} of the peer's path i. */
struct dard_alias_pair pair_of(int i);

/* Checks out is in wrapped in a valid outer header; returns the path. */
int check_encap(const uint8_t *in, size_t len, const uint8_t *out,
		uint32_t out_len, uint8_t want_tos);

/* A packet's addresses (struct pkt_opts): ours to the peer; back. */
#define ME_TO_PEER .saddr = A(MY_ID), .daddr = A(PEER_ID)
#define PEER_TO_ME .saddr = A(PEER_ID), .daddr = A(MY_ID)

/*
 * The peer's outer header to our alias, on path 0 as it sees it; tos and
 * frag as designated initializers.
 */
#define TO_ME(...)                                                             \
	(&(const struct pkt_outer){.saddr = A("10.4.32.66"),                   \
				   .daddr = A(MY_ALIAS),                       \
				   .ttl = 60,                                  \
				   __VA_ARGS__})

/* What the peer sends us: o's packet behind TO_ME(). */
struct iphdr *wrap(uint8_t *wrapped, struct pkt_opts o);

/* The flow key of o's packets; the flow table's entry for key (must be). */
struct dard_flow_key key_of(const struct pkt_opts *o);
void flow_of(struct env *e, const struct dard_flow_key *key,
	     struct dard_flow *f);

/* Forgets o's flow, so that its next packet is a new flow again. */
void forget(struct env *e, const struct pkt_opts *o);

/* Marks the paths in mask (bit i: path i) dead, the others live. */
void set_dead(struct env *e, unsigned mask);

/* One packet of o's flow out, which must pass; returns its path. */
int send_one(struct env *e, const struct pkt_opts *o);

/* A counter and how far one case's packet moves it. */
struct dp_delta {
	unsigned stat; /* DARD_STAT_* */
	int delta;     /* 0: an unused entry */
};

enum { DP_DELTAS = 4 };

/* What a case's output must be. */
enum dp_out {
	DP_OUT_ANY,   /* not looked at (a drop) */
	DP_OUT_SAME,  /* the input, byte for byte */
	DP_OUT_ENCAP, /* the input wrapped (check_encap), outer tos .tos */
	DP_OUT_DECAP, /* .pkt without its outer header, inner tos .tos */
};

/*
 * One packet case, as katran's fixtures have them: the packet .pkt
 * (build()), changed by .mutate, run once on a freshly loaded env (after
 * .setup) with .ctx as its __sk_buff; the verdict, the output and every
 * counter are checked, a counter not in .stats must not move, then
 * .check looks at what else the row asks.
 */
struct dp_case {
	const char *name;
	int egress; /* else ingress */
	struct pkt_opts pkt;
	/* Changes the built packet; returns the length to run. */
	size_t (*mutate)(uint8_t *pkt, size_t len);
	const struct __sk_buff *ctx; /* NULL: none */
	void (*setup)(struct env *e, const struct dp_case *c);
	int verdict; /* TC_ACT_* */
	enum dp_out out;
	uint8_t tos; /* the output's: see enum dp_out */
	struct dp_delta stats[DP_DELTAS];
	void (*check)(struct env *e, const struct dp_case *c);
};

/*
 * Runs cases (each its own test, named for it) and then tests, as one
 * cmocka group named name; skips or fails without root
 * (bpf_test_need_root). Returns what cmocka does, for main's exit.
 */
int dp_main(const char *name, const struct dp_case *cases, size_t ncases,
	    const struct CMUnitTest *tests, size_t ntests);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* _DARD_TEST_DP_ENV_H */
