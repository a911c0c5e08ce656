// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Tests path enumeration, counting and alias-pair decoding. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "addr.h"
#include "gen.h"
#include "path.h"
#include "unit.h"

enum { MAX_PATHS = 64 };

struct fixture {
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_pathctx *c;
};

struct pathlist {
	struct dard_path path[MAX_PATHS];
	unsigned n;
};

static void build(struct fixture *f, const char *spec, const char *base)
{
	unit_build(spec, base, DARD_MODE_AUTO, &f->t, &f->p);
	f->c = dard_pathctx_new(f->t, f->p);
	assert_non_null(f->c);
}

static void destroy(struct fixture *f)
{
	dard_pathctx_free(f->c);
	dard_plan_free(f->p);
	dard_topo_free(f->t);
}

static int collect(const struct dard_path *path, void *arg)
{
	struct pathlist *pl = arg;

	if (pl->n == MAX_PATHS)
		fail_msg("more than %d paths", MAX_PATHS);
	pl->path[pl->n++] = *path;
	return 0;
}

static void paths(struct fixture *f, uint32_t src, uint32_t dst,
		  struct pathlist *pl)
{
	long n;

	pl->n = 0;
	n = dard_path_foreach(f->c, src, dst, collect, pl);
	assert_int_equal(n, pl->n);
}

static void check_count(struct fixture *f, unsigned src, unsigned dst,
			long want)
{
	uint32_t s = f->t->hosts[src], d = f->t->hosts[dst];
	long n = dard_path_count(f->c, s, d),
	     back = dard_path_count(f->c, d, s);

	if (n != want || back != want)
		fail_msg("%s: %s <-> %s: %ld and %ld paths, expected %ld",
			 f->t->name, f->t->node[s].name, f->t->node[d].name, n,
			 back, want);
}

static void test_count_fattree(void **state)
{
	static const unsigned ps[] = {4, 6, 8, 16, 32, 48};
	unsigned i;

	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		unsigned p = ps[i], h = p / 2, pod = h * h;
		struct fixture f;
		char spec[16];

		snprintf(spec, sizeof(spec), "fattree:%u", p);
		build(&f, spec, p > 32 ? "16.0.0.0/4" : NULL);
		/* hosts[] runs pod by pod, ToR by ToR, h hosts a ToR. */
		check_count(&f, 0, 1, 1);
		check_count(&f, 0, h - 1, 1);
		check_count(&f, 0, h, h);
		check_count(&f, 0, pod - 1, h);
		check_count(&f, 0, pod, p * p / 4);
		check_count(&f, 1, f.t->nhosts - 1, p * p / 4);
		check_count(&f, pod, 2 * pod - 1, h);
		assert_int_equal(
			dard_path_count(f.c, f.t->hosts[0], f.t->hosts[0]), 0);
		destroy(&f);
	}
}

static void test_count_clos(void **state)
{
	static const unsigned das[] = {4, 8, 16};
	unsigned i;

	for (i = 0; i < sizeof(das) / sizeof(das[0]); i++) {
		unsigned da = das[i], pod = da / 2 * 2;
		struct fixture f;
		char spec[32];

		snprintf(spec, sizeof(spec), "clos:%u,%u,2", da, da);
		build(&f, spec, NULL);
		check_count(&f, 0, 1, 1);
		check_count(&f, 0, 2, 2);
		check_count(&f, 0, pod - 1, 2);
		check_count(&f, 0, pod, 2 * da);
		check_count(&f, 3, f.t->nhosts - 1, 2 * da);
		destroy(&f);
	}
}

static void test_count_3tier(void **state)
{
	struct fixture f;

	build(&f, "3tier", NULL);
	/* 5 hosts an access switch, 60 a pod. */
	check_count(&f, 0, 4, 1);
	check_count(&f, 0, 5, 2);
	check_count(&f, 7, 59, 2);
	check_count(&f, 0, 60, 32);
	check_count(&f, 0, 239, 32);
	destroy(&f);
}

static int same_path(const struct dard_path *a, const struct dard_path *b)
{
	return a->nsw == b->nsw &&
	       !memcmp(a->sw, b->sw, a->nsw * sizeof(a->sw[0]));
}

/*
 * Every enumerated path decodes back to itself, is named by the turning
 * switch's first prefix, and the paths of a pair are all distinct.
 */
static void check_pair(struct fixture *f, uint32_t src, uint32_t dst)
{
	const struct dard_topo *t = f->t;
	struct pathlist pl;
	char err[DARD_ERR_MAX], b1[24], b2[24];
	unsigned i, j;

	paths(f, src, dst, &pl);
	assert_true(pl.n > 0);
	for (i = 0; i < pl.n; i++) {
		const struct dard_path *p = &pl.path[i];
		struct dard_path out;
		uint32_t top = p->sw[t->nlevels - 1 - p->top];
		uint32_t m = dard_mask(f->p->plen[p->top]);
		uint32_t first = f->p->alloc[t->node[top].alloc].prefix;
		int ret;

		assert_int_equal(p->src, src);
		assert_int_equal(p->dst, dst);
		assert_int_equal(p->shortest, 1);
		assert_int_equal(p->nsw, 2 * (t->nlevels - p->top) - 1);
		assert_int_equal(t->node[top].level, p->top);
		assert_int_equal(p->saddr & m, first);
		assert_int_equal(p->daddr & m, first);

		memset(&out, 0x5a, sizeof(out));
		ret = dard_path_decode(f->c, p->saddr, p->daddr, &out, err);
		if (ret)
			fail_msg("%s -> %s: %s", dard_addr_str(p->saddr, b1),
				 dard_addr_str(p->daddr, b2), err);
		assert_int_equal(out.src, src);
		assert_int_equal(out.dst, dst);
		assert_int_equal(out.saddr, p->saddr);
		assert_int_equal(out.daddr, p->daddr);
		assert_int_equal(out.nsw, p->nsw);
		assert_memory_equal(out.sw, p->sw, p->nsw * sizeof(p->sw[0]));
		assert_int_equal(out.top, p->top);
		assert_int_equal(out.shortest, 1);

		for (j = 0; j < i; j++) {
			const struct dard_path *q = &pl.path[j];

			if (q->saddr == p->saddr && q->daddr == p->daddr)
				fail_msg("%s -> %s named twice",
					 dard_addr_str(p->saddr, b1),
					 dard_addr_str(p->daddr, b2));
			if (same_path(p, q))
				fail_msg("%s -> %s: paths %u and %u are equal",
					 t->node[src].name, t->node[dst].name,
					 j, i);
		}
	}
}

/*
 * check_pair on host pairs of spec, every si-th source and dj-th
 * destination; returns how many pairs.
 */
static uint32_t roundtrip(const char *spec, uint32_t si, uint32_t dj)
{
	struct fixture f;
	uint32_t i, j, pairs = 0;

	build(&f, spec, NULL);
	for (i = 0; i < f.t->nhosts; i += si)
		for (j = 0; j < f.t->nhosts; j += dj)
			if (i != j) {
				check_pair(&f, f.t->hosts[i], f.t->hosts[j]);
				pairs++;
			}
	destroy(&f);
	return pairs;
}

static void test_roundtrip_fattree4(void **state)
{
	assert_int_equal(roundtrip("fattree:4", 1, 1), 16 * 15);
}

/* Every path of fattree:8: all 128 * 127 host pairs. */
static void test_roundtrip_fattree8(void **state)
{
	assert_int_equal(roundtrip("fattree:8", 1, 1), 128 * 127);
}

static void test_roundtrip_other(void **state)
{
	roundtrip("clos:4,4", 1, 1);
	/* Tapered ToRs: fewer paths, the same naming. */
	roundtrip("fattree:4,3", 1, 1);
	roundtrip("fattree:8,3", 5, 3);
	roundtrip("3tier:2", 5, 5);
}

/* Inter-pod paths climb ToR, aggr, core and come down aggr, ToR. */
static void test_shape_fattree4(void **state)
{
	struct fixture f;
	struct pathlist pl;
	uint32_t i, j, k, l;

	build(&f, "fattree:4", NULL);
	for (i = 0; i < f.t->nhosts; i++) {
		for (j = 0; j < f.t->nhosts; j++) {
			uint32_t s = f.t->hosts[i], d = f.t->hosts[j];
			uint32_t stor = dard_topo_tor(f.t, s);
			uint32_t dtor = dard_topo_tor(f.t, d);
			unsigned seen = 0;

			if (i == j)
				continue;
			paths(&f, s, d, &pl);
			for (k = 0; k < pl.n; k++) {
				const struct dard_path *p = &pl.path[k];
				static const uint8_t inter[] = {2, 1, 0, 1, 2};
				static const uint8_t intra[] = {2, 1, 2};
				const uint8_t *want;

				assert_int_equal(p->sw[0], stor);
				assert_int_equal(p->sw[p->nsw - 1], dtor);
				if (stor == dtor) {
					assert_int_equal(p->nsw, 1);
					assert_int_equal(p->top, 2);
					continue;
				}
				if (i / 4 == j / 4) {
					assert_int_equal(p->nsw, 3);
					assert_int_equal(p->top, 1);
					want = intra;
				} else {
					assert_int_equal(p->nsw, 5);
					assert_int_equal(p->top, 0);
					want = inter;
				}
				for (l = 0; l < p->nsw; l++)
					assert_int_equal(
						f.t->node[p->sw[l]].level,
						want[l]);
				for (l = 1; l < p->nsw; l++)
					assert_int_not_equal(
						dard_topo_link_between(
							f.t, p->sw[l - 1],
							p->sw[l]),
						DARD_NONE);
				/* Each inter-pod path turns at its own core. */
				if (p->top == 0)
					seen |= 1u << f.t->node[p->sw[2]].rank;
			}
			if (stor != dtor && i / 4 != j / 4)
				assert_int_equal(seen, 0xf);
		}
	}
	destroy(&f);
}

static void test_decode_named(void **state)
{
	struct fixture f;
	struct dard_path out;
	char err[DARD_ERR_MAX];

	build(&f, "fattree:4", NULL);
	/* Figure 2's dotted path: e1_1 -> e2_1 through core1. */
	assert_int_equal(dard_path_decode(f.c, A("10.4.16.66"), A("10.4.32.66"),
					  &out, err),
			 0);
	assert_int_equal(out.src, find(f.t, "e1_1"));
	assert_int_equal(out.dst, find(f.t, "e2_1"));
	assert_int_equal(out.nsw, 5);
	assert_int_equal(out.sw[0], find(f.t, "tor1_1"));
	assert_int_equal(out.sw[1], find(f.t, "aggr1_1"));
	assert_int_equal(out.sw[2], find(f.t, "core1"));
	assert_int_equal(out.sw[3], find(f.t, "aggr2_1"));
	assert_int_equal(out.sw[4], find(f.t, "tor2_1"));
	assert_int_equal(out.top, 0);
	assert_int_equal(out.shortest, 1);

	/* Different roots still meet at a shared ToR or aggr. */
	assert_int_equal(dard_path_decode(f.c, A("10.4.16.66"), A("10.8.16.67"),
					  &out, err),
			 0);
	assert_int_equal(out.nsw, 1);
	assert_int_equal(out.sw[0], find(f.t, "tor1_1"));
	assert_int_equal(out.shortest, 1);
	assert_int_equal(dard_path_decode(f.c, A("10.4.16.66"),
					  A("10.8.16.130"), &out, err),
			 0);
	assert_int_equal(out.nsw, 3);
	assert_int_equal(out.sw[1], find(f.t, "aggr1_1"));
	assert_int_equal(out.dst, find(f.t, "e1_3"));
	assert_int_equal(out.shortest, 1);
	destroy(&f);
}

static void expect_error(struct fixture *f, const char *s, const char *d,
			 int ret, const char *msg)
{
	struct dard_path out;
	char err[DARD_ERR_MAX] = "";
	int r = dard_path_decode(f->c, A(s), A(d), &out, err);

	if (r != ret)
		fail_msg("%s -> %s: returned %d, expected %d (%s)", s, d, r,
			 ret, err);
	if (!strstr(err, msg))
		fail_msg("%s -> %s: error `%s' lacks `%s'", s, d, err, msg);
}

static void test_decode_errors(void **state)
{
	struct fixture f;

	build(&f, "fattree:4", NULL);
	/* core1's uphill path never meets core2's downhill path. */
	expect_error(&f, "10.4.16.66", "10.8.32.66", -ENOENT, "names no path");
	expect_error(&f, "10.4.16.66", "10.16.64.131", -ENOENT,
		     "names no path");
	/* Within a pod, aggr1_1 and aggr1_2 share no core. */
	expect_error(&f, "10.4.16.66", "10.12.16.130", -ENOENT,
		     "names no path");
	/* Both ends on one host. */
	expect_error(&f, "10.4.16.66", "10.8.16.66", -EINVAL,
		     "both belong to e1_1");
	expect_error(&f, "10.4.16.66", "10.4.16.66", -EINVAL, "both belong");
	/* Not aliases. */
	expect_error(&f, "172.16.0.1", "10.4.32.66", -EINVAL, "source:");
	expect_error(&f, "10.4.16.66", "10.4.32.65", -EINVAL, "destination:");
	expect_error(&f, "10.4.16.66", "10.20.32.66", -EINVAL, "destination:");
	destroy(&f);
}

/*
 * On a Clos network the two aggregation switches of a pod share every
 * intermediate switch, so an alias pair can name the long way round: up
 * through one aggregation switch to the root and down the other. Such a
 * pair decodes, but not as a shortest path; enumeration never yields one.
 */
static void test_clos_nonshortest(void **state)
{
	uint32_t sc[DARD_LEVEL_MAX + 1], dc[DARD_LEVEL_MAX + 1];
	struct fixture f;
	struct pathlist pl;
	char err[DARD_ERR_MAX];
	uint32_t s, d, i, j, longer = 0, shorter = 0, none = 0;

	build(&f, "clos:4,4", NULL);
	s = find(f.t, "e1_1");
	d = find(f.t, "e1_3");
	assert_int_not_equal(dard_topo_tor(f.t, s), dard_topo_tor(f.t, d));
	assert_int_equal(dard_plan_naliases(f.t, s), 4);
	for (i = 0; i < dard_plan_naliases(f.t, s); i++) {
		uint32_t sa = dard_plan_alias(f.t, f.p, s, i);

		assert_int_equal(dard_plan_decode(f.t, f.p, sa, sc, err), s);
		for (j = 0; j < dard_plan_naliases(f.t, d); j++) {
			uint32_t da = dard_plan_alias(f.t, f.p, d, j);
			struct dard_path out;
			int ret;

			assert_int_equal(
				dard_plan_decode(f.t, f.p, da, dc, err), d);
			ret = dard_path_decode(f.c, sa, da, &out, err);
			if (sc[0] != dc[0] && sc[1] != dc[1]) {
				assert_int_equal(ret, -ENOENT);
				none++;
				continue;
			}
			assert_int_equal(ret, 0);
			if (sc[1] == dc[1]) {
				/* Turns at the shared aggregation switch. */
				assert_int_equal(out.shortest, 1);
				assert_int_equal(out.top, 1);
				assert_int_equal(out.nsw, 3);
				assert_int_equal(out.sw[1], sc[1]);
				shorter++;
				continue;
			}
			/* Same root, different aggregation switches. */
			assert_int_equal(out.shortest, 0);
			assert_int_equal(out.top, 0);
			assert_int_equal(out.nsw, 5);
			assert_int_equal(out.sw[1], sc[1]);
			assert_int_equal(out.sw[2], sc[0]);
			assert_int_equal(out.sw[3], dc[1]);
			assert_int_not_equal(out.sw[1], out.sw[3]);
			longer++;
		}
	}
	assert_true(longer >= 1);
	assert_true(shorter >= 1);
	assert_int_equal(longer + shorter + none, 16);

	paths(&f, s, d, &pl);
	assert_int_equal(pl.n, 2);
	for (i = 0; i < pl.n; i++) {
		struct dard_path out;

		assert_int_equal(pl.path[i].shortest, 1);
		assert_int_equal(dard_path_decode(f.c, pl.path[i].saddr,
						  pl.path[i].daddr, &out, err),
				 0);
		assert_int_equal(out.shortest, 1);
		assert_int_equal(out.nsw, 3);
	}
	destroy(&f);
}

/* The links of a path chain from the source host to the destination. */
static void check_links(struct fixture *f, const struct dard_path *p)
{
	const struct dard_topo *t = f->t;
	uint32_t links[2 * DARD_LEVEL_MAX + 1], prev = p->src;
	unsigned n = dard_path_links(t, p, links), i, j;

	assert_int_equal(n, p->nsw + 1);
	for (i = 0; i < n; i++) {
		uint32_t next = i < p->nsw ? p->sw[i] : p->dst;
		const struct dard_link *l;

		assert_int_not_equal(links[i], DARD_NONE);
		assert_true(links[i] < t->nlinks);
		l = &t->link[links[i]];
		if (!((l->up == prev && l->down == next) ||
		      (l->down == prev && l->up == next)))
			fail_msg("link %u of %s -> %s does not join %s and %s",
				 i, t->node[p->src].name, t->node[p->dst].name,
				 t->node[prev].name, t->node[next].name);
		for (j = 0; j < i; j++)
			assert_int_not_equal(links[i], links[j]);
		prev = next;
	}
	assert_int_equal(t->link[links[0]].down, p->src);
	assert_int_equal(t->link[links[n - 1]].down, p->dst);
}

static void test_links(void **state)
{
	static const char *const specs[] = {"fattree:4", "clos:4,4"};
	struct pathlist pl;
	struct dard_path out;
	char err[DARD_ERR_MAX];
	unsigned s, i, j, k;

	for (s = 0; s < 2; s++) {
		struct fixture f;

		build(&f, specs[s], NULL);
		for (i = 0; i < f.t->nhosts; i++)
			for (j = 0; j < f.t->nhosts; j++) {
				if (i == j)
					continue;
				paths(&f, f.t->hosts[i], f.t->hosts[j], &pl);
				for (k = 0; k < pl.n; k++)
					check_links(&f, &pl.path[k]);
			}
		destroy(&f);
	}

	/* Also for a decoded path that is not shortest. */
	{
		struct fixture f;

		build(&f, "clos:4,4", NULL);
		/* int1 -> aggr1_1 -> tor1_1 and int1 -> aggr1_2 -> tor1_2. */
		s = find(f.t, "e1_1");
		k = find(f.t, "e1_3");
		for (i = 0; i < 4; i++)
			for (j = 0; j < 4; j++)
				if (!dard_path_decode(
					    f.c,
					    dard_plan_alias(f.t, f.p, s, i),
					    dard_plan_alias(f.t, f.p, k, j),
					    &out, err))
					check_links(&f, &out);
		destroy(&f);
	}
}

static int stop_at_second(const struct dard_path *path, void *arg)
{
	unsigned *calls = arg;

	return ++*calls == 2 ? 7 : 0;
}

/*
 * dard_path_make names a path from its switches as the enumeration does,
 * on every path of fattree:4 and fattree:4,3, and refuses chains that are
 * not paths.
 */
static void test_make(void **state)
{
	static const char *const specs[] = {"fattree:4", "fattree:4,3"};
	unsigned s, i, j, k;

	for (s = 0; s < 2; s++) {
		struct fixture f;

		build(&f, specs[s], NULL);
		for (i = 0; i < f.t->nhosts; i++)
			for (j = 0; j < f.t->nhosts; j++) {
				uint32_t src = f.t->hosts[i],
					 dst = f.t->hosts[j];
				struct pathlist pl;

				if (i == j)
					continue;
				paths(&f, src, dst, &pl);
				for (k = 0; k < pl.n; k++) {
					const struct dard_path *p = &pl.path[k];
					struct dard_path q;

					memset(&q, 0x5a, sizeof(q));
					assert_int_equal(
						dard_path_make(f.c, src, dst,
							       p->sw, p->nsw,
							       &q),
						0);
					assert_int_equal(q.src, src);
					assert_int_equal(q.dst, dst);
					assert_int_equal(q.saddr, p->saddr);
					assert_int_equal(q.daddr, p->daddr);
					assert_true(same_path(&q, p));
					assert_int_equal(q.top, p->top);
					assert_int_equal(q.shortest, 1);
				}
			}
		destroy(&f);
	}
	{
		struct fixture f;
		uint32_t e11, e12, e21, sw[5];
		struct dard_path q;

		build(&f, "fattree:4", NULL);
		e11 = find(f.t, "e1_1");
		e12 = find(f.t, "e1_2");
		e21 = find(f.t, "e2_1");
		/* Up into a core and down to the wrong ToR. */
		sw[0] = find(f.t, "tor1_1");
		sw[1] = find(f.t, "aggr1_1");
		sw[2] = find(f.t, "core1");
		sw[3] = find(f.t, "aggr2_1");
		sw[4] = find(f.t, "tor2_2");
		assert_int_equal(dard_path_make(f.c, e11, e21, sw, 5, &q),
				 -EINVAL);
		/* Not adjacent: ToR straight to a core. */
		sw[1] = sw[2];
		assert_int_equal(dard_path_make(f.c, e11, e21, sw + 1, 4, &q),
				 -EINVAL);
		/* Up, down and up again. */
		sw[0] = find(f.t, "tor1_1");
		sw[1] = find(f.t, "aggr1_1");
		sw[2] = find(f.t, "tor1_2");
		sw[3] = find(f.t, "aggr1_2");
		sw[4] = find(f.t, "tor1_1");
		assert_int_equal(dard_path_make(f.c, e11, e12, sw, 5, &q),
				 -EINVAL);
		/* The right one under one ToR. */
		assert_int_equal(dard_path_make(f.c, e11, e12, sw, 1, &q), 0);
		assert_int_equal(q.nsw, 1);
		assert_int_equal(q.top, 2);
		destroy(&f);
	}
}

static void test_foreach_stop(void **state)
{
	struct fixture f;
	unsigned calls = 0;

	build(&f, "fattree:4", NULL);
	assert_int_equal(dard_path_foreach(f.c, f.t->hosts[0], f.t->hosts[15],
					   stop_at_second, &calls),
			 7);
	assert_int_equal(calls, 2);
	destroy(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count_fattree),
		cmocka_unit_test(test_count_clos),
		cmocka_unit_test(test_count_3tier),
		cmocka_unit_test(test_roundtrip_fattree4),
		cmocka_unit_test(test_make),
		cmocka_unit_test(test_roundtrip_fattree8),
		cmocka_unit_test(test_roundtrip_other),
		cmocka_unit_test(test_shape_fattree4),
		cmocka_unit_test(test_decode_named),
		cmocka_unit_test(test_decode_errors),
		cmocka_unit_test(test_clos_nonshortest),
		cmocka_unit_test(test_links),
		cmocka_unit_test(test_foreach_stop),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
