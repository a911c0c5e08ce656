/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dardd's pieces on fattree:4 as host e1_1, without sockets or BPF: a
 * fake datapath (its flow table, idle flows and moves are the test's)
 * and a fake query transmitter that records what would go to each
 * switch. Include after <cmocka.h>.
 */
#ifndef _DARD_TEST_DARDD_FIX_H
#define _DARD_TEST_DARDD_FIX_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "dardd_priv.h"
#include "ctl.h"
#include "dead.h"
#include "flows.h"
#include "keyfile.h"
#include "monitors.h"
#include "query.h"
#include "schedule.h"
#include "track.h"
#include "watch.h"
#include "log.h"
#include "unit.h"

enum { FAKE_FLOWS_MAX = 16 };

/* The datapath as the test sets it up. */
struct fake_dp {
	struct dard_flow_key key[FAKE_FLOWS_MAX];
	struct dard_flow flow[FAKE_FLOWS_MAX];
	unsigned nflows;
	int flows_ret; /* < 0: the walk fails after visiting every flow */
	struct dard_flow_key idle[FAKE_FLOWS_MAX];
	unsigned nidle;
	uint64_t idle_ns; /* what the last sweep was asked for */
	int open_ret;	  /* open: 0, the datapath is there; < 0 as it fails */
	int move_ret;
	unsigned nmoves;
	struct dard_flow_key moved;
	struct dard_alias_pair moved_to;
	/* set_dead: every call, the last bitmap per destination ID. */
	int dead_ret;
	unsigned ndead_calls, ndead;
	uint32_t dead_id[FAKE_FLOWS_MAX];
	uint64_t dead[FAKE_FLOWS_MAX][DARD_PATHS_MAX / 64];
	uint64_t stats[__DARD_STAT_MAX]; /* what stats reads */
};

struct fix {
	struct dardd d; /* first: the fakes find the fixture from it */
	struct dard_topo *t;
	struct dard_plan *p;
	struct fake_dp dp;
	unsigned nsent;
	int xmit_ret;		    /* < 0: sendto fails */
	uint64_t sent_seq[64];	    /* last query's seq, by node */
	uint8_t sent_type[64];	    /* a query or a watch */
	unsigned sent_ports[64];    /* and how many ports it asked */
	uint16_t sent_port[64][16]; /* which */
};

static inline struct fake_dp *fake(struct dard_dp *dp)
{
	return (struct fake_dp *)dp;
}

/* dardd's open of a datapath already there: the fixture's fake. */
static int fake_open(struct dard_dp **dp, const char *ifname,
		     const char *pin_root)
{
	(void)ifname;
	(void)pin_root;
	return fake(*dp)->open_ret;
}

static int fake_flows(struct dard_dp *dp, dard_dp_flow_cb cb, void *arg)
{
	struct fake_dp *f = fake(dp);
	unsigned i;

	for (i = 0; i < f->nflows; i++)
		cb(&f->key[i], &f->flow[i], arg);
	return f->flows_ret;
}

static int fake_sweep(struct dard_dp *dp, uint64_t idle_ns, dard_dp_event_cb cb,
		      void *arg)
{
	struct fake_dp *f = fake(dp);
	struct dard_event ev = {.type = DARD_EVENT_END};
	unsigned i;

	f->idle_ns = idle_ns;
	for (i = 0; i < f->nidle; i++) {
		ev.key = f->idle[i];
		cb(&ev, arg);
	}
	i = f->nidle;
	f->nidle = 0;
	return i;
}

static int fake_move(struct dard_dp *dp, const struct dard_flow_key *key,
		     const struct dard_alias_pair *path)
{
	struct fake_dp *f = fake(dp);

	if (f->move_ret)
		return f->move_ret;
	f->nmoves++;
	f->moved = *key;
	f->moved_to = *path;
	return 0;
}

static int fake_set_dead(struct dard_dp *dp, uint32_t id, const uint64_t *dead)
{
	struct fake_dp *f = fake(dp);
	unsigned i;

	f->ndead_calls++;
	if (f->dead_ret)
		return f->dead_ret;
	for (i = 0; i < f->ndead && f->dead_id[i] != id; i++)
		;
	assert_true(i < FAKE_FLOWS_MAX);
	if (i == f->ndead)
		f->dead_id[f->ndead++] = id;
	memcpy(f->dead[i], dead, sizeof(f->dead[i]));
	return 0;
}

static int fake_stats(struct dard_dp *dp, uint64_t *out)
{
	memcpy(out, fake(dp)->stats, sizeof(fake(dp)->stats));
	return 0;
}

static const struct dard_dp_ops fake_ops = {
	.name = "fake",
	.open = fake_open,
	.flows = fake_flows,
	.sweep = fake_sweep,
	.move = fake_move,
	.set_dead = fake_set_dead,
	.stats = fake_stats,
};

/* What the controller and the ToR's peers get, where a test wants it. */
static ssize_t (*fix_cp_xmit)(struct dardd *d, const void *buf, size_t len);
static ssize_t (*fix_share_xmit)(struct dardd *d, const void *buf, size_t len,
				 uint32_t mgmt);

/* dardd's one way out (io.h): queries recorded, the rest handed on. */
static ssize_t fake_xmit(struct dardd *d, enum dardd_sock sock, const void *buf,
			 size_t len, uint32_t mgmt)
{
	struct fix *f = (struct fix *)d;
	char err[DARD_ERR_MAX];
	static struct dard_msg msg;
	uint32_t n = query_switch_at(d, mgmt);

	if (sock == DARDD_SOCK_CONTROLLER) {
		assert_non_null(fix_cp_xmit);
		return fix_cp_xmit(d, buf, len);
	}
	if (sock == DARDD_SOCK_SHARE) {
		assert_non_null(fix_share_xmit);
		return fix_share_xmit(d, buf, len, mgmt);
	}
	if (f->xmit_ret < 0)
		return f->xmit_ret;
	if (dard_proto_decode(buf, len, d->keys, &msg, err))
		fail_msg("dardd sent a bad query: %s", err);
	assert_true(dard_proto_asks(msg.type));
	assert_true(n < 64);
	f->sent_type[n] = msg.type;
	f->sent_seq[n] = msg.seq;
	f->sent_ports[n] = msg.count;
	assert_true(msg.count <= 16);
	/* Padded so that the agent may answer every port asked. */
	assert_true(len + DARD_PROTO_SLACK >= dard_proto_reply_len(msg.count));
	memcpy(f->sent_port[n], msg.ports, msg.count * sizeof(msg.ports[0]));
	f->nsent++;
	return len;
}

/* Every switch gets a management address: 10.100.0.(n + 1). */
static inline uint32_t fix_mgmt(uint32_t n)
{
	return 0x0a640001 + n;
}

/* The deployment's key in the tests: id 7, bytes 0..31. */
static inline struct dard_key fix_mac_key(void)
{
	struct dard_key k = {.id = 7};
	unsigned i;

	for (i = 0; i < DARD_KEY_LEN; i++)
		k.k[i] = i;
	return k;
}

/* Switch n's agent sends len bytes of buf to dardd, from its port. */
static inline void fix_from(struct fix *f, uint32_t n, const void *buf,
			    size_t len, uint64_t now)
{
	query_reply(&f->d, buf, len, fix_mgmt(n), f->d.o.switch_port, now);
}

/* dardd's state over the fixture's network and fake datapath. */
static inline void fix_start(struct fix *f)
{
	struct dardd *d = &f->d;

	memset(d, 0, sizeof(*d));
	d->t = f->t;
	d->pc = dard_pathctx_new(f->t, f->p);
	assert_non_null(d->pc);
	d->me = find(f->t, "e1_1");
	d->my_tor = dard_topo_tor(f->t, d->me);
	/* dardd's own defaults: the paper's intervals, delta 10 Mbit/s. */
	dardd_opts_defaults(&d->o);
	d->ops = &fake_ops;
	d->dp = (struct dard_dp *)&f->dp;
	io_init(d);
	d->io.xmit = fake_xmit;
	assert_int_equal(links_init(d), 0);
	assert_int_equal(query_init(d), 0);
	/* As query_open holds them, which query_fini frees. */
	d->keys = dard_keys_alloc();
	assert_non_null(d->keys);
	*d->keys = (struct dard_keys){.n = 1, .key = {fix_mac_key()}};
	elephants_init(d);
	monitors_init(d, 1);
	/* The watch (watch.c) only where a test starts it: watch_init. */
	assert_int_equal(dead_init(d), 0);
}

/* dardd exits as it does: the datapath's state stays. */
static inline void fix_stop(struct fix *f)
{
	elephants_fini(&f->d);
	assert_null(f->d.els);
	monitors_fini(&f->d);
	assert_null(f->d.mons);
	watch_fini(&f->d);
	dead_fini(&f->d);
	query_fini(&f->d);
	links_fini(&f->d);
	dard_pathctx_free(f->d.pc);
}

static inline struct fix *fix_new(void)
{
	struct fix *f = calloc(1, sizeof(*f));
	uint32_t n;

	assert_non_null(f);
	/* Quiet: what the tests look at is the state, not the log. */
	dard_log_init("dardd", DARD_LOG_ERR);
	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &f->t, &f->p);
	for (n = 0; n < f->t->nnodes; n++)
		if (!f->t->node[n].is_host)
			f->t->node[n].mgmt = fix_mgmt(n);
	fix_start(f);
	return f;
}

static inline void fix_free(struct fix *f)
{
	fix_stop(f);
	dard_plan_free(f->p);
	dard_topo_free(f->t);
	free(f);
}

/* A TCP flow from e1_1 to host dst, by source port. */
static inline struct dard_flow_key fix_key(struct fix *f, const char *dst,
					   uint16_t sport)
{
	struct dard_flow_key k = {0};

	k.saddr = htonl(f->t->node[f->d.me].id);
	k.daddr = htonl(f->t->node[find(f->t, dst)].id);
	k.sport = htons(sport);
	k.dport = htons(5001);
	k.proto = 6;
	return k;
}

/* The alias pair of the i-th path (from 0) of e1_1's monitor towards dst. */
/* Our elephant to host dst from port sport, or NULL. */
static inline struct elephant *fix_el(struct fix *f, const char *dst,
				      uint16_t sport)
{
	struct dard_flow_key k = fix_key(f, dst, sport);

	return el_find(&f->d, &k);
}

static inline struct dard_alias_pair fix_pair(struct fix *f, const char *dst,
					      unsigned i)
{
	uint32_t h = find(f->t, dst);
	char err[DARD_ERR_MAX];
	struct dard_monitor *m = dard_monitor_new(f->d.pc, f->t, f->d.me,
						  dard_topo_tor(f->t, h), err);
	struct dard_alias_pair pair;
	struct dard_path p;

	if (!m)
		fail_msg("%s", err);
	assert_true(i < m->npaths);
	assert_int_equal(dard_path_make(f->d.pc, f->d.me, h, m->path[i].sw,
					m->path[i].nsw, &p),
			 0);
	dard_monitor_free(m);
	pair.saddr = htonl(p.saddr);
	pair.daddr = htonl(p.daddr);
	return pair;
}

/* The datapath reports an elephant on the i-th path. */
static inline void fix_elephant(struct fix *f, const char *dst, uint16_t sport,
				unsigned path)
{
	struct dard_event ev = {.type = DARD_EVENT_ELEPHANT};

	ev.key = fix_key(f, dst, sport);
	ev.path = fix_pair(f, dst, path);
	flows_on_event(&ev, &f->d);
}

/*
 * The datapath's flow table holds one elephant, e1_1's to e2_1 from port
 * 1 on the first path: bytes sent so far, its last packet at now.
 */
static inline void fix_table(struct fix *f, uint64_t bytes, uint64_t now)
{
	f->dp.nflows = 1;
	f->dp.key[0] = fix_key(f, "e2_1", 1);
	f->dp.flow[0].path = fix_pair(f, "e2_1", 0);
	f->dp.flow[0].flags = DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED;
	f->dp.flow[0].bytes = bytes;
	f->dp.flow[0].last_ns = now;
}

/* The last dead bitmap set for host `dst', or NULL if none was. */
static inline const uint64_t *fix_dead(struct fix *f, const char *dst)
{
	uint32_t id = f->t->node[find(f->t, dst)].id;
	unsigned i;

	for (i = 0; i < f->dp.ndead; i++)
		if (f->dp.dead_id[i] == id)
			return f->dp.dead[i];
	return NULL;
}

static inline unsigned fix_nels(struct fix *f)
{
	struct elephant *e;
	unsigned n = 0;

	for (e = f->d.els; e; e = e->next)
		n++;
	return n;
}

/* Every link known at now, 1000 Mbit/s, n elephants on path's links. */
static inline void fix_links(struct fix *f, unsigned path, uint32_t n,
			     uint64_t now)
{
	const struct dard_path_links *pl = &f->d.mons->m->links[path];
	uint32_t i;

	for (i = 0; i < 2 * f->t->nlinks; i++) {
		f->d.links.ls[i] =
			(struct dard_lstate){.mbps = 1000, .known = 1};
		f->d.links.when[i] = now;
	}
	for (i = 0; i < pl->n; i++)
		f->d.links.ls[pl->dl[i]].flows = n;
}

#endif /* _DARD_TEST_DARDD_FIX_H */
