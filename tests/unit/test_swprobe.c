// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-switchd's link probes (probe.h), without sockets: the echo's
 * bytes, which answers count (the peer's echo reply to our id and nonce,
 * its checksum right) and which do not, and when a port is down.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "addr6.h"
#include "be.h"
#include "probe.h"

#define PEER 0x0a010002 /* 10.1.0.2 */
#define ID 0x1234
static const uint8_t nonce[SW_PROBE_NONCE] = {1, 2, 3, 4, 5, 6, 7, 8};

/* The ones' complement sum of buf: 0xffff when its checksum is right. */
static uint16_t sum(const uint8_t *b, size_t n)
{
	uint32_t s = 0;
	size_t i;

	for (i = 0; i < n; i += 2)
		s += dard_get16(b + i);
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)s;
}

static void test_echo(void **state)
{
	uint8_t b[SW_PROBE_LEN];

	(void)state;
	sw_probe_echo(b, ID, 7, nonce);
	assert_int_equal(b[0], 8); /* echo request */
	assert_int_equal(b[1], 0);
	assert_int_equal(dard_get16(b + 4), ID);
	assert_int_equal(dard_get16(b + 6), 7);
	assert_memory_equal(b + 8, nonce, SW_PROBE_NONCE);
	assert_int_equal(sum(b, sizeof(b)), 0xffff);
}

/* What a raw socket gives for the peer's answer to echo seq: IPv4, ICMP. */
static size_t answer(uint8_t *p, uint32_t from)
{
	memset(p, 0, 20);
	p[0] = 0x45;
	p[9] = 1; /* ICMP */
	dard_put32(p + 12, from);
	sw_probe_echo(p + 20, ID, 9, nonce);
	/* The peer's kernel turns it round: type 0, the sum fixed up. */
	p[20] = 0;
	dard_put16(p + 22, dard_get16(p + 22) + 0x0800);
	return 20 + SW_PROBE_LEN;
}

static void test_answer(void **state)
{
	uint8_t p[64], bad[SW_PROBE_NONCE];
	size_t n;

	(void)state;
	n = answer(p, PEER);
	assert_int_equal(sum(p + 20, SW_PROBE_LEN), 0xffff);
	assert_true(sw_probe_answer(p, n, PEER, ID, nonce));
	/* Another sender, id, nonce; not a reply; short; a bit flipped. */
	assert_false(sw_probe_answer(p, n, PEER + 1, ID, nonce));
	assert_false(sw_probe_answer(p, n, PEER, ID + 1, nonce));
	memcpy(bad, nonce, sizeof(bad));
	bad[7] ^= 1;
	assert_false(sw_probe_answer(p, n, PEER, ID, bad));
	assert_false(sw_probe_answer(p, n - 1, PEER, ID, nonce));
	assert_false(sw_probe_answer(p, 19, PEER, ID, nonce));
	p[27] ^= 0x40; /* its seq: the sum alone tells */
	assert_false(sw_probe_answer(p, n, PEER, ID, nonce));
	p[27] ^= 0x40; /* its seq: the sum alone tells */
	p[20] = 8;     /* our own request, looped */
	assert_false(sw_probe_answer(p, n, PEER, ID, nonce));
	p[20] = 0;
	p[0] = 0x65; /* not IPv4 */
	assert_false(sw_probe_answer(p, n, PEER, ID, nonce));
	p[0] = 0x46; /* an option: the ICMP starts 4 bytes on */
	assert_false(sw_probe_answer(p, n, PEER, ID, nonce));
}

/*
 * Judged at each tick on the echo of the tick before: down at the third
 * unanswered in a row, not at two; up at the first answer; nothing judged
 * while no echo went (the carrier down, the first tick).
 */
/* ICMPv6: the echo reply from the peer's link-local address, ours. */
static void test_answer6(void **state)
{
	static const uint8_t nonce[SW_PROBE_NONCE] = {1, 2, 3, 4, 5, 6, 7, 8};
	struct in6_addr peer, other;
	uint8_t m[SW_PROBE_LEN];

	(void)state;
	dard_link_ll6(0, &peer);
	dard_link_ll6(1, &other);
	sw_probe_echo(m, 77, 3, nonce);
	m[0] = 129; /* ICMP6_ECHO_REPLY */
	m[2] = m[3] = 0;
	assert_true(sw_probe_answer6(m, sizeof(m), &peer, &peer, 77, nonce));
	/* From anyone else, another id, short, a request, another nonce. */
	assert_false(sw_probe_answer6(m, sizeof(m), &other, &peer, 77, nonce));
	assert_false(sw_probe_answer6(m, sizeof(m), &peer, &peer, 78, nonce));
	assert_false(
		sw_probe_answer6(m, sizeof(m) - 1, &peer, &peer, 77, nonce));
	m[0] = 128;
	assert_false(sw_probe_answer6(m, sizeof(m), &peer, &peer, 77, nonce));
	m[0] = 129;
	m[15] ^= 1;
	assert_false(sw_probe_answer6(m, sizeof(m), &peer, &peer, 77, nonce));
}

static void test_judge(void **state)
{
	struct sw_probe pr = {.fd = 3};
	int i;

	(void)state;
	sw_probe_judge(&pr);
	assert_int_equal(pr.misses, 0);
	pr.sent = 1;
	for (i = 0; i < SW_PROBE_MISSES - 1; i++)
		sw_probe_judge(&pr);
	assert_false(pr.down);
	pr.answered = 1;
	sw_probe_judge(&pr);
	assert_int_equal(pr.misses, 0);
	assert_false(pr.answered);
	for (i = 0; i < SW_PROBE_MISSES; i++)
		sw_probe_judge(&pr);
	assert_true(pr.down);
	/* Unsent (carrier down): the verdict stands. */
	pr.sent = 0;
	sw_probe_judge(&pr);
	assert_true(pr.down);
	pr.sent = 1;
	pr.answered = 1;
	sw_probe_judge(&pr);
	assert_false(pr.down);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_echo),
		cmocka_unit_test(test_answer),
		cmocka_unit_test(test_answer6),
		cmocka_unit_test(test_judge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
