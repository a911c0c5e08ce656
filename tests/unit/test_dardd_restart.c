// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd restarted over a datapath it left running: the elephants in the
 * flow table come back with their age, their moves and their path, so
 * that the next round still moves the one that moved least; the dead
 * bits the last dardd left are cleared, since no monitor of the new one
 * would ever clear them.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "dardd_fix.h"

#define S 1000000000ULL

/* An elephant in the fake flow table, as the datapath keeps it. */
static struct dard_flow *add_flow(struct fix *f, const char *dst,
				  uint16_t sport, unsigned path,
				  uint64_t elephant_ns, uint32_t moves)
{
	unsigned i = f->dp.nflows++;

	assert_true(i < FAKE_FLOWS_MAX);
	f->dp.key[i] = fix_key(f, dst, sport);
	f->dp.flow[i].path = fix_pair(f, dst, path);
	f->dp.flow[i].flags = DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED;
	f->dp.flow[i].first_ns = elephant_ns ? elephant_ns - S : 0;
	f->dp.flow[i].elephant_ns = elephant_ns;
	f->dp.flow[i].moves = moves;
	return &f->dp.flow[i];
}

/* dardd exits and starts again; the datapath keeps everything. */
static void restart(struct fix *f)
{
	fix_stop(f);
	fix_start(f);
	assert_null(f->d.els);
	assert_int_equal(f->d.st.elephants, 0);
}

/* The `flows' answer's entry for the elephant from source port sport. */
static json_object *flow_json(json_object *a, uint16_t sport)
{
	size_t i;

	for (i = 0; i < json_object_array_length(a); i++) {
		json_object *o = json_object_array_get_idx(a, i), *p;

		if (json_object_object_get_ex(o, "sport", &p) &&
		    json_object_get_int(p) == sport)
			return o;
	}
	fail_msg("no flow from port %u", sport);
	return NULL;
}

static double num(json_object *o, const char *key)
{
	json_object *v;

	assert_true(json_object_object_get_ex(o, key, &v));
	return json_object_get_double(v);
}

/*
 * Before the restart: a (to e2_1) an elephant for 30 s with 3 moves, b
 * (to e2_2, the same ToR) for 10 s with 1, both on path 0; c (to e3_1)
 * on path 3 with 2. After it, each is as it was, and the round moves b,
 * the one that moved least, though the round sees a first and would take
 * it if the counts had started again from zero.
 */
static void test_keeps_elephants(void **state)
{
	struct fix *f = fix_new();
	struct dardd *d = &f->d;
	uint64_t now = dardd_now_ns();
	struct elephant *a, *b, *c;
	json_object *fl, *o;
	struct dard_event ev = {.type = DARD_EVENT_ELEPHANT};

	(void)state;
	assert_true(now > 60 * S);
	/* b before a in the table: a is adopted last, so it is first. */
	add_flow(f, "e2_2", 2, 0, now - 10 * S, 1);
	add_flow(f, "e2_1", 1, 0, now - 30 * S, 3);
	add_flow(f, "e3_1", 3, 3, now - 5 * S, 2);
	/* The first dardd finds them at start, then exits. */
	flows_sweep(d, now - S);
	assert_int_equal(fix_nels(f), 3);
	restart(f);

	flows_sweep(d, now);
	assert_int_equal(fix_nels(f), 3);
	assert_int_equal(d->st.elephants, 3);
	a = fix_el(f, "e2_1", 1);
	b = fix_el(f, "e2_2", 2);
	c = fix_el(f, "e3_1", 3);
	assert_non_null(a);
	assert_non_null(b);
	assert_non_null(c);
	assert_true(a->since_ns == now - 30 * S);
	assert_true(b->since_ns == now - 10 * S);
	assert_int_equal(a->moves, 3);
	assert_int_equal(b->moves, 1);
	assert_int_equal(c->moves, 2);
	assert_int_equal(a->path, 0);
	assert_int_equal(c->path, 3);
	assert_memory_equal(&c->pair, &f->dp.flow[2].path, sizeof(c->pair));
	/* The history starts anew: the path it holds, as of the restart. */
	assert_int_equal(c->nhist, 1);
	assert_int_equal(c->hist[0].path, 3);
	assert_true(c->hist[0].ns == now);
	/* A late event for one of them changes nothing. */
	ev.key = a->key;
	ev.path = a->pair;
	flows_on_event(&ev, d);
	assert_ptr_equal(fix_el(f, "e2_1", 1), a);
	assert_int_equal(a->moves, 3);
	assert_true(a->since_ns == now - 30 * S);

	/* What dardctl shows: the age and moves from before the restart. */
	fl = ctl_answer(d, "flows");
	assert_non_null(fl);
	o = flow_json(fl, 1);
	assert_true(num(o, "elephant_s") >= 30);
	assert_true(num(o, "elephant_s") < 60);
	assert_true(num(o, "moves") == 3);
	assert_true(num(o, "path") == 1);
	assert_true(num(flow_json(fl, 3), "path") == 4);
	json_object_put(fl);

	/* The round: a is the first on path 0, b the one that moved least. */
	assert_ptr_equal(d->els, c);
	assert_ptr_equal(c->next, a);
	fix_links(f, 0, 2, now);
	schedule(d, a->mon, now);
	assert_int_equal(f->dp.nmoves, 1);
	assert_memory_equal(&f->dp.moved, &b->key, sizeof(b->key));
	assert_int_equal(b->moves, 2);
	assert_int_equal(a->moves, 3);
	assert_int_equal(b->nhist, 2);
	fix_free(f);
}

/* An age the datapath cannot vouch for: from when we found it. */
static void test_age_unknown(void **state)
{
	struct fix *f = fix_new();
	uint64_t now = 100 * S;

	(void)state;
	add_flow(f, "e2_1", 1, 1, 0, 0);
	add_flow(f, "e2_2", 2, 2, now + S, 4);
	flows_sweep(&f->d, now);
	assert_true(fix_el(f, "e2_1", 1)->since_ns == now);
	assert_true(fix_el(f, "e2_2", 2)->since_ns == now);
	assert_int_equal(fix_el(f, "e2_2", 2)->moves, 4);
	assert_int_equal(fix_el(f, "e2_2", 2)->path, 2);
	fix_free(f);
}

/* An elephant the datapath reports is ours from then, with no moves. */
static void test_event_is_new(void **state)
{
	struct fix *f = fix_new();
	struct elephant *e;

	(void)state;
	fix_elephant(f, "e2_1", 1, 1);
	e = fix_el(f, "e2_1", 1);
	assert_non_null(e);
	assert_int_equal(e->moves, 0);
	assert_true(e->since_ns > 0);
	fix_free(f);
}

static int is_clear(const uint64_t *dead)
{
	unsigned i;

	for (i = 0; i < DARD_PATHS_MAX / 64; i++)
		if (dead[i])
			return 0;
	return 1;
}

/*
 * The last dardd left paths to e2_1 and e3_2 dead. Opening the datapath
 * again clears every destination's bits but those under our own ToR,
 * which have one path and never any.
 */
static void test_dead_cleared(void **state)
{
	struct fix *f = fix_new();
	uint64_t dead[DARD_PATHS_MAX / 64] = {0x5};
	uint32_t i, n = 0;

	(void)state;
	f->d.ops->set_dead(f->d.dp, f->t->node[find(f->t, "e2_1")].id, dead);
	f->d.ops->set_dead(f->d.dp, f->t->node[find(f->t, "e3_2")].id, dead);
	assert_false(is_clear(fix_dead(f, "e2_1")));
	restart(f);
	f->dp.ndead_calls = 0;
	assert_int_equal(flows_open(&f->d), 0);
	for (i = 0; i < f->t->nhosts; i++)
		if (dard_topo_tor(f->t, f->t->hosts[i]) != f->d.my_tor)
			n++;
	assert_int_equal(n, 14);
	assert_int_equal(f->dp.ndead_calls, n);
	assert_true(is_clear(fix_dead(f, "e2_1")));
	assert_true(is_clear(fix_dead(f, "e3_2")));
	assert_true(is_clear(fix_dead(f, "e4_2")));
	assert_null(fix_dead(f, "e1_2"));
	assert_null(fix_dead(f, "e1_1"));
	fix_free(f);
}

/*
 * A datapath that refuses (or lacks a destination) does not stop dardd;
 * a datapath that cannot be opened does, before anything is written.
 */
static void test_dead_clear_fails(void **state)
{
	struct fix *f = fix_new();

	(void)state;
	f->dp.dead_ret = -ENOENT;
	assert_int_equal(flows_open(&f->d), 0);
	assert_int_equal(f->dp.ndead_calls, 14);
	f->dp.dead_ret = -EPERM;
	assert_int_equal(flows_open(&f->d), 0);
	assert_int_equal(f->dp.ndead_calls, 28);
	f->dp.dead_ret = 0;
	f->dp.open_ret = -EACCES;
	assert_int_equal(flows_open(&f->d), -1);
	assert_int_equal(f->dp.ndead_calls, 28);
	fix_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keeps_elephants),
		cmocka_unit_test(test_age_unknown),
		cmocka_unit_test(test_event_is_new),
		cmocka_unit_test(test_dead_cleared),
		cmocka_unit_test(test_dead_clear_fails),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
