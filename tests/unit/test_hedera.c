// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Hedera's demand estimation (max-min fair on host links alone, checked
 * by hand) and simulated annealing (it finds a placement without excess
 * where one exists, reports the energy of the rows it returns, and
 * repeats itself under one seed).
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hedera.h"
#include "path.h"
#include "sched.h"
#include "unit.h"

static struct dard_topo *t;
static struct dard_plan *p;
static struct dard_pathctx *pc;
static double *cap;

static int setup(void **state)
{
	uint32_t l;

	(void)state;
	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &t, &p);
	pc = dard_pathctx_new(t, p);
	cap = malloc(2 * t->nlinks * sizeof(*cap));
	for (l = 0; l < 2 * t->nlinks; l++)
		cap[l] = t->link[l / 2].mbps;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(cap);
	dard_pathctx_free(pc);
	dard_plan_free(p);
	dard_topo_free(t);
	return 0;
}

/*
 * e1_1 sends to e2_1, e3_1 and e4_1; e2_2 also sends to e4_1. e1_1's
 * link gives each of its three a third; e4_1's link then has two thirds
 * left for e2_2's flow.
 */
static void test_demand(void **state)
{
	struct dard_hedera_flow f[4] = {
		{.src = find(t, "e1_1"), .dst = find(t, "e2_1")},
		{.src = find(t, "e1_1"), .dst = find(t, "e3_1")},
		{.src = find(t, "e1_1"), .dst = find(t, "e4_1")},
		{.src = find(t, "e2_2"), .dst = find(t, "e4_1")},
	};
	unsigned i;

	(void)state;
	assert_int_equal(dard_hedera_demand(t, cap, f, 4), 0);
	for (i = 0; i < 3; i++)
		assert_true(fabs(f[i].demand - 1000.0 / 3) < 1e-6);
	assert_true(fabs(f[3].demand - 2000.0 / 3) < 1e-6);
}

/* A flow's candidate rows, as the simulator keeps them. */
static void candidates(struct dard_hedera_flow *f)
{
	f->c = unit_rows(pc, t, f->src, f->dst);
}

/* The energy of the rows the annealer chose, counted again here. */
static double energy(const struct dard_hedera_flow *f, size_t n)
{
	double *load = calloc(2 * t->nlinks, sizeof(*load)), e = 0;
	uint32_t l;
	size_t i;
	unsigned k;

	for (i = 0; i < n; i++)
		for (k = 0; k < f[i].c.ndl; k++)
			load[f[i].c.dl[f[i].row * f[i].c.ndl + k]] +=
				f[i].demand;
	for (l = 0; l < 2 * t->nlinks; l++)
		e += fmax(load[l] - cap[l], 0);
	free(load);
	return e;
}

/*
 * Stride on fattree:4: host i to host i + 4, each at full rate. Cores
 * per destination that put no two flows on one link exist (the hosts of
 * each ToR on cores under different aggregation switches, each pod's
 * four on four cores), so the annealer must reach energy 0; a state that
 * starts every host on core 0 has energy to lose.
 */
static void stride(struct dard_hedera *h, struct dard_hedera_flow *f, double *e)
{
	uint32_t i;

	for (i = 0; i < 16; i++) {
		f[i] = (struct dard_hedera_flow){
			.src = t->hosts[i],
			.dst = t->hosts[(i + 4) % 16],
		};
		candidates(&f[i]);
		assert_int_equal(f[i].c.npaths, 4);
	}
	assert_int_equal(dard_hedera_demand(t, cap, f, 16), 0);
	for (i = 0; i < 16; i++)
		assert_true(fabs(f[i].demand - 1000) < 1e-6);
	assert_int_equal(dard_hedera_anneal(h, cap, f, 16, 5000, e), 0);
}

static void test_anneal(void **state)
{
	struct dard_hedera_flow f[16], g[16];
	struct dard_hedera *h = dard_hedera_new(t, 7);
	struct dard_hedera *h2 = dard_hedera_new(t, 7);
	double e, e2;
	uint32_t i;

	(void)state;
	stride(h, f, &e);
	assert_true(e < 1e-6);
	assert_true(energy(f, 16) < 1e-6);
	/* Every destination's flows on one core: energy to lose. */
	for (i = 0; i < 16; i++)
		f[i].row = 0;
	assert_true(energy(f, 16) > 1000);
	for (i = 0; i < 16; i++)
		free((void *)f[i].c.dl);
	/* One seed, one answer, from one state. */
	stride(h2, g, &e2);
	for (i = 0; i < 16; i++)
		free((void *)g[i].c.dl);
	stride(h, f, &e);
	stride(h2, g, &e2);
	assert_true(e == e2);
	for (i = 0; i < 16; i++) {
		assert_int_equal(f[i].row, g[i].row);
		free((void *)f[i].c.dl);
		free((void *)g[i].c.dl);
	}
	dard_hedera_free(h);
	dard_hedera_free(h2);
}

/*
 * Eight flows into one ToR's two hosts at full rate cannot fit (2 Gbit/s
 * of links into the ToR carry 8 Gbit/s): the energy the annealer reports
 * is the energy of its rows, and at least what the ToR's links exceed.
 */
static void test_overload(void **state)
{
	struct dard_hedera_flow f[8];
	struct dard_hedera *h = dard_hedera_new(t, 3);
	double e;
	uint32_t i;

	(void)state;
	for (i = 0; i < 8; i++) {
		f[i] = (struct dard_hedera_flow){
			.src = t->hosts[4 + i],
			.dst = t->hosts[i % 2],
			.demand = 1000,
		};
		candidates(&f[i]);
	}
	assert_int_equal(dard_hedera_anneal(h, cap, f, 8, 2000, &e), 0);
	assert_true(fabs(e - energy(f, 8)) < 1e-6);
	/* Into ToR 1: 8 Gbit/s over two 1 Gbit/s links. */
	assert_true(e >= 6000 - 1e-6);
	for (i = 0; i < 8; i++)
		free((void *)f[i].c.dl);
	dard_hedera_free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_demand),
		cmocka_unit_test(test_anneal),
		cmocka_unit_test(test_overload),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
