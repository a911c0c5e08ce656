// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-bench-route: CPU time of SDN-optimal on a random full permutation
 * of fattree:16, :32 and :64 (and the tapered fattree:32,3), with
 * SDN-greedy and D-mod-k (digit form) beside it for comparison; those two
 * enumerate every path of a flow, so by default they skip fattree:64. Only the
 * placement is timed: generating the tree, planning its addresses and drawing
 * the permutation are set-up. CPU time (CLOCK_PROCESS_CPUTIME_ID), so that
 * another process on the other core does not count. Prints a markdown table.
 *
 *   dard-bench-route [-r REPEAT] [-s SEED] [-e MAX_P] [SPEC[@BASE]...]
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "addr.h"
#include "clock.h"
#include "gen.h"
#include "num.h"
#include "path.h"
#include "route.h"
#include "traffic.h"

enum { MAX_REPEAT = 100 };

/* fattree:64 needs more alias bits than 10/8 leaves. */
static const char *const default_runs[] = {
	"fattree:16",
	"fattree:32",
	"fattree:64@16.0.0.0/4",
	"fattree:32,3",
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* L_D of a placement. */
static uint32_t max_load(const struct dard_topo *t, const struct dard_path *p,
			 size_t n)
{
	uint32_t *load = calloc(2 * (size_t)t->nlinks, sizeof(*load)), m;
	size_t i;

	if (!load)
		return 0;
	for (i = 0; i < n; i++)
		dard_route_load(t, &p[i], load);
	m = dard_route_max_load(t, load);
	free(load);
	return m;
}

static void row(const struct dard_topo *t, size_t n, const char *algo,
		double *ms, unsigned reps, uint32_t ld)
{
	qsort(ms, reps, sizeof(*ms), cmp_double);
	printf("| %s | %u | %zu | %s | %.1f | %.1f | %u |\n", t->name,
	       t->nhosts, n, algo, ms[0], ms[reps / 2], ld);
}

static int run(const char *arg, unsigned reps, uint64_t seed, unsigned enum_max)
{
	char spec[64], err[DARD_ERR_MAX], *at;
	struct dard_plan_opts o;
	struct dard_topo *t;
	struct dard_plan *p = NULL;
	struct dard_pathctx *pc = NULL;
	struct dard_demand *d = NULL;
	struct dard_path *out = NULL;
	uint32_t *load = NULL, *perm = NULL, i, n;
	double ms[MAX_REPEAT];
	unsigned r;
	int ret = -1;

	snprintf(spec, sizeof(spec), "%s", arg);
	dard_plan_opts_init(&o);
	/* fattree:64 has more hosts and links than the default ID, link
	 * and management prefixes hold; none is used here. */
	dard_prefix_parse("100.64.0.0/10", &o.links);
	dard_prefix_parse("100.128.0.0/15", &o.ids);
	dard_prefix_parse("100.130.0.0/15", &o.mgmt);
	at = strchr(spec, '@');
	if (at) {
		*at++ = '\0';
		if (dard_prefix_parse(at, &o.base)) {
			fprintf(stderr, "Invalid base: `%s'\n", at);
			return -1;
		}
	}
	t = dard_gen_spec(spec, 1000, err);
	if (!t) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	p = dard_plan_new(t, &o, err);
	if (!p) {
		fprintf(stderr, "%s: %s\n", spec, err);
		goto out;
	}
	n = t->nhosts;
	pc = dard_pathctx_new(t, p);
	d = calloc(n, sizeof(*d));
	out = calloc(n, sizeof(*out));
	load = calloc(2 * (size_t)t->nlinks, sizeof(*load));
	perm = malloc(n * sizeof(*perm));
	if (!pc || !d || !out || !load || !perm) {
		fprintf(stderr, "%s: out of memory\n", spec);
		goto out;
	}
	dard_derangement(perm, n, &seed);
	for (i = 0; i < n; i++)
		d[i] = (struct dard_demand){t->hosts[i], t->hosts[perm[i]]};

	for (r = 0; r < reps; r++) {
		double t0 = dard_clock_ms(CLOCK_PROCESS_CPUTIME_ID);

		if (dard_route_optimal(pc, t, d, n, out, err)) {
			fprintf(stderr, "%s: %s\n", spec, err);
			goto out;
		}
		ms[r] = dard_clock_ms(CLOCK_PROCESS_CPUTIME_ID) - t0;
	}
	row(t, n, "SDN-optimal", ms, reps, max_load(t, out, n));

	/* The path-enumerating algorithms, once: they take far longer. */
	if (t->node[t->roots[0]].ndown > enum_max)
		goto done;
	{
		double t0 = dard_clock_ms(CLOCK_PROCESS_CPUTIME_ID);

		if (dard_route_greedy(pc, t, d, n, load, out)) {
			fprintf(stderr, "%s: SDN-greedy failed\n", spec);
			goto out;
		}
		ms[0] = dard_clock_ms(CLOCK_PROCESS_CPUTIME_ID) - t0;
		row(t, n, "SDN-greedy", ms, 1, dard_route_max_load(t, load));
	}
	{
		double t0 = dard_clock_ms(CLOCK_PROCESS_CPUTIME_ID);

		for (i = 0; i < n; i++)
			if (dard_route_modk(pc, t, d[i].src, d[i].dst,
					    DARD_DMODK_DIGIT, &out[i])) {
				fprintf(stderr, "%s: D-mod-k failed\n", spec);
				goto out;
			}
		ms[0] = dard_clock_ms(CLOCK_PROCESS_CPUTIME_ID) - t0;
		row(t, n, "D-mod-k (digit)", ms, 1, max_load(t, out, n));
	}
done:
	ret = 0;
out:
	free(perm);
	free(load);
	free(out);
	free(d);
	dard_pathctx_free(pc);
	dard_plan_free(p);
	dard_topo_free(t);
	return ret;
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"Usage: %s [-r REPEAT] [-s SEED] [-e MAX_P] [SPEC[@BASE]...]\n"
		"Where: REPEAT := 1..%d runs of SDN-optimal (default 5)\n"
		"       MAX_P := the largest fat-tree p (pods) SDN-greedy and D-mod-k run on (default 32)\n",
		prog, MAX_REPEAT);
}

int main(int argc, char **argv)
{
	uint32_t reps = 5, enum_max = 32, i;
	uint64_t seed = 1;
	int c, bad = 0, rc = 0;

	while ((c = getopt(argc, argv, "r:s:e:h")) != -1) {
		switch (c) {
		case 'r':
			bad = dard_parse_u32(optarg, 1, MAX_REPEAT, &reps);
			break;
		case 's':
			bad = dard_parse_u64(optarg, 1, UINT64_MAX, &seed);
			break;
		case 'e':
			bad = dard_parse_u32(optarg, 0, UINT32_MAX, &enum_max);
			break;
		default:
			usage(argv[0]);
			return c == 'h' ? 0 : 2;
		}
		if (bad) {
			fprintf(stderr, "Invalid -%c `%s': %s\n", c, optarg,
				dard_num_strerror(bad));
			return 2;
		}
	}
	printf("\nCommand: %s -r %u -s %llu -e %u, one random full permutation "
	       "per tree, CPU ms (min and median of %u for SDN-optimal)\n\n",
	       argv[0], reps, (unsigned long long)seed, enum_max, reps);
	printf("| tree | hosts | flows | algorithm | CPU ms | median | L_D |\n");
	printf("|---|---|---|---|---|---|---|\n");
	if (optind < argc) {
		for (; optind < argc; optind++)
			if (run(argv[optind], reps, seed, enum_max))
				rc = 1;
	} else {
		for (i = 0; i < sizeof(default_runs) / sizeof(default_runs[0]);
		     i++)
			if (run(default_runs[i], reps, seed, enum_max))
				rc = 1;
	}
	return rc;
}
