// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's queries and replies: one query per switch a monitor needs, a
 * reply taken only when it answers the switch's last query, one to an
 * earlier query counted late; forged, replayed, malformed or foreign
 * messages refused and counted by reason,
 * and a switch that stops answering silent, its links unknown once their
 * states are older than max_age.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <sodium.h>

#include "dardd_fix.h"

#define S 1000000000ULL

/* Switch `name' answers query seq: every port asked, up, 1000 Mbit/s. */
static void answer(struct fix *f, const char *name, uint64_t seq,
		   uint32_t elephants, uint64_t now)
{
	struct dard_port_state st[16];
	uint8_t buf[DARD_MSG_MAX];
	uint32_t n = find(f->t, name);
	unsigned i;
	size_t len;

	for (i = 0; i < f->sent_ports[n]; i++)
		st[i] = (struct dard_port_state){f->sent_port[n][i],
						 DARD_PORT_F_UP, 1000,
						 elephants, DARD_LOAD_UNKNOWN};
	len = dard_proto_reply(buf, sizeof(buf), &f->d.keys->key[0],
			       f->d.t->node[f->d.me].id, seq, st,
			       f->sent_ports[n]);
	assert_true(len > 0);
	fix_from(f, n, buf, len, now);
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
	uint64_t first;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	query_send(&f->d, 1 * S);
	first = f->sent_seq[tor];
	assert_true(first != 0);
	dl = asked_dlink(f, "tor1_1");

	/* The answer to the last query is taken. */
	answer(f, "tor1_1", first, 3, 1 * S + 1000);
	assert_int_equal(f->d.st.replies, 1);
	assert_true(f->d.st.reply_bytes > 0);
	assert_int_equal(f->d.sw[tor].pending, 0);
	assert_true(f->d.sw[tor].unanswered_ns == 0);
	assert_int_equal(f->d.links.ls[dl].flows, 3);
	assert_true(f->d.links.ls[dl].mbps == 1000);
	assert_int_equal(f->d.links.ls[dl].known, 1);
	assert_true(f->d.links.when[dl] == 1 * S + 1000);

	/* Answered twice: a replay, refused. */
	answer(f, "tor1_1", first, 7, 1 * S + 2000);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_REPLAY], 1);
	assert_int_equal(f->d.st.replies, 1);
	assert_int_equal(f->d.links.ls[dl].flows, 3);

	/* The next query, unanswered, then the one after: its answer late. */
	query_send(&f->d, 2 * S);
	first = f->sent_seq[tor];
	query_send(&f->d, 3 * S);
	assert_true(f->sent_seq[tor] != first);
	answer(f, "tor1_1", first, 7, 3 * S + 1000);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_LATE], 1);
	assert_int_equal(f->d.links.ls[dl].flows, 3);
	/* A sequence never sent is refused. */
	answer(f, "tor1_1", f->sent_seq[tor] + 100, 7, 3 * S + 1000);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_SEQ], 1);
	assert_int_equal(f->d.links.ls[dl].flows, 3);
	answer(f, "tor1_1", f->sent_seq[tor], 5, 3 * S + 2000);
	assert_int_equal(f->d.st.replies, 2);
	assert_int_equal(f->d.links.ls[dl].flows, 5);
	/* late is no refusal; the replay and the wrong seq are. */
	assert_int_equal(dard_rx_refused(&f->d.reply_rx), 2);
	fix_free(f);
}

/* A reply to tor's pending query signed by k, into buf: its length. */
static size_t forge(struct fix *f, uint32_t tor, const struct dard_key *k,
		    uint64_t seq, uint8_t *buf)
{
	struct dard_port_state st = {f->sent_port[tor][0], DARD_PORT_F_UP, 1000,
				     99, DARD_LOAD_UNKNOWN};
	size_t len =
		dard_proto_reply(buf, DARD_MSG_MAX, k, f->d.t->node[f->d.me].id,
				 seq ? seq : 1, &st, 1);

	assert_true(len > 0);
	return len;
}

static void test_forged(void **state)
{
	struct fix *f = fix_new();
	uint32_t tor = find(f->t, "tor1_1"), dl;
	struct dard_key k = fix_mac_key(), other = {.id = 8};
	uint8_t buf[DARD_MSG_MAX];
	uint64_t seq;
	size_t len;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	query_send(&f->d, 1 * S);
	seq = f->sent_seq[tor];
	dl = asked_dlink(f, "tor1_1");

	/* Seq 0, signed: the decoder refuses it (malformed). */
	len = forge(f, tor, &k, 0, buf);
	memset(buf + 16, 0, 8);
	/* Re-sign so that only the seq is wrong. */
	crypto_auth_hmacsha512256(buf + len - DARD_MAC_LEN, buf,
				  len - DARD_MAC_LEN, k.k);
	fix_from(f, tor, buf, len, 1 * S);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_MALFORMED], 1);
	/* Wrong seq. */
	len = forge(f, tor, &k, seq ^ 1, buf);
	fix_from(f, tor, buf, len, 1 * S);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_SEQ], 1);
	/* Right seq, another sender's: it answers another querier. */
	len = forge(f, tor, &k, seq, buf);
	buf[15] ^= 1;
	crypto_auth_hmacsha512256(buf + len - DARD_MAC_LEN, buf,
				  len - DARD_MAC_LEN, k.k);
	fix_from(f, tor, buf, len, 1 * S);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_SEQ], 2);
	/* Right seq, bad MAC; no MAC at all. */
	len = forge(f, tor, &k, seq, buf);
	buf[len - 1] ^= 1;
	fix_from(f, tor, buf, len, 1 * S);
	fix_from(f, tor, buf, len - DARD_MAC_LEN, 1 * S);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_MAC], 1);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_MALFORMED], 2);
	/* Right seq under a key id we do not have, or our id, their key. */
	len = forge(f, tor, &other, seq, buf);
	fix_from(f, tor, buf, len, 1 * S);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_KEY], 1);
	other.id = k.id;
	len = forge(f, tor, &other, seq, buf);
	fix_from(f, tor, buf, len, 1 * S);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_MAC], 2);
	/* Right everything, from another address or another port. */
	len = forge(f, tor, &k, seq, buf);
	query_reply(&f->d, buf, len, fix_mgmt(tor) + 1000, f->d.o.switch_port,
		    1 * S);
	query_reply(&f->d, buf, len, fix_mgmt(tor), f->d.o.switch_port + 1,
		    1 * S);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_SOURCE], 2);
	/* Right everything, after the query's timeout. */
	fix_from(f, tor, buf, len, 1 * S + f->d.o.query_ns + 1);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_LATE], 1);
	/* A version 1 message. */
	buf[2] = 1;
	fix_from(f, tor, buf, len, 1 * S);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_PROTO], 1);
	/* Nothing taken. */
	assert_int_equal(f->d.st.replies, 0);
	assert_int_equal(f->d.sw[tor].pending, seq);
	assert_int_equal(f->d.links.ls[dl].known, 0);
	assert_int_equal(dard_rx_refused(&f->d.reply_rx), 10);

	/* The right one, then its replay. */
	len = forge(f, tor, &k, seq, buf);
	fix_from(f, tor, buf, len, 1 * S + 1);
	assert_int_equal(f->d.st.replies, 1);
	assert_int_equal(f->d.links.ls[dl].flows, 99);
	fix_from(f, tor, buf, len, 1 * S + 2);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_REPLAY], 1);
	assert_int_equal(f->d.st.replies, 1);
	fix_free(f);
}

/* During a rotation a reply under either key is taken. */
static void test_rotation(void **state)
{
	struct fix *f = fix_new();
	uint32_t tor = find(f->t, "tor1_1");
	struct dard_key old = fix_mac_key(), new = {.id = 9, .k = {1}};
	uint8_t buf[DARD_MSG_MAX];
	size_t len;

	(void)state;
	*f->d.keys = (struct dard_keys){.n = 2, .key = {new, old}};
	fix_elephant(f, "e2_1", 1, 0);
	query_send(&f->d, 1 * S);
	len = forge(f, tor, &old, f->sent_seq[tor], buf);
	fix_from(f, tor, buf, len, 1 * S + 1);
	query_send(&f->d, 2 * S);
	len = forge(f, tor, &new, f->sent_seq[tor], buf);
	fix_from(f, tor, buf, len, 2 * S + 1);
	assert_int_equal(f->d.st.replies, 2);
	assert_int_equal(dard_rx_refused(&f->d.reply_rx), 0);
	fix_free(f);
}

/* How many of the monitor's paths have a known state at now. */
static unsigned known_paths(struct fix *f, uint64_t now)
{
	struct dard_monitor *m = f->d.mons->m;
	unsigned i, n = 0;

	dard_monitor_pv(m, f->d.links.ls, f->d.links.when, now,
			f->d.o.max_age_ns, m->pv);
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
		cmocka_unit_test(test_forged),
		cmocka_unit_test(test_rotation),
		cmocka_unit_test(test_silent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
