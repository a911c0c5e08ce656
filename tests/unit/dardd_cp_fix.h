/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dardd's controller client (test_dardd_controller.c,
 * test_dardd_ctlr_link.c): the fixture's dardd with a controller
 * configured, a fake controller whose messages libdard's cproto encodes,
 * what dardd sends it decoded and checked, and set_weights and the wall
 * clock faked. Include after <cmocka.h>.
 */
#ifndef _DARD_TEST_DARDD_CP_FIX_H
#define _DARD_TEST_DARDD_CP_FIX_H

#include "dardd_fix.h"

#define S 1000000000ULL
#define CTLR 0x0a640063U /* 10.100.0.99, the controller */

/* What dardd sent the controller, decoded. */
enum { SENT_MAX = 8 };
static struct dard_cp_msg sent[SENT_MAX];
static unsigned nsent;
static uint64_t last_seq;

static inline ssize_t cp_xmit(struct dardd *d, const void *buf, size_t len)
{
	struct dard_cp_msg *m = &sent[nsent % SENT_MAX];
	char err[DARD_ERR_MAX];

	if (dard_cp_decode(buf, len, d->keys, m, err))
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

static inline int fake_set_weights(struct dard_dp *dp, uint32_t id,
				   const uint16_t *w, unsigned n)
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

static inline uint64_t fake_wall_ns(void)
{
	return wall;
}

/* The fixture's dardd with a controller configured, just started. */
static inline struct fix *cp_new(void)
{
	struct fix *f = fix_new();
	struct dardd *d = &f->d;

	ops_w = fake_ops;
	ops_w.set_weights = fake_set_weights;
	d->ops = &ops_w;
	d->o.controller = CTLR;
	assert_int_equal(controller_init(d), 0);
	fix_cp_xmit = cp_xmit;
	d->io.wall_ns = fake_wall_ns;
	wall = WALL0;
	nsent = nwcalls = 0;
	wret = 0;
	last_seq = 0;
	return f;
}

static inline void cp_free(struct fix *f)
{
	controller_fini(&f->d);
	fix_free(f);
}

/* The controller's seq: above every one before, near the wall clock. */
static uint64_t cseq = WALL0;

/* A controller message of type, epoch and flags, for f's tree. */
static inline struct dard_cp_msg *msg(struct fix *f, unsigned type,
				      uint64_t epoch, unsigned flags)
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

static inline void assign_add(struct dard_cp_msg *m, struct dard_flow_key k,
			      unsigned path)
{
	m->flow[m->count].key = k;
	m->flow[m->count++].path = path;
}

/* m signed with k, from addr:port, to dardd at now. */
static inline void push_as(struct fix *f, const struct dard_cp_msg *m,
			   const struct dard_key *k, uint32_t addr,
			   uint16_t port, uint64_t now)
{
	uint8_t buf[DARD_CP_MSG_MAX];
	size_t len = dard_cp_encode(buf, sizeof(buf), k, m);

	assert_true(len > 0);
	controller_input(&f->d, buf, len, addr, port, now);
}

static inline void push(struct fix *f, const struct dard_cp_msg *m,
			uint64_t now)
{
	struct dard_key k = fix_mac_key();

	push_as(f, m, &k, CTLR, DARD_CP_PORT, now);
}

static inline struct elephant *el(struct fix *f, const char *dst,
				  uint16_t sport)
{
	struct dard_flow_key k = fix_key(f, dst, sport);

	return el_find(&f->d, &k);
}

/* The i-th of dard_path_foreach's paths from e1_1 to dst. */
struct nth {
	unsigned i, want;
	struct dard_path p;
};

static inline int nth_cb(const struct dard_path *p, void *arg)
{
	struct nth *n = arg;

	if (n->i++ != n->want)
		return 0;
	n->p = *p;
	return 1;
}

static inline struct dard_alias_pair host_pair(struct fix *f, const char *dst,
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

static inline const struct dard_cp_msg *last_sent(void)
{
	assert_true(nsent > 0);
	return &sent[(nsent - 1) % SENT_MAX];
}

/* Calls that weighed host `dst' since call `from': the last one's index. */
static inline int wcall_of(struct fix *f, const char *dst, unsigned from)
{
	uint32_t id = f->t->node[find(f->t, dst)].id;
	int last = -1;
	unsigned i;

	for (i = from; i < nwcalls; i++)
		if (wcall[i].id == id)
			last = i;
	return last;
}

#endif /* _DARD_TEST_DARDD_CP_FIX_H */
