// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-switchd without the I/O: counting each port's elephants from a
 * snapshot of its table, each port's load from two samples of its
 * counter (and from loopback's real ones), answering queries, and its
 * command line.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <unistd.h>

#include "answer.h"
#include "clock.h"
#include "load.h"
#include "log.h"
#include "opts.h"
#include "reply.h"
#include "stdopts.h"
#include "topo.h"

enum { S = 1000000000 };

static struct sw_port ports[3] = {
	{.num = 1, .ifindex = 11, .mbps = 1000, .up = 1},
	{.num = 2, .ifindex = 12, .mbps = 1000, .up = 1},
	{.num = 4, .ifindex = 14, .mbps = 100, .up = 0},
};

/* The deployment's key in the tests. */
static const struct dard_keys keys = {
	.n = 2, .key = {{.id = 3, .k = {7}}, {.id = 4, .k = {9}}}};
static const struct dard_key *const K = &keys.key[0];
static struct sw_replay replay;
/* The agent's clock (CLOCK_REALTIME, µs) and a querier's seqs from it. */
#define T0 1700000000000000ULL
#define SENDER 0x0a000102U

static uint64_t fake_wall_us(void)
{
	return T0;
}

static void zero(void)
{
	unsigned i;

	for (i = 0; i < 3; i++)
		ports[i].elephants = 0;
}

static void test_tally(void **state)
{
	/* now = 100 s, window 1 s: window 100 now, 99 before. */
	const struct dard_sw_key keys[] = {
		{.ifindex = 11}, /* seen just now */
		{.ifindex = 11}, /* 0.5 s ago */
		{.ifindex = 12}, /* 1 s ago: the window's edge counts */
		{.ifindex = 12}, /* 2 s ago: out, kept */
		{.ifindex = 14}, /* 9 s ago: forgotten */
		{.ifindex = 99}, /* not a port of ours: counted nowhere */
		{.ifindex = 14}, /* after now: another CPU's clock */
	};
	/* Last seen and its window; no bytes: every port's min_bytes 0. */
	const struct dard_sw_flow val[] = {
		{100ULL * S, 100, 0, 0}, {99500000000ULL, 99, 0, 0},
		{99ULL * S, 99, 0, 0},	 {98ULL * S, 98, 0, 0},
		{91ULL * S, 91, 0, 0},	 {100ULL * S, 100, 0, 0},
		{101ULL * S, 101, 0, 0},
	};
	uint8_t forget[7];

	(void)state;
	zero();
	assert_int_equal(
		sw_tally(ports, 3, keys, val, 7, 100ULL * S, S, forget), 1);
	assert_int_equal(ports[0].elephants, 2);
	assert_int_equal(ports[1].elephants, 1);
	assert_int_equal(ports[2].elephants, 1);
	assert_memory_equal(forget, ((uint8_t[]){0, 0, 0, 0, 1, 0, 0}), 7);
	/* Batches add up: the same snapshot again doubles the counts. */
	sw_tally(ports, 3, keys, val, 7, 100ULL * S, S, forget);
	assert_int_equal(ports[0].elephants, 4);
	/* An empty snapshot changes nothing. */
	assert_int_equal(sw_tally(ports, 3, keys, val, 0, 0, S, forget), 0);
	assert_int_equal(ports[0].elephants, 4);
}

/* A port's threshold: its share of what the port sends in a window. */
static void test_min_bytes(void **state)
{
	(void)state;
	/* 1 Gbit/s for 1 s is 125 MB; 1/64 of it. */
	assert_int_equal(sw_min_bytes(1000, 1.0 / 64, S), 1953125);
	/* A quarter window, a 20 Mbit/s link: 625,000 B / 64, rounded up. */
	assert_int_equal(sw_min_bytes(20, 1.0 / 64, S / 4), 9766);
	/* The paper's counting: any flow. */
	assert_int_equal(sw_min_bytes(100000, 0, 3600ULL * S), 0);
	/* The largest: 4.3 Pbit/s for an hour, whole, does not wrap. */
	assert_true(sw_min_bytes(UINT32_MAX, 1, 3600ULL * S) >
		    1932735282000000000ULL);
	/* Beyond a u64: saturated. */
	assert_int_equal(sw_min_bytes(UINT32_MAX, 100, 3600ULL * S),
			 UINT64_MAX);
}

/*
 * Flows seen within the window count on a port only with its min_bytes
 * in now's window or the one before: a trickle does not, a transfer
 * does, and a threshold of 0 counts them all.
 */
static void test_tally_bytes(void **state)
{
	/* now = 100.5 s, window 1 s; port 11 wants 1000 bytes a window. */
	const uint64_t now = 100500000000ULL;
	const struct dard_sw_key keys[] = {
		{.ifindex = 11}, {.ifindex = 11}, {.ifindex = 11},
		{.ifindex = 11}, {.ifindex = 11}, {.ifindex = 11},
		{.ifindex = 11},
	};
	const struct dard_sw_flow val[] = {
		/* A trickle: a packet a window. */
		{100ULL * S, 100, 60, 60},
		/* A transfer: enough in each window. */
		{now, 100, 700, 1000},
		/* Started this window, already enough. */
		{now, 100, 1000, 0},
		/* Started in the last window, not yet enough in either. */
		{now, 100, 600, 900},
		/* Last seen just before this window began, with enough. */
		{99600000000ULL, 99, 1500, 0},
		/* Enough two windows ago only. */
		{99600000000ULL, 99, 10, 5000},
		/* Another CPU's clock ahead: its window is as fresh. */
		{101ULL * S, 101, 2000, 0},
	};
	uint8_t forget[7];

	(void)state;
	zero();
	ports[0].min_bytes = 1000;
	sw_tally(ports, 3, keys, val, 7, now, S, forget);
	assert_int_equal(ports[0].elephants, 4);
	/* The paper's mode: every flow seen within the window. */
	zero();
	ports[0].min_bytes = 0;
	sw_tally(ports, 3, keys, val, 7, now, S, forget);
	assert_int_equal(ports[0].elephants, 7);
	/* A threshold above every flow: none. */
	zero();
	ports[0].min_bytes = 5001;
	sw_tally(ports, 3, keys, val, 7, now, S, forget);
	assert_int_equal(ports[0].elephants, 0);
	ports[0].min_bytes = 0;
}

/* A load from two samples: kbit/s rounded down, or not measured. */
static void test_load_kbps(void **state)
{
	const struct sw_tx t0 = {1000, 10ULL * S, 7};
	struct sw_tx t1 = {1000 + 125000000, 11ULL * S, 7};

	(void)state;
	/* 125 MB in a second: 1 Gbit/s. */
	assert_int_equal(sw_load_kbps(&t0, &t1), 1000000);
	/* Half a second: twice the rate. */
	t1.ns = 10ULL * S + S / 2;
	assert_int_equal(sw_load_kbps(&t0, &t1), 2000000);
	/* Nothing sent is measured idle, not unknown. */
	t1 = (struct sw_tx){1000, 11ULL * S, 7};
	assert_int_equal(sw_load_kbps(&t0, &t1), 0);
	/* 999 bytes in a second: 7.992 kbit/s, rounded down. */
	t1.bytes = 1999;
	assert_int_equal(sw_load_kbps(&t0, &t1), 7);
	/* No earlier sample: the first window after start. */
	assert_int_equal(sw_load_kbps(&(struct sw_tx){0}, &t1),
			 DARD_LOAD_UNKNOWN);
	/* Time stood still or went back. */
	t1.ns = 10ULL * S;
	assert_int_equal(sw_load_kbps(&t0, &t1), DARD_LOAD_UNKNOWN);
	/* The counter went back (wrapped, or reset with its link). */
	t1 = (struct sw_tx){999, 11ULL * S, 7};
	assert_int_equal(sw_load_kbps(&t0, &t1), DARD_LOAD_UNKNOWN);
	/* Counted up, but on an interface created anew. */
	t1 = (struct sw_tx){5000, 11ULL * S, 8};
	assert_int_equal(sw_load_kbps(&t0, &t1), DARD_LOAD_UNKNOWN);
	/* Faster than a u32 of kbit/s: saturated, not wrapped. */
	t1 = (struct sw_tx){1000 + 600000000000ULL, 11ULL * S, 7};
	assert_int_equal(sw_load_kbps(&t0, &t1), DARD_LOAD_MAX);
	t1.bytes = UINT64_MAX;
	assert_int_equal(sw_load_kbps(&t0, &t1), DARD_LOAD_MAX);
}

/* A port's samples in turn: the first, steady ones, a reset, a gap. */
static void test_load_take(void **state)
{
	struct sw_port p = {.num = 1, .load_kbps = DARD_LOAD_UNKNOWN};

	(void)state;
	assert_int_equal(sw_load_take(&p, &(struct sw_tx){500, 1ULL * S, 3}),
			 0);
	assert_int_equal(p.load_kbps, DARD_LOAD_UNKNOWN);
	assert_int_equal(
		sw_load_take(&p, &(struct sw_tx){500 + 12500, 2ULL * S, 3}), 0);
	assert_int_equal(p.load_kbps, 100);
	/* The link re-created: its counter starts again, not measured... */
	assert_int_equal(sw_load_take(&p, &(struct sw_tx){40, 3ULL * S, 9}), 1);
	assert_int_equal(p.load_kbps, DARD_LOAD_UNKNOWN);
	/* ...for that window only. */
	assert_int_equal(
		sw_load_take(&p, &(struct sw_tx){40 + 1250, 4ULL * S, 9}), 0);
	assert_int_equal(p.load_kbps, 10);
	/* Its interface gone: not measured, and no base left. */
	assert_int_equal(sw_load_take(&p, NULL), 0);
	assert_int_equal(p.load_kbps, DARD_LOAD_UNKNOWN);
	assert_int_equal(sw_load_take(&p, &(struct sw_tx){9000, 5ULL * S, 9}),
			 0);
	assert_int_equal(p.load_kbps, DARD_LOAD_UNKNOWN);
}

/*
 * Loopback's real counter over rtnetlink: read once, not measured; read
 * again, measured (what the ping between sends at least). A port without
 * an interface is never measured.
 */
static void test_load_sample(void **state)
{
	struct sw_port port[2] = {
		{.num = 1, .ifname = "lo"},
		{.num = 2, .ifname = "dard-no-such0"},
	};
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
				 .sin_port = htons(9)};
	struct sw_load l;
	char err[DARD_ERR_MAX];
	uint64_t now = dard_clock_ns(CLOCK_MONOTONIC_COARSE);
	int fd;

	(void)state;
	dard_log_init("test_switchd", DARD_LOG_WARN);
	assert_int_equal(sw_load_open(&l, err), 0);
	sw_load_sample(&l, port, 2, now);
	assert_int_equal(port[0].load_kbps, DARD_LOAD_UNKNOWN);
	assert_int_equal(port[1].load_kbps, DARD_LOAD_UNKNOWN);
	assert_true(port[0].tx.ifindex > 0);
	/* 125 bytes of payload and more, over a second of the clock. */
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	assert_true(fd >= 0);
	assert_int_equal(sendto(fd, (char[125]){0}, 125, 0,
				(struct sockaddr *)&sa, sizeof(sa)),
			 125);
	close(fd);
	sw_load_sample(&l, port, 2, now + S);
	assert_true(port[0].load_kbps != DARD_LOAD_UNKNOWN);
	assert_true(port[0].load_kbps >= 1);
	assert_int_equal(port[1].load_kbps, DARD_LOAD_UNKNOWN);
	assert_int_equal(l.samples, 2);
	assert_int_equal(l.failed, 0);
	assert_int_equal(l.gone, 2);
	assert_int_equal(l.resets, 0);
	/* A closed socket: the dump fails, every port not measured. */
	sw_load_close(&l);
	sw_load_sample(&l, port, 2, now + 2ULL * S);
	assert_int_equal(port[0].load_kbps, DARD_LOAD_UNKNOWN);
	assert_int_equal(l.failed, 1);
	/* The last good sample stays for the next window. */
	assert_true(port[0].tx.ns == now + S);
}

static void test_decode_rejects(void **state)
{
	static struct dard_msg msg;
	static const struct dard_port_state st = {.port = 1};
	uint8_t buf[128];
	char err[DARD_ERR_MAX] = "";
	size_t n;

	(void)state;
	assert_true(sw_query_decode("junk", 4, &keys, &msg, err) < 0);
	assert_true(err[0] != '\0');
	/* A well-formed reply is not a query. */
	n = dard_proto_reply(buf, sizeof(buf), K, SENDER, 7, &st, 1);
	assert_true(n > 0);
	err[0] = '\0';
	assert_int_equal(sw_query_decode(buf, n, &keys, &msg, err), -EINVAL);
	assert_string_equal(err, "not a query or watch");
	n = dard_proto_query(buf, sizeof(buf), K, SENDER, 7, (uint16_t[]){2}, 1,
			     0);
	assert_int_equal(sw_query_decode(buf, n, &keys, &msg, err), 0);
	assert_int_equal(msg.seq, 7);
	assert_int_equal(msg.sender, SENDER);
	/* Bad MAC, unknown key, version 1. */
	buf[n - 1] ^= 1;
	assert_int_equal(sw_query_decode(buf, n, &keys, &msg, err),
			 -EKEYREJECTED);
	buf[n - 1] ^= 1;
	buf[11] ^= 1;
	assert_int_equal(sw_query_decode(buf, n, &keys, &msg, err), -ENOKEY);
	buf[2] = 1;
	assert_int_equal(sw_query_decode(buf, n, &keys, &msg, err),
			 -EPROTONOSUPPORT);
	assert_non_null(strstr(err, "version 1"));
}

/* Asks for ports in q, answers, and decodes the answer into r. */
static unsigned ask(const uint16_t *q, unsigned nq, struct dard_msg *r)
{
	static struct dard_msg query;
	static uint8_t buf[DARD_MSG_MAX];
	char err[DARD_ERR_MAX];
	unsigned n;
	size_t len;

	/* Padded for every port of ours, as dardd pads for those it asks. */
	len = dard_proto_query(buf, sizeof(buf), K, SENDER, 42, q, nq,
			       dard_proto_query_len(3));
	assert_int_equal(sw_query_decode(buf, len, &keys, &query, err), 0);
	len = sw_reply(ports, 3, &query, K, buf, sizeof(buf), &n);
	assert_true(len > 0);
	/* Never more than the query and the slack. */
	assert_true(len <= (size_t)query.len + DARD_PROTO_SLACK);
	assert_int_equal(dard_proto_decode(buf, len, &keys, r, err), 0);
	assert_int_equal(r->type, DARD_MSG_REPLY);
	assert_int_equal(r->seq, 42);
	assert_int_equal(r->sender, SENDER); /* echoed */
	assert_int_equal(r->count, n);
	return n;
}

static void test_reply(void **state)
{
	static struct dard_msg r;
	static struct dard_msg q = {
		.type = DARD_MSG_QUERY, .sender = SENDER, .seq = 1};
	static uint8_t big[DARD_MSG_MAX];
	uint8_t small[16];
	unsigned n;

	(void)state;
	zero();
	ports[0].elephants = 3;
	ports[2].elephants = 5;
	ports[0].load_kbps = 0;
	ports[1].load_kbps = 250000;
	ports[2].load_kbps = DARD_LOAD_UNKNOWN;
	/* Asked ports in the asked order; port 3 is not ours: no record. */
	assert_int_equal(ask((uint16_t[]){4, 3, 1}, 3, &r), 2);
	assert_int_equal(r.state[0].port, 4);
	assert_int_equal(r.state[0].flags, 0); /* ours but down */
	assert_int_equal(r.state[0].mbps, 100);
	assert_int_equal(r.state[0].elephants, 5);
	assert_int_equal(r.state[0].load_kbps, DARD_LOAD_UNKNOWN);
	assert_int_equal(r.state[1].port, 1);
	assert_int_equal(r.state[1].flags, DARD_PORT_F_UP);
	assert_int_equal(r.state[1].elephants, 3);
	assert_int_equal(r.state[1].load_kbps, 0); /* measured idle */
	/* Only ports that are not ours: an empty reply. */
	assert_int_equal(ask((uint16_t[]){3, 5, 600}, 3, &r), 0);
	/* No ports asked: every port. */
	assert_int_equal(ask(NULL, 0, &r), 3);
	assert_int_equal(r.state[1].port, 2);
	assert_int_equal(r.state[1].flags, DARD_PORT_F_UP);
	assert_int_equal(r.state[1].load_kbps, 250000);
	/* A reply that does not fit is not written. */
	q.len = 200;
	assert_int_equal(sw_reply(ports, 3, &q, K, small, sizeof(small), &n),
			 0);
	/*
	 * A query too short for its reply plus the slack: unanswered if it
	 * names the ports, cut to what fits if it asks for all.
	 */
	q.len = DARD_HDR_LEN;
	q.count = 3;
	q.ports[0] = 1;
	q.ports[1] = 2;
	q.ports[2] = 4;
	assert_int_equal(sw_reply(ports, 3, &q, K, big, sizeof(big), &n), 0);
	q.count = 0;
	assert_int_equal(sw_reply(ports, 3, &q, K, big, sizeof(big), &n),
			 dard_proto_reply_len(2));
	assert_int_equal(n, 2);
}

static int parse(struct switchd_opts *o, char *err, ...)
{
	char *argv[16] = {"dard-switchd"};
	int argc = 1;
	va_list ap;

	va_start(ap, err);
	while ((argv[argc] = va_arg(ap, char *)))
		argc++;
	va_end(ap);
	optind = 0; /* glibc: start afresh */
	opterr = 0;
	err[0] = '\0';
	return switchd_opts_parse(argc, argv, o, err);
}

static void test_opts(void **state)
{
	struct switchd_opts o;
	char err[DARD_ERR_MAX];

	(void)state;
	assert_int_equal(parse(&o, err, "core1", NULL), DARD_OPTS_RUN);
	assert_string_equal(o.sw, "core1");
	assert_int_equal(o.port, 7471);
	assert_int_equal(o.window_ns, S);
	assert_int_equal(o.dscp, 8);
	assert_true(o.min_share == 1.0 / 64);
	assert_string_equal(o.ifname_fmt, "p%u");
	assert_int_equal(o.has_listen, 0);
	assert_int_equal(o.reconcile_ns, 5000000000ULL);
	assert_int_equal(o.no_tables, 0);
	assert_null(o.key); /* $DARD_KEY, else /etc/dard/dard.key */
	assert_int_equal(parse(&o, err, "--key", "/k", "core1", NULL),
			 DARD_OPTS_RUN);
	assert_string_equal(o.key, "/k");
	assert_int_equal(parse(&o, err, "-r", "0.5", "--no-tables", "c1", NULL),
			 DARD_OPTS_RUN);
	assert_int_equal(o.reconcile_ns, S / 2);
	assert_int_equal(o.no_tables, 1);
	assert_int_equal(parse(&o, err, "--min-share", "0", "c1", NULL),
			 DARD_OPTS_RUN);
	assert_true(o.min_share == 0);
	assert_int_equal(parse(&o, err, "-m", "0.1", "c1", NULL),
			 DARD_OPTS_RUN);
	assert_true(o.min_share == 0.1);
	assert_int_equal(parse(&o, err, "-w", "0.25", "-p", "9", "-d", "0",
			       "-l", "10.0.0.1", "-i", "sw%u", "-v", "agg1",
			       NULL),
			 DARD_OPTS_RUN);
	assert_int_equal(o.window_ns, S / 4);
	assert_int_equal(o.port, 9);
	assert_int_equal(o.dscp, 0);
	assert_int_equal(o.has_listen, 1);
	assert_int_equal(o.level, DARD_LOG_DEBUG);
	assert_string_equal(o.sw, "agg1");
}

static void test_opts_reject(void **state)
{
	static const char *const bad[][3] = {
		{"-p", "0", "--port"},
		{"-p", "65536", "--port"},
		{"-p", "4294967297", "--port"},
		{"-p", "-1", "--port"},
		{"-p", "1x", "--port"},
		{"-w", "0", "--window"},
		{"-w", "3601", "--window"},
		{"-w", "inf", "--window"},
		{"-w", "nan", "--window"},
		{"-w", "1e-12", "--window"},
		{"-d", "64", "--elephant-dscp"},
		{"-d", "", "--elephant-dscp"},
		{"-m", "-0.1", "--min-share"},
		{"-m", "1.5", "--min-share"},
		{"-m", "nan", "--min-share"},
		{"-m", "1/64", "--min-share"},
		{"-l", "1.2.3", "--listen"},
		{"-i", "p%s", "--ifname"},
		{"-i", "p%u%u", "--ifname"},
		{"-i", "p", "--ifname"},
		{"-r", "0", "--reconcile"},
		{"-r", "3601", "--reconcile"},
		{"-r", "inf", "--reconcile"},
		{"-r", "0.0001", "--reconcile"},
	};
	struct switchd_opts o;
	char err[DARD_ERR_MAX], want[DARD_ERR_MAX];
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(
			parse(&o, err, bad[i][0], bad[i][1], "core1", NULL), 2);
		/* num.h's one form: the option and the value. */
		snprintf(want, sizeof(want), "Invalid %s `%s': ", bad[i][2],
			 bad[i][1]);
		if (strncmp(err, want, strlen(want)))
			fail_msg("%s `%s': `%s'", bad[i][0], bad[i][1], err);
	}
	assert_int_equal(parse(&o, err, "-w", "x", "core1", NULL), 2);
	assert_string_equal(
		err,
		"Invalid --window `x': not a number, expected seconds above 0, up to 3600");
	assert_int_equal(parse(&o, err, NULL), 2);
	assert_non_null(strstr(err, "which SWITCH"));
	assert_int_equal(parse(&o, err, "a", "b", NULL), 2);
	assert_non_null(strstr(err, "one SWITCH only"));
}

/* The agent's counter, faked: each count a new number of elephants. */
static unsigned counts;
static int count_fails;

static int fake_count(struct sw_agent *a, uint64_t now)
{
	unsigned i;

	(void)now;
	counts++;
	if (count_fails)
		return -EIO;
	for (i = 0; i < a->nports; i++)
		a->port[i].elephants = 10 * (i + 1) + counts;
	return 0;
}

/*
 * Sends a query for ports from c to the agent, which answers it: seq T0 +
 * seq, T0 the agent's clock.
 */
static void query_agent(struct sw_agent *a, int c, uint64_t seq,
			const uint16_t *want, unsigned n)
{
	uint8_t buf[256];
	size_t len = dard_proto_query(buf, sizeof(buf), K, SENDER, T0 + seq,
				      want, n, dard_proto_query_len(a->nports));

	assert_true(len > 0);
	assert_int_equal(send(c, buf, len, 0), (ssize_t)len);
	sw_answer(a);
}

/* The agent's answer on c, decoded: 0, or -1 when there is none. */
static int answer(int c, struct dard_msg *r)
{
	uint8_t buf[DARD_MSG_MAX];
	char err[DARD_ERR_MAX];
	ssize_t len = recv(c, buf, sizeof(buf), MSG_DONTWAIT);

	if (len < 0)
		return -1;
	assert_int_equal(dard_proto_decode(buf, len, &keys, r, err), 0);
	return 0;
}

/* sw_answer on loopback: the agent, its ports and a client's socket. */
struct answer_run {
	struct sw_port port[2];
	struct sw_agent a;
	int c; /* connected to the agent */
};

/*
 * The agent with a fake counter and two ports, one whose interface is
 * missing, bound to loopback; a client connected to it.
 */
static void answer_start(struct answer_run *x)
{
	struct sockaddr_in sa;
	socklen_t slen = sizeof(sa);
	char err[DARD_ERR_MAX];

	memset(x, 0, sizeof(*x));
	x->port[0] = (struct sw_port){.num = 1, .ifname = "lo", .mbps = 100};
	x->port[1] = (struct sw_port){
		.num = 2, .ifname = "dard-no-such0", .mbps = 100};
	/* A window of an hour: two queries never straddle a quarter. */
	x->a = (struct sw_agent){.port = x->port,
				 .nports = 2,
				 .count = fake_count,
				 .window_ns = 3600000000000ULL,
				 .keys = &keys,
				 .replay = &replay,
				 .wall_us = fake_wall_us,
				 .sock = -1,
				 .ioctl_sock = -1};
	dard_log_init("test_switchd", DARD_LOG_WARN);
	assert_int_equal(sw_replay_init(&replay, (uint8_t[16]){1}), 0);
	counts = 0;
	count_fails = 0;
	assert_int_equal(
		sw_answer_open(&x->a, (struct in_addr){htonl(INADDR_LOOPBACK)},
			       0, err),
		0);
	assert_int_equal(getsockname(x->a.sock, (struct sockaddr *)&sa, &slen),
			 0);
	x->c = socket(AF_INET, SOCK_DGRAM, 0);
	assert_true(x->c >= 0);
	assert_int_equal(connect(x->c, (struct sockaddr *)&sa, sizeof(sa)), 0);
}

static void answer_stop(struct answer_run *x)
{
	close(x->c);
	sw_answer_close(&x->a);
	sw_replay_free(&replay);
}

/* A query is answered from one count, the missing interface's port down. */
static void answer_counted(struct answer_run *x)
{
	struct sw_agent *a = &x->a;
	struct sw_port *port = x->port;
	struct dard_msg r;
	int c = x->c;

	query_agent(a, c, 7, (uint16_t[]){2, 1}, 2);
	assert_int_equal(answer(c, &r), 0);
	assert_int_equal(r.type, DARD_MSG_REPLY);
	assert_true(r.seq == T0 + 7);
	assert_int_equal(r.count, 2);
	assert_int_equal(r.state[0].port, 2);
	assert_int_equal(r.state[0].flags, 0); /* no such interface: down */
	assert_int_equal(r.state[0].elephants, 21);
	assert_int_equal(r.state[1].port, 1);
	assert_int_equal(r.state[1].flags, DARD_PORT_F_UP);
	assert_int_equal(r.state[1].elephants, 11);
	/*
	 * Within the quarter window: the same count answers again, but the
	 * links are looked at anew: port 1's interface has gone.
	 */
	snprintf(port[0].ifname, sizeof(port[0].ifname), "dard-no-such1");
	query_agent(a, c, 8, NULL, 0);
	assert_int_equal(answer(c, &r), 0);
	assert_true(r.seq == T0 + 8);
	assert_int_equal(counts, 1);
	assert_int_equal(r.state[0].elephants, 11);
	assert_int_equal(r.state[0].flags, 0);
	snprintf(port[0].ifname, sizeof(port[0].ifname), "lo");
}

/* A failed count: no answer, counted; the next query counts anew. */
static void answer_count_failed(struct answer_run *x)
{
	struct sw_agent *a = &x->a;
	struct dard_msg r;
	int c = x->c;

	a->counted_ns = 0;
	count_fails = 1;
	query_agent(a, c, 9, NULL, 0);
	assert_int_equal(answer(c, &r), -1);
	assert_int_equal(a->count_errors, 1);
	count_fails = 0;
	query_agent(a, c, 10, NULL, 0);
	assert_int_equal(answer(c, &r), 0);
	assert_true(r.seq == T0 + 10);
	assert_int_equal(counts, 3);
	assert_int_equal(r.state[0].elephants, 13);
}

/*
 * Not a query, a replayed query and one under another key: refused by
 * reason, unanswered; a query in the second key (a rotation) is
 * answered in it.
 */
static void answer_refused(struct answer_run *x)
{
	struct sw_agent *a = &x->a;
	struct dard_msg r;
	int c = x->c;

	/* Not a query: rejected, unanswered. */
	assert_int_equal(send(c, "dard", 4, 0), 4);
	sw_answer(a);
	assert_int_equal(answer(c, &r), -1);
	assert_int_equal(dard_rx_refused(&a->rx), 1);
	assert_int_equal(a->rx.n[DARD_RX_PROTO], 1);
	assert_int_equal(a->queries, 4);
	assert_int_equal(a->replies, 3);
	/* A replayed query: refused, unanswered. */
	query_agent(a, c, 10, NULL, 0);
	assert_int_equal(answer(c, &r), -1);
	assert_int_equal(a->rx.n[DARD_RX_REPLAY], 1);
	/* A seq over 10 s ahead of the agent's clock: refused as clock. */
	query_agent(a, c, DARD_PROTO_SKEW_US + 1, NULL, 0);
	assert_int_equal(answer(c, &r), -1);
	assert_int_equal(a->rx.n[DARD_RX_CLOCK], 1);
	/* A query under another key: refused, unanswered. */
	{
		struct dard_key other = {.id = 3, .k = {8}};
		uint8_t buf[128];
		size_t len = dard_proto_query(buf, sizeof(buf), &other, SENDER,
					      T0 + 77, NULL, 0, 0);

		assert_int_equal(send(c, buf, len, 0), (ssize_t)len);
		sw_answer(a);
		assert_int_equal(answer(c, &r), -1);
		assert_int_equal(a->rx.n[DARD_RX_MAC], 1);
	}
	assert_int_equal(dard_rx_refused(&a->rx), 4);
	assert_int_equal(a->queries, 4);
	/* A query in the second key (a rotation): answered in it. */
	{
		uint8_t buf[256];
		size_t len = dard_proto_query(buf, sizeof(buf), &keys.key[1],
					      SENDER, T0 + 78, NULL, 0,
					      dard_proto_query_len(2));

		assert_int_equal(send(c, buf, len, 0), (ssize_t)len);
		sw_answer(a);
		assert_int_equal(answer(c, &r), 0);
		assert_int_equal(r.key_id, 4);
		assert_true(r.seq == T0 + 78);
	}
}

/*
 * A counter younger than a window: unanswered, counted, not counted
 * from; a query after it is answered.
 */
static void answer_early(struct answer_run *x)
{
	struct sw_agent *a = &x->a;
	struct dard_msg r;
	int c = x->c;

	a->ready_ns = dard_clock_ns(CLOCK_MONOTONIC_COARSE) + 3600000000000ULL;
	a->counted_ns = 0;
	query_agent(a, c, 11, NULL, 0);
	assert_int_equal(answer(c, &r), -1);
	assert_int_equal(a->early, 1);
	assert_int_equal(counts, 3);
	a->ready_ns = 0;
	query_agent(a, c, 12, NULL, 0);
	assert_int_equal(answer(c, &r), 0);
	assert_true(r.seq == T0 + 12);
	assert_int_equal(a->replies, 5);
}

/*
 * sw_answer on loopback with a fake counter: a query is answered from one
 * count per quarter window; a failed count answers nothing (partial
 * counts would mislead) and the next query counts again; a malformed
 * datagram is rejected unanswered; a port whose interface is missing is
 * answered down. One agent throughout, so its counters add up: the
 * steps run in order.
 */
static void test_answer(void **state)
{
	struct answer_run x;

	(void)state;
	answer_start(&x);
	answer_counted(&x);
	answer_count_failed(&x);
	answer_refused(&x);
	answer_early(&x);
	answer_stop(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tally),
		cmocka_unit_test(test_min_bytes),
		cmocka_unit_test(test_tally_bytes),
		cmocka_unit_test(test_load_kbps),
		cmocka_unit_test(test_load_take),
		cmocka_unit_test(test_load_sample),
		cmocka_unit_test(test_decode_rejects),
		cmocka_unit_test(test_reply),
		cmocka_unit_test(test_answer),
		cmocka_unit_test(test_opts),
		cmocka_unit_test(test_opts_reject),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
