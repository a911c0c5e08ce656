// SPDX-License-Identifier: GPL-2.0 OR MIT
/* D-mod-k, S-mod-k, SDN-greedy, SDN-optimal and SDN-adaptive. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "route.h"
#include "sched.h"
#include "traffic.h"
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
 * dard_route_greedy_rows on every flow's candidates as rows chooses what
 * dard_route_greedy chooses by enumerating paths.
 */
static void greedy_rows_agree(struct fix *f, const struct dard_demand *d,
			      uint32_t n, const struct dard_path *out)
{
	struct dard_cands *c = calloc(n, sizeof(*c));
	uint32_t *row = calloc(n, sizeof(*row)), i;
	uint32_t *load = calloc(2 * f->t->nlinks, sizeof(*load));
	uint32_t dl[2 * DARD_LEVEL_MAX];

	assert_non_null(c && row && load);
	for (i = 0; i < n; i++)
		c[i] = unit_rows(f->pc, f->t, d[i].src, d[i].dst);
	dard_route_greedy_rows(c, n, load, row);
	for (i = 0; i < n; i++) {
		assert_int_equal(dard_path_dlinks(f->t, &out[i], dl), c[i].ndl);
		assert_memory_equal(dl, &c[i].dl[row[i] * c[i].ndl],
				    c[i].ndl * sizeof(*dl));
		free((void *)c[i].dl);
	}
	free(c);
	free(row);
	free(load);
}

/*
 * Random permutations on fattree:4 and :8, flow by flow: greedy's pick is
 * never worse than any other candidate under the loads it saw, and the
 * row form picks the same.
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
			unit_derangement(perm, n);
			for (i = 0; i < n; i++) {
				d[i].src = f.t->hosts[i];
				d[i].dst = f.t->hosts[perm[i]];
			}
			assert_int_equal(unit_node_load(f.t, d, n), 1);
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
			greedy_rows_agree(&f, d, n, out);
			/* Theorem 1: no placement beats the node load. */
			assert_true(dard_route_max_load(f.t, load) >=
				    unit_node_load(f.t, d, n));
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

/* A demand of up to cap flows, built by the tests. */
struct demand {
	struct dard_demand *d;
	size_t n, cap;
};

static void demand_init(struct demand *dm, size_t cap)
{
	dm->d = calloc(cap ? cap : 1, sizeof(*dm->d));
	assert_non_null(dm->d);
	dm->n = 0;
	dm->cap = cap;
}

static void add(struct demand *dm, const struct dard_topo *t, uint32_t s,
		uint32_t d)
{
	assert_true(dm->n < dm->cap);
	dm->d[dm->n++] = (struct dard_demand){t->hosts[s], t->hosts[d]};
}

/* A random permutation of the hosts without fixed points (Sattolo). */
static void permutation(struct demand *dm, const struct dard_topo *t)
{
	uint32_t n = t->nhosts, i, *perm = malloc(n * sizeof(*perm));

	assert_non_null(perm);
	unit_derangement(perm, n);
	for (i = 0; i < n; i++)
		add(dm, t, i, perm[i]);
	free(perm);
}

/* Host i sends to host i + k: the shift pattern. */
static void shift(struct demand *dm, const struct dard_topo *t, uint32_t k)
{
	uint32_t i;

	for (i = 0; i < t->nhosts; i++)
		add(dm, t, i, (i + k) % t->nhosts);
}

/* nf flows between random distinct hosts: the node load varies. */
static void random_pairs(struct demand *dm, const struct dard_topo *t,
			 size_t nf)
{
	size_t i;

	for (i = 0; i < nf; i++) {
		uint32_t s = rand() % t->nhosts, d;

		do
			d = rand() % t->nhosts;
		while (d == s);
		add(dm, t, s, d);
	}
}

/*
 * Every path is the flow's own, a shortest one, and decodes from its alias
 * pair back to the same switches; returns the placement's L_D.
 */
static uint32_t check_placement(struct fix *f, const struct demand *dm,
				const struct dard_path *out)
{
	uint32_t *load = calloc(2 * f->t->nlinks, sizeof(*load)), l;
	char err[DARD_ERR_MAX];
	size_t i;

	assert_non_null(load);
	for (i = 0; i < dm->n; i++) {
		struct dard_path q;

		assert_int_equal(out[i].src, dm->d[i].src);
		assert_int_equal(out[i].dst, dm->d[i].dst);
		if (dard_path_decode(f->pc, out[i].saddr, out[i].daddr, &q,
				     err))
			fail_msg("flow %zu: %s", i, err);
		assert_int_equal(q.src, out[i].src);
		assert_int_equal(q.dst, out[i].dst);
		assert_int_equal(q.nsw, out[i].nsw);
		assert_memory_equal(q.sw, out[i].sw, q.nsw * sizeof(q.sw[0]));
		assert_int_equal(q.shortest, 1);
		dard_route_load(f->t, &out[i], load);
	}
	l = dard_route_max_load(f->t, load);
	free(load);
	return l;
}

/*
 * SDN-optimal's L_D on dm, which must be the lower bound; the tree built
 * once (dard_route_tree_new) must place dm on the very same paths.
 */
static uint32_t optimal(struct fix *f, const struct demand *dm)
{
	struct dard_path *out = calloc(dm->n ? dm->n : 1, sizeof(*out));
	struct dard_path *again = calloc(dm->n ? dm->n : 1, sizeof(*again));
	struct dard_route_tree *rt;
	char err[DARD_ERR_MAX];
	uint32_t l, lb;
	size_t i;

	assert_non_null(out);
	assert_non_null(again);
	if (dard_route_optimal(f->pc, f->t, dm->d, dm->n, out, err))
		fail_msg("%s: %s", f->t->name, err);
	if (dard_route_tree_new(f->t, &rt, err) ||
	    dard_route_optimal_tree(f->pc, rt, dm->d, dm->n, again, err))
		fail_msg("%s: %s", f->t->name, err);
	for (i = 0; i < dm->n; i++) {
		assert_int_equal(again[i].nsw, out[i].nsw);
		assert_memory_equal(again[i].sw, out[i].sw,
				    out[i].nsw * sizeof(out[i].sw[0]));
	}
	dard_route_tree_free(rt);
	free(again);
	l = check_placement(f, dm, out);
	lb = unit_lower_bound(f->t, dm->d, dm->n);
	if (l != lb)
		fail_msg("%s: %zu flows: L_D %u, lower bound %u", f->t->name,
			 dm->n, l, lb);
	free(out);
	return l;
}

/*
 * Theorem 2: SDN-optimal's L_D is NL_D on full-bisection fat-trees, for
 * random permutations (L_D = 1), shifts, and random demands whose node
 * loads vary, on fattree:4 to fattree:32.
 */
static void test_optimal(void **state)
{
	static const unsigned sizes[] = {4, 6, 8, 12, 16, 32};
	unsigned s, round;

	(void)state;
	srand(9);
	for (s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		unsigned p = sizes[s], rounds = p <= 16 ? 4 : 1;
		uint32_t n, steps[4], k;
		char spec[32];
		struct fix f;

		snprintf(spec, sizeof(spec), "fattree:%u", p);
		build(&f, spec);
		n = f.t->nhosts;
		for (round = 0; round < rounds; round++) {
			struct demand dm;

			demand_init(&dm, n);
			permutation(&dm, f.t);
			assert_int_equal(unit_node_load(f.t, dm.d, dm.n), 1);
			assert_int_equal(optimal(&f, &dm), 1);
			free(dm.d);

			/* Random pairs: NL_D of two or more, unevenly. */
			demand_init(&dm, (size_t)n * (round + 1));
			random_pairs(&dm, f.t, dm.cap);
			assert_int_equal(optimal(&f, &dm),
					 unit_node_load(f.t, dm.d, dm.n));
			free(dm.d);

			/* Every host sends round + 2 flows. */
			demand_init(&dm, (size_t)n * (round + 2));
			for (k = 0; k < round + 2; k++)
				shift(&dm, f.t, 1 + rand() % (n - 1));
			assert_int_equal(optimal(&f, &dm),
					 unit_node_load(f.t, dm.d, dm.n));
			free(dm.d);
		}
		/* Shifts by one, a ToR, a pod and half the tree. */
		steps[0] = 1;
		steps[1] = p / 2;
		steps[2] = p / 2 * (p / 2);
		steps[3] = n / 2;
		for (k = 0; k < 4; k++) {
			struct demand dm;

			demand_init(&dm, n);
			shift(&dm, f.t, steps[k]);
			assert_int_equal(optimal(&f, &dm), 1);
			free(dm.d);
		}
		destroy(&f);
	}
	/* Trees it does not handle: said so. */
	{
		static const struct {
			const char *spec, *msg;
		} bad[] = {
			{"3tier", "full bisection above the ToRs"},
			{"clos:4,4",
			 "one aggregation switch of one index per pod"},
		};
		struct dard_route_tree *rt;
		char err[DARD_ERR_MAX];

		for (s = 0; s < 2; s++) {
			struct fix f;
			struct dard_demand d;
			struct dard_path out;

			build(&f, bad[s].spec);
			d.src = f.t->hosts[0];
			d.dst = f.t->hosts[f.t->nhosts - 1];
			assert_int_equal(
				dard_route_optimal(f.pc, f.t, &d, 1, &out, err),
				-EINVAL);
			if (!strstr(err, bad[s].msg))
				fail_msg("%s: `%s'", bad[s].spec, err);
			rt = (void *)&d;
			assert_int_equal(dard_route_tree_new(f.t, &rt, err),
					 -EINVAL);
			assert_ptr_equal(rt, (void *)&d);
			if (!strstr(err, bad[s].msg))
				fail_msg("%s: `%s'", bad[s].spec, err);
			destroy(&f);
		}
	}
}

/*
 * The most non-local flows one ToR sends or receives, over its up ports,
 * rounded up: the ToR part of the lower bound, worked out here apart.
 */
static uint32_t tor_bound(const struct dard_topo *t, const struct demand *dm)
{
	uint32_t *c = calloc(2 * t->nnodes, sizeof(*c)), m = 0, i;
	size_t j;

	assert_non_null(c);
	for (j = 0; j < dm->n; j++) {
		uint32_t st = dard_topo_tor(t, dm->d[j].src);
		uint32_t dt = dard_topo_tor(t, dm->d[j].dst);

		if (st != dt) {
			c[st]++;
			c[t->nnodes + dt]++;
		}
	}
	for (i = 0; i < 2 * t->nnodes; i++) {
		uint32_t u = t->node[i % t->nnodes].nup;

		if (c[i] && (c[i] + u - 1) / u > m)
			m = (c[i] + u - 1) / u;
	}
	free(c);
	return m;
}

/*
 * Tapered ToRs: SDN-optimal meets max(NL_D, ToR bound) on permutations,
 * shifts and random demands. A full shift by a pod loads every ToR up
 * port T times over; keeping u flows per ToR (the thesis's "random
 * permutation third") is free of contention.
 */
static void test_optimal_tapered(void **state)
{
	static const char *const specs[] = {"fattree:4,3", "fattree:8,3",
					    "fattree:12,2", "fattree:16,3",
					    "fattree:32,3"};
	unsigned s, round;

	(void)state;
	srand(11);
	for (s = 0; s < sizeof(specs) / sizeof(specs[0]); s++) {
		unsigned rounds = s < 4 ? 4 : 1;
		struct fix f;
		uint32_t n, u, h;

		build(&f, specs[s]);
		n = f.t->nhosts;
		h = f.t->node[dard_topo_tor(f.t, f.t->hosts[0])].ndown;
		u = f.t->node[dard_topo_tor(f.t, f.t->hosts[0])].nup;
		for (round = 0; round < rounds; round++) {
			struct demand dm, thin;
			uint32_t l, i, *sent;

			demand_init(&dm, n);
			permutation(&dm, f.t);
			l = optimal(&f, &dm);
			assert_int_equal(l, tor_bound(f.t, &dm));
			assert_true(l > 1);
			/* A third (1/T) of it: at most u flows per ToR. */
			sent = calloc(f.t->nnodes, sizeof(*sent));
			demand_init(&thin, n);
			for (i = 0; i < dm.n; i++) {
				uint32_t st = dard_topo_tor(f.t, dm.d[i].src);
				uint32_t dt = dard_topo_tor(f.t, dm.d[i].dst);

				if (sent[st] < u && sent[dt] >> 16 < u) {
					sent[st]++;
					sent[dt] += 1 << 16;
					thin.d[thin.n++] = dm.d[i];
				}
			}
			assert_int_equal(optimal(&f, &thin), 1);
			free(sent);
			free(thin.d);
			free(dm.d);

			demand_init(&dm, (size_t)n * (round + 1));
			random_pairs(&dm, f.t, dm.cap);
			l = optimal(&f, &dm);
			assert_int_equal(
				l,
				tor_bound(f.t, &dm) >
						unit_node_load(f.t, dm.d, dm.n)
					? tor_bound(f.t, &dm)
					: unit_node_load(f.t, dm.d, dm.n));
			free(dm.d);
		}
		/* Shift by a pod: every flow leaves its ToR, T per port. */
		{
			struct demand dm;

			demand_init(&dm, n);
			shift(&dm, f.t, n / f.t->node[f.t->roots[0]].ndown);
			assert_int_equal(optimal(&f, &dm), (h + u - 1) / u);
			free(dm.d);
		}
		destroy(&f);
	}
}

/*
 * SDN-adaptive: SDN-optimal's contention-free paths when the demand is at
 * most a permutation (and, tapered, fits the ToR up ports); otherwise the
 * flows are left to multipath routing and out is untouched.
 */
static void test_adaptive(void **state)
{
	char err[DARD_ERR_MAX];
	struct dard_path *out, mark;
	struct demand dm;
	struct fix f;
	uint32_t i;

	(void)state;
	srand(13);
	memset(&mark, 0x5a, sizeof(mark));
	build(&f, "fattree:8");
	out = calloc(2 * f.t->nhosts, sizeof(*out));
	assert_non_null(out);
	demand_init(&dm, 2 * f.t->nhosts);
	permutation(&dm, f.t);
	assert_int_equal(dard_route_adaptive(f.pc, f.t, dm.d, dm.n, out, err),
			 DARD_SDN_SINGLE);
	assert_int_equal(check_placement(&f, &dm, out), 1);
	/* Half a permutation is less than one. */
	dm.n /= 2;
	assert_int_equal(dard_route_adaptive(f.pc, f.t, dm.d, dm.n, out, err),
			 DARD_SDN_SINGLE);
	assert_int_equal(check_placement(&f, &dm, out), 1);
	/* One host with two flows: more than a permutation. */
	dm.n = f.t->nhosts;
	add(&dm, f.t, 0, 5);
	for (i = 0; i < dm.n; i++)
		out[i] = mark;
	assert_int_equal(dard_route_adaptive(f.pc, f.t, dm.d, dm.n, out, err),
			 DARD_SDN_MULTIPATH);
	for (i = 0; i < dm.n; i++)
		assert_memory_equal(&out[i], &mark, sizeof(mark));
	/* Nothing to place. */
	assert_int_equal(dard_route_adaptive(f.pc, f.t, dm.d, 0, out, err),
			 DARD_SDN_SINGLE);
	free(dm.d);
	free(out);
	destroy(&f);

	/* Tapered 3:1: a shift by a pod is a permutation, yet too much. */
	build(&f, "fattree:8,3");
	out = calloc(f.t->nhosts, sizeof(*out));
	assert_non_null(out);
	demand_init(&dm, f.t->nhosts);
	shift(&dm, f.t, 24);
	assert_int_equal(unit_node_load(f.t, dm.d, dm.n), 1);
	assert_int_equal(dard_route_adaptive(f.pc, f.t, dm.d, dm.n, out, err),
			 DARD_SDN_MULTIPATH);
	/* Two hosts of six per ToR, one per up port: free of contention. */
	dm.n = 0;
	for (i = 0; i < f.t->nhosts; i++)
		if (i % 6 < 2)
			add(&dm, f.t, i, (i + 24) % f.t->nhosts);
	assert_int_equal(dard_route_adaptive(f.pc, f.t, dm.d, dm.n, out, err),
			 DARD_SDN_SINGLE);
	assert_int_equal(check_placement(&f, &dm, out), 1);
	free(dm.d);
	free(out);
	destroy(&f);

	build(&f, "3tier");
	{
		struct dard_demand d = {f.t->hosts[0], f.t->hosts[7]};
		struct dard_path p;

		assert_int_equal(dard_route_adaptive(f.pc, f.t, &d, 1, &p, err),
				 -EINVAL);
	}
	destroy(&f);
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
	assert_int_equal(unit_node_load(f.t, d, 1), 1);
	assert_int_equal(unit_node_load(f.t, d, 3), 2);
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
		cmocka_unit_test(test_optimal_tapered),
		cmocka_unit_test(test_adaptive),
		cmocka_unit_test(test_node_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
