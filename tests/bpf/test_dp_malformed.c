// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What is not a plain packet, under BPF_PROG_TEST_RUN: malformed IPv4
 * headers and lengths, IP options, fragments inside and outside, BIG TCP
 * (GSO with total length 0) and headers outside the skb's linear part;
 * the packet cases as a table (dp_env.h). To an ID such a packet leaves
 * wrapped or is dropped and counted; to anyone else it is the kernel's,
 * untouched. Needs root (CAP_BPF); without it, says so and skips (fails
 * under CI).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>

#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dp_env.h"
#include "dp_link.h"

static struct iphdr *ip_of(uint8_t *pkt)
{
	return (void *)(pkt + ETH_HLEN);
}

/*
 * BPF_PROG_TEST_RUN refuses packets cut inside the IPv4 header, so that
 * guard is not exercised here; one cut inside UDP is. An IHL claiming
 * more header than the packet holds:
 */
static size_t ihl_past_end(uint8_t *pkt, size_t len)
{
	ip_of(pkt)->ihl = 15;
	return ETH_HLEN + 40;
}

static size_t ihl_below_5(uint8_t *pkt, size_t len)
{
	ip_of(pkt)->ihl = 4;
	return len;
}

/* The UDP header cut off: its ports cannot be read. */
static size_t cut_in_udp(uint8_t *pkt, size_t len)
{
	ip_of(pkt)->tot_len = htons(22);
	return ETH_HLEN + 22;
}

static void set_len(struct iphdr *ip, uint16_t tot_len)
{
	ip->tot_len = htons(tot_len);
	ip->check = 0;
	ip->check = htons(csum(ip, 20));
}

/*
 * BIG TCP: a GSO packet over 64 KiB has total length 0 (its length is
 * the skb's). BPF_PROG_TEST_RUN builds no 64 KiB packet; the ctx makes
 * a small one GSO.
 */
static const struct __sk_buff gso = {.gso_size = 500, .gso_segs = 2};

static size_t zero_len(uint8_t *pkt, size_t len)
{
	set_len(ip_of(pkt), 0);
	return len;
}

/* Ingress: GRO past 64 KiB leaves both lengths 0. */
static size_t zero_lens(uint8_t *pkt, size_t len)
{
	set_len(ip_of(pkt), 0);
	set_len(ip_of(pkt) + 1, 0);
	return len;
}

/* A known flow, so that the drop is seen not to count toward it. */
static void known(struct env *e, const struct dp_case *c)
{
	assert_true(send_one(e, &c->pkt) >= 0);
}

/* Dropped before it counts toward its flow. */
static void counted_once(struct env *e, const struct dp_case *c)
{
	struct dard_flow_key key = key_of(&c->pkt);
	struct dard_flow f;

	flow_of(e, &key, &f);
	assert_int_equal(f.packets, 1);
}

/* A later fragment has no ports: its flow is keyed without them. */
static void keyed_without_ports(struct env *e, const struct dp_case *c)
{
	struct dard_flow_key key = {
		.saddr = A(MY_ID), .daddr = A(PEER_ID), .proto = IPPROTO_UDP};
	struct dard_flow f;

	flow_of(e, &key, &f);
}

enum { MF = 0x2000 };

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
	struct pkt_opts o = {ME_TO_PEER, .sport = 6000, .dport = 6001,
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

/* Headers that lie about themselves: dropped and counted, or the
 * kernel's to judge when they are not ID traffic. */
static int header_cases(void)
{
	const struct dp_case cases[] = {
		{
			"egress: IHL past the packet's end: a bad length",
			.egress = 1,
			.pkt = {ME_TO_PEER, .sport = 7, .dport = 7,
				.payload = 20},
			.mutate = ihl_past_end,
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_BAD_LEN, 1}},
		},
		{
			"egress: IHL below 5",
			.egress = 1,
			.pkt = {ME_TO_PEER, .sport = 7, .dport = 7,
				.payload = 20},
			.mutate = ihl_below_5,
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_BAD_IHL, 1}},
		},
		{
			"egress: total length past the packet",
			.egress = 1,
			.pkt = {ME_TO_PEER, .sport = 7, .dport = 7,
				.payload = 20, .tot_len_delta = 100},
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_BAD_LEN, 1}},
		},
		{
			"egress: total length below the header",
			.egress = 1,
			.pkt = {ME_TO_PEER, .sport = 7, .dport = 7,
				.payload = 20, .tot_len_delta = -(8 + 20 + 10)},
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_BAD_LEN, 1}},
		},
		{
			/* The ports are further in. */
			"egress: IP options: wrapped, counted",
			.egress = 1,
			.pkt = {ME_TO_PEER, .sport = 7, .dport = 7,
				.payload = 20, .ihl = 7},
			.verdict = TC_ACT_OK,
			.out = DP_OUT_ENCAP,
			.stats = {{DARD_STAT_ENCAP, 1},
				  {DARD_STAT_NEW_FLOW, 1},
				  {DARD_STAT_IP_OPTIONS, 1}},
		},
		{
			"egress: UDP header cut off",
			.egress = 1,
			.pkt = {ME_TO_PEER, .sport = 7, .dport = 7,
				.payload = 20},
			.mutate = cut_in_udp,
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_TRUNCATED, 1}},
		},
		{
			"egress: to a non-ID: untouched",
			.egress = 1,
			.pkt = {.saddr = A(MY_ID),
				.daddr = A("172.16.0.77"),
				.sport = 7,
				.dport = 7,
				.payload = 20},
			.verdict = TC_ACT_OK,
			.out = DP_OUT_SAME,
			.stats = {{DARD_STAT_EGRESS_PASS, 1}},
		},
		{
			"egress: to a non-ID, IHL below 5: the kernel's",
			.egress = 1,
			.pkt = {.saddr = A(MY_ID),
				.daddr = A("172.16.0.77"),
				.sport = 7,
				.dport = 7,
				.payload = 20},
			.mutate = ihl_below_5,
			.verdict = TC_ACT_OK,
			.out = DP_OUT_SAME,
			.stats = {{DARD_STAT_EGRESS_PASS, 1}},
		},
		{
			"egress: to a non-ID, UDP header cut off: the kernel's",
			.egress = 1,
			.pkt = {.saddr = A(MY_ID),
				.daddr = A("172.16.0.77"),
				.sport = 7,
				.dport = 7,
				.payload = 20},
			.mutate = cut_in_udp,
			.verdict = TC_ACT_OK,
			.out = DP_OUT_SAME,
			.stats = {{DARD_STAT_EGRESS_PASS, 1}},
		},
	};

	return dp_main("test_dp_malformed", cases, ARRAY_SIZE(cases), NULL, 0);
}

/* Fragments, and the lengths of BIG TCP and GRO; then the scenarios. */
static int length_cases(void)
{
	const struct dp_case cases[] = {
		{
			"encap: a later fragment, its flow keyed without ports",
			.egress = 1,
			.pkt = {ME_TO_PEER, .sport = 1, .dport = 2,
				.frag = MF | 10, .payload = 16},
			.verdict = TC_ACT_OK,
			.out = DP_OUT_ENCAP,
			.stats = {{DARD_STAT_ENCAP, 1},
				  {DARD_STAT_NEW_FLOW, 1}},
			.check = keyed_without_ports,
		},
		{
			/* Unwrapping one piece would hand up a cut packet. */
			"decap: a first piece of an outer fragment: dropped",
			.pkt = {PEER_TO_ME, .sport = 5201, .dport = 40000,
				.payload = 100, .outer = TO_ME(.frag = MF)},
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_OUTER_FRAGMENT, 1}},
		},
		{
			"decap: a later piece (1480 bytes in): dropped",
			.pkt = {PEER_TO_ME, .sport = 5201, .dport = 40000,
				.payload = 100, .outer = TO_ME(.frag = 185)},
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_OUTER_FRAGMENT, 1}},
		},
		{
			/* It cannot be wrapped: its outer length would be 0,
			 * which switches and the peer's checks cannot take. */
			"egress: BIG TCP (GSO, length 0) to an ID: dropped",
			.egress = 1,
			.pkt = {ME_TO_PEER, .proto = IPPROTO_TCP, .sport = 5555,
				.dport = 80, .tcp_flags = 0x10,
				.payload = 1000},
			.mutate = zero_len,
			.ctx = &gso,
			.setup = known,
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_BIG_TCP, 1}},
			.check = counted_once,
		},
		{
			"egress: length 0, not GSO: a bad length",
			.egress = 1,
			.pkt = {ME_TO_PEER, .proto = IPPROTO_TCP, .sport = 5555,
				.dport = 80, .tcp_flags = 0x10,
				.payload = 1000},
			.mutate = zero_len,
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_BAD_LEN, 1}},
		},
		{
			"egress: BIG TCP to a non-ID: the kernel's, untouched",
			.egress = 1,
			.pkt = {.saddr = A(MY_ID),
				.daddr = A("172.16.0.77"),
				.proto = IPPROTO_TCP,
				.sport = 5555,
				.dport = 80,
				.tcp_flags = 0x10,
				.payload = 1000},
			.mutate = zero_len,
			.ctx = &gso,
			.verdict = TC_ACT_OK,
			.out = DP_OUT_SAME,
			.stats = {{DARD_STAT_EGRESS_PASS, 1}},
		},
		{
			"decap: BIG TCP's GRO (GSO, both lengths 0): dropped",
			.pkt = {PEER_TO_ME, .proto = IPPROTO_TCP, .sport = 80,
				.dport = 5555, .tcp_flags = 0x10,
				.payload = 1000, .outer = TO_ME()},
			.mutate = zero_lens,
			.ctx = &gso,
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_BIG_TCP, 1}},
		},
		{
			"decap: both lengths 0, not GSO: a bad length",
			.pkt = {PEER_TO_ME, .proto = IPPROTO_TCP, .sport = 80,
				.dport = 5555, .tcp_flags = 0x10,
				.payload = 1000, .outer = TO_ME()},
			.mutate = zero_lens,
			.verdict = TC_ACT_SHOT,
			.stats = {{DARD_STAT_DROP_BAD_LEN, 1}},
		},
		{
			/* Not as GSO: the test run's skb has a gso_size but
			 * no GSO type, which bpf_skb_adjust_room refuses. */
			"decap: the same with its lengths: unwrapped",
			.pkt = {PEER_TO_ME, .proto = IPPROTO_TCP, .sport = 80,
				.dport = 5555, .tcp_flags = 0x10,
				.payload = 1000, .outer = TO_ME()},
			.verdict = TC_ACT_OK,
			.out = DP_OUT_DECAP,
			.stats = {{DARD_STAT_DECAP, 1}},
		},
	};
	const struct CMUnitTest tests[] = {
		DP_TEST(test_pulled_headers),
		cmocka_unit_test(test_link_cap_gso),
	};

	return dp_main("test_dp_malformed", cases, ARRAY_SIZE(cases), tests,
		       ARRAY_SIZE(tests));
}

int main(void)
{
	return header_cases() | length_cases();
}
