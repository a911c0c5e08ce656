// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The switch query protocol: exact bytes, round trips, and every error. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "proto.h"
#include "topo.h"

static struct dard_msg msg;

static void test_query_bytes(void **state)
{
	static const uint8_t want[] = {0xda, 0x4d, 1,	 1,    0, 16, 0, 2,
				       0x12, 0x34, 0x56, 0x78, 0, 3,  0, 4};
	uint8_t buf[64];
	char err[DARD_ERR_MAX] = "";

	(void)state;
	assert_int_equal(dard_proto_query(buf, sizeof(buf), 0x12345678,
					  (uint16_t[]){3, 4}, 2),
			 sizeof(want));
	assert_memory_equal(buf, want, sizeof(want));
	assert_int_equal(dard_proto_decode(buf, sizeof(want), &msg, err), 0);
	assert_int_equal(msg.type, DARD_MSG_QUERY);
	assert_int_equal(msg.seq, 0x12345678);
	assert_int_equal(msg.count, 2);
	assert_int_equal(msg.ports[1], 4);
	/* Every exit port: the header alone, 12 bytes. */
	assert_int_equal(dard_proto_query(buf, sizeof(buf), 1, NULL, 0), 12);
	/* Too small a buffer. */
	assert_int_equal(dard_proto_query(buf, 13, 1, (uint16_t[]){1}, 1), 0);
}

static void test_reply_round_trip(void **state)
{
	struct dard_port_state st[3] = {
		{.port = 1,
		 .flags = DARD_PORT_F_UP,
		 .mbps = 100,
		 .elephants = 2},
		{.port = 2, .flags = 0, .mbps = 1000, .elephants = 0},
		{.port = 65535, .flags = 1, .mbps = 0xfffffff0, .elephants = 7},
	};
	uint8_t buf[DARD_MSG_MAX];
	char err[DARD_ERR_MAX] = "";
	size_t n;

	(void)state;
	n = dard_proto_reply(buf, sizeof(buf), 9, st, 3);
	assert_int_equal(n, 12 + 3 * 12);
	/* The second record's bandwidth, big-endian at byte 28. */
	assert_int_equal(buf[28], 0);
	assert_int_equal(buf[30], 0x03);
	assert_int_equal(buf[31], 0xe8);
	assert_int_equal(dard_proto_decode(buf, n, &msg, err), 0);
	assert_int_equal(msg.type, DARD_MSG_REPLY);
	assert_int_equal(msg.count, 3);
	assert_memory_equal(msg.state, st, sizeof(st));
	assert_int_equal(dard_proto_reply(buf, sizeof(buf), 9, st,
					  DARD_MSG_PORTS_MAX + 1),
			 0);
}

/* A message the decoder must refuse, with words of the reason. */
static void refuse(const uint8_t *buf, size_t len, const char *why)
{
	char err[DARD_ERR_MAX] = "";

	assert_int_equal(dard_proto_decode(buf, len, &msg, err), -EBADMSG);
	if (!strstr(err, why))
		fail_msg("error `%s' does not say `%s'", err, why);
}

static void test_refused(void **state)
{
	uint8_t b[64];
	size_t n;

	(void)state;
	n = dard_proto_query(b, sizeof(b), 1, (uint16_t[]){1, 2}, 2);
	refuse(b, 11, "shorter than the 12-byte header");
	b[0] = 0x45;
	refuse(b, n, "bad magic 0x454d at byte 0");
	b[0] = 0xda;
	b[2] = 2;
	refuse(b, n, "version 2 at byte 2 is not supported");
	b[2] = 1;
	b[3] = 7;
	refuse(b, n, "unknown message type 7 at byte 3");
	b[3] = 1;
	refuse(b, n - 2,
	       "length field says 16 bytes at byte 4, the datagram has 14");
	b[7] = 3;
	refuse(b, n, "3 ports need 18 bytes, the message has 16");
	b[6] = 0x10;
	refuse(b, n, "more than the 1024 a message may carry");
	b[6] = 0;
	b[7] = 2;
	b[15] = 0;
	refuse(b, n, "port 0 at byte 14");
	b[15] = 1;
	refuse(b, n, "port 1 at byte 14 appears twice");
	n = dard_proto_reply(b, sizeof(b), 1,
			     (struct dard_port_state[]){{.port = 1}}, 1);
	b[15] = 2;
	refuse(b, n, "unknown flags 0x0002 at byte 14");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_query_bytes),
		cmocka_unit_test(test_reply_round_trip),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
