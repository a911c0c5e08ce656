// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The controller protocol: round trips of every message type, the split
 * of weights over datagrams, every refusal (authentication first, then
 * the layout), and the tree's digest and ToR ranks.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <cmocka.h>
#include <sodium.h>

#include "cproto.h"
#include "gen.h"
#include "keyfile.h"
#include "proto.h"
#include "topo.h"

static struct dard_cp_msg m, got;
static struct dard_keys keys = {.n = 1};
#define K (&keys.key[0])

static int setup(void **state)
{
	unsigned i;

	(void)state;
	K->id = 7;
	for (i = 0; i < DARD_KEY_LEN; i++)
		K->k[i] = 3 * i;
	return 0;
}

static void flows_msg(unsigned type, unsigned n)
{
	unsigned i;

	memset(&m, 0, sizeof(m));
	m.type = type;
	m.flags = DARD_CP_F_FIRST | DARD_CP_F_LAST;
	m.sender = 0xac100001;
	m.topo = 0x12345678;
	m.seq = 0x0102030405060708ULL;
	m.epoch = 99;
	m.count = n; /* may be one too many, to be refused */
	for (i = 0; i < n && i < DARD_CP_FLOWS_MAX; i++) {
		m.flow[i].key.saddr = htonl(0xac100001);
		m.flow[i].key.daddr = htonl(0xac100002 + i);
		m.flow[i].key.sport = htons(40000 + i);
		m.flow[i].key.dport = htons(5201);
		m.flow[i].key.proto = 6;
		m.flow[i].path = i % 4;
	}
}

static void test_flows_round_trip(void **state)
{
	static const unsigned types[] = {DARD_CP_REPORT, DARD_CP_ASSIGN,
					 DARD_CP_ACK};
	uint8_t buf[DARD_CP_MSG_MAX];
	char err[DARD_ERR_MAX] = "";
	unsigned t, i;
	size_t len;

	(void)state;
	for (t = 0; t < 3; t++) {
		flows_msg(types[t], DARD_CP_FLOWS_MAX);
		if (types[t] == DARD_CP_ASSIGN)
			m.algo = DARD_CP_ALGO_OPTIMAL;
		if (types[t] == DARD_CP_REPORT)
			m.flow[3].flags = DARD_CP_FL_END;
		len = dard_cp_encode(buf, sizeof(buf), K, &m);
		assert_int_equal(len, dard_cp_len(&m));
		assert_true(len <= DARD_CP_MSG_MAX);
		assert_int_equal(dard_cp_decode(buf, len, &keys, &got, err), 0);
		assert_int_equal(got.type, types[t]);
		assert_int_equal(got.algo, m.algo);
		assert_int_equal(got.count, DARD_CP_FLOWS_MAX);
		assert_int_equal(got.key_id, 7);
		assert_int_equal(got.sender, m.sender);
		assert_int_equal(got.topo, m.topo);
		assert_true(got.seq == m.seq && got.epoch == 99);
		for (i = 0; i < got.count; i++) {
			assert_memory_equal(&got.flow[i].key, &m.flow[i].key,
					    sizeof(m.flow[i].key));
			assert_int_equal(got.flow[i].path, m.flow[i].path);
			assert_int_equal(got.flow[i].flags, m.flow[i].flags);
		}
	}
	/* One record more does not fit a datagram. */
	flows_msg(DARD_CP_REPORT, DARD_CP_FLOWS_MAX + 1);
	assert_int_equal(dard_cp_encode(buf, sizeof(buf), K, &m), 0);
	/* An empty assignment is a heartbeat. */
	flows_msg(DARD_CP_ASSIGN, 0);
	m.flags |= DARD_CP_F_SELF;
	len = dard_cp_encode(buf, sizeof(buf), K, &m);
	assert_int_equal(len, DARD_CP_HDR_LEN + DARD_CP_MAC_LEN);
	assert_int_equal(dard_cp_decode(buf, len, &keys, &got, err), 0);
	assert_true(got.flags & DARD_CP_F_SELF);
}

/* Whether a node holding file takes a message its sender signed. */
static int takes(const struct dard_keys *sender, const struct dard_keys *file)
{
	uint8_t buf[DARD_CP_MSG_MAX];
	char err[DARD_ERR_MAX] = "";
	size_t len;

	flows_msg(DARD_CP_REPORT, 2);
	len = dard_cp_encode(buf, sizeof(buf), &sender->key[0], &m);
	assert_true(len);
	return dard_cp_decode(buf, len, file, &got, err);
}

/*
 * A key change in two steps (operations.md): the controller's and the
 * hosts' messages, signed with a rotated file's first key, are taken
 * by nodes on the old, the rotated and the promoted file alike.
 */
static void test_rotation(void **state)
{
	struct dard_keys rotated = keys, promoted;
	char err[DARD_ERR_MAX];

	(void)state;
	assert_int_equal(dard_crypto_init(err), 0);
	dard_keys_rotate(&rotated);
	promoted = rotated;
	assert_int_equal(dard_keys_promote(&promoted), 0);
	assert_int_equal(takes(&rotated, &keys), 0);
	assert_int_equal(got.key_id, K->id);
	assert_int_equal(takes(&rotated, &rotated), 0);
	assert_int_equal(takes(&rotated, &promoted), 0);
	assert_int_equal(takes(&promoted, &rotated), 0);
	assert_int_equal(got.key_id, rotated.key[1].id);
	assert_int_equal(takes(&promoted, &keys), -ENOKEY);
}

static void test_weights(void **state)
{
	uint16_t w[DARD_PATHS_MAX];
	uint8_t buf[DARD_CP_MSG_MAX];
	char err[DARD_ERR_MAX] = "";
	unsigned i, sent = 0, msgs = 0, total = 512, at = 0;
	size_t len;

	(void)state;
	for (i = 0; i < DARD_PATHS_MAX; i++)
		w[i] = i + 1;
	/* 512 destination ToRs of 16 paths each, datagram after datagram. */
	while (sent < total) {
		memset(&m, 0, sizeof(m));
		m.type = DARD_CP_WEIGHTS;
		m.algo = DARD_CP_ALGO_OBLIVIOUS;
		m.seq = 1 + msgs;
		while (sent < total && !dard_cp_add_weights(&m, sent, w, 16))
			sent++;
		assert_true(m.count > 0);
		len = dard_cp_encode(buf, sizeof(buf), K, &m);
		assert_int_not_equal(len, 0);
		assert_int_equal(dard_cp_decode(buf, len, &keys, &got, err), 0);
		assert_int_equal(got.count, m.count);
		for (i = 0; i < got.count; i++, at++) {
			assert_int_equal(got.wrec[i].dst_tor, at);
			assert_int_equal(got.wrec[i].npaths, 16);
			assert_memory_equal(got.w + got.wrec[i].off, w,
					    16 * sizeof(*w));
		}
		msgs++;
	}
	assert_int_equal(at, total);
	/* 16 paths: 40 bytes a record, 35 records a datagram. */
	assert_int_equal(msgs, (total + 34) / 35);
	/* 256 paths: two records a datagram, the third refused. */
	memset(&m, 0, sizeof(m));
	m.type = DARD_CP_WEIGHTS;
	m.seq = 1;
	assert_int_equal(dard_cp_add_weights(&m, 0, w, 256), 0);
	assert_int_equal(dard_cp_add_weights(&m, 1, w, 256), 0);
	assert_int_equal(dard_cp_add_weights(&m, 2, w, 256), -ENOSPC);
	assert_int_equal(dard_cp_add_weights(&m, 2, w, 0), -EINVAL);
	assert_int_equal(dard_cp_add_weights(&m, 2, w, 257), -EINVAL);
	memset(w, 0, sizeof(w));
	assert_int_equal(dard_cp_add_weights(&m, 2, w, 3), -EINVAL);
}

/* MAC the first len - 32 bytes into the last 32, as a key holder would. */
static void sign(uint8_t *b, size_t len)
{
	crypto_auth_hmacsha512256(b + len - DARD_CP_MAC_LEN, b,
				  len - DARD_CP_MAC_LEN, K->k);
}

/* Encodes m, lets change spoil it, re-signs it, and wants err's words. */
static void refused(void (*change)(uint8_t *buf, size_t *len), int resign,
		    int want, const char *words)
{
	uint8_t buf[DARD_CP_MSG_MAX + 64];
	char err[DARD_ERR_MAX] = "";
	size_t len;

	flows_msg(DARD_CP_REPORT, 2);
	len = dard_cp_encode(buf, sizeof(buf), K, &m);
	assert_int_not_equal(len, 0);
	change(buf, &len);
	if (resign)
		sign(buf, len);
	assert_int_equal(dard_cp_decode(buf, len, &keys, &got, err), want);
	if (!strstr(err, words))
		fail_msg("error \"%s\" does not say \"%s\"", err, words);
}

static void flip_mac(uint8_t *b, size_t *len)
{
	b[*len - 1] ^= 1;
}

static void flip_body(uint8_t *b, size_t *len)
{
	b[DARD_CP_HDR_LEN + 3] ^= 1;
}

static void bad_magic(uint8_t *b, size_t *len)
{
	b[1] = 0x4d;
}

static void bad_version(uint8_t *b, size_t *len)
{
	b[2] = 2;
}

static void bad_key(uint8_t *b, size_t *len)
{
	b[15] = 8;
}

static void short_msg(uint8_t *b, size_t *len)
{
	*len = DARD_CP_HDR_LEN + 10;
}

static void bad_type(uint8_t *b, size_t *len)
{
	b[3] = 9;
}

static void bad_length(uint8_t *b, size_t *len)
{
	b[5]++;
}

static void bad_count(uint8_t *b, size_t *len)
{
	b[7] = 3;
}

static void bad_flags(uint8_t *b, size_t *len)
{
	b[9] |= DARD_CP_F_SELF; /* only an assignment may say it */
}

static void bad_algo(uint8_t *b, size_t *len)
{
	b[10] = __DARD_CP_ALGO_MAX;
}

static void bad_reserved(uint8_t *b, size_t *len)
{
	b[11] = 1;
}

static void zero_seq(uint8_t *b, size_t *len)
{
	memset(b + 24, 0, 8);
}

static void bad_flow_flags(uint8_t *b, size_t *len)
{
	b[DARD_CP_HDR_LEN + 13] = DARD_CP_FL_FAILED; /* an ACK's */
}

static void bad_path(uint8_t *b, size_t *len)
{
	b[DARD_CP_HDR_LEN + 14] = 1; /* path 256 */
	b[DARD_CP_HDR_LEN + 15] = 0;
}

static void test_refused(void **state)
{
	(void)state;
	refused(flip_mac, 0, -EKEYREJECTED, "bad MAC");
	refused(flip_body, 0, -EKEYREJECTED, "bad MAC");
	refused(bad_magic, 0, -EPROTONOSUPPORT, "magic 0xda4d");
	refused(bad_version, 0, -EPROTONOSUPPORT, "version 2");
	refused(bad_key, 0, -ENOKEY, "unknown key id 8");
	refused(short_msg, 0, -EBADMSG, "shorter than");
	/* Authentic but malformed: a key holder's mistakes. */
	refused(bad_type, 1, -EBADMSG, "type 9");
	refused(bad_length, 1, -EBADMSG, "length field");
	refused(bad_count, 1, -EBADMSG, "3 flow records");
	refused(bad_flags, 1, -EBADMSG, "flags 0x0007");
	refused(bad_algo, 1, -EBADMSG, "unknown algorithm");
	refused(bad_reserved, 1, -EBADMSG, "reserved byte 11");
	refused(zero_seq, 1, -EBADMSG, "seq 0");
	refused(bad_flow_flags, 1, -EBADMSG, "flow flags 0x02");
	refused(bad_path, 1, -EBADMSG, "path 256");
}

/* A switch protocol message under the same key is not a controller's. */
static void test_not_switch_protocol(void **state)
{
	uint8_t buf[DARD_MSG_MAX];
	char err[DARD_ERR_MAX] = "";
	size_t len;

	(void)state;
	len = dard_proto_query(buf, sizeof(buf), K, 1, 5, (uint16_t[]){1}, 1,
			       DARD_CP_MSG_MAX);
	assert_int_not_equal(len, 0);
	assert_int_equal(dard_cp_decode(buf, len, &keys, &got, err),
			 -EPROTONOSUPPORT);
}

static void test_bad_weights(void **state)
{
	uint8_t buf[DARD_CP_MSG_MAX];
	char err[DARD_ERR_MAX] = "";
	size_t len;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.type = DARD_CP_WEIGHTS;
	m.seq = 3;
	assert_int_equal(dard_cp_add_weights(&m, 4, (uint16_t[]){0, 5}, 2), 0);
	len = dard_cp_encode(buf, sizeof(buf), K, &m);
	assert_int_not_equal(len, 0);
	/* The second weight zeroed, re-signed: all zero. */
	buf[DARD_CP_HDR_LEN + 11] = 0;
	sign(buf, len);
	assert_int_equal(dard_cp_decode(buf, len, &keys, &got, err), -EBADMSG);
	assert_non_null(strstr(err, "every weight"));
	/* npaths 3: the message ends first. */
	buf[DARD_CP_HDR_LEN + 11] = 5;
	buf[DARD_CP_HDR_LEN + 5] = 3;
	sign(buf, len);
	assert_int_equal(dard_cp_decode(buf, len, &keys, &got, err), -EBADMSG);
	assert_non_null(strstr(err, "ends first"));
	/* npaths 1: two bytes left over. */
	buf[DARD_CP_HDR_LEN + 5] = 1;
	buf[DARD_CP_HDR_LEN + 9] = 1;
	sign(buf, len);
	assert_int_equal(dard_cp_decode(buf, len, &keys, &got, err), -EBADMSG);
	assert_non_null(strstr(err, "after the last weight record"));
	/* An encoder never writes what the decoder refuses. */
	m.w[0] = m.w[1] = 0;
	assert_int_equal(dard_cp_encode(buf, sizeof(buf), K, &m), 0);
	m.w[1] = 1;
	m.flags = DARD_CP_F_SELF;
	assert_int_equal(dard_cp_encode(buf, sizeof(buf), K, &m), 0);
	m.flags = 0;
	m.seq = 0;
	assert_int_equal(dard_cp_encode(buf, sizeof(buf), K, &m), 0);
}

static void test_topo(void **state)
{
	char err[DARD_ERR_MAX] = "";
	struct dard_topo *a = dard_gen_spec("fattree:4", 100, err);
	struct dard_topo *b = dard_gen_spec("fattree:4", 100, err);
	struct dard_topo *c = dard_gen_spec("fattree:4", 1000, err);
	struct dard_topo *d = dard_gen_spec("clos:4,4,2", 100, err);
	uint32_t r, n = 0;

	(void)state;
	assert_non_null(a);
	assert_non_null(d);
	assert_int_equal(dard_cp_topo_digest(a), dard_cp_topo_digest(b));
	assert_int_not_equal(dard_cp_topo_digest(a), dard_cp_topo_digest(c));
	assert_int_not_equal(dard_cp_topo_digest(a), dard_cp_topo_digest(d));
	for (r = 0;; r++) {
		uint32_t tor = dard_cp_tor_of_rank(a, r);

		if (tor == DARD_NONE)
			break;
		assert_int_equal(dard_cp_tor_rank(a, tor), r);
		n++;
	}
	assert_int_equal(n, 8); /* fattree:4 has 8 ToRs */
	assert_int_equal(dard_cp_tor_rank(a, a->hosts[0]), DARD_NONE);
	assert_int_equal(dard_cp_tor_rank(a, a->roots[0]), DARD_NONE);
	assert_int_equal(dard_cp_tor_rank(a, a->nnodes), DARD_NONE);
	assert_int_equal(dard_cp_tor_rank(a, dard_topo_tor(a, a->hosts[0])), 0);
	dard_topo_free(a);
	dard_topo_free(b);
	dard_topo_free(c);
	dard_topo_free(d);
}

/* Longer than a message may be, even if signed: refused before the MAC,
 * and weight records past what a message can hold never reach m. */
static void test_too_long(void **state)
{
	static uint8_t buf[16384];
	char err[DARD_ERR_MAX] = "";
	size_t at = DARD_CP_HDR_LEN, len;
	unsigned i;

	(void)state;
	memset(&m, 0, sizeof(m));
	m.type = DARD_CP_WEIGHTS;
	m.seq = 9;
	assert_int_equal(dard_cp_add_weights(&m, 0, (uint16_t[]){1}, 1), 0);
	len = dard_cp_encode(buf, sizeof(buf), K, &m);
	assert_int_not_equal(len, 0);
	/* 40 records of 140 paths: 11,520 bytes of weights. */
	for (i = 0; i < 40; i++, at += 8 + 2 * 140) {
		memset(buf + at, 0, 8 + 2 * 140);
		buf[at + 5] = 140;
		buf[at + 9] = 1;
	}
	len = at + DARD_CP_MAC_LEN;
	buf[5] = len & 0xff;
	buf[4] = len >> 8;
	buf[7] = 40;
	sign(buf, len);
	assert_int_equal(dard_cp_decode(buf, len, &keys, &got, err), -EBADMSG);
	assert_non_null(strstr(err, "longer than"));
}

static void test_fresh(void **state)
{
	const uint64_t now = 1800000000ULL * 1000000000ULL;
	char err[DARD_ERR_MAX] = "";

	(void)state;
	assert_true(dard_cp_next_seq(0, now) == now);
	assert_true(dard_cp_next_seq(now, now) == now + 1);
	assert_true(dard_cp_next_seq(now + 5, now) == now + 6);
	assert_int_equal(dard_cp_seq_check(now, 0, now, err), 0);
	assert_int_equal(dard_cp_seq_check(now, now, now, err), -EALREADY);
	assert_non_null(strstr(err, "a replay"));
	/* A recording 11 s old, after a restart (last 0): refused. */
	assert_int_equal(dard_cp_seq_check(now - 11000000000ULL, 0, now, err),
			 -ETIME);
	assert_non_null(strstr(err, "11.0 s behind"));
	assert_int_equal(dard_cp_seq_check(now - 9000000000ULL, 0, now, err),
			 0);
	/* A forged seq far ahead: refused, so it locks no one out. */
	assert_int_equal(dard_cp_seq_check(UINT64_MAX, 0, now, err), -ETIME);
	assert_non_null(strstr(err, "ahead of"));
	assert_int_equal(
		dard_cp_epoch_check(dard_cp_first_epoch(now) + 5, now, err), 0);
	assert_int_equal(
		dard_cp_epoch_check(dard_cp_first_epoch(now + 11000000000ULL),
				    now, err),
		-ETIME);
	assert_int_equal(dard_cp_epoch_check(UINT64_MAX, now, err), -ETIME);
}

/*
 * A sender restarts, its last seq lost: its next seq, from its clock, is
 * above all it sent before (a burst's included), so a receiver that kept
 * the old last takes it at once, and still refuses the old ones. The
 * controller's reports, its pushes and SHARE (dard_share_check) all take
 * seqs through this check.
 */
static void test_sender_restart(void **state)
{
	uint64_t now = 1800000000ULL * 1000000000ULL, last = 0, taken = 0;
	uint64_t old[25];
	char err[DARD_ERR_MAX] = "";
	unsigned i;

	(void)state;
	for (i = 0; i < 25; i++, now += i < 20 ? 1000000 : 0) {
		old[i] = last = dard_cp_next_seq(last, now);
		assert_int_equal(dard_cp_seq_check(old[i], taken, now, err), 0);
		taken = old[i];
	}
	/* Restarted a millisecond later: last is 0 again. */
	now += 1000000;
	last = dard_cp_next_seq(0, now);
	assert_int_equal(dard_cp_seq_check(last, taken, now, err), 0);
	taken = last;
	for (i = 0; i < 25; i++)
		assert_int_equal(dard_cp_seq_check(old[i], taken, now, err),
				 -EALREADY);
}

/*
 * A key holder's epoch at the largest value a host takes is passed by
 * the real controller's own within DARD_CP_SKEW_NS plus one round,
 * however many rounds it ran before: its epochs follow its clock.
 */
static void test_epoch_forged_ahead(void **state)
{
	const uint64_t now = 1700000000ULL * 1000000000ULL + 123456789ULL;
	const uint64_t round = 200000000ULL; /* 0.2 s */
	uint64_t forged = dard_cp_epoch_max(now), e, t;
	char err[DARD_ERR_MAX];
	int rounds = 0;

	(void)state;
	assert_int_equal(dard_cp_epoch_check(forged, now, err), 0);
	assert_int_equal(dard_cp_epoch_check(forged + 1, now, err), -ETIME);
	/* Under 10 s ahead: its seconds are 9 past ours. */
	assert_true((forged >> 20) == now / 1000000000ULL + 9);
	e = dard_cp_first_epoch(now);
	for (t = now; e <= forged; t += round) {
		e = dard_cp_next_epoch(e, t);
		rounds++;
	}
	assert_true(t - now <= DARD_CP_SKEW_NS + round);
	assert_true(rounds > 40);
	/* Rounds faster than the clock still go up by one. */
	assert_true(dard_cp_next_epoch(e, t) == e + 1);
	/* A controller that ran 2^20 rounds in a second keeps going up. */
	assert_true(
		dard_cp_next_epoch(dard_cp_first_epoch(now) + (1 << 20), now) >
		dard_cp_first_epoch(now) + (1 << 20));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flows_round_trip),
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_epoch_forged_ahead),
		cmocka_unit_test(test_rotation),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_not_switch_protocol),
		cmocka_unit_test(test_bad_weights),
		cmocka_unit_test(test_topo),
		cmocka_unit_test(test_too_long),
		cmocka_unit_test(test_fresh),
		cmocka_unit_test(test_sender_restart),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
