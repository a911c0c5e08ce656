// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-controller without sockets, what it takes from hosts: every
 * refusal is counted; reports replace, add and end a host's flows, with
 * bounds per host and in all; a silent host is forgotten, counting up to
 * the last drain of the socket; a FAILED ack is counted and its flow
 * placed again. Its placements are test_controller_place.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <arpa/inet.h>
#include <cmocka.h>

#include "ctlr_fix.h"

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
	assert_int_equal(c.hrx.n[DARD_RX_MAC], 1);
	/* Not our protocol. */
	ctlr_receive(&c, "hello", 5, host(0)->mgmt, 1, SEC);
	assert_int_equal(c.hrx.n[DARD_RX_PROTO], 1);
	/* From no host's management address: not even its MAC checked. */
	ctlr_receive(&c, buf, len, 0x0a090909, 1, SEC);
	assert_int_equal(c.hrx.n[DARD_RX_SOURCE], 1);
	assert_int_equal(c.hrx.n[DARD_RX_MAC], 1);
	/* Sender no host of ours. */
	m.sender = 0x01020304;
	m.topo = c.topo;
	m.seq = ++seq;
	len = dard_cp_encode(buf, sizeof(buf), &keys.key[0], &m);
	ctlr_receive(&c, buf, len, host(0)->mgmt, 1, SEC);
	assert_int_equal(c.hrx.n[DARD_RX_SENDER], 1);
	/* From another host's management address. */
	len = host_msg(buf, DARD_CP_REPORT, 0, &dst, NULL, 1, 0);
	ctlr_receive(&c, buf, len, host(1)->mgmt, 1, SEC);
	assert_int_equal(c.hrx.n[DARD_RX_SOURCE], 2);
	/* Another topology. */
	m.sender = host(0)->id;
	m.topo = c.topo ^ 1;
	m.seq = ++seq;
	len = dard_cp_encode(buf, sizeof(buf), &keys.key[0], &m);
	ctlr_receive(&c, buf, len, host(0)->mgmt, 1, SEC);
	assert_int_equal(c.hrx.n[DARD_RX_TOPO], 1);
	/* A good one, then it again: a replay. */
	len = host_msg(buf, DARD_CP_REPORT, 0, &dst, NULL, 1,
		       DARD_CP_F_FIRST | DARD_CP_F_LAST);
	ctlr_receive(&c, buf, len, host(0)->mgmt, 1, SEC);
	assert_int_equal(c.st.reports, 1);
	ctlr_receive(&c, buf, len, host(0)->mgmt, 1, SEC);
	assert_int_equal(c.hrx.n[DARD_RX_REPLAY], 1);
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
	assert_int_equal(c.hrx.n[DARD_RX_CLOCK], 2);
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
	assert_int_equal(c.hrx.n[DARD_RX_FLOW], 2);
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
	assert_int_equal(c.hrx.n[DARD_RX_FLOW],
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
	assert_int_equal(c.hrx.n[DARD_RX_FLOW], 1);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_report_sets),
		cmocka_unit_test(test_flows_bounded),
		cmocka_unit_test(test_flows_bounded_globally),
		cmocka_unit_test(test_silent_host_forgotten),
		cmocka_unit_test(test_expiry_since_drain),
		cmocka_unit_test(test_ack_failed),
	};

	/* Refusals and silences are what the tests cause: errors only. */
	dard_log_init("test_controller", DARD_LOG_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
