// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's scheduling: delta in Mbit/s or as a fraction of the slowest
 * known path's bandwidth, and a monitor's round moving the elephant that
 * moved least through the datapath, or nothing when the datapath fails.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "dardd_fix.h"

#define S 1000000000ULL

static void test_delta(void **state)
{
	struct fix *f = fix_new();
	struct dardd *d = &f->d;
	struct dard_pstate *pv;
	struct mon *mon;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	mon = d->mons;
	pv = mon->m->pv;
	assert_int_equal(mon->m->npaths, 4);
	pv[0] = (struct dard_pstate){.mbps = 1000, .known = 1};
	pv[1] = (struct dard_pstate){.mbps = 400, .known = 1};
	pv[2] = (struct dard_pstate){.mbps = 100, .known = 0};
	pv[3] = (struct dard_pstate){.mbps = 700, .known = 1};
	/* Mbit/s: as it is, whatever the paths. */
	d->o.delta_is_frac = 0;
	d->o.delta = 25;
	assert_true(schedule_delta(d, mon) == 25);
	/* A fraction of the slowest known path: 400, not the unknown 100. */
	d->o.delta_is_frac = 1;
	d->o.delta = 0.1;
	assert_true(schedule_delta(d, mon) == 0.1 * 400);
	pv[2].known = 1;
	assert_true(schedule_delta(d, mon) == 0.1 * 100);
	/* No path known: no bandwidth to take a share of, delta 0. */
	pv[0].known = pv[1].known = pv[2].known = pv[3].known = 0;
	assert_true(schedule_delta(d, mon) == 0);
	fix_free(f);
}

static void test_round_moves(void **state)
{
	struct fix *f = fix_new();
	struct dardd *d = &f->d;
	struct dard_alias_pair want;
	const struct dard_path_links *to;
	struct elephant *a, *b;
	struct mon *mon;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	fix_elephant(f, "e2_2", 2, 0);
	mon = d->mons;
	a = fix_el(f, "e2_1", 1);
	b = fix_el(f, "e2_2", 2);
	/* b is the newer, so the first the round sees: it moved before. */
	assert_ptr_equal(d->els, b);
	b->moves = 1;
	fix_links(f, 0, 2, 10 * S);
	schedule(d, mon, 10 * S);
	assert_int_equal(mon->rounds, 1);
	assert_int_equal(d->st.rounds, 1);
	/* The fast mode's rounds: 1 s + U[0, 1 s]. */
	assert_true(mon->next_round_ns >= 11 * S &&
		    mon->next_round_ns <= 12 * S);
	/* Path 1 shares tor1_1's up link with path 0: paths 2 and 3
	 * (through aggr1_2) offer 1000 each, and the fast mode draws
	 * between them. */
	assert_int_equal(f->dp.nmoves, 1);
	assert_memory_equal(&f->dp.moved, &a->key, sizeof(a->key));
	assert_true(a->path == 2 || a->path == 3);
	want = fix_pair(f, "e2_1", (unsigned)a->path);
	assert_memory_equal(&f->dp.moved_to, &want, sizeof(want));
	assert_memory_equal(&a->pair, &want, sizeof(want));
	assert_int_equal(a->moves, 1);
	assert_true(a->moved_ns == 10 * S);
	assert_int_equal(a->nhist, 2);
	assert_int_equal(a->hist[1].path, a->path);
	assert_int_equal(b->path, 0);
	assert_int_equal(mon->moves, 1);
	assert_int_equal(d->st.moves, 1);
	/* The link states as the move leaves them. */
	to = &mon->m->links[a->path];
	assert_int_equal(d->links.ls[to->dl[to->n - 1]].flows, 1);
	assert_int_equal(d->links.ls[mon->m->links[0].dl[1]].flows, 1);
	assert_int_equal(mon->m->fv[0], 2); /* counted before the move */
	fix_free(f);
}

/*
 * The fast mode's hold through dardd: an elephant a round moved less than
 * 8 s ago stays (a, moved 5 s before), another on the path goes (b);
 * the paper's mode takes the one that moved least (a); with both held
 * nothing moves.
 */
/* want: 'a', 'b' or 0 for no move. */
static void round_hold(int mode, uint64_t b_moved, char want)
{
	struct fix *f = fix_new();
	struct dardd *d = &f->d;
	struct elephant *a, *b;

	d->o.mode = mode;
	d->o.sched = dard_sched_modes[mode];
	fix_elephant(f, "e2_1", 1, 0);
	fix_elephant(f, "e2_2", 2, 0);
	a = fix_el(f, "e2_1", 1);
	b = fix_el(f, "e2_2", 2);
	a->moves = 1;
	a->moved_ns = 5 * S; /* 5 s before the round */
	b->moves = 2;
	b->moved_ns = b_moved;
	fix_links(f, 0, 2, 10 * S);
	schedule(d, d->mons, 10 * S);
	assert_int_equal(d->mons->rounds, 1);
	if (!want) {
		assert_int_equal(f->dp.nmoves, 0);
	} else {
		assert_int_equal(f->dp.nmoves, 1);
		assert_memory_equal(&f->dp.moved,
				    want == 'a' ? &a->key : &b->key,
				    sizeof(a->key));
	}
	fix_free(f);
}

static void test_round_hold(void **state)
{
	(void)state;
	round_hold(DARD_SCHED_FAST, 0, 'b');
	round_hold(DARD_SCHED_PAPER, 0, 'a');
	round_hold(DARD_SCHED_FAST, 6 * S, 0);
	/* b's hold over (moved 8 s before): b goes. */
	round_hold(DARD_SCHED_FAST, 2 * S, 'b');
}

static void test_round_stays(void **state)
{
	struct fix *f = fix_new();
	struct dardd *d = &f->d;
	struct elephant *a;
	struct mon *mon;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	fix_elephant(f, "e2_2", 2, 0);
	mon = d->mons;
	a = fix_el(f, "e2_1", 1);
	/* The gain, 500 Mbit/s, is below 60% of 1000 but above 40%. */
	d->o.delta_is_frac = 1;
	d->o.delta = 0.6;
	fix_links(f, 0, 2, 10 * S);
	schedule(d, mon, 10 * S);
	assert_int_equal(f->dp.nmoves, 0);
	assert_int_equal(d->st.moves, 0);
	/* The datapath refuses: nothing changes but the count of rounds. */
	d->o.delta = 0.4;
	f->dp.move_ret = -EPERM;
	fix_links(f, 0, 2, 20 * S);
	schedule(d, mon, 20 * S);
	assert_int_equal(f->dp.nmoves, 0);
	assert_int_equal(d->st.moves, 0);
	assert_int_equal(mon->rounds, 2);
	assert_int_equal(a->path, 0);
	assert_int_equal(a->moves, 0);
	assert_int_equal(d->links.ls[mon->m->links[0].dl[1]].flows, 2);
	/* It lets the move through. */
	f->dp.move_ret = 0;
	fix_links(f, 0, 2, 30 * S);
	schedule(d, mon, 30 * S);
	assert_int_equal(f->dp.nmoves, 1);
	assert_int_equal(d->st.moves, 1);
	/* Link states older than max_age: unknown, no decision at all. */
	fix_links(f, 0, 2, 40 * S);
	schedule(d, mon, 40 * S + d->o.max_age_ns + 1);
	assert_int_equal(f->dp.nmoves, 1);
	fix_free(f);
}

/*
 * Quiet monitors (dard_monitor_quiet under the fast mode): the walks of
 * the flow table give an elephant's rate; at 0.9 of our 1000 Mbit/s up
 * link or more its monitor asks no switch and skips its round. Slower,
 * it asks; a round that wants no move lets it sleep 3 s while the rate
 * holds at 0.9 of what that round saw. The paper's mode always asks.
 */
static void test_quiet(void **state)
{
	struct fix *f = fix_new();
	struct dardd *d = &f->d;
	struct elephant *a;
	struct mon *mon;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	mon = d->mons;
	a = fix_el(f, "e2_1", 1);
	/* Its rate is not known before two walks: it asks. */
	fix_table(f, 0, 1 * S);
	flows_sweep(d, 1 * S);
	assert_true(a->rate < 0);
	query_send(d, 1 * S);
	assert_int_equal(f->nsent, 9);
	assert_false(mon->quiet);
	/* 950 Mbit/s over a second, our one elephant: quiet. */
	fix_table(f, 118750000, 2 * S);
	flows_sweep(d, 2 * S);
	assert_int_equal(d->nel, 1);
	assert_true(fabs(a->rate - 950) < 1e-6);
	f->nsent = 0;
	query_send(d, 2 * S);
	assert_int_equal(f->nsent, 0);
	assert_true(mon->quiet);
	assert_int_equal(d->st.quiet_ticks, 1);
	/* Two ticks of one monitor, one of them quiet: 9 queries, as the
	 * namespace tests count them (9 x (monitor_ticks - quiet_ticks)). */
	assert_int_equal(d->st.query_ticks, 2);
	assert_int_equal(d->st.monitor_ticks, 2);
	assert_int_equal(d->st.queries, 9);
	schedule(d, mon, 2 * S + 1);
	assert_int_equal(mon->rounds, 0);
	assert_int_equal(d->st.rounds_quiet, 1);
	/* Slower, 500 Mbit/s: under 0.9 of our link, it asks. */
	fix_table(f, 118750000 + 62500000, 3 * S);
	flows_sweep(d, 3 * S);
	assert_true(fabs(a->rate - 500) < 1e-6);
	query_send(d, 3 * S);
	assert_int_equal(f->nsent, 9);
	assert_false(mon->quiet);
	/* A round that wants no move: it sleeps while 500 holds. */
	fix_links(f, 0, 1, 3 * S);
	schedule(d, mon, 3 * S + 1);
	assert_int_equal(mon->rounds, 1);
	assert_int_equal(f->dp.nmoves, 0);
	assert_true(fabs(a->idle_rate - 500) < 1e-6);
	fix_table(f, 118750000 + 62500000 + 57500000, 4 * S);
	flows_sweep(d, 4 * S);
	f->nsent = 0;
	query_send(d, 4 * S);
	assert_true(mon->quiet); /* 460: above 0.9 x 500 */
	assert_int_equal(f->nsent, 0);
	/* Slower than that: awake at once. */
	fix_table(f, 118750000 + 62500000 + 57500000 + 50000000, 5 * S);
	flows_sweep(d, 5 * S);
	query_send(d, 5 * S);
	assert_false(mon->quiet);
	assert_int_equal(f->nsent, 9);
	/* Quiet again at 950 Mbit/s; then the datapath repairs a flow on a
	 * timeout (repath_rto): a path may have died unseen, it asks. */
	fix_table(f, 118750000 + 62500000 + 57500000 + 50000000 + 118750000,
		  6 * S);
	flows_sweep(d, 6 * S);
	f->nsent = 0;
	query_send(d, 6 * S);
	assert_true(mon->quiet);
	f->dp.stats[DARD_STAT_REPATH_RTO]++;
	query_send(d, 6 * S + S / 10);
	assert_false(mon->quiet);
	assert_int_equal(f->nsent, 9);
	query_send(d, 6 * S + S / 5);
	assert_true(mon->quiet);
	/* The module counts its repairs as new hashes: they wake it too. */
	f->dp.stats[DARD_STAT_REPATH_REHASH]++;
	query_send(d, 6 * S + 3 * S / 10);
	assert_false(mon->quiet);
	query_send(d, 6 * S + 2 * S / 5);
	assert_true(mon->quiet);
	/* The paper's mode: never quiet, at any rate. */
	d->o.mode = DARD_SCHED_PAPER;
	d->o.sched = dard_sched_modes[DARD_SCHED_PAPER];
	fix_table(f,
		  118750000 + 62500000 + 57500000 + 50000000 + 118750000 +
			  125000000,
		  7 * S);
	flows_sweep(d, 7 * S);
	assert_true(fabs(a->rate - 1000) < 1e-6);
	f->nsent = 0;
	query_send(d, 7 * S);
	assert_false(mon->quiet);
	assert_int_equal(f->nsent, 9);
	fix_free(f);
}

/*
 * The share of our up link counts the elephants that sent since the last
 * walk: one gone quiet (UDP, or TCP without a FIN) takes none, and 500
 * Mbit/s is then half the share, not all of it.
 */
static void test_share_active(void **state)
{
	struct fix *f = fix_new();
	struct dardd *d = &f->d;
	struct dard_flow_iter it;
	struct dard_round_flow rf;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	fix_table(f, 0, 1 * S);
	f->dp.nflows = 2;
	f->dp.key[1] = fix_key(f, "e2_2", 2);
	f->dp.flow[1] = f->dp.flow[0];
	f->dp.flow[1].path = fix_pair(f, "e2_2", 0);
	f->dp.flow[1].last_ns = S / 2;
	flows_sweep(d, 1 * S);
	assert_int_equal(d->nel, 2);
	fix_table(f, 62500000, 2 * S);
	f->dp.nflows = 2; /* the second one idle since 0.5 s */
	flows_sweep(d, 2 * S);
	assert_int_equal(d->nel, 1);
	el_iter(d->mons, &it);
	assert_non_null(it.next(it.arg, NULL, &rf));
	assert_true(rf.share == 1000);
	f->dp.flow[1].last_ns = 2 * S; /* it sends again */
	flows_sweep(d, 2 * S + 1);
	assert_int_equal(d->nel, 2);
	assert_non_null(it.next(it.arg, NULL, &rf));
	assert_true(rf.share == 500);
	fix_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta),
		cmocka_unit_test(test_round_moves),
		cmocka_unit_test(test_round_hold),
		cmocka_unit_test(test_round_stays),
		cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_share_active),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
