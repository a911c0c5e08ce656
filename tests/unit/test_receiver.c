// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The one receiver (daemon/common/receiver.c), with a receiver of switch
 * replies of its own: a forged MAC, an unknown key, a replay, a
 * truncated datagram, the wrong kind of message, a stranger's and a late
 * one are each refused and counted under their name, the benign late
 * one outside the total; a kind the receiver does not tell apart counts
 * as malformed; the log says each kind at most once a second; a flood is
 * drained DARD_RX_DRAIN_MAX at a time.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <cmocka.h>

#include "lo_socket.h"
#include "log.h"
#include "proto.h"
#include "receiver.h"

#define S 1000000000ULL
#define AGENT 0x0a640001U /* 10.100.0.1 */

static const struct dard_keys keys = {.n = 1, .key = {{.id = 3, .k = {9}}}};

/* The test's receiver: replies from AGENT:DARD_PROTO_PORT, each seq once. */
static struct {
	struct dard_msg msg;
	uint64_t spent, now;
	unsigned taken;
	int take_refuses; /* a kind take returns, or 0 */
} r;

static int t_source(void *arg, uint32_t addr, uint16_t port, char *why)
{
	if (addr == AGENT && port == DARD_PROTO_PORT)
		return DARD_RX_TAKEN;
	strcpy(why, "not the agent");
	return DARD_RX_SOURCE;
}

static int t_decode(void *arg, const uint8_t *buf, size_t len, char *err)
{
	return dard_proto_decode(buf, len, &keys, &r.msg, err);
}

static int t_take(void *arg, size_t len, uint32_t addr, uint16_t port,
		  uint64_t now, char *why)
{
	if (r.take_refuses) {
		strcpy(why, "as the test says");
		return r.take_refuses;
	}
	if (r.msg.type != DARD_MSG_REPLY) {
		strcpy(why, "not a reply");
		return DARD_RX_MALFORMED;
	}
	if (r.msg.seq == r.spent) {
		strcpy(why, "replayed");
		return DARD_RX_REPLAY;
	}
	if (r.msg.seq < r.spent) {
		strcpy(why, "too late");
		return DARD_RX_LATE;
	}
	r.spent = r.msg.seq;
	r.taken++;
	return DARD_RX_TAKEN;
}

static uint64_t t_now(void)
{
	return r.now;
}

static const struct dard_rx_ops ops = {
	.what = "reply",
	.max_len = DARD_MSG_MAX,
	.kinds = DARD_RX_BIT(PROTO) | DARD_RX_BIT(KEY) | DARD_RX_BIT(MAC) |
		 DARD_RX_BIT(SOURCE) | DARD_RX_BIT(REPLAY) | DARD_RX_BIT(LATE),
	.source = t_source,
	.decode = t_decode,
	.take = t_take,
	.now = t_now,
};

/* A reply of seq signed with k, into buf: its length. */
static size_t reply(uint8_t *buf, const struct dard_key *k, uint64_t seq)
{
	static const struct dard_port_state st = {1, DARD_PORT_F_UP, 1000, 2,
						  DARD_LOAD_UNKNOWN};
	size_t len = dard_proto_reply(buf, DARD_MSG_MAX, k, 1, seq, &st, 1);

	assert_true(len > 0);
	return len;
}

static int in(struct dard_rx *rx, const void *buf, size_t len, uint32_t addr)
{
	return dard_rx_input(rx, buf, len, addr, DARD_PROTO_PORT, S);
}

static void test_kinds(void **state)
{
	struct dard_key forged = keys.key[0], other = {.id = 4};
	uint8_t buf[DARD_MSG_MAX];
	struct dard_rx rx;
	size_t len;

	(void)state;
	memset(&r, 0, sizeof(r));
	dard_rx_init(&rx, &ops, NULL);
	forged.k[0] ^= 1;
	len = reply(buf, &keys.key[0], 10);
	/* A stranger's: refused before its MAC. */
	assert_int_equal(in(&rx, buf, len, AGENT + 1), DARD_RX_SOURCE);
	/* Forged: the right key id, the wrong key. */
	len = reply(buf, &forged, 10);
	assert_int_equal(in(&rx, buf, len, AGENT), DARD_RX_MAC);
	/* A key we do not have; not our protocol. */
	len = reply(buf, &other, 10);
	assert_int_equal(in(&rx, buf, len, AGENT), DARD_RX_KEY);
	assert_int_equal(in(&rx, "GET / HTTP/1.0", 14, AGENT), DARD_RX_PROTO);
	/*
	 * Truncated: its last byte cut, the MAC is checked over the wrong
	 * bytes; shorter than a header and a MAC, it is malformed.
	 */
	len = reply(buf, &keys.key[0], 10);
	assert_int_equal(in(&rx, buf, len - 1, AGENT), DARD_RX_MAC);
	assert_int_equal(in(&rx, buf, 30, AGENT), DARD_RX_MALFORMED);
	/* Authentic, and taken once; again, a replay. */
	assert_int_equal(in(&rx, buf, len, AGENT), DARD_RX_TAKEN);
	assert_int_equal(in(&rx, buf, len, AGENT), DARD_RX_REPLAY);
	assert_int_equal(r.taken, 1);
	/* The wrong kind of message: a query where a reply is due. */
	len = dard_proto_query(buf, sizeof(buf), &keys.key[0], 1, 11,
			       (uint16_t[]){1}, 1, 0);
	assert_int_equal(in(&rx, buf, len, AGENT), DARD_RX_MALFORMED);
	/* Late: counted, but no attack. */
	len = reply(buf, &keys.key[0], 9);
	assert_int_equal(in(&rx, buf, len, AGENT), DARD_RX_LATE);
	/* A kind this receiver does not tell apart: malformed. */
	r.take_refuses = DARD_RX_CLOCK;
	len = reply(buf, &keys.key[0], 12);
	assert_int_equal(in(&rx, buf, len, AGENT), DARD_RX_MALFORMED);
	r.take_refuses = 0;

	assert_int_equal(rx.n[DARD_RX_TAKEN], 1);
	assert_int_equal(rx.n[DARD_RX_SOURCE], 1);
	assert_int_equal(rx.n[DARD_RX_MAC], 2);
	assert_int_equal(rx.n[DARD_RX_KEY], 1);
	assert_int_equal(rx.n[DARD_RX_PROTO], 1);
	assert_int_equal(rx.n[DARD_RX_MALFORMED], 3);
	assert_int_equal(rx.n[DARD_RX_REPLAY], 1);
	assert_int_equal(rx.n[DARD_RX_LATE], 1);
	assert_int_equal(rx.n[DARD_RX_CLOCK], 0);
	/* The total leaves the late one out. */
	assert_int_equal(dard_rx_refused(&rx), 9);
}

/* Each kind by its one name, and each errno to its kind. */
static void test_names(void **state)
{
	static const struct {
		int err, kind;
		const char *name;
	} row[] = {
		{-EMSGSIZE, DARD_RX_SIZE, "size"},
		{-EPROTONOSUPPORT, DARD_RX_PROTO, "proto"},
		{-ENOKEY, DARD_RX_KEY, "key"},
		{-EKEYREJECTED, DARD_RX_MAC, "mac"},
		{-EBADMSG, DARD_RX_MALFORMED, "malformed"},
		{-EINVAL, DARD_RX_MALFORMED, "malformed"},
		{-ERANGE, DARD_RX_SCOPE, "scope"},
		{-EACCES, DARD_RX_SENDER, "sender"},
		{-ESTALE, DARD_RX_TOPO, "topo"},
		{-EALREADY, DARD_RX_REPLAY, "replay"},
		{-ETIME, DARD_RX_CLOCK, "clock"},
		{-EBUSY, DARD_RX_REPLAY_FULL, "replay_table_full"},
	};
	unsigned i;
	int k;

	(void)state;
	for (i = 0; i < sizeof(row) / sizeof(row[0]); i++) {
		assert_int_equal(dard_rx_kind_of(row[i].err), row[i].kind);
		assert_string_equal(dard_rx_kind_name(row[i].kind),
				    row[i].name);
	}
	for (k = DARD_RX_TAKEN; k < __DARD_RX_KINDS; k++)
		assert_string_not_equal(dard_rx_kind_name(k), "?");
	assert_string_equal(dard_rx_kind_name(DARD_RX_TAKEN), "taken");
	assert_string_equal(dard_rx_kind_name(DARD_RX_LATE), "late");
	assert_string_equal(dard_rx_kind_name(__DARD_RX_KINDS), "?");
	assert_string_equal(dard_rx_kind_name(-1), "?");
}

/* The log: one line a second, of every kind or of each. */
static void test_ratelimit(void **state)
{
	struct dard_rx_ops per_kind = ops;
	struct dard_rx rx;
	int i;

	(void)state;
	dard_log_init("test_receiver", DARD_LOG_WARN);
	dard_rx_init(&rx, &ops, NULL);
	for (i = 0; i < 5; i++) {
		dard_rx_refuse(&rx, DARD_RX_MAC, AGENT, 1, "x", S);
		dard_rx_refuse(&rx, DARD_RX_KEY, AGENT, 1, "x", S);
	}
	assert_int_equal(rx.rl[0].suppressed, 9);
	assert_int_equal(rx.n[DARD_RX_MAC], 5);
	dard_rx_refuse(&rx, DARD_RX_MAC, AGENT, 1, "x", 2 * S + 1);
	assert_int_equal(rx.rl[0].suppressed, 0);

	per_kind.log_per_kind = 1;
	dard_rx_init(&rx, &per_kind, NULL);
	for (i = 0; i < 5; i++) {
		dard_rx_refuse(&rx, DARD_RX_MAC, AGENT, 1, "x", S);
		dard_rx_refuse(&rx, DARD_RX_KEY, AGENT, 1, "x", S);
	}
	assert_int_equal(rx.rl[DARD_RX_MAC].suppressed, 4);
	assert_int_equal(rx.rl[DARD_RX_KEY].suppressed, 4);
	/* Late: never rate-limited, never a warning. */
	dard_rx_refuse(&rx, DARD_RX_LATE, AGENT, 1, "x", S);
	assert_false(rx.rl[DARD_RX_LATE].said);
	assert_int_equal(dard_rx_refused(&rx), 10);
	dard_log_init("test_receiver", DARD_LOG_ERR);
}

/* A UDP socket on 127.0.0.1 with room for a flood: its fd. */

/*
 * A flood: one wakeup takes DARD_RX_DRAIN_MAX datagrams, so that the
 * timer gets its turn, and says the socket is not empty yet; the rest
 * come at the next, which says it is. The source is read from the
 * datagram: loopback is no agent.
 */
static void test_drain(void **state)
{
	struct sockaddr_in sa;
	struct dard_rx rx;
	int fd, tx, empty;
	unsigned i;

	(void)state;
	dard_rx_init(&rx, &ops, NULL);
	fd = unit_lo_socket(&sa);
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	assert_true(tx >= 0);
	for (i = 0; i < DARD_RX_DRAIN_MAX + 3; i++)
		assert_int_equal(sendto(tx, "flood", 5, 0,
					(struct sockaddr *)&sa, sizeof(sa)),
				 5);
	assert_int_equal(dard_rx_drain(&rx, fd, &empty), DARD_RX_DRAIN_MAX);
	assert_false(empty);
	assert_int_equal(rx.n[DARD_RX_SOURCE], DARD_RX_DRAIN_MAX);
	assert_int_equal(dard_rx_drain(&rx, fd, &empty), 3);
	assert_true(empty);
	assert_int_equal(dard_rx_drain(&rx, fd, NULL), 0);
	assert_int_equal(dard_rx_refused(&rx), DARD_RX_DRAIN_MAX + 3);
	close(tx);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_ratelimit),
		cmocka_unit_test(test_drain),
	};

	dard_log_init("test_receiver", DARD_LOG_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
