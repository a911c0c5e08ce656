// SPDX-License-Identifier: GPL-2.0 OR MIT
/* D-mod-k, S-mod-k and SDN-greedy on fat-trees. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "../../daemon/lib/route.h"
#include "../../daemon/lib/sched.h"
#include "../../daemon/lib/traffic.h"
#include "unit.h"

struct fix {
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_pathctx *pc;
};

static void build(struct fix *f, const char *spec)
{
	unit_build(spec, NULL, DARD_MODE_AUTO, &f->t, &f->p);
	f->pc = dard_pathctx_new(f->t, f->p);
	assert_non_null(f->pc);
}

static void destroy(struct fix *f)
{
	dard_pathctx_free(f->pc);
	dard_plan_free(f->p);
	dard_topo_free(f->t);
}

/* The core a path turns at (inter-pod paths on a fat-tree). */
static uint32_t core_of(const struct dard_path *p)
{
	return p->sw[2];
}

/*
 * From e1_1 to the 12 hosts of the other pods: the digit form spreads the
 * destinations over all four cores, the literal form (d mod 2 at the ToR
 * and again at the aggregation switch) only over two.
 */
static void test_dmodk_cores(void **state)
{
	unsigned used[2][64] = {{0}}, n[2] = {0, 0}, form, i;
	struct dard_path p;
	struct fix f;

	(void)state;
	build(&f, "fattree:4");
	for (form = 0; form < 2; form++)
		for (i = 4; i < 16; i++) {
			uint32_t c;

			assert_int_equal(
				dard_route_modk(f.pc, f.t, f.t->hosts[0],
						f.t->hosts[i],
						form ? DARD_DMODK_DIGIT
						     : DARD_DMODK_LITERAL,
						&p),
				0);
			c = core_of(&p);
			assert_int_equal(f.t->node[c].level, 0);
			if (!used[form][c]++)
				n[form]++;
		}
	assert_int_equal(n[0], 2);
	assert_int_equal(n[1], 4);
	destroy(&f);
}

/* D-mod-k depends on the destination only, S-mod-k on the source only. */
static void test_dest_and_source(void **state)
{
	struct dard_path p, q;
	struct fix f;
	uint32_t s, d;

	(void)state;
	build(&f, "fattree:8");
	/* Every source in another pod reaches e5_3 through one core. */
	d = find(f.t, "e5_3");
	assert_int_equal(dard_route_modk(f.pc, f.t, f.t->hosts[0], d,
					 DARD_DMODK_DIGIT, &q),
			 0);
	for (s = 0; s < f.t->nhosts; s++) {
		uint32_t src = f.t->hosts[s];

		if (dard_host_pod(f.t, src) == dard_host_pod(f.t, d))
			continue;
		assert_int_equal(dard_route_modk(f.pc, f.t, src, d,
						 DARD_DMODK_DIGIT, &p),
				 0);
		assert_int_equal(core_of(&p), core_of(&q));
	}
	/* Every destination in another pod is reached from e1_1 up one way. */
	s = find(f.t, "e1_1");
	assert_int_equal(dard_route_modk(f.pc, f.t, s, d, DARD_SMODK_DIGIT, &q),
			 0);
	for (d = 0; d < f.t->nhosts; d++) {
		uint32_t dst = f.t->hosts[d];

		if (dard_host_pod(f.t, dst) == dard_host_pod(f.t, s))
			continue;
		assert_int_equal(dard_route_modk(f.pc, f.t, s, dst,
						 DARD_SMODK_DIGIT, &p),
				 0);
		assert_int_equal(p.sw[1], q.sw[1]);
		assert_int_equal(core_of(&p), core_of(&q));
	}
	destroy(&f);
}

/* The largest load on a path under load. */
static uint32_t worst(const struct dard_topo *t, const struct dard_path *p,
		      const uint32_t *load)
{
	uint32_t dl[2 * DARD_LEVEL_MAX], w = 0;
	unsigned i, n = dard_path_dlinks(t, p, dl);

	for (i = 0; i < n; i++)
		if (load[dl[i]] > w)
			w = load[dl[i]];
	return w;
}

struct all {
	const struct dard_topo *t;
	const uint32_t *load;
	uint32_t least;
};

static int least_cb(const struct dard_path *p, void *arg)
{
	struct all *a = arg;
	uint32_t w = worst(a->t, p, a->load);

	if (w < a->least)
		a->least = w;
	return 0;
}

/*
 * Random permutations on fattree:4 and :8, flow by flow: greedy's pick is
 * never worse than any other candidate under the loads it saw.
 */
static void test_greedy(void **state)
{
	static const char *const specs[] = {"fattree:4", "fattree:8"};
	unsigned s, round;

	(void)state;
	srand(5);
	for (s = 0; s < 2; s++) {
		struct fix f;

		build(&f, specs[s]);
		for (round = 0; round < 10; round++) {
			uint32_t n = f.t->nhosts,
				 *perm = malloc(n * sizeof(*perm));
			struct dard_demand *d = calloc(n, sizeof(*d));
			uint32_t *load = calloc(2 * f.t->nlinks, sizeof(*load));
			uint32_t *seen = calloc(2 * f.t->nlinks, sizeof(*seen));
			struct dard_path *out = calloc(n, sizeof(*out));
			uint32_t i;

			assert_non_null(perm && d && load && seen && out);
			for (i = 0; i < n; i++)
				perm[i] = i;
			for (i = n - 1; i > 0;
			     i--) { /* Sattolo: no fixed point */
				uint32_t r = rand() % i, x = perm[i];

				perm[i] = perm[r];
				perm[r] = x;
			}
			for (i = 0; i < n; i++) {
				d[i].src = f.t->hosts[i];
				d[i].dst = f.t->hosts[perm[i]];
			}
			assert_int_equal(dard_route_node_load(f.t, d, n), 1);
			assert_int_equal(
				dard_route_greedy(f.pc, f.t, d, n, load, out),
				0);
			for (i = 0; i < n; i++) {
				struct all a = {f.t, seen, UINT32_MAX};

				dard_path_foreach(f.pc, d[i].src, d[i].dst,
						  least_cb, &a);
				assert_int_equal(worst(f.t, &out[i], seen),
						 a.least);
				assert_int_equal(out[i].src, d[i].src);
				assert_int_equal(out[i].dst, d[i].dst);
				dard_route_load(f.t, &out[i], seen);
			}
			assert_memory_equal(seen, load,
					    2 * f.t->nlinks * sizeof(*load));
			/* Theorem 1: no placement beats the node load. */
			assert_true(dard_route_max_load(f.t, load) >=
				    dard_route_node_load(f.t, d, n));
			free(perm);
			free(d);
			free(load);
			free(seen);
			free(out);
		}
		destroy(&f);
	}
}

/*
 * A shift permutation (stride by a pod) under the digit form is free of
 * contention on fat-trees: no link carries two flows. The literal form
 * piles them onto a quarter of the cores of fattree:8.
 */
static void test_shift(void **state)
{
	static const char *const specs[] = {"fattree:4", "fattree:8"};
	unsigned s;

	(void)state;
	for (s = 0; s < 2; s++) {
		struct fix f;
		uint32_t *load[2], i, n, step;
		struct dard_path p;
		int form;

		build(&f, specs[s]);
		n = f.t->nhosts;
		step = n / (f.t->nhosts == 16 ? 4 : 8); /* the hosts of a pod */
		for (form = 0; form < 2; form++) {
			load[form] = calloc(2 * f.t->nlinks, sizeof(uint32_t));
			assert_non_null(load[form]);
			for (i = 0; i < n; i++) {
				assert_int_equal(
					dard_route_modk(
						f.pc, f.t, f.t->hosts[i],
						f.t->hosts[(i + step) % n],
						form ? DARD_DMODK_DIGIT
						     : DARD_DMODK_LITERAL,
						&p),
					0);
				dard_route_load(f.t, &p, load[form]);
			}
		}
		assert_int_equal(dard_route_max_load(f.t, load[1]), 1);
		assert_true(dard_route_max_load(f.t, load[0]) > 1);
		free(load[0]);
		free(load[1]);
		destroy(&f);
	}
}

/*
 * SDN-optimal reaches the lower bound: L_D = 1 on random permutations of
 * fattree:4, :8 and :16, and L_D = NL_D on random demands where every host
 * sends three flows (the thesis's Theorem 2).
 */
static void test_optimal(void **state)
{
	static const char *const specs[] = {"fattree:4", "fattree:8",
					    "fattree:16"};
	char err[DARD_ERR_MAX];
	unsigned s, round, m;

	(void)state;
	srand(9);
	for (s = 0; s < 3; s++) {
		struct fix f;

		build(&f, specs[s]);
		for (round = 0; round < 6; round++) {
			uint32_t n = f.t->nhosts, i, j;
			size_t nf = 0;
			struct dard_demand *d;
			struct dard_path *out;
			uint32_t *load = calloc(2 * f.t->nlinks, sizeof(*load));

			m = round < 3 ? 1 : 3;
			d = calloc((size_t)n * m, sizeof(*d));
			out = calloc((size_t)n * m, sizeof(*out));
			assert_non_null(d && out && load);
			if (m == 1) { /* a permutation without fixed points */
				uint32_t *perm = malloc(n * sizeof(*perm));

				for (i = 0; i < n; i++)
					perm[i] = i;
				for (i = n - 1; i > 0; i--) {
					uint32_t r = rand() % i, x = perm[i];

					perm[i] = perm[r];
					perm[r] = x;
				}
				for (i = 0; i < n; i++)
					d[nf++] = (struct dard_demand){
						f.t->hosts[i],
						f.t->hosts[perm[i]]};
				free(perm);
			} else {
				for (i = 0; i < n; i++)
					for (j = 0; j < m; j++) {
						uint32_t r;

						do
							r = rand() % n;
						while (r == i);
						d[nf++] = (struct dard_demand){
							f.t->hosts[i],
							f.t->hosts[r]};
					}
			}
			if (dard_route_optimal(f.pc, f.t, d, nf, out, err))
				fail_msg("%s: %s", specs[s], err);
			for (i = 0; i < nf; i++) {
				assert_int_equal(out[i].src, d[i].src);
				assert_int_equal(out[i].dst, d[i].dst);
				dard_route_load(f.t, &out[i], load);
			}
			assert_int_equal(dard_route_max_load(f.t, load),
					 dard_route_node_load(f.t, d, nf));
			if (m == 1)
				assert_int_equal(dard_route_max_load(f.t, load),
						 1);
			free(d);
			free(out);
			free(load);
		}
		destroy(&f);
	}
	/* Not a fat-tree: said so. */
	{
		struct fix f;
		struct dard_demand d = {0, 0};
		struct dard_path out;

		build(&f, "3tier");
		d.src = f.t->hosts[0];
		d.dst = f.t->hosts[1];
		assert_int_equal(
			dard_route_optimal(f.pc, f.t, &d, 1, &out, err),
			-EINVAL);
		assert_non_null(strstr(err, "full bisection"));
		destroy(&f);
	}
}

static void test_node_load(void **state)
{
	struct fix f;

	(void)state;
	build(&f, "fattree:4");
	struct dard_demand d[3] = {
		{find(f.t, "e1_1"), find(f.t, "e2_1")},
		{find(f.t, "e1_1"), find(f.t, "e3_1")},
		{find(f.t, "e4_1"), find(f.t, "e3_1")},
	};
	assert_int_equal(dard_route_node_load(f.t, d, 1), 1);
	assert_int_equal(dard_route_node_load(f.t, d, 3), 2);
	destroy(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dmodk_cores),
		cmocka_unit_test(test_dest_and_source),
		cmocka_unit_test(test_greedy),
		cmocka_unit_test(test_shift),
		cmocka_unit_test(test_optimal),
		cmocka_unit_test(test_node_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
