/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-controller without sockets (test_controller.c,
 * test_controller_place.c): a controller on a generated tree, hosts'
 * datagrams as their dardd would send them into ctlr_receive, and what
 * its xmit hooks would have sent, decoded and kept. Include after
 * <cmocka.h>.
 */
#ifndef _DARD_TEST_CTLR_FIX_H
#define _DARD_TEST_CTLR_FIX_H

#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

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

static inline ssize_t fake_xmit(struct ctlr *cc, const void *buf, size_t len,
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
static inline ssize_t fake_switch(struct ctlr *cc, const void *buf, size_t len,
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

static inline void start_on(int algo, const char *spec)
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

static inline void start(int algo)
{
	start_on(algo, "fattree:4");
}

static inline void stop(void)
{
	ctlr_fini(&c);
	dard_config_free(&cfg);
}

static inline const struct dard_node *host(unsigned rank)
{
	return &cfg.topo->node[cfg.topo->hosts[rank]];
}

/* A host's datagram, as its dardd would send it; returns its length. */
static inline size_t host_msg(uint8_t *buf, unsigned type, unsigned src,
			      const unsigned *dst, const uint16_t *path,
			      unsigned n, unsigned flags)
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
static inline void report_flags(unsigned src, const unsigned *dst, unsigned n,
				unsigned flags, uint64_t now)
{
	uint8_t buf[DARD_CP_MSG_MAX];
	size_t len = host_msg(buf, DARD_CP_REPORT, src, dst, NULL, n, flags);

	assert_true(len > 0);
	ctlr_receive(&c, buf, len, host(src)->mgmt, 40000, now);
}

/* A full report, in one datagram. */
static inline void report(unsigned src, const unsigned *dst, unsigned n,
			  uint64_t now)
{
	report_flags(src, dst, n, DARD_CP_F_FIRST | DARD_CP_F_LAST, now);
}

/* The ASSIGN sent to host rank r this round, or NULL. */
static inline const struct dard_cp_msg *assign_to(unsigned r)
{
	unsigned i;

	for (i = 0; i < nsent; i++)
		if (sent[i].addr == host(r)->mgmt)
			return &sent[i].m;
	return NULL;
}

/* The L_D of the paths pushed, from the controller's own path sets. */
static inline uint32_t pushed_max_load(void)
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
			uint32_t dl[2 * DARD_LEVEL_MAX];
			const struct cpset *ps;

			assert_int_equal(paths_get(&c, s, d, &ps), 0);
			assert_true(f->path < ps->npaths);
			paths_dlinks(ps, f->path, dl);
			for (k = 0; k < ps->ndl; k++)
				load[dl[k]]++;
		}
	for (i = 0; i < 2 * cfg.topo->nlinks; i++)
		m = load[i] > m ? load[i] : m;
	free(load);
	return m;
}

#endif /* _DARD_TEST_CTLR_FIX_H */
