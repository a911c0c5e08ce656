// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-controller's oblivious mode without sockets, on fattree:4: the LP
 * solved at the first round (worst-case utilisation 1.000 on the intact
 * tree), WEIGHTS sets to every live host (even weights left out, so an
 * intact tree sends empty sets) with ASSIGN heartbeats carrying SELF;
 * one aggregation-core link reported down by its agent: solved again,
 * 1.333, and the hosts get uneven weights that avoid the dead path.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <arpa/inet.h>
#include <unistd.h>
#include <cmocka.h>

#include "cfgfile.h"
#include "clock.h"
#include "ctlr.h"
#include "oblivious.h"
#include "proto.h"
#include "unit.h"

#define SEC 1000000000ULL

static struct dard_config cfg;
static struct dard_keys keys = {.n = 1};
static struct ctlr c;
static char err[DARD_ERR_MAX + 4096];

enum { SENT_MAX = 64 };
static struct dard_cp_msg sent[SENT_MAX];
static unsigned nsent;
static uint8_t swq[64][DARD_MSG_MAX];
static size_t swq_len[64];
static uint32_t swq_addr[64];
static unsigned nswq;

static ssize_t fake_xmit(struct ctlr *cc, const void *buf, size_t len,
			 uint32_t addr, uint16_t port)
{
	char e[DARD_ERR_MAX];

	assert_true(nsent < SENT_MAX);
	assert_int_equal(dard_cp_decode(buf, len, &keys, &sent[nsent], e), 0);
	nsent++;
	return len;
}

static ssize_t fake_switch(struct ctlr *cc, const void *buf, size_t len,
			   uint32_t addr, uint16_t port)
{
	assert_true(nswq < 64);
	memcpy(swq[nswq], buf, len);
	swq_len[nswq] = len;
	swq_addr[nswq++] = addr;
	return len;
}

static void report(unsigned rank, uint64_t now)
{
	const struct dard_node *h = &cfg.topo->node[cfg.topo->hosts[rank]];
	struct dard_cp_msg m = {.type = DARD_CP_REPORT,
				.flags = DARD_CP_F_FIRST | DARD_CP_F_LAST,
				.sender = h->id,
				.topo = c.topo,
				.seq = dard_clock_ns(CLOCK_REALTIME)};
	uint8_t buf[DARD_CP_MSG_MAX];
	size_t len = dard_cp_encode(buf, sizeof(buf), &keys.key[0], &m);

	ctlr_receive(&c, buf, len, h->mgmt, 40000, now);
}

/* The agent of sw answers its last query with port down. */
static void switch_reply(uint32_t sw, unsigned down_port, uint64_t now)
{
	struct dard_port_state st[64];
	uint8_t buf[DARD_MSG_MAX];
	struct dard_msg q;
	char e[DARD_ERR_MAX];
	unsigned k, n = 0, i;
	size_t len;

	for (i = 0; i < nswq && swq_addr[i] != cfg.topo->node[sw].mgmt; i++)
		;
	assert_true(i < nswq);
	assert_int_equal(dard_proto_decode(swq[i], swq_len[i], &keys, &q, e),
			 0);
	for_each_port(cfg.topo, sw, k)
		st[n++] = (struct dard_port_state){
			.port = k,
			.flags = k == down_port ? 0 : DARD_PORT_F_UP,
			.mbps = 100};
	len = dard_proto_reply(buf, sizeof(buf), &keys.key[0], q.sender, q.seq,
			       st, n);
	links_receive(&c, buf, len, cfg.topo->node[sw].mgmt, DARD_PROTO_PORT,
		      now);
}

static void test_oblivious(void **state)
{
	struct ctlr_opts o = {.algo = DARD_CP_ALGO_OBLIVIOUS,
			      .interval_ns = SEC,
			      .host_timeout_ns = 3 * SEC,
			      .query_ns = SEC};
	struct dard_load_opts lo = {.mbps = 100};
	unsigned i, j, weights = 0, assigns = 0, uneven = 0;
	const struct dard_link *l = NULL;

	(void)state;
	keys.key[0].id = 2;
	assert_int_equal(
		dard_topo_load(&cfg, "fattree:4", &lo, err, sizeof(err)), 0);
	assert_int_equal(ctlr_init(&c, &cfg, &keys, &o, err), 0);
	c.xmit = fake_xmit;
	c.xmit_switch = fake_switch;
	for (i = 0; i < 16; i++)
		report(i, SEC);
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_non_null(c.obl);
	assert_true(fabs(dard_obl_util(c.obl) - 1.0) < 1e-3);
	for (i = 0; i < nsent; i++) {
		if (sent[i].type == DARD_CP_WEIGHTS) {
			weights++;
			assert_int_equal(sent[i].algo, DARD_CP_ALGO_OBLIVIOUS);
			assert_int_equal(sent[i].flags,
					 DARD_CP_F_FIRST | DARD_CP_F_LAST);
			/* Intact: every destination is even. */
			assert_int_equal(sent[i].count, 0);
		} else {
			assigns++;
			assert_true(sent[i].flags & DARD_CP_F_SELF);
		}
	}
	assert_int_equal(weights, 16);
	assert_int_equal(assigns, 16);
	/* An aggregation switch's first up link goes down. */
	for (i = 0; i < cfg.topo->nlinks && !l; i++)
		if (!cfg.topo->node[cfg.topo->link[i].down].is_host &&
		    cfg.topo->node[cfg.topo->link[i].up].level == 0)
			l = &cfg.topo->link[i];
	assert_non_null(l);
	nswq = 0;
	links_query(&c, 2 * SEC);
	switch_reply(l->down, l->down_port, 2 * SEC);
	assert_int_equal(c.nfailed, 1);
	for (i = 0; i < 16; i++)
		report(i, 2 * SEC);
	nsent = 0;
	assert_int_equal(ctlr_round(&c, 2 * SEC), 0);
	assert_true(fabs(dard_obl_util(c.obl) - 4.0 / 3) < 1e-3);
	assert_int_equal(c.st.obl_solves, 2);
	for (i = 0; i < nsent; i++) {
		if (sent[i].type != DARD_CP_WEIGHTS)
			continue;
		for (j = 0; j < sent[i].count; j++) {
			const struct dard_cp_wrec *w = &sent[i].wrec[j];
			unsigned k, sum = 0;

			for (k = 0; k < w->npaths; k++)
				sum += sent[i].w[w->off + k];
			assert_int_equal(sum, DARD_OBL_WEIGHT_SUM);
			uneven++;
		}
	}
	assert_true(uneven > 0);
	ctlr_fini(&c);
	dard_config_free(&cfg);
}

/* Rounds until the solver's thread is done, for at most a minute. */
static void wait_solved(void)
{
	unsigned i;

	for (i = 0;
	     i < 60000 && !__atomic_load_n(&c.obl_done, __ATOMIC_ACQUIRE); i++)
		usleep(1000);
	assert_true(c.obl_done);
}

/*
 * With the event loop running, the LP solves in a thread: the round
 * that starts it still pushes heartbeats, a later one the weights, and
 * links that fail while it solves are solved for after.
 */
static void test_oblivious_thread(void **state)
{
	struct ctlr_opts o = {.algo = DARD_CP_ALGO_OBLIVIOUS,
			      .interval_ns = SEC,
			      .host_timeout_ns = 30 * SEC,
			      .query_ns = SEC};
	struct dard_load_opts lo = {.mbps = 100};
	const struct dard_link *l = NULL;
	unsigned i, weights = 0;

	(void)state;
	keys.key[0].id = 2;
	assert_int_equal(
		dard_topo_load(&cfg, "fattree:4", &lo, err, sizeof(err)), 0);
	assert_int_equal(ctlr_init(&c, &cfg, &keys, &o, err), 0);
	c.xmit = fake_xmit;
	c.xmit_switch = fake_switch;
	c.epfd = 0; /* as if the loop ran: ctlr_fini does not close it */
	for (i = 0; i < 16; i++)
		report(i, SEC);
	nsent = 0;
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_true(c.obl_busy);
	assert_null(c.obl);
	assert_int_equal(nsent, 16);
	for (i = 0; i < nsent; i++)
		assert_true(sent[i].type == DARD_CP_ASSIGN &&
			    (sent[i].flags & DARD_CP_F_SELF));
	/* A link fails while it solves. */
	for (i = 0; i < cfg.topo->nlinks && !l; i++)
		if (!cfg.topo->node[cfg.topo->link[i].down].is_host &&
		    cfg.topo->node[cfg.topo->link[i].up].level == 0)
			l = &cfg.topo->link[i];
	nswq = 0;
	links_query(&c, 2 * SEC);
	switch_reply(l->down, l->down_port, 2 * SEC);
	assert_int_equal(c.nfailed, 1);
	wait_solved();
	/* The intact tree's weights out, the new set's solve under way. */
	nsent = 0;
	assert_int_equal(ctlr_round(&c, 2 * SEC), 0);
	assert_non_null(c.obl);
	assert_true(fabs(dard_obl_util(c.obl) - 1.0) < 1e-3);
	assert_true(c.obl_busy);
	for (i = 0; i < nsent; i++)
		weights += sent[i].type == DARD_CP_WEIGHTS;
	assert_int_equal(weights, 16);
	wait_solved();
	assert_int_equal(ctlr_round(&c, 3 * SEC), 0);
	assert_false(c.obl_busy);
	assert_true(fabs(dard_obl_util(c.obl) - 4.0 / 3) < 1e-3);
	assert_int_equal(c.st.obl_solves, 2);
	c.epfd = -1;
	ctlr_fini(&c);
	dard_config_free(&cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_oblivious),
		cmocka_unit_test(test_oblivious_thread),
	};

	dard_log_init("test_controller_obl", DARD_LOG_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
