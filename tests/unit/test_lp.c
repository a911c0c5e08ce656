// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Max-min fair rates checked against linear programming with GLPK, the
 * way Nace et al. compute them for any network (the seed paper's GEN,
 * Figs. 3-4): maximise the common rate of the flows not yet fixed; then
 * every such flow that cannot exceed it while the others keep it is
 * fixed at it; repeat. Nothing here shares code with progressive filling.
 *
 * dard_maxmin() is checked on random flows with fixed paths; OPT on small
 * fat-trees against the multi-commodity LP, where each flow may split over
 * any paths at all, shortest or not.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <glpk.h>

#include "unit.h"
#include "maxmin.h"
#include "opt.h"

static void solve(glp_prob *lp)
{
	glp_smcp parm;

	glp_init_smcp(&parm);
	parm.msg_lev = GLP_MSG_OFF;
	if (glp_simplex(lp, &parm) || glp_get_status(lp) != GLP_OPT)
		fail_msg("GLPK: no optimum (status %d)", glp_get_status(lp));
}

/*
 * The LP holds the network's constraints, a rate column xcol[f] per flow,
 * a column alpha, and a row xrow[f] = x_f - alpha >= 0 per flow.
 */
static void lp_maxmin(glp_prob *lp, int alpha, const int *xcol, const int *xrow,
		      size_t n, double *rate)
{
	uint8_t *fixed = calloc(n, 1), *blocked = calloc(n, 1);
	size_t left = n, f;

	glp_set_obj_dir(lp, GLP_MAX);
	while (left) {
		double a;
		size_t now = 0;

		glp_set_col_bnds(lp, alpha, GLP_LO, 0, 0);
		glp_set_obj_coef(lp, alpha, 1);
		solve(lp);
		a = glp_get_obj_val(lp);
		glp_set_obj_coef(lp, alpha, 0);
		/* Everyone unfixed keeps a: can f alone get more? */
		glp_set_col_bnds(lp, alpha, GLP_FX, a * (1 - 1e-9),
				 a * (1 - 1e-9));
		for (f = 0; f < n; f++) {
			if (fixed[f])
				continue;
			glp_set_obj_coef(lp, xcol[f], 1);
			solve(lp);
			blocked[f] = glp_get_obj_val(lp) <= a + 1e-6 * (1 + a);
			glp_set_obj_coef(lp, xcol[f], 0);
		}
		for (f = 0; f < n; f++) {
			if (fixed[f] || !blocked[f])
				continue;
			fixed[f] = 1;
			rate[f] = a;
			glp_set_col_bnds(lp, xcol[f], GLP_FX, a, a);
			glp_set_row_bnds(lp, xrow[f], GLP_FR, 0, 0);
			left--;
			now++;
		}
		if (!now)
			fail_msg("LP: no flow blocked at %g", a);
	}
	free(fixed);
	free(blocked);
}

/* Sparse matrix entries, 1-based as GLPK wants them. */
struct mat {
	int *i, *j;
	double *v;
	int n, cap;
};

static void put(struct mat *m, int i, int j, double v)
{
	if (m->n + 1 >= m->cap) {
		m->cap = m->cap ? 2 * m->cap : 1024;
		m->i = realloc(m->i, m->cap * sizeof(*m->i));
		m->j = realloc(m->j, m->cap * sizeof(*m->j));
		m->v = realloc(m->v, m->cap * sizeof(*m->v));
		assert_true(m->i && m->j && m->v);
	}
	m->n++;
	m->i[m->n] = i;
	m->j[m->n] = j;
	m->v[m->n] = v;
}

static void load(glp_prob *lp, struct mat *m)
{
	glp_load_matrix(lp, m->n, m->i, m->j, m->v);
	free(m->i);
	free(m->j);
	free(m->v);
	memset(m, 0, sizeof(*m));
}

static void assert_close(const char *what, unsigned round, size_t f, double got,
			 double want)
{
	if (fabs(got - want) > 1e-6 * (1 + want))
		fail_msg("%s, round %u, flow %zu: %.9g, LP %.9g", what, round,
			 f, got, want);
}

/* Fixed paths: x_f summed over each link's flows within its capacity. */
static void test_maxmin_lp(void **state)
{
	enum { NL = 8, NF = 14 };
	uint32_t paths[NF][4];
	struct dard_mm_flow fl[NF];
	double cap[NL], r[NF], want[NF];
	int xcol[NF], xrow[NF];
	unsigned round, k;
	size_t f;

	(void)state;
	glp_term_out(GLP_OFF);
	srand(21);
	for (round = 0; round < 40; round++) {
		glp_prob *lp = glp_create_prob();
		struct mat m = {0};

		for (k = 0; k < NL; k++)
			cap[k] = 1 + rand() % 100;
		for (f = 0; f < NF; f++) {
			fl[f].links = paths[f];
			fl[f].nlinks = 1 + rand() % 4;
			for (k = 0; k < fl[f].nlinks; k++) {
				unsigned j;

				do {
					paths[f][k] = rand() % NL;
					for (j = 0; j < k &&
						    paths[f][j] != paths[f][k];
					     j++)
						;
				} while (j < k);
			}
		}
		assert_int_equal(dard_maxmin(cap, NL, fl, NF, r), 0);
		/* Rows: links, then x_f - alpha; columns: x_f, then alpha. */
		glp_add_rows(lp, NL + NF);
		glp_add_cols(lp, NF + 1);
		for (k = 0; k < NL; k++)
			glp_set_row_bnds(lp, k + 1, GLP_UP, 0, cap[k]);
		for (f = 0; f < NF; f++) {
			xcol[f] = f + 1;
			xrow[f] = NL + f + 1;
			glp_set_col_bnds(lp, xcol[f], GLP_LO, 0, 0);
			glp_set_row_bnds(lp, xrow[f], GLP_LO, 0, 0);
			put(&m, xrow[f], xcol[f], 1);
			put(&m, xrow[f], NF + 1, -1);
			for (k = 0; k < fl[f].nlinks; k++)
				put(&m, paths[f][k] + 1, xcol[f], 1);
		}
		load(lp, &m);
		lp_maxmin(lp, NF + 1, xcol, xrow, NF, want);
		for (f = 0; f < NF; f++)
			assert_close("dard_maxmin", round, f, r[f], want[f]);
		glp_delete_prob(lp);
	}
}

/*
 * Any routing, split at will: flow d sends y_{d,a} on each directed link
 * a, conserved at every node but its ends, where x_d leaves and arrives.
 */
static void mcf(const struct dard_topo *t, const struct dard_demand *d,
		size_t n, double *want)
{
	glp_prob *lp = glp_create_prob();
	int na = 2 * t->nlinks, nv = t->nnodes, *xcol = calloc(n, sizeof(int));
	int *xrow = calloc(n, sizeof(int)), alpha, a;
	struct mat m = {0};
	size_t f;

	/* Rows: conservation per (flow, node), capacity per arc, rates. */
	glp_add_rows(lp, n * nv + na + n);
	/* Columns: y per (flow, arc), then x per flow, then alpha. */
	glp_add_cols(lp, n * na + n + 1);
	alpha = n * na + n + 1;
	for (a = 0; a < na; a++)
		glp_set_row_bnds(lp, n * nv + a + 1, GLP_UP, 0,
				 t->link[a / 2].mbps);
	for (f = 0; f < n; f++) {
		int v;

		for (v = 0; v < nv; v++)
			glp_set_row_bnds(lp, f * nv + v + 1, GLP_FX, 0, 0);
		for (a = 0; a < na; a++) {
			const struct dard_link *l = &t->link[a / 2];
			/* Arc 2l climbs from l->down, 2l + 1 descends. */
			uint32_t from = a % 2 ? l->up : l->down;
			uint32_t to = a % 2 ? l->down : l->up;
			int col = f * na + a + 1;

			glp_set_col_bnds(lp, col, GLP_LO, 0, 0);
			put(&m, f * nv + from + 1, col, 1);
			put(&m, f * nv + to + 1, col, -1);
			put(&m, n * nv + a + 1, col, 1);
		}
		xcol[f] = n * na + f + 1;
		xrow[f] = n * nv + na + f + 1;
		glp_set_col_bnds(lp, xcol[f], GLP_LO, 0, 0);
		put(&m, f * nv + d[f].src + 1, xcol[f], -1);
		put(&m, f * nv + d[f].dst + 1, xcol[f], 1);
		glp_set_row_bnds(lp, xrow[f], GLP_LO, 0, 0);
		put(&m, xrow[f], xcol[f], 1);
		put(&m, xrow[f], alpha, -1);
	}
	load(lp, &m);
	lp_maxmin(lp, alpha, xcol, xrow, n, want);
	glp_delete_prob(lp);
	free(xcol);
	free(xrow);
}

static void opt_vs_mcf(const char *spec, unsigned rounds, size_t maxf)
{
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_demand *d = calloc(maxf, sizeof(*d));
	double *r = calloc(maxf, sizeof(*r)), *want = calloc(maxf, sizeof(*r));
	char err[DARD_ERR_MAX] = "";
	unsigned round;
	size_t n, f;
	uint32_t l;

	glp_term_out(GLP_OFF);
	unit_build(spec, NULL, 0, &t, &p);
	for (round = 0; round < rounds; round++) {
		/* Switch links slimmer than host links, per level. */
		uint32_t c[2] = {100 * (1 + rand() % 10),
				 100 * (1 + rand() % 10)};
		uint32_t hot = 1 + rand() % t->nhosts;
		struct dard_opt *o;

		for (l = 0; l < t->nlinks; l++) {
			unsigned lv = t->node[t->link[l].up].level;

			t->link[l].mbps = lv < 2 ? c[lv] : 1000;
		}
		n = 2 + rand() % (maxf - 1);
		for (f = 0; f < n; f++) {
			do {
				d[f].src = t->hosts[rand() % hot];
				d[f].dst = t->hosts[rand() % t->nhosts];
			} while (d[f].src == d[f].dst);
		}
		o = dard_opt_new(t, err);
		if (!o || dard_opt_rates(o, d, n, 2, r, NULL, err))
			fail_msg("%s: %s", spec, err);
		dard_opt_free(o);
		mcf(t, d, n, want);
		for (f = 0; f < n; f++)
			assert_close(spec, round, f, r[f], want[f]);
	}
	dard_plan_free(p);
	dard_topo_free(t);
	free(d);
	free(r);
	free(want);
}

static void test_opt_lp(void **state)
{
	(void)state;
	srand(22);
	opt_vs_mcf("fattree:4", 100, 14);
	opt_vs_mcf("fattree:6", 10, 24);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_maxmin_lp),
		cmocka_unit_test(test_opt_lp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
