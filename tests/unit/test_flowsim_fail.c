// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The flow-level simulation with a link failing: ECMP's flows stall on
 * it, switch ECMP re-hashes them after convergence, DARD moves them at
 * its monitors' or its watch's next query (or a timeout, blindly), a new
 * flow to a destination no monitor watches avoids a link the watch saw
 * dead, quiet monitors keep asking while a path is dead, the controllers
 * place every elephant on a live path at once, a link back up carries
 * again, and bad failures are refused.
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

/* The link between two named nodes. */
static uint32_t link_between(const char *a, const char *b)
{
	uint32_t x = find(t, a), y = find(t, b), l;

	for (l = 0; l < t->nlinks; l++)
		if ((t->link[l].up == x && t->link[l].down == y) ||
		    (t->link[l].up == y && t->link[l].down == x))
			return l;
	fail_msg("%s and %s are not linked", a, b);
	return 0;
}

enum { NF = 8 };

/*
 * NF flows of 125 MB from e1_1 to e2_1, hashed over the 4 paths; the
 * link tor1_1-aggr1_1 (half the paths; or fail_a-fail_b) fails at 0.5 s,
 * back up at up. Returns how many flows never finished.
 */
static const char *fail_a = "tor1_1", *fail_b = "aggr1_1";
static double fail_watch = -1; /* its --watch-interval; below 0 the mode's */
static double fail_start;      /* when run_fail's second half starts */
static double fail_quiet = -1; /* its --quiet-at; below 0 the mode's */
/* Its --elephant-bytes: 0, every flow of the age at its first byte. */
static double fail_bytes;

static size_t run_fail(int sched, double up, double age, double rto,
		       struct dard_sim_flow *out)
{
	struct dard_sim_fail fl = {link_between(fail_a, fail_b), 0.5, up};
	struct dard_tflow f[NF];
	struct dard_sim_opts o;
	char err[DARD_ERR_MAX];
	size_t i;

	for (i = 0; i < NF; i++)
		f[i] = (struct dard_tflow){i >= NF / 2 ? fail_start : 0,
					   find(t, "e1_1"), find(t, "e2_1"),
					   125000000ULL};
	dard_sim_opts_init(&o);
	o.sched = sched;
	o.fail = &fl;
	o.nfail = 1;
	o.elephant_age = age;
	o.elephant_bytes = fail_bytes;
	o.rto = rto;
	o.quiet = fail_quiet;
	o.watch = fail_watch;
	if (dard_sim_run(t, p, f, NF, &o, out, &stats, err))
		fail_msg("%s: %s", dard_sim_sched_name(sched), err);
	return stats.unfinished;
}

/*
 * ECMP's hash never moves a flow off the failed link: it stalls to the
 * end; switch ECMP re-hashes it after convergence; DARD moves it when
 * the switch's notice reaches its host's watch, at once, or without the
 * watch at the next query of a monitor of its ToR pair.
 */
static void test_fail(void **state)
{
	struct dard_sim_flow ecmp[NF], out[NF];
	size_t k, i;

	(void)state;
	k = run_fail(DARD_SIM_ECMP, HUGE_VAL, 10, 0, ecmp);
	/* Seed 1 hashes some flows onto each half. */
	assert_true(k > 0 && k < NF);
	for (i = 0; i < NF; i++)
		assert_int_equal(ecmp[i].moves, 0);
	assert_true(stats.stalled > k * 30.0);

	/* switch-ecmp: each stalled flow waits the 0.2 s convergence. */
	assert_int_equal(run_fail(DARD_SIM_SWITCH_ECMP, HUGE_VAL, 10, 0, out),
			 0);
	assert_true(fabs(stats.stalled - k * 0.2) < 1e-6);
	for (i = 0; i < NF; i++)
		assert_int_equal(out[i].moves, ecmp[i].end < 0);

	/* dard, all elephants: the ToR's notice at 0.5 s, moved then. */
	assert_int_equal(run_fail(DARD_SIM_DARD, HUGE_VAL, 0, 0, out), 0);
	assert_true(stats.stalled < 1e-6);
	assert_true(stats.notices > 0);
	for (i = 0; i < NF; i++)
		assert_true(ecmp[i].end >= 0 || out[i].moves >= 1);

	/* No monitor yet (elephants at 100 s): the notice all the same. */
	assert_int_equal(run_fail(DARD_SIM_DARD, HUGE_VAL, 100, 0, out), 0);
	assert_true(stats.stalled < 1e-6);
	/* Without the watch (dard-paper's): the monitor's query at 1 s
	 * sees it, or with no monitor nothing does: stalled, as ECMP. */
	fail_watch = 0;
	assert_int_equal(run_fail(DARD_SIM_DARD, HUGE_VAL, 0, 0, out), 0);
	assert_true(fabs(stats.stalled - k * 0.5) < 1e-6);
	assert_int_equal(stats.notices, 0);
	assert_int_equal(run_fail(DARD_SIM_DARD, HUGE_VAL, 100, 0, out), k);
	/* Unless a timeout moves them on, blindly: 1 s at least. */
	assert_int_equal(run_fail(DARD_SIM_DARD, HUGE_VAL, 100, 1, out), 0);
	assert_true(stats.stalled >= k * 1.0 - 1e-6);
	fail_watch = -1;

	/*
	 * The datapaths' payload (100 Mbit, a tenth of a second of the
	 * 1 Gbit/s host link): the eight flows share it at 125 Mbit/s and
	 * have carried 62.5 Mbit each at the failure. Those it stalls never
	 * carry the rest and never become elephants, so no monitor moves
	 * them: the watch does, or without it only the timeout, as dardd's
	 * datapath repairs a flow on a retransmission timeout whatever its
	 * size.
	 */
	fail_bytes = -1;
	assert_int_equal(run_fail(DARD_SIM_DARD, HUGE_VAL, 0, 0, out), 0);
	fail_watch = 0;
	assert_int_equal(run_fail(DARD_SIM_DARD, HUGE_VAL, 0, 0, out), k);
	assert_int_equal(run_fail(DARD_SIM_DARD, HUGE_VAL, 0, 1, out), 0);
	fail_watch = -1;
	fail_bytes = 0;
}

/* Of the flows run_fail starts at fail_start, those never finished. */
static size_t late_unfinished(const struct dard_sim_flow *out)
{
	size_t i, n = 0;

	for (i = NF / 2; i < NF; i++)
		n += out[i].end < 0;
	return n;
}

/*
 * The watch and new flows (found in dard-sim's workloads and on the
 * testbed): a core's link down into pod 2 fails at 0.5 s, half the
 * flows start at 1.5 s, no flow is an elephant (no monitor). Without
 * the watch those hashed onto the link stall as ECMP's; with it, the
 * core's notice at 0.5 s told every watching host, and the datapath
 * places each new flow on a live path (no move) and moves the old ones.
 * The last hop down, into pod 2's ToR, is not the watch's: its flows
 * stall.
 */
static void test_fail_watch(void **state)
{
	struct dard_sim_flow ecmp[NF], out[NF];
	size_t i, k;

	(void)state;
	fail_a = "core1";
	fail_b = "aggr2_1";
	fail_start = 1.5;
	run_fail(DARD_SIM_ECMP, HUGE_VAL, 100, 0, ecmp);
	k = late_unfinished(ecmp);
	assert_true(k > 0);
	fail_watch = 0;
	run_fail(DARD_SIM_DARD, HUGE_VAL, 100, 0, out);
	assert_int_equal(late_unfinished(out), k);
	assert_true(stats.ctl_bytes == 0);
	fail_watch = -1;
	assert_int_equal(run_fail(DARD_SIM_DARD, HUGE_VAL, 100, 0, out), 0);
	for (i = NF / 2; i < NF; i++)
		assert_int_equal(out[i].moves, 0);
	assert_true(stats.ctl_bytes > 0);
	/* The ToR's link: the watch never asks aggr2_1 for it. */
	fail_a = "tor2_1";
	k = run_fail(DARD_SIM_ECMP, HUGE_VAL, 100, 0, ecmp);
	assert_true(k > 0);
	assert_int_equal(run_fail(DARD_SIM_DARD, HUGE_VAL, 100, 0, out), k);
	fail_a = "tor1_1";
	fail_b = "aggr1_1";
	fail_start = 0;
}

/*
 * Quiet monitors and a failure (as dardd's test_quiet_keeps_dead): the
 * eight flows run at their share of e1_1's link, so the monitor would be
 * quiet but for the dead half of its paths, which keeps it asking to the
 * end: the same queries and stalls as a monitor never quiet.
 */
static void test_fail_quiet(void **state)
{
	struct dard_sim_flow out[NF];
	double bytes, stalled;

	(void)state;
	fail_quiet = 0;
	assert_int_equal(run_fail(DARD_SIM_DARD, HUGE_VAL, 0, 0, out), 0);
	bytes = stats.ctl_bytes;
	stalled = stats.stalled;
	fail_quiet = -1;
	assert_int_equal(run_fail(DARD_SIM_DARD, HUGE_VAL, 0, 0, out), 0);
	assert_true(bytes > 0);
	assert_true(fabs(stats.ctl_bytes - bytes) < 1e-6);
	assert_true(fabs(stats.stalled - stalled) < 1e-6);
	/* With the link back up at 3 s, the monitor goes quiet: fewer. */
	fail_quiet = 0;
	run_fail(DARD_SIM_DARD, 3, 0, 0, out);
	bytes = stats.ctl_bytes;
	fail_quiet = -1;
	run_fail(DARD_SIM_DARD, 3, 0, 0, out);
	assert_true(stats.ctl_bytes < bytes);
}

/*
 * The controllers hear of the port going down at 0.5 s after the 0.2 s
 * convergence, as switch ECMP does, and run a round at once (not at 5 s,
 * their next, which would stall each flow 4.5 s): it places every
 * elephant on a live path though half the paths are dead.
 */
static void test_fail_controllers(void **state)
{
	static const int sched[] = {DARD_SIM_HEDERA, DARD_SIM_GREEDY,
				    DARD_SIM_OPTIMAL, DARD_SIM_OPTIMAL_THESIS};
	struct dard_sim_flow ecmp[NF], out[NF];
	size_t k, i, j;

	(void)state;
	k = run_fail(DARD_SIM_ECMP, HUGE_VAL, 0, 0, ecmp);
	assert_true(k > 0 && k < NF);
	for (i = 0; i < sizeof(sched) / sizeof(sched[0]); i++) {
		assert_int_equal(run_fail(sched[i], HUGE_VAL, 0, 0, out), 0);
		if (fabs(stats.stalled - k * 0.2) > 1e-6)
			fail_msg("%s: %g flow-seconds stalled, not %g",
				 dard_sim_sched_name(sched[i]), stats.stalled,
				 k * 0.2);
		/* Mice (elephants only at 10 s) too: their switch reports
		 * what it drops for the dead port. */
		assert_int_equal(run_fail(sched[i], HUGE_VAL, 10, 0, out), 0);
		if (fabs(stats.stalled - k * 0.2) > 1e-6)
			fail_msg("%s, mice: %g flow-seconds stalled, not %g",
				 dard_sim_sched_name(sched[i]), stats.stalled,
				 k * 0.2);
	}
	/*
	 * The second half starts at 1 s, after the controller's extra round
	 * at 0.7 s: none of them on the dead link, where ECMP's hash puts
	 * some for good; only the first half's stall, 0.2 s each.
	 */
	fail_start = 1;
	run_fail(DARD_SIM_ECMP, HUGE_VAL, 10, 0, ecmp);
	for (k = 0, j = 0, i = 0; i < NF; i++) {
		k += ecmp[i].end < 0 && i < NF / 2;
		j += ecmp[i].end < 0 && i >= NF / 2;
	}
	assert_true(j > 0);
	for (i = 0; i < sizeof(sched) / sizeof(sched[0]); i++) {
		assert_int_equal(run_fail(sched[i], HUGE_VAL, 10, 0, out), 0);
		if (fabs(stats.stalled - k * 0.2) > 1e-6)
			fail_msg(
				"%s, new flows: %g flow-seconds stalled, not %g",
				dard_sim_sched_name(sched[i]), stats.stalled,
				k * 0.2);
	}
	fail_start = 0;
}

/* A link back up carries again: ECMP's stalled flows finish after it. */
static void test_fail_up(void **state)
{
	struct dard_sim_flow ecmp[NF], out[NF];
	size_t i, k;

	(void)state;
	k = run_fail(DARD_SIM_ECMP, HUGE_VAL, 10, 0, ecmp);
	assert_int_equal(run_fail(DARD_SIM_ECMP, 5, 10, 0, out), 0);
	for (i = 0; i < NF; i++)
		assert_true(out[i].end > (ecmp[i].end >= 0 ? 0 : 5));
	assert_true(fabs(stats.stalled - k * 4.5) < 1e-6);
}

/* Bad failures are refused before any flow. */
static void test_fail_bad(void **state)
{
	struct dard_tflow f[1] = {{0, find(t, "e1_1"), find(t, "e2_1"), 1000}};
	struct dard_sim_fail fl = {t->nlinks, 1, HUGE_VAL};
	struct dard_sim_flow out[1];
	struct dard_sim_opts o;
	char err[DARD_ERR_MAX];

	(void)state;
	dard_sim_opts_init(&o);
	o.fail = &fl;
	o.nfail = 1;
	assert_int_equal(dard_sim_run(t, p, f, 1, &o, out, NULL, err), -EINVAL);
	assert_non_null(strstr(err, "bad failure"));
	fl.link = 0;
	fl.up = 1;
	assert_int_equal(dard_sim_run(t, p, f, 1, &o, out, NULL, err), -EINVAL);
	fl.up = HUGE_VAL;
	fl.down = NAN;
	assert_int_equal(dard_sim_run(t, p, f, 1, &o, out, NULL, err), -EINVAL);
	fl.down = 1;
	o.converge = -1;
	assert_int_equal(dard_sim_run(t, p, f, 1, &o, out, NULL, err), -EINVAL);
	o.converge = 0.2;
	assert_int_equal(dard_sim_run(t, p, f, 1, &o, out, NULL, err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fail),
		cmocka_unit_test(test_fail_watch),
		cmocka_unit_test(test_fail_quiet),
		cmocka_unit_test(test_fail_controllers),
		cmocka_unit_test(test_fail_up),
		cmocka_unit_test(test_fail_bad),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
