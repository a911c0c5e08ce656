// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's sharing among a ToR's hosts (share.c), two dardds in one
 * process: e1_1 (A) and e1_2 (B) under tor1_1 of fattree:4, each with an
 * elephant to pod 2, their SHAREs and WANTs handed to each other. The
 * first host to ask passes the answers on, the other stops asking the
 * switches they share and asks again once the sharer falls silent; a
 * port down still comes from the switch; forged, replayed, foreign,
 * stale or out-of-scope datagrams are refused and counted by reason.
 *
 *        core1..core4              (shared: asked once for both)
 *        aggr1_1 aggr1_2           (shared)
 *        tor1_1                    (shared)
 *        e1_1 (A)   e1_2 (B)       -> e2_1, e2_2 via pod 2's aggrs
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <sodium.h>

#include "dardd_fix.h"

#define S 1000000000ULL

static struct fix *a, *b;
static uint64_t wall = 1000 * S, clock_now;
/* The last datagram handed over, for the replays. */
static uint8_t last[DARD_SHARE_MSG_MAX];
static size_t last_len;
static int drop; /* the network loses what is sent */

static uint64_t fake_wall(void)
{
	return wall;
}

static uint32_t host_mgmt(uint32_t n)
{
	return 0x0a650001 + n;
}

/* A datagram to a peer: straight into its share_input. */
static ssize_t deliver(struct dardd *d, const void *buf, size_t len,
		       uint32_t mgmt)
{
	struct fix *to = mgmt == host_mgmt(a->d.me) ? a : b;

	assert_true(mgmt == host_mgmt(a->d.me) || mgmt == host_mgmt(b->d.me));
	memcpy(last, buf, len);
	last_len = len;
	if (!drop)
		share_input(&to->d, buf, len, host_mgmt(d->me), DARD_SHARE_PORT,
			    clock_now);
	return len;
}

static void host_up(struct fix *f, const char *name)
{
	uint32_t n;

	for (n = 0; n < f->t->nnodes; n++)
		if (f->t->node[n].is_host)
			f->t->node[n].mgmt = host_mgmt(n);
	f->d.me = find(f->t, name);
	f->d.my_tor = dard_topo_tor(f->t, f->d.me);
	assert_int_equal(share_init(&f->d), 0);
	assert_true(f->d.sh.on);
	assert_int_equal(f->d.sh.npeers, 1);
	fix_share_xmit = deliver;
	f->d.io.wall_ns = fake_wall;
}

static int setup(void **state)
{
	(void)state;
	a = fix_new();
	b = fix_new();
	host_up(a, "e1_1");
	host_up(b, "e1_2");
	fix_elephant(a, "e2_1", 1, 0);
	fix_elephant(b, "e2_2", 1, 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	share_fini(&a->d);
	share_fini(&b->d);
	fix_free(a);
	fix_free(b);
	return 0;
}

/*
 * Every switch f asked at its last tick answers, elephants on each and
 * a load of as many Mbit/s but for 1 elephant: not measured.
 */
static void answer_all(struct fix *f, uint32_t elephants, uint64_t now)
{
	struct dard_port_state st[16];
	uint8_t buf[DARD_MSG_MAX];
	uint32_t n;
	unsigned i;
	size_t len;

	clock_now = now;
	for (n = 0; n < f->t->nnodes && n < 64; n++) {
		if (!f->d.sw[n].pending || f->d.sw[n].pending != f->sent_seq[n])
			continue;
		for (i = 0; i < f->sent_ports[n]; i++)
			st[i] = (struct dard_port_state){
				f->sent_port[n][i], DARD_PORT_F_UP, 1000,
				elephants,
				elephants == 1 ? DARD_LOAD_UNKNOWN
					       : elephants * 1000};
		len = dard_proto_reply(buf, sizeof(buf), &f->d.keys->key[0],
				       f->d.t->node[f->d.me].id, f->sent_seq[n],
				       st, f->sent_ports[n]);
		fix_from(f, n, buf, len, now);
	}
}

static void tick(struct fix *f, uint64_t now)
{
	clock_now = now;
	f->nsent = 0;
	query_send(&f->d, now);
}

/* A's first link out of core1 (down to pod 2): shared. */
static uint32_t core_dl(void)
{
	uint32_t core = find(a->t, "core1");

	return dard_port_dlink(a->t, core, a->sent_port[core][0]);
}

static void test_share(void **state)
{
	uint32_t dl;

	(void)state;
	/* 1 s: A asks all 9 and tells B its WANT; nobody wants yet. */
	tick(a, 1 * S);
	assert_int_equal(a->nsent, 9);
	assert_int_equal(a->d.st.wants_sent, 1);
	assert_int_equal(b->d.st.wants_taken, 1);
	answer_all(a, 2, 1 * S + 1000);
	assert_int_equal(a->d.st.shares_sent, 0);
	/* 1.5 s: B asks its 9 (A's wanted ports too), shares with A. */
	tick(b, 1 * S + S / 2);
	assert_int_equal(b->nsent, 9);
	answer_all(b, 3, 1 * S + S / 2 + 1000);
	assert_int_equal(b->d.st.shares_sent, 1);
	/* tor1_1 2 up, 2 aggrs 2 up each, 4 cores 1 down: 10 links. */
	assert_int_equal(b->d.st.share_records, 10);
	assert_int_equal(a->d.st.shares_taken, 1);
	assert_int_equal(a->d.st.share_taken, 10);
	dl = core_dl();
	assert_int_equal(a->d.links.ls[dl].flows, 3);
	assert_true(a->d.links.when[dl] == 1 * S + S / 2 + 1000);
	/* Each announced its WANT once; B's reached A after A's own. */
	assert_int_equal(a->d.st.wants_sent, 1);
	assert_int_equal(b->d.st.wants_sent, 1);
	/* 2 s: A asks only pod 2's two aggrs; 7 queries saved. */
	tick(a, 2 * S);
	assert_int_equal(a->d.st.wants_sent, 1); /* B holds A's already */
	assert_int_equal(a->nsent, 2);
	assert_int_equal(a->d.st.share_saved, 7);
	assert_int_equal(a->d.st.share_skipped, 10);
	assert_int_equal(a->sent_ports[find(a->t, "core1")], 1);
	answer_all(a, 2, 2 * S + 1000);
	/* 2.5 s: B goes on asking and sharing; 3 s: A still listens. */
	tick(b, 2 * S + S / 2);
	assert_int_equal(b->nsent, 9);
	answer_all(b, 4, 2 * S + S / 2 + 1000);
	assert_int_equal(a->d.st.shares_taken, 2);
	tick(a, 3 * S);
	assert_int_equal(a->nsent, 2);
	assert_int_equal(a->d.links.ls[dl].flows, 4);
	/* B dies: A asks every switch again at its next tick. */
	tick(a, 4 * S);
	assert_int_equal(a->nsent, 9);
	assert_int_equal(a->d.st.share_saved, 14);
}

/*
 * A quiet monitor WANTs nothing: once A's one elephant runs at its whole
 * link, A asks no switch and tells B it needs no link (found in review:
 * nothing tested that dardd leaves a quiet monitor out of its WANT).
 */
static void test_quiet_want(void **state)
{
	(void)state;
	fix_table(a, 0, 1 * S);
	flows_sweep(&a->d, 1 * S);
	tick(a, 1 * S);
	assert_int_equal(a->nsent, 9);
	assert_int_equal(a->d.st.wants_sent, 1);
	assert_true(b->d.sh.peer[0].nwant > 0);
	/* B announces itself: an active peer, told of every change. */
	tick(b, 1 * S + S / 2);
	/* 950 Mbit/s over the next second: quiet. */
	fix_table(a, 118750000, 2 * S);
	flows_sweep(&a->d, 2 * S);
	tick(a, 2 * S);
	assert_true(a->d.mons->quiet);
	assert_int_equal(a->nsent, 0);
	assert_int_equal(a->d.st.wants_sent, 2);
	assert_int_equal(b->d.sh.peer[0].nwant, 0);
}

/* A port down in a SHARE is left to the switch: A asks it itself. */
static void test_down_from_switch(void **state)
{
	struct dard_share_msg *m = calloc(1, sizeof(*m));
	uint8_t buf[DARD_SHARE_MSG_MAX];
	uint32_t dl = core_dl();
	size_t len;

	(void)state;
	m->type = DARD_SHARE_MSG;
	m->count = 1;
	m->rec[0] = (struct dard_share_rec){dl, 0, 0, 0, DARD_LOAD_UNKNOWN};
	m->sender = b->t->node[b->d.me].id;
	m->topo = b->d.io.digest;
	m->seq = b->d.io.seq_out = b->d.io.seq_out + 1;
	len = dard_share_encode(buf, sizeof(buf), &b->d.keys->key[0], m);
	clock_now = 5 * S;
	share_input(&a->d, buf, len, host_mgmt(b->d.me), DARD_SHARE_PORT,
		    clock_now);
	assert_int_equal(a->d.st.share_down, 1);
	assert_false(a->d.links.ls[dl].dead);
	assert_false(dard_share_covered(&a->d.sh.seen, dl, 4 * S));
	/* The switch is asked at once, not at the next tick. */
	assert_true(a->d.next_query_ns == clock_now);
	tick(a, 6 * S);
	assert_int_equal(a->nsent, 9);
	free(m);
}

/* What a key holder or anyone else could send A, each counted. */
static void test_refused(void **state)
{
	static uint8_t buf[DARD_SHARE_MSG_MAX + 8];
	struct dard_share_msg *m = calloc(1, sizeof(*m));
	const struct dard_key *k = &b->d.keys->key[0];
	uint32_t bm = host_mgmt(b->d.me);
	const uint64_t *why = a->d.sh.rx.n;
	size_t len;

	(void)state;
	/* B's real SHARE, replayed. */
	tick(b, 7 * S);
	answer_all(b, 1, 7 * S + 1000);
	assert_true(last_len > 0);
	memcpy(buf, last, last_len);
	len = last_len;
	share_input(&a->d, buf, len, bm, DARD_SHARE_PORT, 7 * S + 2000);
	assert_int_equal(why[DARD_RX_REPLAY], 1);
	/* Not from B's address, not from the share port. */
	share_input(&a->d, buf, len, bm + 100, DARD_SHARE_PORT, 8 * S);
	share_input(&a->d, buf, len, bm, DARD_SHARE_PORT + 1, 8 * S);
	assert_int_equal(why[DARD_RX_SOURCE], 2);
	/* A byte changed: the MAC; longer than a message: not hashed. */
	buf[len - 1] ^= 1;
	share_input(&a->d, buf, len, bm, DARD_SHARE_PORT, 8 * S);
	assert_int_equal(why[DARD_RX_MAC], 1);
	share_input(&a->d, buf, DARD_SHARE_MSG_MAX + 1, bm, DARD_SHARE_PORT,
		    8 * S);
	assert_int_equal(why[DARD_RX_SIZE], 1);
	/* Signed with the key: another sender, tree, an old seq, a host link.
	 */
	m->type = DARD_SHARE_MSG;
	m->sender = a->t->node[a->d.me].id;
	m->topo = a->d.io.digest;
	m->seq = wall + 5 * S;
	len = dard_share_encode(buf, sizeof(buf), k, m);
	share_input(&a->d, buf, len, bm, DARD_SHARE_PORT, 8 * S);
	assert_int_equal(why[DARD_RX_SENDER], 1);
	m->sender = b->t->node[b->d.me].id;
	m->topo ^= 1;
	len = dard_share_encode(buf, sizeof(buf), k, m);
	share_input(&a->d, buf, len, bm, DARD_SHARE_PORT, 8 * S);
	assert_int_equal(why[DARD_RX_TOPO], 1);
	m->topo ^= 1;
	/* Above the last taken, but further ahead than clocks drift. */
	m->seq = wall + DARD_CP_SKEW_NS + S;
	len = dard_share_encode(buf, sizeof(buf), k, m);
	share_input(&a->d, buf, len, bm, DARD_SHARE_PORT, 8 * S);
	assert_int_equal(why[DARD_RX_CLOCK], 1);
	m->seq = wall + 6 * S;
	m->count = 1;
	m->rec[0] =
		(struct dard_share_rec){dard_host_dlink(a->t, a->d.me, DARD_UP),
					9, 1, 0, DARD_LOAD_UNKNOWN};
	len = dard_share_encode(buf, sizeof(buf), k, m);
	share_input(&a->d, buf, len, bm, DARD_SHARE_PORT, 8 * S);
	assert_int_equal(why[DARD_RX_SCOPE], 1);
	assert_int_equal(dard_rx_refused(&a->d.sh.rx), 9);
	/* And the same, in scope, taken. */
	m->rec[0].dl = core_dl();
	len = dard_share_encode(buf, sizeof(buf), k, m);
	share_input(&a->d, buf, len, bm, DARD_SHARE_PORT, 8 * S);
	assert_int_equal(dard_rx_refused(&a->d.sh.rx), 9);
	assert_int_equal(a->d.links.ls[core_dl()].flows, 9);
	free(m);
}

/*
 * A peer that announces itself and no longer holds our WANT gets it at
 * our next tick; one that holds it does not, and one with no monitors
 * gets no refresh.
 */
static void test_owed(void **state)
{
	uint64_t sent = b->d.st.wants_sent;

	(void)state;
	/* Past the seq test_refused forged ahead (a 10 s lock-out at most). */
	wall += DARD_CP_SKEW_NS;
	/* A as if idle until now, and B's copy of A's WANT expired. */
	a->d.sh.want_sig = 0;
	b->d.sh.peer[0].want_ns = 0;
	tick(a, 9 * S);
	assert_int_equal(b->d.st.wants_sent, sent);
	tick(b, 9 * S + S / 2);
	assert_int_equal(b->d.st.wants_sent, sent); /* A holds B's */
	/* Now A holds nothing of B's: the next announcement is answered. */
	a->d.sh.want_sig = 0;
	b->d.sh.peer[0].want_ns = 0;
	b->d.sh.peer[0].sent_ns = 0;
	b->d.sh.peer[0].sent_sig = 0;
	tick(a, 10 * S);
	tick(b, 10 * S + S / 2);
	assert_int_equal(b->d.st.wants_sent, sent + 1);
	assert_int_equal(dard_rx_refused(&a->d.sh.rx), 9);
}

/* --no-share: no socket, no peers, every call a no-op. */
static void test_off(void **state)
{
	struct fix *f = fix_new();

	(void)state;
	f->d.o.no_share = 1;
	assert_int_equal(share_init(&f->d), 0);
	assert_false(f->d.sh.on);
	assert_int_equal(share_open(&f->d), 0);
	assert_int_equal(f->d.io.fd[DARDD_SOCK_SHARE], -1);
	fix_elephant(f, "e2_1", 1, 0);
	query_send(&f->d, 1 * S);
	assert_int_equal(f->nsent, 9);
	share_input(&f->d, last, last_len, host_mgmt(b->d.me), DARD_SHARE_PORT,
		    1 * S);
	assert_int_equal(dard_rx_refused(&f->d.sh.rx) + f->d.st.shares_taken,
			 0);
	share_fini(&f->d);
	fix_free(f);
}

/* Two fresh hosts for each of the tests below. */
static int pair_setup(void **state)
{
	wall = 1000 * S;
	drop = 0;
	return setup(state);
}

/* B's SHARE of its 1.5 s answers, held on the way (no key needed). */
static size_t held_share(uint8_t *held)
{
	tick(a, 1 * S);
	answer_all(a, 2, 1 * S + 1000);
	tick(b, 1 * S + S / 2);
	drop = 1;
	answer_all(b, 3, 1 * S + S / 2 + 1000);
	drop = 0;
	assert_int_equal(b->d.st.shares_sent, 1);
	memcpy(held, last, last_len);
	return last_len;
}

/*
 * Held 9 s, B's answers are older than A's own and than any share: they
 * neither override A's fresher state nor spare A its queries.
 */
static void test_delayed(void **state)
{
	uint8_t held[DARD_SHARE_MSG_MAX];
	size_t len = held_share(held);
	uint32_t dl = core_dl();
	uint64_t t;

	(void)state;
	for (t = 2; t <= 10; t++) {
		wall += S;
		tick(a, t * S);
		answer_all(a, 5, t * S + 1000);
	}
	assert_int_equal(a->d.links.ls[dl].flows, 5);
	wall += S / 2;
	share_input(&a->d, held, len, host_mgmt(b->d.me), DARD_SHARE_PORT,
		    10 * S + S / 2);
	assert_int_equal(dard_rx_refused(&a->d.sh.rx), 0);
	assert_int_equal(a->d.st.shares_taken, 1);
	assert_int_equal(a->d.st.share_taken, 0);
	assert_int_equal(a->d.st.share_stale, 10);
	assert_int_equal(a->d.links.ls[dl].flows, 5);
	assert_true(a->d.links.when[dl] == 10 * S + 1000);
	tick(a, 11 * S);
	assert_int_equal(a->nsent, 9);
}

/* Held only 1 s, the same SHARE is taken, as 1 s old. */
static void test_delayed_taken(void **state)
{
	uint8_t held[DARD_SHARE_MSG_MAX];
	size_t len = held_share(held);
	uint32_t dl = core_dl();

	(void)state;
	wall += S;
	share_input(&a->d, held, len, host_mgmt(b->d.me), DARD_SHARE_PORT,
		    2 * S + S / 2 + 1000);
	assert_int_equal(a->d.st.share_taken, 10);
	assert_int_equal(a->d.st.share_stale, 0);
	assert_int_equal(a->d.links.ls[dl].flows, 3);
	/* B's seq ran a few ns ahead of its clock: as many younger. */
	assert_in_range(a->d.links.when[dl], 1 * S + S / 2 + 1000,
			1 * S + S / 2 + 1010);
}

/* A SHARE signed by B with one record of dl, received at now. */
static void send_rec(uint32_t dl, uint8_t flags, uint64_t now)
{
	struct dard_share_msg *m = calloc(1, sizeof(*m));
	uint8_t buf[DARD_SHARE_MSG_MAX];
	size_t len;

	assert_non_null(m);
	m->type = DARD_SHARE_MSG;
	m->count = 1;
	m->rec[0] = (struct dard_share_rec){dl, 1, flags, 0, 2500};
	m->sender = b->t->node[b->d.me].id;
	m->topo = b->d.io.digest;
	m->seq = b->d.io.seq_out = dard_cp_next_seq(b->d.io.seq_out, wall);
	len = dard_share_encode(buf, sizeof(buf), &b->d.keys->key[0], m);
	clock_now = now;
	share_input(&a->d, buf, len, host_mgmt(b->d.me), DARD_SHARE_PORT, now);
	free(m);
}

/* A port down after an UP share of the same link: asked at once. */
static void test_down_uncovers(void **state)
{
	uint32_t dl, core = find(a->t, "core1");

	(void)state;
	tick(a, 1 * S);
	answer_all(a, 2, 1 * S + 1000);
	dl = core_dl();
	send_rec(dl, DARD_PORT_F_UP, 1 * S + 3 * S / 10);
	assert_true(dard_share_covered(&a->d.sh.seen, dl, a->d.sh.prev_tick));
	assert_true(a->d.links.ls[dl].loaded && a->d.links.ls[dl].load == 2.5);
	send_rec(dl, 0, 1 * S + 6 * S / 10);
	assert_int_equal(a->d.st.share_down, 1);
	assert_false(dard_share_covered(&a->d.sh.seen, dl, a->d.sh.prev_tick));
	assert_true(a->d.next_query_ns == 1 * S + 6 * S / 10);
	a->sent_ports[core] = 0;
	tick(a, 1 * S + 6 * S / 10);
	assert_int_equal(a->nsent, 9);
	assert_int_equal(a->sent_ports[core], 1);
}

/* The directed link out of a's switch sw down to node `to'. */
static uint32_t dl_to(const char *sw, const char *to)
{
	uint32_t n = find(a->t, sw), k, dl;

	for (k = 1; k <= a->t->node[n].nports; k++) {
		dl = dard_port_dlink(a->t, n, k);
		if (dl != DARD_NONE &&
		    dard_topo_peer(a->t, n, k) == find(a->t, to))
			return dl;
	}
	fail_msg("%s has no port to %s", sw, to);
	return DARD_NONE;
}

/* How many of the switches n asked at its last tick it asked with a WATCH. */
static unsigned watches(struct fix *n, const struct dardd_watch *w)
{
	unsigned i, c = 0;

	for (i = 0; i < w->nq; i++)
		c += n->sent_type[w->q[i].sw] == DARD_MSG_WATCH;
	return c;
}

/*
 * The watch is each host's own (watch.c): a WATCH makes its agent tell
 * the sender alone, so A and B each send one to the 7 switches above
 * their ToR at their watch ticks, shared links or not, and their WANTs
 * name only their monitors' links. A peer's SHARE of a port down that
 * no monitor needs (core1 down into pod 3) makes A's watch ask at once,
 * as only the switch's word makes a link dead.
 */
static void test_watch_own(void **state)
{
	uint32_t core = find(a->t, "core1"), dl = dl_to("core1", "aggr3_1");
	unsigned k;
	int asked = 0;

	(void)state;
	a->d.o.sched.watch = b->d.o.sched.watch = 1;
	assert_int_equal(watch_init(&a->d), 0);
	assert_int_equal(watch_init(&b->d), 0);
	tick(b, S / 2);
	assert_true(b->d.watch.due);
	assert_int_equal(watches(b, &b->d.watch), 7);
	answer_all(b, 2, S / 2 + 1000);
	tick(a, 1 * S);
	assert_true(a->d.watch.due);
	/* Its monitor's 9 switches, among them the watch's 7. */
	assert_int_equal(a->nsent, 9);
	assert_int_equal(watches(a, &a->d.watch), 7);
	answer_all(a, 2, 1 * S + 1000);
	assert_true(a->d.st.shares_sent >= 1);
	/* B's WANT: its monitor's 10 links, none of the watch's alone. */
	assert_int_equal(a->d.sh.peer[0].nwant, 10);
	tick(b, 1 * S + S / 2);
	assert_true(b->d.watch.due);
	/* Its watch's 7, though A shared their links, and aggr2_1 and
	 * aggr2_2, below tor2_1. */
	assert_int_equal(b->nsent, 9);
	assert_int_equal(watches(b, &b->d.watch), 7);
	/* B's word of core1's port down: A's watch asks core1 at once,
	 * 0.3 s after its last, not at its next (1.5 s on). */
	send_rec(dl, 0, 1 * S + 3 * S / 10);
	assert_true(a->d.next_query_ns == 1 * S + 3 * S / 10);
	a->sent_ports[core] = 0;
	tick(a, 1 * S + 3 * S / 10);
	assert_true(a->d.watch.due);
	for (k = 0; k < a->sent_ports[core]; k++)
		asked |= dard_port_dlink(a->t, core, a->sent_port[core][k]) ==
			 dl;
	assert_true(asked);
}

/*
 * core4 is silent at B's tick: what the others answered waits for B's
 * next tick, and goes as old as it is by then, not as just answered.
 */
static void test_flush_age(void **state)
{
	uint32_t dl, c4 = find(b->t, "core4");

	(void)state;
	tick(a, 1 * S); /* B now holds A's WANT */
	answer_all(a, 2, 1 * S + 1000);
	tick(b, 1 * S + S / 2);
	b->d.sw[c4].pending = 0;
	answer_all(b, 3, 1 * S + S / 2 + 1000);
	assert_int_equal(b->d.sh.outstanding, 1);
	assert_int_equal(b->d.st.shares_sent, 0);
	dl = core_dl();
	assert_int_equal(a->d.links.ls[dl].flows, 2);
	assert_true(a->d.links.ls[dl].loaded && a->d.links.ls[dl].load == 2);
	wall += S;
	tick(b, 2 * S + S / 2);
	assert_int_equal(b->d.st.shares_sent, 1);
	/* core1's answer to B, its load too, passed on to A. */
	assert_int_equal(a->d.links.ls[dl].flows, 3);
	assert_true(a->d.links.ls[dl].loaded && a->d.links.ls[dl].load == 3);
	/* 999.999 ms old: 99 units, 990 ms before B's flush. */
	assert_true(a->d.links.when[dl] == 2 * S + S / 2 - 990 * 1000000ULL);
}

/*
 * Both announcements lost: each holds the other inactive. The 10 s
 * refresh goes to every peer, so sharing starts again within it.
 */
static void test_lost_announce(void **state)
{
	uint64_t t;

	(void)state;
	drop = 1;
	tick(a, 1 * S);
	tick(b, 1 * S + S / 2);
	drop = 0;
	assert_int_equal(a->d.st.wants_sent + b->d.st.wants_sent, 2);
	assert_int_equal(a->d.st.wants_taken + b->d.st.wants_taken, 0);
	for (t = 2; t <= 12; t++) {
		tick(a, t * S);
		answer_all(a, 2, t * S + 1000);
		tick(b, t * S + S / 2);
		answer_all(b, 2, t * S + S / 2 + 1000);
	}
	/* A refreshed at 11 s, B at 11.5 s: each holds the other's. */
	assert_int_equal(a->d.st.wants_sent, 2);
	assert_int_equal(b->d.st.wants_sent, 2);
	assert_int_equal(a->d.sh.peer[0].nwant, 10);
	assert_int_equal(b->d.sh.peer[0].nwant, 10);
	/* B shared its 11.5 s and 12.5 s answers: A listens. */
	assert_int_equal(b->d.st.shares_sent, 2);
	tick(a, 13 * S);
	assert_int_equal(a->nsent, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_share),
		cmocka_unit_test(test_down_from_switch),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_owed),
		cmocka_unit_test(test_off),
	};

	const struct CMUnitTest pair[] = {
		cmocka_unit_test_setup_teardown(test_quiet_want, pair_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_delayed, pair_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_delayed_taken, pair_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_down_uncovers, pair_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_flush_age, pair_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_lost_announce, pair_setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_watch_own, pair_setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, setup, teardown) |
	       cmocka_run_group_tests(pair, NULL, NULL);
}
