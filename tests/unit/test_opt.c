// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * OPT, the max-min fair rates under the best splittable routing, checked
 * as the seed paper states it: OPT gives the same rates as MMF_PGFT_PF,
 * progressive filling over every link with each flow split evenly over
 * all its shortest paths (UAPR), which is written here from the paths
 * dard_path_foreach() gives, independently of OPT's sub-fat-trees. Also:
 * the definition (every flow has a saturated link on which no flow gets
 * more), the same rates on one or more threads, hand-computed cases, and
 * the trees OPT refuses. test_lp.c checks OPT against a multi-commodity
 * LP.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "unit.h"
#include "opt.h"
#include "path.h"

/* Each flow's share of its rate on each directed link (2l up, 2l+1 down). */
struct uapr {
	const struct dard_topo *t;
	size_t nf;
	uint32_t ndl;
	double *w; /* nf * ndl */
	double *cap;
};

struct walk {
	const struct dard_topo *t;
	double *row;
	long n;
};

static int add_path(const struct dard_path *p, void *arg)
{
	struct walk *k = arg;
	uint32_t dl[2 * DARD_LEVEL_MAX + 1];
	unsigned n = dard_path_dlinks_all(k->t, p, dl), i;

	for (i = 0; i < n; i++)
		k->row[dl[i]] += 1;
	k->n++;
	return 0;
}

static void uapr_build(struct uapr *u, const struct dard_topo *t,
		       struct dard_pathctx *pc, const struct dard_demand *d,
		       size_t nf)
{
	size_t f;
	uint32_t l;

	u->t = t;
	u->nf = nf;
	u->ndl = 2 * t->nlinks;
	u->w = calloc(nf * u->ndl, sizeof(*u->w));
	u->cap = malloc(u->ndl * sizeof(*u->cap));
	assert_non_null(u->w);
	assert_non_null(u->cap);
	for (l = 0; l < u->ndl; l++)
		u->cap[l] = t->link[l / 2].mbps;
	for (f = 0; f < nf; f++) {
		struct walk k = {t, u->w + f * u->ndl, 0};

		if (d[f].src == d[f].dst)
			continue;
		dard_path_foreach(pc, d[f].src, d[f].dst, add_path, &k);
		assert_true(k.n > 0);
		for (l = 0; l < u->ndl; l++)
			k.row[l] /= k.n;
	}
}

static void uapr_free(struct uapr *u)
{
	free(u->w);
	free(u->cap);
}

/* MMF_PGFT_PF (Fig. 6), with its rate limiting factor a flow rate. */
static void pf(const struct uapr *u, double *rate)
{
	uint8_t *fixed = calloc(u->nf, 1), *sat = calloc(u->ndl, 1);
	double *rem = malloc(u->ndl * sizeof(*rem));
	double *rl = malloc(u->ndl * sizeof(*rl));
	size_t f, left = 0;
	uint32_t l;

	for (l = 0; l < u->ndl; l++)
		rem[l] = u->cap[l];
	for (f = 0; f < u->nf; f++) {
		rate[f] = HUGE_VAL;
		for (l = 0; l < u->ndl; l++)
			if (u->w[f * u->ndl + l] > 0)
				break;
		fixed[f] = l == u->ndl;
		left += !fixed[f];
	}
	while (left) {
		double r = HUGE_VAL;

		for (l = 0; l < u->ndl; l++) {
			double share = 0;

			for (f = 0; f < u->nf; f++)
				if (!fixed[f])
					share += u->w[f * u->ndl + l];
			rl[l] = share > 0 ? rem[l] / share : HUGE_VAL;
			if (rl[l] < r)
				r = rl[l];
		}
		for (l = 0; l < u->ndl; l++)
			sat[l] = rl[l] <= r * (1 + 1e-9);
		for (f = 0; f < u->nf; f++) {
			const double *w = u->w + f * u->ndl;

			if (fixed[f])
				continue;
			for (l = 0; l < u->ndl && !(sat[l] && w[l] > 0); l++)
				;
			if (l == u->ndl)
				continue;
			fixed[f] = 1;
			left--;
			rate[f] = r;
			for (l = 0; l < u->ndl; l++)
				rem[l] -= r * w[l];
		}
	}
	free(fixed);
	free(sat);
	free(rem);
	free(rl);
}

/*
 * The definition for the even split: no link over capacity, and every
 * flow has a saturated link where no flow gets more than it.
 */
static void check_bottlenecks(const struct uapr *u, const double *rate)
{
	double *load = calloc(u->ndl, sizeof(*load));
	size_t f, g;
	uint32_t l;

	for (f = 0; f < u->nf; f++)
		for (l = 0; l < u->ndl; l++)
			if (u->w[f * u->ndl + l] > 0)
				load[l] += rate[f] * u->w[f * u->ndl + l];
	for (l = 0; l < u->ndl; l++)
		if (load[l] > u->cap[l] * (1 + 1e-9))
			fail_msg("link %u carries %g of %g", l, load[l],
				 u->cap[l]);
	for (f = 0; f < u->nf; f++) {
		int found = 0, any = 0;

		for (l = 0; l < u->ndl && !found; l++) {
			if (!(u->w[f * u->ndl + l] > 0))
				continue;
			any = 1;
			if (load[l] < u->cap[l] * (1 - 1e-9))
				continue;
			found = 1;
			for (g = 0; g < u->nf; g++)
				if (u->w[g * u->ndl + l] > 0 &&
				    rate[g] > rate[f] * (1 + 1e-9))
					found = 0;
		}
		if (any && !found)
			fail_msg("flow %zu (%g) has no bottleneck", f, rate[f]);
		if (!any)
			assert_true(isinf(rate[f]));
	}
	free(load);
}

static unsigned opt_rates(const struct dard_topo *t,
			  const struct dard_demand *d, size_t n,
			  unsigned threads, double *rate)
{
	char err[DARD_ERR_MAX] = "";
	struct dard_opt *o = dard_opt_new(t, err);
	struct dard_opt_stats st;

	if (!o)
		fail_msg("%s: %s", t->name, err);
	if (dard_opt_rates(o, d, n, threads, rate, &st, err))
		fail_msg("%s: %s", t->name, err);
	assert_int_equal(st.threads, threads);
	dard_opt_free(o);
	return st.rounds;
}

static struct dard_demand D(const struct dard_topo *t, const char *s,
			    const char *d) {
	return (struct dard_demand){find(t, s), find(t, d)};
}

static void
assert_rate(double got, double want)
{
	if (fabs(got - want) > 1e-9 * want)
		fail_msg("rate %.12g, expected %.12g", got, want);
}

/* Capacities per level of the up end, host links included. */
static void set_caps(struct dard_topo *t, const uint32_t *by_level)
{
	uint32_t l;

	for (l = 0; l < t->nlinks; l++)
		t->link[l].mbps = by_level[t->node[t->link[l].up].level];
}

static void test_hand(void **state)
{
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_demand d[8];
	double r[8];
	char err[DARD_ERR_MAX] = "";
	struct dard_opt *o;
	unsigned i;

	(void)state;
	unit_build("fattree:4", NULL, 0, &t, &p);
	/*
	 * e1_1 sends to two hosts, and e2_1 receives from two: 500 each,
	 * whatever the paths. e1_3 alone gets its NIC. The fat-tree has
	 * full bisection, so no switch link limits anyone.
	 */
	d[0] = D(t, "e1_1", "e2_1");
	d[1] = D(t, "e1_1", "e3_1");
	d[2] = D(t, "e1_2", "e2_1");
	d[3] = D(t, "e1_3", "e4_1");
	d[4] = D(t, "e1_4", "e1_4"); /* to itself: no link, no limit */
	assert_int_equal(opt_rates(t, d, 5, 1, r), 2);
	assert_rate(r[0], 500);
	assert_rate(r[1], 500);
	assert_rate(r[2], 500);
	assert_rate(r[3], 1000);
	assert_true(isinf(r[4]));
	/* Two flows between one pair of ToRs: room for both. */
	d[0] = D(t, "e1_1", "e3_1");
	d[1] = D(t, "e1_2", "e3_2");
	opt_rates(t, d, 2, 2, r);
	assert_rate(r[0], 1000);
	assert_rate(r[1], 1000);
	/* Core links at 250: pod 1's four up links carry 1000 in all. */
	set_caps(t, (const uint32_t[]){250, 1000, 1000});
	for (i = 0; i < 4; i++) {
		char s[16], dst[16];

		snprintf(s, sizeof(s), "e1_%u", i + 1);
		snprintf(dst, sizeof(dst), "e2_%u", i + 1);
		d[i] = D(t, s, dst);
	}
	d[4] = D(t, "e1_1", "e1_2"); /* inside the ToR: its NIC only */
	assert_int_equal(opt_rates(t, d, 5, 1, r), 2);
	for (i = 0; i < 4; i++)
		assert_rate(r[i], 250);
	assert_rate(r[4], 750);
	/* A flow between two switches is refused. */
	d[0] = D(t, "core1", "e1_1");
	o = dard_opt_new(t, err);
	assert_non_null(o);
	assert_int_equal(dard_opt_rates(o, d, 1, 1, r, NULL, err), -EINVAL);
	assert_true(strstr(err, "flow 0") != NULL);
	assert_int_equal(
		dard_opt_rates(o, d, 0, DARD_OPT_THREADS_MAX + 1, r, NULL, err),
		-EINVAL);
	dard_opt_free(o);
	dard_plan_free(p);
	dard_topo_free(t);

	/*
	 * The three-tier tree: 5 hosts over 2 up links per access switch,
	 * 24 access links over 16 core links per pod. Pod 1's 60 hosts to
	 * pod 2: 2000/5 = 400 each at the access switches, but the pod's
	 * 16,000 over 60 flows is less, 266.67; one flow inside an access
	 * switch gets its NICs.
	 */
	unit_build("3tier:2", NULL, 0, &t, &p);
	{
		struct dard_demand big[61];
		double rb[61];

		for (i = 0; i < 60; i++) {
			char s[16], dst[16];

			snprintf(s, sizeof(s), "e1_%u", i + 1);
			snprintf(dst, sizeof(dst), "e2_%u", i + 1);
			big[i] = D(t, s, dst);
		}
		/* Only the first 5 from one access switch: 400 each. */
		assert_int_equal(opt_rates(t, big, 5, 1, rb), 1);
		for (i = 0; i < 5; i++)
			assert_rate(rb[i], 400);
		big[60] = D(t, "e1_1", "e1_2");
		assert_int_equal(opt_rates(t, big, 61, 2, rb), 2);
		for (i = 0; i < 60; i++)
			assert_rate(rb[i], 16000.0 / 60);
		assert_rate(rb[60], 1000 - 16000.0 / 60);
	}
	dard_plan_free(p);
	dard_topo_free(t);
}

/* Random demands: a few hosts send and receive many flows. */
static size_t random_demand(const struct dard_topo *t, struct dard_demand *d,
			    size_t max)
{
	size_t n = 1 + rand() % max, i;
	uint32_t hot = 1 + rand() % t->nhosts;

	for (i = 0; i < n; i++) {
		d[i].src = t->hosts[rand() % (rand() % 2 ? hot : t->nhosts)];
		d[i].dst = t->hosts[rand() % t->nhosts];
	}
	return n;
}

static void compare(const char *spec, unsigned rounds, size_t maxf, int slim)
{
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_pathctx *pc;
	struct dard_demand *d = calloc(maxf, sizeof(*d));
	double *r = calloc(maxf, sizeof(*r)), *want = calloc(maxf, sizeof(*r));
	unsigned round;
	size_t n, f;

	unit_build(spec, NULL, 0, &t, &p);
	pc = dard_pathctx_new(t, p);
	assert_non_null(pc);
	for (round = 0; round < rounds; round++) {
		struct uapr u;

		if (slim) {
			uint32_t c[3] = {100 * (1 + rand() % 10),
					 100 * (1 + rand() % 10), 1000};

			set_caps(t, c);
		}
		n = random_demand(t, d, maxf);
		opt_rates(t, d, n, 1 + round % 2, r);
		uapr_build(&u, t, pc, d, n);
		pf(&u, want);
		for (f = 0; f < n; f++)
			if (fabs(r[f] - want[f]) > 1e-6 * want[f])
				fail_msg(
					"%s round %u flow %zu: OPT %.9g, PF %.9g",
					spec, round, f, r[f], want[f]);
		check_bottlenecks(&u, r);
		uapr_free(&u);
	}
	dard_pathctx_free(pc);
	dard_plan_free(p);
	dard_topo_free(t);
	free(d);
	free(r);
	free(want);
}

static void test_pf_fattree(void **state)
{
	(void)state;
	srand(3);
	compare("fattree:4", 200, 40, 0);
	compare("fattree:4", 200, 40, 1);
	compare("fattree:6", 40, 120, 1);
	compare("fattree:8", 10, 300, 1);
}

/* The other trees gen.c makes have the same regular shape. */
static void test_pf_other(void **state)
{
	(void)state;
	srand(4);
	compare("clos:4,4,3", 100, 40, 0);
	compare("3tier:2", 10, 300, 0);
}

static void test_threads(void **state)
{
	enum { NF = 20000 };
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_demand *d = calloc(NF, sizeof(*d));
	double *r1 = calloc(NF, sizeof(*r1)), *r = calloc(NF, sizeof(*r));
	unsigned k, n1, threads[] = {2, 3, DARD_OPT_THREADS_MAX};
	size_t f;

	(void)state;
	unit_build("fattree:16", "16.0.0.0/4", 0, &t, &p);
	set_caps(t, (const uint32_t[]){300, 700, 1000});
	srand(5);
	for (f = 0; f < NF; f++) {
		d[f].src = t->hosts[rand() % t->nhosts];
		d[f].dst = t->hosts[rand() % t->nhosts];
	}
	n1 = opt_rates(t, d, NF, 1, r1);
	assert_true(n1 > 10); /* enough rounds to mean something */
	for (k = 0; k < sizeof(threads) / sizeof(threads[0]); k++) {
		assert_int_equal(opt_rates(t, d, NF, threads[k], r), n1);
		if (memcmp(r, r1, NF * sizeof(*r)))
			fail_msg("%u threads give other rates", threads[k]);
	}
	dard_plan_free(p);
	dard_topo_free(t);
	free(d);
	free(r1);
	free(r);
}

/* A two-level tree: roots r1..r2 over ToRs t1..t3, one host each. */
static struct dard_topo *small_tree(const char *const *links)
{
	static const char *const sw[] = {"r1", "r2", "t1", "t2", "t3"};
	struct dard_topo *t = dard_topo_new();
	char err[DARD_ERR_MAX] = "", h[8];
	unsigned i, port[5] = {0};

	assert_non_null(t);
	assert_int_equal(dard_topo_add_level(t, "root", err), 0);
	assert_int_equal(dard_topo_add_level(t, "tor", err), 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(dard_topo_add_switch(
					 t, sw[i], i < 2 ? "root" : "tor", err),
				 0);
	for (i = 0; i < 3; i++) {
		snprintf(h, sizeof(h), "h%u", i + 1);
		assert_int_equal(dard_topo_add_host(t, h, err), 0);
		assert_int_equal(dard_topo_add_link(t, sw[2 + i], ++port[2 + i],
						    h, 1, 1000, err),
				 0);
	}
	for (; *links; links += 2) {
		unsigned u = links[0][1] - '1', dn = 2 + links[1][1] - '1';

		if (dard_topo_add_link(t, links[0], ++port[u], links[1],
				       ++port[dn], 1000, err))
			fail_msg("%s", err);
	}
	if (dard_topo_finalize(t, NULL, err))
		fail_msg("%s", err);
	return t;
}

static void refused(struct dard_topo *t, const char *what)
{
	char err[DARD_ERR_MAX] = "";

	assert_null(dard_opt_new(t, err));
	if (!strstr(err, what))
		fail_msg("expected `%s' in: %s", what, err);
	dard_topo_free(t);
}

static void test_refused(void **state)
{
	static const char *const full[] = {"r1", "t1", "r1", "t2", "r1",
					   "t3", "r2", "t1", "r2", "t2",
					   "r2", "t3", NULL};
	/* t3 reaches only r1: its traffic cannot spread like t1's. */
	static const char *const uneven[] = {"r1", "t1", "r1", "t2", "r1", "t3",
					     "r2", "t1", "r2", "t2", NULL};
	/* r2 reaches only t3: two separate trees. */
	static const char *const split[] = {"r1", "t1", "r1", "t2",
					    "r2", "t3", NULL};
	char err[DARD_ERR_MAX] = "";
	struct dard_topo *t = small_tree(full);
	struct dard_plan *p;
	struct dard_opt *o = dard_opt_new(t, err);

	(void)state;
	assert_non_null(o);
	dard_opt_free(o);
	dard_topo_free(t);
	refused(small_tree(uneven), "do not all have as many links down");
	refused(small_tree(split), "reach different hosts");
	/* One slower core link in a fat-tree: an uneven pod. */
	unit_build("fattree:4", NULL, 0, &t, &p);
	t->link[0].mbps = 100;
	dard_plan_free(p);
	refused(t, "differ in capacity");
}

/*
 * Capacities the caller gives (dard_opt_new_cap) are the tree's own to
 * OPT: the same rates as from a tree with those capacities, bit for bit,
 * and the same refusal of a pod whose up links differ.
 */
static void test_cap(void **state)
{
	static const uint32_t by_level[] = {300, 700, 1000};
	enum { NF = 60 };
	struct dard_topo *t, *c;
	struct dard_plan *p, *cp;
	struct dard_demand d[NF];
	double r[NF], rc[NF], *mbps;
	char err[DARD_ERR_MAX] = "";
	struct dard_opt *o;
	uint32_t l;
	size_t f;

	(void)state;
	unit_build("fattree:4", NULL, 0, &t, &p);
	unit_build("fattree:4", NULL, 0, &c, &cp);
	set_caps(c, by_level);
	mbps = calloc(t->nlinks, sizeof(*mbps));
	assert_non_null(mbps);
	for (l = 0; l < t->nlinks; l++)
		mbps[l] = by_level[t->node[t->link[l].up].level];
	srand(6);
	for (f = 0; f < NF; f++) {
		d[f].src = t->hosts[rand() % t->nhosts];
		d[f].dst = t->hosts[rand() % t->nhosts];
	}
	opt_rates(c, d, NF, 1, r);
	o = dard_opt_new_cap(t, mbps, err);
	if (!o)
		fail_msg("%s", err);
	assert_int_equal(dard_opt_rates(o, d, NF, 1, rc, NULL, err), 0);
	dard_opt_free(o);
	if (memcmp(r, rc, sizeof(r)))
		fail_msg("other rates from the caller's capacities");
	mbps[0] = 100;
	assert_null(dard_opt_new_cap(t, mbps, err));
	assert_non_null(strstr(err, "differ in capacity"));
	free(mbps);
	dard_plan_free(p);
	dard_plan_free(cp);
	dard_topo_free(t);
	dard_topo_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hand),
		cmocka_unit_test(test_pf_fattree),
		cmocka_unit_test(test_pf_other),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
