// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's elephants against the datapath: events add and end them, and
 * the walk of the flow table reconciles (flows gone from the table or
 * idle end, elephants reported while dardd was away are picked up, a
 * flow moved by someone else has its path and history updated), with
 * monitors created and released along.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "dardd_fix.h"

static void test_events(void **state)
{
	struct fix *f = fix_new();
	struct dard_event end = {.type = DARD_EVENT_END};
	struct dard_flow_key k = fix_key(f, "e2_1", 40001);
	struct elephant *e;

	(void)state;
	fix_elephant(f, "e2_1", 40001, 2);
	e = el_find(&f->d, &k);
	assert_non_null(e);
	assert_int_equal(e->path, 2);
	assert_int_equal(e->dst, find(f->t, "e2_1"));
	assert_int_equal(e->nhist, 1);
	assert_int_equal(e->hist[0].path, 2);
	assert_non_null(f->d.mons);
	assert_int_equal(f->d.mons->m->dst_tor, find(f->t, "tor2_1"));
	assert_int_equal(f->d.mons->nflows, 1);
	/* A new monitor asks for a query at once. */
	assert_true(f->d.next_query_ns > 0);
	assert_true(f->d.next_query_ns == e->since_ns);

	/* Reported twice: one elephant; another to the same ToR shares. */
	fix_elephant(f, "e2_1", 40001, 2);
	fix_elephant(f, "e2_2", 40002, 0);
	assert_int_equal(fix_nels(f), 2);
	assert_int_equal(mon_count(&f->d), 1);
	assert_int_equal(f->d.mons->nflows, 2);
	assert_int_equal(f->d.st.elephants, 2);
	assert_int_equal(f->d.st.monitors_created, 1);
	assert_int_equal(f->d.st.events, 3);

	/* Under our own ToR (one path), or to no host we know: ignored. */
	end.type = DARD_EVENT_ELEPHANT;
	end.key = fix_key(f, "e1_2", 40003);
	flows_on_event(&end, &f->d);
	end.key.daddr = htonl(0xc0000201);
	flows_on_event(&end, &f->d);
	assert_int_equal(fix_nels(f), 2);
	assert_int_equal(f->d.st.elephants, 2);

	/* FIN or RST: it ends; the monitor goes with the last one. */
	end.type = DARD_EVENT_END;
	end.key = fix_key(f, "e2_1", 40001);
	flows_on_event(&end, &f->d);
	assert_null(el_find(&f->d, &end.key));
	assert_int_equal(mon_count(&f->d), 1);
	end.key = fix_key(f, "e2_2", 40002);
	flows_on_event(&end, &f->d);
	assert_int_equal(fix_nels(f), 0);
	assert_int_equal(mon_count(&f->d), 0);
	assert_int_equal(f->d.st.ended, 2);
	/* The end of a flow we do not track changes nothing. */
	flows_on_event(&end, &f->d);
	assert_int_equal(f->d.st.ended, 2);
	fix_free(f);
}

static struct mon *mon_of(struct fix *f, const char *tor)
{
	struct mon *mon;

	for (mon = f->d.mons; mon; mon = mon->next)
		if (mon->m->dst_tor == find(f->t, tor))
			return mon;
	return NULL;
}

static unsigned add_flow(struct fix *f, const char *dst, uint16_t sport,
			 unsigned path, uint32_t flags)
{
	unsigned i = f->dp.nflows++;

	f->dp.key[i] = fix_key(f, dst, sport);
	f->dp.flow[i].path = fix_pair(f, dst, path);
	f->dp.flow[i].flags = flags;
	return i;
}

static void test_sweep(void **state)
{
	struct fix *f = fix_new();
	struct dard_flow_key k;
	struct elephant *e;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0); /* stays as it is */
	fix_elephant(f, "e2_2", 2, 0); /* moved by an operator to path 3 */
	fix_elephant(f, "e3_1", 3, 1); /* gone from the flow table */
	fix_elephant(f, "e3_2", 4, 1); /* idle */
	add_flow(f, "e2_1", 1, 0, DARD_FLOW_F_ELEPHANT);
	add_flow(f, "e2_2", 2, 3, DARD_FLOW_F_ELEPHANT);
	add_flow(f, "e3_2", 4, 1, DARD_FLOW_F_ELEPHANT);
	/* Not ours yet: an elephant reported while we were away, one that
	 * ended meanwhile, and a mouse. */
	add_flow(f, "e4_1", 5, 2, DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED);
	add_flow(f, "e4_2", 6, 2, DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_ENDED);
	add_flow(f, "e2_3", 7, 0, 0);
	f->dp.idle[f->dp.nidle++] = fix_key(f, "e3_2", 4);
	assert_int_equal(mon_count(&f->d), 2);
	assert_non_null(mon_of(f, "tor3_1"));

	flows_sweep(&f->d, 5000000000ULL);
	assert_int_equal(f->dp.idle_ns, f->d.o.idle_ns);
	k = fix_key(f, "e2_1", 1);
	e = el_find(&f->d, &k);
	assert_non_null(e);
	assert_int_equal(e->path, 0);
	assert_int_equal(e->nhist, 1);
	k = fix_key(f, "e2_2", 2);
	e = el_find(&f->d, &k);
	assert_non_null(e);
	assert_int_equal(e->path, 3);
	assert_int_equal(e->nhist, 2);
	assert_int_equal(e->hist[1].path, 3);
	assert_true(e->hist[1].ns == 5000000000ULL);
	assert_memory_equal(&e->pair, &f->dp.flow[1].path, sizeof(e->pair));
	assert_int_equal(e->moves, 0); /* not ours */
	k = fix_key(f, "e3_1", 3);
	assert_null(el_find(&f->d, &k));
	k = fix_key(f, "e3_2", 4);
	assert_null(el_find(&f->d, &k));
	k = fix_key(f, "e4_1", 5);
	e = el_find(&f->d, &k);
	assert_non_null(e);
	assert_int_equal(e->path, 2);
	assert_true(e->since_ns == 5000000000ULL);
	k = fix_key(f, "e4_2", 6);
	assert_null(el_find(&f->d, &k));
	k = fix_key(f, "e2_3", 7);
	assert_null(el_find(&f->d, &k));
	assert_int_equal(fix_nels(f), 3);
	assert_int_equal(f->d.st.ended, 2);
	assert_int_equal(f->d.st.evicted, 1); /* e3_1, gone without an event */
	/* tor3_1's monitor went with its last elephant; tor4_1's came. */
	assert_int_equal(mon_count(&f->d), 2);
	assert_null(mon_of(f, "tor3_1"));
	assert_non_null(mon_of(f, "tor4_1"));
	assert_int_equal(mon_of(f, "tor2_1")->nflows, 2);
	fix_free(f);
}

/* A walk that fails ends nothing: it says nothing of what is gone. */
static void test_sweep_fails(void **state)
{
	struct fix *f = fix_new();

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	fix_elephant(f, "e3_1", 2, 1);
	f->dp.flows_ret = -ENOMEM;
	flows_sweep(&f->d, 1);
	assert_int_equal(fix_nels(f), 2);
	assert_int_equal(f->d.st.ended, 0);
	/* The next walk that works does. */
	f->dp.flows_ret = 0;
	flows_sweep(&f->d, 2);
	assert_int_equal(fix_nels(f), 0);
	assert_int_equal(f->d.st.ended, 2);
	assert_int_equal(mon_count(&f->d), 0);
	fix_free(f);
}

/*
 * The LRU evicts an elephant without an event: it ends at the next walk,
 * once, counted as evicted, whether its key is gone or back as a new flow
 * (begun after we took the old one for an elephant); a new flow that is
 * an elephant already is adopted in its place.
 */
static void test_evicted(void **state)
{
	struct fix *f = fix_new();
	struct dard_event end = {.type = DARD_EVENT_END};
	struct dard_flow_key k;
	struct elephant *e;
	uint64_t since, since3;
	unsigned i;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0); /* evicted, its key gone */
	fix_elephant(f, "e3_1", 2, 1); /* evicted, back as a mouse */
	fix_elephant(f, "e3_2", 3, 1); /* evicted, back as an elephant */
	fix_elephant(f, "e4_1", 4, 2); /* still there */
	k = fix_key(f, "e3_1", 2);
	since = el_find(&f->d, &k)->since_ns;
	i = add_flow(f, "e3_1", 2, 1, 0);
	f->dp.flow[i].first_ns = since + 1;
	k = fix_key(f, "e3_2", 3);
	since = el_find(&f->d, &k)->since_ns;
	i = add_flow(f, "e3_2", 3, 2, DARD_FLOW_F_ELEPHANT);
	f->dp.flow[i].first_ns = since + 1;
	f->dp.flow[i].elephant_ns = since3 = since + 2;
	k = fix_key(f, "e4_1", 4);
	since = el_find(&f->d, &k)->since_ns;
	i = add_flow(f, "e4_1", 4, 2, DARD_FLOW_F_ELEPHANT);
	f->dp.flow[i].first_ns = since; /* the same flow */

	flows_sweep(&f->d, since + 1000000000ULL);
	assert_int_equal(f->d.st.evicted, 3);
	assert_int_equal(f->d.st.ended, 3);
	k = fix_key(f, "e2_1", 1);
	assert_null(el_find(&f->d, &k));
	k = fix_key(f, "e3_1", 2);
	assert_null(el_find(&f->d, &k));
	k = fix_key(f, "e3_2", 3);
	e = el_find(&f->d, &k);
	assert_non_null(e);
	/* Adopted: an elephant since the new flow became one, on its path. */
	assert_true(e->since_ns == since3);
	assert_int_equal(e->path, 2);
	k = fix_key(f, "e4_1", 4);
	assert_non_null(el_find(&f->d, &k));
	assert_int_equal(fix_nels(f), 2);

	/* Once: later walks, and a late FIN of the new flow, end no more. */
	flows_sweep(&f->d, since + 2000000000ULL);
	end.key = fix_key(f, "e3_1", 2);
	flows_on_event(&end, &f->d);
	end.key = fix_key(f, "e2_1", 1);
	flows_on_event(&end, &f->d);
	assert_int_equal(f->d.st.evicted, 3);
	assert_int_equal(f->d.st.ended, 3);
	assert_int_equal(fix_nels(f), 2);
	fix_free(f);
}

/* The history keeps the last HIST_MAX paths, oldest first. */
static void test_history(void **state)
{
	struct fix *f = fix_new();
	struct dard_flow_key k = fix_key(f, "e2_1", 1);
	struct elephant *e;
	unsigned i;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	e = el_find(&f->d, &k);
	for (i = 1; i <= HIST_MAX + 2; i++)
		el_hist_add(e, i, i % 4);
	assert_int_equal(e->nhist, HIST_MAX);
	assert_true(e->hist[0].ns == 3);
	assert_true(e->hist[HIST_MAX - 1].ns == HIST_MAX + 2);
	assert_int_equal(e->hist[HIST_MAX - 1].path, (HIST_MAX + 2) % 4);
	fix_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_events),
		cmocka_unit_test(test_sweep),
		cmocka_unit_test(test_sweep_fails),
		cmocka_unit_test(test_evicted),
		cmocka_unit_test(test_history),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
