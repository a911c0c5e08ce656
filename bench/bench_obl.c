// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-bench-obl: the size of the hose-model oblivious-routing LP
 * (daemon/algo/oblivious.c) and the CPU time GLPK takes on it, per tree,
 * intact and with its first aggregation-core link down, beside the
 * worst-case utilisation of ECMP as the datapaths hash new flows and of
 * uniform weights over the live paths. Trees past the column limit get
 * the fallback, whose time is the path walk alone. Prints a markdown
 * table.
 *
 *   dard-bench-obl [-m MAX_VARS] [-t MS] [SPEC...]
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "addr.h"
#include "clock.h"
#include "gen.h"
#include "num.h"
#include "oblivious.h"
#include "path.h"

static const char *const default_runs[] = {
	"fattree:4",  "fattree:6", "fattree:6,2", "clos:4,4,4",
	"clos:8,8,4", "fattree:8", "fattree:16",  "3tier",
};

/* The first link between the two top levels: one core-aggregation. */
static uint32_t top_link(const struct dard_topo *t)
{
	uint32_t l;

	for (l = 0; l < t->nlinks; l++)
		if (t->node[t->link[l].up].level == 0)
			return l;
	return DARD_NONE;
}

static void fmt_util(char *buf, size_t n, double u)
{
	if (isnan(u))
		snprintf(buf, n, "-");
	else
		snprintf(buf, n, "%.3f", u);
}

/* The limits: LP columns, GLPK's milliseconds. */
struct limits {
	uint64_t vars;
	uint32_t ms;
};

static int one(const struct dard_topo *t, struct dard_pathctx *pc,
	       const uint8_t *down, const struct limits *lim)
{
	char err[DARD_ERR_MAX], lp[16], ecmp[16], live[16], nrows[24];
	struct dard_obl *o = NULL;
	double t0, ms, u = NAN;
	size_t rows, cols;

	t0 = dard_clock_ms(CLOCK_PROCESS_CPUTIME_ID);
	if (dard_obl_solve_n(t, pc, down, down ? t->nlinks : 0, lim->vars,
			     lim->ms, &o, err)) {
		fprintf(stderr, "%s: %s\n", t->name, err);
		return -1;
	}
	ms = dard_clock_ms(CLOCK_PROCESS_CPUTIME_ID) - t0;
	dard_obl_size(o, &rows, &cols);
	fmt_util(lp, sizeof(lp), dard_obl_util(o));
	/* Each link's worst case is its own small LP: only where the big
	 * one was solved, to keep the run short. */
	if (!dard_obl_exact(o) ||
	    dard_obl_eval(t, pc, down, dard_obl_ecmp_cb, NULL, &u, err))
		u = NAN;
	fmt_util(ecmp, sizeof(ecmp), u);
	if (!dard_obl_exact(o) ||
	    dard_obl_eval(t, pc, down, dard_obl_live_cb, NULL, &u, err))
		u = NAN;
	fmt_util(live, sizeof(live), u);
	snprintf(nrows, sizeof(nrows), dard_obl_exact(o) ? "%zu" : "-", rows);
	printf("| %s | %s | %u | %s%zu | %s | %s | %.2f | %s | %s | %s |\n",
	       t->name, down ? "1 core link" : "none", t->nhosts,
	       strstr(dard_obl_why(o), "columns") ? "> " : "", cols, nrows,
	       dard_obl_exact(o) ? "LP" : "fallback", ms / 1e3, lp, ecmp, live);
	fflush(stdout); /* each row when known: fattree:8 takes a while */
	dard_obl_free(o);
	return 0;
}

static int run(const char *spec, const struct limits *lim)
{
	char err[DARD_ERR_MAX];
	struct dard_plan_opts o;
	struct dard_topo *t;
	struct dard_plan *p = NULL;
	struct dard_pathctx *pc = NULL;
	uint8_t *down = NULL;
	uint32_t l;
	int ret = -1;

	t = dard_gen_spec(spec, 1000, err);
	if (!t) {
		fprintf(stderr, "%s\n", err);
		return -1;
	}
	dard_plan_opts_init(&o);
	p = dard_plan_new(t, &o, err);
	if (!p) {
		fprintf(stderr, "%s: %s\n", spec, err);
		goto out;
	}
	pc = dard_pathctx_new(t, p);
	down = calloc(t->nlinks, 1);
	if (!pc || !down) {
		fprintf(stderr, "%s: out of memory\n", spec);
		goto out;
	}
	if (one(t, pc, NULL, lim))
		goto out;
	l = top_link(t);
	if (l != DARD_NONE) {
		down[l] = 1;
		if (one(t, pc, down, lim))
			goto out;
	}
	ret = 0;
out:
	free(down);
	dard_pathctx_free(pc);
	dard_plan_free(p);
	dard_topo_free(t);
	return ret;
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"Usage: %s [-m MAX_VARS] [-t MS] [SPEC...]\n"
		"Where: MAX_VARS := the most LP columns solved (default %d)\n"
		"       MS := GLPK's time limit, wall clock (default %d)\n",
		prog, DARD_OBL_VARS_DEFAULT, DARD_OBL_TIME_DEFAULT);
}

int main(int argc, char **argv)
{
	struct limits lim = {DARD_OBL_VARS_DEFAULT, DARD_OBL_TIME_DEFAULT};
	int c, i, rc = 0;

	while ((c = getopt(argc, argv, "m:t:h")) != -1) {
		switch (c) {
		case 'm':
			if (dard_parse_u64(optarg, 1, SIZE_MAX, &lim.vars)) {
				fprintf(stderr, "Invalid column limit: `%s'\n",
					optarg);
				return 2;
			}
			break;
		case 't':
			if (dard_parse_u32(optarg, 1, INT32_MAX, &lim.ms)) {
				fprintf(stderr, "Invalid time limit: `%s'\n",
					optarg);
				return 2;
			}
			break;
		default:
			usage(argv[0]);
			return c == 'h' ? 0 : 2;
		}
	}
	printf("| tree | down | hosts | columns | rows | solved by | CPU s | "
	       "LP util | ECMP util | live util |\n"
	       "|---|---|---|---|---|---|---|---|---|---|\n");
	if (optind < argc) {
		for (i = optind; i < argc; i++)
			rc |= run(argv[i], &lim) ? 1 : 0;
	} else {
		for (i = 0;
		     i < (int)(sizeof(default_runs) / sizeof(default_runs[0]));
		     i++)
			rc |= run(default_runs[i], &lim) ? 1 : 0;
	}
	return rc;
}
