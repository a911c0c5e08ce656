// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The flow-level simulation: exact times where max-min fairness fixes
 * them, repeatability, DARD (dardd's own round) and the centralized
 * schedulers undoing collisions that ECMP's hash made, the stepped mode
 * against the exact one, and the control traffic each one counts.
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

#include "flowsim_fix.h"

/* 10^9 bits on 1 Gbit/s: 1 s alone; two sharing a source: twice. */
static void test_exact(void **state)
{
	const uint64_t mb125 = 125000000ULL;
	struct dard_tflow f[2] = {
		{0, find(t, "e1_1"), find(t, "e2_1"), mb125},
		{0, find(t, "e1_1"), find(t, "e3_1"), mb125},
	};
	struct dard_sim_flow out[2];

	(void)state;
	run(DARD_SIM_ECMP, 1, f, 1, out);
	assert_true(fabs(out[0].end - 1.0) < 1e-9);
	run(DARD_SIM_DARD, 1, f, 2, out);
	assert_true(fabs(out[0].end - 2.0) < 1e-9);
	assert_true(fabs(out[1].end - 2.0) < 1e-9);
	/* The second starting later: alone again once the first is done. */
	f[1].start = 0.5;
	run(DARD_SIM_ECMP, 1, f, 2, out);
	assert_true(fabs(out[0].end - 1.5) < 1e-9);
	assert_true(fabs(out[1].end - 2.0) < 1e-9);
}

/* Stride traffic for 30 s, and room for two runs' outcomes. */
static long traffic(double rate, uint64_t bytes, struct dard_tflow **f,
		    struct dard_sim_flow **a, struct dard_sim_flow **b)
{
	struct dard_traffic_opts o;
	char err[DARD_ERR_MAX];
	long n;

	dard_traffic_opts_init(&o);
	o.rate = rate;
	o.duration = 30;
	o.bytes = bytes;
	n = dard_traffic_gen(t, &o, f, err);
	if (n <= 20)
		fail_msg("%ld flows: %s", n, n < 0 ? err : "too few");
	*a = calloc(n, sizeof(**a));
	*b = calloc(n, sizeof(**b));
	return n;
}

static void test_repeatable(void **state)
{
	struct dard_tflow *f;
	struct dard_sim_flow *a, *b;
	long n = traffic(0.5, 256ULL << 20, &f, &a, &b);
	int s;

	(void)state;
	for (s = 0; s < DARD_SIM_NSCHED; s++) {
		run(s, 3, f, n, a);
		run(s, 3, f, n, b);
		assert_memory_equal(a, b, n * sizeof(*a));
	}
	free(a);
	free(b);
	free(f);
}

/*
 * The largest link load of SDN-optimal's placement of flows f: 1 when no
 * link carries two of them.
 */
static uint32_t optimal_max_load(const struct dard_tflow *f, size_t n)
{
	struct dard_pathctx *pc = dard_pathctx_new(t, p);
	uint32_t *load = calloc(2 * (size_t)t->nlinks, sizeof(*load));
	struct dard_demand d[8];
	struct dard_path paths[8];
	char err[DARD_ERR_MAX];
	uint32_t max;
	size_t i;

	assert_true(n <= 8);
	assert_non_null(pc);
	assert_non_null(load);
	for (i = 0; i < n; i++)
		d[i] = (struct dard_demand){f[i].src, f[i].dst};
	if (dard_route_optimal(pc, t, d, n, paths, err))
		fail_msg("sdn-optimal: %s", err);
	for (i = 0; i < n; i++)
		dard_route_load(t, &paths[i], load);
	max = dard_route_max_load(t, load);
	free(load);
	dard_pathctx_free(pc);
	return max;
}

/*
 * Four 2.5 GB flows from pod 1 to pod 2, e1_i to e2_i, together. Under
 * some seeds ECMP's hash puts two on one core: find such a seed, and
 * every adaptive scheduler, starting from the same placement, must finish
 * them sooner on average, having moved only elephants.
 */
static void undoes_collisions(int sched)
{
	struct dard_tflow f[4];
	struct dard_sim_flow e[4], d[4];
	double te = 0, td = 0, alone = 2.5e9 * 8 / 1e9;
	uint64_t seed;
	unsigned i, moves = 0;
	char name[2][16];

	for (i = 0; i < 4; i++) {
		snprintf(name[0], sizeof(name[0]), "e1_%u", i + 1);
		snprintf(name[1], sizeof(name[1]), "e2_%u", i + 1);
		f[i] = (struct dard_tflow){0, find(t, name[0]),
					   find(t, name[1]), 2500000000ULL};
	}
	for (seed = 1; seed < 100; seed++) {
		run(DARD_SIM_ECMP, seed, f, 4, e);
		for (te = 0, i = 0; i < 4; i++)
			te += e[i].end / 4;
		if (te > 1.2 * alone)
			break;
	}
	assert_true(seed < 100);
	run(sched, seed, f, 4, d);
	for (i = 0; i < 4; i++) {
		td += d[i].end / 4;
		moves += d[i].moves;
		assert_true(d[i].end >= alone - 1e-9);
	}
	assert_true(moves > 0);
	assert_true(td < te);
	/* Four flows, four cores: a contention-free placement exists. */
	assert_int_equal(optimal_max_load(f, 4), 1);
	/* (Which the check would deny of two flows into one host.) */
	f[1].dst = f[0].dst;
	assert_int_equal(optimal_max_load(f, 2), 2);
	f[1].dst = find(t, "e2_2");
	/*
	 * The controllers see the flows (at full share, large) at their
	 * first round, 5 s in, and no link then carries two: each flow has
	 * lost at most the 5 s it ran at half rate or better.
	 */
	if (sched != DARD_SIM_DARD)
		assert_true(td <= alone + 5 + 1e-6);
}

static void test_dard_undoes_collisions(void **state)
{
	(void)state;
	undoes_collisions(DARD_SIM_DARD);
}

static void test_central_undoes_collisions(void **state)
{
	(void)state;
	undoes_collisions(DARD_SIM_HEDERA);
	undoes_collisions(DARD_SIM_GREEDY);
	undoes_collisions(DARD_SIM_OPTIMAL);
}

/*
 * A step of 0.1 s keeps the average transfer time within 5% of the exact
 * one, under ECMP and under DARD. Under ECMP, where nothing moves, it
 * makes the average longer, here by less than a step: arrivals wait for
 * the next one, and a finished flow's share idles until it. Single flows
 * may end sooner, when others waited.
 */
static void test_step(void **state)
{
	struct dard_tflow *f;
	struct dard_sim_flow *a, *b;
	long n = traffic(0.2, 512ULL << 20, &f, &a, &b), i;
	double ea = 0, eb = 0;
	int s;
	static const int scheds[] = {DARD_SIM_ECMP, DARD_SIM_DARD};
	unsigned k;

	(void)state;
	for (k = 0; k < 2; k++) {
		s = scheds[k];
		run(s, 5, f, n, a);
		run_step(s, 5, 0.1, f, n, b);
		for (ea = eb = 0, i = 0; i < n; i++) {
			ea += (a[i].end - a[i].start) / n;
			eb += (b[i].end - b[i].start) / n;
		}
		assert_true(fabs(ea - eb) < 0.05 * ea);
		if (s == DARD_SIM_ECMP)
			assert_true(eb >= ea && eb <= ea + 0.1);
	}
	free(a);
	free(b);
	free(f);
}

/*
 * Control traffic: none under ECMP; under DARD one query and reply a
 * second to each switch a monitor watches; under a controller a report a
 * round per elephant. One flow, e1_1 to e2_1, long enough to be watched.
 */
static void test_control(void **state)
{
	struct dard_tflow f[1] = {
		{0, find(t, "e1_1"), find(t, "e2_1"), 5000000000ULL}};
	struct dard_sim_flow out[1];
	double bytes;

	(void)state;
	run(DARD_SIM_ECMP, 1, f, 1, out);
	assert_true(stats.ctl_bytes == 0);
	assert_int_equal(stats.elephants, 1);
	assert_true(fabs(stats.end - 40) < 1e-6);
	/*
	 * DARD: 40 s alone; the monitor from 10 s asks e1's ToR, both its
	 * aggregation switches and the four cores (30 queries, at 10, 11,
	 * ..., 39) and the far pod's two aggregation switches: 9 switches.
	 * The fast mode's monitor lives from 1 s: 39 queries. Sharing
	 * (test_flowsim_share.c) adds the host's WANTs to its ToR peer.
	 * The monitors' alone first: no watch.
	 */
	fix_watch = 0;
	run(DARD_SIM_DARD_PAPER, 1, f, 1, out);
	bytes = 30 * 9 * (DARD_SIM_QUERY_BYTES + DARD_SIM_REPLY_BYTES);
	assert_true(fabs(stats.ctl_bytes - stats.share_bytes - bytes) < 1e-6);
	run_quiet(DARD_SIM_DARD, 0, -1, f, 1, out);
	bytes = 39 * 9 * (DARD_SIM_QUERY_BYTES + DARD_SIM_REPLY_BYTES);
	assert_true(fabs(stats.ctl_bytes - stats.share_bytes - bytes) < 1e-6);
	/* Quiet, as by default: alone at its link's rate, it asks nothing. */
	run(DARD_SIM_DARD, 1, f, 1, out);
	assert_true(stats.ctl_bytes - stats.share_bytes == 0);
	assert_true(fabs(stats.end - 40) < 1e-6);
	/*
	 * The watch (dard's default): every host, elephants or none, asks
	 * its ToR, both aggregation switches and the four cores every 20 s
	 * (half a query early: at 0, 20 and 40), quiet monitor or not; each
	 * for itself, sharing or not: 16 hosts, 7 switches. No link
	 * changed: no notice.
	 */
	fix_watch = -1;
	run(DARD_SIM_DARD, 1, f, 1, out);
	bytes = 3 * 16 * 7 * (DARD_SIM_QUERY_BYTES + DARD_SIM_REPLY_BYTES);
	assert_true(fabs(stats.ctl_bytes - stats.share_bytes - bytes) < 1e-6);
	assert_int_equal(stats.notices, 0);
	/*
	 * A controller at 5, 10, ..., 35: the flow is large (all of its
	 * link) from the start, so seven reports, and at most one path
	 * written (five switches) when the annealer first places it.
	 */
	run(DARD_SIM_HEDERA, 1, f, 1, out);
	assert_true(stats.ctl_bytes >= 7 * DARD_SIM_REPORT_BYTES);
	assert_true(stats.ctl_bytes <=
		    7 * DARD_SIM_REPORT_BYTES + 5 * DARD_SIM_UPDATE_BYTES);
}

/*
 * Quiet monitors: two flows into one host run at half its link, which no
 * path changes. Their monitors ask until a round wants no move, then
 * sleep 3 s at a time while their rates hold; never quiet, they ask every
 * second. The transfers end alike either way.
 */
static void test_quiet(void **state)
{
	struct dard_tflow f[2] = {
		{0, find(t, "e1_1"), find(t, "e3_1"), 5000000000ULL},
		{0, find(t, "e2_1"), find(t, "e3_1"), 5000000000ULL},
	};
	struct dard_sim_flow out[2];
	double never, slept, alone;

	(void)state;
	/* The monitors' queries: the watch would ask all the time. */
	fix_watch = 0;
	run_quiet(DARD_SIM_DARD, 0, -1, f, 2, out);
	never = stats.ctl_bytes - stats.share_bytes;
	assert_true(fabs(stats.end - 80) < 1e-6);
	/* Quiet by share alone never: each is at half of its share. */
	run_quiet(DARD_SIM_DARD, -1, 0, f, 2, out);
	alone = stats.ctl_bytes - stats.share_bytes;
	assert_true(fabs(alone - never) < 1e-6);
	run(DARD_SIM_DARD, 1, f, 2, out);
	slept = stats.ctl_bytes - stats.share_bytes;
	assert_true(fabs(stats.end - 80) < 1e-6);
	print_message("queries' bytes: %.0f never quiet, %.0f quiet\n", never,
		      slept);
	assert_true(slept > 0);
	assert_true(slept < never / 2);
	/* The paper's mode is never quiet, whatever the flows. */
	run_quiet(DARD_SIM_DARD_PAPER, -1, -1, f, 2, out);
	alone = stats.ctl_bytes - stats.share_bytes;
	run_quiet(DARD_SIM_DARD_PAPER, 0, 0, f, 2, out);
	assert_true(fabs(alone - (stats.ctl_bytes - stats.share_bytes)) < 1e-6);
	fix_watch = -1;
}

/*
 * A long run in the exact mode: at 20,000 s a flow's last bits take less
 * than now's ulp, which once stalled the loop. And options that would
 * never move on are refused.
 */
static void test_long_and_bad(void **state)
{
	struct dard_traffic_opts to;
	struct dard_sim_opts o;
	struct dard_tflow *f;
	struct dard_sim_flow *out;
	char err[DARD_ERR_MAX];
	long n, i;

	(void)state;
	dard_traffic_opts_init(&to);
	to.rate = 0.01;
	to.duration = 20000;
	to.bytes = 512ULL << 20;
	n = dard_traffic_gen(t, &to, &f, err);
	assert_true(n > 1000);
	out = calloc(n, sizeof(*out));
	run(DARD_SIM_ECMP, 1, f, n, out);
	for (i = 0; i < n; i++)
		assert_true(out[i].end > out[i].start);
	dard_sim_opts_init(&o);
	o.central = 0;
	assert_int_equal(dard_sim_run(t, p, f, n, &o, out, NULL, err), -EINVAL);
	dard_sim_opts_init(&o);
	o.step = NAN;
	assert_int_equal(dard_sim_run(t, p, f, n, &o, out, NULL, err), -EINVAL);
	/* DARD's timers: below 0 is the mode's, 0 and NaN are refused. */
	dard_sim_opts_init(&o);
	o.schedule = 0;
	assert_int_equal(dard_sim_run(t, p, f, n, &o, out, NULL, err), -EINVAL);
	dard_sim_opts_init(&o);
	o.query = NAN;
	assert_int_equal(dard_sim_run(t, p, f, n, &o, out, NULL, err), -EINVAL);
	dard_sim_opts_init(&o);
	o.sched = DARD_SIM_NSCHED;
	assert_int_equal(dard_sim_run(t, p, f, n, &o, out, NULL, err), -EINVAL);
	free(out);
	free(f);
}

/*
 * dard-paper is today's DARD exactly: fattree:4 stride, 60 s, seed 1, as
 * `dard-sim --run --topo fattree:4 --duration 60 --sched dard` gave before
 * the modes (--csv: 55 moves, sum of (flow + 1) * moves 6093, times
 * summing to 4444.300217 s), with views that see every move at once
 * (--stale 0), as the simulator's were then. The fast mode, on the same
 * flows and the default stale views, is faster.
 */
static void test_paper_unchanged(void **state)
{
	struct dard_traffic_opts to;
	struct dard_sim_opts o;
	struct dard_sim_flow *out;
	struct dard_tflow *f;
	char err[DARD_ERR_MAX];
	unsigned moves = 0, weighted = 0;
	double sum = 0, fast = 0;
	long n, i;

	(void)state;
	dard_traffic_opts_init(&to);
	to.rate = 0.2; /* dard-sim's defaults */
	to.duration = 60;
	to.bytes = 512ULL << 20;
	n = dard_traffic_gen(t, &to, &f, err);
	assert_int_equal(n, 192);
	out = calloc(n, sizeof(*out));
	assert_non_null(out);
	dard_sim_opts_init(&o);
	o.sched = DARD_SIM_DARD_PAPER;
	o.seed = 1;
	o.step = 0.25;
	o.stale = 0;
	run_o(&o, f, n, out);
	for (i = 0; i < n; i++) {
		moves += out[i].moves;
		weighted += (i + 1) * out[i].moves;
		sum += out[i].end - out[i].start;
	}
	assert_int_equal(moves, 55);
	assert_int_equal(weighted, 6093);
	assert_true(fabs(sum - 4444.300217) < 1e-5);
	run_step(DARD_SIM_DARD, 1, 0.25, f, n, out);
	for (i = 0; i < n; i++)
		fast += out[i].end - out[i].start;
	if (!(fast < 0.95 * sum))
		fail_msg("fast %.3f s against the paper's %.3f s", fast / n,
			 sum / n);
	free(out);
	free(f);
}

/* SDN-optimal needs a fat-tree; a Clos network is not one. */
static void test_optimal_needs_fattree(void **state)
{
	struct dard_topo *c;
	struct dard_plan *cp;
	struct dard_sim_opts o;
	struct dard_tflow f[1];
	struct dard_sim_flow out[1];
	char err[DARD_ERR_MAX] = "";

	(void)state;
	unit_build("clos:4,4", NULL, DARD_MODE_AUTO, &c, &cp);
	f[0] = (struct dard_tflow){0, c->hosts[0], c->hosts[c->nhosts - 1],
				   2000000000ULL};
	dard_sim_opts_init(&o);
	o.sched = DARD_SIM_OPTIMAL;
	assert_int_equal(dard_sim_run(c, cp, f, 1, &o, out, NULL, err),
			 -EINVAL);
	assert_non_null(strstr(err, "fat-tree"));
	o.sched = DARD_SIM_HEDERA;
	assert_int_equal(dard_sim_run(c, cp, f, 1, &o, out, NULL, err), 0);
	dard_plan_free(cp);
	dard_topo_free(c);
}

/* The average transfer time of a run under sched. */
/*
 * dard-sim's default load on t for 60 s (512 MB at 0.2 per second per
 * source), pattern's flows under seed into *f, with room for their
 * results in *out; at least min flows, or the test fails.
 */
static long gen(int pattern, uint64_t seed, long min, struct dard_tflow **f,
		struct dard_sim_flow **out)
{
	struct dard_traffic_opts to;
	char err[DARD_ERR_MAX];
	long n;

	dard_traffic_opts_init(&to);
	to.pattern = pattern;
	to.rate = 0.2;
	to.duration = 60;
	to.bytes = 512ULL << 20;
	to.seed = seed;
	n = dard_traffic_gen(t, &to, f, err);
	if (n < min)
		fail_msg("%ld flows: %s", n, n < 0 ? err : "too few");
	*out = calloc(n, sizeof(**out));
	assert_non_null(*out);
	return n;
}

static double avg_time(int sched, uint64_t seed, const struct dard_tflow *f,
		       long n, struct dard_sim_flow *out)
{
	double avg = 0;
	long i;

	run(sched, seed, f, n, out);
	for (i = 0; i < n; i++)
		avg += (out[i].end - out[i].start) / n;
	return avg;
}

/* The moves of every flow of the last run. */
static unsigned moves(const struct dard_sim_flow *out, long n)
{
	unsigned m = 0;
	long i;

	for (i = 0; i < n; i++)
		m += out[i].moves;
	return m;
}

/*
 * sdn-optimal with keep: fewer moves than without, and still within 2% of
 * greedy's g; with no search passes keep changes nothing.
 */
static void keep_moves(uint64_t seed, const struct dard_tflow *f, long n,
		       struct dard_sim_flow *out, double g)
{
	struct dard_sim_opts o;
	char err[DARD_ERR_MAX];
	unsigned m0, m1;
	double avg = 0;
	long i;

	dard_sim_opts_init(&o);
	o.sched = DARD_SIM_OPTIMAL;
	o.seed = seed;
	run(DARD_SIM_OPTIMAL, seed, f, n, out);
	m0 = moves(out, n);
	o.keep = 1;
	if (dard_sim_run(t, p, f, n, &o, out, NULL, err))
		fail_msg("%s", err);
	m1 = moves(out, n);
	for (i = 0; i < n; i++)
		avg += (out[i].end - out[i].start) / n;
	if (m1 >= m0 || avg > 1.02 * g)
		fail_msg("seed %lu: keep: %u moves, %.3f s; not: %u moves",
			 (unsigned long)seed, m1, avg, m0);
	o.refine = 0;
	if (dard_sim_run(t, p, f, n, &o, out, NULL, err))
		fail_msg("%s", err);
	m1 = moves(out, n);
	o.keep = 0;
	if (dard_sim_run(t, p, f, n, &o, out, NULL, err))
		fail_msg("%s", err);
	assert_int_equal(m1, moves(out, n));
}

/*
 * Random traffic at dard-sim's default load (512 MB at 0.2 per second
 * per source, for 60 s), seeds 1 to 3: the thesis's SDN-optimal, whose
 * permutations stack up to NL_D flows on switch links, is slower than
 * SDN-greedy, by 4-6% on each seed; dard-sim's sdn-optimal, with the same
 * L_D, is within 1% of it (experiments.md, "SDN-optimal and SDN-greedy").
 */
static void test_optimal_not_slower(void **state)
{
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= 3; seed++) {
		struct dard_sim_flow *out;
		struct dard_tflow *f;
		double g, o, th;
		long n;

		n = gen(DARD_PATTERN_RANDOM, seed, 100, &f, &out);
		g = avg_time(DARD_SIM_GREEDY, seed, f, n, out);
		o = avg_time(DARD_SIM_OPTIMAL, seed, f, n, out);
		th = avg_time(DARD_SIM_OPTIMAL_THESIS, seed, f, n, out);
		if (o > 1.01 * g || th < 1.02 * g)
			fail_msg(
				"seed %lu: greedy %.3f s, optimal %.3f s, thesis %.3f s",
				(unsigned long)seed, g, o, th);
		keep_moves(seed, f, n, out, g);
		free(out);
		free(f);
	}
}

/*
 * Busy links (the fast mode's --busy-at 0.9): stride traffic at dard-sim's
 * default load for 60 s, seeds 1 to 5. A host whose flows share its own
 * link leaves room on the network links they cross; with the switches'
 * loads DARD puts other flows there, and is faster on average than with
 * the count alone, within 5% of SDN-greedy on every seed (experiments.md,
 * "Busy links"). It was 4% before the simulator's views went stale as
 * dardd's are (a host sees another's move at the next query): seed 3
 * went from 15.807 s to 15.972 s (4.1% over SDN-greedy's 15.339), and
 * the escape brought it to 15.957 s.
 */
static void test_busy(void **state)
{
	struct dard_sim_opts o;
	double sum_busy = 0, sum_count = 0;
	uint64_t seed;

	(void)state;
	for (seed = 1; seed <= 5; seed++) {
		struct dard_sim_flow *out;
		struct dard_tflow *f;
		double busy = 0, count = 0, g;
		long n, i;

		n = gen(DARD_PATTERN_STRIDE, seed, 50, &f, &out);
		g = avg_time(DARD_SIM_GREEDY, seed, f, n, out);
		busy = avg_time(DARD_SIM_DARD, seed, f, n, out);
		dard_sim_opts_init(&o);
		o.seed = seed;
		o.busy = 0;
		run_o(&o, f, n, out);
		for (i = 0; i < n; i++)
			count += (out[i].end - out[i].start) / n;
		print_message(
			"seed %lu: busy links %.3f s, count alone %.3f s, "
			"SDN-greedy %.3f s\n",
			(unsigned long)seed, busy, count, g);
		if (busy > 1.05 * g)
			fail_msg(
				"seed %lu: busy links %.3f s, SDN-greedy %.3f s",
				(unsigned long)seed, busy, g);
		sum_busy += busy;
		sum_count += count;
		free(out);
		free(f);
	}
	/* One seed may go either way (a run is chaotic); five may not. */
	if (!(sum_busy < 0.995 * sum_count))
		fail_msg("busy links %.3f s on average, count alone %.3f s",
			 sum_busy / 5, sum_count / 5);
}

/*
 * A switch counts an elephant on a link only at min_share of its
 * bandwidth (dard-switchd's --min-share). 120 flows of 100 MB from e1_3
 * to e2_3 from 0 s, 8.3 Mbit/s each (their host links: under 1/64 of a
 * link), elephants by 20 s and about 30 on each link between the two
 * pods' aggregation switches and the cores; at 20 s, two 1 GB flows
 * from tor1_1 to tor2_1 (e1_1 and e1_2 to e2_1 and e2_2) that ECMP's
 * hash put on one up link. Judged by the counts alone (busy 0), a move
 * of one of them onto tor1_1's free up link joins some 30 slow flows at
 * a core: counted, it gains about a thousandth of the link, under
 * delta (1%), and both stay at half the link or less; uncounted, it
 * gains half the link, and both run at the link less the slow flows'
 * 250 Mbit/s.
 */
static void test_min_share(void **state)
{
	enum { SLOW = 120, N = SLOW + 2 };
	struct dard_sim_flow out[N];
	char err[DARD_ERR_MAX];
	struct dard_tflow f[N];
	struct dard_sim_opts o;
	uint64_t seed;
	unsigned i;

	(void)state;
	dard_sim_opts_init(&o);
	assert_true(dard_sim_min_share(&o) == 1.0 / 64);
	o.sched = DARD_SIM_DARD_PAPER;
	assert_true(dard_sim_min_share(&o) == 0);
	o.min_share = 0.25;
	assert_true(dard_sim_min_share(&o) == 0.25);
	for (i = 0; i < SLOW; i++)
		f[i] = (struct dard_tflow){0, find(t, "e1_3"), find(t, "e2_3"),
					   100000000};
	f[SLOW] = (struct dard_tflow){20, find(t, "e1_1"), find(t, "e2_1"),
				      1000000000};
	f[SLOW + 1] = (struct dard_tflow){20, find(t, "e1_2"), find(t, "e2_2"),
					  1000000000};
	/* A seed whose hash puts the two on one up link: 16 s at best. */
	for (seed = 1; seed < 64; seed++) {
		run(DARD_SIM_ECMP, seed, f, N, out);
		if (out[SLOW].end > 20 + 15 && out[SLOW + 1].end > 20 + 15)
			break;
	}
	assert_true(seed < 64);
	dard_sim_opts_init(&o);
	o.seed = seed;
	o.busy = 0;
	run_o(&o, f, N, out);
	print_message("seed %lu: 1/64: %.3f s and %.3f s, %u moves\n",
		      (unsigned long)seed, out[SLOW].end - 20,
		      out[SLOW + 1].end - 20,
		      out[SLOW].moves + out[SLOW + 1].moves);
	assert_true(out[SLOW].moves + out[SLOW + 1].moves >= 1);
	assert_true(out[SLOW].end < 20 + 15 && out[SLOW + 1].end < 20 + 15);
	o.min_share = 0;
	run_o(&o, f, N, out);
	print_message("seed %lu: every elephant: %.3f s and %.3f s\n",
		      (unsigned long)seed, out[SLOW].end - 20,
		      out[SLOW + 1].end - 20);
	assert_int_equal(out[SLOW].moves + out[SLOW + 1].moves, 0);
	assert_true(out[SLOW].end > 20 + 15 && out[SLOW + 1].end > 20 + 15);
	/* Out of [0, 1], or NaN: refused. */
	o.min_share = 1.5;
	assert_int_equal(dard_sim_run(t, p, f, N, &o, out, NULL, err), -EINVAL);
	o.min_share = NAN;
	assert_int_equal(dard_sim_run(t, p, f, N, &o, out, NULL, err), -EINVAL);
}

/* Every scheduler's name parses back to it; other names are refused. */
static void test_sched_names(void **state)
{
	struct dard_tflow f[1] = {{0, find(t, "e1_1"), find(t, "e2_1"), 1000}};
	struct dard_sim_flow out[1];
	struct dard_sim_opts o;
	char err[DARD_ERR_MAX];
	int s;

	(void)state;
	for (s = 0; s < DARD_SIM_NSCHED; s++) {
		assert_string_not_equal(dard_sim_sched_name(s), "?");
		assert_int_equal(dard_sim_sched_parse(dard_sim_sched_name(s)),
				 s);
	}
	assert_string_equal(dard_sim_sched_name(DARD_SIM_OPTIMAL),
			    "sdn-optimal");
	assert_string_equal(dard_sim_sched_name(DARD_SIM_OPTIMAL_THESIS),
			    "sdn-optimal-thesis");
	assert_string_equal(dard_sim_sched_name(-1), "?");
	assert_string_equal(dard_sim_sched_name(DARD_SIM_NSCHED), "?");
	assert_int_equal(dard_sim_sched_parse("ospf"), -1);
	assert_int_equal(dard_sim_sched_parse("all"), -1);
	assert_int_equal(dard_sim_sched_parse(""), -1);
	assert_int_equal(dard_sim_sched_parse("ECMP"), -1);
	dard_sim_opts_init(&o);
	o.sched = DARD_SIM_NSCHED;
	assert_int_equal(dard_sim_run(t, p, f, 1, &o, out, NULL, err), -EINVAL);
	o.sched = -1;
	assert_int_equal(dard_sim_run(t, p, f, 1, &o, out, NULL, err), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exact),
		cmocka_unit_test(test_repeatable),
		cmocka_unit_test(test_dard_undoes_collisions),
		cmocka_unit_test(test_central_undoes_collisions),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_control),
		cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_long_and_bad),
		cmocka_unit_test(test_optimal_needs_fattree),
		cmocka_unit_test(test_optimal_not_slower),
		cmocka_unit_test(test_busy),
		cmocka_unit_test(test_min_share),
		cmocka_unit_test(test_sched_names),
		cmocka_unit_test(test_paper_unchanged),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
