// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Sharing among a ToR's hosts (share.h): the scope on a fat-tree, round
 * trips, every refusal (length, authentication, then the layout and the
 * records), the sender, tree and seq checks, and the receiver's rules (a
 * share never overrides a fresher state, never kills nor revives a
 * link, and covers a link only until our next tick).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sodium.h>

#include "cproto.h"
#include "gen.h"
#include "keyfile.h"
#include "proto.h"
#include "share.h"

#define NS 1000000000ULL

static struct dard_share_msg m, got;
static struct dard_keys keys = {.n = 1};
static struct dard_topo *t;
static struct dard_share_scope sc;
#define K (&keys.key[0])

static int setup(void **state)
{
	char err[DARD_ERR_MAX];
	unsigned i;

	(void)state;
	K->id = 9;
	for (i = 0; i < DARD_KEY_LEN; i++)
		K->k[i] = 5 * i + 1;
	t = dard_gen_spec("fattree:4", 1000, err);
	if (!t)
		return -1;
	return dard_share_scope_init(&sc, t, dard_topo_tor(t, t->hosts[0]));
}

static int teardown(void **state)
{
	(void)state;
	dard_share_scope_free(&sc);
	dard_topo_free(t);
	return 0;
}

/* The first n directed links in scope, as records. */
static void fill(unsigned n)
{
	uint32_t dl;

	memset(&m, 0, sizeof(m));
	m.type = DARD_SHARE_MSG;
	m.sender = 0x0a000001;
	m.topo = dard_cp_topo_digest(t);
	m.seq = 50 * NS;
	for (dl = 0; dl < sc.ndl && m.count < n; dl++) {
		struct dard_share_rec *r = &m.rec[m.count];

		if (!sc.in[dl])
			continue;
		/* Loads measured but for record 1's. */
		*r = (struct dard_share_rec){
			dl, m.count, DARD_PORT_F_UP, m.count,
			m.count == 1 ? DARD_LOAD_UNKNOWN : 1500 * m.count};
		m.count++;
	}
}

static void test_scope(void **state)
{
	uint32_t tor = sc.tor, n, l, nin = 0, nabove = 0;

	(void)state;
	/* fattree:4: the ToR, its pod's 2 aggregation switches, 4 cores. */
	for (n = 0; n < t->nnodes; n++)
		nabove += dard_share_scope_switch(&sc, n);
	assert_int_equal(nabove, 7);
	assert_true(dard_share_scope_switch(&sc, tor));
	assert_false(dard_share_scope_switch(&sc, t->hosts[0]));
	/*
	 * Out of the ToR 2, out of each agg 2 up and 2 down, out of each
	 * core 4 down: 2 + 8 + 16.
	 */
	for (l = 0; l < sc.ndl; l++)
		nin += sc.in[l];
	assert_int_equal(nin, 26);
	/* Nothing towards a host. */
	for (l = 0; l < t->nlinks; l++)
		if (t->node[t->link[l].down].is_host) {
			assert_false(sc.in[dard_dlink(l, DARD_UP)]);
			assert_false(sc.in[dard_dlink(l, DARD_DOWN)]);
		}
	/* A host is no ToR. */
	struct dard_share_scope bad;
	assert_int_equal(dard_share_scope_init(&bad, t, t->hosts[0]), -EINVAL);
}

static void test_round_trip(void **state)
{
	uint8_t buf[DARD_SHARE_MSG_MAX];
	char err[DARD_ERR_MAX] = "";
	size_t len;
	unsigned i;

	(void)state;
	fill(24);
	len = dard_share_encode(buf, sizeof(buf), K, &m);
	assert_int_equal(len, dard_share_len(DARD_SHARE_MSG, 24));
	assert_int_equal(dard_share_decode(buf, len, &keys, &sc, &got, err), 0);
	assert_int_equal(got.count, 24);
	assert_int_equal(got.len, len);
	assert_int_equal(got.key_id, 9);
	assert_int_equal(got.sender, m.sender);
	assert_int_equal(got.topo, m.topo);
	assert_true(got.seq == m.seq);
	for (i = 0; i < 24; i++)
		assert_memory_equal(&got.rec[i], &m.rec[i], sizeof(m.rec[i]));
	/* A record is 12 bytes, its load the last 4: 3000 kbit/s at 2. */
	assert_int_equal(len, 32 + 24 * 12 + 32);
	assert_memory_equal(buf + 32 + 2 * 12 + 8,
			    ((uint8_t[]){0, 0, 0x0b, 0xb8}), 4);
	assert_memory_equal(buf + 32 + 12 + 8,
			    ((uint8_t[]){0xff, 0xff, 0xff, 0xff}), 4);
	assert_int_equal(got.rec[1].load_kbps, DARD_LOAD_UNKNOWN);
	/* An empty share is a share. */
	m.count = 0;
	len = dard_share_encode(buf, sizeof(buf), K, &m);
	assert_int_equal(len, DARD_SHARE_HDR_LEN + DARD_SHARE_MAC_LEN);
	assert_int_equal(dard_share_decode(buf, len, &keys, &sc, &got, err), 0);
	/* The most records fit a datagram, one more does not encode. */
	m.count = DARD_SHARE_RECS_MAX;
	for (i = 0; i < m.count; i++)
		m.rec[i] = (struct dard_share_rec){i, 1, 0, 0, i};
	len = dard_share_encode(buf, sizeof(buf), K, &m);
	assert_true(len && len <= DARD_SHARE_MSG_MAX);
	assert_int_equal(dard_share_decode(buf, len, &keys, NULL, &got, err),
			 0);
	m.count++;
	assert_int_equal(dard_share_encode(buf, sizeof(buf), K, &m), 0);
	m.count = 1;
	m.seq = 0;
	assert_int_equal(dard_share_encode(buf, sizeof(buf), K, &m), 0);
	m.seq = 1;
	m.rec[0].flags = 2;
	assert_int_equal(dard_share_encode(buf, sizeof(buf), K, &m), 0);
	m.rec[0].flags = 0;
	assert_int_equal(dard_share_encode(buf, 10, K, &m), 0);
}

static void test_want(void **state)
{
	static uint8_t buf[DARD_SHARE_MSG_MAX];
	char err[DARD_ERR_MAX] = "";
	size_t len;
	unsigned i;

	(void)state;
	fill(5);
	m.type = DARD_SHARE_WANT;
	for (i = 0; i < 5; i++)
		m.want[i] = m.rec[i].dl;
	len = dard_share_encode(buf, sizeof(buf), K, &m);
	assert_int_equal(len, 32 + 4 * 5 + 32);
	assert_int_equal(dard_share_decode(buf, len, &keys, &sc, &got, err), 0);
	assert_int_equal(got.type, DARD_SHARE_WANT);
	assert_int_equal(got.count, 5);
	assert_memory_equal(got.want, m.want, 5 * sizeof(m.want[0]));
	/* The most a datagram holds, and no more. */
	m.count = DARD_SHARE_WANTS_MAX;
	for (i = 0; i < m.count; i++)
		m.want[i] = i;
	len = dard_share_encode(buf, sizeof(buf), K, &m);
	assert_int_equal(len, DARD_SHARE_MSG_MAX);
	assert_int_equal(dard_share_decode(buf, len, &keys, NULL, &got, err),
			 0);
	m.count++;
	assert_int_equal(dard_share_encode(buf, sizeof(buf), K, &m), 0);
	/* Out of scope, twice, unknown type. */
	m.count = 2;
	m.want[1] = sc.ndl + 3;
	len = dard_share_encode(buf, sizeof(buf), K, &m);
	assert_int_equal(dard_share_decode(buf, len, &keys, &sc, &got, err),
			 -ERANGE);
	assert_non_null(strstr(err, "at byte 36"));
	m.want[1] = m.want[0];
	len = dard_share_encode(buf, sizeof(buf), K, &m);
	assert_int_equal(dard_share_decode(buf, len, &keys, NULL, &got, err),
			 -EBADMSG);
	assert_non_null(strstr(err, "appears twice"));
	m.type = 3;
	assert_int_equal(dard_share_encode(buf, sizeof(buf), K, &m), 0);
	assert_int_equal(dard_share_len(3, 1), 0);
}

/* Signs buf[0, len) again after a change, as a key holder could. */
static void resign(uint8_t *buf, size_t len)
{
	crypto_auth_hmacsha512256(buf + len - DARD_SHARE_MAC_LEN, buf,
				  len - DARD_SHARE_MAC_LEN, K->k);
}

static int refused(const uint8_t *buf, size_t len, const char *what)
{
	char err[DARD_ERR_MAX] = "";
	int ret = dard_share_decode(buf, len, &keys, &sc, &got, err);

	assert_non_null(strstr(err, what));
	return ret;
}

static void test_refusals(void **state)
{
	static uint8_t buf[2 * DARD_SHARE_MSG_MAX];
	struct dard_keys other = keys;
	char err[DARD_ERR_MAX] = "";
	size_t len;

	(void)state;
	fill(3);
	len = dard_share_encode(buf, sizeof(buf), K, &m);
	/* Oversize: refused before any hashing. */
	assert_int_equal(refused(buf, DARD_SHARE_MSG_MAX + 1, "longer than"),
			 -EMSGSIZE);
	/* Truncated: the MAC fails, or the header is cut. */
	assert_int_equal(refused(buf, len - 1, "bad MAC"), -EKEYREJECTED);
	assert_int_equal(refused(buf, 40, "shorter than"), -EBADMSG);
	assert_int_equal(refused(buf, 1, "not a dard share"), -EPROTONOSUPPORT);
	/* Wrong key: another key under the same id, or an unknown id. */
	other.key[0].k[0] ^= 1;
	assert_int_equal(dard_share_decode(buf, len, &other, &sc, &got, err),
			 -EKEYREJECTED);
	other.key[0] = *K;
	other.key[0].id = 10;
	assert_int_equal(dard_share_decode(buf, len, &other, &sc, &got, err),
			 -ENOKEY);
	/* Another protocol's magic, another version. */
	buf[1] ^= 1;
	assert_int_equal(refused(buf, len, "magic"), -EPROTONOSUPPORT);
	buf[1] ^= 1;
	/* Version 1, 8-byte records, without loads: refused by name. */
	buf[2] = 1;
	resign(buf, len);
	assert_int_equal(refused(buf, len,
				 "share version 1 at byte 2 is not "
				 "supported (this is version 2"),
			 -EPROTONOSUPPORT);
	buf[2] = DARD_SHARE_VERSION;
	/* Authentic but malformed: type, length, count, reserved, seq. */
	buf[3] = 3;
	resign(buf, len);
	assert_int_equal(refused(buf, len, "message type 3"), -EBADMSG);
	/* A SHARE's records read as a WANT's do not add up. */
	buf[3] = DARD_SHARE_WANT;
	resign(buf, len);
	assert_int_equal(refused(buf, len, "need 76 bytes"), -EBADMSG);
	buf[3] = DARD_SHARE_MSG;
	buf[5]++;
	resign(buf, len);
	assert_int_equal(refused(buf, len, "length field"), -EBADMSG);
	buf[5]--;
	buf[7]++;
	resign(buf, len);
	assert_int_equal(refused(buf, len, "4 records at byte 6"), -EBADMSG);
	buf[7]--;
	buf[21] = 1;
	resign(buf, len);
	assert_int_equal(refused(buf, len, "reserved"), -EBADMSG);
	buf[21] = 0;
	memset(buf + 24, 0, 8);
	resign(buf, len);
	assert_int_equal(refused(buf, len, "seq 0"), -EBADMSG);
}

/* Whether a node holding file takes a share sender signed, as dardd does. */
static int takes(const struct dard_keys *sender, const struct dard_keys *file)
{
	uint8_t buf[DARD_SHARE_MSG_MAX];
	char err[DARD_ERR_MAX] = "";
	size_t len;

	fill(2);
	len = dard_share_encode(buf, sizeof(buf), &sender->key[0], &m);
	assert_true(len);
	return dard_share_decode(buf, len, file, &sc, &got, err);
}

/*
 * A key change in two steps (operations.md): a share signed with a
 * rotated file's first key is taken by every node, whether it holds
 * the old file, the rotated one or the promoted one; after the promote
 * it is signed with the new key, which every rotated node takes.
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
	/* Step 2: the rotated file still signs with the old key. */
	assert_int_equal(takes(&rotated, &keys), 0);
	assert_int_equal(got.key_id, K->id);
	assert_int_equal(takes(&rotated, &rotated), 0);
	assert_int_equal(takes(&rotated, &promoted), 0);
	assert_int_equal(takes(&keys, &rotated), 0);
	/* Step 3: the promoted file signs with the new key... */
	assert_int_equal(takes(&promoted, &rotated), 0);
	assert_int_equal(got.key_id, rotated.key[1].id);
	assert_int_equal(takes(&promoted, &promoted), 0);
	/* ...which a node skipped in step 2 refuses. */
	assert_int_equal(takes(&promoted, &keys), -ENOKEY);
}

static void test_records(void **state)
{
	static uint8_t buf[DARD_SHARE_MSG_MAX];
	uint32_t out = 0;
	size_t len;

	(void)state;
	fill(3);
	/* Beyond the tree. */
	m.rec[1].dl = sc.ndl;
	len = dard_share_encode(buf, sizeof(buf), K, &m);
	assert_int_equal(refused(buf, len, "beyond the tree's"), -ERANGE);
	/* In the tree, but not a shared link (towards a host). */
	while (sc.in[out])
		out++;
	m.rec[1].dl = out;
	len = dard_share_encode(buf, sizeof(buf), K, &m);
	assert_int_equal(refused(buf, len, "not one a ToR's hosts share"),
			 -ERANGE);
	/* Twice. */
	m.rec[1].dl = m.rec[2].dl;
	len = dard_share_encode(buf, sizeof(buf), K, &m);
	assert_int_equal(refused(buf, len, "appears twice"), -EBADMSG);
	/* Unknown flags (the encoder refuses them: written by hand). */
	fill(3);
	len = dard_share_encode(buf, sizeof(buf), K, &m);
	buf[DARD_SHARE_HDR_LEN + DARD_SHARE_REC_LEN + 6] = 0x80;
	resign(buf, len);
	assert_int_equal(refused(buf, len, "unknown flags 0x80 at byte 50"),
			 -EBADMSG);
}

static void test_check(void **state)
{
	char err[DARD_ERR_MAX] = "";
	uint64_t now = 50 * NS;

	(void)state;
	fill(1);
	assert_int_equal(dard_share_check(&m, m.sender, m.topo, 0, now, err),
			 0);
	assert_int_equal(
		dard_share_check(&m, m.sender + 1, m.topo, 0, now, err),
		-EACCES);
	assert_non_null(strstr(err, "not the peer"));
	assert_int_equal(
		dard_share_check(&m, m.sender, m.topo ^ 1, 0, now, err),
		-ESTALE);
	assert_non_null(strstr(err, "digest"));
	/* Replayed: not above the last taken. */
	assert_int_equal(
		dard_share_check(&m, m.sender, m.topo, m.seq, now, err),
		-EALREADY);
	/* Stale or ahead: beyond the skew either way. */
	assert_int_equal(dard_share_check(&m, m.sender, m.topo, 0,
					  now + DARD_CP_SKEW_NS + 1, err),
			 -ETIME);
	assert_int_equal(dard_share_check(&m, m.sender, m.topo, 0,
					  now - DARD_CP_SKEW_NS - 1, err),
			 -ETIME);
	assert_int_equal(dard_share_check(&m, m.sender, m.topo, 0,
					  now + DARD_CP_SKEW_NS, err),
			 0);
}

static void test_apply(void **state)
{
	struct dard_lstate *ls = calloc(sc.ndl, sizeof(*ls));
	uint64_t *when = calloc(sc.ndl, sizeof(*when));
	struct dard_share_seen seen = {calloc(sc.ndl, 8)};
	uint64_t now = 100 * NS, wall;
	struct dard_share_counts c;
	uint32_t a, b, e, d;

	(void)state;
	fill(4);
	wall = m.seq;
	a = m.rec[0].dl, b = m.rec[1].dl, e = m.rec[2].dl, d = m.rec[3].dl;
	m.rec[0].age = 10; /* 100 ms old */
	m.rec[0].load_kbps = 73500;
	m.rec[1].flags = 0; /* down: the switch's own word only */
	/* e: we hold a fresher answer of our own. */
	ls[e] = (struct dard_lstate){.mbps = 1000, .flows = 7, .known = 1};
	when[e] = now - 1;
	/* d: its switch told us it is dead. */
	ls[d] = (struct dard_lstate){.mbps = 1000, .known = 1, .dead = 1};
	when[d] = now - 5 * NS;
	/* b: covered by an earlier share, which its port down undoes. */
	seen.got_ns[b] = now - 1;
	assert_int_equal(
		dard_share_apply(t, &m, ls, when, &seen, now, wall, &c), 1);
	assert_int_equal(c.down, 1);
	assert_int_equal(c.stale, 0);
	assert_true(ls[a].known && !ls[a].dead && ls[a].flows == 0);
	assert_true(ls[a].loaded && ls[a].load == 73.5);
	assert_true(when[a] == now - 100000000ULL);
	assert_false(ls[b].known);
	assert_int_equal(ls[e].flows, 7);
	assert_true(ls[d].dead);
	/* Covered until our next tick. */
	assert_true(dard_share_covered(&seen, a, now - NS));
	assert_false(dard_share_covered(&seen, a, now));
	assert_false(dard_share_covered(&seen, b, 0));
	assert_false(dard_share_covered(&seen, e, 0));
	assert_false(dard_share_covered(&seen, d, 0));
	/* The same share again, no fresher: nothing taken. */
	assert_int_equal(
		dard_share_apply(t, &m, ls, when, &seen, now, wall, &c), 0);
	free(ls);
	free(when);
	free(seen.got_ns);
}

/*
 * A SHARE held on the way ages by the sender's seq: 1 s in transit makes
 * a 100 ms answer 1.1 s old; past 2.55 s it is not taken, nor covers.
 */
static void test_apply_transit(void **state)
{
	struct dard_lstate *ls = calloc(sc.ndl, sizeof(*ls));
	uint64_t *when = calloc(sc.ndl, sizeof(*when));
	struct dard_share_seen seen = {calloc(sc.ndl, 8)};
	const uint64_t max =
		DARD_SHARE_AGE_MAX * DARD_SHARE_AGE_MS * 1000000ULL;
	uint64_t now = 100 * NS;
	struct dard_share_counts c;
	uint32_t a, b;

	(void)state;
	fill(2);
	a = m.rec[0].dl, b = m.rec[1].dl;
	m.rec[0].age = 10;
	m.rec[1].age = 0;
	assert_int_equal(
		dard_share_apply(t, &m, ls, when, &seen, now, m.seq + NS, &c),
		2);
	assert_true(when[a] == now - NS - 100000000ULL);
	assert_true(when[b] == now - NS);
	/* a's load measured idle, b's not measured (fill()). */
	assert_true(ls[a].loaded && ls[a].load == 0);
	assert_false(ls[b].loaded);
	memset(ls, 0, sc.ndl * sizeof(*ls));
	memset(when, 0, sc.ndl * sizeof(*when));
	memset(seen.got_ns, 0, sc.ndl * 8);
	/* A seq ahead of our clock adds nothing. */
	assert_int_equal(
		dard_share_apply(t, &m, ls, when, &seen, now, m.seq - NS, &c),
		2);
	assert_true(when[b] == now);
	memset(ls, 0, sc.ndl * sizeof(*ls));
	memset(when, 0, sc.ndl * sizeof(*when));
	memset(seen.got_ns, 0, sc.ndl * 8);
	/* b just at the bound, a 100 ms past it; a port down past it too. */
	assert_int_equal(
		dard_share_apply(t, &m, ls, when, &seen, now, m.seq + max, &c),
		1);
	assert_int_equal(c.stale, 1);
	assert_false(ls[a].known);
	assert_false(dard_share_covered(&seen, a, 0));
	assert_true(ls[b].known);
	m.rec[1].flags = 0;
	assert_int_equal(dard_share_apply(t, &m, ls, when, &seen, now,
					  m.seq + max + 1, &c),
			 0);
	assert_int_equal(c.stale, 2);
	assert_int_equal(c.down, 0);
	free(ls);
	free(when);
	free(seen.got_ns);
}

static void test_rec_of(void **state)
{
	struct dard_lstate ls = {.mbps = 1000.0, .flows = 70000, .known = 1};
	struct dard_share_rec r;
	uint64_t now = 100 * NS;

	(void)state;
	assert_int_equal(dard_share_rec_of(&r, 5, &ls, now - 25000000, now), 0);
	assert_int_equal(r.dl, 5);
	assert_int_equal(r.elephants, UINT16_MAX); /* saturated */
	assert_int_equal(r.flags, DARD_PORT_F_UP);
	assert_int_equal(r.age, 2);
	/* Not loaded: not measured, never 0. */
	assert_int_equal(r.load_kbps, DARD_LOAD_UNKNOWN);
	ls.loaded = 1;
	ls.load = 73.5;
	assert_int_equal(dard_share_rec_of(&r, 5, &ls, now, now), 0);
	assert_int_equal(r.load_kbps, 73500);
	/* Rounded to the kbit/s, and saturated short of "not measured". */
	ls.load = 0.0006;
	dard_share_rec_of(&r, 5, &ls, now, now);
	assert_int_equal(r.load_kbps, 1);
	ls.load = 0;
	dard_share_rec_of(&r, 5, &ls, now, now);
	assert_int_equal(r.load_kbps, 0);
	ls.load = 1e7; /* 10 Tbit/s */
	dard_share_rec_of(&r, 5, &ls, now, now);
	assert_int_equal(r.load_kbps, DARD_LOAD_MAX);
	ls.load = 4294967.294;
	dard_share_rec_of(&r, 5, &ls, now, now);
	assert_int_equal(r.load_kbps, DARD_LOAD_MAX);
	ls.load = 4294967.293;
	dard_share_rec_of(&r, 5, &ls, now, now);
	assert_int_equal(r.load_kbps, DARD_LOAD_MAX - 1);
	ls.loaded = 0;
	/* Older than 2.55 s, unknown or never answered: not shared. */
	assert_int_equal(dard_share_rec_of(&r, 5, &ls, now - 3 * NS, now),
			 -ERANGE);
	assert_int_equal(dard_share_rec_of(&r, 5, &ls, 0, now), -ERANGE);
	ls.known = 0;
	assert_int_equal(dard_share_rec_of(&r, 5, &ls, now, now), -ERANGE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scope),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_records),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_apply),
		cmocka_unit_test(test_apply_transit),
		cmocka_unit_test(test_rec_of),
		cmocka_unit_test(test_want),
		cmocka_unit_test(test_rotation),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
