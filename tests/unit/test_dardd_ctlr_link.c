// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's link with the controller, against a fake one (libdard's cproto
 * encodes what it sends, and decodes what dardd sends back): every
 * datagram that is not the controller's, authentic, for our tree, fresh
 * and not stale is refused and counted by reason; the mode follows the
 * controller (heard, SELF, silent) and nothing is forgotten; reports list
 * every elephant, in several datagrams when they must, and an ended one
 * once with END; seqs are clock times; a flood is drained in bounded
 * batches; no controller, nothing sent.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>
#include <sys/socket.h>

#include "dardd_cp_fix.h"
#include "lo_socket.h"

/* One refusal: nothing moves, counted under r and in the total. */
static void refused(struct fix *f, int r, uint64_t total)
{
	assert_int_equal(f->dp.nmoves, 0);
	assert_int_equal(f->d.cp.rx.n[r], 1);
	assert_int_equal(dard_rx_refused(&f->d.cp.rx), total);
	assert_int_equal(f->d.st.controller_assigns, 0);
	assert_int_equal(nsent, 0); /* no answer to any of them */
}

static void test_refusals(void **state)
{
	struct fix *f = cp_new();
	struct dardd *d = &f->d;
	struct dard_key good = fix_mac_key(), bad = good, other = good;
	struct dard_cp_msg *m, keep;
	struct dard_flow_key k;
	uint8_t buf[DARD_CP_MSG_MAX];
	size_t len;
	int to;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	k = fix_key(f, "e2_1", 1);
	to = (cp_path_index(d, el(f, "e2_1", 1)) + 1) % 4;
	m = msg(f, DARD_CP_ASSIGN, 20, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assign_add(m, k, to);
	keep = *m;
	bad.k[0] ^= 1;
	other.id = 8;
	push_as(f, m, &bad, CTLR, DARD_CP_PORT, S);
	refused(f, DARD_RX_MAC, 1);
	push_as(f, m, &other, CTLR, DARD_CP_PORT, S);
	refused(f, DARD_RX_KEY, 2);
	controller_input(d, (const uint8_t *)"GET / HTTP/1.0\r\n\r\n", 18, CTLR,
			 DARD_CP_PORT, S);
	refused(f, DARD_RX_PROTO, 3);
	push_as(f, m, &good, CTLR + 1, DARD_CP_PORT, S);
	refused(f, DARD_RX_SOURCE, 4);
	push_as(f, m, &good, CTLR, DARD_CP_PORT + 1, S);
	assert_int_equal(d->cp.rx.n[DARD_RX_SOURCE], 2);
	m->sender = f->t->node[d->me].id;
	push(f, m, S);
	refused(f, DARD_RX_SENDER, 6);
	m->sender = 0;
	m->topo ^= 1;
	push(f, m, S);
	refused(f, DARD_RX_TOPO, 7);
	/* A host's message type: malformed for us. */
	*m = keep;
	m->type = DARD_CP_REPORT;
	push(f, m, S);
	refused(f, DARD_RX_MALFORMED, 8);
	assert_string_equal(controller_mode_name(d), "dard");
	assert_int_equal(d->cp.heard_ns, 0);
	/* The genuine one is taken, once: its replay is refused. */
	*m = keep;
	len = dard_cp_encode(buf, sizeof(buf), &good, m);
	controller_input(d, buf, len, CTLR, DARD_CP_PORT, S);
	assert_int_equal(f->dp.nmoves, 1);
	assert_int_equal(nsent, 1);
	controller_input(d, buf, len, CTLR, DARD_CP_PORT, S);
	assert_int_equal(d->cp.rx.n[DARD_RX_REPLAY], 1);
	assert_int_equal(f->dp.nmoves, 1);
	assert_int_equal(nsent, 1);
	/* Fresh but of an older round: stale, nothing moves back. */
	m = msg(f, DARD_CP_ASSIGN, 19, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assign_add(m, k, (to + 1) % 4);
	push(f, m, 2 * S);
	assert_int_equal(d->cp.rx.n[DARD_RX_STALE], 1);
	assert_int_equal(f->dp.nmoves, 1);
	assert_int_equal(d->cp.epoch, 20);
	assert_int_equal(dard_rx_refused(&d->cp.rx), 10);
	cp_free(f);
}

static void test_mode(void **state)
{
	struct fix *f = cp_new();
	struct dardd *d = &f->d;
	struct dard_cp_msg *m;
	struct elephant *a;
	uint64_t since;
	unsigned nhist;

	(void)state;
	assert_int_equal(d->cp.mode, CP_UNHEARD);
	fix_elephant(f, "e2_1", 1, 0);
	fix_elephant(f, "e2_2", 2, 0);
	a = el(f, "e2_1", 1);
	el(f, "e2_2", 2)->moves = 1; /* a, moved least, is the round's */
	since = a->since_ns;
	/* Heard, placing: a round that would move moves nothing. */
	wall = WALL0 + S;
	push(f, msg(f, DARD_CP_ASSIGN, 30, DARD_CP_F_FIRST | DARD_CP_F_LAST),
	     10 * S);
	assert_string_equal(controller_mode_name(d), "controller");
	/* When the mode changed, on the wall clock stats shows. */
	assert_int_equal(d->cp.mode_wall_ns, WALL0 + S);
	assert_true(controller_places(d));
	fix_links(f, 0, 2, 10 * S);
	schedule(d, d->mons, 10 * S);
	assert_int_equal(f->dp.nmoves, 0);
	assert_int_equal(d->st.rounds, 0);
	/* Heard within the timeout: still placing, since the same time. */
	wall = WALL0 + 3 * S;
	controller_tick(d, 12 * S);
	assert_true(controller_places(d));
	assert_int_equal(d->st.controller_fallbacks, 0);
	assert_int_equal(d->cp.mode_wall_ns, WALL0 + S);
	/* Silent past it: DARD, every destination even, a round moves. */
	nwcalls = 0;
	wall = WALL0 + 4 * S;
	controller_tick(d, 13 * S + 1);
	assert_string_equal(controller_mode_name(d), "dard");
	assert_int_equal(d->cp.mode, CP_SILENT);
	assert_int_equal(d->cp.mode_wall_ns, WALL0 + 4 * S);
	assert_int_equal(d->st.controller_fallbacks, 1);
	/* fattree:4: the 14 hosts outside our ToR, all even. */
	assert_int_equal(nwcalls, 14);
	assert_true(wcall[0].even && wcall[13].even);
	assert_int_equal(wcall_of(f, "e1_2", 0), -1);
	fix_links(f, 0, 2, 14 * S);
	schedule(d, d->mons, 14 * S);
	assert_int_equal(f->dp.nmoves, 1);
	assert_int_equal(d->st.rounds, 1);
	/* Nothing forgotten: both elephants, a's age and history. */
	assert_int_equal(fix_nels(f), 2);
	assert_int_equal(a->since_ns, since);
	assert_int_equal(a->nhist, 2);
	nhist = a->nhist;
	/* A new ASSIGN: placing again; the table as it was. */
	push(f, msg(f, DARD_CP_ASSIGN, 31, DARD_CP_F_FIRST | DARD_CP_F_LAST),
	     20 * S);
	assert_true(controller_places(d));
	assert_int_equal(a->nhist, nhist);
	assert_int_equal(fix_nels(f), 2);
	/* SELF while heard: DARD rounds move, no fallback counted. */
	m = msg(f, DARD_CP_ASSIGN, 32,
		DARD_CP_F_FIRST | DARD_CP_F_LAST | DARD_CP_F_SELF);
	push(f, m, 21 * S);
	assert_string_equal(controller_mode_name(d), "dard");
	assert_int_equal(d->cp.mode, CP_SELF);
	controller_tick(d, 22 * S);
	assert_int_equal(d->cp.mode, CP_SELF);
	assert_int_equal(d->st.controller_fallbacks, 1);
	fix_links(f, 0, 2, 22 * S);
	schedule(d, d->mons, 22 * S);
	assert_int_equal(d->st.rounds, 2);
	/* SELF and then silent: a fallback too. */
	controller_tick(d, 25 * S);
	assert_int_equal(d->cp.mode, CP_SILENT);
	assert_int_equal(d->st.controller_fallbacks, 2);
	cp_free(f);
}

/* Every record of the full report sent since `from', checked. */
static unsigned full_report(struct fix *f, unsigned from)
{
	unsigned i, j, n = 0;

	assert_true(nsent - from <= SENT_MAX);
	for (i = from; i < nsent; i++) {
		const struct dard_cp_msg *m = &sent[i % SENT_MAX];
		unsigned want = (i == from ? DARD_CP_F_FIRST : 0) |
				(i == nsent - 1 ? DARD_CP_F_LAST : 0);

		assert_int_equal(m->type, DARD_CP_REPORT);
		assert_int_equal(m->flags, want);
		for (j = 0; j < m->count; j++) {
			struct elephant *e = el_find(&f->d, &m->flow[j].key);

			assert_non_null(e);
			assert_int_equal(m->flow[j].flags, 0);
			assert_int_equal(m->flow[j].path,
					 cp_path_index(&f->d, e));
		}
		n += m->count;
	}
	return n;
}

static void test_reports(void **state)
{
	static const char *const dst[] = {"e2_1", "e3_2", "e4_1", "e1_3"};
	struct fix *f = cp_new();
	struct dardd *d = &f->d;
	struct dard_event ev = {.type = DARD_EVENT_END};
	const struct dard_cp_msg *m;
	unsigned i, from;

	(void)state;
	/* None: one empty report, FIRST and LAST, the keepalive. */
	controller_tick(d, S);
	assert_int_equal(nsent, 1);
	assert_int_equal(full_report(f, 0), 0);
	/* Not due again before the report interval. */
	controller_tick(d, S + S / 2);
	assert_int_equal(nsent, 1);
	/* 100 elephants: at once, incrementally, in two datagrams. */
	for (i = 0; i < 100; i++)
		fix_elephant(f, dst[i % 4], 100 + i, i % 4 % 2);
	controller_flush(d);
	assert_int_equal(nsent, 3);
	assert_int_equal(sent[1].count, DARD_CP_FLOWS_MAX);
	assert_int_equal(sent[2].count, 100 - DARD_CP_FLOWS_MAX);
	assert_int_equal(sent[1].flags | sent[2].flags, 0);
	controller_flush(d);
	assert_int_equal(nsent, 3);
	/* The full report: every one, FIRST ... LAST, with its path. */
	controller_tick(d, 2 * S);
	assert_int_equal(nsent, 5);
	assert_int_equal(full_report(f, 3), 100);
	assert_int_equal(sent[3].count, DARD_CP_FLOWS_MAX);
	/* Its epoch: the last applied. */
	push(f, msg(f, DARD_CP_ASSIGN, 40, DARD_CP_F_FIRST | DARD_CP_F_LAST),
	     2 * S);
	controller_tick(d, 3 * S);
	assert_int_equal(sent[(nsent - 1) % SENT_MAX].epoch, 40);
	/* One ends: reported with END, once; gone from the next full one. */
	ev.key = fix_key(f, "e2_1", 100);
	flows_on_event(&ev, d);
	from = nsent;
	controller_flush(d);
	assert_int_equal(nsent, from + 1);
	m = last_sent();
	assert_int_equal(m->count, 1);
	assert_int_equal(m->flags, 0);
	assert_int_equal(m->flow[0].flags, DARD_CP_FL_END);
	assert_memory_equal(&m->flow[0].key, &ev.key, sizeof(ev.key));
	controller_flush(d);
	assert_int_equal(nsent, from + 1);
	controller_tick(d, 4 * S);
	assert_int_equal(full_report(f, from + 1), 99);
	cp_free(f);
}

/*
 * Seqs are clock times: a recording more than DARD_CP_SKEW_NS old is
 * refused even by a dardd that restarted (no seq taken yet), so is a seq
 * or an epoch far ahead, counted as "clock"; the controller's next
 * message is still taken; and dardd's own seq starts at its clock.
 */
static void test_clock(void **state)
{
	struct fix *f = cp_new();
	struct dardd *d = &f->d;
	struct dard_key k = fix_mac_key();
	struct dard_cp_msg *m;
	uint8_t rec[DARD_CP_MSG_MAX];
	size_t len;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	cseq = wall;
	m = msg(f, DARD_CP_ASSIGN, WALL0 / S << 20,
		DARD_CP_F_FIRST | DARD_CP_F_LAST);
	len = dard_cp_encode(rec, sizeof(rec), &k, m);
	controller_input(d, rec, len, CTLR, DARD_CP_PORT, S);
	assert_int_equal(d->st.controller_assigns, 1);
	assert_true(last_sent()->seq >= WALL0); /* the ACK's: our clock */
	/* dardd restarts 11 s later: the recording is refused. */
	cp_free(f);
	f = cp_new();
	d = &f->d;
	wall = WALL0 + 11 * S;
	controller_input(d, rec, len, CTLR, DARD_CP_PORT, S);
	assert_int_equal(d->cp.rx.n[DARD_RX_CLOCK], 1);
	assert_int_equal(dard_rx_refused(&d->cp.rx), 1);
	assert_int_equal(d->cp.seq_in, 0);
	assert_int_equal(d->cp.mode, CP_UNHEARD);
	/* A seq 11 s ahead: refused, it would lock the controller out. */
	cseq = wall + 11 * S;
	push(f, msg(f, DARD_CP_ASSIGN, 1, DARD_CP_F_FIRST | DARD_CP_F_LAST), S);
	assert_int_equal(d->cp.rx.n[DARD_RX_CLOCK], 2);
	/* An epoch 11 s ahead: refused, it would make real ones stale. */
	cseq = wall;
	push(f,
	     msg(f, DARD_CP_ASSIGN, (wall / S + 11) << 20,
		 DARD_CP_F_FIRST | DARD_CP_F_LAST),
	     S);
	assert_int_equal(d->cp.rx.n[DARD_RX_CLOCK], 3);
	assert_int_equal(d->cp.epoch, 0);
	/* The controller's next message: taken. */
	push(f,
	     msg(f, DARD_CP_ASSIGN, wall / S << 20,
		 DARD_CP_F_FIRST | DARD_CP_F_LAST),
	     S);
	assert_int_equal(d->st.controller_assigns, 1);
	assert_int_equal(dard_rx_refused(&d->cp.rx), 3);
	assert_true(controller_places(d));
	/* Our seq follows our clock, and never goes back when it does. */
	assert_true(last_sent()->seq >= wall);
	wall -= 5 * S;
	controller_tick(d, 2 * S);
	assert_true(last_sent()->seq > WALL0 + 11 * S);
	assert_string_equal(dard_rx_kind_name(DARD_RX_CLOCK), "clock");
	cp_free(f);
}

/*
 * A key holder's ASSIGN at the largest epoch dardd takes: taken, and the
 * real controller's pushes are stale after it, but its epochs follow its
 * clock (dard_cp_next_epoch), so one is taken within DARD_CP_SKEW_NS and
 * a round of the forgery, with nothing restarted.
 */
static void test_epoch_forged(void **state)
{
	struct fix *f = cp_new();
	struct dardd *d = &f->d;
	const uint64_t round = S / 2;
	uint64_t forged, e, t0, stale = 0;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	cseq = wall;
	e = dard_cp_first_epoch(wall);
	push(f, msg(f, DARD_CP_ASSIGN, e, DARD_CP_F_FIRST | DARD_CP_F_LAST), S);
	assert_int_equal(d->st.controller_assigns, 1);
	forged = dard_cp_epoch_max(wall);
	push(f,
	     msg(f, DARD_CP_ASSIGN, forged, DARD_CP_F_FIRST | DARD_CP_F_LAST),
	     S);
	assert_int_equal(d->st.controller_assigns, 2);
	assert_true(d->cp.epoch == forged);
	/* One past it: refused as ahead of the clock. */
	push(f,
	     msg(f, DARD_CP_ASSIGN, forged + 1,
		 DARD_CP_F_FIRST | DARD_CP_F_LAST),
	     S);
	assert_int_equal(d->cp.rx.n[DARD_RX_CLOCK], 1);
	/* The real controller goes on, a round every half second. */
	for (t0 = wall; d->st.controller_assigns == 2; wall += round) {
		assert_true(wall - t0 <= DARD_CP_SKEW_NS + round);
		e = dard_cp_next_epoch(e, wall);
		cseq = cseq > wall ? cseq : wall;
		push(f,
		     msg(f, DARD_CP_ASSIGN, e,
			 DARD_CP_F_FIRST | DARD_CP_F_LAST),
		     S);
		stale++;
	}
	assert_int_equal(d->cp.rx.n[DARD_RX_STALE], stale - 1);
	assert_int_equal(dard_rx_refused(&d->cp.rx), stale);
	assert_true(stale > 10);
	assert_true(d->cp.epoch == e && e > forged);
	cp_free(f);
}

/* A UDP socket on 127.0.0.1 with room for n small datagrams: its fd. */

/* n datagrams of garbage to sa from a socket of their own. */
static void flood(const struct sockaddr_in *sa, unsigned n)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	assert_true(fd >= 0);
	while (n--)
		assert_int_equal(sendto(fd, "flood", 5, 0,
					(const struct sockaddr *)sa,
					sizeof(*sa)),
				 5);
	close(fd);
}

/*
 * A flood on the controller's or the query socket: one wakeup takes at
 * most DARD_RX_DRAIN_MAX datagrams, so the timer gets its turn; the rest
 * come at the next.
 */
static void test_drain(void **state)
{
	struct fix *f = cp_new();
	struct dardd *d = &f->d;
	struct sockaddr_in sa;

	(void)state;
	d->io.fd[DARDD_SOCK_CONTROLLER] = unit_lo_socket(&sa);
	flood(&sa, DARD_RX_DRAIN_MAX + 3);
	assert_int_equal(controller_receive(d), DARD_RX_DRAIN_MAX);
	assert_int_equal(d->cp.rx.n[DARD_RX_SOURCE], DARD_RX_DRAIN_MAX);
	assert_int_equal(controller_receive(d), 3);
	assert_int_equal(controller_receive(d), 0);
	assert_int_equal(dard_rx_refused(&d->cp.rx), DARD_RX_DRAIN_MAX + 3);
	d->io.fd[DARDD_SOCK_QUERY] = unit_lo_socket(&sa);
	flood(&sa, DARD_RX_DRAIN_MAX + 1);
	assert_int_equal(query_receive(d), DARD_RX_DRAIN_MAX);
	assert_int_equal(query_receive(d), 1);
	assert_int_equal(query_receive(d), 0);
	assert_int_equal(dard_rx_refused(&d->reply_rx), DARD_RX_DRAIN_MAX + 1);
	io_close(d, DARDD_SOCK_QUERY);
	cp_free(f); /* closes the controller's socket */
}

/* No controller configured: nothing sent, mode dard, as before. */
static void test_none(void **state)
{
	struct fix *f = fix_new();
	struct dardd *d = &f->d;

	(void)state;
	assert_int_equal(controller_init(d), 0);
	fix_cp_xmit = cp_xmit;
	nsent = 0;
	fix_elephant(f, "e2_1", 1, 0);
	controller_flush(d);
	controller_tick(d, 100 * S);
	assert_int_equal(nsent, 0);
	assert_string_equal(controller_mode_name(d), "dard");
	assert_string_equal(controller_mode_why(d), "no controller configured");
	controller_fini(d);
	fix_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_reports),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_drain),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_epoch_forged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
