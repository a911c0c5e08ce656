// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-switchd's replay protection (daemon/switchd/window.c): a sliding
 * window of seqs per sender, and the clock check before it. Every case
 * with an injected clock: in order, reordered, duplicated, below the
 * window, off the clock either way; dead senders' slots reused; many
 * senders; a sender's and the agent's restart; a key holder's seq forged
 * ahead; the table's cap.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "err.h"
#include "topo.h"
#include "window.h"

/* A CLOCK_REALTIME in µs (late 2023), and a second, in µs. */
#define T0 1700000000000000ULL
#define SEC 1000000ULL

static const uint8_t hkey[16] = {1, 2, 3};
static struct sw_replay r;
static char err[DARD_ERR_MAX];

static int setup(void **state)
{
	(void)state;
	return sw_replay_init(&r, hkey);
}

static int teardown(void **state)
{
	(void)state;
	sw_replay_free(&r);
	return 0;
}

static int check(uint32_t sender, uint64_t seq, uint64_t now)
{
	err[0] = '\0';
	return sw_replay_check(&r, sender, seq, now, err);
}

/* The refusal ret, with words of its reason. */
static void refused(uint32_t sender, uint64_t seq, uint64_t now, int ret,
		    const char *why)
{
	assert_int_equal(check(sender, seq, now), ret);
	if (!strstr(err, why))
		fail_msg("error `%s' does not say `%s'", err, why);
}

static void test_window(void **state)
{
	uint64_t now = T0;

	(void)state;
	/* In order; then the same seq again. */
	assert_int_equal(check(7, now, now), 0);
	assert_int_equal(check(7, now + 1, now), 0);
	refused(7, now + 1, now, -EALREADY, "taken already (a replay)");
	/* Ahead by a jump, then reordered ones inside the window, once. */
	assert_int_equal(check(7, now + 500, now), 0);
	assert_int_equal(check(7, now + 300, now), 0);
	assert_int_equal(check(7, now + 2, now), 0);
	refused(7, now + 300, now, -EALREADY, "taken already");
	refused(7, now, now, -EALREADY, "taken already");
	/* The window's bottom edge: 959 below the top in, 960 out. */
	assert_int_equal(check(7, now + 2000, now), 0);
	assert_int_equal(check(7, now + 2000 - (SW_WINDOW - 1), now), 0);
	refused(7, now + 2000 - SW_WINDOW, now, -EALREADY,
		"under its window of 960");
	refused(7, now + 500, now, -EALREADY, "under its window");
	/*
	 * A slide by more than the ring clears it: the bit of now + 2000,
	 * three rings on, is free for a seq below the new top.
	 */
	assert_int_equal(check(7, now + 2000 + 3 * 1024 + 100, now), 0);
	assert_int_equal(check(7, now + 2000 + 3 * 1024, now), 0);
	/* Slides shorter than the ring clear the words they pass too. */
	assert_int_equal(check(7, now + 6400, now), 0);
	assert_int_equal(check(7, now + 6400 + 640, now), 0);
	assert_int_equal(check(7, now + 6400 + 1024 + 5, now), 0);
	assert_int_equal(check(7, now + 6400 + 1024, now), 0);
	/* Another sender has a window of its own. */
	assert_int_equal(check(8, now + 1, now), 0);
	assert_int_equal(r.used, 2);
}

static void test_clock(void **state)
{
	uint64_t now = T0;

	(void)state;
	assert_int_equal(check(1, now + 10 * SEC, now), 0);
	assert_int_equal(check(2, now - 10 * SEC, now), 0);
	refused(3, now + 10 * SEC + 1, now, -ETIME,
		"10.0 s ahead of our clock");
	refused(3, now - 10 * SEC - 1, now, -ETIME, "10.0 s behind our clock");
	refused(3, 1, now, -ETIME, "behind our clock");
	/* Nothing off the clock makes an entry. */
	assert_int_equal(r.used, 2);
	assert_int_equal(sw_replay_live(&r, now), 2);
}

/*
 * A sender whose top is over 10 s old is dead: whatever it sent is off
 * the clock now, and its slot goes to another. Senders that come and go
 * (a dardctl run each) keep the table at the size of the live ones.
 */
static void test_dead(void **state)
{
	uint64_t now = T0;
	uint32_t round, i;

	(void)state;
	for (round = 0; round < 100; round++, now += 10 * SEC + 1)
		for (i = 0; i < 300; i++)
			assert_int_equal(check(1 + round * 1000 + i, now, now),
					 0);
	now -= 10 * SEC + 1;
	assert_int_equal(r.nslots, SW_SLOTS_MIN);
	assert_int_equal(sw_replay_live(&r, now), 300);
	/* Dead, its seqs are off the clock; back, it is taken at once. */
	assert_int_equal(sw_replay_live(&r, now + 10 * SEC + 1), 0);
	refused(99 * 1000 + 5, now, now + 10 * SEC + 1, -ETIME, "behind");
	assert_int_equal(check(99 * 1000 + 5, now + 20 * SEC, now + 20 * SEC),
			 0);
}

/*
 * 100,000 legitimate queries from 1,000 senders, interleaved, each
 * sender's seqs from its clock (dard_proto_next_seq): none refused. The
 * same 100,000 again (a recording): every one refused.
 */
static void test_many(void **state)
{
	static uint64_t last[1000], sent[100000];
	uint64_t now = T0;
	unsigned i, refusals = 0;

	(void)state;
	for (i = 0; i < 100000; i++, now += 7) {
		uint32_t s = i % 1000;

		last[s] = dard_proto_next_seq(last[s], now - s % 13);
		sent[i] = last[s];
		refusals += check(0x0a000000 + s, sent[i], now) != 0;
	}
	assert_int_equal(refusals, 0);
	for (i = 0; i < 100000; i++)
		refusals +=
			check(0x0a000000 + i % 1000, sent[i], now) == -EALREADY;
	assert_int_equal(refusals, 100000);
	assert_int_equal(sw_replay_live(&r, now), 1000);
}

/*
 * A sender restarts (its last seq forgotten): its first seq, from its
 * clock, is above its old ones and taken at once; its old queries,
 * replayed, are not.
 */
static void test_sender_restart(void **state)
{
	uint64_t now = T0, last = 0, old[50];
	unsigned i;

	(void)state;
	for (i = 0; i < 50; i++, now += 100000) {
		old[i] = last = dard_proto_next_seq(last, now);
		assert_int_equal(check(42, old[i], now), 0);
	}
	/* A burst faster than its clock: seqs above the clock. */
	for (i = 0; i < 20; i++)
		assert_int_equal(
			check(42, last = dard_proto_next_seq(last, now), now),
			0);
	/* Restarted 1 ms on: last is 0 again. */
	now += 1000;
	last = dard_proto_next_seq(0, now);
	assert_int_equal(check(42, last, now), 0);
	for (i = 0; i < 50; i++)
		assert_int_equal(check(42, old[i], now), -EALREADY);
}

/*
 * The agent restarts, its windows lost: a recording younger than 10 s is
 * taken once (documented), an older one never.
 */
static void test_agent_restart(void **state)
{
	uint64_t now = T0;

	(void)state;
	assert_int_equal(check(5, now, now), 0);
	assert_int_equal(check(6, now + 2 * SEC, now + 2 * SEC), 0);
	sw_replay_free(&r);
	assert_int_equal(sw_replay_init(&r, hkey), 0);
	now += 11 * SEC;
	refused(5, T0, now, -ETIME, "behind our clock");
	assert_int_equal(check(6, T0 + 2 * SEC, now), 0);
	assert_int_equal(check(6, T0 + 2 * SEC, now), -EALREADY);
}

/*
 * A key holder sends sender 9's seq as far ahead as the agent takes,
 * 10 s: sender 9's own queries, one each 100 ms, are refused until its
 * clock passes the forged seq, 10 s at most, and taken after.
 */
static void test_forged_ahead(void **state)
{
	uint64_t now = T0, forged = T0 + 10 * SEC, last = 0, locked = 0;
	unsigned i;

	(void)state;
	assert_int_equal(check(9, forged, now), 0);
	for (i = 0; i < 150; i++, now += 100000) {
		int ret;

		last = dard_proto_next_seq(last, now);
		ret = check(9, last, now);
		if (ret) {
			assert_int_equal(ret, -EALREADY);
			locked = now - T0;
		} else {
			assert_true(last > forged);
		}
	}
	assert_true(locked > 0 && locked <= 10 * SEC);
}

/*
 * The cap: a new sender is refused only while at least SW_SENDERS_MAX are
 * live, with no sweep each time; the senders it holds are still taken;
 * once they die, a new one is taken again. Only a key holder could get
 * here: the table grows only after the MAC.
 */
static void test_cap(void **state)
{
	uint64_t now = T0, sweeps;
	uint32_t s;

	(void)state;
	for (s = 1; check(s, now, now) == 0; s++)
		;
	assert_int_equal(-EBUSY, check(s, now, now));
	assert_true(strstr(err, "no room for another"));
	assert_true(s - 1 >= SW_SENDERS_MAX);
	assert_true(sw_replay_live(&r, now) >= SW_SENDERS_MAX);
	assert_int_equal(r.nslots, SW_SLOTS_MAX);
	sweeps = r.sweeps;
	assert_int_equal(check(s + 1, now + 1, now + 1), -EBUSY);
	assert_int_equal(r.sweeps, sweeps);
	assert_int_equal(check(1, now + 1, now + 1), 0);
	/* Ten seconds on, all dead: room again, in a dead one's slot. */
	now += 10 * SEC + 2;
	assert_int_equal(check(s, now, now), 0);
	assert_int_equal(sw_replay_live(&r, now), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clock, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dead, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sender_restart, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_agent_restart, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_forged_ahead, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_cap, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
