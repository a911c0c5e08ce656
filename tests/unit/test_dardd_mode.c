// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's scheduling mode through its control socket (`dardctl sched
 * set'): the modes and their intervals, the refusals of anything else,
 * and the pvlb mode's re-picks, drawn by the rule dard-sim's pvlb runs
 * (pvlb.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "dardd_fix.h"
#include "pvlb.h"
#include "rng.h"

#define S 1000000000ULL

static const char *mode_of(json_object *doc)
{
	json_object *v;

	if (!json_object_object_get_ex(doc, "sched_mode", &v))
		fail_msg("no sched_mode in %s",
			 json_object_to_json_string(doc));
	return json_object_get_string(v);
}

/* cmd's answer must be sched_mode want; NULL: refused for why. */
static void command(struct dardd *d, const char *cmd, const char *want, int why)
{
	int got;
	json_object *doc = ctl_command(d, cmd, &got);

	if (!want) {
		assert_null(doc);
		assert_int_equal(got, why);
		return;
	}
	assert_non_null(doc);
	assert_int_equal(got, 0);
	assert_string_equal(mode_of(doc), want);
	json_object_put(doc);
}

static void test_set(void **state)
{
	struct fix *f = fix_new();
	struct dardd *d = &f->d;

	(void)state;
	command(d, "sched", "fast", 0);
	assert_true(d->o.schedule_ns == 1 * S);
	command(d, "sched paper", "paper", 0);
	/* The paper's defaults now, its delta in Mbit/s; the age stays. */
	assert_true(d->o.schedule_ns == 5 * S);
	assert_int_equal(d->o.delta_is_frac, 0);
	assert_true(d->o.delta == 10);
	assert_true(d->o.age_ns == 1 * S);
	assert_true(d->o.sched.escape == 0);
	command(d, "sched fast", "fast", 0);
	assert_true(d->o.schedule_ns == 1 * S);
	assert_true(d->o.sched.escape == 0.5);
	command(d, "sched pvlb 2.5", "pvlb", 0);
	assert_true(d->o.pvlb == 2.5);
	/* pvlb and off keep the last DARD mode's intervals. */
	assert_true(d->o.schedule_ns == 1 * S);
	command(d, "sched off", "off", 0);
	command(d, "sched pvlb", "pvlb", 0);
	assert_true(d->o.pvlb == 2.5);
	assert_int_equal(d->st.mode_changes, 5);

	/* What the command line gave stays given under another mode. */
	d->o.given.schedule_ns = 3 * S;
	command(d, "sched paper", "paper", 0);
	assert_true(d->o.schedule_ns == 3 * S);

	/* Refused, and nothing changed. */
	command(d, "sched frob", NULL, DARD_CTL_INVALID);
	command(d, "sched fast 2", NULL, DARD_CTL_INVALID);
	command(d, "sched pvlb 0", NULL, DARD_CTL_INVALID);
	command(d, "sched pvlb -1", NULL, DARD_CTL_INVALID);
	command(d, "sched pvlb nan", NULL, DARD_CTL_INVALID);
	command(d, "sched pvlb 2 3", NULL, DARD_CTL_INVALID);
	command(d, "sched pvlb 1e9", NULL, DARD_CTL_INVALID);
	command(d, "stats now", NULL, DARD_CTL_UNKNOWN);
	command(d, "frob", NULL, DARD_CTL_UNKNOWN);
	assert_string_equal(dardd_mode_name(&d->o), "paper");
	assert_true(d->o.pvlb == 2.5);
	assert_int_equal(d->st.mode_changes, 6);
	fix_free(f);
}

/*
 * pvlb mode: no rounds; each elephant a walk has seen re-picks a path
 * every interval of its life, drawn as dard_pvlb_step draws it, and
 * moves when the draw is another path.
 */
static void test_pvlb(void **state)
{
	struct fix *f = fix_new();
	struct dardd *d = &f->d;
	struct elephant *a, *b, *e;
	uint64_t rng;
	unsigned moves = 0, step;
	int got, to;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	fix_elephant(f, "e2_2", 2, 1);
	a = fix_el(f, "e2_1", 1);
	b = fix_el(f, "e2_2", 2);
	a->dp_known = b->dp_known = 1;
	a->first_ns = 0;
	b->first_ns = 1 * S;
	json_object_put(ctl_command(d, "sched pvlb 2", &got));
	assert_int_equal(got, 0);

	/* No DARD round in pvlb mode. */
	schedule(d, d->mons, 10 * S);
	assert_int_equal(d->mons->rounds, 0);

	/* Mode set at 0 s: a's first re-pick at 2 s, b's at 3 s. */
	schedule_pvlb(d, 1 * S);
	assert_int_equal(f->dp.nmoves, 0);
	assert_true(a->pvlb_next == 2);
	assert_true(b->pvlb_next == 3);
	for (step = 2; step <= 9; step++) {
		uint64_t now = step * S;

		/* The draws dardd makes, in the elephants' order. */
		rng = d->rng;
		for (e = d->els; e; e = e->next) {
			if (e->pvlb_next > step)
				continue;
			to = (int)(dard_xorshift64s(&rng) % 4);
			moves += to != e->path;
		}
		schedule_pvlb(d, now);
		assert_int_equal(f->dp.nmoves, moves);
		assert_true(d->rng == rng);
	}
	assert_true(a->pvlb_next == 10);
	assert_true(b->pvlb_next == 11);
	assert_int_equal(d->st.pvlb_moves, moves);
	assert_int_equal(a->moves + b->moves, moves);
	assert_true(moves > 0);

	/* A flow no walk has seen yet waits: its start is not known. */
	a->dp_known = 0;
	rng = d->rng;
	schedule_pvlb(d, 10 * S);
	assert_true(d->rng == rng);

	/* off: no re-picks either. */
	a->dp_known = 1;
	json_object_put(ctl_command(d, "sched off", &got));
	rng = d->rng;
	schedule_pvlb(d, 20 * S);
	assert_true(d->rng == rng);
	schedule(d, d->mons, 20 * S);
	assert_int_equal(d->mons->rounds, 0);
	fix_free(f);
}

/* The rule both run: due at start + interval, then every interval. */
static void test_rule(void **state)
{
	uint64_t rng = 7, copy = 7;
	double next = dard_pvlb_first(1.5, 2);

	(void)state;
	assert_true(next == 3.5);
	assert_int_equal(dard_pvlb_step(&next, 3.4, 2, 4, NULL, NULL), -1);
	assert_int_equal(dard_pvlb_step(&next, 3.5, 2, 0, NULL, NULL), -1);
	assert_int_equal(dard_pvlb_step(&next, 3.5, 2, 4,
					(uint64_t(*)(void *))dard_xorshift64s,
					&rng),
			 (int)(dard_xorshift64s(&copy) % 4));
	assert_true(next == 5.5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_pvlb),
		cmocka_unit_test(test_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
