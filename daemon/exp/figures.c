// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Statistics across runs and the paired gains (figures.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "figures.h"

/*
 * The pairs weighed, S over O, in the order the script's summary has
 * printed them: DARD over ECMP, switch ECMP and pVLB, the paper's mode
 * over the same, DARD over the paper's mode and over elephant counts,
 * then each controller's algorithm over ECMP and both DARDs over it.
 */
static const struct {
	const char *s, *o;
} pairs[] = {
	{"dard", "ecmp"},
	{"dard", "switch-ecmp"},
	{"dard", "pvlb"},
	{"dard-paper", "ecmp"},
	{"dard-paper", "switch-ecmp"},
	{"dard-paper", "pvlb"},
	{"dard", "dard-paper"},
	{"dard", "dard-count"},
	{"sdn-greedy", "ecmp"},
	{"dard", "sdn-greedy"},
	{"dard-paper", "sdn-greedy"},
	{"sdn-optimal", "ecmp"},
	{"dard", "sdn-optimal"},
	{"dard-paper", "sdn-optimal"},
	{"sdn-adaptive", "ecmp"},
	{"dard", "sdn-adaptive"},
	{"dard-paper", "sdn-adaptive"},
};

enum { NPAIRS = sizeof(pairs) / sizeof(pairs[0]) };

double exp_cell_ratio(const struct exp_cell *c)
{
	return isfinite(c->avg) && isfinite(c->model) && c->model > 0
		       ? c->avg / c->model
		       : NAN;
}

/* Scheduler s's averages across the runs, and the model's beside. */
static void sched_stats(struct exp *e, unsigned s, double *x, double *m,
			double *b)
{
	struct exp_sstat *ss = &e->ss[s];
	size_t n = 0, nm = 0, nb = 0, r;
	double tsum = 0;

	for (r = 0; r < e->nruns; r++) {
		const struct exp_cell *c = &e->run[r].cell[s];

		if (!isfinite(c->avg))
			continue;
		x[n++] = c->avg;
		if (isfinite(c->model)) {
			tsum += c->avg;
			m[nm++] = c->model;
		}
		if (isfinite(c->bound))
			b[nb++] = c->bound;
	}
	dard_ci95(x, n, &ss->ci);
	ss->min = ss->max = NAN;
	for (r = 0; r < n; r++) {
		ss->min = r ? fmin(ss->min, x[r]) : x[r];
		ss->max = r ? fmax(ss->max, x[r]) : x[r];
	}
	ss->model_n = nm;
	ss->model = dard_mean(m, nm);
	ss->ratio = nm && ss->model > 0 ? tsum / nm / ss->model : NAN;
	ss->bound_n = nb;
	ss->bound = dard_mean(b, nb);
}

/*
 * The model's gain of s over o on the testbed's pairs, and the testbed's
 * minus the model's pair by pair (mg, dg: room for e->nruns).
 */
static void model_gain(const struct exp *e, struct exp_gain *g, double *mg,
		       double *dg)
{
	struct dard_ci mci;
	size_t r, n = 0;

	for (r = 0; r < e->nruns; r++) {
		const struct exp_cell *s = &e->run[r].cell[g->s];
		const struct exp_cell *o = &e->run[r].cell[g->o];

		if (!isfinite(s->avg) || !isfinite(o->avg) || !(o->avg > 0) ||
		    !isfinite(s->model) || !isfinite(o->model) ||
		    !(o->model > 0))
			continue;
		mg[n] = dard_gain(s->model, o->model);
		dg[n] = dard_gain(s->avg, o->avg) - mg[n];
		n++;
	}
	dard_ci95(mg, n, &mci);
	g->model_n = n;
	g->model = n ? mci.mean : NAN;
	g->model_half = mci.half;
	dard_ci95(dg, n, &g->diff);
}

int exp_figures(struct exp *e)
{
	size_t room = e->nruns ? e->nruns : 1, r;
	double *x = calloc(room, sizeof(*x)), *m = calloc(room, sizeof(*m));
	double *b = calloc(room, sizeof(*b)), *sa = calloc(room, sizeof(*sa));
	double *oa = calloc(room, sizeof(*oa));
	int ret = !x || !m || !b || !sa || !oa ? -ENOMEM : 0;
	unsigned s, p;
	int si, oi;

	for (s = 0; !ret && s < e->nsched; s++)
		sched_stats(e, s, x, m, b);
	e->ngains = 0;
	for (p = 0; !ret && p < NPAIRS && e->ngains < EXP_GAIN_MAX; p++) {
		struct exp_gain *g = &e->gain[e->ngains];

		si = exp_sched_find(e, pairs[p].s);
		oi = exp_sched_find(e, pairs[p].o);
		/* Both ran: each has an average somewhere. */
		if (si < 0 || oi < 0 || !e->ss[si].ci.n || !e->ss[oi].ci.n)
			continue;
		g->s = si;
		g->o = oi;
		for (r = 0; r < e->nruns; r++) {
			sa[r] = e->run[r].cell[si].avg;
			oa[r] = e->run[r].cell[oi].avg;
		}
		dard_gain_ci95(sa, oa, e->nruns, &g->ci);
		model_gain(e, g, x, m);
		e->ngains++;
	}
	free(x);
	free(m);
	free(b);
	free(sa);
	free(oa);
	return ret;
}

double exp_gain_of_model(const struct exp_gain *g)
{
	return g->model > 0 ? g->ci.mean / g->model : NAN;
}

const char *exp_gain_model_verdict(const struct exp_gain *g)
{
	if (!g->diff.n)
		return "no model";
	if (g->diff.n == 1)
		return "one pair";
	return dard_ci_excludes_zero(&g->diff) ? "differs" : "agrees";
}

const char *exp_gain_verdict(const struct exp_gain *g)
{
	if (!g->ci.n)
		return "no run has both";
	if (g->ci.n == 1)
		return "one run: no interval";
	return dard_ci_excludes_zero(&g->ci) ? "significant"
					     : "not significant";
}
