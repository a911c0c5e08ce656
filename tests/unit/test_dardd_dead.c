// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd and dead paths: a port reported down marks the paths through it
 * dead in the datapath for every destination host whose paths cross it,
 * monitored or not, at the datapath's own index of each path; up again
 * clears the bit; a silent switch marks nothing; a released monitor
 * clears nothing the link's fresh state still holds; the watch sees a
 * failure with no elephant at all; the round moves an elephant off a
 * dead path; `monitor show' and the counters say so.
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

/*
 * Switch n answers query seq: every port asked up, 1.5 Mbit/s leaving
 * it, but port `down' (0: none) down, its load not measured.
 */
static void answer(struct fix *f, uint32_t n, uint16_t down, uint64_t now)
{
	struct dard_port_state st[16];
	uint8_t buf[DARD_MSG_MAX];
	unsigned i;
	size_t len;

	for (i = 0; i < f->sent_ports[n]; i++)
		st[i] = (struct dard_port_state){
			f->sent_port[n][i],
			f->sent_port[n][i] == down ? 0 : DARD_PORT_F_UP, 1000,
			0,
			f->sent_port[n][i] == down ? DARD_LOAD_UNKNOWN : 1500};
	len = dard_proto_reply(buf, sizeof(buf), &f->d.keys->key[0],
			       f->d.t->node[f->d.me].id, f->sent_seq[n], st,
			       f->sent_ports[n]);
	assert_true(len > 0);
	fix_from(f, n, buf, len, now);
}

/*
 * A query round at now, answered by every switch of the monitor but
 * `silent' (DARD_NONE: all); switch `sw' reports port `down' down.
 */
static void round_trip(struct fix *f, uint64_t now, uint32_t silent,
		       uint32_t sw, uint16_t down)
{
	const struct dard_monitor *m = f->d.mons->m;
	unsigned i;

	query_send(&f->d, now);
	for (i = 0; i < m->nqueries; i++)
		if (m->query[i].sw != silent)
			answer(f, m->query[i].sw,
			       m->query[i].sw == sw ? down : 0, now);
}

struct collect {
	struct dard_alias_pair pair[DARD_PATHS_MAX];
	unsigned n;
};

static int collect_cb(const struct dard_path *p, void *arg)
{
	struct collect *c = arg;

	c->pair[c->n].saddr = htonl(p->saddr);
	c->pair[c->n].daddr = htonl(p->daddr);
	c->n++;
	return 0;
}

/*
 * The datapath's index of monitor path i towards host dst: where the
 * alias pair that dardd would move a flow to (fix_pair) sits among the
 * pairs dp_program.c gives the destination.
 */
static unsigned dp_index(struct fix *f, const char *dst, unsigned i)
{
	struct dard_alias_pair want = fix_pair(f, dst, i);
	static struct collect c;
	unsigned k;

	c.n = 0;
	dard_path_foreach(f->d.pc, f->d.me, find(f->t, dst), collect_cb, &c);
	for (k = 0; k < c.n; k++)
		if (c.pair[k].saddr == want.saddr &&
		    c.pair[k].daddr == want.daddr)
			return k;
	fail_msg("path %u to %s is not among the datapath's", i, dst);
	return 0;
}

/* Exactly the bits of monitor paths in `paths' (a bitmask) are set. */
static void assert_dead(struct fix *f, const char *dst, unsigned paths)
{
	const uint64_t *dead = fix_dead(f, dst);
	uint64_t want[DARD_PATHS_MAX / 64] = {0};
	unsigned i;

	assert_non_null(dead);
	for (i = 0; i < 32; i++)
		if (paths & (1U << i)) {
			unsigned k = dp_index(f, dst, i);

			want[k / 64] |= 1ULL << (k % 64);
		}
	assert_memory_equal(dead, want, sizeof(want));
}

/* The exit port of m's path i's core, down to the destination pod. */
static uint16_t core_port_of(struct fix *f, const struct dard_monitor *m,
			     unsigned i, uint32_t *core)
{
	const struct dard_mon_path *p = &m->path[i];
	uint32_t k;

	*core = p->sw[2];
	for (k = 1; k <= f->t->node[*core].nports; k++)
		if (dard_port_dlink(f->t, *core, k) == p->dl[2])
			return k;
	fail_msg("no port of the core on path %u", i);
	return 0;
}

/* The exit port of monitor path i's core, down to the destination pod. */
static uint16_t core_port(struct fix *f, unsigned i, uint32_t *core)
{
	return core_port_of(f, f->d.mons->m, i, core);
}

static void test_down_up(void **state)
{
	struct fix *f = fix_new();
	uint32_t core;
	uint16_t port;
	unsigned calls;

	(void)state;
	fix_elephant(f, "e2_1", 1, 1);
	port = core_port(f, 1, &core);
	/* All up: nothing changes, nothing is told. */
	round_trip(f, 1 * S, DARD_NONE, DARD_NONE, 0);
	assert_int_equal(f->dp.ndead_calls, 0);
	/*
	 * Path 2's core reports its port down into pod 2: both hosts under
	 * tor2_1, and both under tor2_2, which we have no monitor for but
	 * whose path 2 crosses that link too (found in the simulator and
	 * on the testbed: their new flows waited for TCP's timeout).
	 */
	round_trip(f, 2 * S, DARD_NONE, core, port);
	assert_int_equal(f->dp.ndead_calls, 4);
	assert_dead(f, "e2_1", 1U << 1);
	assert_dead(f, "e2_2", 1U << 1);
	assert_dead(f, "e2_3", 1U << 1);
	assert_dead(f, "e2_4", 1U << 1);
	assert_null(fix_dead(f, "e3_1"));
	assert_null(fix_dead(f, "e1_2"));
	assert_int_equal(f->d.st.dead_paths, 2);
	/* Still down: the datapath is not told again. */
	round_trip(f, 3 * S, DARD_NONE, core, port);
	assert_int_equal(f->dp.ndead_calls, 4);
	/* Up again: the bits are cleared, the unmonitored ToR's too. */
	round_trip(f, 4 * S, DARD_NONE, DARD_NONE, 0);
	assert_int_equal(f->dp.ndead_calls, 8);
	assert_dead(f, "e2_1", 0);
	assert_dead(f, "e2_2", 0);
	assert_dead(f, "e2_3", 0);
	assert_dead(f, "e2_4", 0);
	assert_int_equal(f->d.st.revived_paths, 2);
	/* The datapath refuses: tried again with the next reply. */
	f->dp.dead_ret = -EIO;
	round_trip(f, 5 * S, DARD_NONE, core, port);
	calls = f->dp.ndead_calls;
	assert_true(calls > 8);
	f->dp.dead_ret = 0;
	round_trip(f, 6 * S, DARD_NONE, core, port);
	assert_true(f->dp.ndead_calls > calls);
	assert_dead(f, "e2_1", 1U << 1);
	assert_dead(f, "e2_2", 1U << 1);
	fix_free(f);
}

static void test_silent_not_dead(void **state)
{
	struct fix *f = fix_new();
	uint32_t core, core4;
	uint16_t port;
	uint64_t t;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	port = core_port(f, 1, &core);
	core_port(f, 3, &core4);
	/* Path 4's core says nothing for far longer than max_age. */
	for (t = 1; t <= 10; t++)
		round_trip(f, t * S, core4, DARD_NONE, 0);
	assert_int_equal(f->d.sw[core4].silent, 1);
	assert_int_equal(f->dp.ndead_calls, 0);
	assert_int_equal(f->d.st.dead_paths, 0);
	/* Path 2's core reports down, then falls silent: once its state
	 * is too old the path is unknown, no longer dead. */
	round_trip(f, 11 * S, DARD_NONE, core, port);
	assert_dead(f, "e2_1", 1U << 1);
	for (t = 12; t <= 15; t++)
		round_trip(f, t * S, core, DARD_NONE, 0);
	assert_dead(f, "e2_1", 0);
	assert_dead(f, "e2_2", 0);
	assert_dead(f, "e2_3", 0);
	assert_int_equal(f->d.st.revived_paths, 2);
	fix_free(f);
}

/* The round moves the elephant off the dead path, whatever delta. */
static void test_round_moves(void **state)
{
	struct fix *f = fix_new();
	struct dard_alias_pair want;
	uint32_t core;
	uint16_t port;

	(void)state;
	fix_elephant(f, "e2_1", 1, 1);
	port = core_port(f, 1, &core);
	round_trip(f, 1 * S, DARD_NONE, core, port);
	f->d.o.delta_is_frac = 0;
	f->d.o.delta = 1e9;
	schedule(&f->d, f->d.mons, 1 * S + 1);
	assert_int_equal(f->dp.nmoves, 1);
	/* Onto one of the three live paths, all free (the fast mode draws
	 * among equals), and the datapath told the same. */
	assert_true(f->d.els->path >= 0 && f->d.els->path != 1 &&
		    f->d.els->path < 4);
	want = fix_pair(f, "e2_1", (unsigned)f->d.els->path);
	assert_memory_equal(&f->dp.moved_to, &want, sizeof(want));
	/* Off it now: the next round has nothing to move. */
	schedule(&f->d, f->d.mons, 1 * S + 2);
	assert_int_equal(f->dp.nmoves, 1);
	fix_free(f);
}

static json_object *path_json(json_object *doc, unsigned i)
{
	json_object *paths;

	assert_true(json_object_object_get_ex(json_object_array_get_idx(doc, 0),
					      "paths", &paths));
	return json_object_array_get_idx(paths, i);
}

/*
 * Each path's links, ToR to ToR, with their loads: path 1's all
 * measured at 1.5 Mbit/s; path 2's link out of the down port dead and
 * its load null (not measured), the others measured.
 */
static void links_check(json_object *p1, json_object *p2)
{
	json_object *links, *l, *v;
	unsigned k, nulls = 0;

	assert_true(json_object_object_get_ex(p1, "links", &links));
	assert_int_equal(json_object_array_length(links), 4);
	l = json_object_array_get_idx(links, 0);
	assert_true(json_object_object_get_ex(l, "from", &v));
	assert_string_equal(json_object_get_string(v), "tor1_1");
	for (k = 0; k < 4; k++) {
		l = json_object_array_get_idx(links, k);
		assert_true(json_object_object_get_ex(l, "load", &v));
		assert_true(json_object_get_double(v) == 1.5);
	}
	assert_true(json_object_object_get_ex(p2, "links", &links));
	assert_int_equal(json_object_array_length(links), 4);
	for (k = 0; k < 4; k++) {
		int none;

		l = json_object_array_get_idx(links, k);
		assert_true(json_object_object_get_ex(l, "load", &v));
		none = v == NULL;
		nulls += none;
		/* The down port's link, and only it. */
		assert_true(json_object_object_get_ex(l, "dead", &v));
		assert_int_equal(json_object_get_boolean(v), none);
	}
	assert_int_equal(nulls, 1);
}

/*
 * `monitor show' says which paths are dead; a released monitor's bits
 * stay while the link's state is fresh, and go once it ages.
 */
static void test_show_release(void **state)
{
	struct fix *f = fix_new();
	json_object *doc, *v;
	uint32_t core;
	uint16_t port;
	uint64_t t0;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	port = core_port(f, 1, &core);
	/* The states must be fresh when the JSON is made: use real time. */
	t0 = dardd_now_ns();
	round_trip(f, t0, DARD_NONE, core, port);
	doc = ctl_answer(&f->d, "monitors");
	assert_non_null(doc);
	assert_true(json_object_object_get_ex(path_json(doc, 1), "dead", &v));
	assert_true(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(path_json(doc, 0), "dead", &v));
	assert_false(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(path_json(doc, 0), "known", &v));
	links_check(path_json(doc, 0), path_json(doc, 1));
	json_object_put(doc);
	doc = ctl_answer(&f->d, "stats");
	assert_true(json_object_object_get_ex(doc, "dead_paths", &v));
	assert_int_equal(json_object_get_int64(v), 2);
	json_object_put(doc);
	/* The last elephant ends: the link is as dead as it was. */
	track_end(&f->d, f->d.els, "test");
	assert_null(f->d.mons);
	query_send(&f->d, t0 + 1);
	assert_dead(f, "e2_1", 1U << 1);
	assert_dead(f, "e2_3", 1U << 1);
	/* Nobody asks (no watch here): the state ages, the bits go. */
	query_send(&f->d, t0 + f->d.o.max_age_ns + 1);
	assert_dead(f, "e2_1", 0);
	assert_dead(f, "e2_3", 0);
	fix_free(f);
}

/*
 * A fresh state in the link table that no monitor of ours asked for (the
 * watch's answer, or the switch's answer to the query a peer's SHARE of
 * a port down makes us send at once: share.c, take) marks the paths of
 * every destination it is on, and clears them when up again.
 */
static void test_unmonitored_state(void **state)
{
	struct fix *f = fix_new();
	const struct dard_monitor *m3;
	uint32_t dl;

	(void)state;
	m3 = dead_paths_to(&f->d, dard_topo_tor(f->t, find(f->t, "e3_1")));
	assert_non_null(m3);
	dl = m3->path[2].dl[2]; /* path 3's core down into pod 3 */
	f->d.links.ls[dl].known = 1;
	f->d.links.ls[dl].dead = 1;
	f->d.links.when[dl] = 5 * S;
	dead_update(&f->d, 5 * S);
	assert_null(f->d.mons);
	assert_dead(f, "e3_1", 1U << 2);
	assert_dead(f, "e3_4", 1U << 2);
	assert_null(fix_dead(f, "e2_1"));
	/* Up again, in a later record. */
	f->d.links.ls[dl].dead = 0;
	f->d.links.when[dl] = 6 * S;
	dead_update(&f->d, 6 * S);
	assert_dead(f, "e3_1", 0);
	assert_dead(f, "e3_4", 0);
	fix_free(f);
}

/* A watch tick at now: every switch it asks answers, sw's port down. */
static void watch_trip(struct fix *f, uint64_t now, uint32_t sw, uint16_t down)
{
	const struct dardd_watch *w = &f->d.watch;
	unsigned i;

	query_send(&f->d, now);
	assert_true(w->due);
	for (i = 0; i < w->nq; i++)
		answer(f, w->q[i].sw, w->q[i].sw == sw ? down : 0, now);
}

/*
 * The watch: with no elephant at all, the switches above our ToR are
 * asked every tick (fattree:4: the ToR, 2 aggregation switches, 4
 * cores), and a core's port down into pod 3 marks pod 3's hosts. A
 * monitor of ours across that link, released, clears nothing the watch
 * still holds; the port up again clears the bits.
 */
static void test_watch(void **state)
{
	struct fix *f = fix_new();
	const struct dard_monitor *m3;
	uint32_t core, n, tor3;
	uint16_t port;
	unsigned i;

	(void)state;
	f->d.o.sched.watch = 1;
	assert_int_equal(watch_init(&f->d), 0);
	/* Our ToR's 2 up ports, each aggregation switch's 2 up and 1 down
	 * (to tor1_2), each core's 3 down to the other pods. */
	assert_int_equal(f->d.watch.nq, 7);
	for (i = 0, n = 0; i < f->d.watch.nq; i++)
		n += f->d.watch.q[i].nports;
	assert_int_equal(n, 2 + 2 * 3 + 4 * 3);
	tor3 = dard_topo_tor(f->t, find(f->t, "e3_1"));
	m3 = dead_paths_to(&f->d, tor3);
	port = core_port_of(f, m3, 2, &core);
	f->nsent = 0;
	watch_trip(f, 1 * S, DARD_NONE, 0);
	assert_int_equal(f->nsent, 7);
	/* Each a WATCH: its agent tells us of those ports from now on. */
	for (i = 0; i < f->d.watch.nq; i++)
		assert_int_equal(f->sent_type[f->d.watch.q[i].sw],
				 DARD_MSG_WATCH);
	assert_int_equal(f->d.st.watches, 7);
	assert_int_equal(f->d.st.watch_ticks, 1);
	assert_int_equal(f->dp.ndead_calls, 0);
	watch_trip(f, 2 * S, core, port);
	assert_dead(f, "e3_1", 1U << 2);
	assert_dead(f, "e3_3", 1U << 2);
	assert_null(fix_dead(f, "e2_1"));
	/* An elephant to e3_1: its monitor sees the same; then it ends. */
	fix_elephant(f, "e3_1", 1, 0);
	assert_non_null(f->d.mons);
	watch_trip(f, 3 * S, core, port);
	track_end(&f->d, f->d.els, "test");
	assert_null(f->d.mons);
	for (i = 4; i <= 8; i++)
		watch_trip(f, i * S, core, port);
	assert_dead(f, "e3_1", 1U << 2);
	assert_dead(f, "e3_4", 1U << 2);
	/* Up again: the watch's answer clears them. */
	watch_trip(f, 9 * S, DARD_NONE, 0);
	assert_dead(f, "e3_1", 0);
	assert_dead(f, "e3_4", 0);
	/* Off (the paper's mode): no watch query at all. */
	f->d.o.sched.watch = 0;
	f->nsent = 0;
	query_send(&f->d, 10 * S);
	assert_false(f->d.watch.due);
	assert_int_equal(f->nsent, 0);
	fix_free(f);
}

/* Switch n's notice of port `port' (down or up) with seq, to sender. */
static void notice(struct fix *f, uint32_t n, uint16_t port, int up,
		   uint32_t sender, uint64_t seq, uint64_t now)
{
	struct dard_port_state st = {port, up ? DARD_PORT_F_UP : 0, 1000, 0,
				     DARD_LOAD_UNKNOWN};
	uint8_t buf[DARD_MSG_MAX];
	size_t len = dard_proto_notice(buf, sizeof(buf), &f->d.keys->key[0],
				       sender, seq, fix_mgmt(n), &st, 1);

	assert_true(len > 0);
	fix_from(f, n, buf, len, now);
}

/*
 * A notice: a watched core's port into pod 3 goes down between two
 * watches; its agent's notice marks pod 3's paths at once, no query
 * asked; the same notice again, an older one, one more than 10 s old,
 * one for another host, another agent's sent from this one's address
 * are refused and change nothing; the port's return, in a newer
 * notice, clears them.
 */
static void test_notice(void **state)
{
	struct fix *f = fix_new();
	uint32_t me, core, tor3;
	uint64_t us = f->d.io.wall_ns() / 1000;
	uint16_t port;

	(void)state;
	f->d.o.sched.watch = 10;
	assert_int_equal(watch_init(&f->d), 0);
	me = f->d.t->node[f->d.me].id;
	tor3 = dard_topo_tor(f->t, find(f->t, "e3_1"));
	port = core_port_of(f, dead_paths_to(&f->d, tor3), 2, &core);
	watch_trip(f, 1 * S, DARD_NONE, 0);
	assert_null(fix_dead(f, "e3_1"));
	f->nsent = 0;
	notice(f, core, port, 0, me, us, 1 * S + S / 2);
	assert_int_equal(f->d.st.notices, 1);
	assert_dead(f, "e3_1", 1U << 2);
	assert_dead(f, "e3_4", 1U << 2);
	assert_int_equal(f->nsent, 0);
	/* Replayed, older, stale, another's: refused, all. */
	notice(f, core, port, 1, me, us, 1 * S + S / 2);
	notice(f, core, port, 1, me, us - 1, 1 * S + S / 2);
	notice(f, core, port, 1, me, us - DARD_PROTO_SKEW_US - 1000000,
	       1 * S + S / 2);
	notice(f, core, port, 1, me + 1, us + 1, 1 * S + S / 2);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_REPLAY], 3);
	assert_int_equal(f->d.reply_rx.n[DARD_RX_SEQ], 1);
	/* Another agent's notice, from this one's address: refused. */
	{
		struct dard_port_state st = {port, DARD_PORT_F_UP, 1000, 0,
					     DARD_LOAD_UNKNOWN};
		uint8_t buf[DARD_MSG_MAX];
		size_t len = dard_proto_notice(buf, sizeof(buf),
					       &f->d.keys->key[0], me, us + 1,
					       fix_mgmt(core + 1), &st, 1);

		fix_from(f, core, buf, len, 1 * S + S / 2);
	}
	assert_int_equal(f->d.reply_rx.n[DARD_RX_SOURCE], 1);
	assert_int_equal(f->d.st.notices, 1);
	assert_dead(f, "e3_1", 1U << 2);
	/* While a link is dead the watch asks its switch at every tick. */
	query_send(&f->d, 2 * S);
	assert_false(f->d.watch.due);
	assert_int_equal(f->nsent, 1);
	assert_int_equal(f->sent_type[core], DARD_MSG_WATCH);
	notice(f, core, port, 1, me, us + 2, 2 * S + S / 4);
	assert_int_equal(f->d.st.notices, 2);
	assert_dead(f, "e3_1", 0);
	assert_dead(f, "e3_4", 0);
	fix_free(f);
}

/*
 * A WATCH unanswered (its agent not up yet, as when the daemons start
 * together) goes again at the next tick, and at each until answered,
 * not a watch interval (20 s) on; the answered ones wait the interval.
 */
static void test_rewatch(void **state)
{
	struct fix *f = fix_new();
	const struct dardd_watch *w = &f->d.watch;
	uint32_t last;
	unsigned i;

	(void)state;
	f->d.o.sched.watch = 20;
	assert_int_equal(watch_init(&f->d), 0);
	last = w->q[w->nq - 1].sw;
	query_send(&f->d, 1 * S);
	assert_int_equal(f->nsent, 7);
	f->nsent = 0;
	query_send(&f->d, 2 * S);
	assert_false(w->due);
	assert_int_equal(f->nsent, 7);
	for (i = 0; i < w->nq; i++) {
		assert_int_equal(f->sent_type[w->q[i].sw], DARD_MSG_WATCH);
		if (w->q[i].sw != last)
			answer(f, w->q[i].sw, 0, 2 * S);
	}
	f->nsent = 0;
	query_send(&f->d, 3 * S);
	assert_int_equal(f->nsent, 1);
	assert_int_equal(f->sent_type[last], DARD_MSG_WATCH);
	answer(f, last, 0, 3 * S);
	f->nsent = 0;
	query_send(&f->d, 4 * S);
	assert_int_equal(f->nsent, 0);
	assert_int_equal(f->d.st.watches, 15);
	fix_free(f);
}

/*
 * A watch slower than a dead state's age (--watch-interval above 3 query
 * intervals): while a link is dead the watch asks its switch at every
 * tick, or the state would age to unknown between two watches and the
 * paths come alive again, as they did once every interval (found in
 * review); only that switch, not the watch's seven. Once the link is up
 * it waits for its interval again.
 */
static void test_watch_keeps_dead(void **state)
{
	struct fix *f = fix_new();
	const struct dardd_watch *w = &f->d.watch;
	const struct dard_monitor *m3;
	uint32_t core;
	uint16_t port;
	unsigned i;

	(void)state;
	f->d.o.sched.watch = 5;
	assert_int_equal(watch_init(&f->d), 0);
	m3 = dead_paths_to(&f->d, dard_topo_tor(f->t, find(f->t, "e3_1")));
	port = core_port_of(f, m3, 2, &core);
	watch_trip(f, 1 * S, core, port);
	assert_dead(f, "e3_1", 1U << 2);
	for (i = 2; i <= 5; i++) {
		f->nsent = 0;
		query_send(&f->d, i * S);
		assert_false(w->due);
		assert_int_equal(f->nsent, 1);
		assert_int_equal(f->sent_type[core], DARD_MSG_WATCH);
		answer(f, core, port, i * S);
		assert_dead(f, "e3_1", 1U << 2);
	}
	/* 5.5 s on: the interval's renewal, to all seven. */
	f->nsent = 0;
	watch_trip(f, 6 * S, core, port);
	assert_int_equal(f->nsent, 7);
	assert_int_equal(f->d.st.watch_ticks, 2);
	f->nsent = 0;
	query_send(&f->d, 7 * S);
	assert_int_equal(f->nsent, 1);
	answer(f, core, 0, 7 * S);
	assert_dead(f, "e3_1", 0);
	f->nsent = 0;
	query_send(&f->d, 8 * S);
	assert_false(w->due);
	assert_int_equal(f->nsent, 0);
	fix_free(f);
}

/*
 * Quiet monitors and dead paths: a monitor with a dead path keeps asking,
 * whatever its flows' rates, or its states would age to unknown and the
 * path come back to life (found in review: it did, 4 s after the flow
 * ran at its link's rate). Once the path is up again it may go quiet.
 */
static void test_quiet_keeps_dead(void **state)
{
	struct fix *f = fix_new();
	struct mon *mon;
	uint32_t core;
	uint16_t port;
	uint64_t t, bytes = 0;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	mon = f->d.mons;
	port = core_port(f, 1, &core);
	fix_table(f, bytes, 1 * S);
	flows_sweep(&f->d, 1 * S);
	round_trip(f, 1 * S, DARD_NONE, core, port);
	assert_dead(f, "e2_1", 1U << 1);
	for (t = 2; t <= 8; t++) {
		bytes += 118750000; /* 950 Mbit/s: its whole share */
		fix_table(f, bytes, t * S);
		flows_sweep(&f->d, t * S);
		round_trip(f, t * S, DARD_NONE, core, port);
		assert_false(mon->quiet);
	}
	assert_dead(f, "e2_1", 1U << 1);
	assert_int_equal(f->d.st.revived_paths, 0);
	/* The port up again: live, and then quiet at the next tick. */
	bytes += 118750000;
	fix_table(f, bytes, 9 * S);
	flows_sweep(&f->d, 9 * S);
	round_trip(f, 9 * S, DARD_NONE, DARD_NONE, 0);
	assert_dead(f, "e2_1", 0);
	bytes += 118750000;
	fix_table(f, bytes, 10 * S);
	flows_sweep(&f->d, 10 * S);
	f->nsent = 0;
	query_send(&f->d, 10 * S);
	assert_true(mon->quiet);
	assert_int_equal(f->nsent, 0);
	fix_free(f);
}

/*
 * Waking up: a monitor quiet for a while has no fresh states. Its next
 * round waits for a query interval (this tick's replies), and a round
 * on unknown states, which moves nothing, does not put it to sleep
 * (found in review: it slept 3 s on a blind round).
 */
static void test_wake_round(void **state)
{
	struct fix *f = fix_new();
	struct mon *mon;
	uint64_t t, bytes = 0;

	(void)state;
	fix_elephant(f, "e2_1", 1, 0);
	mon = f->d.mons;
	fix_table(f, bytes, 1 * S);
	flows_sweep(&f->d, 1 * S);
	round_trip(f, 1 * S, DARD_NONE, DARD_NONE, 0);
	for (t = 2; t <= 6; t++) {
		bytes += 118750000; /* 950 Mbit/s: quiet */
		fix_table(f, bytes, t * S);
		flows_sweep(&f->d, t * S);
		query_send(&f->d, t * S);
	}
	assert_true(mon->quiet);
	/* Slowed to 400: awake at 7 s, its round a quarter second on. */
	mon->next_round_ns = 7 * S;
	bytes += 50000000;
	fix_table(f, bytes, 7 * S);
	flows_sweep(&f->d, 7 * S);
	query_send(&f->d, 7 * S);
	assert_false(mon->quiet);
	assert_true(mon->next_round_ns >= 7 * S + f->d.o.query_ns / 4);
	/* A round before any reply: every state unknown, no sleep. */
	schedule(&f->d, mon, 7 * S + 1);
	assert_int_equal(mon->rounds, 1);
	assert_false(dard_monitor_idle(mon->m, 7 + 1e-9));
	bytes += 50000000;
	fix_table(f, bytes, 8 * S);
	flows_sweep(&f->d, 8 * S);
	query_send(&f->d, 8 * S);
	assert_false(mon->quiet);
	fix_free(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_down_up),
		cmocka_unit_test(test_quiet_keeps_dead),
		cmocka_unit_test(test_wake_round),
		cmocka_unit_test(test_silent_not_dead),
		cmocka_unit_test(test_round_moves),
		cmocka_unit_test(test_show_release),
		cmocka_unit_test(test_unmonitored_state),
		cmocka_unit_test(test_watch),
		cmocka_unit_test(test_watch_keeps_dead),
		cmocka_unit_test(test_notice),
		cmocka_unit_test(test_rewatch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
