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
 * route's MTU makes them, 1500 once wrapped. The 4in6 rows (an IPv6-only
 * fabric's outer header, bpf/encap6.h) are the same with 40 bytes:
 * S6, P6 from bench_strip6 and bench_pair6, on a load whose program has
 * fattree:4's IPv6 layout, 1440-byte packets inside. Each iteration is the next
 * flow of the table, so lookups touch the whole table.
 *
 * The path-liveness cases (liveness()) run each case alternated with its
 * reference on one table, setting dead bits through the datapath's own
 * set_dead between rounds, and report ratios of added time; weighted()
 * does the same for new flows placed by weight against evenly.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/pkt_cls.h>
#include <linux/dard.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "addr6.h"
#include "bench_dp.skel.h"
#include "bpflog.h"
#include "dp.h"
#include "gen.h"

enum { REPEAT = 1000000, ROUNDS = 7, PKT = 1514, INNER = 1480 };
/*
 * What a loop's packet carries outside: nothing, IPv4, IPv6 (4in6); and
 * nothing with 4in6's 1440 bytes inside, as its ID route's MTU makes them.
 */
enum { BARE, WRAP4, WRAP6, BARE6 };

/* fattree:4's IPv6-only plan, for the 4in6 loads; NULL before main. */
static struct dard_plan *plan6;

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

/* 4in6's outer header from the peer's alias to ours, in IPv6. */
static void outer6(struct ipv6hdr *o, unsigned inner)
{
	memset(o, 0, sizeof(*o));
	o->version = 6;
	o->payload_len = htons(inner);
	o->nexthdr = IPPROTO_IPIP;
	o->hop_limit = 64;
	dard_plan_v6(plan6, ntohl(ip4(alias_peer)), &o->saddr);
	dard_plan_v6(plan6, ntohl(ip4(alias_me)), &o->daddr);
}

/*
 * A full-size UDP packet from src to dst, wrapped (wrap) for the ingress
 * loops: 1480 bytes inside, 1440 under IPv6's longer header.
 */
static size_t packet(uint8_t *buf, const char *src, const char *dst, int wrap)
{
	size_t out = wrap == WRAP4 ? 20 : wrap == WRAP6 ? 40 : 0;
	unsigned inner = wrap >= WRAP6 ? INNER - 20 : INNER;
	struct iphdr *ip = (void *)(buf + ETH_HLEN + out);
	uint8_t *udp = (uint8_t *)(ip + 1);

	memset(buf, 0, PKT);
	((struct ethhdr *)buf)->h_proto =
		htons(wrap == WRAP6 ? ETH_P_IPV6 : ETH_P_IP);
	ip->version = 4;
	ip->ihl = 5;
	ip->tot_len = htons(inner);
	ip->ttl = 64;
	ip->protocol = IPPROTO_UDP;
	ip->saddr = ip4(src);
	ip->daddr = ip4(dst);
	udp[3] = 9;
	ip->check = csum(ip, sizeof(*ip));
	if (wrap == WRAP4)
		outer((void *)(buf + ETH_HLEN));
	if (wrap == WRAP6)
		outer6((void *)(buf + ETH_HLEN), inner);
	return ETH_HLEN + out + inner;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *t, int n)
{
	qsort(t, n, sizeof(t[0]), cmp);
	return t[n / 2];
}

/* One BPF_PROG_TEST_RUN of repeat iterations: the kernel's ns per one. */
static double run(struct bpf_program *prog, int wrap, uint32_t repeat)
{
	static uint8_t in[PKT], out[PKT + 64];
	int in_bound = wrap == WRAP4 || wrap == WRAP6;
	size_t len =
		packet(in, in_bound ? peer : me, in_bound ? me : peer, wrap);
	LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = in, .data_size_in = len,
		    .data_out = out, .data_size_out = sizeof(out),
		    .repeat = repeat);

	if (bpf_prog_test_run_opts(bpf_program__fd(prog), &o)) {
		perror("BPF_PROG_TEST_RUN");
		exit(1);
	}
	if (o.retval != TC_ACT_OK) {
		fprintf(stderr, "%s: returned %u, not TC_ACT_OK\n",
			bpf_program__name(prog), o.retval);
		exit(1);
	}
	return o.duration;
}

/* The median over ROUNDS of the kernel's ns per iteration. */
static double time_prog(struct bpf_program *prog, int wrap)
{
	double t[ROUNDS];
	int r;

	for (r = 0; r < ROUNDS; r++)
		t[r] = run(prog, wrap, REPEAT);
	return median(t, ROUNDS);
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

/*
 * The cases: the first three are the datapath's costs. LIVE_KNOWN and
 * LIVE_NEW are known and new flows to peer, with a second destination,
 * other, that no flow goes to; paired() then sets dead bits between
 * rounds as the liveness case wants.
 */
enum bench_case { KNOWN, NEW, ELEPHANT, LIVE_KNOWN, LIVE_NEW };

static const char *other = "172.16.0.9";

static struct dard_dp *adopt(struct bench_dp *s)
{
	struct dard_dp *dp;

	if (dard_dp_bpf_adopt(&dp, s->obj)) {
		fprintf(stderr, "Failed to adopt the benchmark's maps\n");
		exit(1);
	}
	return dp;
}

/* Marks id's paths dead as bits says, the way dardd does. */
static void set_dead(struct bench_dp *s, const char *id, uint64_t bits)
{
	uint64_t dead[DARD_PATHS_MAX / 64] = {bits};
	struct dard_dp *dp = adopt(s);
	int ret = dard_dp_bpf.set_dead(dp, ntohl(ip4(id)), dead);

	dard_dp_bpf.close(dp);
	if (ret) {
		fprintf(stderr, "set_dead %s: %s\n", id, strerror(-ret));
		exit(1);
	}
}

/* Four paths to id, all live. */
static void set_dest(struct dard_dp *dp, const char *id)
{
	struct dard_alias_pair p[4];
	int i;

	for (i = 0; i < 4; i++) {
		p[i].saddr = htonl(ntohl(ip4(alias_me)) + (i << 18));
		p[i].daddr = htonl(ntohl(ip4(alias_peer)) + (i << 18));
	}
	if (dard_dp_bpf.set_dest(dp, ntohl(ip4(id)), p, 4, NULL)) {
		fprintf(stderr, "Failed to fill the benchmark's maps\n");
		exit(1);
	}
}

/* The loops over a table of n flows, set up for one case; v6: 4in6. */
static struct bench_dp *load_as(uint32_t n, enum bench_case c, int v6)
{
	struct bench_dp *s = bench_dp__open();
	int fresh = c == NEW || c == LIVE_NEW;
	struct dard_dp *dp;

	if (!s)
		exit(1);
	if (v6)
		dard_plan_layout6((struct dard_layout6 *)&s->rodata->layout6,
				  plan6);
	s->rodata->my_id = ip4(me);
	s->rodata->elephant_age_ns = c == ELEPHANT ? 0 : ~0ULL;
	s->rodata->elephant_dscp = 8;
	/* New flows: numbers the table has never seen, each once. */
	s->rodata->nflows = fresh ? 0 : n;
	s->rodata->first_flow = fresh ? n : 0;
	bpf_map__set_max_entries(s->maps.dard_flows, n + n / 4 + 1024);
	if (bench_dp__load(s)) {
		fprintf(stderr, "Failed to load the benchmark's BPF object\n");
		exit(1);
	}
	dp = adopt(s);
	set_dest(dp, peer);
	set_dest(dp, other);
	if (dard_dp_bpf.add_alias(dp, ntohl(ip4(alias_me)))) {
		fprintf(stderr, "Failed to fill the benchmark's maps\n");
		exit(1);
	}
	dard_dp_bpf.close(dp);
	outer(&s->bss->outer_hdr);
	outer6(&s->bss->outer6_hdr, INNER - 20);
	fill(s, n, c == ELEPHANT);
	return s;
}

static struct bench_dp *load(uint32_t n, enum bench_case c)
{
	return load_as(n, c, 0);
}

static uint64_t read_stat(struct bench_dp *s, unsigned st)
{
	struct dard_dp *dp = adopt(s);
	uint64_t v[__DARD_STAT_MAX];

	if (dard_dp_bpf.stats(dp, v)) {
		fprintf(stderr, "Failed to read dard_stats\n");
		exit(1);
	}
	dard_dp_bpf.close(dp);
	return v[st];
}

/* Every iteration of every loop must have taken the path it claims. */
static void check_stats(struct bench_dp *s, unsigned st, uint64_t want)
{
	uint64_t v = read_stat(s, st);

	if (v < want) {
		fprintf(stderr,
			"%s: %llu, not %llu: the loop timed another path\n",
			dard_stat_name(st), (unsigned long long)v,
			(unsigned long long)want);
		exit(1);
	}
}

/* What every row is taken off: the no-op loop and the strip, ns. */
struct costs {
	double noop, strip;
};

/* The egress loop for case c on n flows, checked, as ns per packet. */
static double egress(uint32_t n, enum bench_case c, const struct costs *k,
		     struct bench_dp **keep)
{
	struct bench_dp *s = load(n, c);
	double t = time_prog(s->progs.bench_egress, 0) - k->strip;

	check_stats(s, DARD_STAT_ENCAP, (uint64_t)REPEAT * ROUNDS);
	if (keep)
		*keep = s;
	else
		bench_dp__destroy(s);
	return t;
}

/* Medians of paired rounds: A, B, and B's added ns over A's. */
struct pair {
	double a, b, ratio;
};

/*
 * Rounds of two states of one table alternated, so that both see the
 * same machine (it is shared, and drifts by tens of ns from one minute to
 * the next): before each round of A, id's dead bits are set to dead_a;
 * before each of B, to dead_b, or with kill to the path every flow is on
 * now (path r % 4: round r - 1 moved them there), so that B's round of
 * one pass over the table times each flow's first packet after a death.
 */
static struct pair paired(struct bench_dp *s, const char *id, uint64_t dead_a,
			  uint64_t dead_b, int kill, uint32_t repeat,
			  const struct costs *k)
{
	double a[ROUNDS], b[ROUNDS], q[ROUNDS];
	struct pair p;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		set_dead(s, id, dead_a);
		a[r] = run(s->progs.bench_egress, 0, repeat) - k->strip;
		set_dead(s, id, kill ? 1ULL << (r % 4) : dead_b);
		b[r] = run(s->progs.bench_egress, 0, repeat) - k->strip;
		q[r] = (b[r] - k->noop) / (a[r] - k->noop);
	}
	check_stats(s, DARD_STAT_ENCAP, 2ULL * repeat * ROUNDS);
	p.a = median(a, ROUNDS);
	p.b = median(b, ROUNDS);
	p.ratio = median(q, ROUNDS);
	return p;
}

static void row(const char *name, uint32_t n, double t, double known,
		const char *ref, double ratio, const struct costs *k)
{
	printf("| %s | %u | %.1f | %.1f | %.2f | %s | ", name, n, t,
	       t - k->noop, (t - k->noop) / (known - k->noop), ref);
	if (ratio > 0)
		printf("%.2f |\n", ratio);
	else
		printf("- |\n");
}

/*
 * The liveness check's cost beside today's known flow, on one table of n
 * flows: (a) nothing dead, (b) another destination has a dead path, (c)
 * new flows with paths 1-3 of peer's 4 dead, (d) each known flow's first
 * packet after its path died. Ratios of added ns over the no-op.
 */
static void liveness(uint32_t n, const struct costs *k)
{
	struct bench_dp *s = load(n, LIVE_KNOWN);
	struct pair ab, d, c;
	double frac;

	ab = paired(s, other, 0, 1, 0, REPEAT, k);
	/* (b)'s flows are on a live path: none may have moved. */
	if (read_stat(s, DARD_STAT_REPATH_DEAD)) {
		fprintf(stderr, "(b): a flow on a live path was moved\n");
		exit(1);
	}
	d = paired(s, peer, 0, 0, 1, n, k);
	check_stats(s, DARD_STAT_REPATH_DEAD, (uint64_t)n * ROUNDS);
	bench_dp__destroy(s);
	s = load(n, LIVE_NEW);
	c = paired(s, peer, 0, 0xe, 0, REPEAT, k);
	frac = (double)read_stat(s, DARD_STAT_NEW_FLOW_DEAD_AVOIDED) /
	       ((double)REPEAT * ROUNDS);
	bench_dp__destroy(s);

	row("(a) known flow, nothing dead", n, ab.a, ab.a, "-", 0, k);
	row("(b) known flow, another destination has a dead path", n, ab.b,
	    ab.a, "(a)", ab.ratio, k);
	row("new flow, nothing dead", n, c.a, ab.a, "-", 0, k);
	row("(c) new flow, paths 1-3 of 4 dead", n, c.b, ab.a, "new flow",
	    c.ratio, k);
	row("known flow, one pass over the table, nothing dead", n, d.a, ab.a,
	    "-", 0, k);
	row("(d) known flow, first packet after its path died, one pass", n,
	    d.b, ab.a, "one pass", d.ratio, k);
	printf("| (c) per new flow placed off a dead hashed path (%.0f%% of them) | %u | - | %.1f more | - | new flow | - |\n",
	       100 * frac, n, (c.b - c.a) / frac);
	printf("| (d) per repath | %u | - | %.1f more | - | one pass | - |\n",
	       n, d.b - d.a);
}

/* Weights for peer's paths through the datapath's set_weights (NULL:
 * even), the way dardd applies the controller's. */
static void set_weights(struct bench_dp *s, const uint16_t *w)
{
	struct dard_dp *dp = adopt(s);
	int ret = dard_dp_bpf.set_weights(dp, ntohl(ip4(peer)), w, w ? 4 : 0);

	dard_dp_bpf.close(dp);
	if (ret) {
		fprintf(stderr, "set_weights: %s\n", strerror(-ret));
		exit(1);
	}
}

/*
 * A new flow placed by weight (the slot table, 1:3:0:4) beside one placed
 * by hash % npaths, rounds alternated on one table as paired()'s; the
 * ratio of added ns over the no-op, median of rounds.
 */
static void weighted(uint32_t n, const struct costs *k)
{
	static const uint16_t w[4] = {1, 3, 0, 4};
	struct bench_dp *s = load(n, LIVE_NEW);
	double a[ROUNDS], b[ROUNDS], q[ROUNDS], ma, mb;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		set_weights(s, NULL);
		a[r] = run(s->progs.bench_egress, 0, REPEAT) - k->strip;
		set_weights(s, w);
		b[r] = run(s->progs.bench_egress, 0, REPEAT) - k->strip;
		q[r] = (b[r] - k->noop) / (a[r] - k->noop);
	}
	check_stats(s, DARD_STAT_NEW_FLOW_WEIGHTED, (uint64_t)REPEAT * ROUNDS);
	bench_dp__destroy(s);
	ma = median(a, ROUNDS);
	mb = median(b, ROUNDS);
	printf("| new flow, even (hash %% 4 paths) | %u | %.1f | %.1f | - |\n",
	       n, ma, ma - k->noop);
	printf("| new flow, weighted 1:3:0:4 (slot of 256) | %u | %.1f | %.1f | %.3f |\n",
	       n, mb, mb - k->noop, median(q, ROUNDS));
}

/*
 * 4in6's rows: S6 and P6 as main() finds S and P, then the known flow's
 * encap and the decap on each table size.
 */
static void rows6(const uint32_t *sizes, int nsizes, const struct costs *k)
{
	struct bench_dp *s = load_as(1000, KNOWN, 1);
	double pair, strip, push, t, b;
	int i;

	pair = time_prog(s->progs.bench_pair6, BARE6);
	t = time_prog(s->progs.bench_strip6, BARE6);
	b = s->rodata->strip_batch;
	strip = (t - k->noop - (pair - k->noop) / b) / (1 - 1 / b);
	push = pair - k->noop - strip;
	bench_dp__destroy(s);
	printf("| push 40 bytes of IPv6 and the type (4in6) | - | %.1f | %.1f |\n",
	       k->noop + push, push);
	printf("| strip 40 bytes and the type (4in6) | - | %.1f | %.1f |\n",
	       k->noop + strip, strip);
	for (i = 0; i < nsizes; i++) {
		s = load_as(sizes[i], KNOWN, 1);
		t = time_prog(s->progs.bench_egress6, BARE6) - strip;
		check_stats(s, DARD_STAT_ENCAP, (uint64_t)REPEAT * ROUNDS);
		printf("| encap 4in6, known flow | %u | %.1f | %.1f |\n",
		       sizes[i], t, t - k->noop);
		t = time_prog(s->progs.bench_ingress6, WRAP6) - push;
		check_stats(s, DARD_STAT_DECAP, (uint64_t)REPEAT * ROUNDS);
		printf("| decap 4in6 | %u | %.1f | %.1f |\n", sizes[i], t,
		       t - k->noop);
		bench_dp__destroy(s);
	}
}

static int make_plan6(void)
{
	struct dard_plan_opts o;
	char err[DARD_ERR_MAX];
	struct dard_topo *t = dard_gen_spec("fattree:4", 1000, err);

	dard_plan_opts_init(&o);
	o.family = DARD_FAMILY_IPV6;
	plan6 = t ? dard_plan_new(t, &o, err) : NULL;
	if (!plan6)
		fprintf(stderr, "dard-bench-dp: fattree:4's IPv6 plan: %s\n",
			err);
	/* The plan keeps no pointer to the tree; it is not needed again. */
	dard_topo_free(t);
	return plan6 ? 0 : -1;
}

int main(void)
{
	static const uint32_t sizes[] = {1000, 1000000};
	struct costs k;
	struct bench_dp *s;
	cpu_set_t cpus;
	double pair, push, b, t;
	int i;

	if (geteuid()) {
		printf("dard-bench-dp: SKIP: BPF_PROG_TEST_RUN needs root\n");
		return 0;
	}
	if (make_plan6())
		return 1;
	dard_bpf_log(0);
	/*
	 * One CPU for every run: the loops number flows by a per-CPU count,
	 * so a run on another CPU would replay flows, not make new ones.
	 */
	CPU_ZERO(&cpus);
	CPU_SET(sched_getcpu(), &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus))
		perror("sched_setaffinity");
	s = load(1000, KNOWN);
	k.noop = time_prog(s->progs.bench_noop, 0);
	pair = time_prog(s->progs.bench_pair, 0);
	/*
	 * The strip loop pushes once per batch of b: strip - noop = S + P / b
	 * and pair - noop = P + S, so S = (strip - noop - (pair - noop) / b)
	 * / (1 - 1 / b).
	 */
	t = time_prog(s->progs.bench_strip, 0);
	b = s->rodata->strip_batch;
	k.strip = (t - k.noop - (pair - k.noop) / b) / (1 - 1 / b);
	push = pair - k.noop - k.strip;
	bench_dp__destroy(s);

	printf("\nCommand: make bench (build/bin/dard-bench-dp): repeat = %d, median of %d\n\n",
	       REPEAT, ROUNDS);
	printf("| case | flows in table | ns per packet | added ns over no-op (%.1f ns) |\n",
	       k.noop);
	printf("|---|--:|--:|--:|\n");
	printf("| push 20 bytes (bpf_skb_adjust_room) | - | %.1f | %.1f |\n",
	       k.noop + push, push);
	printf("| strip 20 bytes (bpf_skb_adjust_room) | - | %.1f | %.1f |\n",
	       k.noop + k.strip, k.strip);
	for (i = 0; i < 2; i++) {
		uint32_t n = sizes[i];

		t = egress(n, KNOWN, &k, &s);
		printf("| encap, known flow | %u | %.1f | %.1f |\n", n, t,
		       t - k.noop);
		t = time_prog(s->progs.bench_ingress, 1) - push;
		check_stats(s, DARD_STAT_DECAP, (uint64_t)REPEAT * ROUNDS);
		bench_dp__destroy(s);
		printf("| decap | %u | %.1f | %.1f |\n", n, t, t - k.noop);
		t = egress(n, NEW, &k, NULL);
		printf("| encap, new flow | %u | %.1f | %.1f |\n", n, t,
		       t - k.noop);
		t = egress(n, ELEPHANT, &k, NULL);
		printf("| encap, elephant | %u | %.1f | %.1f |\n", n, t,
		       t - k.noop);
	}
	rows6(sizes, 2, &k);
	printf("\nPath liveness: rounds of a case and its reference alternated on one table; medians; ratios of added ns over the no-op\n\n");
	printf("| case | flows in table | ns per packet | added ns over no-op | ratio to (a) | reference | ratio to it, median of rounds |\n");
	printf("|---|--:|--:|--:|--:|---|--:|\n");
	for (i = 0; i < 2; i++)
		liveness(sizes[i], &k);
	printf("\nWeighted new flows: rounds of even and weighted alternated on one table; medians\n\n");
	printf("| case | flows in table | ns per packet | added ns over no-op | weighted / even, median of rounds |\n");
	printf("|---|--:|--:|--:|--:|\n");
	for (i = 0; i < 2; i++)
		weighted(sizes[i], &k);
	return 0;
}
