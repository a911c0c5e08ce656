// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * SDN-optimal against an exact optimum: on small fat-trees, full and
 * tapered, GLPK's MIP solver picks one shortest path per flow to minimise
 * the largest directed link load. Its optimum must equal SDN-optimal's
 * L_D, be no more than SDN-greedy's and D-mod-k's, and no less than
 * dard_route_lower_bound(). Loads are counted here, from the paths'
 * switches, not with the library's dard_route_load().
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include <glpk.h>

#include "route.h"
#include "unit.h"

enum { MAX_PATHS = 64, HOPS = 2 * DARD_LEVEL_MAX + 1 };

struct fix {
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_pathctx *pc;
};

/* A path as directed links: link * 2 + (1 going down). */
static unsigned dlinks(const struct dard_topo *t, const struct dard_path *p,
		       uint32_t *dl)
{
	uint32_t prev = p->src, next;
	unsigned i, n = 0;

	for (i = 0; i <= p->nsw; i++, prev = next) {
		uint32_t li;

		next = i < p->nsw ? p->sw[i] : p->dst;
		li = dard_topo_link_between(t, prev, next);
		assert_int_not_equal(li, DARD_NONE);
		dl[n++] = li * 2 + (t->link[li].up == prev);
	}
	return n;
}

static uint32_t max_load(const struct dard_topo *t, const struct dard_path *p,
			 size_t n)
{
	uint32_t *load = calloc(2 * t->nlinks, sizeof(*load)), dl[HOPS], m = 0;
	size_t i;
	unsigned k, nd;

	assert_non_null(load);
	for (i = 0; i < n; i++) {
		nd = dlinks(t, &p[i], dl);
		for (k = 0; k < nd; k++)
			if (++load[dl[k]] > m)
				m = load[dl[k]];
	}
	free(load);
	return m;
}

struct cand {
	struct dard_path path[MAX_PATHS];
	unsigned n;
};

static int cand_cb(const struct dard_path *p, void *arg)
{
	struct cand *c = arg;

	assert_true(c->n < MAX_PATHS);
	c->path[c->n++] = *p;
	return 0;
}

/*
 * The least L for which every flow can take one of its shortest paths
 * (binary x) with every directed link's load at most L: one feasibility
 * MIP per L from 1 up. A max-load objective instead leaves GLPK proving
 * fractional bounds for minutes; here each L below the optimum is refuted
 * by its LP relaxation alone, and the first feasible L is the optimum.
 */
static uint32_t exact(struct fix *f, const struct dard_demand *d, size_t n)
{
	const struct dard_topo *t = f->t;
	struct cand *c = calloc(n, sizeof(*c));
	size_t ncols = 0, nnz = 0, cap, i;
	int *ia, *ja, col, ret, st;
	double *ar;
	glp_prob *lp = glp_create_prob();
	glp_iocp parm;
	unsigned k, j, nd;
	uint32_t dl[HOPS], l;

	assert_non_null(c);
	for (i = 0; i < n; i++) {
		dard_path_foreach(f->pc, d[i].src, d[i].dst, cand_cb, &c[i]);
		assert_true(c[i].n > 0);
		ncols += c[i].n;
	}
	/* Rows: one per flow, then one per directed link. */
	glp_add_rows(lp, n + 2 * t->nlinks);
	for (i = 0; i < n; i++)
		glp_set_row_bnds(lp, i + 1, GLP_FX, 1, 1);
	glp_add_cols(lp, ncols);
	cap = ncols * (HOPS + 1) + 1;
	ia = malloc(cap * sizeof(*ia));
	ja = malloc(cap * sizeof(*ja));
	ar = malloc(cap * sizeof(*ar));
	assert_non_null(ia && ja && ar);
	for (i = 0, col = 1; i < n; i++)
		for (j = 0; j < c[i].n; j++, col++) {
			glp_set_col_kind(lp, col, GLP_BV);
			nnz++;
			ia[nnz] = i + 1;
			ja[nnz] = col;
			ar[nnz] = 1;
			nd = dlinks(t, &c[i].path[j], dl);
			for (k = 0; k < nd; k++) {
				nnz++;
				ia[nnz] = n + dl[k] + 1;
				ja[nnz] = col;
				ar[nnz] = 1;
			}
		}
	glp_load_matrix(lp, nnz, ia, ja, ar);
	for (l = 1;; l++) {
		assert_true(l <= n);
		for (k = 0; k < 2 * t->nlinks; k++)
			glp_set_row_bnds(lp, n + k + 1, GLP_UP, 0, l);
		glp_init_iocp(&parm);
		parm.presolve = GLP_ON;
		parm.msg_lev = GLP_MSG_OFF;
		parm.tm_lim = 60000;
		ret = glp_intopt(lp, &parm);
		st = glp_mip_status(lp);
		if (!ret && st == GLP_OPT)
			break;
		if (ret != GLP_ENOPFS && ret != GLP_ENODFS &&
		    !(ret == 0 && st == GLP_NOFEAS))
			fail_msg("GLPK: L = %u undecided (%d, status %d)", l,
				 ret, st);
	}
	glp_delete_prob(lp);
	free(ia);
	free(ja);
	free(ar);
	free(c);
	return l;
}

/* Random flows: a permutation (Sattolo) when nf is zero, else nf pairs. */
static size_t demand(const struct dard_topo *t, struct dard_demand *d,
		     size_t nf)
{
	uint32_t n = t->nhosts, i;

	if (!nf) {
		uint32_t *perm = malloc(n * sizeof(*perm));

		assert_non_null(perm);
		unit_derangement(perm, n);
		for (i = 0; i < n; i++)
			d[i] = (struct dard_demand){t->hosts[i],
						    t->hosts[perm[i]]};
		free(perm);
		return n;
	}
	for (i = 0; i < nf; i++) {
		uint32_t s = rand() % n, r;

		do
			r = rand() % n;
		while (r == s);
		d[i] = (struct dard_demand){t->hosts[s], t->hosts[r]};
	}
	return nf;
}

static void check(struct fix *f, const struct dard_demand *d, size_t n)
{
	clock_t t0 = clock();

	const struct dard_topo *t = f->t;
	struct dard_path *out = calloc(n, sizeof(*out));
	uint32_t *load = calloc(2 * t->nlinks, sizeof(*load));
	uint32_t opt, best, lb, l;
	char err[DARD_ERR_MAX];
	size_t i;
	int w;

	assert_non_null(out && load);
	best = exact(f, d, n);
	if (getenv("EXACT_DEBUG"))
		fprintf(stderr, "%s %zu flows: %u in %.2f s\n", t->name, n,
			best, (double)(clock() - t0) / CLOCKS_PER_SEC);
	lb = unit_lower_bound(t, d, n);
	if (best < lb)
		fail_msg("%s: exact %u below the lower bound %u", t->name, best,
			 lb);
	if (dard_route_optimal(f->pc, t, d, n, out, err))
		fail_msg("%s: %s", t->name, err);
	opt = max_load(t, out, n);
	if (opt != best)
		fail_msg("%s, %zu flows: SDN-optimal %u, exact %u", t->name, n,
			 opt, best);
	assert_int_equal(dard_route_greedy(f->pc, t, d, n, load, out), 0);
	l = max_load(t, out, n);
	if (l < best)
		fail_msg("%s: SDN-greedy %u beats exact %u", t->name, l, best);
	for (w = DARD_DMODK_LITERAL; w <= DARD_DMODK_DIGIT; w++) {
		for (i = 0; i < n; i++)
			assert_int_equal(dard_route_modk(f->pc, t, d[i].src,
							 d[i].dst, w, &out[i]),
					 0);
		l = max_load(t, out, n);
		if (l < best)
			fail_msg("%s: %s %u beats exact %u", t->name,
				 dard_modk_name(w), l, best);
	}
	free(out);
	free(load);
}

/*
 * Permutations and random pairs (up to twice as many flows as hosts) on
 * full-bisection and ToR-tapered trees small enough for the MIP.
 */
static void test_exact(void **state)
{
	static const struct {
		const char *spec;
		unsigned rounds;
	} trees[] = {
		{"fattree:4", 6},
		{"fattree:4,3", 6},
		{"fattree:6", 3},
		/* 2:1 ToRs; fattree:8,3's permutations take GLPK 3 s each. */
		{"fattree:6,2", 3},
	};
	unsigned s, r;

	(void)state;
	glp_term_out(GLP_OFF);
	srand(17);
	for (s = 0; s < sizeof(trees) / sizeof(trees[0]); s++) {
		struct fix f;
		struct dard_demand *d;
		size_t n;

		unit_build(trees[s].spec, NULL, DARD_MODE_AUTO, &f.t, &f.p);
		f.pc = dard_pathctx_new(f.t, f.p);
		assert_non_null(f.pc);
		d = calloc(2 * f.t->nhosts, sizeof(*d));
		assert_non_null(d);
		for (r = 0; r < trees[s].rounds; r++) {
			n = demand(f.t, d, 0);
			check(&f, d, n);
			/* A sparse demand: some hosts idle, some with two. */
			n = demand(f.t, d, f.t->nhosts / 2 + r);
			check(&f, d, n);
			n = demand(f.t, d, (r % 3 + 1) * f.t->nhosts * 2 / 3);
			check(&f, d, n);
		}
		free(d);
		dard_pathctx_free(f.pc);
		dard_plan_free(f.p);
		dard_topo_free(f.t);
	}
}

/*
 * The exact solver itself: three flows from one ToR of fattree:4,3 (one up
 * port) must share it, so the optimum is 3, though every host sends one.
 */
static void test_exact_known(void **state)
{
	struct fix f;
	struct dard_demand d[3];

	(void)state;
	glp_term_out(GLP_OFF);
	unit_build("fattree:4,3", NULL, DARD_MODE_AUTO, &f.t, &f.p);
	f.pc = dard_pathctx_new(f.t, f.p);
	assert_non_null(f.pc);
	d[0] = (struct dard_demand){find(f.t, "e1_1"), find(f.t, "e2_1")};
	d[1] = (struct dard_demand){find(f.t, "e1_2"), find(f.t, "e3_1")};
	d[2] = (struct dard_demand){find(f.t, "e1_3"), find(f.t, "e1_4")};
	assert_int_equal(exact(&f, d, 3), 3);
	assert_int_equal(exact(&f, d, 2), 2);
	assert_int_equal(unit_lower_bound(f.t, d, 3), 3);
	check(&f, d, 3);
	dard_pathctx_free(f.pc);
	dard_plan_free(f.p);
	dard_topo_free(f.t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact_known),
		cmocka_unit_test(test_exact),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
