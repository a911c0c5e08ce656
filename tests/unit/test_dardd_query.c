// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's queries and replies: one query per switch a monitor needs, a
 * reply taken only when it answers the switch's last query, one to an
 * earlier query counted late, malformed or foreign messages rejected,
 * and a switch that stops answering silent, its links unknown once their
 * states are older than max_age.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "dardd_fix.h"

#define S 1000000000ULL

/* Switch `name' answers query seq: every port asked, up, 1000 Mbit/s. */
static void answer(struct fix *f, const char *name, uint32_t seq,
		   uint32_t elephants, uint64_t now)
{
	struct dard_port_state st[16];
	uint8_t buf[DARD_MSG_MAX];
	uint32_t n = find(f->t, name);
	unsigned i;
	size_t len;

	for (i = 0; i < f->sent_ports[n]; i++)
		st[i] = (struct dard_port_state){
			f->sent_port[n][i], DARD_PORT_F_UP, 1000, elephants};
	len = dard_proto_reply(buf, sizeof(buf), seq, st, f->sent_ports[n]);
	assert_true(len > 0);
	query_reply(&f->d, buf, len, fix_mgmt(n), now);
}

/* Every switch of the monitor answers its last query. */
static void answer_all(struct fix *f, uint64_t now, const char *except)
{
	const struct dard_monitor *m = f->d.mons->m;
	unsigned i;

	for (i = 0; i < m->nqueries; i++) {
		const char *name = f->t->node[m->query[i].sw].name;

		if (!except || strcmp(name, except))
			answer(f, name, f->sent_seq[m->query[i].sw], 1, now);
	}
}

/* The directed link leaving switch `name' by the first port asked. */
static uint32_t asked_dlink(struct fix *f, const char *name)
{
	uint32_t n = find(f->t, name);

	return dard_port_dlink(f->t, n, f->sent_port[n][0]);
}

static void test_queries(void **state)
{
	struct fix *f = fix_new();
	uint32_t tor = find(f->t, "tor1_1"), core = find(f->t, "core1");

	(void)state;
	/* No monitor, no query. */
	query_send(&f->d, 1 * S);
	assert_int_equal(f->nsent, 0);
	fix_elephant(f, "e2_1", 1, 0);
	query_send(&f->d, 2 * S);
	/* The paper's four groups: tor1_1, 2 aggrs, 4 cores, 2 aggrs. */
	assert_int_equal(f->nsent, 9);
	assert_int_equal(f->d.st.queries, 9);
	assert_int_equal(f->sent_ports[tor], 2);  /* its two up ports */
	assert_int_equal(f->sent_ports[core], 1); /* down to pod 2 */
	assert_int_equal(f->d.sw[tor].pending, f->sent_seq[tor]);
	assert_true(f->d.sw[tor].unanswered_ns == 2 * S);
	assert_int_not_equal(f->sent_seq[tor], f->sent_seq[core]);
	/* A failed send is counted, and nothing is pending from it. */
	f->xmit_ret = -1;
	f->d.sw[core].pending = 0;
	query_send(&f->d, 3 * S);
	assert_int_equal(f->d.st.send_errors, 9);
	assert_int_equal(f->d.sw[core].pending, 0);
	/* The other eight were unanswered when they were asked again. */
	assert_int_equal(f->d.st.timeouts, 8);
	fix_free(f);
}

static void test_reply_sequence(void **state)
{
	struct fix *f = fix_new();
	uint32_t tor = find(f->t, "tor1_1"), dl;
	uint32_t first;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	query_send(&f->d, 1 * S);
	first = f->sent_seq[tor];
	dl = asked_dlink(f, "tor1_1");

	/* The answer to the last query is taken. */
	answer(f, "tor1_1", first, 3, 1 * S + 1000);
	assert_int_equal(f->d.st.replies, 1);
	assert_true(f->d.st.reply_bytes > 0);
	assert_int_equal(f->d.sw[tor].pending, 0);
	assert_true(f->d.sw[tor].unanswered_ns == 0);
	assert_int_equal(f->d.ls[dl].flows, 3);
	assert_true(f->d.ls[dl].mbps == 1000);
	assert_int_equal(f->d.ls[dl].known, 1);
	assert_true(f->d.ls_when[dl] == 1 * S + 1000);

	/* Answered twice, or unasked: late, not taken. */
	answer(f, "tor1_1", first, 7, 1 * S + 2000);
	answer(f, "tor1_1", 0, 7, 1 * S + 2000);
	assert_int_equal(f->d.st.late, 2);
	assert_int_equal(f->d.st.replies, 1);
	assert_int_equal(f->d.ls[dl].flows, 3);

	/* The next query: an answer to the one before is late. */
	query_send(&f->d, 2 * S);
	assert_int_not_equal(f->sent_seq[tor], first);
	answer(f, "tor1_1", first, 7, 2 * S + 1000);
	assert_int_equal(f->d.st.late, 3);
	assert_int_equal(f->d.ls[dl].flows, 3);
	/* A sequence never sent is not taken either. */
	answer(f, "tor1_1", f->sent_seq[tor] + 100, 7, 2 * S + 1000);
	assert_int_equal(f->d.st.late, 4);
	assert_int_equal(f->d.ls[dl].flows, 3);
	answer(f, "tor1_1", f->sent_seq[tor], 5, 2 * S + 2000);
	assert_int_equal(f->d.st.replies, 2);
	assert_int_equal(f->d.ls[dl].flows, 5);
	assert_int_equal(f->d.st.rejected, 0);
	fix_free(f);
}

static void test_rejected(void **state)
{
	struct fix *f = fix_new();
	uint32_t tor = find(f->t, "tor1_1"), seq;
	struct dard_port_state st = {1, DARD_PORT_F_UP, 1000, 9};
	uint8_t buf[DARD_MSG_MAX];
	uint16_t port = 1;
	size_t len;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	query_send(&f->d, 1 * S);
	seq = f->sent_seq[tor];

	/* Not our protocol: too short, and a length that lies. */
	query_reply(&f->d, (const uint8_t *)"dard", 4, fix_mgmt(tor), 1 * S);
	len = dard_proto_reply(buf, sizeof(buf), seq, &st, 1);
	query_reply(&f->d, buf, len + 1, fix_mgmt(tor), 1 * S);
	assert_int_equal(f->d.st.rejected, 2);
	/* A right reply from an address no switch of ours has. */
	query_reply(&f->d, buf, len, 0x0a0a0a0a, 1 * S);
	query_reply(&f->d, buf, len, f->t->node[f->d.me].mgmt, 1 * S);
	assert_int_equal(f->d.st.rejected, 4);
	/* A query, not a reply, from the switch. */
	len = dard_proto_query(buf, sizeof(buf), seq, &port, 1);
	query_reply(&f->d, buf, len, fix_mgmt(tor), 1 * S);
	assert_int_equal(f->d.st.rejected, 5);
	/* None of them answered the query. */
	assert_int_equal(f->d.st.replies, 0);
	assert_int_equal(f->d.sw[tor].pending, seq);
	assert_int_equal(f->d.ls[asked_dlink(f, "tor1_1")].known, 0);
	fix_free(f);
}

/* How many of the monitor's paths have a known state at now. */
static unsigned known_paths(struct fix *f, uint64_t now)
{
	struct dard_monitor *m = f->d.mons->m;
	unsigned i, n = 0;

	dard_monitor_pv(m, f->d.ls, f->d.ls_when, now, f->d.o.max_age_ns,
			m->pv);
	for (i = 0; i < m->npaths; i++)
		n += m->pv[i].known;
	return n;
}

static void test_silent(void **state)
{
	struct fix *f = fix_new();
	uint32_t core = find(f->t, "core1");
	uint64_t t;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	query_send(&f->d, 1 * S);
	answer_all(f, 1 * S, NULL);
	assert_int_equal(known_paths(f, 1 * S), 4);
	/* core1 stops answering from the query at 2 s on. */
	for (t = 2; t <= 5; t++) {
		query_send(&f->d, t * S);
		answer_all(f, t * S, "core1");
		/* Asked at 2 s: 3 s (max_age) later it is not yet silent. */
		assert_int_equal(f->d.sw[core].silent, 0);
	}
	query_send(&f->d, 6 * S);
	assert_int_equal(f->d.sw[core].silent, 1);
	assert_int_equal(f->d.st.timeouts, 4);
	/* Its link's state, from 1 s, is too old: that path is unknown. */
	answer_all(f, 6 * S, "core1");
	assert_int_equal(known_paths(f, 6 * S), 3);
	assert_int_equal(f->d.mons->m->pv[0].known, 0);
	/* It answers again: no longer silent, its path known again. */
	answer(f, "core1", f->sent_seq[core], 1, 6 * S + 1000);
	assert_int_equal(f->d.sw[core].silent, 0);
	assert_int_equal(f->d.sw[core].pending, 0);
	assert_int_equal(known_paths(f, 6 * S + 2000), 4);
	fix_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_queries),
		cmocka_unit_test(test_reply_sequence),
		cmocka_unit_test(test_rejected),
		cmocka_unit_test(test_silent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
