// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-bench-switch: the switches' elephant counter (bpf/dard_switch.bpf.c)
 * under BPF_PROG_TEST_RUN, and what dard-switchd counts of forged marks.
 *
 * The first table is the kernel's own ns per packet (opts.duration, the
 * median of ROUNDS runs of REPEAT iterations) of one 1514-byte frame of
 * one flow: unmarked, which the program leaves at its first test; and
 * marked under the three ways a known flow's entry is touched: bytes
 * never added (--min-share 0), added at every packet (under the cap),
 * and no longer added (past it). One CPU runs it, so it shows the work,
 * not the sharing of a line between CPUs that the cap saves.
 *
 * The second is issue 30's forgery on one 1 Gbit/s port with a 1 s
 * window: FORGED flows of one small marked packet each, then the
 * agent's count (sw_count_map) under each --min-share, and the rate a
 * forger must send for all of them to count.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/dard.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "counter.h"
#include "dard_switch.skel.h"

enum { REPEAT = 1000000, ROUNDS = 7, FRAME = 1514, FORGED = 300, LO = 1 };
enum { PORT_MBPS = 1000 };
#define WINDOW_NS 1000000000ULL

/* A frame of len bytes: IP-in-IP (or UDP) with tos, inner UDP sport to 9. */
static size_t frame(uint8_t *buf, size_t len, uint8_t tos, uint8_t proto,
		    uint16_t sport)
{
	struct iphdr *o = (void *)(buf + ETH_HLEN), *in = o + 1;
	uint8_t *udp = (uint8_t *)(in + 1);

	memset(buf, 0, len);
	((struct ethhdr *)buf)->h_proto = htons(ETH_P_IP);
	*o = (struct iphdr){.version = 4,
			    .ihl = 5,
			    .tos = tos,
			    .tot_len = htons(len - ETH_HLEN),
			    .ttl = 64,
			    .protocol = proto};
	o->saddr = inet_addr("10.4.16.66");
	o->daddr = inet_addr("10.4.32.66");
	*in = (struct iphdr){.version = 4,
			     .ihl = 5,
			     .tot_len = htons(len - ETH_HLEN - 20),
			     .ttl = 64,
			     .protocol = IPPROTO_UDP};
	in->saddr = inet_addr("172.16.0.1");
	in->daddr = inet_addr("172.16.0.5");
	udp[0] = sport >> 8;
	udp[1] = sport & 0xff;
	udp[3] = 9;
	return len;
}

static struct dard_switch *load(uint64_t bytes_cap)
{
	struct dard_switch *s = dard_switch__open();

	if (!s || (s->rodata->window_ns = WINDOW_NS,
		   s->rodata->bytes_cap = bytes_cap, dard_switch__load(s))) {
		fprintf(stderr, "dard-bench-switch: Unable to load the BPF "
				"object (root?)\n");
		exit(1);
	}
	return s;
}

static double run(struct dard_switch *s, const uint8_t *buf, size_t len,
		  uint32_t repeat)
{
	static uint8_t out[FRAME + 64];
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = buf, .data_size_in = len,
		    .data_out = out, .data_size_out = sizeof(out),
		    .repeat = repeat);

	if (bpf_prog_test_run_opts(bpf_program__fd(s->progs.dard_sw_egress),
				   &o) ||
	    o.retval != TC_ACT_OK) {
		perror("BPF_PROG_TEST_RUN");
		exit(1);
	}
	return o.duration;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median over ROUNDS of the kernel's ns per packet. */
static double per_packet(uint64_t cap, uint8_t tos, uint64_t *bytes)
{
	struct dard_switch *s = load(cap);
	static uint8_t buf[FRAME];
	struct dard_sw_key k = {.ifindex = LO};
	struct dard_sw_flow f = {0};
	double t[ROUNDS];
	int i;

	frame(buf, FRAME, tos, IPPROTO_IPIP, 1000);
	run(s, buf, FRAME, 1); /* the entry exists before the timing */
	for (i = 0; i < ROUNDS; i++)
		t[i] = run(s, buf, FRAME, REPEAT);
	k.flow = (struct dard_flow_key){.saddr = inet_addr("172.16.0.1"),
					.daddr = inet_addr("172.16.0.5"),
					.sport = htons(1000),
					.dport = htons(9),
					.proto = IPPROTO_UDP};
	*bytes = bpf_map_lookup_elem(bpf_map__fd(s->maps.dard_sw_flows), &k, &f)
			 ? 0
			 : f.bytes;
	dard_switch__destroy(s);
	qsort(t, ROUNDS, sizeof(t[0]), cmp);
	return t[ROUNDS / 2];
}

static uint64_t coarse_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* FORGED flows of one 72-byte marked frame each, counted under share. */
static void forged(double share)
{
	struct sw_port port = {.num = 1, .ifindex = LO, .mbps = PORT_MBPS};
	static uint8_t buf[FRAME];
	struct dard_switch *s;
	unsigned i;
	int ret;

	port.min_bytes = sw_min_bytes(PORT_MBPS, share, WINDOW_NS);
	s = load(port.min_bytes);
	for (i = 0; i < FORGED; i++)
		run(s, buf, frame(buf, 72, 8 << 2, IPPROTO_IPIP, 2000 + i), 1);
	ret = sw_count_map(bpf_map__fd(s->maps.dard_sw_flows), &port, 1,
			   coarse_now(), WINDOW_NS);
	if (ret) {
		fprintf(stderr, "dard-bench-switch: count: %s\n",
			strerror(-ret));
		exit(1);
	}
	printf("| %g | %llu | %u | %u | %.1f |\n", share,
	       (unsigned long long)port.min_bytes, FORGED, port.elephants,
	       FORGED * (double)port.min_bytes * 8 / 1e6 / (WINDOW_NS / 1e9));
	dard_switch__destroy(s);
}

int main(void)
{
	uint64_t b0, b1, b2, b3;
	double unmarked, paper, under, past;

	if (geteuid()) {
		fprintf(stderr, "dard-bench-switch: needs root (BPF)\n");
		return 1;
	}
	libbpf_set_print(NULL);
	unmarked = per_packet(1, 0, &b0);
	paper = per_packet(0, 8 << 2, &b1);
	under = per_packet(UINT64_MAX, 8 << 2, &b2);
	past = per_packet(1, 8 << 2, &b3);
	printf("Command: make bench (build/bin/dard-bench-switch): repeat = "
	       "%d, median of %d, one %d-byte frame of one flow\n\n",
	       REPEAT, ROUNDS, FRAME);
	printf("| case | ns per packet | over unmarked | the flow's bytes "
	       "in its window |\n");
	printf("|---|---|---|---|\n");
	printf("| unmarked (DSCP 0) | %.1f | 0 | %llu |\n", unmarked,
	       (unsigned long long)b0);
	printf("| marked, --min-share 0 (nothing added) | %.1f | %.1f | %llu "
	       "|\n",
	       paper, paper - unmarked, (unsigned long long)b1);
	printf("| marked, under the cap (added each packet) | %.1f | %.1f | "
	       "%llu |\n",
	       under, under - unmarked, (unsigned long long)b2);
	printf("| marked, past the cap (left alone) | %.1f | %.1f | %llu |\n",
	       past, past - unmarked, (unsigned long long)b3);
	printf("\nForged marks on one %u Mbit/s port, window 1 s: %u flows "
	       "of one 72-byte marked frame each, then dard-switchd's "
	       "count\n\n",
	       PORT_MBPS, FORGED);
	printf("| --min-share | bytes a flow needs | forged flows | counted "
	       "| Mbit/s to make all count |\n");
	printf("|---|---|---|---|---|\n");
	forged(0);
	forged(1.0 / 256);
	forged(1.0 / DARD_SW_SHARE_INV);
	return 0;
}
