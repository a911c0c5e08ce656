// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-bench-dp: nanoseconds per packet of the BPF datapath under
 * BPF_PROG_TEST_RUN with repeat = 10^6, as added time over a no-op.
 *
 * The loops are in bench_dp.bpf.c, which says how every iteration does
 * the work it claims although the kernel hands it the same buffer each
 * time. Here each loop runs ROUNDS times and the median of the kernel's
 * own per-iteration time (opts.duration) is kept; then
 *
 *   S (strip 20 bytes)   = bench_strip - bench_noop's share (see below)
 *   P (push 20 bytes)    = bench_pair - bench_noop - S
 *   encap                = bench_egress - bench_noop - S
 *   decap                = bench_ingress - bench_noop - P
 *
 * so that every row is the datapath's program alone over the no-op. The
 * packets are full size for the fabric: 1480 bytes inside, as the ID
 * route's MTU makes them, 1500 once wrapped. Each iteration is the next
 * flow of the table, so lookups touch the whole table.
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

#include "bench_dp.skel.h"
#include "bpflog.h"
#include "dp.h"

enum { REPEAT = 1000000, ROUNDS = 7, PKT = 1514, INNER = 1480 };

static const char *me = "172.16.0.1", *peer = "172.16.0.5";
static const char *alias_me = "10.4.16.66", *alias_peer = "10.4.32.66";

static uint32_t ip4(const char *s)
{
	struct in_addr a;

	inet_pton(AF_INET, s, &a);
	return a.s_addr;
}

static uint16_t csum(const void *p, size_t n)
{
	const uint16_t *w = p;
	uint32_t sum = 0;

	for (; n > 1; n -= 2)
		sum += *w++;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return ~sum;
}

static void outer(struct iphdr *o)
{
	memset(o, 0, sizeof(*o));
	o->version = 4;
	o->ihl = 5;
	o->tot_len = htons(INNER + sizeof(*o));
	o->ttl = 64;
	o->protocol = IPPROTO_IPIP;
	o->saddr = ip4(alias_peer);
	o->daddr = ip4(alias_me);
	o->check = csum(o, sizeof(*o));
}

/* A full-size UDP packet from src to dst, wrapped for the ingress loop. */
static size_t packet(uint8_t *buf, const char *src, const char *dst, int wrap)
{
	struct iphdr *ip = (void *)(buf + ETH_HLEN + (wrap ? 20 : 0));
	uint8_t *udp = (uint8_t *)(ip + 1);

	memset(buf, 0, PKT);
	((struct ethhdr *)buf)->h_proto = htons(ETH_P_IP);
	ip->version = 4;
	ip->ihl = 5;
	ip->tot_len = htons(INNER);
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->saddr = ip4(src);
	ip->daddr = ip4(dst);
	udp[3] = 9;
	ip->check = csum(ip, sizeof(*ip));
	if (wrap)
		outer((void *)(buf + ETH_HLEN));
	return ETH_HLEN + (wrap ? 20 : 0) + INNER;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median over ROUNDS of the kernel's ns per iteration. */
static double time_prog(struct bpf_program *prog, int wrap)
{
	static uint8_t in[PKT], out[PKT + 64];
	double t[ROUNDS];
	int r;

	for (r = 0; r < ROUNDS; r++) {
		size_t len =
			packet(in, wrap ? peer : me, wrap ? me : peer, wrap);
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = in,
			    .data_size_in = len, .data_out = out,
			    .data_size_out = sizeof(out), .repeat = REPEAT);

		if (bpf_prog_test_run_opts(bpf_program__fd(prog), &o)) {
			perror("BPF_PROG_TEST_RUN");
			exit(1);
		}
		if (o.retval != TC_ACT_OK) {
			fprintf(stderr, "%s: returned %u, not TC_ACT_OK\n",
				bpf_program__name(prog), o.retval);
			exit(1);
		}
		t[r] = o.duration;
	}
	qsort(t, ROUNDS, sizeof(t[0]), cmp);
	return t[ROUNDS / 2];
}

/* Fills the flow table the way set_flow() numbers flows. */
static void fill(struct bench_dp *s, uint32_t n, int elephant)
{
	int fd = bpf_map__fd(s->maps.dard_flows);
	struct dard_flow f = {
		.path = {ip4(alias_me), ip4(alias_peer)},
		.flags = elephant ? DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED
				  : 0,
		.bytes = 1 << 20,
	};
	uint32_t i;

	for (i = 0; i < n; i++) {
		struct dard_flow_key k = {
			.saddr = htonl(ntohl(ip4(me)) + (i >> 16)),
			.daddr = ip4(peer),
			.sport = htons(i & 0xffff),
			.dport = htons(9),
			.proto = IPPROTO_UDP,
		};

		if (bpf_map_update_elem(fd, &k, &f, BPF_ANY)) {
			perror("filling dard_flows");
			exit(1);
		}
	}
}

enum bench_case { KNOWN, NEW, ELEPHANT };

/* The loops over a table of n flows, set up for one case. */
static struct bench_dp *load(uint32_t n, enum bench_case c)
{
	struct bench_dp *s = bench_dp__open();
	struct dard_alias_pair p[4];
	struct dard_dp *dp;
	int i;

	if (!s)
		exit(1);
	s->rodata->my_id = ip4(me);
	s->rodata->elephant_age_ns = c == ELEPHANT ? 0 : ~0ULL;
	s->rodata->elephant_dscp = 8;
	/* New flows: numbers the table has never seen, each once. */
	s->rodata->nflows = c == NEW ? 0 : n;
	s->rodata->first_flow = c == NEW ? n : 0;
	bpf_map__set_max_entries(s->maps.dard_flows, n + n / 4 + 1024);
	if (bench_dp__load(s) || dard_dp_bpf_adopt(&dp, s->obj)) {
		fprintf(stderr, "Failed to load the benchmark's BPF object\n");
		exit(1);
	}
	for (i = 0; i < 4; i++) {
		p[i].saddr = htonl(ntohl(ip4(alias_me)) + (i << 18));
		p[i].daddr = htonl(ntohl(ip4(alias_peer)) + (i << 18));
	}
	if (dard_dp_bpf.set_dest(dp, ntohl(ip4(peer)), p, 4) ||
	    dard_dp_bpf.add_alias(dp, ntohl(ip4(alias_me)))) {
		fprintf(stderr, "Failed to fill the benchmark's maps\n");
		exit(1);
	}
	dard_dp_bpf.close(dp);
	outer(&s->bss->outer_hdr);
	fill(s, n, c == ELEPHANT);
	return s;
}

/* Every iteration of every loop must have taken the path it claims. */
static void check_stats(struct bench_dp *s, unsigned stat, uint64_t want)
{
	struct dard_dp *dp;
	uint64_t v[__DARD_STAT_MAX];

	if (dard_dp_bpf_adopt(&dp, s->obj) || dard_dp_bpf.stats(dp, v)) {
		fprintf(stderr, "Failed to read dard_stats\n");
		exit(1);
	}
	dard_dp_bpf.close(dp);
	if (v[stat] < want) {
		fprintf(stderr,
			"%s: %llu, not %llu: the loop timed another path\n",
			dard_stat_name(stat), (unsigned long long)v[stat],
			(unsigned long long)want);
		exit(1);
	}
}

int main(void)
{
	static const uint32_t sizes[] = {1000, 1000000};
	static const char *const names[] = {
		"encap, known flow", "encap, new flow", "encap, elephant"};
	struct bench_dp *s;
	double noop, pair, strip, push, b, t;
	int k, c;

	if (geteuid()) {
		printf("dard-bench-dp: SKIP: BPF_PROG_TEST_RUN needs root\n");
		return 0;
	}
	dard_bpf_log(0);
	s = load(1000, KNOWN);
	noop = time_prog(s->progs.bench_noop, 0);
	pair = time_prog(s->progs.bench_pair, 0);
	/*
	 * The strip loop pushes once per batch of b: strip - noop = S + P / b
	 * and pair - noop = P + S, so S = (strip - noop - (pair - noop) / b)
	 * / (1 - 1 / b).
	 */
	strip = time_prog(s->progs.bench_strip, 0);
	b = s->rodata->strip_batch;
	strip = (strip - noop - (pair - noop) / b) / (1 - 1 / b);
	push = pair - noop - strip;
	bench_dp__destroy(s);

	printf("\nCommand: make bench (build/bin/dard-bench-dp): repeat = %d, median of %d\n\n",
	       REPEAT, ROUNDS);
	printf("| case | flows in table | ns per packet | added ns over no-op (%.1f ns) |\n",
	       noop);
	printf("|---|--:|--:|--:|\n");
	printf("| push 20 bytes (bpf_skb_adjust_room) | - | %.1f | %.1f |\n",
	       noop + push, push);
	printf("| strip 20 bytes (bpf_skb_adjust_room) | - | %.1f | %.1f |\n",
	       noop + strip, strip);
	for (k = 0; k < 2; k++) {
		uint32_t n = sizes[k];

		for (c = KNOWN; c <= ELEPHANT; c++) {
			s = load(n, c);
			t = time_prog(s->progs.bench_egress, 0) - strip;
			check_stats(s, DARD_STAT_ENCAP,
				    (uint64_t)REPEAT * ROUNDS);
			printf("| %s | %u | %.1f | %.1f |\n", names[c], n, t,
			       t - noop);
			if (c == KNOWN) {
				t = time_prog(s->progs.bench_ingress, 1) - push;
				check_stats(s, DARD_STAT_DECAP,
					    (uint64_t)REPEAT * ROUNDS);
				printf("| decap | %u | %.1f | %.1f |\n", n, t,
				       t - noop);
			}
			bench_dp__destroy(s);
		}
	}
	return 0;
}
