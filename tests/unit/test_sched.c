// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Selfish flow scheduling: the paper's toy example (Figure 1, Table 1)
 * round by round, and randomized runs on fattree:4 and fattree:8 in which
 * no move may lower the global minimum BoNF and asynchronous rounds must
 * stop (Appendix B).
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

#include "maxmin.h"
#include "monitor.h"
#include "sched.h"
#include "unit.h"

enum { PATHS_MAX = 64, FLOWS_MAX = 512 };

struct flow {
	uint32_t src, dst; /* hosts */
	unsigned path;	   /* index in the ToR pair's path list */
	unsigned moves;
	double moved_at;   /* s, round_now of its last move */
	double rate;	   /* Mbit/s, max-min fair, when sim_loads */
	double moved_rate; /* its rate at its last move */
};

/* The whole network, as an oracle for what switches would answer. */
struct sim {
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_pathctx *pc;
	struct dard_lstate *ls;
	struct flow flow[FLOWS_MAX];
	unsigned nflows;
	double mbps;
};

struct plist {
	const struct dard_topo *t;
	uint32_t dl[PATHS_MAX][2 * DARD_LEVEL_MAX];
	unsigned ndl[PATHS_MAX];
	unsigned n;
};

static int add_path(const struct dard_path *path, void *arg)
{
	struct plist *l = arg;

	assert_true(l->n < PATHS_MAX);
	l->ndl[l->n] = dard_path_dlinks(l->t, path, l->dl[l->n]);
	l->n++;
	return 0;
}

/* The directed switch-switch links of every path from src to dst. */
static void paths(struct sim *s, uint32_t src, uint32_t dst, struct plist *l)
{
	memset(l, 0, sizeof(*l));
	l->t = s->t;
	assert_true(dard_path_foreach(s->pc, src, dst, add_path, l) > 0);
}

static void sim_init(struct sim *s, const char *spec, double mbps)
{
	memset(s, 0, sizeof(*s));
	unit_build(spec, NULL, DARD_MODE_AUTO, &s->t, &s->p);
	s->pc = dard_pathctx_new(s->t, s->p);
	assert_non_null(s->pc);
	s->ls = calloc(2 * s->t->nlinks, sizeof(*s->ls));
	assert_non_null(s->ls);
	s->mbps = mbps;
}

static void sim_free(struct sim *s)
{
	free(s->ls);
	dard_pathctx_free(s->pc);
	dard_plan_free(s->p);
	dard_topo_free(s->t);
}

/*
 * Whether switches measure loads: every flow's max-min fair rate (TCP's,
 * the paper's Appendix A) over its host links and its path, summed per
 * link, as the flow-level simulator's switches answer.
 */
static int sim_loads;
/* The busy of the rounds and their path states (dard_link_bonf). */
static double round_busy;

static void sim_rates(struct sim *s)
{
	static uint32_t dl[FLOWS_MAX][2 * DARD_LEVEL_MAX + 2];
	struct dard_mm_flow mm[FLOWS_MAX];
	double *cap = malloc(2 * s->t->nlinks * sizeof(*cap));
	double rate[FLOWS_MAX];
	struct plist l;
	unsigned i, k;

	assert_non_null(cap);
	for (i = 0; i < 2 * s->t->nlinks; i++)
		cap[i] = s->mbps;
	for (i = 0; i < s->nflows; i++) {
		const struct flow *f = &s->flow[i];

		paths(s, f->src, f->dst, &l);
		dl[i][0] = dard_host_dlink(s->t, f->src, DARD_UP);
		memcpy(&dl[i][1], l.dl[f->path],
		       l.ndl[f->path] * sizeof(dl[i][0]));
		dl[i][l.ndl[f->path] + 1] =
			dard_host_dlink(s->t, f->dst, DARD_DOWN);
		mm[i].links = dl[i];
		mm[i].nlinks = l.ndl[f->path] + 2;
	}
	assert_int_equal(
		dard_maxmin(cap, 2 * s->t->nlinks, mm, s->nflows, rate), 0);
	for (i = 0; i < s->nflows; i++) {
		s->flow[i].rate = rate[i];
		for (k = 0; k < mm[i].nlinks; k++)
			s->ls[mm[i].links[k]].load += rate[i];
	}
	free(cap);
}

/* Link states from where the flows are, as the switches would count. */
static void sim_links(struct sim *s)
{
	struct plist l;
	unsigned i, k;

	for (i = 0; i < 2 * s->t->nlinks; i++)
		s->ls[i] = (struct dard_lstate){
			.mbps = s->mbps, .known = 1, .loaded = sim_loads};
	for (i = 0; i < s->nflows; i++) {
		paths(s, s->flow[i].src, s->flow[i].dst, &l);
		for (k = 0; k < l.ndl[s->flow[i].path]; k++)
			s->ls[l.dl[s->flow[i].path][k]].flows++;
	}
	if (sim_loads)
		sim_rates(s);
}

/* The sum of the flows' max-min rates, when sim_loads. */
static double sim_total_rate(const struct sim *s)
{
	double sum = 0;
	unsigned i;

	for (i = 0; i < s->nflows; i++)
		sum += s->flow[i].rate;
	return sum;
}

/* The smallest BoNF of any switch-switch link. */
static double sim_min_bonf(struct sim *s)
{
	double m = HUGE_VAL;
	unsigned i;

	for (i = 0; i < 2 * s->t->nlinks; i++) {
		const struct dard_link *l = &s->t->link[i / 2];

		if (s->t->node[l->down].is_host)
			continue;
		if (dard_bonf(s->ls[i].mbps, s->ls[i].flows) < m)
			m = dard_bonf(s->ls[i].mbps, s->ls[i].flows);
	}
	return m;
}

/* The monitor of host src towards the ToR of dst: PV and FV. */
static unsigned monitor(struct sim *s, uint32_t src, uint32_t dst,
			struct dard_pstate *pv, uint32_t *fv)
{
	uint32_t dtor = dard_topo_tor(s->t, dst);
	struct plist l;
	unsigned i;

	paths(s, src, dst, &l);
	for (i = 0; i < l.n; i++) {
		dard_path_state(s->ls, l.dl[i], l.ndl[i], round_busy, &pv[i]);
		fv[i] = 0;
	}
	for (i = 0; i < s->nflows; i++)
		if (s->flow[i].src == src &&
		    dard_topo_tor(s->t, s->flow[i].dst) == dtor)
			fv[s->flow[i].path]++;
	return l.n;
}

/* Which round the tests run: the paper's, or dardd's (overlap-aware). */
static int links_aware;
/* dardd's round under this mode (NULL: dard_monitor_round), at this time. */
static const struct dard_sched_mode *round_mode;
static double round_now;

/* The elephants of src's monitor towards the ToR dtor. */
struct round_iter {
	struct sim *s;
	uint32_t src, dtor;
};

static const void *round_next(void *arg, const void *cur,
			      struct dard_round_flow *rf)
{
	struct round_iter *it = arg;
	struct sim *s = it->s;
	struct flow *f = cur ? (struct flow *)cur + 1 : s->flow;

	for (; f < s->flow + s->nflows; f++)
		if (f->src == it->src &&
		    dard_topo_tor(s->t, f->dst) == it->dtor) {
			rf->path = f->path;
			rf->moves = f->moves;
			rf->moved_at = f->moved_at;
			rf->rate = sim_loads ? f->rate : -1;
			rf->moved_rate = f->moved_rate;
			return f;
		}
	return NULL;
}

/* dardd's round: libdard's dard_monitor_round on src's monitor. */
static struct flow *round_links(struct sim *s, uint32_t src, uint32_t dtor,
				const struct dard_pstate *pv,
				const struct plist *l, double delta,
				struct dard_move *m)
{
	struct round_iter ri = {s, src, dtor};
	struct dard_flow_iter it = {round_next, &ri};
	char err[DARD_ERR_MAX];
	struct dard_monitor *mon;
	struct flow *pick;
	unsigned i;

	mon = dard_monitor_new(s->pc, s->t, src, dtor, err);
	if (!mon)
		fail_msg("%s", err);
	mon->busy = round_busy;
	/* The monitor's paths are the test's, in the same order. */
	assert_int_equal(mon->npaths, l->n);
	for (i = 0; i < l->n; i++) {
		assert_int_equal(mon->links[i].n, l->ndl[i]);
		assert_memory_equal(mon->links[i].dl, l->dl[i],
				    l->ndl[i] * sizeof(l->dl[i][0]));
		mon->pv[i] = pv[i];
	}
	if (round_mode)
		pick = (struct flow *)dard_monitor_round_mode(
			mon, s->ls, &it, delta, round_mode, round_now, m);
	else
		pick = (struct flow *)dard_monitor_round(mon, s->ls, &it, delta,
							 m);
	dard_monitor_free(mon);
	return pick;
}

/* The paper's round: dard_sched_round, the first elephant on the source. */
static struct flow *round_plain(struct sim *s, uint32_t src, uint32_t dtor,
				const struct dard_pstate *pv,
				const uint32_t *fv, unsigned n, double delta,
				struct dard_move *m)
{
	unsigned i;

	if (!dard_sched_round(pv, fv, n, delta, m))
		return NULL;
	for (i = 0; i < s->nflows; i++)
		if (s->flow[i].src == src &&
		    dard_topo_tor(s->t, s->flow[i].dst) == dtor &&
		    s->flow[i].path == m->from)
			return &s->flow[i];
	return NULL;
}

/* One round of src's monitor towards dst's ToR; applies a move. */
static int round_of(struct sim *s, uint32_t src, uint32_t dst, double delta,
		    struct dard_move *m)
{
	struct dard_pstate pv[PATHS_MAX];
	uint32_t fv[PATHS_MAX], dtor = dard_topo_tor(s->t, dst);
	unsigned n = monitor(s, src, dst, pv, fv);
	struct flow *pick;
	struct plist l;

	paths(s, src, dst, &l);
	assert_int_equal(l.n, n);
	pick = links_aware ? round_links(s, src, dtor, pv, &l, delta, m)
			   : round_plain(s, src, dtor, pv, fv, n, delta, m);
	if (!pick)
		return 0;
	if (pick->path != m->from)
		fail_msg("no flow of ours on path %u, which had fv > 0",
			 m->from);
	pick->moved_rate = pick->rate;
	pick->path = m->to;
	pick->moves++;
	pick->moved_at = round_now;
	sim_links(s);
	return 1;
}

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
static void test_overlap(void **state)
{
	struct dard_move m;
	struct sim s;

	(void)state;
	sim_init(&s, "fattree:4", 100);
	s.flow[0] = (struct flow){
		.src = find(s.t, "e1_1"), .dst = find(s.t, "e2_1"), .path = 0};
	s.flow[1] = (struct flow){
		.src = find(s.t, "e1_2"), .dst = find(s.t, "e2_2"), .path = 2};
	s.flow[2] = (struct flow){
		.src = find(s.t, "e1_3"), .dst = find(s.t, "e2_3"), .path = 2};
	s.flow[3] = (struct flow){
		.src = find(s.t, "e1_4"), .dst = find(s.t, "e2_4"), .path = 1};
	s.nflows = 4;
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
	struct dard_flow_iter it = {round_next, &ri};
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

/*
 * Random elephants placed by hash, then monitors taking turns at random
 * (asynchronous, one at a time, as Appendix B assumes): every move must
 * keep the global minimum BoNF, and the process must stop.
 */
/* The last converge()'s moves, and its smallest rates (with sim_loads). */
static unsigned last_moves;
static double first_total, last_total;

static unsigned converge(const char *spec, unsigned nflows, unsigned seed)
{
	/* Under a hold, quiet until every hold has run out. */
	unsigned need = round_mode ? (unsigned)ceil(round_mode->hold) + 1 : 1;
	unsigned moves = 0, quiet = 0, sweeps = 0, i;
	const struct dard_sched_mode *mode;
	double before, delta = 10;
	struct dard_move m;
	struct sim s;

	last_moves = 0;
	sim_init(&s, spec, 1000);
	srand(seed);
	for (i = 0; i < nflows; i++) {
		struct flow *f = &s.flow[i];
		struct plist l;

		do {
			f->src = s.t->hosts[rand() % s.t->nhosts];
			f->dst = s.t->hosts[rand() % s.t->nhosts];
		} while (dard_topo_tor(s.t, f->src) ==
			 dard_topo_tor(s.t, f->dst));
		paths(&s, f->src, f->dst, &l);
		f->path = rand() % l.n;
	}
	s.nflows = nflows;
	sim_links(&s);
	first_total = sim_total_rate(&s);
	/*
	 * Sweeps over every flow's monitor in a random order, one round at a
	 * time, until a whole sweep moves nothing (need sweeps in a row). A
	 * sweep takes a second: each monitor's round every second or so, as
	 * in the fast mode.
	 */
	round_now = 0;
	do {
		int moved = 0;

		unsigned order[FLOWS_MAX], j;

		for (i = 0; i < s.nflows; i++)
			order[i] = i;
		for (i = s.nflows - 1; i > 0; i--) {
			unsigned r = rand() % (i + 1), x = order[i];

			order[i] = order[r];
			order[r] = x;
		}
		for (j = 0; j < s.nflows; j++) {
			const struct flow *f = &s.flow[order[j]];

			round_now += 1.0 / s.nflows;
			before = sim_min_bonf(&s);
			if (!round_of(&s, f->src, f->dst, delta, &m))
				continue;
			/* Busy links: the count is not the measure (below). */
			if (!(round_busy > 0) && sim_min_bonf(&s) < before)
				fail_msg(
					"%s seed %u: move %u lowered the minimum BoNF from %g to %g",
					spec, seed, moves, before,
					sim_min_bonf(&s));
			if (getenv("TRACE") && moves > 2200) {
				unsigned q;
				fprintf(stderr,
					"t=%.2f flow %ld %s->%s %u->%u bonf %g est %g rate %g mr %g|",
					round_now, (long)(f - s.flow),
					s.t->node[f->src].name,
					s.t->node[f->dst].name, m.from, m.to,
					m.from_bonf, m.estimate, m.rate,
					f->moved_rate);
				for (q = 0; q < s.nflows; q++)
					if (s.flow[q].src == f->src ||
					    s.flow[q].dst == f->dst)
						fprintf(stderr,
							" %u:%s>%s p%u %.0f", q,
							s.t->node[s.flow[q].src]
								.name,
							s.t->node[s.flow[q].dst]
								.name,
							s.flow[q].path,
							s.flow[q].rate);
				fprintf(stderr, "\n");
			}
			moves++;
			last_moves++;
			moved = 1;
			if (moves >= 20 * nflows)
				fail_msg("%s seed %u: %u moves and no end",
					 spec, seed, moves);
		}
		quiet = moved ? 0 : quiet + 1;
		sweeps++;
	} while (quiet < need);
	/* A Nash equilibrium: no monitor wants to move, even with no hold
	 * (the paper's round), so that a hold that never ends fails here. */
	round_now += round_mode ? round_mode->hold : 0;
	mode = round_mode;
	round_mode = NULL;
	for (i = 0; i < s.nflows; i++)
		assert_int_equal(
			round_of(&s, s.flow[i].src, s.flow[i].dst, delta, &m),
			0);
	round_mode = mode;
	last_total = sim_total_rate(&s);
	sim_free(&s);
	return sweeps;
}

static void test_converge_fattree4(void **state)
{
	unsigned seed;

	(void)state;
	for (links_aware = 0; links_aware < 2; links_aware++)
		for (seed = 1; seed <= 20; seed++)
			converge("fattree:4", 4 + seed % 13, seed);
}

static void test_converge_fattree8(void **state)
{
	unsigned seed;

	(void)state;
	for (links_aware = 0; links_aware < 2; links_aware++)
		for (seed = 1; seed <= 5; seed++)
			converge("fattree:8", 40 * seed, seed);
}

/*
 * The fast mode (dardd's default): the same rule with a hold, so the same
 * guarantees, and the moves stop within a bounded number of one-second
 * sweeps: no endless oscillation. The bound is a few holds, far above
 * what the runs take (printed, to see how far).
 */
static void test_converge_fast(void **state)
{
	unsigned seed, sweeps, most = 0;

	(void)state;
	links_aware = 1;
	round_mode = &dard_sched_modes[DARD_SCHED_FAST];
	for (seed = 1; seed <= 20; seed++) {
		sweeps = converge("fattree:4", 4 + seed % 13, seed);
		most = sweeps > most ? sweeps : most;
	}
	for (seed = 1; seed <= 5; seed++) {
		sweeps = converge("fattree:8", 40 * seed, seed);
		most = sweeps > most ? sweeps : most;
	}
	round_mode = NULL;
	print_message("fast mode: the moves stopped within %u sweeps\n", most);
	assert_true(most <=
		    6 * (unsigned)ceil(dard_sched_modes[DARD_SCHED_FAST].hold));
}

/*
 * The fast mode with busy links (dardd's default): switches measure each
 * link's load, here every flow's max-min fair rate, hosts' links
 * included, so that a host with several flows limits them all. A link
 * below the mode's busy is nobody's bottleneck, so a move may leave more
 * elephants on a link than the count alone allowed, and the paper's
 * argument (no move lowers the minimum BoNF) no longer applies. What is
 * tested instead: the rounds stop within the same bound of one-second
 * sweeps, end where no monitor wants a move even without a hold, and
 * leave the slowest flow no slower than the hashed placement did.
 */
static void test_converge_busy(void **state)
{
	static const struct {
		const char *spec;
		unsigned first, step, seeds;
	} runs[] = {
		{"fattree:4", 4, 3, 20},
		{"fattree:8", 40, 40, 5},
		{"clos:4,4", 8, 4, 10},
		{"clos:8,8", 32, 16, 5},
	};
	unsigned r, seed, sweeps, most = 0, moves = 0;
	double hashed = 0, count = 0, busy = 0;

	(void)state;
	links_aware = 1;
	sim_loads = 1;
	round_mode = &dard_sched_modes[DARD_SCHED_FAST];
	round_busy = round_mode->busy;
	assert_true(round_busy > 0);
	for (r = 0; r < sizeof(runs) / sizeof(runs[0]); r++)
		for (seed = 1; seed <= runs[r].seeds; seed++) {
			unsigned n = runs[r].first + seed * runs[r].step;

			/* The same flows with the count alone, for its end. */
			round_busy = 0;
			converge(runs[r].spec, n, seed);
			count += last_total;
			round_busy = round_mode->busy;
			sweeps = converge(runs[r].spec, n, seed);
			most = sweeps > most ? sweeps : most;
			moves += last_moves;
			hashed += first_total;
			busy += last_total;
			if (last_total < first_total - 1e-6)
				fail_msg(
					"%s seed %u: %g Mbit/s in all, %g hashed",
					runs[r].spec, seed, last_total,
					first_total);
		}
	round_mode = NULL;
	round_busy = 0;
	sim_loads = 0;
	print_message("busy links: %u moves, all stopped within %u sweeps; "
		      "%.0f Mbit/s in all, %.0f by the count alone, %.0f "
		      "hashed\n",
		      moves, most, busy, count, hashed);
	assert_true(moves > 0);
	assert_true(busy > count);
	assert_true(most <=
		    6 * (unsigned)ceil(dard_sched_modes[DARD_SCHED_FAST].hold));
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
		cmocka_unit_test(test_converge_fattree4),
		cmocka_unit_test(test_converge_fattree8),
		cmocka_unit_test(test_converge_fast),
		cmocka_unit_test(test_converge_busy),
		cmocka_unit_test(test_busy_rule),
		cmocka_unit_test(test_busy_gain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
