// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-bench-dp: nanoseconds per packet of the BPF datapath under
 * BPF_PROG_TEST_RUN, as added time over a no-op TC program.
 *
 * With `repeat', the kernel runs a program again and again on one buffer,
 * so an encapsulating program would see its own output from the second
 * run on (an IP-in-IP packet to an alias, which it passes untouched) and
 * the benchmark would time the wrong path. So every run here is its own
 * BPF_PROG_TEST_RUN with repeat = 1 on a fresh copy of its packet, and the
 * kernel's own measurement (opts.duration, taken around the program alone,
 * not around the syscall or the copies) is averaged over RUNS runs of
 * full-size packets (1480 bytes inside, as the ID route's MTU makes them).
 * The
 * no-op program is measured the same way, and its time (the timer's cost
 * among it) is subtracted. Each run also uses the next flow of the table,
 * so lookups touch the whole table, not one hot entry.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dard_tc.skel.h"
#include "../daemon/dp.h"

/* Full size on a 1500-byte fabric: 1480 inside, 1500 once wrapped. */
enum { RUNS = 1000000, PKT = 1514, INNER = 1480 };

static uint32_t ip4(const char *s)
{
	struct in_addr a;

	inet_pton(AF_INET, s, &a);
	return a.s_addr;
}

/* A full-size UDP packet from src:sport to dst, optionally wrapped. */
static size_t packet(uint8_t *buf, uint32_t src, uint32_t dst, uint16_t sport,
		     int wrap)
{
	struct ethhdr *eth = (void *)buf;
	struct iphdr *ip = (void *)(buf + ETH_HLEN + (wrap ? 20 : 0));
	size_t ilen = INNER;
	uint8_t *udp = (uint8_t *)(ip + 1);

	memset(buf, 0, PKT);
	eth->h_proto = htons(ETH_P_IP);
	ip->version = 4;
	ip->ihl = 5;
	ip->tot_len = htons(ilen);
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->saddr = src;
	ip->daddr = dst;
	udp[0] = sport >> 8;
	udp[1] = sport;
	udp[3] = 9;
	if (wrap) {
		struct iphdr *o = (void *)(buf + ETH_HLEN);

		o->version = 4;
		o->ihl = 5;
		o->tot_len = htons(ilen + 20);
		o->ttl = 64;
		o->protocol = IPPROTO_IPIP;
		o->saddr = ip4("10.4.32.66");
		o->daddr = ip4("10.4.16.66");
	}
	return ETH_HLEN + (wrap ? 20 : 0) + ilen;
}

/* Mean of the kernel's per-run duration over RUNS fresh runs. */
static double time_prog(int fd, uint32_t src, uint32_t dst, int wrap,
			uint32_t nflows, uint32_t first)
{
	static uint8_t in[PKT], out[PKT + 64];
	unsigned long long total = 0;
	uint32_t i;

	for (i = 0; i < RUNS; i++) {
		uint32_t f = first + (nflows ? i % nflows : i);
		size_t len = packet(in, src, dst, f & 0xffff, wrap);
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = in,
			    .data_size_in = len, .data_out = out,
			    .data_size_out = sizeof(out), .repeat = 1);

		/* Flows beyond 65536 differ in the source too. */
		((struct iphdr *)(in + ETH_HLEN + (wrap ? 20 : 0)))->saddr =
			htonl(ntohl(src) + (f >> 16));
		if (bpf_prog_test_run_opts(fd, &o)) {
			perror("BPF_PROG_TEST_RUN");
			exit(1);
		}
		total += o.duration;
	}
	return (double)total / RUNS;
}

static int noop_prog(void)
{
	struct bpf_insn insns[] = {
		{.code = BPF_ALU64 | BPF_MOV | BPF_K,
		 .dst_reg = BPF_REG_0,
		 .imm = TC_ACT_OK},
		{.code = BPF_JMP | BPF_EXIT},
	};

	return bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "noop", "GPL", insns, 2,
			     NULL);
}

/* Fills the flow table with n flows from my ID, elephants or not. */
static void fill(struct dard_tc *s, uint32_t n, int elephant)
{
	int fd = bpf_map__fd(s->maps.dard_flows);
	struct dard_flow f = {
		.path = {ip4("10.4.16.66"), ip4("10.4.32.66")},
		.flags = elephant ? DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED
				  : 0,
		.bytes = 1 << 20,
	};
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct dard_flow_key k = {
			.saddr = htonl(ntohl(ip4("172.16.0.1")) + (i >> 16)),
			.daddr = ip4("172.16.0.5"),
			.sport = htons(i & 0xffff),
			.dport = htons(9),
			.proto = IPPROTO_UDP,
		};

		bpf_map_update_elem(fd, &k, &f, BPF_ANY);
	}
}

static struct dard_tc *load(uint32_t nflows, int elephant)
{
	struct dard_tc *s = dard_tc__open();
	struct dard_alias_pair p[4];
	struct dard_dp *dp;
	int i;

	if (!s)
		exit(1);
	s->rodata->my_id = ip4("172.16.0.1");
	s->rodata->elephant_age_ns = elephant ? 0 : ~0ULL;
	s->rodata->elephant_dscp = 8;
	bpf_map__set_max_entries(s->maps.dard_flows,
				 nflows + nflows / 4 + 1024);
	if (dard_tc__load(s) || dard_dp_bpf_adopt(&dp, s->obj)) {
		fprintf(stderr, "Failed to load BPF skeleton\n");
		exit(1);
	}
	for (i = 0; i < 4; i++) {
		p[i].saddr = htonl(ntohl(ip4("10.4.16.66")) + (i << 18));
		p[i].daddr = htonl(ntohl(ip4("10.4.32.66")) + (i << 18));
	}
	dard_dp_bpf.set_dest(dp, ntohl(ip4("172.16.0.5")), p, 4);
	dard_dp_bpf.add_alias(dp, ntohl(ip4("10.4.16.66")));
	dard_dp_bpf.close(dp);
	fill(s, nflows, elephant);
	return s;
}

int main(void)
{
	static const uint32_t sizes[] = {1000, 1000000};
	uint32_t me = ip4("172.16.0.1"), peer = ip4("172.16.0.5");
	int noop, k;
	double base;

	if (geteuid()) {
		printf("dard-bench-dp: SKIP: BPF_PROG_TEST_RUN needs root\n");
		return 0;
	}
	dard_dp_verbose(0);
	noop = noop_prog();
	if (noop < 0) {
		perror("loading the no-op program");
		return 1;
	}
	base = time_prog(noop, me, peer, 0, 1000, 0);
	printf("\nCommand: make bench (build/bin/dard-bench-dp), %d runs per row\n\n",
	       RUNS);
	printf("| case | flows in table | ns per packet | added ns over no-op (%.1f ns) |\n",
	       base);
	printf("|---|--:|--:|--:|\n");
	for (k = 0; k < 2; k++) {
		uint32_t n = sizes[k];
		struct dard_tc *s = load(n, 0);
		int eg = bpf_program__fd(s->progs.dard_tc_egress);
		int in = bpf_program__fd(s->progs.dard_tc_ingress);
		double t;

		/* Known: every run hits one of the n flows. */
		t = time_prog(eg, me, peer, 0, n, 0);
		printf("| encap, known flow | %u | %.1f | %.1f |\n", n, t,
		       t - base);
		/* New: flows the table has never seen (LRU evicts the old). */
		t = time_prog(eg, me, peer, 0, 0, n + 1);
		printf("| encap, new flow | %u | %.1f | %.1f |\n", n, t,
		       t - base);
		t = time_prog(in, peer, me, 1, n, 0);
		printf("| decap | %u | %.1f | %.1f |\n", n, t, t - base);
		dard_tc__destroy(s);
		s = load(n, 1);
		eg = bpf_program__fd(s->progs.dard_tc_egress);
		t = time_prog(eg, me, peer, 0, n, 0);
		printf("| encap, elephant | %u | %.1f | %.1f |\n", n, t,
		       t - base);
		dard_tc__destroy(s);
	}
	close(noop);
	return 0;
}
