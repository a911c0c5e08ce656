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

static void test_query_bytes(void **state)
{
	static const uint8_t want[] = {
		0xda, 0x4d, 3, 1, 0, 56, 0, 2, 0, 0, 0, 5, 0x12, 0x34, 0x56,
		0x78, 0x9a, 0xbc, 0xde, 0xf0, 0, 3, 0, 4,
		/* hmac.new(bytes(range(32)), msg, sha512).digest()[:32] */
		0xc8, 0x92, 0x3a, 0x63, 0x9d, 0x99, 0x46, 0xf1, 0x7f, 0x59,
		0x5d, 0xd5, 0xcb, 0x13, 0x75, 0x22, 0xdc, 0x7b, 0x7c, 0x8d,
		0xfa, 0xfb, 0x60, 0xc6, 0xf1, 0x0f, 0x67, 0x81, 0x94, 0xd4,
		0xce, 0xbc};
	uint8_t buf[128];
	char err[DARD_ERR_MAX] = "";

	(void)state;
	assert_int_equal(dard_proto_query(buf, sizeof(buf), K,
					  0x123456789abcdef0ULL,
					  (uint16_t[]){3, 4}, 2, 0),
			 sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(dard_proto_decode(buf, sizeof(want), &keys, &msg, err),
			 0);
	assert_int_equal(msg.type, DARD_MSG_QUERY);
	assert_true(msg.seq == 0x123456789abcdef0ULL);
	assert_int_equal(msg.key_id, 5);
	assert_int_equal(msg.count, 2);
	assert_int_equal(msg.ports[1], 4);
	/* Every exit port: the header and the MAC, 52 bytes. */
	assert_int_equal(dard_proto_query(buf, sizeof(buf), K, 1, NULL, 0, 0),
			 52);
	/* Too small a buffer; seq 0. */
	assert_int_equal(dard_proto_query(buf, 53, K, 1, (uint16_t[]){1}, 1, 0),
			 0);
	assert_int_equal(
		dard_proto_query(buf, sizeof(buf), K, 0, (uint16_t[]){1}, 1, 0),
		0);
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
		len = dard_proto_query(buf, sizeof(buf), K, 9, ports, n,
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
		0xda, 0x4d, 3, 2, 0, 84, 0, 2, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0,
		9,
		/* port 2, up, 1000 Mbit/s, 3 elephants, load not measured */
		0, 2, 0, 1, 0, 0, 0x03, 0xe8, 0, 0, 0, 3, 0xff, 0xff, 0xff,
		0xff,
		/* port 3, down, 10000 Mbit/s, none, 123456 kbit/s */
		0, 3, 0, 0, 0, 0, 0x27, 0x10, 0, 0, 0, 0, 0, 0x01, 0xe2, 0x40,
		/* hmac.new(bytes(range(32)), msg, sha512).digest()[:32] */
		0x5a, 0xf1, 0x1f, 0xa7, 0x68, 0xe7, 0x0d, 0x73, 0x92, 0x1c,
		0xe1, 0x7e, 0x6c, 0x92, 0xe4, 0xd2, 0x73, 0x24, 0x8d, 0xa6,
		0xda, 0x06, 0x61, 0x5f, 0xc0, 0xe2, 0x16, 0x5b, 0x9b, 0xa2,
		0x15, 0xc9};
	const struct dard_port_state st[2] = {
		{2, DARD_PORT_F_UP, 1000, 3, DARD_LOAD_UNKNOWN},
		{3, 0, 10000, 0, 123456},
	};
	uint8_t buf[128];
	char err[DARD_ERR_MAX] = "";

	(void)state;
	assert_int_equal(dard_proto_reply(buf, sizeof(buf), K, 9, st, 2),
			 sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(
		dard_proto_decode(want, sizeof(want), &keys, &msg, err), 0);
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
	n = dard_proto_reply(buf, sizeof(buf), K, 9, st, 3);
	assert_int_equal(n, 20 + 3 * 16 + 32);
	/* The second record's bandwidth, big-endian at byte 40. */
	assert_int_equal(buf[40], 0);
	assert_int_equal(buf[42], 0x03);
	assert_int_equal(buf[43], 0xe8);
	assert_int_equal(dard_proto_decode(buf, n, &keys, &msg, err), 0);
	assert_int_equal(msg.type, DARD_MSG_REPLY);
	assert_int_equal(msg.count, 3);
	assert_memory_equal(msg.state, st, sizeof(st));
	assert_int_equal(dard_proto_reply(buf, sizeof(buf), K, 9, st,
					  DARD_MSG_PORTS_MAX + 1),
			 0);
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

static void test_refused(void **state)
{
	static const uint8_t v1[] = {0xda, 0x4d, 1, 2, 0, 12, 0, 0, 0, 0, 0, 0};
	uint8_t b[128];
	size_t n;

	(void)state;
	/* Before the MAC: the protocol, the version, the key. */
	refuse(v1, sizeof(v1), -EPROTONOSUPPORT,
	       "version 1 at byte 2 is not supported");
	/* A version 2 reply, 12-byte records, signed with our key: refused. */
	n = dard_proto_reply(b, sizeof(b), K, 1,
			     (struct dard_port_state[]){{.port = 1}}, 1);
	b[2] = 2;
	n -= 4;
	b[5] = n;
	resign(b, n);
	refuse(b, n, -EPROTONOSUPPORT,
	       "version 2 at byte 2 is not supported (this is version 3");
	n = dard_proto_query(b, sizeof(b), K, 1, (uint16_t[]){1, 2}, 2, 0);
	refuse(b, 1, -EPROTONOSUPPORT, "not a dard message");
	b[0] = 0x45;
	refuse(b, n, -EPROTONOSUPPORT, "magic 0x454d at byte 0");
	b[0] = 0xda;
	refuse(b, 51, -EBADMSG,
	       "shorter than the 20-byte header and 32-byte MAC");
	b[11] = 6;
	refuse(b, n, -ENOKEY, "unknown key id 6 at byte 8");
	b[11] = 5;
	/* Anything changed, the MAC is wrong; the MAC itself too. */
	b[21] ^= 1;
	refuse(b, n, -EKEYREJECTED, "bad MAC at byte 24 (key id 5)");
	b[21] ^= 1;
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
	       "length field says 50 bytes at byte 4, the datagram has 56");
	b[5] = 56;
	b[7] = 3;
	resign(b, n);
	refuse(b, n, -EBADMSG, "3 ports need 58 bytes, the message has 56");
	b[6] = 0x10;
	resign(b, n);
	refuse(b, n, -EBADMSG, "more than the 1024 a message may carry");
	b[6] = 0;
	b[7] = 2;
	b[23] = 0;
	resign(b, n);
	refuse(b, n, -EBADMSG, "port 0 at byte 22");
	b[23] = 1;
	resign(b, n);
	refuse(b, n, -EBADMSG, "port 1 at byte 22 appears twice");
	b[23] = 2;
	memset(b + 12, 0, 8);
	resign(b, n);
	refuse(b, n, -EBADMSG, "seq 0 at byte 12");
	/* Padding is zeros, and only a query's. */
	n = dard_proto_query(b, sizeof(b), K, 1, (uint16_t[]){1}, 1, 60);
	b[25] = 1;
	resign(b, n);
	refuse(b, n, -EBADMSG, "padding byte 25 is not zero");
	n = dard_proto_reply(b, sizeof(b), K, 1,
			     (struct dard_port_state[]){{.port = 1}}, 1);
	b[23] = 2;
	resign(b, n);
	refuse(b, n, -EBADMSG, "unknown flags 0x0002 at byte 22");
	b[23] = 0;
	b[5] += 2;
	resign(b, n + 2);
	refuse(b, n + 2, -EBADMSG, "1 port records need 68 bytes");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_query_bytes),
		cmocka_unit_test(test_padding),
		cmocka_unit_test(test_reply_bytes),
		cmocka_unit_test(test_reply_round_trip),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
