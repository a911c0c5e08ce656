// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The host datapath's BPF tests' shared part (dp_env.h): the skeleton
 * loaded afresh for each test, so that no test sees another's flows,
 * counters or dead paths, and the one runner of the packet cases.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>

#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dp_env.h"
#include "bpflog.h"

/* The peer's paths as alias pairs {ours, its}, index for index. */
static const char *const paths[NPATHS][2] = {
	{"10.4.16.66", "10.4.32.66"},
	{"10.8.16.66", "10.8.32.66"},
	{"10.12.16.66", "10.12.32.66"},
	{"10.16.16.66", "10.16.32.66"},
};

struct dard_alias_pair pair_of(int i)
{
	struct dard_alias_pair p = {.saddr = A(paths[i][0]),
				    .daddr = A(paths[i][1])};

	return p;
}

int env_load(struct env *e, uint32_t flows_max)
{
	memset(e, 0, sizeof(*e));
	e->skel = dard_tc__open();
	if (!e->skel)
		return -1;
	return env_load_opened(e, flows_max);
}

int env_load_opened(struct env *e, uint32_t flows_max)
{
	struct dard_alias_pair p[NPATHS];
	int i;

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
	for (i = 0; i < NPATHS; i++)
		p[i] = pair_of(i);
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
	e->dp = NULL;
	e->skel = NULL;
}

int env_setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));

	*state = e;
	if (!e)
		return -1;
	if (env_load(e, 0)) {
		env_teardown(state);
		return -1;
	}
	return 0;
}

int env_teardown(void **state)
{
	struct env *e = *state;

	if (e)
		env_close(e);
	free(e);
	*state = NULL;
	return 0;
}

int run_ctx(struct env *e, int egress, const uint8_t *in, size_t len,
	    const struct __sk_buff *ctx, uint8_t *out, uint32_t *out_len)
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

int run(struct env *e, int egress, const uint8_t *in, size_t len, uint8_t *out,
	uint32_t *out_len)
{
	return run_ctx(e, egress, in, len, NULL, out, out_len);
}

static void stats_of(struct env *e, uint64_t v[__DARD_STAT_MAX])
{
	assert_int_equal(dard_dp_bpf.stats(e->dp, v), 0);
}

uint64_t stat_of(struct env *e, unsigned which)
{
	uint64_t v[__DARD_STAT_MAX];

	stats_of(e, v);
	return v[which];
}

/* The index of the path a pair names, or -1. */
static int path_of(uint32_t saddr, uint32_t daddr)
{
	int i;

	for (i = 0; i < NPATHS; i++)
		if (A(paths[i][0]) == saddr && A(paths[i][1]) == daddr)
			return i;
	return -1;
}

int check_encap(const uint8_t *in, size_t len, const uint8_t *out,
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

struct iphdr *wrap(uint8_t *wrapped, struct pkt_opts o)
{
	o.outer = TO_ME();
	build(wrapped, &o);
	return (void *)(wrapped + ETH_HLEN);
}

struct dard_flow_key key_of(const struct pkt_opts *o)
{
	struct dard_flow_key k = {.saddr = o->saddr,
				  .daddr = o->daddr,
				  .sport = htons(o->sport),
				  .dport = htons(o->dport),
				  .proto = o->proto ? o->proto : IPPROTO_UDP};

	return k;
}

void flow_of(struct env *e, const struct dard_flow_key *key,
	     struct dard_flow *f)
{
	assert_int_equal(bpf_map_lookup_elem(
				 bpf_map__fd(e->skel->maps.dard_flows), key, f),
			 0);
}

void forget(struct env *e, const struct pkt_opts *o)
{
	struct dard_flow_key k = key_of(o);

	assert_int_equal(
		bpf_map_delete_elem(bpf_map__fd(e->skel->maps.dard_flows), &k),
		0);
}

void set_dead(struct env *e, unsigned mask)
{
	uint64_t dead[DARD_PATHS_MAX / 64] = {mask};

	assert_int_equal(dard_dp_bpf.set_dead(e->dp, ntohl(A(PEER_ID)), dead),
			 0);
}

int send_one(struct env *e, const struct pkt_opts *o)
{
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, o);
	uint32_t n;

	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	return check_encap(in, len, out, n, o->tos);
}

/* A case's env: the test's state between its fixtures. */
struct dp_case_env {
	struct env e;
	const struct dp_case *c;
};

static int case_teardown(void **state)
{
	struct dp_case_env *s = *state;

	env_close(&s->e);
	free(s);
	*state = NULL;
	return 0;
}

/* cmocka hands it the case, as the test's initial state. */
static int case_setup(void **state)
{
	struct dp_case_env *s = calloc(1, sizeof(*s));

	if (!s)
		return -1;
	s->c = *state;
	*state = s;
	if (env_load(&s->e, 0)) {
		case_teardown(state);
		return -1;
	}
	return 0;
}

/* The output c asks for, of in (len bytes) made out (n bytes). */
static void check_out(const struct dp_case *c, const uint8_t *in, size_t len,
		      const uint8_t *out, uint32_t n)
{
	uint8_t want[PKT_MAX];
	struct pkt_opts inner;
	size_t want_len;

	switch (c->out) {
	case DP_OUT_ANY:
		break;
	case DP_OUT_SAME:
		assert_int_equal(n, len);
		assert_memory_equal(out, in, len);
		break;
	case DP_OUT_ENCAP:
		assert_true(check_encap(in, len, out, n, c->tos) >= 0);
		break;
	case DP_OUT_DECAP:
		/* Built anew: its checksum is the builder's, not the
		 * program's. */
		inner = c->pkt;
		inner.outer = NULL;
		inner.tos = c->tos;
		want_len = build(want, &inner);
		assert_int_equal(n, want_len);
		assert_memory_equal(out, want, want_len);
		break;
	}
}

static void case_test(void **state)
{
	struct dp_case_env *s = *state;
	const struct dp_case *c = s->c;
	uint8_t in[PKT_MAX], out[PKT_MAX];
	uint64_t before[__DARD_STAT_MAX], after[__DARD_STAT_MAX];
	int64_t want[__DARD_STAT_MAX] = {0};
	size_t len;
	uint32_t n;
	unsigned i;
	int verdict;

	if (c->setup)
		c->setup(&s->e, c);
	len = build(in, &c->pkt);
	if (c->mutate)
		len = c->mutate(in, len);
	stats_of(&s->e, before);
	verdict = run_ctx(&s->e, c->egress, in, len, c->ctx, out, &n);
	stats_of(&s->e, after);
	if (verdict != c->verdict)
		fail_msg("verdict %d, expected %d", verdict, c->verdict);
	check_out(c, in, len, out, n);
	for (i = 0; i < DP_DELTAS; i++) {
		assert_true(c->stats[i].stat < __DARD_STAT_MAX);
		want[c->stats[i].stat] += c->stats[i].delta;
	}
	for (i = 0; i < __DARD_STAT_MAX; i++)
		if ((int64_t)(after[i] - before[i]) != want[i])
			fail_msg("%s moved %+lld, expected %+lld",
				 dard_stat_name(i),
				 (long long)(after[i] - before[i]),
				 (long long)want[i]);
	if (c->check)
		c->check(&s->e, c);
}

int dp_main(const char *name, const struct dp_case *cases, size_t ncases,
	    const struct CMUnitTest *tests, size_t ntests)
{
	struct CMUnitTest *all;
	size_t i;
	int ret;

	bpf_test_need_root(name);
	dard_bpf_log(getenv("V") != NULL);
	all = calloc(ncases + ntests, sizeof(*all));
	if (!all) {
		fprintf(stderr, "%s: out of memory\n", name);
		return 1;
	}
	for (i = 0; i < ncases; i++) {
		all[i].name = cases[i].name;
		all[i].test_func = case_test;
		all[i].setup_func = case_setup;
		all[i].teardown_func = case_teardown;
		all[i].initial_state = (void *)&cases[i];
	}
	if (ntests)
		memcpy(all + ncases, tests, ntests * sizeof(*tests));
	/* The function behind cmocka_run_group_tests, whose array is sized
	 * at compile time. */
	ret = _cmocka_run_group_tests(name, all, ncases + ntests, NULL, NULL);
	free(all);
	return ret;
}
