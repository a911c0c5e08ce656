// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Selfish flow scheduling: the paper's toy example (Figure 1, Table 1)
 * round by round, the overlap where the paper's estimate gets stuck, the
 * round's rules, path states, busy links and the switches a monitor
 * asks. The randomized runs are test_sched_random.c's.
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

#include "sched_fix.h"

#define INF HUGE_VAL

static void assert_pv(struct sim *s, const char *src, const char *dst,
		      const double *want, const char *what)
{
	struct dard_pstate pv[PATHS_MAX];
	uint32_t fv[PATHS_MAX];
	unsigned n = monitor(s, find(s->t, src), find(s->t, dst), pv, fv), i;

	assert_int_equal(n, 4);
	for (i = 0; i < n; i++)
		if (!(pv[i].bonf == want[i] ||
		      fabs(pv[i].bonf - want[i]) < 1e-9))
			fail_msg("%s: %s -> %s path %u: BoNF %g, want %g", what,
				 src, dst, i + 1, pv[i].bonf, want[i]);
}

/*
 * Figure 1: Flow0 E11 -> E21, Flow1 E31 -> E24, Flow2 E32 -> E23, all
 * through core1, links of 1 unit; path i turns at core i. Table 1 gives
 * each pair's vector at the start of every round.
 */
static void toy_example(int aware)
{
	struct dard_move m;
	struct sim s;

	links_aware = aware;
	sim_init(&s, "fattree:4", 1.0);
	s.flow[0] = (struct flow){
		.src = find(s.t, "e1_1"), .dst = find(s.t, "e2_1"), .path = 0};
	s.flow[1] = (struct flow){
		.src = find(s.t, "e3_1"), .dst = find(s.t, "e2_4"), .path = 0};
	s.flow[2] = (struct flow){
		.src = find(s.t, "e3_2"), .dst = find(s.t, "e2_3"), .path = 0};
	s.nflows = 3;
	sim_links(&s);
	assert_true(sim_min_bonf(&s) == 1.0 / 3); /* core1-aggr2_1: 3 flows */

	/* Round 0. Table 1 prints the vector of (E31, E24) and (E32, E23)
	 * as [1/2, 1/2, 1, inf], their vector of round 1; on Figure 1(a)
	 * path 1 crosses core1-aggr21 with three flows, and paths 3 and 4
	 * carry none, as for (E11, E21). */
	assert_pv(&s, "e1_1", "e2_1", (double[]){1.0 / 3, 1, INF, INF},
		  "round 0");
	assert_pv(&s, "e3_1", "e2_4", (double[]){1.0 / 3, 0.5, INF, INF},
		  "round 0");
	assert_int_equal(
		round_of(&s, find(s.t, "e1_1"), find(s.t, "e2_1"), 0, &m), 1);
	/* From path 1 to path 3: estimated vector [1/2, 1, 1, inf]. */
	assert_int_equal(m.from, 0);
	assert_int_equal(m.to, 2);
	assert_true(m.from_bonf == 1.0 / 3 && m.estimate == 1);
	assert_true(sim_min_bonf(&s) == 0.5);

	/* Round 1: (E11, E21) stays; (E31, E24) moves to path 4. */
	assert_pv(&s, "e1_1", "e2_1", (double[]){0.5, INF, 1, 1}, "round 1");
	assert_pv(&s, "e3_1", "e2_4", (double[]){0.5, 0.5, 1, INF}, "round 1");
	assert_pv(&s, "e3_2", "e2_3", (double[]){0.5, 0.5, 1, INF}, "round 1");
	assert_int_equal(
		round_of(&s, find(s.t, "e1_1"), find(s.t, "e2_1"), 0, &m), 0);
	assert_int_equal(
		round_of(&s, find(s.t, "e3_1"), find(s.t, "e2_4"), 0, &m), 1);
	assert_int_equal(m.from, 0);
	assert_int_equal(m.to, 3);
	assert_true(m.from_bonf == 0.5 && m.estimate == 1);
	assert_true(sim_min_bonf(&s) == 1);

	/* Round 2: nobody moves; converged after two rounds. */
	assert_pv(&s, "e1_1", "e2_1", (double[]){1, INF, 1, 1}, "round 2");
	assert_pv(&s, "e3_1", "e2_4", (double[]){1, 1, 1, 1}, "round 2");
	assert_pv(&s, "e3_2", "e2_3", (double[]){1, 1, 1, 1}, "round 2");
	assert_int_equal(
		round_of(&s, find(s.t, "e1_1"), find(s.t, "e2_1"), 0, &m), 0);
	assert_int_equal(
		round_of(&s, find(s.t, "e3_1"), find(s.t, "e2_4"), 0, &m), 0);
	assert_int_equal(
		round_of(&s, find(s.t, "e3_2"), find(s.t, "e2_3"), 0, &m), 0);
	sim_free(&s);
}

static void test_toy_example(void **state)
{
	(void)state;
	toy_example(0);
}

/* dardd's round makes the same decisions on Figure 1. */
static void test_toy_example_links(void **state)
{
	(void)state;
	toy_example(1);
}

/*
 * Where the live testbed got stuck: flow i from e1_i to e2_i, e1_1 on
 * core1, e1_4 on core2, e1_2 and e1_3 (under different ToRs) sharing
 * core3, core4 free. Every path of e1_2 shares tor1_1's up link or its
 * destination's down link with its current one; the paper's estimate
 * (one more flow on every link of the target, which it picks by BoNF,
 * all 100 here) offers 50 against 50 and nothing moves. Counting the
 * shared links once, core4 offers 100.
 */
/* Flow i from e1_i to e2_i on path path[i] of its ToR pair's, i < 4. */
static void four(struct sim *s, const unsigned *path)
{
	unsigned i;

	for (i = 0; i < 4; i++) {
		char src[8], dst[8];

		snprintf(src, sizeof(src), "e1_%u", i + 1);
		snprintf(dst, sizeof(dst), "e2_%u", i + 1);
		s->flow[i] = (struct flow){.src = find(s->t, src),
					   .dst = find(s->t, dst),
					   .path = path[i],
					   .moved_at = -HUGE_VAL};
	}
	s->nflows = 4;
}

static void test_overlap(void **state)
{
	struct dard_move m;
	struct sim s;

	(void)state;
	sim_init(&s, "fattree:4", 100);
	four(&s, (unsigned[]){0, 2, 2, 1});
	sim_links(&s);
	assert_true(sim_min_bonf(&s) == 50);
	links_aware = 0;
	assert_int_equal(
		round_of(&s, find(s.t, "e1_2"), find(s.t, "e2_2"), 10, &m), 0);
	links_aware = 1;
	assert_int_equal(
		round_of(&s, find(s.t, "e1_2"), find(s.t, "e2_2"), 10, &m), 1);
	assert_int_equal(m.from, 2);
	assert_int_equal(m.to, 3);
	assert_true(m.from_bonf == 50 && m.estimate == 100);
	assert_true(sim_min_bonf(&s) == 100);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(
			round_of(&s, s.flow[i].src, s.flow[i].dst, 10, &m), 0);
	sim_free(&s);
}

/*
 * The same collision on 20 Mbit/s links: the move takes the flow from 10
 * to 20 Mbit/s, a gain of exactly the paper's absolute delta, which a
 * move must exceed, so the pair stays collided for good. fast's delta,
 * 1% of the paths' 20 Mbit/s, lets it go.
 */
static void test_overlap_slow_links(void **state)
{
	const struct dard_sched_mode *paper =
		&dard_sched_modes[DARD_SCHED_PAPER];
	const struct dard_sched_mode *fast = &dard_sched_modes[DARD_SCHED_FAST];
	struct dard_pstate pv[4];
	uint32_t fv[4];
	struct dard_move m;
	struct sim s;
	double d_paper, d_fast;

	(void)state;
	sim_init(&s, "fattree:4", 20);
	four(&s, (unsigned[]){0, 2, 2, 1});
	sim_links(&s);
	assert_true(sim_min_bonf(&s) == 10);
	links_aware = 1;
	/* Each mode's delta from the monitor's path states. */
	assert_int_equal(
		monitor(&s, find(s.t, "e1_2"), find(s.t, "e2_2"), pv, fv), 4);
	d_paper = dard_sched_delta(paper, pv, 4);
	d_fast = dard_sched_delta(fast, pv, 4);
	assert_true(d_paper == 10);
	assert_true(fabs(d_fast - 0.2) < 1e-12);
	assert_int_equal(
		round_of(&s, find(s.t, "e1_2"), find(s.t, "e2_2"), d_paper, &m),
		0);
	assert_int_equal(
		round_of(&s, find(s.t, "e1_2"), find(s.t, "e2_2"), d_fast, &m),
		1);
	assert_true(m.from_bonf == 10 && m.estimate == 20);
	assert_true(sim_min_bonf(&s) == 20);
	sim_free(&s);
}

static void test_round_rules(void **state)
{
	struct dard_pstate pv[4] = {
		{.bonf = 100, .est = 50, .known = 1},
		{.bonf = 300, .est = 150, .known = 1},
		{.bonf = HUGE_VAL, .est = 1000, .known = 0},
		{.bonf = 400, .est = 200, .known = 1},
	};
	uint32_t fv[4] = {1, 0, 0, 0};
	struct dard_move m;

	(void)state;
	/* The unknown path is never the target, however good it looks. */
	assert_int_equal(dard_sched_round(pv, fv, 4, 10, &m), 1);
	assert_int_equal(m.from, 0);
	assert_int_equal(m.to, 3);
	/* delta: 200 - 100 must beat it. */
	assert_int_equal(dard_sched_round(pv, fv, 4, 100, &m), 0);
	assert_int_equal(dard_sched_round(pv, fv, 4, 99.5, &m), 1);
	/* No elephant of ours anywhere: nothing to move. */
	fv[0] = 0;
	assert_int_equal(dard_sched_round(pv, fv, 4, 0, &m), 0);
	/* Ours only on the best path: stay. */
	fv[3] = 2;
	assert_int_equal(dard_sched_round(pv, fv, 4, 0, &m), 0);
	/* Ours on an unknown path: not a source either. */
	fv[3] = 0;
	fv[2] = 1;
	assert_int_equal(dard_sched_round(pv, fv, 4, 0, &m), 0);
	/* Two empty paths: no gain in moving between them. */
	pv[0] = (struct dard_pstate){.bonf = HUGE_VAL, .est = 10, .known = 1};
	pv[1] = (struct dard_pstate){.bonf = HUGE_VAL, .est = 10, .known = 1};
	fv[0] = 1;
	fv[2] = 0;
	assert_int_equal(dard_sched_round(pv, fv, 2, 0, &m), 0);
}

static void test_path_state(void **state)
{
	struct dard_lstate ls[4] = {
		{.mbps = 100, .flows = 1, .known = 1},	/* BoNF 100, est 50 */
		{.mbps = 1000, .flows = 9, .known = 1}, /* 111, est 100 */
		{.mbps = 10, .flows = 0, .known = 1},	/* inf, est 10 */
		{.mbps = 1000, .flows = 0, .known = 0},
	};
	struct dard_pstate ps;

	(void)state;
	dard_path_state(ls, (uint32_t[]){0, 1}, 2, 0, &ps);
	assert_true(ps.bonf == 100 && ps.est == 50 && ps.flows == 1);
	assert_int_equal(ps.known, 1);
	/* An empty slow link is where one more flow would hurt most. */
	dard_path_state(ls, (uint32_t[]){0, 1, 2}, 3, 0, &ps);
	assert_true(ps.bonf == 100 && ps.est == 10);
	dard_path_state(ls, (uint32_t[]){2, 3}, 2, 0, &ps);
	assert_true(ps.bonf == HUGE_VAL && ps.mbps == 10);
	assert_int_equal(ps.known, 0);
}

/*
 * Busy links (the fast mode's busy): a link loaded below busy times its
 * bandwidth is nobody's bottleneck, and a target's link offers what its
 * load leaves unused when that beats its count. Link 0 carries ours and
 * one other at 990 of 1000 Mbit/s; link 1 three elephants limited
 * elsewhere, at 300 in all.
 */
static void test_busy_rule(void **state)
{
	struct dard_lstate ls[3] = {
		{.mbps = 1000,
		 .load = 990,
		 .flows = 2,
		 .known = 1,
		 .loaded = 1},
		{.mbps = 1000,
		 .load = 300,
		 .flows = 3,
		 .known = 1,
		 .loaded = 1},
		{.mbps = 1000,
		 .load = 500,
		 .flows = 1,
		 .known = 1,
		 .loaded = 1},
	};
	const struct dard_path_links paths[2] = {{(uint32_t[]){0, 2}, 2},
						 {(uint32_t[]){1, 2}, 2}};
	struct dard_pstate pv[2];
	uint32_t fv[2] = {1, 0};
	struct dard_move m;
	unsigned i;

	(void)state;
	assert_true(dard_link_bonf(&ls[0], 0.9) == 500);
	assert_true(dard_link_bonf(&ls[1], 0.9) == HUGE_VAL);
	assert_true(dard_link_est(&ls[1], 0.9) == 700);
	/* busy 0, or no measured load: the count alone. */
	assert_true(dard_link_bonf(&ls[1], 0) == 1000.0 / 3);
	assert_true(dard_link_est(&ls[1], 0) == 250);
	ls[1].loaded = 0;
	assert_true(dard_link_est(&ls[1], 0.9) == 250);
	assert_true(dard_link_bonf(&ls[1], 0.9) == 1000.0 / 3);
	ls[1].loaded = 1;
	/* The paper's count sees 250 against 500: stay. */
	for (i = 0; i < 2; i++)
		dard_path_state(ls, paths[i].dl, paths[i].n, 0, &pv[i]);
	assert_int_equal(
		dard_sched_round_links(ls, paths, pv, fv, 2, 10, 0, &m), 0);
	/* The load: 700 on link 1; link 2, shared, is not busy. */
	for (i = 0; i < 2; i++)
		dard_path_state(ls, paths[i].dl, paths[i].n, 0.9, &pv[i]);
	assert_true(pv[0].bonf == 500 && pv[1].bonf == HUGE_VAL);
	assert_int_equal(
		dard_sched_round_links(ls, paths, pv, fv, 2, 10, 0.9, &m), 1);
	assert_true(m.from == 0 && m.to == 1 && m.estimate == 700);
	/* Our link not busy: its flows are limited elsewhere; stay. */
	ls[0].load = 800;
	for (i = 0; i < 2; i++)
		dard_path_state(ls, paths[i].dl, paths[i].n, 0.9, &pv[i]);
	assert_true(pv[0].bonf == HUGE_VAL);
	assert_int_equal(
		dard_sched_round_links(ls, paths, pv, fv, 2, 10, 0.9, &m), 0);
	/* Dead: it leaves whatever the loads say. */
	ls[0].dead = 1;
	for (i = 0; i < 2; i++)
		dard_path_state(ls, paths[i].dl, paths[i].n, 0.9, &pv[i]);
	assert_int_equal(
		dard_sched_round_links(ls, paths, pv, fv, 2, 10, 0.9, &m), 1);
	ls[0].dead = 0;
	ls[0].load = 990;
	/* The move takes its rate off link 0 and what it expects onto
	 * link 1; shared link 2 keeps its load. */
	dard_lstate_move(ls, &paths[0], &paths[1], 400, 700);
	assert_true(ls[0].load == 590 && ls[0].flows == 1);
	assert_true(ls[1].load == 1000 && ls[1].flows == 4);
	assert_true(ls[2].load == 500 && ls[2].flows == 1);
	/* Unknown rate: nothing off; never below 0. */
	dard_lstate_move(ls, &paths[1], &paths[0], -1, HUGE_VAL);
	assert_true(ls[1].load == 1000 && ls[0].load == 590);
	dard_lstate_move(ls, &paths[0], &paths[1], 5000, 0);
	assert_true(ls[0].load == 0 && ls[1].load == 1000);
}

/*
 * A monitor's round with busy links judges a flow by its rate: one that
 * gets more than the target offers stays, and one whose last move left
 * its rate where it was, to within delta or 10% if less (limited by its
 * hosts' links),
 * stays too, where the switches measured the loads of both paths.
 */
static void test_busy_gain(void **state)
{
	struct round_iter ri;
	struct dard_flow_iter it = {.next = round_next, .arg = &ri};
	struct dard_pstate pv[PATHS_MAX];
	uint32_t fv[PATHS_MAX];
	struct dard_monitor *mon;
	char err[DARD_ERR_MAX];
	struct dard_move m;
	struct sim s;
	unsigned i, n;

	(void)state;
	sim_init(&s, "fattree:4", 1000);
	/* Two flows of e1_1's to e3_1's ToR, both on path 0. */
	s.flow[0] = (struct flow){.src = find(s.t, "e1_1"),
				  .dst = find(s.t, "e3_1"),
				  .rate = 300};
	s.flow[1] = s.flow[0];
	s.nflows = 2;
	sim_links(&s);
	ri = (struct round_iter){&s, s.flow[0].src,
				 dard_topo_tor(s.t, s.flow[0].dst)};
	mon = dard_monitor_new(s.pc, s.t, ri.src, ri.dtor, err);
	assert_non_null(mon);
	mon->busy = 0.9;
	/* Path 0's links full; the others empty: 1000 on offer. */
	for (i = 0; i < mon->links[0].n; i++)
		s.ls[mon->links[0].dl[i]].load = 1000;
	for (i = 0; i < 2 * s.t->nlinks; i++)
		s.ls[i].loaded = 1;
	n = monitor(&s, s.flow[0].src, s.flow[0].dst, pv, fv);
	sim_loads = 1; /* round_next gives the rates */
	for (i = 0; i < n; i++)
		dard_path_state(s.ls, mon->links[i].dl, mon->links[i].n, 0.9,
				&mon->pv[i]);
	assert_ptr_equal(dard_monitor_round_mode(
				 mon, s.ls, &it, 10,
				 &dard_sched_modes[DARD_SCHED_FAST], 100, &m),
			 &s.flow[0]);
	assert_true(m.rate == 300);
	/* At 995 already: the 1000 on offer gains less than delta. */
	s.flow[0].rate = s.flow[1].rate = 995;
	assert_null(dard_monitor_round_mode(mon, s.ls, &it, 10,
					    &dard_sched_modes[DARD_SCHED_FAST],
					    100, &m));
	/* At 300 after a move at 305: limited elsewhere, it stays. */
	s.flow[0].rate = s.flow[1].rate = 300;
	s.flow[0].moves = s.flow[1].moves = 1;
	s.flow[0].moved_rate = s.flow[1].moved_rate = 305;
	assert_null(dard_monitor_round_mode(mon, s.ls, &it, 10,
					    &dard_sched_modes[DARD_SCHED_FAST],
					    100, &m));
	/* It slowed since: free to move again. */
	s.flow[1].moved_rate = 600;
	assert_ptr_equal(dard_monitor_round_mode(
				 mon, s.ls, &it, 10,
				 &dard_sched_modes[DARD_SCHED_FAST], 100, &m),
			 &s.flow[1]);
	/* From a third of a link to half of one: not futile (others
	 * filled its new path as it moved), so it may leave for a free one. */
	s.flow[1].moved_rate = 200;
	assert_ptr_equal(dard_monitor_round_mode(
				 mon, s.ls, &it, 10,
				 &dard_sched_modes[DARD_SCHED_FAST], 100, &m),
			 &s.flow[1]);
	/* A target whose loads no switch measured: no futility there (the
	 * estimate is the count's), and a flow whose last move was futile
	 * leaves for the count's 1000; one at 995 still does not. */
	s.flow[0].moved_rate = s.flow[1].moved_rate = 305;
	for (i = 0; i < mon->links[m.to].n; i++)
		s.ls[mon->links[m.to].dl[i]].loaded = 0;
	assert_non_null(dard_monitor_round_mode(
		mon, s.ls, &it, 10, &dard_sched_modes[DARD_SCHED_FAST], 100,
		&m));
	s.flow[0].rate = s.flow[1].rate = 995;
	assert_null(dard_monitor_round_mode(mon, s.ls, &it, 10,
					    &dard_sched_modes[DARD_SCHED_FAST],
					    100, &m));
	for (i = 0; i < 2 * s.t->nlinks; i++)
		s.ls[i].loaded = 1;
	s.flow[0].rate = s.flow[1].rate = 300;
	/* The count alone (busy 0) knows no rates: path 0 is the worst. */
	mon->busy = 0;
	s.flow[1].moved_rate = 305;
	for (i = 0; i < n; i++)
		dard_path_state(s.ls, mon->links[i].dl, mon->links[i].n, 0,
				&mon->pv[i]);
	assert_non_null(dard_monitor_round_mode(
		mon, s.ls, &it, 10, &dard_sched_modes[DARD_SCHED_FAST], 100,
		&m));
	sim_loads = 0;
	dard_monitor_free(mon);
	sim_free(&s);
}

/* The paper's four groups on fattree:4, and the analogue within a pod. */
static void test_monitor_switches(void **state)
{
	uint32_t sw[64];
	struct sim s;
	unsigned n;

	(void)state;
	sim_init(&s, "fattree:4", 1000);
	n = dard_monitor_switches(s.pc, s.t, find(s.t, "tor1_1"),
				  find(s.t, "tor2_1"), sw, 64);
	/* tor1_1, aggr1_1, aggr1_2, core1..4, aggr2_1, aggr2_2. */
	assert_int_equal(n, 9);
	assert_int_equal(sw[0], find(s.t, "core1"));
	assert_int_equal(sw[4], find(s.t, "aggr1_1"));
	assert_int_equal(sw[7], find(s.t, "aggr2_2"));
	assert_int_equal(sw[8], find(s.t, "tor1_1"));
	n = dard_monitor_switches(s.pc, s.t, find(s.t, "tor1_1"),
				  find(s.t, "tor1_2"), sw, 64);
	assert_int_equal(n, 3); /* tor1_1 and its two aggregation switches */
	assert_int_equal(dard_monitor_switches(s.pc, s.t, find(s.t, "tor1_1"),
					       find(s.t, "tor1_1"), sw, 64),
			 0);
	sim_free(&s);
}

/* Rounds in a mode with switches that measure the flows' loads. */
static void busy_begin(const struct dard_sched_mode *mode)
{
	sim_loads = 1;
	round_busy = mode->busy;
	links_aware = 1;
	round_mode = mode;
}

static void busy_end(struct sim *s)
{
	round_mode = NULL;
	round_busy = 0;
	sim_loads = 0;
	sim_free(s);
}

/* No flow's round wants a move. */
static void none_moves(struct sim *s)
{
	struct dard_move m;
	unsigned i;

	for (i = 0; i < s->nflows; i++)
		assert_int_equal(
			round_of(s, s->flow[i].src, s->flow[i].dst, 0.2, &m),
			0);
}

/* Whether no switch-switch link carries two flows: one core each, and
 * the two of a ToR on its two up links. */
static int spread4(struct sim *s)
{
	return sim_min_bonf(s) == s->mbps;
}

/*
 * The equilibrium the testbed settles in (issue 28): four elephants from
 * pod 1 to pod 2 on 20 Mbit/s links, tor1_1's two through aggr1_1 (cores
 * 1 and 2), tor1_2's two through aggr1_2 (cores 3 and 4). Every flow
 * runs at 10 Mbit/s, half its ToR's up link, and no single move gains:
 * each free up link leads to the cores the other pair uses, whose
 * estimate with one more flow is 10 again. The switches measure every
 * link (the flows' max-min fair rates). Without the escape every round
 * stays; with it, a round takes the neutral move onto an idle up link
 * and a core whose flow is limited at its own ToR (so it has room), the
 * flow it joins then gains by leaving, and the four end on four cores.
 */
static void test_escape(void **state)
{
	const struct dard_sched_mode *fast = &dard_sched_modes[DARD_SCHED_FAST];
	struct dard_sched_mode stay = *fast;
	struct dard_move m;
	struct sim s;
	unsigned i, sweep, moves = 0, neutral = 0;

	(void)state;
	sim_init(&s, "fattree:4", 20);
	four(&s, (unsigned[]){0, 1, 2, 3});
	busy_begin(fast);
	sim_links(&s);
	assert_false(spread4(&s));
	for (i = 0; i < 4; i++)
		assert_true(fabs(s.flow[i].rate - 10) < 1e-9);
	/* Stuck without the escape, at any time. */
	stay.escape = 0;
	round_mode = &stay;
	for (round_now = 1; round_now < 30; round_now++)
		none_moves(&s);
	/* With it: one sweep of the four rounds a second. */
	round_mode = fast;
	round_rng = 1;
	for (sweep = 0; sweep < 60 && !spread4(&s); sweep++) {
		round_now += 1;
		for (i = 0; i < 4; i++)
			if (round_of(&s, s.flow[i].src, s.flow[i].dst, 0.2,
				     &m)) {
				moves++;
				neutral += m.neutral;
				/* Never below the level it left. */
				assert_true(m.estimate >= m.from_bonf);
			}
	}
	print_message("the escape spread them in %u sweeps: %u moves, %u "
		      "neutral\n",
		      sweep, moves, neutral);
	assert_true(spread4(&s));
	assert_true(neutral >= 1 && neutral <= 2);
	for (i = 0; i < 4; i++)
		assert_true(fabs(s.flow[i].rate - 20) < 1e-9);
	/* And there it stays: no round wants a move. */
	round_now += 2 * fast->hold;
	none_moves(&s);
	busy_end(&s);
}

/*
 * Four elephants on core1 from pod 1 to pod 2 (5 Mbit/s each on 20
 * Mbit/s links): e1_1's round may take cores 2, 3 and 4 alike, 20 Mbit/s
 * each (the up link to aggr1_1 that core2's path shares with core1's
 * carries 10 of its 20: not busy, and not the flows' bottleneck). The
 * best-first rule takes the same one whatever the seed, as every host
 * reading the same answers would; the new rule draws any of the three,
 * and nothing else: the target is always one that gains.
 */
static void test_spread_ties(void **state)
{
	const struct dard_sched_mode *fast = &dard_sched_modes[DARD_SCHED_FAST];
	struct dard_sched_mode best = *fast;
	const struct dard_sched_mode *modes[] = {fast, &best};
	unsigned seen[2][PATHS_MAX] = {{0}}, k, seed, i, kinds[2] = {0};
	struct dard_move m;
	struct sim s;

	(void)state;
	best.escape = 0;
	sim_init(&s, "fattree:4", 20);
	busy_begin(fast);
	round_now = 1;
	for (k = 0; k < 2; k++) {
		round_mode = modes[k];
		for (seed = 1; seed <= 64; seed++) {
			four(&s, (unsigned[]){0, 0, 0, 0});
			sim_links(&s);
			round_rng = seed;
			assert_int_equal(round_of(&s, s.flow[0].src,
						  s.flow[0].dst, 0.2, &m),
					 1);
			assert_false(m.neutral);
			assert_true(fabs(m.estimate - 20) < 1e-9);
			assert_true(m.to < PATHS_MAX);
			seen[k][m.to]++;
		}
		for (i = 0; i < PATHS_MAX; i++)
			kinds[k] += seen[k][i] > 0;
	}
	print_message("targets over 64 seeds: %u kinds drawn, %u best-first\n",
		      kinds[0], kinds[1]);
	assert_int_equal(kinds[0], 3);
	assert_int_equal(kinds[1], 1);
	assert_int_equal(seen[0][0] + seen[1][0], 0);
	busy_end(&s);
}

/*
 * Two ToR peers that moved onto one path in the same query interval
 * (each expecting it free, 20 Mbit/s by the counts) share it at 10, as
 * they did before: the move looks futile, the rule that keeps a flow
 * limited by its own hosts where it is. But the path now offers 10 by
 * the counts, not the 20 the move expected: others crowded it, and a
 * free path still gives 20, so the round moves one. Had the path offered
 * what the move expected, the flow would stay.
 */
static void test_crowded_not_futile(void **state)
{
	struct dard_sched_mode mode = dard_sched_modes[DARD_SCHED_FAST];
	struct dard_move m;
	struct sim s;
	unsigned i;

	(void)state;
	sim_init(&s, "fattree:4", 20);
	for (i = 0; i < 2; i++)
		s.flow[i] = (struct flow){.src = find(s.t, i ? "e1_2" : "e1_1"),
					  .dst = find(s.t, i ? "e3_2" : "e3_1"),
					  .path = 1,
					  .moves = 1,
					  .moved_at = 0,
					  .moved_rate = 10,
					  .moved_est = 20};
	s.nflows = 2;
	mode.escape = 0;
	busy_begin(&mode);
	round_now = 2 * mode.hold;
	sim_links(&s);
	assert_true(fabs(s.flow[0].rate - 10) < 1e-9);
	assert_int_equal(round_of(&s, s.flow[0].src, s.flow[0].dst, 0.2, &m),
			 1);
	assert_true(m.from == 1 && m.estimate == 20);
	/* The path gave what the move expected: futile, it stays. */
	s.flow[0].path = s.flow[1].path = 1;
	s.flow[0].moved_est = s.flow[1].moved_est = 10;
	sim_links(&s);
	none_moves(&s);
	busy_end(&s);
}

/*
 * delta by mode: the paper's 10 Mbit/s whatever the links; fast's 1% of
 * the slowest path known and live, so a move that doubles a flow's rate
 * passes it on 20 Mbit/s links as on 1 Gbit/s ones.
 */
static void test_delta_share(void **state)
{
	const struct dard_sched_mode *paper =
		&dard_sched_modes[DARD_SCHED_PAPER];
	const struct dard_sched_mode *fast = &dard_sched_modes[DARD_SCHED_FAST];
	struct dard_pstate pv[4] = {
		{.mbps = 20, .known = 1},
		{.mbps = 20, .known = 1},
		{.mbps = 5, .known = 0},
		{.mbps = 1, .known = 1, .dead = 1},
	};

	(void)state;
	assert_true(dard_sched_delta(paper, pv, 4) == 10);
	assert_true(fabs(dard_sched_delta(fast, pv, 4) - 0.2) < 1e-12);
	/* The 1 Gbit/s links of the paper's simulations: its 10 Mbit/s. */
	pv[0].mbps = pv[1].mbps = 1000;
	assert_true(fabs(dard_sched_delta(fast, pv, 4) - 10) < 1e-12);
	/* Nothing known and live: no bandwidth to take a share of. */
	pv[0].known = pv[1].known = 0;
	assert_true(dard_sched_delta(fast, pv, 4) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_toy_example),
		cmocka_unit_test(test_toy_example_links),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_round_rules),
		cmocka_unit_test(test_path_state),
		cmocka_unit_test(test_monitor_switches),
		cmocka_unit_test(test_busy_rule),
		cmocka_unit_test(test_busy_gain),
		cmocka_unit_test(test_delta_share),
		cmocka_unit_test(test_overlap_slow_links),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_spread_ties),
		cmocka_unit_test(test_crowded_not_futile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
