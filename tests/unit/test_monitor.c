// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Monitors: their paths, the queries that cover them, and replies. */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "monitor.h"
#include "unit.h"

struct fix {
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_pathctx *pc;
	struct dard_monitor *m;
};

static int setup(void **state)
{
	static struct fix f;
	char err[DARD_ERR_MAX];

	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &f.t, &f.p);
	f.pc = dard_pathctx_new(f.t, f.p);
	f.m = dard_monitor_new(f.pc, f.t, find(f.t, "e1_1"),
			       find(f.t, "tor2_1"), err);
	if (!f.m)
		fail_msg("%s", err);
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fix *f = *state;

	dard_monitor_free(f->m);
	dard_pathctx_free(f->pc);
	dard_plan_free(f->p);
	dard_topo_free(f->t);
	return 0;
}

/* The paper's four groups, each asked only for the ports on the paths. */
static void test_queries(void **state)
{
	struct fix *f = *state;
	const struct dard_monitor *m = f->m;
	unsigned i, total = 0;

	assert_int_equal(m->npaths, 4);
	assert_int_equal(m->nqueries, 9);
	for (i = 0; i < m->nqueries; i++) {
		const char *name = f->t->node[m->query[i].sw].name;

		total += m->query[i].nports;
		if (!strcmp(name, "tor1_1") || !strncmp(name, "aggr1_", 6))
			assert_int_equal(m->query[i].nports, 2);
		else if (!strncmp(name, "core", 4) ||
			 !strncmp(name, "aggr2_", 6))
			assert_int_equal(m->query[i].nports, 1);
		else
			fail_msg("%s should not be queried", name);
	}
	/* 16 directed links on 4 paths of 4, shared ones asked once. */
	assert_int_equal(total, 2 + 4 + 4 + 2);
}

static void test_path_index(void **state)
{
	struct fix *f = *state;
	char err[DARD_ERR_MAX];
	struct dard_path p;

	/* e1_2 -> e2_2 through core3: same ToRs, path 3 of the monitor. */
	assert_int_equal(dard_path_decode(f->pc, A("10.12.16.67"),
					  A("10.12.32.67"), &p, err),
			 0);
	assert_int_equal(dard_monitor_path_index(f->m, &p), 2);
	/* Another ToR pair: not one of ours. */
	assert_int_equal(dard_path_decode(f->pc, A("10.12.16.66"),
					  A("10.12.48.66"), &p, err),
			 0);
	assert_int_equal(dard_monitor_path_index(f->m, &p), -1);
}

static void test_replies(void **state)
{
	struct fix *f = *state;
	struct dard_lstate *ls = calloc(2 * f->t->nlinks, sizeof(*ls));
	uint64_t *when = calloc(2 * f->t->nlinks, sizeof(*when));
	struct dard_pstate pv[4];
	struct dard_msg msg = {.type = DARD_MSG_REPLY};
	unsigned i, k;

	assert_non_null(ls);
	assert_non_null(when);
	/* Every queried port answers 100 Mbit/s and one elephant... */
	for (i = 0; i < f->m->nqueries; i++) {
		const struct dard_mon_query *q = &f->m->query[i];

		msg.count = q->nports;
		for (k = 0; k < q->nports; k++)
			msg.state[k] = (struct dard_port_state){
				.port = q->ports[k],
				.flags = DARD_PORT_F_UP,
				.mbps = 100,
				.elephants = 1};
		/* ...but core3 says two, and core4 is late. */
		if (!strcmp(f->t->node[q->sw].name, "core3"))
			msg.state[0].elephants = 2;
		assert_int_equal(
			dard_reply_apply(f->t, q->sw, &msg, ls, when,
					 strcmp(f->t->node[q->sw].name, "core4")
						 ? 1000
						 : 10),
			q->nports);
	}
	dard_monitor_pv(f->m, ls, when, 1000, 500, pv);
	assert_true(pv[0].known && pv[0].bonf == 100);
	assert_true(pv[2].known && pv[2].bonf == 50 && pv[2].est == 100 / 3.0);
	assert_false(pv[3].known);
	/* A port reported down, or one the switch has no link on. */
	msg.count = 2;
	msg.state[0] = (struct dard_port_state){.port = 1, .mbps = 100};
	msg.state[1] = (struct dard_port_state){
		.port = 9, .flags = DARD_PORT_F_UP, .mbps = 100};
	assert_int_equal(dard_reply_apply(f->t, find(f->t, "core1"), &msg, ls,
					  when, 2000),
			 1);
	assert_int_equal(dard_port_dlink(f->t, find(f->t, "core1"), 9),
			 DARD_NONE);
	/* Port 1 of core1 leads to aggr1_1, on none of our paths. */
	dard_monitor_pv(f->m, ls, when, 2000, 5000, pv);
	assert_true(pv[1].known);
	for (i = 0; i < 4; i++)
		assert_false(pv[i].dead);
	/* Port 2 of core2 (to aggr2_1, path 2) reported down: dead at
	 * once, not when its old state ages out; the others stay alive. */
	msg.count = 1;
	msg.state[0] = (struct dard_port_state){.port = 2, .mbps = 100};
	assert_int_equal(dard_reply_apply(f->t, find(f->t, "core2"), &msg, ls,
					  when, 2000),
			 1);
	dard_monitor_pv(f->m, ls, when, 2000, 5000, pv);
	assert_true(pv[1].known && pv[1].dead);
	assert_true(pv[1].bonf == 0 && pv[1].est == 0);
	assert_false(pv[0].dead || pv[2].dead || pv[3].dead);
	/* core2 falls silent: its "down" ages to unknown, never stays
	 * dead (its agent may have died while it forwards fine). */
	dard_monitor_pv(f->m, ls, when, 8000, 5000, pv);
	assert_false(pv[1].known);
	assert_false(pv[1].dead);
	/* Up again: alive, its state as reported. */
	msg.state[0].flags = DARD_PORT_F_UP;
	dard_reply_apply(f->t, find(f->t, "core2"), &msg, ls, when, 9000);
	dard_monitor_pv(f->m, ls, when, 9000, 5000, pv);
	assert_false(pv[1].dead);
	/* A silent switch never made anything dead: core4 (path 4). */
	assert_false(pv[3].known);
	assert_false(pv[3].dead);
	free(ls);
	free(when);
}

/* A reply's loads: kbit/s into Mbit/s, "not measured" into not loaded. */
static void test_reply_load(void **state)
{
	struct fix *f = *state;
	struct dard_lstate *ls = calloc(2 * f->t->nlinks, sizeof(*ls));
	uint64_t *when = calloc(2 * f->t->nlinks, sizeof(*when));
	static struct dard_msg msg = {.type = DARD_MSG_REPLY, .count = 4};
	uint32_t sw = find(f->t, "core1"), dl[5];
	unsigned k;

	assert_non_null(ls);
	assert_non_null(when);
	msg.state[0] =
		(struct dard_port_state){1, DARD_PORT_F_UP, 100, 2, 73500};
	msg.state[1] = (struct dard_port_state){2, DARD_PORT_F_UP, 100, 0,
						DARD_LOAD_UNKNOWN};
	msg.state[2] = (struct dard_port_state){3, DARD_PORT_F_UP, 100, 0, 0};
	msg.state[3] = (struct dard_port_state){4, DARD_PORT_F_UP, 100, 0,
						DARD_LOAD_MAX};
	for (k = 0; k < 4; k++)
		dl[k] = dard_port_dlink(f->t, sw, k + 1);
	assert_int_equal(dard_reply_apply(f->t, sw, &msg, ls, when, 10), 4);
	assert_true(ls[dl[0]].loaded && ls[dl[0]].load == 73.5);
	assert_int_equal(ls[dl[0]].flows, 2);
	/* Not measured: no load, whatever the field held before. */
	assert_false(ls[dl[1]].loaded);
	/* Measured idle is a load of 0, known. */
	assert_true(ls[dl[2]].loaded && ls[dl[2]].load == 0);
	assert_true(ls[dl[3]].loaded && ls[dl[3]].load == 4294967.294);
	/* A later answer not measured takes the loaded bit back. */
	msg.count = 1;
	msg.state[0].load_kbps = DARD_LOAD_UNKNOWN;
	dard_reply_apply(f->t, sw, &msg, ls, when, 20);
	assert_false(ls[dl[0]].loaded);
	assert_true(ls[dl[0]].known);
	free(ls);
	free(when);
}

static void test_refused(void **state)
{
	struct fix *f = *state;
	char err[DARD_ERR_MAX];

	assert_null(dard_monitor_new(f->pc, f->t, find(f->t, "e1_1"),
				     find(f->t, "tor1_1"), err));
	assert_non_null(strstr(err, "own ToR"));
	assert_null(dard_monitor_new(f->pc, f->t, find(f->t, "e1_1"),
				     find(f->t, "core1"), err));
	assert_non_null(strstr(err, "not a ToR"));
}

/* The flows of a round: an array, its end marked by path -2. */
static const void *flows_next(void *arg, const void *cur,
			      struct dard_round_flow *f)
{
	const struct dard_round_flow *a = arg;
	const struct dard_round_flow *x =
		cur ? (const struct dard_round_flow *)cur + 1 : a;

	if (x->path == -2)
		return NULL;
	*f = *x;
	return x;
}

/*
 * The shared round: FV counted from the iterator (flows on no path left
 * out), the elephant that moved least picked (the first of equals), and
 * the move counted in the link states.
 */
/* A flow of a round: its path, moves and last move's time. */
#define RF(p, m, at)                                                           \
	{                                                                      \
		.path = (p), .moves = (m), .moved_at = (at)                    \
	}
/* And its rates: path, moves, moved_at, rate, idle_rate, share,
 * moved_rate. */
#define RFQ(p, m, at, r, ir, sh, mr)                                           \
	{                                                                      \
		.path = (p), .moves = (m), .moved_at = (at), .rate = (r),      \
		.idle_rate = (ir), .share = (sh), .moved_rate = (mr)           \
	}

static void test_round(void **state)
{
	struct fix *f = *state;
	struct dard_monitor *m = f->m;
	struct dard_lstate *ls = calloc(2 * f->t->nlinks, sizeof(*ls));
	struct dard_round_flow fl[] = {
		RF(0, 3, 0), RF(-1, 0, 0), RF(0, 1, 0),
		RF(1, 0, 0), RF(0, 1, 0),  RF(-2, 0, 0),
	};
	struct dard_flow_iter it = {.next = flows_next, .arg = fl};
	struct dard_move mv;
	const void *pick;
	unsigned i;

	assert_non_null(ls);
	for (i = 0; i < 2 * f->t->nlinks; i++)
		ls[i] = (struct dard_lstate){.mbps = 100, .known = 1};
	/* Path 0 carries three of ours, path 1 one; 3 and 4 are free. */
	for (i = 0; i < m->links[0].n; i++)
		ls[m->links[0].dl[i]].flows += 3;
	for (i = 0; i < m->links[1].n; i++)
		ls[m->links[1].dl[i]].flows += 1;
	for (i = 0; i < m->npaths; i++)
		dard_path_state(ls, m->links[i].dl, m->links[i].n, 0,
				&m->pv[i]);
	pick = dard_monitor_round(m, ls, &it, 10, &mv);
	assert_int_equal(m->fv[0], 3);
	assert_int_equal(m->fv[1], 1);
	assert_int_equal(m->fv[2], 0);
	assert_int_equal(m->fv[3], 0);
	assert_ptr_equal(pick, &fl[2]);
	assert_int_equal(mv.from, 0);
	assert_int_equal(mv.to, 2);
	dard_monitor_moved(m, ls, &mv);
	assert_int_equal(ls[m->links[2].dl[1]].flows, 1);
	assert_int_equal(ls[m->links[0].dl[1]].flows, 2);

	/* A delta above any gain: no move, no pick. */
	pick = dard_monitor_round(m, ls, &it, 1000, &mv);
	assert_null(pick);
	/* No flow of ours at all: FV all 0, nothing to move. */
	fl[0].path = -2;
	assert_null(dard_monitor_round(m, ls, &it, 0, &mv));
	for (i = 0; i < m->npaths; i++)
		assert_int_equal(m->fv[i], 0);
	free(ls);
}

/* The flows test_round_veto's may_move refuses. */
static const void *refused[3];

static int refuse(void *arg, const void *cur, unsigned to)
{
	unsigned i;

	(void)arg;
	(void)to;
	for (i = 0; i < 3; i++)
		if (cur == refused[i])
			return 0;
	return 1;
}

/*
 * A flow the iterator's may_move refuses still counts in FV, but is
 * never picked: the next that moved least is, or none when every flow
 * on the source is refused.
 */
static void test_round_veto(void **state)
{
	struct fix *f = *state;
	struct dard_monitor *m = f->m;
	struct dard_lstate *ls = calloc(2 * f->t->nlinks, sizeof(*ls));
	struct dard_round_flow fl[] = {
		RF(0, 3, 0), RF(-1, 0, 0), RF(0, 1, 0),
		RF(1, 0, 0), RF(0, 1, 0),  RF(-2, 0, 0),
	};
	struct dard_flow_iter it = {
		.next = flows_next, .arg = fl, .may_move = refuse};
	struct dard_move mv;
	unsigned i;

	assert_non_null(ls);
	for (i = 0; i < 2 * f->t->nlinks; i++)
		ls[i] = (struct dard_lstate){.mbps = 100, .known = 1};
	for (i = 0; i < m->links[0].n; i++)
		ls[m->links[0].dl[i]].flows += 3;
	for (i = 0; i < m->links[1].n; i++)
		ls[m->links[1].dl[i]].flows += 1;
	for (i = 0; i < m->npaths; i++)
		dard_path_state(ls, m->links[i].dl, m->links[i].n, 0,
				&m->pv[i]);
	/* test_round's pick refused: the other that moved once. */
	refused[0] = &fl[2];
	assert_ptr_equal(dard_monitor_round(m, ls, &it, 10, &mv), &fl[4]);
	assert_int_equal(m->fv[0], 3);
	assert_int_equal(mv.from, 0);
	assert_int_equal(mv.to, 2);
	refused[1] = &fl[4];
	assert_ptr_equal(dard_monitor_round(m, ls, &it, 10, &mv), &fl[0]);
	refused[2] = &fl[0];
	assert_null(dard_monitor_round(m, ls, &it, 10, &mv));
	memset(refused, 0, sizeof(refused));
	free(ls);
}

/*
 * The fast mode's hold: a flow a round moved less than the hold ago stays,
 * the round takes another on the source path, or none; a dead path's flow
 * leaves anyway; the paper's mode never holds. Modes parse by name.
 */
static void test_round_hold(void **state)
{
	const struct dard_sched_mode
		*fast = &dard_sched_modes[DARD_SCHED_FAST],
		*paper = &dard_sched_modes[DARD_SCHED_PAPER];
	struct fix *f = *state;
	struct dard_monitor *m = f->m;
	struct dard_lstate *ls = calloc(2 * f->t->nlinks, sizeof(*ls));
	/* Two of ours on path 0: one moved at 100 s, one at 50 s. */
	struct dard_round_flow fl[] = {RF(0, 1, 100), RF(0, 2, 50),
				       RF(-2, 0, 0)};
	struct dard_flow_iter it = {.next = flows_next, .arg = fl};
	struct dard_move mv;
	unsigned i;

	assert_non_null(ls);
	assert_true(fast->hold > 0);
	assert_true(paper->hold == 0);
	for (i = 0; i < 2 * f->t->nlinks; i++)
		ls[i] = (struct dard_lstate){.mbps = 100, .known = 1};
	for (i = 0; i < m->links[0].n; i++)
		ls[m->links[0].dl[i]].flows += 3;
	for (i = 0; i < m->npaths; i++)
		dard_path_state(ls, m->links[i].dl, m->links[i].n, 0,
				&m->pv[i]);
	/* The paper's mode: the one that moved least, held or not. */
	assert_ptr_equal(
		dard_monitor_round_mode(m, ls, &it, 10, paper, 101, &mv),
		&fl[0]);
	/* Fast, at 101 s: fl[0] is held, fl[1] (moved at 50 s) goes. */
	assert_ptr_equal(
		dard_monitor_round_mode(m, ls, &it, 10, fast, 101, &mv),
		&fl[1]);
	/* Both held: no move, though the gain is there. */
	fl[1].moved_at = 99;
	assert_null(dard_monitor_round_mode(m, ls, &it, 10, fast, 101, &mv));
	/* The hold over, to the second: the least moved again. */
	assert_ptr_equal(dard_monitor_round_mode(m, ls, &it, 10, fast,
						 100 + fast->hold, &mv),
			 &fl[0]);
	/* Never moved (moves 0): no hold, whatever moved_at says. */
	fl[0].moves = 0;
	assert_ptr_equal(
		dard_monitor_round_mode(m, ls, &it, 10, fast, 101, &mv),
		&fl[0]);
	/* A dead source: its elephants leave, held or not. */
	fl[0].moves = 1;
	m->pv[0].dead = 1;
	m->pv[0].bonf = 0;
	m->pv[0].est = 0;
	assert_ptr_equal(
		dard_monitor_round_mode(m, ls, &it, 1e9, fast, 101, &mv),
		&fl[0]);
	assert_int_equal(mv.from, 0);
	assert_int_equal(dard_sched_mode_parse("fast"), DARD_SCHED_FAST);
	assert_int_equal(dard_sched_mode_parse("paper"), DARD_SCHED_PAPER);
	assert_int_equal(dard_sched_mode_parse("Paper"), -1);
	assert_int_equal(dard_sched_mode_parse(""), -1);
	free(ls);
}

/*
 * Quiet (the fast mode): every rate known and at 0.9 of its share, or of
 * its rate at an idle round while the monitor sleeps. An idle round (no
 * move wanted) starts the sleep; one held back from a move, or a move,
 * does not. The paper's mode is never quiet nor asleep.
 */
static void test_quiet(void **state)
{
	const struct dard_sched_mode
		*fast = &dard_sched_modes[DARD_SCHED_FAST],
		*paper = &dard_sched_modes[DARD_SCHED_PAPER];
	struct fix *f = *state;
	struct dard_monitor *m = f->m;
	struct dard_lstate *ls = calloc(2 * f->t->nlinks, sizeof(*ls));
	/* path, moves, moved_at, rate, idle_rate, share, moved_rate */
	struct dard_round_flow fl[] = {RFQ(0, 0, 0, 95, 0, 100, 0),
				       RFQ(1, 0, 0, 45, 0, 50, 0),
				       RFQ(-2, 0, 0, 0, 0, 0, 0)};
	struct dard_flow_iter it = {.next = flows_next, .arg = fl};
	struct dard_move mv;
	unsigned i;

	assert_non_null(ls);
	assert_true(fast->quiet == 0.9 && fast->sleep == 3);
	assert_true(paper->quiet == 0 && paper->sleep == 0);
	m->idle_until = 0;
	assert_true(dard_monitor_quiet(m, &it, fast, 10));
	assert_false(dard_monitor_quiet(m, &it, paper, 10));
	/* One below 0.9 of its share, or not known yet: not quiet. */
	fl[1].rate = 44;
	assert_false(dard_monitor_quiet(m, &it, fast, 10));
	fl[1].rate = -1;
	assert_false(dard_monitor_quiet(m, &it, fast, 10));
	fl[1].rate = 20;
	/* An idle round: every link alike, nothing to gain. */
	for (i = 0; i < 2 * f->t->nlinks; i++)
		ls[i] = (struct dard_lstate){.mbps = 100, .known = 1};
	for (i = 0; i < m->npaths; i++)
		dard_path_state(ls, m->links[i].dl, m->links[i].n, 0,
				&m->pv[i]);
	assert_null(dard_monitor_round_mode(m, ls, &it, 1000, fast, 10, &mv));
	assert_true(dard_monitor_idle(m, 10));
	assert_false(dard_monitor_idle(m, 13));
	fl[1].idle_rate = 20;
	/* Asleep: 18 is at 0.9 of the 20 it had; 17 is not. */
	fl[1].rate = 18;
	assert_true(dard_monitor_quiet(m, &it, fast, 12.9));
	assert_false(dard_monitor_quiet(m, &it, fast, 13));
	fl[1].rate = 17;
	assert_false(dard_monitor_quiet(m, &it, fast, 11));
	/* A flow that was stalled at the idle round gives no bar. */
	fl[1].idle_rate = 0;
	fl[1].rate = 18;
	assert_false(dard_monitor_quiet(m, &it, fast, 11));
	/* The paper's round never sleeps. */
	assert_null(dard_monitor_round_mode(m, ls, &it, 1000, paper, 10, &mv));
	assert_false(dard_monitor_idle(m, 10));
	/* A round that wants a move ends the sleep. */
	assert_null(dard_monitor_round_mode(m, ls, &it, 1000, fast, 10, &mv));
	for (i = 0; i < m->links[0].n; i++)
		ls[m->links[0].dl[i]].flows += 3;
	for (i = 0; i < m->npaths; i++)
		dard_path_state(ls, m->links[i].dl, m->links[i].n, 0,
				&m->pv[i]);
	assert_non_null(dard_monitor_round_mode(m, ls, &it, 10, fast, 11, &mv));
	assert_false(dard_monitor_idle(m, 11));
	free(ls);
}

/* Path states as test_round sets them, path `dead' reported down. */
static void dead_states(struct dard_monitor *m, struct dard_lstate *ls,
			unsigned dead)
{
	unsigned i;

	for (i = 0; i < m->npaths; i++)
		dard_path_state(ls, m->links[i].dl, m->links[i].n, 0,
				&m->pv[i]);
	m->pv[dead].dead = 1;
	m->pv[dead].bonf = 0;
	m->pv[dead].est = 0;
}

/*
 * A dead path carrying ours is always the source, moves whatever delta
 * says, and goes to the best live known path; nothing moves onto a dead
 * path, and an unknown path is neither dead nor a target.
 */
static void test_round_dead(void **state)
{
	struct fix *f = *state;
	struct dard_monitor *m = f->m;
	struct dard_lstate *ls = calloc(2 * f->t->nlinks, sizeof(*ls));
	struct dard_round_flow fl[] = {RF(0, 0, 0), RF(1, 0, 0), RF(-2, 0, 0)};
	struct dard_flow_iter it = {.next = flows_next, .arg = fl};
	struct dard_move mv;
	unsigned i;

	assert_non_null(ls);
	for (i = 0; i < 2 * f->t->nlinks; i++)
		ls[i] = (struct dard_lstate){.mbps = 100, .known = 1};
	/*
	 * Path 0 is the congested one (5 elephants past the ToRs' links it
	 * shares with path 1), path 1 has one of ours and is dead, path 2
	 * carries two others, path 3 none.
	 */
	for (i = 1; i + 1 < m->links[0].n; i++)
		ls[m->links[0].dl[i]].flows += 5;
	for (i = 0; i < m->links[1].n; i++)
		ls[m->links[1].dl[i]].flows += 1;
	for (i = 1; i + 1 < m->links[2].n; i++)
		ls[m->links[2].dl[i]].flows += 2;
	dead_states(m, ls, 1);
	/* The dead path, not the congested one, even with delta 1e9. */
	assert_ptr_equal(dard_monitor_round(m, ls, &it, 1e9, &mv), &fl[1]);
	assert_int_equal(mv.from, 1);
	assert_int_equal(mv.to, 3);
	assert_true(mv.from_bonf == 0);
	/* The same through the paper's round. */
	assert_int_equal(dard_sched_round(m->pv, m->fv, m->npaths, 1e9, &mv),
			 1);
	assert_int_equal(mv.from, 1);
	assert_int_equal(mv.to, 3);
	/* The best live path unknown: the dead source goes to the next. */
	m->pv[3].known = 0;
	assert_non_null(dard_monitor_round(m, ls, &it, 1e9, &mv));
	assert_int_equal(mv.to, 2);
	/* Unknown is not dead: its elephant is no source, path 0's is. */
	m->pv[3].known = 1;
	m->pv[1].dead = 0;
	m->pv[1].known = 0;
	assert_ptr_equal(dard_monitor_round(m, ls, &it, 0, &mv), &fl[0]);
	assert_int_equal(mv.from, 0);
	assert_int_equal(mv.to, 3);
	/* ...and with delta too big, nothing moves off the unknown one. */
	assert_null(dard_monitor_round(m, ls, &it, 1e9, &mv));
	/* The free path 3 is dead: never a target, path 2 is taken. */
	dead_states(m, ls, 3);
	m->pv[1].known = 0;
	assert_ptr_equal(dard_monitor_round(m, ls, &it, 0, &mv), &fl[0]);
	assert_int_equal(mv.to, 2);
	assert_int_equal(dard_sched_round(m->pv, m->fv, m->npaths, 0, &mv), 1);
	assert_int_equal(mv.to, 2);
	/* Every other path dead or unknown: the dead source stays. */
	m->pv[0].known = 0;
	m->pv[2].dead = 1;
	m->pv[1].dead = 1;
	assert_null(dard_monitor_round(m, ls, &it, 0, &mv));
	assert_int_equal(dard_sched_round(m->pv, m->fv, m->npaths, 0, &mv), 0);
	free(ls);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queries),
		cmocka_unit_test(test_path_index),
		cmocka_unit_test(test_replies),
		cmocka_unit_test(test_reply_load),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_round),
		cmocka_unit_test(test_round_dead),
		cmocka_unit_test(test_round_hold),
		cmocka_unit_test(test_round_veto),
		cmocka_unit_test(test_quiet),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
