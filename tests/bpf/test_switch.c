// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The switches' elephant counter under BPF_PROG_TEST_RUN: marked IP-in-IP
 * flows are noted by port and inner 5-tuple with their bytes per window,
 * nothing else is, no packet is ever changed, and dard-switchd's count
 * takes a flow only when it carried its port's share in a window.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/dard.h>

#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_test.h"
#include "counter.h"
#include "dard_switch.skel.h"

/*
 * Packets leave by loopback. The port is 1 Mbit/s with the default share
 * (1/64) over a 10 s window: 19,532 bytes make a counted flow. The window
 * is far longer than a test, so a transfer crosses at most one window's
 * edge: one of its two windows then holds half its bytes.
 */
enum { LO = 1, MBPS = 1, MIN_BYTES = 19532 };
#define WINDOW (10 * 1000000000ULL)

static struct dard_switch *skel;

/* What dard-switchd loads for the port: its threshold, 0 for --min-share 0. */
static struct dard_switch *load(uint64_t window_ns, double share)
{
	struct dard_switch *s = dard_switch__open();

	if (!s)
		return NULL;
	s->rodata->elephant_dscp = 8;
	s->rodata->window_ns = window_ns;
	s->rodata->bytes_cap = sw_min_bytes(MBPS, share, window_ns);
	if (dard_switch__load(s)) {
		dard_switch__destroy(s);
		return NULL;
	}
	return s;
}

static uint64_t coarse_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* An elephant's mark in tos, from sport to port 9, behind outer_proto. */
static size_t packet_of(uint8_t *buf, uint8_t tos, uint8_t outer_proto,
			uint16_t sport, uint16_t payload)
{
	const struct pkt_outer outer = {.saddr = A("10.4.16.66"),
					.daddr = A("10.4.32.66"),
					.tos = tos,
					.proto = outer_proto};
	const struct pkt_opts o = {.saddr = A("172.16.0.1"),
				   .daddr = A("172.16.0.5"),
				   .sport = sport,
				   .dport = 9,
				   .payload = payload,
				   .outer = &outer};

	return build(buf, &o);
}

static size_t packet(uint8_t *buf, uint8_t tos, uint8_t outer_proto,
		     uint16_t sport)
{
	return packet_of(buf, tos, outer_proto, sport, 10);
}

/* Runs the program on buf; the packet must come out unchanged. */
static void run_on(struct dard_switch *sk, const uint8_t *buf, size_t len)
{
	uint8_t out[PKT_MAX];
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = buf, .data_size_in = len,
		    .data_out = out, .data_size_out = sizeof(out), .repeat = 1);

	assert_int_equal(bpf_prog_test_run_opts(
				 bpf_program__fd(sk->progs.dard_sw_egress), &o),
			 0);
	assert_int_equal(o.retval, TC_ACT_OK);
	assert_int_equal(o.data_size_out, len);
	assert_memory_equal(out, buf, len);
}

static void run(const uint8_t *buf, size_t len)
{
	run_on(skel, buf, len);
}

static unsigned entries_of(struct dard_switch *sk)
{
	int fd = bpf_map__fd(sk->maps.dard_sw_flows);
	struct dard_sw_key k, next;
	unsigned n = 0;
	void *prev = NULL;

	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		n++;
	}
	return n;
}

static unsigned entries(void)
{
	return entries_of(skel);
}

static int setup(void **state)
{
	(void)state;
	skel = load(WINDOW, 1.0 / DARD_SW_SHARE_INV);
	return skel ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	dard_switch__destroy(skel);
	return 0;
}

static void test_counts_marked_flows(void **state)
{
	struct dard_sw_key k = {.ifindex = LO};
	uint64_t before = coarse_now();
	struct dard_sw_flow seen;
	uint8_t buf[PKT_MAX];
	size_t len, len2;

	(void)state;
	/* Two packets of one elephant, one of another: two entries. */
	len = packet(buf, 8 << 2, IPPROTO_IPIP, 1000);
	run(buf, len);
	run(buf, len);
	len2 = packet(buf, 8 << 2 | 1, IPPROTO_IPIP, 1001); /* ECN bits apart */
	run(buf, len2);
	assert_int_equal(entries(), 2);
	k.flow.saddr = A("172.16.0.1");
	k.flow.daddr = A("172.16.0.5");
	k.flow.sport = htons(1000);
	k.flow.dport = htons(9);
	k.flow.proto = IPPROTO_UDP;
	assert_int_equal(
		bpf_map_lookup_elem(bpf_map__fd(skel->maps.dard_sw_flows), &k,
				    &seen),
		0);
	/* Seen now, its window's; the frames' bytes, whole. */
	assert_true(seen.seen_ns >= before && seen.seen_ns <= coarse_now());
	assert_int_equal(seen.window, seen.seen_ns / WINDOW);
	assert_true(seen.bytes == 2 * len ||
		    (seen.bytes == len && seen.prev == len));
}

static void test_ignores_the_rest(void **state)
{
	uint8_t buf[PKT_MAX];
	unsigned before = entries();
	size_t len;

	(void)state;
	/* A mouse (DSCP 0), another DSCP, plain UDP with the mark. */
	run(buf, packet(buf, 0, IPPROTO_IPIP, 2000));
	run(buf, packet(buf, 10 << 2, IPPROTO_IPIP, 2001));
	run(buf, packet(buf, 8 << 2, IPPROTO_UDP, 2002));
	/* Outer options, an inner header that is not IPv4, a cut packet. */
	len = packet(buf, 8 << 2, IPPROTO_IPIP, 2003);
	buf[ETH_HLEN] = 0x46;
	run(buf, len);
	len = packet(buf, 8 << 2, IPPROTO_IPIP, 2004);
	buf[ETH_HLEN + 20] = 0x65;
	run(buf, len);
	len = packet(buf, 8 << 2, IPPROTO_IPIP, 2005);
	run(buf, ETH_HLEN + 20 + 20 + 2);
	assert_int_equal(entries(), before);
}

/* A counter of sk's dard_sw_stats, summed over CPUs. */
/*
 * 4in6 (an IPv6-only fabric): sport's packet behind an outer IPv6 header
 * with traffic class tclass and next header nexthdr.
 */
static size_t packet6(uint8_t *buf, uint8_t tclass, uint8_t nexthdr,
		      uint16_t sport)
{
	const struct pkt_opts o = {.saddr = A("172.16.0.1"),
				   .daddr = A("172.16.0.5"),
				   .sport = sport,
				   .dport = 9,
				   .payload = 10};
	uint8_t inner[PKT_MAX];
	size_t n = build(inner, &o) - ETH_HLEN;
	struct ipv6hdr *ip6 = (void *)(buf + ETH_HLEN);

	memset(buf, 0, PKT_MAX);
	memcpy(buf, inner, ETH_HLEN);
	((struct ethhdr *)buf)->h_proto = htons(ETH_P_IPV6);
	ip6->version = 6;
	ip6->priority = tclass >> 4;
	ip6->flow_lbl[0] = (tclass & 0xf) << 4 | 0x3; /* a flow label */
	ip6->payload_len = htons(n);
	ip6->nexthdr = nexthdr;
	ip6->hop_limit = 60;
	inet_pton(AF_INET6, "fd00:da::1:1:1:2", &ip6->saddr);
	inet_pton(AF_INET6, "fd00:da::1:2:1:2", &ip6->daddr);
	memcpy(ip6 + 1, inner + ETH_HLEN, n);
	return ETH_HLEN + sizeof(*ip6) + n;
}

/* Whether the flow from sport to port 9 has an entry. */
static int noted(uint16_t sport)
{
	struct dard_sw_key k = {.ifindex = LO};
	struct dard_sw_flow seen;

	k.flow.saddr = A("172.16.0.1");
	k.flow.daddr = A("172.16.0.5");
	k.flow.sport = htons(sport);
	k.flow.dport = htons(9);
	k.flow.proto = IPPROTO_UDP;
	return !bpf_map_lookup_elem(bpf_map__fd(skel->maps.dard_sw_flows), &k,
				    &seen);
}

/* Marked 4in6 counts as IP-in-IP does; the rest of IPv6 does not. */
static void test_counts_4in6(void **state)
{
	uint8_t buf[PKT_MAX];
	size_t len;

	(void)state;
	run(buf, packet6(buf, 8 << 2 | 2, IPPROTO_IPIP, 3000));
	assert_true(noted(3000));
	/* A mouse, another DSCP, the mark on plain IPv6 UDP, cut short. */
	run(buf, packet6(buf, 0, IPPROTO_IPIP, 3001));
	run(buf, packet6(buf, 10 << 2, IPPROTO_IPIP, 3002));
	run(buf, packet6(buf, 8 << 2, IPPROTO_UDP, 3003));
	len = packet6(buf, 8 << 2, IPPROTO_IPIP, 3004);
	run(buf, len - 20); /* the inner header's ports cut off */
	assert_false(noted(3001) || noted(3002) || noted(3003) || noted(3004));
}

static uint64_t stat_of(struct dard_switch *sk, unsigned which)
{
	int fd = bpf_map__fd(sk->maps.dard_sw_stats);
	int ncpus = libbpf_num_possible_cpus(), i;
	uint64_t v[512], sum = 0;
	__u32 k = which;

	assert_true(ncpus > 0 && ncpus <= 512);
	assert_int_equal(bpf_map_lookup_elem(fd, &k, v), 0);
	for (i = 0; i < ncpus; i++)
		sum += v[i];
	return sum;
}

/* Noted packets and new entries are counted; the rest are not noted. */
static void test_stats(void **state)
{
	uint64_t noted = stat_of(skel, DARD_SW_STAT_NOTED);
	uint64_t fresh = stat_of(skel, DARD_SW_STAT_NEW_FLOW);
	uint64_t cut = stat_of(skel, DARD_SW_STAT_TRUNCATED);
	uint8_t buf[PKT_MAX];
	size_t len;

	(void)state;
	len = packet(buf, 8 << 2, IPPROTO_IPIP, 3000);
	run(buf, len);
	run(buf, len);
	run(buf, ETH_HLEN + 20 + 20 + 2);
	run(buf, packet(buf, 0, IPPROTO_IPIP, 3001)); /* a mouse: nothing */
	assert_int_equal(stat_of(skel, DARD_SW_STAT_NOTED), noted + 2);
	assert_int_equal(stat_of(skel, DARD_SW_STAT_NEW_FLOW), fresh + 1);
	assert_int_equal(stat_of(skel, DARD_SW_STAT_TRUNCATED), cut + 1);
	assert_int_equal(stat_of(skel, DARD_SW_STAT_FLOW_FULL), 0);
	assert_string_equal(sw_stat_name(DARD_SW_STAT_FLOW_FULL), "flow_full");
	assert_string_equal(sw_stat_name(__DARD_SW_STAT_MAX), "?");
}

/*
 * dard-switchd's count over the real table, more entries than one batch:
 * 700 fresh on port 11, 300 stale on port 12 (counted nowhere, kept) and
 * 200 long gone on port 12 (forgotten).
 */
static void test_count_batches(void **state)
{
	struct sw_port port[2] = {{.num = 1, .ifindex = 11},
				  {.num = 2, .ifindex = 12}};
	int fd = bpf_map__fd(skel->maps.dard_sw_flows);
	uint64_t now = 1000ULL * 1000000000, window = 1000000000;
	struct dard_sw_key k = {.flow.proto = IPPROTO_UDP};
	struct dard_sw_flow seen = {0};
	unsigned i;

	(void)state;
	for (i = 0; i < 1200; i++) {
		k.ifindex = i < 700 ? 11 : 12;
		k.flow.sport = htons(i);
		seen.seen_ns = i < 700	  ? now
			       : i < 1000 ? now - 3 * window
					  : now - 9 * window;
		seen.window = seen.seen_ns / window;
		assert_int_equal(bpf_map_update_elem(fd, &k, &seen, BPF_ANY),
				 0);
	}
	assert_int_equal(sw_count_map(fd, port, 2, now, window), 0);
	assert_int_equal(port[0].elephants, 700);
	assert_int_equal(port[1].elephants, 0);
	/* The long gone are deleted, the rest kept. */
	k.ifindex = 12;
	k.flow.sport = htons(1100);
	assert_int_equal(bpf_map_lookup_elem(fd, &k, &seen), -ENOENT);
	k.flow.sport = htons(800);
	assert_int_equal(bpf_map_lookup_elem(fd, &k, &seen), 0);
	/* Counting again starts from zero. */
	assert_int_equal(sw_count_map(fd, port, 2, now, window), 0);
	assert_int_equal(port[0].elephants, 700);
	/* A failed read is reported, never taken for a count. */
	assert_true(sw_count_map(-1, port, 2, now, window) < 0);
}

/*
 * A row: what leaves the port in one window, under dard-switchd's
 * --min-share, and what it counts. A transfer is packets of 1,462-byte
 * frames of one flow, a trickle one 72-byte frame of its own flow.
 */
struct count_row {
	const char *name;
	double share;
	uint8_t tos, outer; /* the outer header's */
	unsigned transfers, packets, trickles;
	unsigned want_entries, want;
};

static const struct count_row count_rows[] = {
	{"300 forged trickles", 1.0 / 64, 8 << 2, IPPROTO_IPIP, 0, 0, 300, 300,
	 0},
	{"300 forged trickles, paper", 0, 8 << 2, IPPROTO_IPIP, 0, 0, 300, 300,
	 300},
	/* 28 frames: 40,936 bytes, twice the threshold and more. */
	{"a transfer", 1.0 / 64, 8 << 2, IPPROTO_IPIP, 1, 28, 0, 1, 1},
	{"a transfer, paper", 0, 8 << 2, IPPROTO_IPIP, 1, 28, 0, 1, 1},
	{"3 transfers among 100 trickles", 1.0 / 64, 8 << 2, IPPROTO_IPIP, 3,
	 28, 100, 103, 3},
	{"3 transfers among 100 trickles, paper", 0, 8 << 2, IPPROTO_IPIP, 3,
	 28, 100, 103, 103},
	/* 13 frames: 19,006 bytes, just under 19,532. */
	{"10 flows just under", 1.0 / 64, 8 << 2, IPPROTO_IPIP, 10, 13, 0, 10,
	 0},
	{"10 flows just under, paper", 0, 8 << 2, IPPROTO_IPIP, 10, 13, 0, 10,
	 10},
	{"an unmarked transfer", 0, 0, IPPROTO_IPIP, 1, 28, 10, 0, 0},
	{"a marked transfer, not IP-in-IP", 0, 8 << 2, IPPROTO_UDP, 1, 28, 10,
	 0, 0},
};

static void count_row(const struct count_row *r)
{
	struct dard_switch *sk = load(WINDOW, r->share);
	struct sw_port port = {.num = 1, .ifindex = LO, .mbps = MBPS};
	uint8_t buf[PKT_MAX];
	unsigned i, j;
	size_t len;

	if (!sk)
		fail_msg("%s: the program did not load", r->name);
	port.min_bytes = sw_min_bytes(MBPS, r->share, WINDOW);
	for (i = 0; i < r->transfers; i++) {
		len = packet_of(buf, r->tos, r->outer, 100 + i, 1400);
		assert_int_equal(len, 1462);
		for (j = 0; j < r->packets; j++)
			run_on(sk, buf, len);
	}
	for (i = 0; i < r->trickles; i++)
		run_on(sk, buf, packet(buf, r->tos, r->outer, 5000 + i));
	if (entries_of(sk) != r->want_entries)
		fail_msg("%s: %u entries, want %u", r->name, entries_of(sk),
			 r->want_entries);
	assert_int_equal(sw_count_map(bpf_map__fd(sk->maps.dard_sw_flows),
				      &port, 1, coarse_now(), WINDOW),
			 0);
	if (port.elephants != r->want)
		fail_msg("%s: %u elephants, want %u", r->name, port.elephants,
			 r->want);
	dard_switch__destroy(sk);
}

static void test_count_rows(void **state)
{
	unsigned i;

	(void)state;
	assert_int_equal(sw_min_bytes(MBPS, 1.0 / 64, WINDOW), MIN_BYTES);
	for (i = 0; i < sizeof(count_rows) / sizeof(count_rows[0]); i++)
		count_row(&count_rows[i]);
}

/* Polls the clock, within a bound, until window w has begun. */
static void reach_window(uint64_t window_ns, uint64_t w)
{
	uint64_t give_up = coarse_now() + (w + 2) * window_ns;

	while (coarse_now() / window_ns < w)
		if (coarse_now() > give_up)
			fail_msg("the clock did not reach window %llu",
				 (unsigned long long)w);
}

/*
 * A flow's windows: its bytes stop growing once past the threshold, the
 * next window keeps the last one's bytes as prev (0 after a window with
 * nothing), and a window that ended under the threshold is counted
 * light. 200 ms windows on a 1 Mbit/s port, a share of 1/256: 98
 * bytes; a frame is 72.
 */
static void test_windows(void **state)
{
	const uint64_t window = 200000000;
	struct dard_switch *sk = load(window, 1.0 / 256);
	struct dard_sw_key k = {.ifindex = LO,
				.flow = {.saddr = A("172.16.0.1"),
					 .daddr = A("172.16.0.5"),
					 .sport = htons(7000),
					 .dport = htons(9),
					 .proto = IPPROTO_UDP}};
	struct dard_sw_flow f;
	uint8_t buf[PKT_MAX];
	uint64_t light, was;
	size_t len;
	int fd;

	(void)state;
	assert_non_null(sk);
	fd = bpf_map__fd(sk->maps.dard_sw_flows);
	len = packet(buf, 8 << 2, IPPROTO_IPIP, 7000);
	assert_int_equal(len, 72);
	assert_int_equal(sw_min_bytes(MBPS, 1.0 / 256, window), 98);
	/* Past the threshold, a flow's bytes are left alone. */
	run_on(sk, buf, len);
	assert_int_equal(bpf_map_lookup_elem(fd, &k, &f), 0);
	was = f.window;
	/* Polled to the window's start: the four land in it. */
	reach_window(window, was + 1);
	run_on(sk, buf, len);
	run_on(sk, buf, len);
	run_on(sk, buf, len);
	run_on(sk, buf, len);
	assert_int_equal(bpf_map_lookup_elem(fd, &k, &f), 0);
	assert_int_equal(f.bytes, 144);
	/* The first window ended with 72: light, kept as prev. */
	assert_int_equal(stat_of(sk, DARD_SW_STAT_LIGHT), 1);
	assert_int_equal(f.prev, f.window == was + 1 ? 72 : 0);
	/* A window of 144 ends: not light. */
	light = stat_of(sk, DARD_SW_STAT_LIGHT);
	was = f.window;
	reach_window(window, was + 1);
	run_on(sk, buf, len);
	assert_int_equal(bpf_map_lookup_elem(fd, &k, &f), 0);
	assert_int_equal(stat_of(sk, DARD_SW_STAT_LIGHT), light);
	assert_int_equal(f.bytes, 72);
	/* The next window's, unless the test was held up past it. */
	assert_int_equal(f.prev, f.window == was + 1 ? 144 : 0);
	/* A window with nothing: prev is 0, and the 72 was light. */
	reach_window(window, f.window + 2);
	run_on(sk, buf, len);
	assert_int_equal(bpf_map_lookup_elem(fd, &k, &f), 0);
	assert_int_equal(f.prev, 0);
	assert_int_equal(f.bytes, 72);
	assert_int_equal(stat_of(sk, DARD_SW_STAT_LIGHT), light + 1);
	dard_switch__destroy(sk);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_marked_flows),
		cmocka_unit_test(test_ignores_the_rest),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_count_batches),
		cmocka_unit_test(test_count_rows),
		cmocka_unit_test(test_windows),
		/* Last: test_stats counts what the tests before it did. */
		cmocka_unit_test(test_counts_4in6),
	};

	bpf_test_need_root("test_switch");
	return cmocka_run_group_tests(tests, setup, teardown);
}
