// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's controller client against a fake controller (libdard's cproto
 * encodes what it sends, and decodes what dardd sends back): ASSIGN
 * moves our elephants through the datapath and is ACKed with what could
 * not move; WEIGHTS reach every destination under a ToR; every datagram
 * that is not the controller's, authentic, for our tree, fresh and not
 * stale is refused and counted by reason; the mode follows the
 * controller (heard, SELF, silent) and nothing is forgotten; reports
 * list every elephant, in several datagrams when they must, and an
 * ended one once with END.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>
#include <sys/socket.h>

#include "dardd_fix.h"

#define S 1000000000ULL
#define CTLR 0x0a640063U /* 10.100.0.99, the controller */

/* What dardd sent the controller, decoded. */
enum { SENT_MAX = 8 };
static struct dard_cp_msg sent[SENT_MAX];
static unsigned nsent;
static uint64_t last_seq;

static ssize_t cp_xmit(struct dardd *d, const void *buf, size_t len)
{
	struct dard_cp_msg *m = &sent[nsent % SENT_MAX];
	char err[DARD_ERR_MAX];

	if (dard_cp_decode(buf, len, &d->keys, m, err))
		fail_msg("dardd sent a bad message: %s", err);
	assert_int_equal(m->sender, d->t->node[d->me].id);
	assert_int_equal(m->topo, dard_cp_topo_digest(d->t));
	assert_true(m->seq > last_seq);
	last_seq = m->seq;
	nsent++;
	return len;
}

/* set_weights, as the wdp engineer's op: every call recorded. */
enum { WCALLS_MAX = 64 };
static struct {
	uint32_t id;
	unsigned n;
	uint16_t w[DARD_PATHS_MAX];
	int even;
} wcall[WCALLS_MAX];
static unsigned nwcalls;
static int wret; /* what set_weights returns */

static int fake_set_weights(struct dard_dp *dp, uint32_t id, const uint16_t *w,
			    unsigned n)
{
	(void)dp;
	assert_true(nwcalls < WCALLS_MAX);
	wcall[nwcalls].id = id;
	wcall[nwcalls].n = n;
	wcall[nwcalls].even = !w || !n;
	if (w)
		memcpy(wcall[nwcalls].w, w, n * sizeof(*w));
	nwcalls++;
	return wret;
}

static struct dard_dp_ops ops_w;

/* The wall clock dardd reads, seqs being clock times: 2024-01-01. */
#define WALL0 (1704067200ULL * S)
static uint64_t wall = WALL0;

static uint64_t fake_wall_ns(void)
{
	return wall;
}

/* The fixture's dardd with a controller configured, just started. */
static struct fix *cp_new(void)
{
	struct fix *f = fix_new();
	struct dardd *d = &f->d;

	ops_w = fake_ops;
	ops_w.set_weights = fake_set_weights;
	d->ops = &ops_w;
	d->o.controller = CTLR;
	assert_int_equal(controller_init(d), 0);
	d->cp.xmit = cp_xmit;
	d->cp.wall_ns = fake_wall_ns;
	wall = WALL0;
	nsent = nwcalls = 0;
	wret = 0;
	last_seq = 0;
	return f;
}

static void cp_free(struct fix *f)
{
	controller_fini(&f->d);
	fix_free(f);
}

/* The controller's seq: above every one before, near the wall clock. */
static uint64_t cseq = WALL0;

/* A controller message of type, epoch and flags, for f's tree. */
static struct dard_cp_msg *msg(struct fix *f, unsigned type, uint64_t epoch,
			       unsigned flags)
{
	static struct dard_cp_msg m;

	memset(&m, 0, sizeof(m));
	m.type = type;
	m.algo = type == DARD_CP_WEIGHTS ? DARD_CP_ALGO_OBLIVIOUS
					 : DARD_CP_ALGO_OPTIMAL;
	m.flags = flags;
	m.topo = dard_cp_topo_digest(f->t);
	m.seq = ++cseq;
	m.epoch = epoch;
	return &m;
}

static void assign_add(struct dard_cp_msg *m, struct dard_flow_key k,
		       unsigned path)
{
	m->flow[m->count].key = k;
	m->flow[m->count++].path = path;
}

/* m signed with k, from addr:port, to dardd at now. */
static void push_as(struct fix *f, const struct dard_cp_msg *m,
		    const struct dard_key *k, uint32_t addr, uint16_t port,
		    uint64_t now)
{
	uint8_t buf[DARD_CP_MSG_MAX];
	size_t len = dard_cp_encode(buf, sizeof(buf), k, m);

	assert_true(len > 0);
	controller_input(&f->d, buf, len, addr, port, now);
}

static void push(struct fix *f, const struct dard_cp_msg *m, uint64_t now)
{
	struct dard_key k = fix_mac_key();

	push_as(f, m, &k, CTLR, DARD_CP_PORT, now);
}

static struct elephant *el(struct fix *f, const char *dst, uint16_t sport)
{
	struct dard_flow_key k = fix_key(f, dst, sport);

	return el_find(&f->d, &k);
}

/* The i-th of dard_path_foreach's paths from e1_1 to dst. */
struct nth {
	unsigned i, want;
	struct dard_path p;
};

static int nth_cb(const struct dard_path *p, void *arg)
{
	struct nth *n = arg;

	if (n->i++ != n->want)
		return 0;
	n->p = *p;
	return 1;
}

static struct dard_alias_pair host_pair(struct fix *f, const char *dst,
					unsigned i)
{
	struct nth n = {.want = i};
	struct dard_alias_pair pair;

	assert_int_equal(dard_path_foreach(f->d.pc, f->d.me, find(f->t, dst),
					   nth_cb, &n),
			 1);
	pair.saddr = htonl(n.p.saddr);
	pair.daddr = htonl(n.p.daddr);
	return pair;
}

static const struct dard_cp_msg *last_sent(void)
{
	assert_true(nsent > 0);
	return &sent[(nsent - 1) % SENT_MAX];
}

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
	assert_int_equal(d->st.cp_moves, 1);
	assert_int_equal(d->st.cp_assigns, 1);
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
	assert_int_equal(d->st.cp_failed, 4);
	assert_int_equal(d->st.cp_moves, 0);
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
	assert_int_equal(d->st.cp_failed, 1);
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
	assert_int_equal(d->st.cp_failed, 1);
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
	assert_int_equal(d->st.cp_failed, 2);
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
	assert_int_equal(d->st.cp_failed, 97);
	assert_int_equal(d->st.cp_assigns, 1);
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

/* Calls that weighed host `dst' since call `from': the last one's index. */
static int wcall_of(struct fix *f, const char *dst, unsigned from)
{
	uint32_t id = f->t->node[find(f->t, dst)].id;
	int last = -1;
	unsigned i;

	for (i = from; i < nwcalls; i++)
		if (wcall[i].id == id)
			last = i;
	return last;
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
	assert_int_equal(d->st.cp_weights, 1);
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
	assert_int_equal(d->st.cp_why[CPR_MALFORMED], 1);
	assert_int_equal(d->st.cp_weights, 2);
	/* Destinations the datapath does not have yet: no failure. */
	assert_int_equal(d->st.cp_weights_failed, 0);
	wret = -ENOENT;
	m = msg(f, DARD_CP_WEIGHTS, 12, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assert_int_equal(
		dard_cp_add_weights(m, dard_cp_tor_rank(f->t, tor3), w, 4), 0);
	push(f, m, 13 * S);
	assert_int_equal(d->st.cp_weights_failed, 0);
	cp_weights_even(d);
	assert_int_equal(d->st.cp_weights_failed, 0);
	/* Refused: each destination counted (the line rate-limited). */
	wret = -EINVAL;
	dard_log_init("test", DARD_LOG_WARN);
	m = msg(f, DARD_CP_WEIGHTS, 13, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assert_int_equal(
		dard_cp_add_weights(m, dard_cp_tor_rank(f->t, tor3), w, 4), 0);
	assert_int_equal(
		dard_cp_add_weights(m, dard_cp_tor_rank(f->t, tor2), w, 4), 0);
	push(f, m, 14 * S);
	assert_int_equal(d->st.cp_weights_failed, 4);
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

/* One refusal: nothing moves, counted under r and in the total. */
static void refused(struct fix *f, enum cp_refusal r, uint64_t total)
{
	assert_int_equal(f->dp.nmoves, 0);
	assert_int_equal(f->d.st.cp_why[r], 1);
	assert_int_equal(f->d.st.cp_refused, total);
	assert_int_equal(f->d.st.cp_assigns, 0);
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
	refused(f, CPR_MAC, 1);
	push_as(f, m, &other, CTLR, DARD_CP_PORT, S);
	refused(f, CPR_KEY, 2);
	controller_input(d, (const uint8_t *)"GET / HTTP/1.0\r\n\r\n", 18, CTLR,
			 DARD_CP_PORT, S);
	refused(f, CPR_PROTO, 3);
	push_as(f, m, &good, CTLR + 1, DARD_CP_PORT, S);
	refused(f, CPR_SOURCE, 4);
	push_as(f, m, &good, CTLR, DARD_CP_PORT + 1, S);
	assert_int_equal(d->st.cp_why[CPR_SOURCE], 2);
	m->sender = f->t->node[d->me].id;
	push(f, m, S);
	refused(f, CPR_SENDER, 6);
	m->sender = 0;
	m->topo ^= 1;
	push(f, m, S);
	refused(f, CPR_TOPO, 7);
	/* A host's message type: malformed for us. */
	*m = keep;
	m->type = DARD_CP_REPORT;
	push(f, m, S);
	refused(f, CPR_MALFORMED, 8);
	assert_string_equal(controller_mode_name(d), "dard");
	assert_int_equal(d->cp.heard_ns, 0);
	/* The genuine one is taken, once: its replay is refused. */
	*m = keep;
	len = dard_cp_encode(buf, sizeof(buf), &good, m);
	controller_input(d, buf, len, CTLR, DARD_CP_PORT, S);
	assert_int_equal(f->dp.nmoves, 1);
	assert_int_equal(nsent, 1);
	controller_input(d, buf, len, CTLR, DARD_CP_PORT, S);
	assert_int_equal(d->st.cp_why[CPR_REPLAY], 1);
	assert_int_equal(f->dp.nmoves, 1);
	assert_int_equal(nsent, 1);
	/* Fresh but of an older round: stale, nothing moves back. */
	m = msg(f, DARD_CP_ASSIGN, 19, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	assign_add(m, k, (to + 1) % 4);
	push(f, m, 2 * S);
	assert_int_equal(d->st.cp_why[CPR_STALE], 1);
	assert_int_equal(f->dp.nmoves, 1);
	assert_int_equal(d->cp.epoch, 20);
	assert_int_equal(d->st.cp_refused, 10);
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
	assert_int_equal(d->st.cp_fallbacks, 0);
	assert_int_equal(d->cp.mode_wall_ns, WALL0 + S);
	/* Silent past it: DARD, every destination even, a round moves. */
	nwcalls = 0;
	wall = WALL0 + 4 * S;
	controller_tick(d, 13 * S + 1);
	assert_string_equal(controller_mode_name(d), "dard");
	assert_int_equal(d->cp.mode, CP_SILENT);
	assert_int_equal(d->cp.mode_wall_ns, WALL0 + 4 * S);
	assert_int_equal(d->st.cp_fallbacks, 1);
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
	assert_int_equal(d->st.cp_fallbacks, 1);
	fix_links(f, 0, 2, 22 * S);
	schedule(d, d->mons, 22 * S);
	assert_int_equal(d->st.rounds, 2);
	/* SELF and then silent: a fallback too. */
	controller_tick(d, 25 * S);
	assert_int_equal(d->cp.mode, CP_SILENT);
	assert_int_equal(d->st.cp_fallbacks, 2);
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
	assert_int_equal(d->st.cp_assigns, 1);
	assert_true(last_sent()->seq >= WALL0); /* the ACK's: our clock */
	/* dardd restarts 11 s later: the recording is refused. */
	cp_free(f);
	f = cp_new();
	d = &f->d;
	wall = WALL0 + 11 * S;
	controller_input(d, rec, len, CTLR, DARD_CP_PORT, S);
	assert_int_equal(d->st.cp_why[CPR_CLOCK], 1);
	assert_int_equal(d->st.cp_refused, 1);
	assert_int_equal(d->cp.seq_in, 0);
	assert_int_equal(d->cp.mode, CP_UNHEARD);
	/* A seq 11 s ahead: refused, it would lock the controller out. */
	cseq = wall + 11 * S;
	push(f, msg(f, DARD_CP_ASSIGN, 1, DARD_CP_F_FIRST | DARD_CP_F_LAST), S);
	assert_int_equal(d->st.cp_why[CPR_CLOCK], 2);
	/* An epoch 11 s ahead: refused, it would make real ones stale. */
	cseq = wall;
	push(f,
	     msg(f, DARD_CP_ASSIGN, (wall / S + 11) << 20,
		 DARD_CP_F_FIRST | DARD_CP_F_LAST),
	     S);
	assert_int_equal(d->st.cp_why[CPR_CLOCK], 3);
	assert_int_equal(d->cp.epoch, 0);
	/* The controller's next message: taken. */
	push(f,
	     msg(f, DARD_CP_ASSIGN, wall / S << 20,
		 DARD_CP_F_FIRST | DARD_CP_F_LAST),
	     S);
	assert_int_equal(d->st.cp_assigns, 1);
	assert_int_equal(d->st.cp_refused, 3);
	assert_true(controller_places(d));
	/* Our seq follows our clock, and never goes back when it does. */
	assert_true(last_sent()->seq >= wall);
	wall -= 5 * S;
	controller_tick(d, 2 * S);
	assert_true(last_sent()->seq > WALL0 + 11 * S);
	assert_string_equal(controller_refusal_name(CPR_CLOCK), "clock");
	cp_free(f);
}

/* A UDP socket on 127.0.0.1 with room for n small datagrams: its fd. */
static int lo_socket(struct sockaddr_in *sa)
{
	socklen_t salen = sizeof(*sa);
	int fd = socket(AF_INET, SOCK_DGRAM, 0), big = 1 << 20;

	assert_true(fd >= 0);
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(bind(fd, (struct sockaddr *)sa, sizeof(*sa)), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)sa, &salen), 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	return fd;
}

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
 * most DARDD_DRAIN_MAX datagrams, so the timer gets its turn; the rest
 * come at the next.
 */
static void test_drain(void **state)
{
	struct fix *f = cp_new();
	struct dardd *d = &f->d;
	struct sockaddr_in sa;

	(void)state;
	d->cp.fd = lo_socket(&sa);
	flood(&sa, DARDD_DRAIN_MAX + 3);
	assert_int_equal(controller_receive(d), DARDD_DRAIN_MAX);
	assert_int_equal(d->st.cp_why[CPR_SOURCE], DARDD_DRAIN_MAX);
	assert_int_equal(controller_receive(d), 3);
	assert_int_equal(controller_receive(d), 0);
	assert_int_equal(d->st.cp_refused, DARDD_DRAIN_MAX + 3);
	d->udp = lo_socket(&sa);
	flood(&sa, DARDD_DRAIN_MAX + 1);
	assert_int_equal(query_receive(d), DARDD_DRAIN_MAX);
	assert_int_equal(query_receive(d), 1);
	assert_int_equal(query_receive(d), 0);
	assert_int_equal(d->st.rejected, DARDD_DRAIN_MAX + 1);
	close(d->udp);
	d->udp = -1;
	cp_free(f); /* closes cp.fd */
}

/* No controller configured: nothing sent, mode dard, as before. */
static void test_none(void **state)
{
	struct fix *f = fix_new();
	struct dardd *d = &f->d;

	(void)state;
	assert_int_equal(controller_init(d), 0);
	d->cp.xmit = cp_xmit;
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
		cmocka_unit_test(test_assign_moves),
		cmocka_unit_test(test_assign_failed),
		cmocka_unit_test(test_assign_evidence),
		cmocka_unit_test(test_assign_set),
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_weights_algo),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_mode),
		cmocka_unit_test(test_reports),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_drain),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
