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
 * hook only counts). Prints a markdown table.
 *
 *   dard-bench-ctl [-r ROUNDS] [-s SEED] [-f FLOWS] [SPEC]
 *   (default fattree:32, one flow a host; -f 32 on it: the controller's
 *   cap of 262,144 flows, operations.md's watchdog numbers)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "cfgfile.h"
#include "clock.h"
#include "ctlr.h"
#include "num.h"
#include "traffic.h"

enum { ROUNDS_MAX = 100 };

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

/*
 * Every host's report of its per_host flows, the first to dst[rank]; the
 * CPU ns it took.
 */
static uint64_t report_all(struct ctlr *c, const uint32_t *dst)
{
	static struct dard_cp_msg m;
	const struct dard_topo *t = c->t;
	uint8_t buf[DARD_CP_MSG_MAX];
	uint64_t t0 = cpu_ns(), seq = dard_clock_ns(CLOCK_REALTIME);
	uint32_t i, k, d;
	size_t len;

	for (i = 0; i < t->nhosts; i++) {
		const struct dard_node *s = &t->node[t->hosts[i]];
		uint64_t now = dard_clock_ns(CLOCK_REALTIME);

		/* Late reports of a long run are not replays: seq keeps up. */
		seq = now > seq ? now : seq + 1;

		m = (struct dard_cp_msg){.type = DARD_CP_REPORT,
					 .flags = DARD_CP_F_FIRST |
						  DARD_CP_F_LAST,
					 .sender = s->id,
					 .topo = c->topo,
					 .seq = seq,
					 .count = per_host};
		for (k = 0; k < per_host; k++) {
			d = (dst[i] + k * 37) % t->nhosts;
			if (d == i)
				d = (d + 1) % t->nhosts;
			m.flow[k].key.saddr = htonl(s->id);
			m.flow[k].key.daddr = htonl(t->node[t->hosts[d]].id);
			m.flow[k].key.sport = htons(40000 + k);
			m.flow[k].key.dport = htons(5201);
			m.flow[k].key.proto = 6;
		}
		len = dard_cp_encode(buf, sizeof(buf), &keys.key[0], &m);
		ctlr_receive(c, buf, len, s->mgmt, 40000, 1);
	}
	return cpu_ns() - t0;
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
		double rep;

		if (ctlr_init(&c, cfg, &keys, &o, err)) {
			fprintf(stderr, "dard-bench-ctl: %s\n", err);
			ctlr_fini(&c);
			return -1;
		}
		c.xmit = count_xmit;
		rep = report_all(&c, dst) / 1e6;
		if (measure(&c, rounds, 1, &fresh) ||
		    measure(&c, rounds, 0, &steady)) {
			fprintf(stderr, "dard-bench-ctl: a round failed\n");
			ctlr_fini(&c);
			return -1;
		}
		printf("| %s | %s | %llu | %.0f | %.1f | %.1f | %.1f | %.1f | "
		       "%llu | %llu | %llu |\n",
		       pattern, dard_cp_algo_name(algos[a]),
		       (unsigned long long)c.st.last_flows, rep,
		       fresh.decide_ms, fresh.round_ms, steady.decide_ms,
		       steady.round_ms, (unsigned long long)c.st.last_max_load,
		       (unsigned long long)c.st.last_msgs,
		       (unsigned long long)c.st.last_bytes);
		fflush(stdout);
		ctlr_fini(&c);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct dard_load_opts lo = {.mbps = 1000, .wide_base = 1};
	uint32_t rounds = 5, *perm, i, step;
	uint64_t seed = 1, rng;
	static struct dard_config cfg;
	char err[DARD_ERR_MAX + 4096];
	const char *spec = "fattree:32";
	int opt;

	while ((opt = getopt(argc, argv, "r:s:f:")) != -1) {
		int ret = opt == 'r' ? dard_parse_u32(optarg, 1, ROUNDS_MAX,
						      &rounds)
			  : opt == 's'
				  ? dard_parse_u64(optarg, 1, UINT64_MAX, &seed)
			  : opt == 'f'
				  ? dard_parse_u32(optarg, 1, DARD_CP_FLOWS_MAX,
						   &per_host)
				  : -EINVAL;

		if (ret) {
			fprintf(stderr,
				"Usage: dard-bench-ctl [-r ROUNDS (1-%d)] "
				"[-s SEED] [-f FLOWS (1-%d)] [SPEC]\n",
				ROUNDS_MAX, DARD_CP_FLOWS_MAX);
			return 2;
		}
	}
	if (optind < argc)
		spec = argv[optind];
	if (dard_topo_load(&cfg, spec, &lo, err, sizeof(err))) {
		fprintf(stderr, "dard-bench-ctl: %s\n", err);
		return 1;
	}
	keys.key[0].id = 1;
	dard_log_init("dard-bench-ctl", DARD_LOG_WARN);
	perm = calloc(cfg.topo->nhosts, sizeof(*perm));
	if (!perm)
		return 1;
	printf("dard-bench-ctl: %s, %u hosts, %u elephant(s) each; median "
	       "of %u rounds\n\n",
	       spec, cfg.topo->nhosts, per_host, rounds);
	printf("| pattern | algo | flows | reports CPU ms | fresh: decide ms "
	       "| fresh: round CPU ms | steady: decide ms | steady: round CPU "
	       "ms | L_D | datagrams/round | bytes/round |\n");
	printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
	rng = seed;
	dard_derangement(perm, cfg.topo->nhosts, &rng);
	if (run(&cfg, "random", perm, rounds))
		return 1;
	/* A pod's hosts apart: every flow leaves its pod. */
	for (step = 0; step < cfg.topo->nhosts &&
		       dard_host_pod(cfg.topo, cfg.topo->hosts[step]) ==
			       dard_host_pod(cfg.topo, cfg.topo->hosts[0]);
	     step++)
		;
	for (i = 0; i < cfg.topo->nhosts; i++)
		perm[i] = (i + step) % cfg.topo->nhosts;
	if (run(&cfg, "stride", perm, rounds))
		return 1;
	free(perm);
	dard_config_free(&cfg);
	return 0;
}
