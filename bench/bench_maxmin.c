// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-bench-maxmin: max-min fair rates on the seed paper's 11,664-host
 * tree (fattree:36), as in its Tables 1 and 2: DMK, each flow on its
 * D-mod-k path (the XGFT digit form) with dard_maxmin(), and OPT, the
 * best splittable routing, with dard_opt_rates() on one and two threads.
 * Demands: a random permutation; 20 random permutations at once (every
 * host sends and receives 20 flows); and RANDN(20), 20 distinct random
 * destinations per host, so that receivers get more or fewer. Only the
 * rate computations are timed; choosing the paths is set-up.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "gen.h"
#include "maxmin.h"
#include "opt.h"
#include "path.h"
#include "route.h"
#include "sched.h"
#include "traffic.h"

enum { RANDN = 20 };

/* Wall and whole-process CPU time of one computation. */
struct took {
	double wall, cpu;
};

static void start(struct took *k)
{
	k->wall = dard_clock_ms(CLOCK_MONOTONIC);
	k->cpu = dard_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
}

static void stop(struct took *k)
{
	k->wall = dard_clock_ms(CLOCK_MONOTONIC) - k->wall;
	k->cpu = dard_clock_ms(CLOCK_PROCESS_CPUTIME_ID) - k->cpu;
}

static void die(const char *what)
{
	fprintf(stderr, "dard-bench-maxmin: %s\n", what);
	exit(1);
}

/* A derangement seeded by rand(), so that srand repeats the demands. */
static void cycle(uint32_t *perm, uint32_t n)
{
	uint64_t rng = (uint64_t)rand() << 1 | 1;

	dard_derangement(perm, n, &rng);
}

static size_t demand(const struct dard_topo *t, int kind, struct dard_demand *d)
{
	uint32_t *perm = malloc(t->nhosts * sizeof(*perm)), h, k, j;
	size_t n = 0;

	if (!perm)
		die("out of memory");
	if (kind < 2) {
		for (k = 0; k < (kind ? RANDN : 1); k++) {
			cycle(perm, t->nhosts);
			for (h = 0; h < t->nhosts; h++)
				d[n++] = (struct dard_demand){
					t->hosts[h], t->hosts[perm[h]]};
		}
	} else {
		for (h = 0; h < t->nhosts; h++)
			for (k = 0; k < RANDN; k++) {
				uint32_t dst;

				do {
					dst = t->hosts[rand() % t->nhosts];
					for (j = 0;
					     j < k && d[n - k + j].dst != dst;
					     j++)
						;
				} while (dst == t->hosts[h] || j < k);
				d[n++] = (struct dard_demand){t->hosts[h], dst};
			}
	}
	free(perm);
	return n;
}

/* Paper (Table 1, per problem; Table 2 for two threads), in ms. */
static const struct {
	const char *name;
	double opt, opt2, dmk;
} paper[] = {
	{"random permutation", 7.5, 6.85, 54.15},
	{"20 random permutations", 0, 0, 0},
	{"RANDN(20)", 310650, 168090, 782923},
};

/* What we measured, for the comparison with the paper. */
static struct {
	double opt, opt2, dmk;
} res[3];

static void run(struct dard_topo *t, struct dard_pathctx *pc,
		const struct dard_opt *o, int kind)
{
	size_t nmax = (size_t)t->nhosts * RANDN, n, i;
	struct dard_demand *d = malloc(nmax * sizeof(*d));
	struct dard_mm_flow *f = calloc(nmax, sizeof(*f));
	uint32_t *links = calloc(nmax * 2 * DARD_LEVEL_MAX, sizeof(*links));
	double *cap = malloc(2 * t->nlinks * sizeof(*cap));
	double *dmk = malloc(nmax * sizeof(*dmk));
	double *r1 = malloc(nmax * sizeof(*r1)),
	       *r2 = malloc(nmax * sizeof(*r2));
	double sum_dmk = 0, sum_opt = 0, cpu2 = 0;
	struct dard_opt_stats st1, st2;
	struct took tk, t1, t2;
	char err[DARD_ERR_MAX];
	uint32_t l;

	if (!d || !f || !links || !cap || !dmk || !r1 || !r2)
		die("out of memory");
	n = demand(t, kind, d);
	/* Directed links: 2l climbs, 2l + 1 descends, as OPT counts them. */
	for (l = 0; l < 2 * t->nlinks; l++)
		cap[l] = t->link[l / 2].mbps;
	for (i = 0; i < n; i++) {
		struct dard_path p;
		uint32_t *pl = links + i * 2 * DARD_LEVEL_MAX;

		if (dard_route_modk(pc, t, d[i].src, d[i].dst, DARD_DMODK_DIGIT,
				    &p))
			die("no D-mod-k path");
		f[i].links = pl;
		f[i].nlinks = dard_path_dlinks_all(t, &p, pl);
	}
	start(&tk);
	if (dard_maxmin(cap, 2 * t->nlinks, f, n, dmk))
		die("dard_maxmin failed");
	stop(&tk);
	start(&t1);
	if (dard_opt_rates(o, d, n, 1, r1, &st1, err))
		die(err);
	stop(&t1);
	start(&t2);
	if (dard_opt_rates(o, d, n, 2, r2, &st2, err))
		die(err);
	stop(&t2);
	if (memcmp(r1, r2, n * sizeof(*r1)) || st1.rounds != st2.rounds)
		die("OPT on two threads differs from one thread");
	for (i = 0; i < n; i++) {
		sum_dmk += dmk[i];
		sum_opt += r1[i];
	}
	for (i = 0; i < st2.threads; i++)
		if (st2.thread_cpu_ms[i] > cpu2)
			cpu2 = st2.thread_cpu_ms[i];
	printf("| %s | %zu | %.1f | %.1f | %u | %.1f | %.1f / %.1f | %.2f |\n",
	       paper[kind].name, n, tk.cpu, t1.cpu, st1.rounds, t2.wall, cpu2,
	       t2.cpu, sum_dmk / sum_opt);
	res[kind].dmk = tk.cpu;
	res[kind].opt = t1.cpu;
	res[kind].opt2 = t2.wall;
	free(d);
	free(f);
	free(links);
	free(cap);
	free(dmk);
	free(r1);
	free(r2);
}

int main(void)
{
	char err[DARD_ERR_MAX];
	struct dard_plan_opts po;
	struct dard_topo *t = dard_gen_spec("fattree:36", 1000, err);
	struct dard_plan *p;
	struct dard_pathctx *pc;
	struct dard_opt *o;
	int kind;

	if (!t)
		die(err);
	dard_plan_opts_init(&po);
	/* fattree:36 needs 25 alias bits: more than 10/8 leaves. */
	dard_prefix_parse("16.0.0.0/4", &po.base);
	p = dard_plan_new(t, &po, err);
	if (!p)
		die(err);
	pc = dard_pathctx_new(t, p);
	o = dard_opt_new(t, err);
	if (!pc || !o)
		die(pc ? err : "out of memory");
	srand(1);
	printf("\nCommand: make bench (build/bin/dard-bench-maxmin), fattree:36, %u hosts\n\n",
	       t->nhosts);
	printf("| demand | flows | DMK, ms CPU | OPT 1 thread, ms CPU | OPT rounds | OPT 2 threads, ms wall | its busiest thread / both, ms CPU | DMK/OPT throughput |\n");
	printf("|---|--:|--:|--:|--:|--:|--:|--:|\n");
	for (kind = 0; kind < 3; kind++)
		run(t, pc, o, kind);
	printf("\nThe paper (Tables 1 and 2, per problem) over ours: how many times faster we are\n\n");
	printf("| demand | DMK | OPT 1 thread | OPT 2 threads (wall) |\n|---|--:|--:|--:|\n");
	for (kind = 0; kind < 3; kind++)
		if (paper[kind].opt)
			printf("| %s | %.5g ms / %.1f = %.0f | %.5g ms / %.1f = %.0f | %.5g ms / %.1f = %.0f |\n",
			       paper[kind].name, paper[kind].dmk, res[kind].dmk,
			       paper[kind].dmk / res[kind].dmk, paper[kind].opt,
			       res[kind].opt, paper[kind].opt / res[kind].opt,
			       paper[kind].opt2, res[kind].opt2,
			       paper[kind].opt2 / res[kind].opt2);
	dard_opt_free(o);
	dard_pathctx_free(pc);
	dard_plan_free(p);
	dard_topo_free(t);
	return 0;
}
