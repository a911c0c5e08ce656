// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Hose-model oblivious routing (daemon/algo/oblivious.c). The values are
 * cut bounds any routing must meet: on fattree:4 with aggr1_1-core1 down,
 * pod 1's two ToRs can send 4 host links' worth out of the pod over the 3
 * core links left, so 4/3 is the least any routing can promise. The LP's
 * own value (a dual, all links at once) is checked against dard_obl_eval
 * on its weights (a primal transportation problem per link): two
 * formulations that share only the path walk.
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

#include "oblivious.h"
#include "unit.h"

struct fix {
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_pathctx *pc;
	uint8_t *down;
};

static void build(struct fix *f, const char *spec)
{
	unit_build(spec, NULL, DARD_MODE_AUTO, &f->t, &f->p);
	f->pc = dard_pathctx_new(f->t, f->p);
	assert_non_null(f->pc);
	f->down = calloc(f->t->nlinks, 1);
	assert_non_null(f->down);
}

static void destroy(struct fix *f)
{
	free(f->down);
	dard_pathctx_free(f->pc);
	dard_plan_free(f->p);
	dard_topo_free(f->t);
}

static void fail_link(struct fix *f, const char *up, const char *down)
{
	uint32_t l =
		dard_topo_link_between(f->t, find(f->t, up), find(f->t, down));

	assert_int_not_equal(l, DARD_NONE);
	f->down[l] = 1;
}

static struct dard_obl *solve(struct fix *f, size_t max_vars)
{
	char err[DARD_ERR_MAX] = "";
	struct dard_obl *o = NULL;

	if (dard_obl_solve(f->t, f->pc, f->down, max_vars, &o, err))
		fail_msg("solve: %s", err);
	return o;
}

static double eval(struct fix *f, dard_obl_weights_cb cb, void *arg)
{
	char err[DARD_ERR_MAX] = "";
	double u = -1;

	if (dard_obl_eval(f->t, f->pc, f->down, cb, arg, &u, err))
		fail_msg("eval: %s", err);
	return u;
}

struct walk {
	struct fix *f;
	const struct dard_obl *o;
	unsigned pairs, dead_paths;
};

/* Every pair's weights: one per path, dead ones 0, summing to 1. */
static int check_pair(uint32_t s, uint32_t d, const struct dard_path *paths,
		      const uint8_t *dead, unsigned n, double *w, void *arg)
{
	struct walk *wk = arg;
	const double *v;
	double sum = 0;
	unsigned m = 0, i;

	v = dard_obl_weights(wk->o, s, d, &m);
	assert_non_null(v);
	assert_int_equal(m, n);
	for (i = 0; i < n; i++) {
		assert_true(v[i] >= 0);
		if (dead[i]) {
			assert_true(v[i] == 0);
			wk->dead_paths++;
		}
		sum += v[i];
		w[i] = v[i];
	}
	assert_true(fabs(sum - 1) < 1e-9);
	wk->pairs++;
	return 0;
}

static void check_weights(struct fix *f, const struct dard_obl *o,
			  unsigned pairs, unsigned dead)
{
	struct walk wk = {.f = f, .o = o};

	eval(f, check_pair, &wk);
	assert_int_equal(wk.pairs, pairs);
	assert_int_equal(wk.dead_paths, dead);
}

static void test_intact(void **state)
{
	struct dard_obl *o;
	struct fix f;

	(void)state;
	build(&f, "fattree:4");
	o = solve(&f, 0);
	assert_int_equal(dard_obl_exact(o), 1);
	assert_string_equal(dard_obl_why(o), "");
	assert_true(fabs(dard_obl_util(o) - 1) < 1e-6);
	assert_true(fabs(eval(&f, dard_obl_cb, o) - 1) < 1e-6);
	assert_true(fabs(eval(&f, dard_obl_live_cb, NULL) - 1) < 1e-6);
	assert_true(fabs(eval(&f, dard_obl_ecmp_cb, NULL) - 1) < 1e-6);
	assert_int_equal(dard_obl_unreachable(o), 0);
	check_weights(&f, o, 8 * 7, 0);
	dard_obl_free(o);
	destroy(&f);
}

static void test_core_link_down(void **state)
{
	struct dard_obl *o;
	struct fix f;
	double lp, ecmp, repair, live;

	(void)state;
	build(&f, "fattree:4");
	fail_link(&f, "core1", "aggr1_1");
	o = solve(&f, 0);
	assert_int_equal(dard_obl_exact(o), 1);
	lp = dard_obl_util(o);
	ecmp = eval(&f, dard_obl_ecmp_cb, NULL);
	repair = eval(&f, dard_obl_repair_cb, NULL);
	live = eval(&f, dard_obl_live_cb, NULL);
	print_message("fattree:4, core1-aggr1_1 down: LP %.6f, ECMP as "
		      "hashed %.6f, by repair order %.6f, uniform on live "
		      "%.6f\n",
		      lp, ecmp, repair, live);
	assert_true(fabs(lp - 4.0 / 3) < 1e-6);
	assert_true(fabs(eval(&f, dard_obl_cb, o) - lp) < 1e-6);
	assert_true(fabs(ecmp - 2) < 1e-6);
	assert_true(fabs(repair - 2) < 1e-6);
	assert_true(fabs(live - 4.0 / 3) < 1e-6);
	/*
	 * Dead: each pod-1 ToR's 3 paths to the 6 ToRs outside (one of 4),
	 * and theirs to pod 1's 2 ToRs: 2 * 6 + 6 * 2 = 24 pairs, 1 each.
	 */
	check_weights(&f, o, 8 * 7, 24);
	dard_obl_free(o);
	destroy(&f);
}

/*
 * Where the LP beats uniform weights on the live paths: tor1_1 keeps
 * one up link, to aggr1_1, which keeps one core link, to core2. All
 * traffic from outside the pod to tor1_1 must take core2-aggr1_1 (2
 * host links' worth); uniform weights add a third of tor1_2's 2 from
 * outside, 8/3 in all. The LP sends tor1_2's through aggr1_2 and is
 * left with tor1_1's own up link, 2 over 1, which no routing avoids.
 * ECMP as hashed puts the dead core1 path's flows on core2's: 3.
 */
static void test_lp_beats_live(void **state)
{
	struct dard_obl *o;
	struct fix f;

	(void)state;
	build(&f, "fattree:4");
	fail_link(&f, "core1", "aggr1_1");
	fail_link(&f, "aggr1_2", "tor1_1");
	o = solve(&f, 0);
	assert_int_equal(dard_obl_exact(o), 1);
	assert_true(fabs(dard_obl_util(o) - 2) < 1e-6);
	assert_true(fabs(eval(&f, dard_obl_cb, o) - 2) < 1e-6);
	assert_true(fabs(eval(&f, dard_obl_live_cb, NULL) - 8.0 / 3) < 1e-6);
	assert_true(fabs(eval(&f, dard_obl_ecmp_cb, NULL) - 3) < 1e-6);
	dard_obl_free(o);
	destroy(&f);
}

/* Beyond the column limit: uniform over the live paths, and it says so. */
static void test_fallback(void **state)
{
	const double *w;
	struct dard_obl *o;
	struct fix f;
	size_t rows, cols;
	unsigned n = 0, i, live = 0;

	(void)state;
	build(&f, "fattree:4");
	fail_link(&f, "core1", "aggr1_1");
	o = solve(&f, 50);
	assert_int_equal(dard_obl_exact(o), 0);
	assert_true(isnan(dard_obl_util(o)));
	assert_non_null(strstr(dard_obl_why(o), "more than 50 columns"));
	dard_obl_size(o, &rows, &cols);
	assert_true(cols > 50);
	w = dard_obl_weights(o, find(f.t, "tor1_1"), find(f.t, "tor2_1"), &n);
	assert_non_null(w);
	assert_int_equal(n, 4);
	for (i = 0; i < n; i++) {
		assert_true(w[i] == 0 || fabs(w[i] - 1.0 / 3) < 1e-12);
		live += w[i] > 0;
	}
	assert_int_equal(live, 3);
	check_weights(&f, o, 8 * 7, 24);
	assert_true(fabs(eval(&f, dard_obl_cb, o) - 4.0 / 3) < 1e-6);
	dard_obl_free(o);
	/* Past the weights, the prices: the limit stops the LP midway. */
	o = solve(&f, 300);
	assert_int_equal(dard_obl_exact(o), 0);
	dard_obl_free(o);
	destroy(&f);
}

/* GLPK out of time: the fallback too (fattree:6,2 takes it seconds). */
static void test_time_limit(void **state)
{
	char err[DARD_ERR_MAX] = "";
	struct dard_obl *o = NULL;
	struct fix f;

	(void)state;
	build(&f, "fattree:6,2");
	assert_int_equal(dard_obl_solve_n(f.t, f.pc, NULL, 0, 0, 1, &o, err),
			 0);
	assert_int_equal(dard_obl_exact(o), 0);
	assert_string_equal(dard_obl_why(o), "GLPK took longer than 1 ms");
	assert_true(isnan(dard_obl_util(o)));
	dard_obl_free(o);
	destroy(&f);
}

/*
 * tor1_1 loses both up links: the 14 pairs to and from it have no path
 * and no weights; its hosts' demand is not carried, and the rest is
 * routed as if it were not there.
 */
static void test_disconnected(void **state)
{
	struct dard_obl *o;
	struct fix f;
	unsigned n = 7;

	(void)state;
	build(&f, "fattree:4");
	fail_link(&f, "aggr1_1", "tor1_1");
	fail_link(&f, "aggr1_2", "tor1_1");
	o = solve(&f, 0);
	assert_int_equal(dard_obl_exact(o), 1);
	assert_int_equal(dard_obl_unreachable(o), 14);
	assert_null(dard_obl_weights(o, find(f.t, "tor1_1"),
				     find(f.t, "tor2_1"), &n));
	assert_null(dard_obl_weights(o, find(f.t, "tor2_1"),
				     find(f.t, "tor1_1"), &n));
	assert_true(fabs(dard_obl_util(o) - 1) < 1e-6);
	assert_true(fabs(eval(&f, dard_obl_cb, o) - 1) < 1e-6);
	check_weights(&f, o, 7 * 6, 0);
	/* Not ToRs, or one ToR twice. */
	assert_null(dard_obl_weights(o, find(f.t, "tor2_1"),
				     find(f.t, "tor2_1"), &n));
	assert_null(dard_obl_weights(o, find(f.t, "e1_1"), find(f.t, "tor2_1"),
				     &n));
	assert_null(dard_obl_weights(o, f.t->nnodes, find(f.t, "tor2_1"), &n));
	dard_obl_free(o);
	destroy(&f);
}

/* 2:1 ToRs: four hosts over two up links, whatever the routing. */
static void test_tapered(void **state)
{
	struct dard_obl *o;
	struct fix f;

	(void)state;
	build(&f, "fattree:6,2");
	o = solve(&f, 0);
	assert_int_equal(dard_obl_exact(o), 1);
	assert_true(fabs(dard_obl_util(o) - 2) < 1e-6);
	assert_true(fabs(eval(&f, dard_obl_cb, o) - 2) < 1e-6);
	assert_true(fabs(eval(&f, dard_obl_ecmp_cb, NULL) - 2) < 1e-6);
	dard_obl_free(o);
	/* A host's link down: its ToR sends 3 over 2 now, the others 4. */
	fail_link(&f, "tor1_1", "e1_1");
	o = solve(&f, 0);
	assert_true(fabs(dard_obl_util(o) - 2) < 1e-6);
	dard_obl_free(o);
	destroy(&f);
}

static int bad_dead(uint32_t s, uint32_t d, const struct dard_path *paths,
		    const uint8_t *dead, unsigned n, double *w, void *arg)
{
	unsigned i;

	for (i = 0; i < n; i++)
		w[i] = 1.0 / n;
	return 0;
}

static int bad_sum(uint32_t s, uint32_t d, const struct dard_path *paths,
		   const uint8_t *dead, unsigned n, double *w, void *arg)
{
	w[0] = 0.5;
	return 0;
}

static void test_bad_input(void **state)
{
	char err[DARD_ERR_MAX] = "";
	struct dard_obl *o = NULL, *o2;
	struct dard_topo *raw = dard_topo_new();
	struct fix f;
	double u;

	(void)state;
	build(&f, "fattree:4");
	assert_non_null(raw);
	assert_int_equal(dard_obl_solve(raw, f.pc, NULL, 0, &o, err), -EINVAL);
	assert_non_null(strstr(err, "not finalized"));
	assert_null(o);
	assert_int_equal(dard_obl_solve(NULL, f.pc, NULL, 0, &o, err), -EINVAL);
	assert_int_equal(dard_obl_solve(f.t, NULL, NULL, 0, &o, err), -EINVAL);
	assert_non_null(strstr(err, "path context"));
	assert_int_equal(dard_obl_solve(f.t, f.pc, NULL, 0, NULL, err),
			 -EINVAL);
	assert_int_equal(dard_obl_solve_n(f.t, f.pc, f.down, f.t->nlinks - 1, 0,
					  0, &o, err),
			 -EINVAL);
	assert_string_equal(err,
			    "down[] has 47 entries, fattree:4 has 48 links");
	f.down[5] = 2;
	assert_int_equal(dard_obl_solve(f.t, f.pc, f.down, 0, &o, err),
			 -EINVAL);
	assert_non_null(strstr(err, "down[5] ("));
	assert_non_null(strstr(err, ") is 2, not 0 or 1"));
	f.down[5] = 0;
	assert_int_equal(
		dard_obl_eval(raw, f.pc, NULL, dard_obl_live_cb, NULL, &u, err),
		-EINVAL);
	assert_int_equal(dard_obl_eval(f.t, f.pc, NULL, NULL, NULL, &u, err),
			 -EINVAL);
	/* Weights on a dead path, or not summing to 1. */
	fail_link(&f, "core1", "aggr1_1");
	assert_int_equal(
		dard_obl_eval(f.t, f.pc, f.down, bad_dead, NULL, &u, err),
		-EINVAL);
	assert_non_null(strstr(err, "on dead path 0 would be lost"));
	assert_int_equal(
		dard_obl_eval(f.t, f.pc, f.down, bad_sum, NULL, &u, err),
		-EINVAL);
	assert_string_equal(err, "tor1_1 -> tor1_2: weights sum to 0.5, not 1");
	/* A solution for other failures is not these weights. */
	o = solve(&f, 0);
	memset(f.down, 0, f.t->nlinks);
	fail_link(&f, "aggr1_1", "tor1_1");
	fail_link(&f, "aggr1_2", "tor1_1");
	o2 = solve(&f, 0);
	memset(f.down, 0, f.t->nlinks);
	assert_int_equal(
		dard_obl_eval(f.t, f.pc, f.down, dard_obl_cb, o2, &u, err),
		-ESTALE);
	dard_obl_free(o);
	dard_obl_free(o2);
	dard_topo_free(raw);
	destroy(&f);
}

static void check_quant(const double *w, unsigned n, const uint16_t *want)
{
	uint16_t out[8];
	unsigned i, sum = 0;

	dard_obl_quantize(w, n, out);
	for (i = 0; i < n; i++) {
		sum += out[i];
		if (out[i] != want[i])
			fail_msg("weight %u: %u, want %u", i, out[i], want[i]);
	}
	assert_true(sum == DARD_OBL_WEIGHT_SUM || sum == 0);
}

static void test_quantize(void **state)
{
	(void)state;
	check_quant((double[]){1.0 / 3, 1.0 / 3, 1.0 / 3}, 3,
		    (uint16_t[]){21845, 21845, 21845});
	/* 32767.5 twice: the lower index gets the remainder. */
	check_quant((double[]){0.5, 0, 0.5}, 3, (uint16_t[]){32768, 0, 32767});
	/* A tiny weight keeps one, taken from the largest. */
	check_quant((double[]){1e-9, 1 - 1e-9}, 2, (uint16_t[]){1, 65534});
	check_quant((double[]){1e-9, 1e-9, 1}, 3, (uint16_t[]){1, 1, 65533});
	/* Not normalised: proportions count. */
	check_quant((double[]){2, 6}, 2, (uint16_t[]){16384, 49151});
	check_quant((double[]){0, 0}, 2, (uint16_t[]){0, 0});
	check_quant((double[]){-1, NAN}, 2, (uint16_t[]){0, 0});
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intact),
		cmocka_unit_test(test_core_link_down),
		cmocka_unit_test(test_lp_beats_live),
		cmocka_unit_test(test_fallback),
		cmocka_unit_test(test_time_limit),
		cmocka_unit_test(test_disconnected),
		cmocka_unit_test(test_tapered),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_quantize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
