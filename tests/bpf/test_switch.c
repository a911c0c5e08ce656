// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The switches' elephant counter under BPF_PROG_TEST_RUN: marked IP-in-IP
 * flows are noted by port and inner 5-tuple, nothing else is, and no
 * packet is ever changed.
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
#include <unistd.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/dard.h>

#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_test.h"
#include "counter.h"
#include "dard_switch.skel.h"

enum { LO = 1 };

static struct dard_switch *skel;

/* An elephant's mark in tos, from sport to port 9, behind outer_proto. */
static size_t packet(uint8_t *buf, uint8_t tos, uint8_t outer_proto,
		     uint16_t sport)
{
	const struct pkt_outer outer = {.saddr = A("10.4.16.66"),
					.daddr = A("10.4.32.66"),
					.tos = tos,
					.proto = outer_proto};
	const struct pkt_opts o = {.saddr = A("172.16.0.1"),
				   .daddr = A("172.16.0.5"),
				   .sport = sport,
				   .dport = 9,
				   .payload = 10,
				   .outer = &outer};

	return build(buf, &o);
}

/* Runs the program on buf; the packet must come out unchanged. */
static void run(const uint8_t *buf, size_t len)
{
	uint8_t out[PKT_MAX];
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = buf, .data_size_in = len,
		    .data_out = out, .data_size_out = sizeof(out), .repeat = 1);

	assert_int_equal(
		bpf_prog_test_run_opts(
			bpf_program__fd(skel->progs.dard_sw_egress), &o),
		0);
	assert_int_equal(o.retval, TC_ACT_OK);
	assert_int_equal(o.data_size_out, len);
	assert_memory_equal(out, buf, len);
}

static unsigned entries(void)
{
	int fd = bpf_map__fd(skel->maps.dard_sw_flows);
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

static int setup(void **state)
{
	(void)state;
	skel = dard_switch__open();
	if (!skel)
		return -1;
	skel->rodata->elephant_dscp = 8;
	return dard_switch__load(skel) ? -1 : 0;
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
	uint8_t buf[PKT_MAX];
	uint64_t seen;
	size_t len;

	(void)state;
	/* Two packets of one elephant, one of another: two entries. */
	len = packet(buf, 8 << 2, IPPROTO_IPIP, 1000);
	run(buf, len);
	run(buf, len);
	len = packet(buf, 8 << 2 | 1, IPPROTO_IPIP, 1001); /* ECN bits apart */
	run(buf, len);
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
	assert_true(seen > 0);
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

static uint64_t sw_stat(unsigned which)
{
	int fd = bpf_map__fd(skel->maps.dard_sw_stats);
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
	uint64_t noted = sw_stat(DARD_SW_STAT_NOTED);
	uint64_t fresh = sw_stat(DARD_SW_STAT_NEW_FLOW);
	uint64_t cut = sw_stat(DARD_SW_STAT_TRUNCATED);
	uint8_t buf[PKT_MAX];
	size_t len;

	(void)state;
	len = packet(buf, 8 << 2, IPPROTO_IPIP, 3000);
	run(buf, len);
	run(buf, len);
	run(buf, ETH_HLEN + 20 + 20 + 2);
	run(buf, packet(buf, 0, IPPROTO_IPIP, 3001)); /* a mouse: nothing */
	assert_int_equal(sw_stat(DARD_SW_STAT_NOTED), noted + 2);
	assert_int_equal(sw_stat(DARD_SW_STAT_NEW_FLOW), fresh + 1);
	assert_int_equal(sw_stat(DARD_SW_STAT_TRUNCATED), cut + 1);
	assert_int_equal(sw_stat(DARD_SW_STAT_FLOW_FULL), 0);
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
	uint64_t now = 1000ULL * 1000000000, window = 1000000000, seen;
	struct dard_sw_key k = {.flow.proto = IPPROTO_UDP};
	unsigned i;

	(void)state;
	for (i = 0; i < 1200; i++) {
		k.ifindex = i < 700 ? 11 : 12;
		k.flow.sport = htons(i);
		seen = i < 700	  ? now
		       : i < 1000 ? now - 3 * window
				  : now - 9 * window;
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_marked_flows),
		cmocka_unit_test(test_ignores_the_rest),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_count_batches),
	};

	bpf_test_need_root("test_switch");
	return cmocka_run_group_tests(tests, setup, teardown);
}
