// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-controller without sockets: hosts' datagrams into ctlr_receive,
 * ctlr_round, and what its xmit hook would have sent, decoded. A
 * permutation under sdn-optimal gets L_D = 1; every refusal is counted;
 * a silent host is forgotten; a FAILED ack is counted and its flow placed
 * again; sdn-adaptive says SELF past a permutation; sdn-greedy keeps its
 * flows off a link a switch's agent reports down, and a silent agent is
 * not a dead link; path sets nobody uses go once they are many.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <arpa/inet.h>
#include <cmocka.h>

#include "cfgfile.h"
#include "clock.h"
#include "ctlr.h"
#include "proto.h"
#include "unit.h"

#define SEC 1000000000ULL

static struct dard_config cfg;
static struct dard_keys keys = {.n = 1};
static struct ctlr c;
static char err[DARD_ERR_MAX + 4096];

/* What the controller sent: decoded datagrams and where to. */
enum { SENT_MAX = 256 };
static struct sent {
	struct dard_cp_msg m;
	uint32_t addr;
	uint16_t port;
} sent[SENT_MAX];
static unsigned nsent;
/* The switch queries of the last links_query. */
enum { SWQ_MAX = 64 };
static struct {
	uint8_t buf[DARD_MSG_MAX];
	size_t len;
	uint32_t addr;
} swq[SWQ_MAX];
static unsigned nswq;
/* The hosts' seqs: their clocks (cproto.h), set by start_on. */
static uint64_t seq;

static ssize_t fake_xmit(struct ctlr *cc, const void *buf, size_t len,
			 uint32_t addr, uint16_t port)
{
	char e[DARD_ERR_MAX];

	assert_true(nsent < SENT_MAX);
	assert_int_equal(dard_cp_decode(buf, len, &keys, &sent[nsent].m, e), 0);
	sent[nsent].addr = addr;
	sent[nsent].port = port;
	nsent++;
	return len;
}

/* Every switch query, kept for a reply to it. */
static ssize_t fake_switch(struct ctlr *cc, const void *buf, size_t len,
			   uint32_t addr, uint16_t port)
{
	assert_true(nswq < SWQ_MAX && len <= DARD_MSG_MAX);
	assert_int_equal(port, DARD_PROTO_PORT);
	memcpy(swq[nswq].buf, buf, len);
	swq[nswq].len = len;
	swq[nswq].addr = addr;
	nswq++;
	return len;
}

static void start_on(int algo, const char *spec)
{
	struct ctlr_opts o = {.algo = algo,
			      .interval_ns = SEC,
			      .host_timeout_ns = 3 * SEC,
			      .query_ns = SEC,
			      .port = DARD_CP_PORT,
			      .switch_port = DARD_PROTO_PORT};
	struct dard_load_opts lo = {.mbps = 100};
	unsigned i;

	keys.key[0].id = 5;
	for (i = 0; i < DARD_KEY_LEN; i++)
		keys.key[0].k[i] = 7 * i + 1;
	assert_int_equal(dard_topo_load(&cfg, spec, &lo, err, sizeof(err)), 0);
	assert_int_equal(ctlr_init(&c, &cfg, &keys, &o, err), 0);
	c.xmit = fake_xmit;
	c.xmit_switch = fake_switch;
	nsent = 0;
	seq = dard_clock_ns(CLOCK_REALTIME);
}

static void start(int algo)
{
	start_on(algo, "fattree:4");
}

static void stop(void)
{
	ctlr_fini(&c);
	dard_config_free(&cfg);
}

static const struct dard_node *host(unsigned rank)
{
	return &cfg.topo->node[cfg.topo->hosts[rank]];
}

/* A host's datagram, as its dardd would send it; returns its length. */
static size_t host_msg(uint8_t *buf, unsigned type, unsigned src,
		       const unsigned *dst, const uint16_t *path, unsigned n,
		       unsigned flags)
{
	static struct dard_cp_msg m;
	unsigned i;

	memset(&m, 0, sizeof(m));
	m.type = type;
	m.flags = flags;
	m.sender = host(src)->id;
	m.topo = dard_cp_topo_digest(cfg.topo);
	m.seq = ++seq;
	m.count = n;
	for (i = 0; i < n; i++) {
		m.flow[i].key.saddr = htonl(host(src)->id);
		m.flow[i].key.daddr = htonl(host(dst[i])->id);
		m.flow[i].key.sport = htons(40000 + i);
		m.flow[i].key.dport = htons(5201);
		m.flow[i].key.proto = IPPROTO_TCP;
		m.flow[i].path = path ? path[i] : 0;
		if (type == DARD_CP_ACK)
			m.flow[i].flags = DARD_CP_FL_FAILED;
	}
	return dard_cp_encode(buf, DARD_CP_MSG_MAX, &keys.key[0], &m);
}

/* Host src reports flows to dst[0..n-1] with flags, at now. */
static void report_flags(unsigned src, const unsigned *dst, unsigned n,
			 unsigned flags, uint64_t now)
{
	uint8_t buf[DARD_CP_MSG_MAX];
	size_t len = host_msg(buf, DARD_CP_REPORT, src, dst, NULL, n, flags);

	assert_true(len > 0);
	ctlr_receive(&c, buf, len, host(src)->mgmt, 40000, now);
}

/* A full report, in one datagram. */
static void report(unsigned src, const unsigned *dst, unsigned n, uint64_t now)
{
	report_flags(src, dst, n, DARD_CP_F_FIRST | DARD_CP_F_LAST, now);
}

/* The ASSIGN sent to host rank r this round, or NULL. */
static const struct dard_cp_msg *assign_to(unsigned r)
{
	unsigned i;

	for (i = 0; i < nsent; i++)
		if (sent[i].addr == host(r)->mgmt)
			return &sent[i].m;
	return NULL;
}

/* The L_D of the paths pushed, from the controller's own path sets. */
static uint32_t pushed_max_load(void)
{
	uint32_t *load = calloc(2 * cfg.topo->nlinks, sizeof(*load)), m = 0;
	unsigned i, j, k;

	assert_non_null(load);
	for (i = 0; i < nsent; i++)
		for (j = 0; j < sent[i].m.count; j++) {
			const struct dard_cp_flow *f = &sent[i].m.flow[j];
			uint32_t s = dard_topo_find_id(cfg.topo,
						       ntohl(f->key.saddr));
			uint32_t d = dard_topo_find_id(cfg.topo,
						       ntohl(f->key.daddr));
			const struct cpset *ps;

			assert_int_equal(paths_get(&c, s, d, &ps), 0);
			assert_true(f->path < ps->npaths);
			for (k = 0; k < ps->ndl; k++)
				load[ps->dl[f->path * ps->ndl + k]]++;
		}
	for (i = 0; i < 2 * cfg.topo->nlinks; i++)
		m = load[i] > m ? load[i] : m;
	free(load);
	return m;
}

static void test_optimal_permutation(void **state)
{
	unsigned perm[16], i, hits = 0;
	const struct dard_cp_msg *m;

	(void)state;
	start(DARD_CP_ALGO_OPTIMAL);
	assert_int_equal(cfg.topo->nhosts, 16);
	/* Host i to i + 4 (mod 16): every flow leaves its pod. */
	for (i = 0; i < 16; i++) {
		perm[i] = (i + 4) % 16;
		report(i, &perm[i], 1, SEC);
	}
	assert_int_equal(c.st.reports, 16);
	assert_int_equal(ctlr_round(&c, SEC + 1), 0);
	assert_int_equal(nsent, 16);
	for (i = 0; i < 16; i++) {
		m = assign_to(i);
		assert_non_null(m);
		assert_int_equal(m->type, DARD_CP_ASSIGN);
		assert_int_equal(m->algo, DARD_CP_ALGO_OPTIMAL);
		assert_int_equal(m->flags, DARD_CP_F_FIRST | DARD_CP_F_LAST);
		assert_int_equal(m->sender, 0);
		assert_int_equal(m->epoch, c.epoch);
		assert_int_equal(m->count, 1);
		assert_int_equal(ntohl(m->flow[0].key.daddr),
				 host(perm[i])->id);
		hits += sent[i].port == 40000;
	}
	assert_int_equal(hits, 16);
	assert_int_equal(pushed_max_load(), 1);
	assert_int_equal(c.st.last_max_load, 1);
	/* The same demand next round: nothing recomputed, nothing moves. */
	nsent = 0;
	assert_int_equal(ctlr_round(&c, SEC + 2), 0);
	assert_int_equal(c.st.recomputed, 1);
	assert_int_equal(pushed_max_load(), 1);
	assert_true(sent[0].m.epoch > c.epoch_base + 1);
	stop();
}

/* A datagram from host 0, made bad in one way, is refused and counted. */
static void test_refusals(void **state)
{
	uint8_t buf[DARD_CP_MSG_MAX];
	unsigned dst = 5;
	struct dard_cp_msg m = {.type = DARD_CP_REPORT,
				.flags = DARD_CP_F_FIRST | DARD_CP_F_LAST};
	size_t len;

	(void)state;
	start(DARD_CP_ALGO_GREEDY);
	/* Bad MAC. */
	len = host_msg(buf, DARD_CP_REPORT, 0, &dst, NULL, 1, 0);
	buf[len - 1] ^= 1;
	ctlr_receive(&c, buf, len, host(0)->mgmt, 1, SEC);
	assert_int_equal(c.st.refused[CR_MAC], 1);
	/* Not our protocol. */
	ctlr_receive(&c, "hello", 5, host(0)->mgmt, 1, SEC);
	assert_int_equal(c.st.refused[CR_PROTO], 1);
	/* From no host's management address: not even its MAC checked. */
	ctlr_receive(&c, buf, len, 0x0a090909, 1, SEC);
	assert_int_equal(c.st.refused[CR_SOURCE], 1);
	assert_int_equal(c.st.refused[CR_MAC], 1);
	/* Sender no host of ours. */
	m.sender = 0x01020304;
	m.topo = c.topo;
	m.seq = ++seq;
	len = dard_cp_encode(buf, sizeof(buf), &keys.key[0], &m);
	ctlr_receive(&c, buf, len, host(0)->mgmt, 1, SEC);
	assert_int_equal(c.st.refused[CR_SENDER], 1);
	/* From another host's management address. */
	len = host_msg(buf, DARD_CP_REPORT, 0, &dst, NULL, 1, 0);
	ctlr_receive(&c, buf, len, host(1)->mgmt, 1, SEC);
	assert_int_equal(c.st.refused[CR_SOURCE], 2);
	/* Another topology. */
	m.sender = host(0)->id;
	m.topo = c.topo ^ 1;
	m.seq = ++seq;
	len = dard_cp_encode(buf, sizeof(buf), &keys.key[0], &m);
	ctlr_receive(&c, buf, len, host(0)->mgmt, 1, SEC);
	assert_int_equal(c.st.refused[CR_TOPO], 1);
	/* A good one, then it again: a replay. */
	len = host_msg(buf, DARD_CP_REPORT, 0, &dst, NULL, 1,
		       DARD_CP_F_FIRST | DARD_CP_F_LAST);
	ctlr_receive(&c, buf, len, host(0)->mgmt, 1, SEC);
	assert_int_equal(c.st.reports, 1);
	ctlr_receive(&c, buf, len, host(0)->mgmt, 1, SEC);
	assert_int_equal(c.st.refused[CR_REPLAY], 1);
	assert_int_equal(c.st.reports, 1);
	/* After our restart: a recording 11 s old, a seq 11 s ahead. */
	stop();
	start(DARD_CP_ALGO_GREEDY);
	m = (struct dard_cp_msg){.type = DARD_CP_REPORT,
				 .flags = DARD_CP_F_FIRST | DARD_CP_F_LAST,
				 .sender = host(0)->id,
				 .topo = c.topo,
				 .seq = seq - 11 * SEC};
	len = dard_cp_encode(buf, sizeof(buf), &keys.key[0], &m);
	ctlr_receive(&c, buf, len, host(0)->mgmt, 1, SEC);
	m.seq = seq + 11 * SEC;
	len = dard_cp_encode(buf, sizeof(buf), &keys.key[0], &m);
	ctlr_receive(&c, buf, len, host(0)->mgmt, 1, SEC);
	assert_int_equal(c.st.refused[CR_CLOCK], 2);
	assert_int_equal(c.st.reports, 0);
	/* The real host's next one is taken. */
	len = host_msg(buf, DARD_CP_REPORT, 0, &dst, NULL, 1,
		       DARD_CP_F_FIRST | DARD_CP_F_LAST);
	ctlr_receive(&c, buf, len, host(0)->mgmt, 1, SEC);
	assert_int_equal(c.st.reports, 1);
	/* A flow that is not the sender's; a path beyond the pair's. */
	m = (struct dard_cp_msg){.type = DARD_CP_REPORT,
				 .sender = host(0)->id,
				 .topo = c.topo,
				 .seq = ++seq,
				 .count = 2};
	m.flow[0].key.saddr = htonl(host(3)->id);
	m.flow[0].key.daddr = htonl(host(5)->id);
	m.flow[1].key.saddr = htonl(host(0)->id);
	m.flow[1].key.daddr = htonl(host(5)->id);
	m.flow[1].path = 4; /* fattree:4 has 4 paths between pods */
	len = dard_cp_encode(buf, sizeof(buf), &keys.key[0], &m);
	ctlr_receive(&c, buf, len, host(0)->mgmt, 1, SEC);
	assert_int_equal(c.st.refused[CR_FLOW], 2);
	assert_int_equal(c.host[0].nflows, 1);
	/* Nothing refused was ever answered. */
	assert_int_equal(nsent, 0);
	stop();
}

/* The destination of host 0's flow i (ports 40000 + i, host_msg). */
static unsigned flow_dst(unsigned i)
{
	return dard_topo_find_id(cfg.topo, ntohl(c.host[0].flow[i].key.daddr));
}

/*
 * A full report replaces the host's flows; datagrams without FIRST and
 * LAST add flows, END ends one; a set over several datagrams drops at
 * its LAST what it did not name.
 */
static void test_report_sets(void **state)
{
	uint8_t buf[DARD_CP_MSG_MAX];
	unsigned two[2] = {5, 9}, one = 13;
	size_t len;

	(void)state;
	start(DARD_CP_ALGO_GREEDY);
	report(0, two, 2, SEC);
	assert_int_equal(c.host[0].nflows, 2);
	/* Incremental: a flow to 13 (its port 40000 is the first's too,
	 * but the destination differs: another flow). */
	report_flags(0, &one, 1, 0, SEC);
	assert_int_equal(c.host[0].nflows, 3);
	/* It ends. */
	{
		static struct dard_cp_msg m;
		char e[DARD_ERR_MAX];

		len = host_msg(buf, DARD_CP_REPORT, 0, &one, NULL, 1, 0);
		assert_int_equal(dard_cp_decode(buf, len, &keys, &m, e), 0);
		m.flow[0].flags = DARD_CP_FL_END;
		m.seq = ++seq;
		len = dard_cp_encode(buf, sizeof(buf), &keys.key[0], &m);
		ctlr_receive(&c, buf, len, host(0)->mgmt, 40000, SEC);
	}
	assert_int_equal(c.host[0].nflows, 2);
	/* A set over two datagrams naming one new flow (to 9, port 40000):
	 * kept as it comes, and at the set's LAST the two it did not name
	 * are gone. */
	report_flags(0, &two[1], 1, DARD_CP_F_FIRST, SEC);
	assert_int_equal(c.host[0].nflows, 3);
	report_flags(0, NULL, 0, DARD_CP_F_LAST, SEC);
	assert_int_equal(c.host[0].nflows, 1);
	assert_int_equal(flow_dst(0), cfg.topo->hosts[9]);
	/* An empty full report: none left. */
	report(0, NULL, 0, SEC);
	assert_int_equal(c.host[0].nflows, 0);
	stop();
}

/* A host may keep CTLR_HOST_FLOWS_MAX flows, no more. */
static void test_flows_bounded(void **state)
{
	static struct dard_cp_msg m;
	uint8_t buf[DARD_CP_MSG_MAX];
	unsigned i, j, sent_flows = 0;
	size_t len;

	(void)state;
	start(DARD_CP_ALGO_GREEDY);
	for (i = 0; sent_flows < CTLR_HOST_FLOWS_MAX + 10; i++) {
		m = (struct dard_cp_msg){.type = DARD_CP_REPORT,
					 .sender = host(0)->id,
					 .topo = c.topo,
					 .seq = ++seq,
					 .count = DARD_CP_FLOWS_MAX};
		for (j = 0; j < DARD_CP_FLOWS_MAX; j++, sent_flows++) {
			m.flow[j].key.saddr = htonl(host(0)->id);
			m.flow[j].key.daddr = htonl(host(5)->id);
			m.flow[j].key.sport = htons(sent_flows & 0xffff);
			m.flow[j].key.dport = htons(sent_flows >> 16);
			m.flow[j].key.proto = IPPROTO_UDP;
		}
		len = dard_cp_encode(buf, sizeof(buf), &keys.key[0], &m);
		ctlr_receive(&c, buf, len, host(0)->mgmt, 40000, SEC);
	}
	assert_int_equal(c.host[0].nflows, CTLR_HOST_FLOWS_MAX);
	assert_int_equal(c.st.refused[CR_FLOW],
			 sent_flows - CTLR_HOST_FLOWS_MAX);
	assert_int_equal(c.nflows, CTLR_HOST_FLOWS_MAX);
	stop();
}

/* All hosts together keep c.flows_max flows; one that ends makes room. */
static void test_flows_bounded_globally(void **state)
{
	unsigned two[2] = {5, 9}, one = 13;

	(void)state;
	start(DARD_CP_ALGO_GREEDY);
	c.flows_max = 3;
	report(0, two, 2, SEC);
	report(1, two, 2, SEC);
	assert_int_equal(c.nflows, 3);
	assert_int_equal(c.host[1].nflows, 1);
	assert_int_equal(c.st.refused[CR_FLOW], 1);
	/* Host 0's full report without its flow to 9: room for another. */
	report(0, two, 1, SEC);
	report_flags(2, &one, 1, 0, SEC);
	assert_int_equal(c.host[2].nflows, 1);
	assert_int_equal(c.nflows, 3);
	/* A silent host's flows forgotten: its count gone too. */
	assert_int_equal(ctlr_round(&c, 5 * SEC), 0);
	assert_int_equal(c.nflows, 0);
	stop();
}

static void test_silent_host_forgotten(void **state)
{
	unsigned dst = 9;

	(void)state;
	start(DARD_CP_ALGO_GREEDY);
	report(0, &dst, 1, SEC);
	assert_int_equal(ctlr_round(&c, 2 * SEC), 0);
	assert_int_equal(nsent, 1);
	nsent = 0;
	/* Past the 3 s timeout: forgotten, pushed nothing. */
	assert_int_equal(ctlr_round(&c, 5 * SEC), 0);
	assert_int_equal(nsent, 0);
	assert_int_equal(c.st.forgotten, 1);
	assert_int_equal(c.host[0].nflows, 0);
	/* An empty report (the keepalive) brings a heartbeat back. */
	report(0, NULL, 0, 6 * SEC);
	assert_int_equal(ctlr_round(&c, 6 * SEC), 0);
	assert_int_equal(nsent, 1);
	assert_int_equal(sent[0].m.count, 0);
	assert_int_equal(sent[0].m.flags, DARD_CP_F_FIRST | DARD_CP_F_LAST);
	/* Our seq and epoch are clock times a host takes (cproto.h). */
	assert_int_equal(dard_cp_seq_check(sent[0].m.seq, 0,
					   dard_clock_ns(CLOCK_REALTIME), err),
			 0);
	assert_true(sent[0].m.epoch >> 20 >=
		    dard_clock_ns(CLOCK_REALTIME) / SEC - 10);
	stop();
}

/* After a stall, silence counts up to the last drain of the socket. */
static void test_expiry_since_drain(void **state)
{
	unsigned dst = 9;

	(void)state;
	start(DARD_CP_ALGO_GREEDY);
	report(0, &dst, 1, SEC);
	c.drained_ns = 2 * SEC; /* then 8 s without reading the socket */
	assert_int_equal(ctlr_round(&c, 10 * SEC), 0);
	assert_int_equal(c.st.forgotten, 0);
	assert_int_equal(nsent, 1);
	/* Read empty at 10 s: silent indeed. */
	c.drained_ns = 10 * SEC;
	assert_int_equal(ctlr_round(&c, 10 * SEC), 0);
	assert_int_equal(c.st.forgotten, 1);
	stop();
}

static void test_ack_failed(void **state)
{
	uint8_t buf[DARD_CP_MSG_MAX];
	uint64_t moves;
	unsigned dst = 9;
	size_t len;

	(void)state;
	start(DARD_CP_ALGO_GREEDY);
	report(0, &dst, 1, SEC);
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(c.host[0].flow[0].assigned, 0);
	len = host_msg(buf, DARD_CP_ACK, 0, &dst, NULL, 1, 0);
	ctlr_receive(&c, buf, len, host(0)->mgmt, 40000, SEC);
	assert_int_equal(c.st.acks, 1);
	assert_int_equal(c.st.ack_failed, 1);
	/* Placed afresh next round, never on the path it could not take
	 * (ties would have put it there again). */
	assert_int_equal(c.host[0].flow[0].assigned, -1);
	assert_int_equal(c.host[0].flow[0].refused, 0);
	moves = c.st.moves;
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_true(c.host[0].flow[0].assigned > 0);
	/* One move, counted once (not the algorithm's and then ours). */
	assert_int_equal(c.st.moves, moves + 1);
	nsent = 0;
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(nsent, 1);
	assert_true(sent[0].m.flow[0].path > 0);
	assert_int_equal(c.host[0].flow[0].refused, 0);
	/* The failed links change (a link healed): that path may serve
	 * again. */
	c.fail_gen++;
	nsent = 0;
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(c.host[0].flow[0].refused, -1);
	/* Or the refusal lapses with dardd's own window for a left path. */
	len = host_msg(buf, DARD_CP_ACK, 0, &dst, NULL, 1, 0);
	ctlr_receive(&c, buf, len, host(0)->mgmt, 40000, 2 * SEC);
	assert_int_equal(c.host[0].flow[0].refused, 0);
	report(0, &dst, 1, 2 * SEC + CTLR_REFUSED_NS - 1);
	assert_int_equal(ctlr_round(&c, 2 * SEC + CTLR_REFUSED_NS - 1), 0);
	assert_int_equal(c.host[0].flow[0].refused, 0);
	assert_true(c.host[0].flow[0].assigned > 0);
	report(0, &dst, 1, 2 * SEC + CTLR_REFUSED_NS);
	assert_int_equal(ctlr_round(&c, 2 * SEC + CTLR_REFUSED_NS), 0);
	assert_int_equal(c.host[0].flow[0].refused, -1);
	stop();
}

static void test_adaptive_self(void **state)
{
	unsigned two[2] = {5, 9}, one = 5;

	(void)state;
	start(DARD_CP_ALGO_ADAPTIVE);
	/* One flow: a permutation, placed by sdn-optimal. */
	report(0, &one, 1, SEC);
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(nsent, 1);
	assert_false(sent[0].m.flags & DARD_CP_F_SELF);
	assert_int_equal(sent[0].m.count, 1);
	/* Host 0 sends two: more than a permutation, SELF and no records. */
	nsent = 0;
	report(0, two, 2, SEC);
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(nsent, 1);
	assert_true(sent[0].m.flags & DARD_CP_F_SELF);
	assert_int_equal(sent[0].m.algo, DARD_CP_ALGO_ADAPTIVE);
	assert_int_equal(sent[0].m.count, 0);
	assert_int_equal(c.st.self_rounds, 1);
	stop();
}

/* The agent of switch sw answers its last query with one port down. */
static void switch_reply(uint32_t sw, unsigned down_port, uint64_t now)
{
	struct dard_port_state st[DARD_MSG_PORTS_MAX];
	uint8_t buf[DARD_MSG_MAX];
	struct dard_msg q;
	char e[DARD_ERR_MAX];
	unsigned k, n = 0, i;
	size_t len;

	for (i = 0; i < nswq && swq[i].addr != cfg.topo->node[sw].mgmt; i++)
		;
	assert_true(i < nswq);
	assert_int_equal(
		dard_proto_decode(swq[i].buf, swq[i].len, &keys, &q, e), 0);
	assert_int_equal(q.count, 0); /* every port */
	for_each_port(cfg.topo, sw, k)
		st[n++] = (struct dard_port_state){
			.port = k,
			.flags = k == down_port ? 0 : DARD_PORT_F_UP,
			.mbps = 100};
	len = dard_proto_reply(buf, sizeof(buf), &keys.key[0], q.seq, st, n);
	links_receive(&c, buf, len, cfg.topo->node[sw].mgmt, now);
}

static void test_greedy_failed_link(void **state)
{
	const struct cpset *ps;
	const struct dard_link *l;
	unsigned dst = 4;
	uint32_t tor;
	int32_t k;

	(void)state;
	start(DARD_CP_ALGO_GREEDY);
	assert_true(c.nsw > 0);
	tor = dard_topo_tor(cfg.topo, cfg.topo->hosts[0]);
	report(0, &dst, 1, SEC);
	assert_int_equal(ctlr_round(&c, SEC), 0);
	/* Ties go to the first path. */
	assert_int_equal(c.host[0].flow[0].assigned, 0);
	assert_int_equal(
		paths_get(&c, cfg.topo->hosts[0], cfg.topo->hosts[4], &ps), 0);
	/* Its first link, ToR up to aggregation, goes down at the ToR. */
	l = &cfg.topo->link[ps->dl[0] / 2];
	assert_int_equal(l->down, tor);
	nswq = 0;
	links_query(&c, 2 * SEC);
	assert_int_equal(nswq, c.nsw);
	assert_int_equal(c.st.queries, c.nsw);
	switch_reply(tor, l->down_port, 2 * SEC);
	assert_int_equal(c.st.replies, 1);
	assert_int_equal(c.nfailed, 1);
	/* A replay of the reply is refused: no query is pending. */
	switch_reply(tor, l->down_port, 2 * SEC);
	assert_int_equal(c.st.query_refused, 1);
	/* The flow leaves the failed link; nothing else crosses it. */
	assert_int_equal(ctlr_round(&c, 2 * SEC), 0);
	k = c.host[0].flow[0].assigned;
	assert_true(k > 0);
	assert_false(paths_failed(&c, ps, k));
	assert_int_equal(c.st.moves, 1);
	/* The ToR's agent falls silent: not a dead link, after 3 s. */
	nswq = 0;
	links_query(&c, 3 * SEC);
	nswq = 0;
	links_query(&c, 4 * SEC);
	assert_int_equal(c.nfailed, 1);
	nswq = 0;
	links_query(&c, 5 * SEC);
	assert_int_equal(c.nfailed, 0);
	assert_true(c.st.silent > 0);
	stop();
}

/*
 * sdn-optimal with a link failed: a colouring, then the local search
 * takes every flow off the failed link, and the placement is kept while
 * nothing changes; once the link is back, one fresh colouring, L_D 1.
 */
static void test_optimal_failed_link(void **state)
{
	unsigned perm[16], i;
	const struct cpset *ps;
	const struct dard_link *l;
	uint32_t tor;
	uint64_t before;

	(void)state;
	start(DARD_CP_ALGO_OPTIMAL);
	for (i = 0; i < 16; i++) {
		perm[i] = (i + 4) % 16;
		report(i, &perm[i], 1, SEC);
	}
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(c.st.recomputed, 1);
	/* The first up link of host 0's flow's path fails at its ToR. */
	assert_int_equal(
		paths_get(&c, cfg.topo->hosts[0], cfg.topo->hosts[4], &ps), 0);
	l = &cfg.topo->link[ps->dl[c.host[0].flow[0].assigned * ps->ndl] / 2];
	tor = l->down;
	nswq = 0;
	links_query(&c, 2 * SEC);
	switch_reply(tor, l->down_port, 2 * SEC);
	assert_int_equal(c.nfailed, 1);
	assert_int_equal(ctlr_round(&c, 2 * SEC), 0);
	/* Coloured again, and the search took every flow off the link. */
	assert_int_equal(c.st.recomputed, 2);
	for (i = 0; i < 16; i++) {
		const struct cpset *p;

		assert_int_equal(paths_get(&c, cfg.topo->hosts[i],
					   cfg.topo->hosts[perm[i]], &p),
				 0);
		assert_false(paths_failed(&c, p, c.host[i].flow[0].assigned));
	}
	/* The same failure next round: kept, best effort. */
	assert_int_equal(ctlr_round(&c, 2 * SEC), 0);
	assert_int_equal(c.st.recomputed, 2);
	/* Back up: one fresh colouring, L_D 1 again. */
	nswq = 0;
	links_query(&c, 3 * SEC);
	switch_reply(tor, 0, 3 * SEC);
	assert_int_equal(c.nfailed, 0);
	before = c.st.recomputed;
	nsent = 0;
	assert_int_equal(ctlr_round(&c, 3 * SEC), 0);
	assert_int_equal(c.st.recomputed, before + 1);
	assert_int_equal(pushed_max_load(), 1);
	assert_int_equal(ctlr_round(&c, 3 * SEC), 0);
	assert_int_equal(c.st.recomputed, before + 1);
	stop();
}

/*
 * New flows beside placed ones: put greedily where they fit, nobody
 * moved, while that reaches the lower bound; and when the whole demand
 * is coloured again (here: the set of failed links changed), the old
 * flows stay where the new colouring gains nothing (fattree:8, a random
 * permutation, then 16 more flows from the first 16 hosts).
 */
static void test_optimal_keeps_paths(void **state)
{
	uint32_t perm[128], old[128], i, n, moved = 0;
	unsigned two[2];

	(void)state;
	start_on(DARD_CP_ALGO_OPTIMAL, "fattree:8");
	n = cfg.topo->nhosts;
	assert_int_equal(n, 128);
	srand(7);
	unit_derangement(perm, n);
	for (i = 0; i < n; i++) {
		unsigned d = perm[i];

		report(i, &d, 1, SEC);
	}
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(c.st.recomputed, 1);
	for (i = 0; i < n; i++)
		old[i] = c.host[i].flow[0].assigned;
	for (i = 0; i < 16; i++) {
		two[0] = perm[i];
		two[1] = (perm[i] + 64) % n == i ? (i + 1) % n
						 : (perm[i] + 64) % n;
		report(i, two, 2, SEC);
	}
	nsent = 0;
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(c.st.recomputed, 1);
	for (i = 0; i < n; i++)
		moved += c.host[i].flow[0].assigned != (int32_t)old[i];
	assert_int_equal(moved, 0);
	/* L_D is the bound: hosts 0-15 send two each. */
	assert_int_equal(c.st.last_max_load, 2);
	/* Coloured again from scratch, each flow preferring its path. */
	c.fail_gen++;
	nsent = 0;
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(c.st.recomputed, 2);
	for (i = 0, moved = 0; i < n; i++)
		moved += c.host[i].flow[0].assigned != (int32_t)old[i];
	print_message("old flows moved, coloured again: %u of 128\n", moved);
	/* Without the preference 110 move; with it, 23 (seed 7). */
	assert_true(moved <= 32);
	assert_true(c.st.last_max_load <= 2);
	stop();
}

/* A ToR-tapered tree (fattree:8,3): L_D is the lower bound. */
static void test_optimal_tapered(void **state)
{
	uint32_t perm[256], i, n, lb;
	struct dard_demand *d;

	(void)state;
	start_on(DARD_CP_ALGO_OPTIMAL, "fattree:8,3");
	n = cfg.topo->nhosts;
	assert_true(n <= 256);
	d = calloc(n, sizeof(*d));
	assert_non_null(d);
	srand(3);
	unit_derangement(perm, n);
	for (i = 0; i < n; i++) {
		unsigned dst = perm[i];

		report(i, &dst, 1, SEC);
		d[i] = (struct dard_demand){cfg.topo->hosts[i],
					    cfg.topo->hosts[perm[i]]};
	}
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(dard_route_lower_bound(cfg.topo, d, n, &lb, err), 0);
	assert_true(lb > 1);
	assert_int_equal(c.st.last_max_load, lb);
	free(d);
	stop();
}

/* Path sets no flow asked for lately go once they are many. */
static void test_paths_trim(void **state)
{
	const struct dard_topo *t;
	const struct cpset *ps, *kept, *again;
	uint32_t a, b, n = 0, per_tor;

	(void)state;
	start_on(DARD_CP_ALGO_GREEDY, "fattree:16");
	t = cfg.topo;
	per_tor = 8; /* fattree:16: 8 hosts a ToR, 128 ToRs */
	for (a = 0; a < 128 && n < 1100; a++)
		for (b = 0; b < 128 && n < 1100; b++, n++)
			assert_int_equal(paths_get(&c, t->hosts[a * per_tor],
						   t->hosts[b * per_tor], &ps),
					 0);
	assert_int_equal(c.nps, 1100);
	/* Few flows, but not many more sets than flows: kept. */
	paths_trim(&c, 100, 1);
	assert_int_equal(c.nps, 1100);
	c.st.rounds = 1;
	assert_int_equal(
		paths_get(&c, t->hosts[0], t->hosts[9 * per_tor], &kept), 0);
	paths_trim(&c, 1, 1);
	assert_int_equal(c.nps, 1);
	assert_int_equal(
		paths_get(&c, t->hosts[1], t->hosts[9 * per_tor + 3], &again),
		0);
	assert_ptr_equal(again, kept);
	assert_int_equal(again->npaths, 64);
	stop();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_optimal_permutation),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_report_sets),
		cmocka_unit_test(test_flows_bounded),
		cmocka_unit_test(test_flows_bounded_globally),
		cmocka_unit_test(test_silent_host_forgotten),
		cmocka_unit_test(test_expiry_since_drain),
		cmocka_unit_test(test_ack_failed),
		cmocka_unit_test(test_adaptive_self),
		cmocka_unit_test(test_greedy_failed_link),
		cmocka_unit_test(test_optimal_failed_link),
		cmocka_unit_test(test_optimal_keeps_paths),
		cmocka_unit_test(test_optimal_tapered),
		cmocka_unit_test(test_paths_trim),
	};

	/* Refusals and silences are what the tests cause: errors only. */
	dard_log_init("test_controller", DARD_LOG_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
