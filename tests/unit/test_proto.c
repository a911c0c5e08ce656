// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The switch query protocol: exact bytes (the MAC checked against
 * Python's hmac, HMAC-SHA-512 cut to 32 bytes), round trips, padding, and
 * every error, authentication first.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <sodium.h>

#include "proto.h"
#include "topo.h"

static struct dard_msg msg;
static struct dard_keys keys = {.n = 1};
#define K (&keys.key[0])

static int setup(void **state)
{
	unsigned i;

	(void)state;
	K->id = 5;
	for (i = 0; i < DARD_KEY_LEN; i++)
		K->k[i] = i;
	return 0;
}

#define SENDER 0x0a000102 /* 10.0.1.2 */

static void test_query_bytes(void **state)
{
	static const uint8_t want[] = {
		0xda, 0x4d, 4, 1, 0, 60, 0, 2, 0, 0, 0, 5, 10, 0, 1, 2, 0x12,
		0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0, 3, 0, 4,
		/* hmac.new(bytes(range(32)), msg, sha512).digest()[:32] */
		0x84, 0x7c, 0xde, 0x26, 0x3b, 0x45, 0xef, 0x22, 0x9f, 0x02,
		0x65, 0xfd, 0x8e, 0x74, 0x1c, 0x78, 0x32, 0x06, 0x79, 0xc4,
		0x2f, 0xba, 0xeb, 0xda, 0x75, 0x54, 0x20, 0x68, 0xbc, 0x84,
		0x12, 0x9c};
	uint8_t buf[128];
	char err[DARD_ERR_MAX] = "";

	(void)state;
	assert_int_equal(dard_proto_query(buf, sizeof(buf), K, SENDER,
					  0x123456789abcdef0ULL,
					  (uint16_t[]){3, 4}, 2, 0),
			 sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(dard_proto_decode(buf, sizeof(want), &keys, &msg, err),
			 0);
	assert_int_equal(msg.type, DARD_MSG_QUERY);
	assert_int_equal(msg.sender, SENDER);
	assert_true(msg.seq == 0x123456789abcdef0ULL);
	assert_int_equal(msg.key_id, 5);
	assert_int_equal(msg.count, 2);
	assert_int_equal(msg.ports[1], 4);
	/* Every exit port: the header and the MAC, 56 bytes. */
	assert_int_equal(
		dard_proto_query(buf, sizeof(buf), K, SENDER, 1, NULL, 0, 0),
		56);
	/* Too small a buffer; sender 0; seq 0. */
	assert_int_equal(
		dard_proto_query(buf, 57, K, SENDER, 1, (uint16_t[]){1}, 1, 0),
		0);
	assert_int_equal(dard_proto_query(buf, sizeof(buf), K, 0, 1,
					  (uint16_t[]){1}, 1, 0),
			 0);
	assert_int_equal(dard_proto_query(buf, sizeof(buf), K, SENDER, 0,
					  (uint16_t[]){1}, 1, 0),
			 0);
}

/*
 * A sender's seqs: its clock in µs, each above the last, so that after a
 * restart (last 0 again) they are above everything it sent before.
 */
static void test_next_seq(void **state)
{
	uint64_t seq;

	(void)state;
	assert_true(dard_proto_next_seq(0, 5000000) == 5000000);
	/* The clock has not moved, or went back: one more than the last. */
	assert_true(dard_proto_next_seq(5000000, 5000000) == 5000001);
	assert_true(dard_proto_next_seq(5000001, 4000000) == 5000002);
	/* A burst faster than the clock: strictly increasing all the same. */
	seq = dard_proto_next_seq(0, 7000000);
	for (int i = 0; i < 1000; i++) {
		uint64_t next = dard_proto_next_seq(seq, 7000000 + i / 10);

		assert_true(next > seq);
		seq = next;
	}
	/* Restarted a second later: above every seq of the burst. */
	assert_true(dard_proto_next_seq(0, 8000000) > seq);
}

/* The padding rule: a query is at most DARD_PROTO_SLACK short of its reply. */
static void test_padding(void **state)
{
	static uint8_t buf[DARD_MSG_MAX];
	static uint16_t ports[DARD_MSG_PORTS_MAX];
	char err[DARD_ERR_MAX] = "";
	unsigned n;
	size_t len;

	(void)state;
	for (n = 0; n < DARD_MSG_PORTS_MAX; n++)
		ports[n] = n + 1;
	for (n = 0; n <= DARD_MSG_PORTS_MAX; n += 73) {
		len = dard_proto_query(buf, sizeof(buf), K, SENDER, 9, ports, n,
				       dard_proto_query_len(n));
		assert_int_equal(len, dard_proto_query_len(n));
		assert_true(len + DARD_PROTO_SLACK >= dard_proto_reply_len(n));
		assert_int_equal(dard_proto_decode(buf, len, &keys, &msg, err),
				 0);
		assert_int_equal(msg.count, n);
		assert_int_equal(msg.len, len);
	}
	/* Four records fit without padding. */
	assert_int_equal(dard_proto_query_len(4), DARD_HDR_LEN + 8 + 32);
	assert_int_equal(dard_proto_query_len(1024),
			 dard_proto_reply_len(1024) - DARD_PROTO_SLACK);
}

/* A reply's records, 16 bytes each, the load last: "not measured" too. */
static void test_reply_bytes(void **state)
{
	static const uint8_t want[] = {
		0xda, 0x4d, 4, 2, 0, 88, 0, 2, 0, 0, 0, 5, 10, 0, 1, 2, 0, 0, 0,
		0, 0, 0, 0, 9,
		/* port 2, up, 1000 Mbit/s, 3 elephants, load not measured */
		0, 2, 0, 1, 0, 0, 0x03, 0xe8, 0, 0, 0, 3, 0xff, 0xff, 0xff,
		0xff,
		/* port 3, down, 10000 Mbit/s, none, 123456 kbit/s */
		0, 3, 0, 0, 0, 0, 0x27, 0x10, 0, 0, 0, 0, 0, 0x01, 0xe2, 0x40,
		/* hmac.new(bytes(range(32)), msg, sha512).digest()[:32] */
		0x6b, 0xb2, 0xad, 0x16, 0xca, 0xde, 0x66, 0x64, 0xe4, 0x97,
		0x22, 0x59, 0xf5, 0xd3, 0xba, 0x4d, 0xe0, 0xab, 0x07, 0x44,
		0xf3, 0x01, 0xc4, 0x61, 0x59, 0x63, 0xb7, 0x5e, 0xa9, 0x7f,
		0x63, 0x73};
	const struct dard_port_state st[2] = {
		{2, DARD_PORT_F_UP, 1000, 3, DARD_LOAD_UNKNOWN},
		{3, 0, 10000, 0, 123456},
	};
	uint8_t buf[128];
	char err[DARD_ERR_MAX] = "";

	(void)state;
	assert_int_equal(
		dard_proto_reply(buf, sizeof(buf), K, SENDER, 9, st, 2),
		sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(
		dard_proto_decode(want, sizeof(want), &keys, &msg, err), 0);
	assert_int_equal(msg.sender, SENDER);
	assert_true(msg.seq == 9);
	assert_int_equal(msg.state[0].load_kbps, DARD_LOAD_UNKNOWN);
	assert_int_equal(msg.state[1].load_kbps, 123456);
}

static void test_reply_round_trip(void **state)
{
	struct dard_port_state st[3] = {
		{.port = 1,
		 .flags = DARD_PORT_F_UP,
		 .mbps = 100,
		 .elephants = 2,
		 .load_kbps = DARD_LOAD_UNKNOWN},
		{.port = 2, .flags = 0, .mbps = 1000, .elephants = 0},
		{.port = 65535,
		 .flags = 1,
		 .mbps = 0xfffffff0,
		 .elephants = 7,
		 .load_kbps = DARD_LOAD_MAX},
	};
	uint8_t buf[DARD_MSG_MAX];
	char err[DARD_ERR_MAX] = "";
	size_t n;

	(void)state;
	n = dard_proto_reply(buf, sizeof(buf), K, SENDER, 9, st, 3);
	assert_int_equal(n, 24 + 3 * 16 + 32);
	/* The second record's bandwidth, big-endian at byte 44. */
	assert_int_equal(buf[44], 0);
	assert_int_equal(buf[46], 0x03);
	assert_int_equal(buf[47], 0xe8);
	assert_int_equal(dard_proto_decode(buf, n, &keys, &msg, err), 0);
	assert_int_equal(msg.type, DARD_MSG_REPLY);
	assert_int_equal(msg.count, 3);
	assert_memory_equal(msg.state, st, sizeof(st));
	assert_int_equal(dard_proto_reply(buf, sizeof(buf), K, SENDER, 9, st,
					  DARD_MSG_PORTS_MAX + 1),
			 0);
	assert_int_equal(dard_proto_reply(buf, sizeof(buf), K, 0, 9, st, 3), 0);
}

/* A message the decoder must refuse with ret, with words of the reason. */
static void refuse(const uint8_t *buf, size_t len, int ret, const char *why)
{
	char err[DARD_ERR_MAX] = "";

	assert_int_equal(dard_proto_decode(buf, len, &keys, &msg, err), ret);
	if (!strstr(err, why))
		fail_msg("error `%s' does not say `%s'", err, why);
}

/* Signs b's first n - 32 bytes anew, as an attacker with the key could. */
static void resign(uint8_t *b, size_t n)
{
	crypto_auth_hmacsha512256(b + n - DARD_MAC_LEN, b, n - DARD_MAC_LEN,
				  K->k);
}

/*
 * A watch is a query of type 3, padded alike; a notice a reply of type 4;
 * each decodes to its type, and type 5 is none.
 */
static void test_watch_notice(void **state)
{
	static const struct dard_port_state st[] = {
		{.port = 2, .flags = 0, .mbps = 100, .load_kbps = 7}};
	const uint32_t agent = 0xac180001; /* 172.24.0.1 */
	uint8_t b[128], q[128];
	char err[DARD_ERR_MAX] = "";
	size_t n;

	(void)state;
	n = dard_proto_watch(b, sizeof(b), K, SENDER, 9, agent,
			     (uint16_t[]){2, 3}, 2, dard_proto_watch_len(2));
	assert_int_equal(n, dard_proto_watch_len(2));
	assert_int_equal(dard_proto_query(q, sizeof(q), K, SENDER, 9,
					  (uint16_t[]){2, 3}, 2,
					  dard_proto_query_len(2)),
			 n - 4);
	assert_int_equal(b[3], DARD_MSG_WATCH);
	/* The agent's address after the header, then the ports. */
	assert_memory_equal(b + 24, ((uint8_t[]){172, 24, 0, 1, 0, 2, 0, 3}),
			    8);
	assert_int_equal(dard_proto_decode(b, n, &keys, &msg, err), 0);
	assert_int_equal(msg.type, DARD_MSG_WATCH);
	assert_int_equal(msg.agent, agent);
	assert_int_equal(msg.count, 2);
	assert_int_equal(msg.ports[1], 3);
	assert_true(dard_proto_asks(msg.type));
	/* No agent, no port: never sent. */
	assert_int_equal(dard_proto_watch(b, sizeof(b), K, SENDER, 9, 0,
					  (uint16_t[]){2}, 1, 0),
			 0);
	assert_int_equal(
		dard_proto_watch(b, sizeof(b), K, SENDER, 9, agent, NULL, 0, 0),
		0);
	n = dard_proto_notice(b, sizeof(b), K, SENDER, 10, agent, st, 1);
	assert_int_equal(n, dard_proto_reply_len(1) + 4);
	assert_int_equal(dard_proto_decode(b, n, &keys, &msg, err), 0);
	assert_int_equal(msg.type, DARD_MSG_NOTICE);
	assert_int_equal(msg.agent, agent);
	assert_false(dard_proto_asks(msg.type));
	assert_true(msg.seq == 10);
	assert_int_equal(msg.state[0].port, 2);
	assert_int_equal(msg.state[0].flags, 0);
	assert_int_equal(msg.state[0].load_kbps, 7);
	/* A reply has no agent. */
	n = dard_proto_reply(q, sizeof(q), K, SENDER, 10, st, 1);
	assert_int_equal(dard_proto_decode(q, n, &keys, &msg, err), 0);
	assert_int_equal(msg.agent, 0);
	/* Authentic but agent 0, or no record. */
	n = dard_proto_notice(b, sizeof(b), K, SENDER, 10, agent, st, 1);
	memset(b + 24, 0, 4);
	resign(b, n);
	refuse(b, n, -EBADMSG, "agent 0 at byte 24");
	n = dard_proto_notice(b, sizeof(b), K, SENDER, 10, agent, st, 1);
	b[7] = 0;
	resign(b, n - 16);
	refuse(b, n - 16, -EBADMSG, "length field says");
	b[5] = (uint8_t)(n - 16);
	resign(b, n - 16);
	refuse(b, n - 16, -EBADMSG, "no ports at byte 6");
	n = dard_proto_notice(b, sizeof(b), K, SENDER, 10, agent, st, 1);
	b[3] = 5;
	resign(b, n);
	refuse(b, n, -EBADMSG, "unknown message type 5 at byte 3");
	b[3] = 0;
	resign(b, n);
	refuse(b, n, -EBADMSG, "unknown message type 0 at byte 3");
}

static void test_refused(void **state)
{
	static const uint8_t v1[] = {0xda, 0x4d, 1, 2, 0, 12, 0, 0, 0, 0, 0, 0};
	uint8_t b[128];
	size_t n;
	int v;

	(void)state;
	/* Before the MAC: the protocol, the version, the key. */
	refuse(v1, sizeof(v1), -EPROTONOSUPPORT,
	       "version 1 at byte 2 is not supported");
	/*
	 * Versions 2 and 3: a 20-byte header without the sender, signed
	 * with our key, the seq random (a replay table could not bound it).
	 */
	for (v = 2; v <= 3; v++) {
		n = dard_proto_query(b, sizeof(b), K, SENDER, 1,
				     (uint16_t[]){1}, 1, 0);
		memmove(b + 12, b + 16, n - 16);
		n -= 4;
		b[2] = v;
		b[5] = n;
		resign(b, n);
		refuse(b, n, -EPROTONOSUPPORT,
		       v == 3 ? "version 3 at byte 2 is not supported (this is "
				"version 4"
			      : "version 2 at byte 2 is not supported");
	}
	n = dard_proto_query(b, sizeof(b), K, SENDER, 1, (uint16_t[]){1, 2}, 2,
			     0);
	assert_int_equal(n, 60);
	refuse(b, 1, -EPROTONOSUPPORT, "not a dard message");
	b[0] = 0x45;
	refuse(b, n, -EPROTONOSUPPORT, "magic 0x454d at byte 0");
	b[0] = 0xda;
	refuse(b, 55, -EBADMSG,
	       "shorter than the 24-byte header and 32-byte MAC");
	b[11] = 6;
	refuse(b, n, -ENOKEY, "unknown key id 6 at byte 8");
	b[11] = 5;
	/* Anything changed, the MAC is wrong; the MAC itself too. */
	b[25] ^= 1;
	refuse(b, n, -EKEYREJECTED, "bad MAC at byte 28 (key id 5)");
	b[25] ^= 1;
	/* The sender is authenticated as all the rest. */
	b[15] ^= 1;
	refuse(b, n, -EKEYREJECTED, "bad MAC");
	b[15] ^= 1;
	b[n - 1] ^= 1;
	refuse(b, n, -EKEYREJECTED, "bad MAC");
	b[n - 1] ^= 1;
	refuse(b, n - 2, -EKEYREJECTED, "bad MAC");
	/* Authentic but malformed: what a holder of the key could send. */
	b[3] = 7;
	resign(b, n);
	refuse(b, n, -EBADMSG, "unknown message type 7 at byte 3");
	b[3] = 1;
	b[5] = 50;
	resign(b, n);
	refuse(b, n, -EBADMSG,
	       "length field says 50 bytes at byte 4, the datagram has 60");
	b[5] = 60;
	b[7] = 3;
	resign(b, n);
	refuse(b, n, -EBADMSG, "3 ports need 62 bytes, the message has 60");
	b[6] = 0x10;
	resign(b, n);
	refuse(b, n, -EBADMSG, "more than the 1024 a message may carry");
	b[6] = 0;
	b[7] = 2;
	b[27] = 0;
	resign(b, n);
	refuse(b, n, -EBADMSG, "port 0 at byte 26");
	b[27] = 1;
	resign(b, n);
	refuse(b, n, -EBADMSG, "port 1 at byte 26 appears twice");
	b[27] = 2;
	memset(b + 12, 0, 4);
	resign(b, n);
	refuse(b, n, -EBADMSG, "sender 0 at byte 12");
	b[15] = 1;
	memset(b + 16, 0, 8);
	resign(b, n);
	refuse(b, n, -EBADMSG, "seq 0 at byte 16");
	/* Padding is zeros, and only a query's. */
	n = dard_proto_query(b, sizeof(b), K, SENDER, 1, (uint16_t[]){1}, 1,
			     64);
	b[29] = 1;
	resign(b, n);
	refuse(b, n, -EBADMSG, "padding byte 29 is not zero");
	n = dard_proto_reply(b, sizeof(b), K, SENDER, 1,
			     (struct dard_port_state[]){{.port = 1}}, 1);
	b[27] = 2;
	resign(b, n);
	refuse(b, n, -EBADMSG, "unknown flags 0x0002 at byte 26");
	b[27] = 0;
	b[5] += 2;
	resign(b, n + 2);
	refuse(b, n + 2, -EBADMSG, "1 port records need 72 bytes");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_query_bytes),
		cmocka_unit_test(test_next_seq),
		cmocka_unit_test(test_padding),
		cmocka_unit_test(test_reply_bytes),
		cmocka_unit_test(test_reply_round_trip),
		cmocka_unit_test(test_watch_notice),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
