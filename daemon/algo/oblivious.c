// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The hose-model oblivious-routing LP (Documentation/routing.md,
 * "Oblivious routing"): minimise U over path weights w_{a,b,p} and, per
 * directed switch link e, dual prices pi_e(a), lambda_e(b) >= 0 with
 *
 *   sum_p w_{a,b,p} = 1                          every ToR pair (a, b)
 *   pi_e(a) + lambda_e(b) >= sum_{p through e} w_{a,b,p}
 *                                                every (e, a, b) it joins
 *   sum_a H_a pi_e(a) + sum_b H_b lambda_e(b) <= U c_e     every link e
 *
 * The last two say, by LP duality, that the worst hose demand loads e by
 * at most U c_e. Prices exist only for the (e, a) and (e, b) some pair's
 * path joins: the others would sit at 0.
 */
#include <errno.h>
#include <glpk.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "oblivious_int.h"

enum obl_kind { OBL_NONE, OBL_UNIFORM, OBL_POOL };

struct dard_obl {
	struct obl_tors tr;
	uint8_t *kind;	 /* per ToR pair (a * ntor + b): enum obl_kind */
	uint16_t *npath; /* per ToR pair */
	size_t *off;	 /* per ToR pair: OBL_POOL's weights in pool */
	double *pool;
	size_t npool, pool_cap;
	double *uni[DARD_PATHS_MAX + 1]; /* OBL_UNIFORM's, by path count */
	double util;
	int exact;
	char why[160];
	size_t rows, cols;
	uint32_t unreach;
};

/* The LP under construction. */
struct lp {
	struct dard_obl *o;
	glp_prob *lp;
	int *ia, *ja;
	double *ar;
	size_t nnz, cap;
	int *pi, *lam; /* per (directed link, ToR): column, 0 if none */
	int *wcol;     /* per ToR pair: its first weight's column */
	struct obl_hop *hop;
	size_t max_vars;
	unsigned time_ms;
	double scale;
};

static int pool_add(struct dard_obl *o, size_t pair, unsigned n)
{
	if (o->npool + n > o->pool_cap) {
		size_t cap = o->pool_cap ? 2 * o->pool_cap : 1024;
		double *p;

		while (cap < o->npool + n)
			cap *= 2;
		p = realloc(o->pool, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		o->pool = p;
		o->pool_cap = cap;
	}
	o->kind[pair] = OBL_POOL;
	o->off[pair] = o->npool;
	o->npool += n;
	return 0;
}

/* Pass 1: every pair's paths; the fallback's weights (uniform on live). */
static int fallback_pair(struct obl_pair *pp, void *arg)
{
	struct dard_obl *o = arg;
	size_t pair = (size_t)pp->a * o->tr.n + pp->b;
	unsigned i;
	double *w;

	o->npath[pair] = pp->n;
	if (!pp->nlive) {
		o->kind[pair] = OBL_NONE;
		o->unreach++;
		return 0;
	}
	o->cols += pp->nlive;
	if (pp->nlive == pp->n) {
		if (!o->uni[pp->n]) {
			o->uni[pp->n] = malloc(pp->n * sizeof(double));
			if (!o->uni[pp->n])
				return -ENOMEM;
			for (i = 0; i < pp->n; i++)
				o->uni[pp->n][i] = 1.0 / pp->n;
		}
		o->kind[pair] = OBL_UNIFORM;
		return 0;
	}
	if (pool_add(o, pair, pp->n))
		return -ENOMEM;
	w = o->pool + o->off[pair];
	for (i = 0; i < pp->n; i++)
		w[i] = pp->dead[i] ? 0 : 1.0 / pp->nlive;
	return 0;
}

static int nz(struct lp *l, int row, int col, double v)
{
	if (l->nnz + 1 >= l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 4096;
		int *ia = realloc(l->ia, cap * sizeof(*ia)), *ja;
		double *ar;

		if (!ia)
			return -ENOMEM;
		l->ia = ia;
		ja = realloc(l->ja, cap * sizeof(*ja));
		if (!ja)
			return -ENOMEM;
		l->ja = ja;
		ar = realloc(l->ar, cap * sizeof(*ar));
		if (!ar)
			return -ENOMEM;
		l->ar = ar;
		l->cap = cap;
	}
	l->nnz++; /* GLPK's arrays are 1-based */
	l->ia[l->nnz] = row;
	l->ja[l->nnz] = col;
	l->ar[l->nnz] = v;
	return 0;
}

/* A new column: -E2BIG past the limit, so that the caller falls back. */
static int add_col(struct lp *l, int type, double lb, double ub)
{
	int c;

	if (++l->o->cols > l->max_vars)
		return -E2BIG;
	c = glp_add_cols(l->lp, 1);
	glp_set_col_bnds(l->lp, c, type, lb, ub);
	return c;
}

static int add_row(struct lp *l, int type, double b)
{
	int r = glp_add_rows(l->lp, 1);

	glp_set_row_bnds(l->lp, r, type, b, b);
	l->o->rows++;
	return r;
}

/* A price column for (e, ToR), made on first use. */
static int price(struct lp *l, int *tab, uint32_t dl, uint32_t tor)
{
	int *c = &tab[(size_t)dl * l->o->tr.n + tor];

	if (!*c)
		*c = add_col(l, GLP_LO, 0, 0);
	return *c; /* -E2BIG stays: the caller stops at once */
}

/* Pass 2: a pair's weight columns, its sum row and its (e, a, b) rows. */
static int lp_pair(struct obl_pair *pp, void *arg)
{
	struct lp *l = arg;
	size_t pair = (size_t)pp->a * l->o->tr.n + pp->b, nh, i, j;
	int col[DARD_PATHS_MAX], row, c, lc, ret = 0;
	unsigned p;

	if (!pp->nlive)
		return 0;
	row = add_row(l, GLP_FX, 1);
	l->wcol[pair] = 0;
	for (p = 0; p < pp->n && !ret; p++) {
		if (pp->dead[p])
			continue;
		col[p] = add_col(l, GLP_DB, 0, 1);
		if (col[p] < 0)
			return col[p];
		l->wcol[pair] = l->wcol[pair] ? l->wcol[pair] : col[p];
		ret = nz(l, row, col[p], 1);
	}
	nh = obl_hops(pp, NULL, l->hop);
	for (i = 0; i < nh && !ret; i = j) {
		uint32_t dl = l->hop[i].dl;

		c = price(l, l->pi, dl, pp->a);
		lc = price(l, l->lam, dl, pp->b);
		if (c < 0 || lc < 0)
			return -E2BIG;
		row = add_row(l, GLP_LO, 0);
		ret = nz(l, row, c, 1) | nz(l, row, lc, 1);
		for (j = i; j < nh && l->hop[j].dl == dl; j++)
			ret |= nz(l, row, col[l->hop[j].path], -1);
	}
	return ret ? -ENOMEM : 0;
}

/* Every link with a price: its worst load within U times its capacity. */
static int lp_caps(struct lp *l, const struct dard_topo *t)
{
	const struct obl_tors *tr = &l->o->tr;
	uint32_t dl, a;
	int row, ret = 0;

	for (dl = 0; dl < 2 * t->nlinks; dl++) {
		int *pi = &l->pi[(size_t)dl * tr->n];
		int *lam = &l->lam[(size_t)dl * tr->n];

		row = 0;
		for (a = 0; a < tr->n; a++) {
			if (!pi[a] && !lam[a])
				continue;
			if (!row) {
				row = add_row(l, GLP_UP, 0);
				ret |= nz(l, row, 1,
					  -(double)t->link[dl / 2].mbps /
						  l->scale);
			}
			if (pi[a] && tr->h[a] > 0)
				ret |= nz(l, row, pi[a], tr->h[a] / l->scale);
			if (lam[a] && tr->h[a] > 0)
				ret |= nz(l, row, lam[a], tr->h[a] / l->scale);
		}
	}
	return ret ? -ENOMEM : 0;
}

/* The optimum's weights into the pool, tiny negatives and drift cleaned. */
static int lp_weights(struct lp *l)
{
	struct dard_obl *o = l->o;
	size_t pair, npair = (size_t)o->tr.n * o->tr.n;
	unsigned i, k, n;

	for (pair = 0; pair < npair; pair++) {
		double *w, sum = 0;

		if (o->kind[pair] == OBL_NONE || !(n = o->npath[pair]))
			continue;
		/* Which paths were live: the fallback pass knew. */
		if (o->kind[pair] == OBL_UNIFORM) {
			if (pool_add(o, pair, n))
				return -ENOMEM;
			for (i = 0; i < n; i++)
				o->pool[o->off[pair] + i] = 1;
		}
		w = o->pool + o->off[pair];
		for (i = k = 0; i < n; i++) {
			if (w[i] == 0)
				continue;
			w[i] = glp_get_col_prim(l->lp, l->wcol[pair] + k++);
			w[i] = w[i] > 1e-9 ? w[i] : 0;
			sum += w[i];
		}
		for (i = 0; i < n; i++)
			w[i] /= sum;
	}
	return 0;
}

static int lp_solve(struct lp *l)
{
	glp_smcp parm;
	int ret;

	glp_load_matrix(l->lp, (int)l->nnz, l->ia, l->ja, l->ar);
	glp_set_obj_dir(l->lp, GLP_MIN);
	glp_set_obj_coef(l->lp, 1, 1);
	glp_init_smcp(&parm);
	parm.msg_lev = GLP_MSG_OFF;
	parm.presolve = GLP_ON;
	/* Dual simplex: the primal took 78 s on fattree:6, this 3 s. */
	parm.meth = GLP_DUALP;
	parm.tm_lim = l->time_ms < INT_MAX ? (int)l->time_ms : INT_MAX;
	ret = glp_simplex(l->lp, &parm);
	if (ret == GLP_ETMLIM) {
		snprintf(l->o->why, sizeof(l->o->why),
			 "GLPK took longer than %u ms", l->time_ms);
		return -EIO;
	}
	if (ret || glp_get_status(l->lp) != GLP_OPT) {
		snprintf(l->o->why, sizeof(l->o->why),
			 "GLPK found no optimum (simplex %d, status %d)", ret,
			 glp_get_status(l->lp));
		return -EIO;
	}
	l->o->util = glp_get_obj_val(l->lp);
	l->o->exact = 1;
	return lp_weights(l);
}

static void lp_free(struct lp *l)
{
	if (l->lp)
		glp_delete_prob(l->lp);
	free(l->ia);
	free(l->ja);
	free(l->ar);
	free(l->pi);
	free(l->lam);
	free(l->wcol);
	free(l->hop);
}

/*
 * Builds and solves the LP; 0 with o->exact set when it solved, 0 with
 * o->why set when it is too large or GLPK failed, -ENOMEM.
 */
static int lp_run(struct dard_obl *o, const struct dard_topo *t,
		  struct dard_pathctx *pc, const uint8_t *down,
		  struct obl_pair *pp, size_t max_vars, unsigned time_ms,
		  char *err)
{
	size_t nprice = 2 * (size_t)t->nlinks * o->tr.n;
	struct lp l = {.o = o,
		       .max_vars = max_vars,
		       .time_ms = time_ms,
		       .scale = obl_scale(t)};
	int ret;

	o->rows = 0;
	o->cols = 1;
	l.pi = calloc(nprice ? nprice : 1, sizeof(*l.pi));
	l.lam = calloc(nprice ? nprice : 1, sizeof(*l.lam));
	l.wcol = calloc((size_t)o->tr.n * o->tr.n + 1, sizeof(*l.wcol));
	l.hop = malloc(DARD_PATHS_MAX * 2 * DARD_LEVEL_MAX * sizeof(*l.hop));
	l.lp = glp_create_prob();
	if (!l.pi || !l.lam || !l.wcol || !l.hop || !l.lp) {
		ret = -ENOMEM;
		goto out;
	}
	glp_add_cols(l.lp, 1); /* U */
	glp_set_col_bnds(l.lp, 1, GLP_LO, 0, 0);
	ret = obl_each_pair(t, pc, down, &o->tr, pp, lp_pair, &l, err);
	if (!ret)
		ret = lp_caps(&l, t);
	if (ret == -E2BIG) {
		snprintf(o->why, sizeof(o->why),
			 "the LP needs more than %zu columns", max_vars);
		ret = 0;
		goto out;
	}
	if (!ret)
		ret = lp_solve(&l);
	if (ret == -EIO)
		ret = 0;
out:
	lp_free(&l);
	return ret == -ENOMEM ? dard_fail(err, ret, "out of memory") : ret;
}

static struct dard_obl *obl_new(const struct dard_topo *t, const uint8_t *down,
				char *err)
{
	struct dard_obl *o = calloc(1, sizeof(*o));
	size_t npair;

	if (!o) {
		dard_fail(err, -ENOMEM, "out of memory");
		return NULL;
	}
	if (obl_tors_init(&o->tr, t, down, err)) {
		free(o);
		return NULL;
	}
	npair = (size_t)o->tr.n * o->tr.n + 1;
	o->kind = calloc(npair, sizeof(*o->kind));
	o->npath = calloc(npair, sizeof(*o->npath));
	o->off = calloc(npair, sizeof(*o->off));
	o->util = NAN;
	if (!o->kind || !o->npath || !o->off) {
		dard_obl_free(o);
		dard_fail(err, -ENOMEM, "out of memory");
		return NULL;
	}
	return o;
}

int dard_obl_solve_n(const struct dard_topo *t, struct dard_pathctx *pc,
		     const uint8_t *down, size_t ndown, size_t max_vars,
		     unsigned time_ms, struct dard_obl **out, char *err)
{
	struct obl_pair *pp = NULL;
	struct dard_obl *o;
	int ret;

	if (!out)
		return dard_fail(err, -EINVAL, "nowhere to put the result");
	*out = NULL;
	ret = obl_check(t, pc, down, ndown, err);
	if (ret)
		return ret;
	max_vars = max_vars ? max_vars : DARD_OBL_VARS_DEFAULT;
	time_ms = time_ms ? time_ms : DARD_OBL_TIME_DEFAULT;
	o = obl_new(t, down, err);
	pp = malloc(sizeof(*pp));
	if (!o || !pp) {
		ret = o ? dard_fail(err, -ENOMEM, "out of memory") : -ENOMEM;
		goto fail;
	}
	o->cols = 1;
	ret = obl_each_pair(t, pc, down, &o->tr, pp, fallback_pair, o, err);
	if (ret == -ENOMEM)
		dard_fail(err, ret, "out of memory");
	if (ret)
		goto fail;
	if (o->cols == 1) { /* no pair to route: nothing can load a link */
		o->util = 0;
		o->exact = 1;
	} else if (o->cols > max_vars) {
		snprintf(o->why, sizeof(o->why),
			 "the LP needs more than %zu columns (%zu weights)",
			 max_vars, o->cols - 1);
	} else {
		ret = lp_run(o, t, pc, down, pp, max_vars, time_ms, err);
		if (ret)
			goto fail;
	}
	free(pp);
	*out = o;
	return 0;
fail:
	free(pp);
	dard_obl_free(o);
	return ret;
}

int dard_obl_solve(const struct dard_topo *t, struct dard_pathctx *pc,
		   const uint8_t *down, size_t max_vars, struct dard_obl **out,
		   char *err)
{
	return dard_obl_solve_n(t, pc, down, t ? t->nlinks : 0, max_vars, 0,
				out, err);
}

void dard_obl_free(struct dard_obl *o)
{
	unsigned n;

	if (!o)
		return;
	obl_tors_free(&o->tr);
	free(o->kind);
	free(o->npath);
	free(o->off);
	free(o->pool);
	for (n = 0; n <= DARD_PATHS_MAX; n++)
		free(o->uni[n]);
	free(o);
}

double dard_obl_util(const struct dard_obl *o)
{
	return o->util;
}

int dard_obl_exact(const struct dard_obl *o)
{
	return o->exact;
}

const char *dard_obl_why(const struct dard_obl *o)
{
	return o->exact ? "" : o->why;
}

void dard_obl_size(const struct dard_obl *o, size_t *rows, size_t *cols)
{
	if (rows)
		*rows = o->rows;
	if (cols)
		*cols = o->cols;
}

uint32_t dard_obl_unreachable(const struct dard_obl *o)
{
	return o->unreach;
}

const double *dard_obl_weights(const struct dard_obl *o, uint32_t src_tor,
			       uint32_t dst_tor, unsigned *n)
{
	uint32_t a, b;
	size_t pair;

	if (!o || src_tor >= o->tr.nnodes || dst_tor >= o->tr.nnodes)
		return NULL;
	a = o->tr.idx[src_tor];
	b = o->tr.idx[dst_tor];
	if (a == DARD_NONE || b == DARD_NONE || a == b)
		return NULL;
	pair = (size_t)a * o->tr.n + b;
	if (n)
		*n = o->npath[pair];
	switch (o->kind[pair]) {
	case OBL_UNIFORM:
		return o->uni[o->npath[pair]];
	case OBL_POOL:
		return o->pool + o->off[pair];
	default:
		return NULL;
	}
}
