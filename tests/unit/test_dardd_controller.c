// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's controller client against a fake controller (libdard's cproto
 * encodes what it sends, and decodes what dardd sends back), its orders:
 * ASSIGN moves our elephants through the datapath and is ACKed with what
 * could not move; WEIGHTS reach every destination under a ToR. The rest
 * (refusals, mode, reports) is test_dardd_ctlr_link.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "dardd_cp_fix.h"

static void test_assign_moves(void **state)
{
	struct fix *f = cp_new();
	struct dardd *d = &f->d;
	struct dard_alias_pair want;
	struct dard_cp_msg *m;
	struct elephant *e;
	int from, to;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	e = el(f, "e2_1", 1);
	from = cp_path_index(d, e);
	assert_true(from >= 0 && from < 4);
	assert_string_equal(controller_mode_name(d), "dard");
	to = (from + 1) % 4;
	m = msg(f, DARD_CP_ASSIGN, 5, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assign_add(m, fix_key(f, "e2_1", 1), to);
	push(f, m, 10 * S);
	/* Moved through the datapath, onto the pair of that path index. */
	assert_int_equal(f->dp.nmoves, 1);
	want = host_pair(f, "e2_1", to);
	assert_memory_equal(&f->dp.moved_to, &want, sizeof(want));
	assert_memory_equal(&e->pair, &want, sizeof(want));
	assert_int_equal(cp_path_index(d, e), to);
	assert_int_equal(e->moves, 1);
	assert_int_equal(e->nhist, 2);
	assert_int_equal(d->st.controller_moves, 1);
	assert_int_equal(d->st.controller_assigns, 1);
	assert_int_equal(d->cp.epoch, 5);
	assert_string_equal(controller_mode_name(d), "controller");
	/* ACKed: its epoch, nothing failed. */
	assert_int_equal(nsent, 1);
	assert_int_equal(last_sent()->type, DARD_CP_ACK);
	assert_int_equal(last_sent()->epoch, 5);
	assert_int_equal(last_sent()->count, 0);
	assert_int_equal(last_sent()->flags, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	/* Where it is already: nothing moves, nothing fails. */
	m = msg(f, DARD_CP_ASSIGN, 6, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assign_add(m, fix_key(f, "e2_1", 1), to);
	push(f, m, 11 * S);
	assert_int_equal(f->dp.nmoves, 1);
	assert_int_equal(nsent, 2);
	assert_int_equal(last_sent()->count, 0);
	assert_int_equal(last_sent()->epoch, 6);
	cp_free(f);
}

static void test_assign_failed(void **state)
{
	struct fix *f = cp_new();
	struct dardd *d = &f->d;
	struct dard_cp_msg *m;
	const struct dard_cp_msg *a;
	struct elephant *e;
	struct nth n = {0};
	int from, dead, i;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	fix_elephant(f, "e3_1", 2, 0);
	e = el(f, "e2_1", 1);
	from = cp_path_index(d, e);
	/* One path the datapath has dead: its monitor index's bit. */
	dead = (from + 2) % 4;
	n.want = dead;
	dard_path_foreach(d->pc, d->me, e->dst, nth_cb, &n);
	i = dard_monitor_path_index(e->mon->m, &n.p);
	assert_true(i >= 0);
	e->mon->dead[0] |= 1ULL << i;
	m = msg(f, DARD_CP_ASSIGN, 7, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assign_add(m, fix_key(f, "e4_1", 9), 0);    /* not ours */
	assign_add(m, fix_key(f, "e2_1", 1), 4);    /* no path 4 */
	assign_add(m, fix_key(f, "e2_1", 1), dead); /* dead */
	assign_add(m, fix_key(f, "e3_1", 2),
		   (cp_path_index(d, el(f, "e3_1", 2)) + 1) % 4); /* EIO */
	f->dp.move_ret = -EIO;
	push(f, m, 10 * S);
	assert_int_equal(f->dp.nmoves, 0);
	assert_int_equal(cp_path_index(d, e), from);
	assert_int_equal(e->moves, 0);
	assert_int_equal(d->st.controller_failed, 4);
	assert_int_equal(d->st.controller_moves, 0);
	a = last_sent();
	assert_int_equal(a->type, DARD_CP_ACK);
	assert_int_equal(a->epoch, 7);
	assert_int_equal(a->count, 4);
	for (i = 0; i < 4; i++) {
		assert_memory_equal(&a->flow[i].key, &m->flow[i].key,
				    sizeof(a->flow[i].key));
		assert_int_equal(a->flow[i].path, m->flow[i].path);
		assert_int_equal(a->flow[i].flags, DARD_CP_FL_FAILED);
	}
	cp_free(f);
}

/*
 * Already on a path the monitor has dead: FAILED all the same, so the
 * controller learns it; a path the datapath left on its own (its flow
 * table shows the flow elsewhere, with no move of ours) is taken again
 * once, and after it left it a second time is not assigned again for
 * DARDD_LEFT_NS.
 */
static void test_assign_evidence(void **state)
{
	struct fix *f = cp_new();
	struct dardd *d = &f->d;
	struct fake_dp *dp = &f->dp;
	struct dard_cp_msg *m;
	struct elephant *e;
	int from, other;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	e = el(f, "e2_1", 1);
	from = cp_path_index(d, e);
	e->mon->dead[0] |= 1ULL << e->path;
	m = msg(f, DARD_CP_ASSIGN, 7, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assign_add(m, fix_key(f, "e2_1", 1), from);
	push(f, m, 10 * S);
	assert_int_equal(d->st.controller_failed, 1);
	assert_int_equal(last_sent()->count, 1);
	assert_int_equal(last_sent()->flow[0].flags, DARD_CP_FL_FAILED);
	e->mon->dead[0] = 0;
	/* The datapath's table: where we think, then moved by itself. */
	dp->key[0] = e->key;
	dp->flow[0].path = e->pair;
	dp->flow[0].flags = DARD_FLOW_F_ELEPHANT;
	dp->nflows = 1;
	flows_sweep(d, 11 * S);
	assert_int_equal(e->left, -1);
	other = (from + 1) % 4;
	dp->flow[0].path = host_pair(f, "e2_1", other);
	flows_sweep(d, 12 * S);
	assert_int_equal(cp_path_index(d, e), other);
	assert_true(e->left >= 0);
	assert_int_equal(e->left_times, 1);
	/* Once: a timeout may have been congestion; the controller's word. */
	m = msg(f, DARD_CP_ASSIGN, 8, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assign_add(m, fix_key(f, "e2_1", 1), from);
	push(f, m, 13 * S);
	assert_int_equal(dp->nmoves, 1);
	assert_int_equal(d->st.controller_failed, 1);
	assert_int_equal(cp_path_index(d, e), from);
	/* Off it again by itself: now it is the datapath's evidence. */
	dp->flow[0].path = e->pair;
	dp->flow[0].moves = 1;
	flows_sweep(d, 14 * S);
	dp->flow[0].path = host_pair(f, "e2_1", other);
	flows_sweep(d, 15 * S);
	assert_int_equal(e->left_times, 2);
	m = msg(f, DARD_CP_ASSIGN, 9, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assign_add(m, fix_key(f, "e2_1", 1), from);
	push(f, m, 16 * S);
	assert_int_equal(dp->nmoves, 1);
	assert_int_equal(d->st.controller_failed, 2);
	/* Long enough ago: the controller may send it back. */
	m = msg(f, DARD_CP_ASSIGN, 10, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assign_add(m, fix_key(f, "e2_1", 1), from);
	push(f, m, 15 * S + DARDD_LEFT_NS);
	assert_int_equal(dp->nmoves, 2);
	assert_int_equal(cp_path_index(d, e), from);
	/* Our own move shows in the table: no evidence against anything. */
	dp->flow[0].path = e->pair;
	dp->flow[0].moves = 2;
	e->left = -1;
	flows_sweep(d, 30 * S);
	assert_int_equal(e->left, -1);
	cp_free(f);
}

/* A set over two datagrams, 97 flows not ours: ACKed after LAST, 87 + 10. */
static void test_assign_set(void **state)
{
	struct fix *f = cp_new();
	struct dardd *d = &f->d;
	struct dard_cp_msg *m;
	unsigned i;
	int to;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	to = (cp_path_index(d, el(f, "e2_1", 1)) + 1) % 4;
	m = msg(f, DARD_CP_ASSIGN, 50, DARD_CP_F_FIRST);
	assign_add(m, fix_key(f, "e2_1", 1), to);
	for (i = 0; i < 60; i++)
		assign_add(m, fix_key(f, "e4_1", 2000 + i), 0);
	push(f, m, 10 * S);
	/* Applied at once, but the ACK waits for the set's end. */
	assert_int_equal(f->dp.nmoves, 1);
	assert_int_equal(nsent, 0);
	assert_true(controller_places(d));
	m = msg(f, DARD_CP_ASSIGN, 50, DARD_CP_F_LAST);
	for (i = 60; i < 97; i++)
		assign_add(m, fix_key(f, "e4_1", 2000 + i), 0);
	push(f, m, 10 * S);
	assert_int_equal(d->st.controller_failed, 97);
	assert_int_equal(d->st.controller_assigns, 1);
	assert_int_equal(nsent, 2);
	assert_int_equal(sent[0].type, DARD_CP_ACK);
	assert_int_equal(sent[0].flags, DARD_CP_F_FIRST);
	assert_int_equal(sent[0].count, DARD_CP_FLOWS_MAX);
	assert_int_equal(sent[1].flags, DARD_CP_F_LAST);
	assert_int_equal(sent[1].count, 97 - DARD_CP_FLOWS_MAX);
	assert_int_equal(sent[0].epoch, 50);
	assert_int_equal(sent[1].epoch, 50);
	assert_int_equal(ntohs(sent[1].flow[9].key.sport), 2096);
	/* A set whose FIRST was lost: ACKed from what came, FIRST|LAST. */
	m = msg(f, DARD_CP_ASSIGN, 51, DARD_CP_F_LAST);
	assign_add(m, fix_key(f, "e4_1", 9), 0);
	push(f, m, 11 * S);
	assert_int_equal(nsent, 3);
	assert_int_equal(sent[2].flags, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assert_int_equal(sent[2].count, 1);
	cp_free(f);
}

static void test_weights(void **state)
{
	static const uint16_t w[4] = {1000, 0, 3000, 0};
	struct fix *f = cp_new();
	struct dardd *d = &f->d;
	uint32_t tor2 = dard_topo_tor(f->t, find(f->t, "e2_1"));
	uint32_t tor3 = dard_topo_tor(f->t, find(f->t, "e3_1"));
	struct dard_cp_msg *m;
	unsigned before;
	int i;

	(void)state;
	m = msg(f, DARD_CP_WEIGHTS, 9, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assert_int_equal(
		dard_cp_add_weights(m, dard_cp_tor_rank(f->t, tor2), w, 4), 0);
	/* Our own ToR: one path, nothing to weigh. */
	assert_int_equal(
		dard_cp_add_weights(m, dard_cp_tor_rank(f->t, d->my_tor), w, 1),
		0);
	push(f, m, 10 * S);
	assert_int_equal(d->st.controller_weights, 1);
	/* Both hosts under tor2_1, with n 4 and the weights; nobody else. */
	assert_int_equal(nwcalls, 2);
	for (i = 0; i < 2; i++) {
		int k = wcall_of(f, i ? "e2_2" : "e2_1", 0);

		assert_true(k >= 0);
		assert_int_equal(wcall[k].n, 4);
		assert_false(wcall[k].even);
		assert_memory_equal(wcall[k].w, w, sizeof(w));
	}
	/* Weights leave our elephants to DARD. */
	assert_string_equal(controller_mode_name(d), "dard");
	assert_int_equal(d->cp.mode, CP_SELF);
	/* A new set naming tor3_1 only: tor2_1's hosts go even. */
	before = nwcalls;
	m = msg(f, DARD_CP_WEIGHTS, 10, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assert_int_equal(
		dard_cp_add_weights(m, dard_cp_tor_rank(f->t, tor3), w, 4), 0);
	push(f, m, 11 * S);
	assert_int_equal(nwcalls, before + 4);
	assert_false(wcall[wcall_of(f, "e3_1", before)].even);
	assert_false(wcall[wcall_of(f, "e3_2", before)].even);
	assert_true(wcall[wcall_of(f, "e2_1", before)].even);
	assert_true(wcall[wcall_of(f, "e2_2", before)].even);
	/* A record naming no ToR: refused whole, nothing weighed. */
	before = nwcalls;
	m = msg(f, DARD_CP_WEIGHTS, 11, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assert_int_equal(
		dard_cp_add_weights(m, dard_cp_tor_rank(f->t, tor2), w, 4), 0);
	assert_int_equal(dard_cp_add_weights(m, 99, w, 4), 0);
	push(f, m, 12 * S);
	assert_int_equal(nwcalls, before);
	assert_int_equal(d->cp.rx.n[DARD_RX_MALFORMED], 1);
	assert_int_equal(d->st.controller_weights, 2);
	/* Destinations the datapath does not have yet: no failure. */
	assert_int_equal(d->st.controller_weights_failed, 0);
	wret = -ENOENT;
	m = msg(f, DARD_CP_WEIGHTS, 12, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assert_int_equal(
		dard_cp_add_weights(m, dard_cp_tor_rank(f->t, tor3), w, 4), 0);
	push(f, m, 13 * S);
	assert_int_equal(d->st.controller_weights_failed, 0);
	cp_weights_even(d);
	assert_int_equal(d->st.controller_weights_failed, 0);
	/* Refused: each destination counted (the line rate-limited). */
	wret = -EINVAL;
	dard_log_init("test", DARD_LOG_WARN);
	m = msg(f, DARD_CP_WEIGHTS, 13, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assert_int_equal(
		dard_cp_add_weights(m, dard_cp_tor_rank(f->t, tor3), w, 4), 0);
	assert_int_equal(
		dard_cp_add_weights(m, dard_cp_tor_rank(f->t, tor2), w, 4), 0);
	push(f, m, 14 * S);
	assert_int_equal(d->st.controller_weights_failed, 4);
	assert_true(d->cp.w_rl.said);
	assert_int_equal(d->cp.w_rl.suppressed, 1);
	dard_log_init("test", DARD_LOG_ERR);
	cp_free(f);
}

/*
 * Weights set, then an ASSIGN of another algorithm (the controller
 * restarted with another --algo): every destination even, once; the
 * oblivious controller's own heartbeats leave them.
 */
static void test_weights_algo(void **state)
{
	static const uint16_t w[4] = {1000, 0, 3000, 0};
	struct fix *f = cp_new();
	uint32_t tor2 = dard_topo_tor(f->t, find(f->t, "e2_1"));
	struct dard_cp_msg *m;
	unsigned before;

	(void)state;
	m = msg(f, DARD_CP_WEIGHTS, 9, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assert_int_equal(
		dard_cp_add_weights(m, dard_cp_tor_rank(f->t, tor2), w, 4), 0);
	push(f, m, 10 * S);
	before = nwcalls;
	m = msg(f, DARD_CP_ASSIGN, 10,
		DARD_CP_F_FIRST | DARD_CP_F_LAST | DARD_CP_F_SELF);
	m->algo = DARD_CP_ALGO_OBLIVIOUS;
	push(f, m, 11 * S);
	assert_int_equal(nwcalls, before);
	m = msg(f, DARD_CP_ASSIGN, 11, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	m->algo = DARD_CP_ALGO_GREEDY;
	push(f, m, 12 * S);
	/* fattree:4: the 14 hosts outside our ToR, all even. */
	assert_int_equal(nwcalls, before + 14);
	assert_true(wcall[wcall_of(f, "e2_1", before)].even);
	assert_true(wcall[wcall_of(f, "e2_2", before)].even);
	assert_true(controller_places(&f->d));
	/* Once: the next ASSIGN finds nothing to clear. */
	m = msg(f, DARD_CP_ASSIGN, 12, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	m->algo = DARD_CP_ALGO_GREEDY;
	push(f, m, 13 * S);
	assert_int_equal(nwcalls, before + 14);
	cp_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_assign_moves),
		cmocka_unit_test(test_assign_failed),
		cmocka_unit_test(test_assign_evidence),
		cmocka_unit_test(test_assign_set),
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_weights_algo),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
