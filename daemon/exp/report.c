// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-exp report (report.h): the text report, a table per section,
 * whitespace-separated columns under a fixed header line, `-' for a
 * figure that cannot be had, free text only in the last column
 * (Documentation/experiments.md, "Fidelity, statistics and the model",
 * has the layout).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "figures.h"
#include "jsonout.h"
#include "opts.h"
#include "report.h"
#include "stdopts.h"
#include "thresholds.h"

/* A figure in a column of width w, `-' when there is none. */
static void num(FILE *f, int w, int prec, double v)
{
	if (isfinite(v))
		fprintf(f, " %*.*f", w, prec, v);
	else
		fprintf(f, " %*s", w, "-");
}

static const char *faith_word(const struct exp_verdict *v)
{
	switch (exp_faith(v)) {
	case EXP_FAITHFUL:
		return "faithful";
	case EXP_UNFAITHFUL:
		return "not-faithful";
	default:
		return "not-judged";
	}
}

/* `faithful', `not judged', or `not faithful: REASON; REASON'. */
static void verdict_text(const struct exp_verdict *v, FILE *f)
{
	unsigned i;

	if (exp_faith(v) != EXP_UNFAITHFUL) {
		fputs(exp_faith(v) == EXP_FAITHFUL ? "faithful" : "not judged",
		      f);
		return;
	}
	fputs("not faithful: ", f);
	for (i = 0; i < v->nreasons; i++)
		fprintf(f, "%s%s", i ? "; " : "", v->reason[i].text);
}

static void print_head(const struct exp *e, FILE *f)
{
	unsigned i;

	if (exp_faith(&e->calib.v) == EXP_UNFAITHFUL) {
		fputs("warning: the calibration is not faithful: ", f);
		for (i = 0; i < e->calib.v.nreasons; i++)
			fprintf(f, "%s%s", i ? "; " : "",
				e->calib.v.reason[i].text);
		fputc('\n', f);
	}
	if (e->meta.loadavg > EXP_LOADAVG_BUSY)
		fprintf(f,
			"warning: the machine was busy before the experiment "
			"(load average %g)\n",
			e->meta.loadavg);
	for (i = 0; i < e->nnotes; i++)
		fprintf(f, "note: %s\n", e->note[i]);
}

static void print_experiment(const struct exp *e, FILE *f)
{
	size_t i;

	fprintf(f, "\n== experiment\n%-12s %s\n", "key", "value");
	fprintf(f, "%-12s %s\n", "dir", e->dir);
	fprintf(f, "%-12s %s\n", "layout", e->single ? "one-run" : "runs");
	for (i = 0; i < e->meta.kv.n; i++)
		fprintf(f, "%-12s %s\n", e->meta.kv.key[i], e->meta.kv.val[i]);
}

static void print_load(const struct exp *e, FILE *f)
{
	unsigned r;

	fprintf(f, "\n== load\n%-12s %8s %6s\n", "run", "samples", "idle");
	if (e->calib.have) {
		fprintf(f, "%-12s %8u", "calibration", e->calib.idle_n);
		num(f, 6, 3, e->calib.idle);
		fputc('\n', f);
	}
	for (r = 0; r < e->nruns; r++) {
		fprintf(f, "%-12u %8u", e->run[r].num, e->run[r].idle_n);
		num(f, 6, 3, e->run[r].idle);
		fputc('\n', f);
	}
}

static void print_calib(const struct exp *e, FILE *f)
{
	const struct exp_calib *c = &e->calib;

	fprintf(f, "\n== calibration\n%5s %5s %9s %7s %-8s %-8s %12s\n",
		"flows", "below", "want_mbps", "slowest", "src", "dst",
		"slowest_mbps");
	if (!c->have)
		return;
	fprintf(f, "%5u %5u", c->flows, c->below);
	num(f, 9, 2, c->want);
	if (c->flows)
		fprintf(f, " %7u %-8s %-8s", c->slowest, c->slowest_src,
			c->slowest_dst);
	else
		fprintf(f, " %7s %-8s %-8s", "-", "-", "-");
	num(f, 12, 2, c->flows ? c->slowest_mbps : NAN);
	fputc('\n', f);
}

static void print_runs(const struct exp *e, FILE *f)
{
	const struct exp_cell *c;
	unsigned r, s;

	fprintf(f,
		"\n== runs\n%-4s %-6s %-13s %5s %6s %8s %8s %8s %6s %6s %s\n",
		"run", "seed", "sched", "flows", "failed", "avg_s", "model_s",
		"bound_s", "ratio", "idle", "verdict");
	for (r = 0; r < e->nruns; r++)
		for (s = 0; s < e->nsched; s++) {
			c = &e->run[r].cell[s];
			if (!c->present)
				continue;
			fprintf(f, "%-4u %-6s %-13s %5u %6u", e->run[r].num,
				e->run[r].seed[0] ? e->run[r].seed : "-",
				e->sched[s], c->flows, c->failed);
			num(f, 8, 3, c->avg);
			num(f, 8, 3, c->model);
			num(f, 8, 3, c->bound);
			num(f, 6, 3, exp_cell_ratio(c));
			num(f, 6, 3, c->idle);
			fprintf(f, " %s\n", faith_word(&c->v));
		}
}

static void print_fidelity(const struct exp *e, FILE *f)
{
	unsigned r, s;

	fprintf(f, "\n== fidelity\n%-12s %-13s %s\n", "run", "sched",
		"verdict");
	if (e->calib.have) {
		fprintf(f, "%-12s %-13s ", "calibration", "-");
		verdict_text(&e->calib.v, f);
		fputc('\n', f);
	}
	for (r = 0; r < e->nruns; r++)
		for (s = 0; s < e->nsched; s++) {
			if (!e->run[r].cell[s].present)
				continue;
			fprintf(f, "%-12u %-13s ", e->run[r].num, e->sched[s]);
			verdict_text(&e->run[r].cell[s].v, f);
			fputc('\n', f);
		}
}

static void print_skips(const char *run, const char *sched,
			const struct exp_verdict *v, FILE *f)
{
	unsigned i;

	for (i = 0; i < v->nskips; i++)
		fprintf(f, "%-12s %-13s %-12s %s\n", run, sched,
			v->skip[i].check, v->skip[i].why);
}

static void print_not_judged(const struct exp *e, FILE *f)
{
	char run[16];
	unsigned r, s;

	fprintf(f, "\n== not judged\n%-12s %-13s %-12s %s\n", "run", "sched",
		"check", "why");
	if (e->calib.have)
		print_skips("calibration", "-", &e->calib.v, f);
	for (r = 0; r < e->nruns; r++)
		for (s = 0; s < e->nsched; s++) {
			if (!e->run[r].cell[s].present)
				continue;
			snprintf(run, sizeof(run), "%u", e->run[r].num);
			print_skips(run, e->sched[s], &e->run[r].cell[s].v, f);
		}
}

static void print_scheds(const struct exp *e, FILE *f)
{
	const struct exp_sstat *ss;
	unsigned r, s;

	fprintf(f,
		"\n== schedulers\n%-13s %4s %8s %7s %7s %8s %8s %8s %6s %8s "
		"%s\n",
		"sched", "runs", "mean_s", "sd_s", "ci95_s", "min_s", "max_s",
		"model_s", "ratio", "bound_s", "ratios");
	for (s = 0; s < e->nsched; s++) {
		ss = &e->ss[s];
		fprintf(f, "%-13s %4zu", e->sched[s], ss->ci.n);
		num(f, 8, 3, ss->ci.mean);
		num(f, 7, 3, ss->ci.sd);
		num(f, 7, 3, ss->ci.half);
		num(f, 8, 3, ss->min);
		num(f, 8, 3, ss->max);
		num(f, 8, 3, ss->model);
		num(f, 6, 3, ss->ratio);
		num(f, 8, 3, ss->bound);
		fputc(' ', f);
		for (r = 0; r < e->nruns; r++) {
			double x = exp_cell_ratio(&e->run[r].cell[s]);

			if (isfinite(x))
				fprintf(f, "%s%.3f", r ? "," : "", x);
			else
				fprintf(f, "%s-", r ? "," : "");
		}
		fputc('\n', f);
	}
}

/*
 * Each gain on the testbed beside the model's for the same flows, both
 * with their intervals; of_model is the share of the model's gain the
 * testbed delivered, and model says whether the two agree within the
 * pairs' noise (exp_gain_model_verdict).
 */
static void print_gains(const struct exp *e, FILE *f)
{
	const struct exp_gain *g;
	unsigned i;

	fprintf(f, "\n== gains\n%-13s %-13s %5s %8s %8s %9s %8s %8s %-8s %s\n",
		"sched", "over", "pairs", "gain_pct", "ci95_pct", "model_pct",
		"mci95", "of_model", "model", "verdict");
	for (i = 0; i < e->ngains; i++) {
		g = &e->gain[i];
		fprintf(f, "%-13s %-13s %5zu", e->sched[g->s], e->sched[g->o],
			g->ci.n);
		num(f, 8, 2, 100 * g->ci.mean);
		num(f, 8, 2, 100 * g->ci.half);
		num(f, 9, 2, 100 * g->model);
		num(f, 8, 2, 100 * g->model_half);
		num(f, 8, 2, exp_gain_of_model(g));
		fprintf(f, " %-8s %s\n", exp_gain_model_verdict(g),
			exp_gain_verdict(g));
	}
}

void exp_print(const struct exp *e, FILE *f)
{
	print_head(e, f);
	print_experiment(e, f);
	print_load(e, f);
	print_calib(e, f);
	print_runs(e, f);
	print_fidelity(e, f);
	print_not_judged(e, f);
	print_scheds(e, f);
	print_gains(e, f);
}

int exp_report_cmd(int argc, char **argv, void (*usage)(FILE *))
{
	struct exp_report_args a;
	char err[EXP_ERR_MAX], json[PATH_MAX];
	struct exp *e;
	int ret;

	ret = exp_report_opts(argc, argv, &a, usage, err);
	if (ret != DARD_OPTS_RUN) {
		if (err[0])
			fprintf(stderr, "dard-exp: %s\n", err);
		return ret;
	}
	e = calloc(1, sizeof(*e));
	ret = e ? exp_load(e, a.dir, err)
		: exp_fail(err, -ENOMEM, "out of memory");
	if (!ret && exp_figures(e))
		ret = exp_fail(err, -ENOMEM, "out of memory");
	if (!ret && !a.json)
		ret = exp_path(json, a.dir, "summary.json", err);
	/* The JSON first: a report whose JSON cannot be had says only so. */
	if (!ret)
		ret = exp_json_write(e, a.json ? a.json : json, err);
	if (!ret)
		exp_print(e, stdout);
	if (e)
		exp_free(e);
	free(e);
	if (ret) {
		fprintf(stderr, "dard-exp: report: %s\n", err);
		return 1;
	}
	return 0;
}
