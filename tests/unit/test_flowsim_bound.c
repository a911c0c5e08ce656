// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The flow-level simulation's bound (OPT's rates, no paths) and its links
 * at a rate of the caller's (dard_sim_opts.link, .goodput). On a fat-tree
 * of full bisection only the host links limit splittable routing, so the
 * bound is ECMP on the same tree with switch links too fast to matter;
 * it is never slower than the schedulers, hand-computed cases agree, and
 * a tree OPT refuses, or failures, are refused before any flow. A flow
 * alone takes its bits over the link's rate times the goodput.
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

#include "flowsim.h"
#include "unit.h"

static struct dard_topo *t;
static struct dard_plan *p;

static int setup(void **state)
{
	(void)state;
	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &t, &p); /* 1 Gbit/s */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dard_plan_free(p);
	dard_topo_free(t);
	return 0;
}

static struct dard_sim_stats stats;

/* sched on tree x (exact mode) under o's link and goodput; must run. */
static void run_on(const struct dard_topo *x, const struct dard_plan *xp,
		   int sched, uint64_t seed, const struct dard_sim_opts *base,
		   const struct dard_tflow *f, size_t n,
		   struct dard_sim_flow *out)
{
	struct dard_sim_opts o;
	char err[DARD_ERR_MAX];

	dard_sim_opts_init(&o);
	if (base)
		o = *base;
	o.sched = sched;
	o.seed = seed;
	if (dard_sim_run(x, xp, f, n, &o, out, &stats, err))
		fail_msg("%s: %s", dard_sim_sched_name(sched), err);
}

static void run(int sched, uint64_t seed, const struct dard_tflow *f, size_t n,
		struct dard_sim_flow *out)
{
	run_on(t, p, sched, seed, NULL, f, n, out);
}

/* pattern's traffic on t, at least min flows; room for their outcomes. */
static long gen(int pattern, double rate, double duration, uint64_t bytes,
		uint64_t seed, long min, struct dard_tflow **f,
		struct dard_sim_flow **out)
{
	struct dard_traffic_opts to;
	char err[DARD_ERR_MAX];
	long n;

	dard_traffic_opts_init(&to);
	to.pattern = pattern;
	to.rate = rate;
	to.duration = duration;
	to.bytes = bytes;
	to.seed = seed;
	n = dard_traffic_gen(t, &to, f, err);
	if (n < min)
		fail_msg("%ld flows: %s", n, n < 0 ? err : "too few");
	*out = calloc(n, sizeof(**out));
	assert_non_null(*out);
	return n;
}

static double avg(const struct dard_sim_flow *out, long n)
{
	double sum = 0;
	long i;

	for (i = 0; i < n; i++)
		sum += out[i].end - out[i].start;
	return sum / n;
}

/*
 * Random traffic of some tens of flows, on which ECMP's hash delays
 * some: the bound's ends are ECMP's on the tree whose switch-to-switch
 * links are 1000 times faster, within 1e-6; and the bound moves nothing
 * and sends nothing.
 */
static void test_fast_core(void **state)
{
	struct dard_topo *fast;
	struct dard_plan *fp;
	struct dard_sim_flow *b, *e;
	struct dard_tflow *f;
	uint64_t seed;
	uint32_t l;
	long n, i, late;

	(void)state;
	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &fast, &fp);
	for (l = 0; l < fast->nlinks; l++)
		if (!fast->node[fast->link[l].down].is_host)
			fast->link[l].mbps *= 1000;
	for (seed = 1; seed <= 3; seed++) {
		n = gen(DARD_PATTERN_RANDOM, 0.4, 8, 64 << 20, seed, 30, &f,
			&b);
		e = calloc(n, sizeof(*e));
		assert_non_null(e);
		run(DARD_SIM_BOUND, seed, f, n, b);
		assert_true(stats.ctl_bytes == 0);
		for (i = 0; i < n; i++)
			assert_int_equal(b[i].moves, 0);
		run_on(fast, fp, DARD_SIM_ECMP, seed, NULL, f, n, e);
		for (i = 0; i < n; i++)
			if (!(fabs(b[i].end - e[i].end) <= 1e-6 * e[i].end))
				fail_msg(
					"seed %lu, flow %ld of %ld: bound ends at %.9f, ECMP on fast links at %.9f",
					(unsigned long)seed, i, n, b[i].end,
					e[i].end);
		/* Not for want of contention: ECMP's hash costs flows. */
		run(DARD_SIM_ECMP, seed, f, n, e);
		for (i = 0, late = 0; i < n; i++)
			late += e[i].end > b[i].end * 1.01;
		if (late < 3)
			fail_msg("seed %lu: ECMP delays %ld flows",
				 (unsigned long)seed, late);
		free(e);
		free(b);
		free(f);
	}
	dard_plan_free(fp);
	dard_topo_free(fast);
}

/*
 * dard-sim's default load (512 MB at 0.2 per second per source) for 60 s,
 * random seeds 1 to 3 and stride: no scheduler's average is below the
 * bound's.
 */
static void test_not_slower(void **state)
{
	static const int scheds[] = {DARD_SIM_ECMP, DARD_SIM_DARD,
				     DARD_SIM_OPTIMAL};
	static const struct {
		int pattern;
		uint64_t seed;
	} runs[] = {{DARD_PATTERN_RANDOM, 1},
		    {DARD_PATTERN_RANDOM, 2},
		    {DARD_PATTERN_RANDOM, 3},
		    {DARD_PATTERN_STRIDE, 1}};
	unsigned r, k;

	(void)state;
	for (r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		struct dard_sim_flow *out;
		struct dard_tflow *f;
		double bound, a;
		long n;

		n = gen(runs[r].pattern, 0.2, 60, 512ULL << 20, runs[r].seed,
			100, &f, &out);
		run(DARD_SIM_BOUND, runs[r].seed, f, n, out);
		bound = avg(out, n);
		for (k = 0; k < sizeof(scheds) / sizeof(scheds[0]); k++) {
			run(scheds[k], runs[r].seed, f, n, out);
			a = avg(out, n);
			if (a < bound)
				fail_msg(
					"%s, seed %lu: %s %.3f s, bound %.3f s",
					dard_pattern_name(runs[r].pattern),
					(unsigned long)runs[r].seed,
					dard_sim_sched_name(scheds[k]), a,
					bound);
		}
		free(out);
		free(f);
	}
}

/* 125 MB, 10^9 bits: a second on a whole 1 Gbit/s link. */
static const uint64_t mb125 = 125000000ULL;

static void assert_end(double got, double want)
{
	if (fabs(got - want) > 1e-9 * want)
		fail_msg("ends at %.12g, expected %.12g", got, want);
}

/* Two flows from one host: each half its link, whatever the routing. */
static void test_one_host(void **state)
{
	struct dard_tflow f[2] = {
		{0, find(t, "e1_1"), find(t, "e2_1"), mb125},
		{0, find(t, "e1_1"), find(t, "e3_1"), mb125},
	};
	struct dard_sim_flow out[2];

	(void)state;
	run(DARD_SIM_BOUND, 1, f, 2, out);
	assert_end(out[0].end, 2);
	assert_end(out[1].end, 2);
}

/*
 * e1_1 to e3_1 and e1_3 to e3_3: different hosts and ToRs, the same two
 * pods. On a seed where ECMP hashes both onto one core link each gets
 * half of it, 2 s; the bound splits them over the pods' core links, and
 * each gets its whole host link, 1 s.
 */
static void test_collision(void **state)
{
	struct dard_tflow f[2] = {
		{0, find(t, "e1_1"), find(t, "e3_1"), mb125},
		{0, find(t, "e1_3"), find(t, "e3_3"), mb125},
	};
	struct dard_sim_flow out[2];
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= 64; seed++) {
		run(DARD_SIM_ECMP, seed, f, 2, out);
		if (out[0].end > 1.5)
			break;
		assert_end(out[0].end, 1);
		assert_end(out[1].end, 1);
	}
	if (seed > 64)
		fail_msg("no seed up to 64 hashes both flows onto one link");
	assert_end(out[0].end, 2);
	assert_end(out[1].end, 2);
	run(DARD_SIM_BOUND, seed, f, 2, out);
	assert_end(out[0].end, 1);
	assert_end(out[1].end, 1);
}

/*
 * A 32 MiB flow alone on 50 Mbit/s links at half of them: 32 * 8 *
 * 1.048576 Mbit at 25 Mbit/s, under any scheduler. The link alone, and
 * the goodput alone on the topology's 1000.
 */
static void test_link_goodput(void **state)
{
	static const int scheds[] = {DARD_SIM_ECMP, DARD_SIM_DARD,
				     DARD_SIM_OPTIMAL, DARD_SIM_BOUND};
	struct dard_tflow f[1] = {
		{0, find(t, "e1_1"), find(t, "e3_1"), 32ULL << 20}};
	struct dard_sim_flow out[1];
	struct dard_sim_opts o;
	unsigned k;

	(void)state;
	dard_sim_opts_init(&o);
	o.link = 50;
	o.goodput = 0.5;
	for (k = 0; k < sizeof(scheds) / sizeof(scheds[0]); k++) {
		run_on(t, p, scheds[k], 1, &o, f, 1, out);
		assert_end(out[0].end, 32 * 8 * 1.048576 / 25);
	}
	o.goodput = 1;
	run_on(t, p, DARD_SIM_ECMP, 1, &o, f, 1, out);
	assert_end(out[0].end, 32 * 8 * 1.048576 / 50);
	o.link = 0;
	o.goodput = 0.5;
	run_on(t, p, DARD_SIM_BOUND, 1, &o, f, 1, out);
	assert_end(out[0].end, 32 * 8 * 1.048576 / 500);
}

/* A link or goodput out of range: refused, as any bad option. */
static void test_link_refused(void **state)
{
	static const double bad[][2] = {
		{-1, 1},    {NAN, 1},  {INFINITY, 1}, {50, 0},
		{50, -0.5}, {50, 1.5}, {50, NAN},
	};
	struct dard_tflow f[1] = {{0, find(t, "e1_1"), find(t, "e3_1"), 1000}};
	struct dard_sim_flow out[1];
	struct dard_sim_opts o;
	char err[DARD_ERR_MAX];
	unsigned k;

	(void)state;
	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		dard_sim_opts_init(&o);
		o.link = bad[k][0];
		o.goodput = bad[k][1];
		assert_int_equal(dard_sim_run(t, p, f, 1, &o, out, NULL, err),
				 -EINVAL);
		assert_string_equal(err, "bad simulation options");
	}
}

/*
 * What dard_sim_check refuses, dard_sim_run does: the bound on a pod
 * with one slower up link (unless every link is at --link's rate) and
 * with failures; sdn-optimal on a Clos network. Others run anywhere.
 */
static void test_refused(void **state)
{
	struct dard_topo *x;
	struct dard_plan *xp;
	struct dard_sim_fail fl = {0, 1, HUGE_VAL};
	struct dard_tflow f[1];
	struct dard_sim_flow out[1];
	struct dard_sim_opts o;
	char err[DARD_ERR_MAX] = "";

	(void)state;
	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &x, &xp);
	x->link[0].mbps = 100;
	f[0] = (struct dard_tflow){0, x->hosts[0], x->hosts[15], 1000};
	dard_sim_opts_init(&o);
	o.sched = DARD_SIM_BOUND;
	assert_int_equal(dard_sim_check(x, &o, err), -EINVAL);
	assert_non_null(strstr(err, "differ in capacity"));
	err[0] = 0;
	assert_int_equal(dard_sim_run(x, xp, f, 1, &o, out, NULL, err),
			 -EINVAL);
	assert_non_null(strstr(err, "differ in capacity"));
	o.link = 1000;
	assert_int_equal(dard_sim_check(x, &o, err), 0);
	assert_int_equal(dard_sim_run(x, xp, f, 1, &o, out, NULL, err), 0);
	o.link = 0;
	o.sched = DARD_SIM_ECMP;
	assert_int_equal(dard_sim_check(x, &o, err), 0);
	dard_plan_free(xp);
	dard_topo_free(x);

	dard_sim_opts_init(&o);
	o.sched = DARD_SIM_BOUND;
	o.fail = &fl;
	o.nfail = 1;
	assert_int_equal(dard_sim_check(t, &o, err), -EINVAL);
	assert_string_equal(err, "OPT takes every link up: no failures");
	f[0] = (struct dard_tflow){0, find(t, "e1_1"), find(t, "e3_1"), 1000};
	err[0] = 0;
	assert_int_equal(dard_sim_run(t, p, f, 1, &o, out, NULL, err), -EINVAL);
	assert_string_equal(err, "OPT takes every link up: no failures");

	unit_build("clos:4,4", NULL, DARD_MODE_AUTO, &x, &xp);
	dard_sim_opts_init(&o);
	o.sched = DARD_SIM_OPTIMAL;
	assert_int_equal(dard_sim_check(x, &o, err), -EINVAL);
	assert_non_null(strstr(err, "fat-tree"));
	o.sched = DARD_SIM_BOUND;
	assert_int_equal(dard_sim_check(x, &o, err), 0);
	o.sched = DARD_SIM_NSCHED;
	assert_int_equal(dard_sim_check(x, &o, err), -EINVAL);
	dard_plan_free(xp);
	dard_topo_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fast_core),
		cmocka_unit_test(test_not_slower),
		cmocka_unit_test(test_one_host),
		cmocka_unit_test(test_collision),
		cmocka_unit_test(test_link_goodput),
		cmocka_unit_test(test_link_refused),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
