// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-bench-ctl: dard-controller's rounds on a big tree, without
 * sockets. Every host reports one elephant (a random permutation, or a
 * stride of one pod's hosts) through ctlr_receive, as its dardd would
 * (-f N: N elephants, the k-th to the host 37k further);
 * then, for each algorithm, the decision latency of a round that places
 * every flow afresh (the worst round: a new demand) and of a steady
 * round (nothing changed), each the median of -r rounds: the controller's
 * own measure (wall clock, what `dardctl controller stats' shows) and the
 * whole round's CPU time (placing and encoding, so that another process
 * on the other core does not count), and the message
 * volume a round pushes (datagrams and bytes, cproto's encoder: the xmit
 * hook only counts). Beside them: ctlr_init's CPU time, the CPU time of
 * taking every host's report (ctlr_receive alone: the datagrams are
 * encoded before the clock starts), then of taking them again (every
 * ToR pair seen before), and the process's resident memory after the
 * rounds. Prints a markdown table.
 *
 *   dard-bench-ctl [-r ROUNDS] [-s SEED] [-f FLOWS] [-a ALGO]
 *                  [-p random|stride] [SPEC]
 *   (default: fattree:32, every algorithm and pattern, one flow a host;
 *   then fattree:64's 65,536 hosts, sdn-optimal, random, 3 rounds.
 *   -f 32 on fattree:32: the controller's cap of 262,144 flows,
 *   operations.md's watchdog numbers)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "cfgfile.h"
#include "clock.h"
#include "ctlr.h"
#include "num.h"
#include "traffic.h"

enum { ROUNDS_MAX = 100, REPORTS_CHUNK = 4096 };

static struct dard_keys keys = {.n = 1};
static uint32_t per_host = 1; /* -f: elephants each host reports */

static ssize_t count_xmit(struct ctlr *c, const void *buf, size_t len,
			  uint32_t addr, uint16_t port)
{
	return len;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* CPU time: another process on the other core does not count. */
static uint64_t cpu_ns(void)
{
	return dard_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
}

/* Hosts' reports, encoded before the clock starts. */
struct reports {
	uint8_t *buf;
	size_t off[REPORTS_CHUNK + 1];
};

/*
 * The reports of hosts from .. from + n - 1, with per_host flows each,
 * the first to dst[rank]: encoded as late as they are taken, so that
 * their seqs are fresh (the controller refuses seqs 10 s old).
 */
static void encode_some(const struct ctlr *c, const uint32_t *dst,
			uint32_t from, uint32_t n, struct reports *r)
{
	static struct dard_cp_msg m;
	const struct dard_topo *t = c->t;
	uint64_t seq = dard_clock_ns(CLOCK_REALTIME);
	uint32_t i, k, d;

	for (i = 0; i < n; i++) {
		const struct dard_node *s = &t->node[t->hosts[from + i]];

		m = (struct dard_cp_msg){.type = DARD_CP_REPORT,
					 .flags = DARD_CP_F_FIRST |
						  DARD_CP_F_LAST,
					 .sender = s->id,
					 .topo = c->topo,
					 .seq = seq,
					 .count = per_host};
		for (k = 0; k < per_host; k++) {
			d = (dst[from + i] + k * 37) % t->nhosts;
			if (d == from + i)
				d = (d + 1) % t->nhosts;
			m.flow[k].key.saddr = htonl(s->id);
			m.flow[k].key.daddr = htonl(t->node[t->hosts[d]].id);
			m.flow[k].key.sport = htons(40000 + k);
			m.flow[k].key.dport = htons(5201);
			m.flow[k].key.proto = 6;
		}
		r->off[i + 1] = r->off[i] + dard_cp_encode(r->buf + r->off[i],
							   DARD_CP_MSG_MAX,
							   &keys.key[0], &m);
	}
}

/* Every host's report through ctlr_receive: the CPU ns that took. */
static int64_t take_all(struct ctlr *c, const uint32_t *dst)
{
	const struct dard_topo *t = c->t;
	struct reports r = {.buf = malloc(REPORTS_CHUNK * DARD_CP_MSG_MAX)};
	uint64_t t0, sum = 0;
	uint32_t from, i, n;

	if (!r.buf)
		return -1;
	for (from = 0; from < t->nhosts; from += n) {
		n = t->nhosts - from < REPORTS_CHUNK ? t->nhosts - from
						     : REPORTS_CHUNK;
		encode_some(c, dst, from, n, &r);
		t0 = cpu_ns();
		for (i = 0; i < n; i++)
			ctlr_receive(
				c, r.buf + r.off[i], r.off[i + 1] - r.off[i],
				t->node[t->hosts[from + i]].mgmt, 40000, 1);
		sum += cpu_ns() - t0;
	}
	free(r.buf);
	return sum;
}

/* The process's resident memory now, MiB (Linux /proc). */
static double rss_mib(void)
{
	unsigned long size, res = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%lu %lu", &size, &res) != 2)
			res = 0;
		fclose(f);
	}
	return res * (double)sysconf(_SC_PAGESIZE) / (1024 * 1024);
}

static void unplace(struct ctlr *c)
{
	uint32_t i;
	unsigned j;

	for (i = 0; i < c->nhosts; i++)
		for (j = 0; j < c->host[i].nflows; j++)
			c->host[i].flow[j].assigned = -1;
}

struct timing {
	double decide_ms; /* the controller's own, wall clock (stats) */
	double round_ms;  /* the whole round, CPU: placing and encoding */
};

/* The medians of rounds, fresh or steady; -1 on failure. */
static int measure(struct ctlr *c, unsigned rounds, int fresh,
		   struct timing *out)
{
	uint64_t dec[ROUNDS_MAX], all[ROUNDS_MAX], t0;
	unsigned r;

	for (r = 0; r < rounds; r++) {
		if (fresh)
			unplace(c);
		t0 = cpu_ns();
		if (ctlr_round(c, 2))
			return -1;
		all[r] = cpu_ns() - t0;
		dec[r] = c->st.last_ns;
	}
	qsort(dec, rounds, sizeof(dec[0]), cmp_u64);
	qsort(all, rounds, sizeof(all[0]), cmp_u64);
	out->decide_ms = dec[rounds / 2] / 1e6;
	out->round_ms = all[rounds / 2] / 1e6;
	return 0;
}

static int want_algo = -1; /* -a: one algorithm, or all */

static int run(const struct dard_config *cfg, const char *pattern,
	       const uint32_t *dst, unsigned rounds)
{
	static const int algos[] = {DARD_CP_ALGO_GREEDY, DARD_CP_ALGO_OPTIMAL,
				    DARD_CP_ALGO_ADAPTIVE};
	char err[DARD_ERR_MAX];
	unsigned a;

	for (a = 0; a < 3; a++) {
		struct ctlr_opts o = {.algo = algos[a],
				      .interval_ns = 1000000000ULL,
				      .host_timeout_ns = 3000000000ULL,
				      .query_ns = 1000000000ULL};
		static struct ctlr c;
		struct timing fresh, steady;
		int64_t took, again;
		double init;
		uint64_t t0;
		int ret;

		if (want_algo >= 0 && algos[a] != want_algo)
			continue;
		t0 = cpu_ns();
		ret = ctlr_init(&c, cfg, &keys, &o, err);
		init = (cpu_ns() - t0) / 1e6;
		if (ret) {
			fprintf(stderr, "dard-bench-ctl: %s\n", err);
			ctlr_fini(&c);
			return -1;
		}
		c.xmit = count_xmit;
		took = take_all(&c, dst);
		/* The same reports again: every ToR pair known by now. */
		again = took < 0 ? took : take_all(&c, dst);
		if (again < 0) {
			fprintf(stderr, "dard-bench-ctl: out of memory\n");
			ctlr_fini(&c);
			return -1;
		}
		if (dard_rx_refused(&c.hrx))
			fprintf(stderr,
				"dard-bench-ctl: %llu reports refused\n",
				(unsigned long long)dard_rx_refused(&c.hrx));
		if (measure(&c, rounds, 1, &fresh) ||
		    measure(&c, rounds, 0, &steady)) {
			fprintf(stderr, "dard-bench-ctl: a round failed\n");
			ctlr_fini(&c);
			return -1;
		}
		printf("| %s | %s | %llu | %.1f | %.1f | %.1f | %.1f | %.1f | "
		       "%.1f | %.1f | %llu | %llu | %llu | %.0f |\n",
		       pattern, dard_cp_algo_name(algos[a]),
		       (unsigned long long)c.st.last_flows, init, took / 1e6,
		       again / 1e6, fresh.decide_ms, fresh.round_ms,
		       steady.decide_ms, steady.round_ms,
		       (unsigned long long)c.st.last_max_load,
		       (unsigned long long)c.st.last_msgs,
		       (unsigned long long)c.st.last_bytes, rss_mib());
		fflush(stdout);
		ctlr_fini(&c);
	}
	return 0;
}

/* One tree's table: the patterns asked for (NULL: both). */
static int bench_spec(const char *spec, const char *pattern, unsigned rounds,
		      uint64_t seed)
{
	struct dard_plan_opts wide;
	/* Room for fattree:64: its 196,608 links, 69,632 management
	 * addresses and 65,536 IDs overflow the default prefixes. */
	struct dard_load_opts lo = {.mbps = 1000,
				    .over = &wide,
				    .mask = DARD_OPT_IDS | DARD_OPT_LINKS |
					    DARD_OPT_MGMT,
				    .wide_base = 1};
	static struct dard_config cfg;
	char err[DARD_ERR_MAX + 4096];
	uint32_t *perm, i, step;
	uint64_t rng = seed;
	int ret = 0;

	dard_plan_opts_init(&wide);
	dard_prefix_parse("100.64.0.0/12", &wide.ids);
	dard_prefix_parse("100.80.0.0/12", &wide.links);
	dard_prefix_parse("100.96.0.0/12", &wide.mgmt);
	if (dard_topo_load(&cfg, spec, &lo, err, sizeof(err))) {
		fprintf(stderr, "dard-bench-ctl: %s\n", err);
		return -1;
	}
	perm = calloc(cfg.topo->nhosts, sizeof(*perm));
	if (!perm) {
		dard_config_free(&cfg);
		return -1;
	}
	printf("dard-bench-ctl: %s, %u hosts, %u elephant(s) each; median "
	       "of %u rounds\n\n",
	       spec, cfg.topo->nhosts, per_host, rounds);
	printf("| pattern | algo | flows | init CPU ms | reports CPU ms "
	       "| again CPU ms | fresh: decide ms | fresh: round CPU ms | steady: decide ms "
	       "| steady: round CPU ms | L_D | datagrams/round | bytes/round "
	       "| RSS MiB |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
	if (!pattern || !strcmp(pattern, "random")) {
		dard_derangement(perm, cfg.topo->nhosts, &rng);
		ret = run(&cfg, "random", perm, rounds);
	}
	/* A pod's hosts apart: every flow leaves its pod. */
	for (step = 0; step < cfg.topo->nhosts &&
		       dard_host_pod(cfg.topo, cfg.topo->hosts[step]) ==
			       dard_host_pod(cfg.topo, cfg.topo->hosts[0]);
	     step++)
		;
	for (i = 0; i < cfg.topo->nhosts; i++)
		perm[i] = (i + step) % cfg.topo->nhosts;
	if (!ret && (!pattern || !strcmp(pattern, "stride")))
		ret = run(&cfg, "stride", perm, rounds);
	printf("\n");
	free(perm);
	dard_config_free(&cfg);
	return ret;
}

static int algo_of(const char *name)
{
	int a;

	for (a = DARD_CP_ALGO_GREEDY; a <= DARD_CP_ALGO_ADAPTIVE; a++)
		if (!strcmp(dard_cp_algo_name(a), name))
			return a;
	return -EINVAL;
}

static const char *pattern; /* -p: one pattern, or both (NULL) */
static uint32_t rounds = 5;
static uint64_t seed = 1;

static int parse_opt(int opt, const char *arg)
{
	switch (opt) {
	case 'r':
		return dard_parse_u32(arg, 1, ROUNDS_MAX, &rounds);
	case 's':
		return dard_parse_u64(arg, 1, UINT64_MAX, &seed);
	case 'f':
		return dard_parse_u32(arg, 1, DARD_CP_FLOWS_MAX, &per_host);
	case 'a':
		want_algo = algo_of(arg);
		return want_algo < 0 ? -EINVAL : 0;
	case 'p':
		pattern = arg;
		return strcmp(arg, "random") && strcmp(arg, "stride") ? -EINVAL
								      : 0;
	default:
		return -EINVAL;
	}
}

int main(int argc, char **argv)
{
	int opt;

	while ((opt = getopt(argc, argv, "r:s:f:a:p:")) != -1) {
		int ret = parse_opt(opt, optarg);

		if (ret) {
			fprintf(stderr,
				"Usage: dard-bench-ctl [-r ROUNDS (1-%d)] "
				"[-s SEED] [-f FLOWS (1-%d)] [-a { sdn-greedy "
				"| sdn-optimal | sdn-adaptive }] [-p { random "
				"| stride }] [SPEC]\n",
				ROUNDS_MAX, DARD_CP_FLOWS_MAX);
			return 2;
		}
	}
	keys.key[0].id = 1;
	dard_log_init("dard-bench-ctl", DARD_LOG_WARN);
	if (optind < argc)
		return bench_spec(argv[optind], pattern, rounds, seed) ? 1 : 0;
	if (bench_spec("fattree:32", pattern, rounds, seed))
		return 1;
	/* The goal's size: a fresh sdn-optimal round for 65,536 hosts. */
	want_algo = DARD_CP_ALGO_OPTIMAL;
	return bench_spec("fattree:64", "random", rounds < 3 ? rounds : 3, seed)
		       ? 1
		       : 0;
}
