// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-sim's count of a ToR's hosts sharing switches' answers (share.h):
 * the transfer times are the same with and without it (the fluid model
 * gives every host the same answers), the bytes are what the model says
 * (WANTs, SHAREs, one query per shared switch and ToR), and sharing
 * sends less where two hosts of a ToR watch the same switches.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "flowsim.h"
#include "share.h"
#include "traffic.h"
#include "unit.h"

static struct dard_topo *t;
static struct dard_plan *p;
static struct dard_sim_stats st[2];

static int setup(void **state)
{
	(void)state;
	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &t, &p); /* 1 Gbit/s */
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dard_plan_free(p);
	dard_topo_free(t);
	return 0;
}

/* Views that see every move at once (--stale 0): the counts below are
 * of the flows as they ran before the simulator modelled stale views. */
static uint32_t stale;

static void run(int sched, int share, const struct dard_tflow *f, size_t n,
		struct dard_sim_flow *out)
{
	struct dard_sim_opts o;
	char err[DARD_ERR_MAX];

	/* Padding too: outcomes are compared whole. */
	memset(out, 0, n * sizeof(*out));
	dard_sim_opts_init(&o);
	o.sched = sched;
	o.seed = 3;
	o.share = share;
	o.stale = stale;
	memset(&st[share], 0, sizeof(st[share]));
	if (dard_sim_run(t, p, f, n, &o, out, &st[share], err))
		fail_msg("%s: %s", dard_sim_sched_name(sched), err);
}

/*
 * One elephant, e1_1 to e2_1, 10 to 40 s under the paper's mode: its
 * host asks the same 9 switches each second with or without sharing,
 * and announces its WANT (the 10 directed links it needs of its ToR,
 * both aggregation switches and the 4 cores: 64 + 40 bytes) to its one
 * peer when its monitor starts, and again at 20 and 30 s: the refresh
 * goes to idle peers too (one may be idle to us only because a WANT was
 * lost). The peer sends no SHARE, and no word when the monitor goes.
 */
static void test_alone(void **state)
{
	struct dard_tflow f[1] = {
		{0, find(t, "e1_1"), find(t, "e2_1"), 5000000000ULL}};
	struct dard_sim_flow out[2][1];
	double want = 3 * (DARD_SHARE_HDR_LEN + DARD_SHARE_MAC_LEN + 4 * 10);

	(void)state;
	run(DARD_SIM_DARD_PAPER, 0, f, 1, out[0]);
	run(DARD_SIM_DARD_PAPER, 1, f, 1, out[1]);
	assert_memory_equal(out[0], out[1], sizeof(out[0]));
	assert_true(st[0].share_bytes == 0);
	assert_true(fabs(st[0].ctl_bytes - 30 * 9 * 80) < 1e-6);
	assert_true(fabs(st[1].share_bytes - want) < 1e-6);
	assert_true(fabs(st[1].ctl_bytes - 30 * 9 * 80 - want) < 1e-6);
}

/*
 * Two elephants from the two hosts of one ToR to the same far pod, 10
 * to 49.55 s: the 7 switches both watch (their ToR, its 2 aggregation
 * switches, 4 cores) are asked once a second instead of twice, and the
 * second host gets the 10 links it wants in one SHARE (64 + 120 bytes)
 * instead, at each of the 40 ticks; each host sends 4 WANTs of 104
 * bytes (its announcement, refreshes at 20, 30 and 40 s).
 */
static void test_pair(void **state)
{
	struct dard_tflow f[2] = {
		{0, find(t, "e1_1"), find(t, "e3_1"), 5000000000ULL},
		{0, find(t, "e1_2"), find(t, "e3_2"), 5000000000ULL},
	};
	struct dard_sim_flow out[2][2];
	double q;

	(void)state;
	run(DARD_SIM_DARD_PAPER, 0, f, 2, out[0]);
	run(DARD_SIM_DARD_PAPER, 1, f, 2, out[1]);
	assert_memory_equal(out[0], out[1], sizeof(out[0]));
	/* The queries alone: 18 a second without, 7 + 2 + 2 with. */
	q = st[1].ctl_bytes - st[1].share_bytes;
	assert_true(fabs(q / st[0].ctl_bytes - 11.0 / 18) < 1e-9);
	assert_true(fabs(st[0].ctl_bytes - 40 * 18 * 80) < 1e-6);
	assert_true(fabs(st[1].share_bytes - 40 * 184 - 8 * 104) < 1e-6);
	assert_true(fabs(q - 40 * 11 * 80) < 1e-6);
	assert_int_equal(out[0][0].moves + out[0][1].moves, 1);

	/*
	 * With the views dardd has (the default): each host sees the
	 * other's move only at the query after it, and the two rounds here
	 * act on what the other's move has changed: three moves instead of
	 * one, and both flows end after 52 s instead of 49.55.
	 */
	stale = 1;
	run(DARD_SIM_DARD_PAPER, 0, f, 2, out[0]);
	stale = 0;
	assert_int_equal(out[0][0].moves + out[0][1].moves, 3);
	assert_true(out[0][0].end > 52 && out[0][1].end > 52);
}

/* Stride traffic for 30 s: the same outcome with and without sharing. */
static void test_same_times(void **state)
{
	static const int scheds[] = {DARD_SIM_DARD, DARD_SIM_DARD_PAPER};
	struct dard_traffic_opts o;
	struct dard_sim_flow *a, *b;
	char err[DARD_ERR_MAX];
	struct dard_tflow *f;
	unsigned i;
	long n;

	(void)state;
	dard_traffic_opts_init(&o);
	o.rate = 0.5;
	o.duration = 30;
	o.bytes = 256ULL << 20;
	n = dard_traffic_gen(t, &o, &f, err);
	assert_true(n > 20);
	a = calloc(n, sizeof(*a));
	b = calloc(n, sizeof(*b));
	for (i = 0; i < 2; i++) {
		run(scheds[i], 0, f, n, a);
		run(scheds[i], 1, f, n, b);
		assert_memory_equal(a, b, n * sizeof(*a));
		assert_true(st[1].share_bytes > 0);
		assert_true(st[1].ctl_bytes < st[0].ctl_bytes);
	}
	free(a);
	free(b);
	free(f);
}

/*
 * fattree:16: two hosts of one ToR, each with an elephant to each of
 * pods 2-6, 10 to 40 s (31 ticks) under the paper's mode. A host needs
 * 8 + 64 + 5 * 64 = 392 shared links, more than one WANT's 352 (as
 * dardd's want_add): the rest no peer shares, and it asks their
 * switches itself. Each asks 113 switches a tick alone (its ToR, 8
 * aggregation switches, 64 cores, 5 pods' 8): with sharing the second
 * asks its 40 far aggregation switches, and the 40 cores whose links
 * did not fit, and gets 352 records a tick in four SHAREs of at most
 * 117 (4 * 64 + 352 * 12 bytes). WANTs of 64 + 352 * 4 bytes go to the ToR's 7
 * other hosts: each host's announcement and refreshes at 20, 30 and 40 s.
 */
static void test_want_cap(void **state)
{
	static const char *const dst[2][5] = {
		{"e2_1", "e3_1", "e4_1", "e5_1", "e6_1"},
		{"e2_2", "e3_2", "e4_2", "e5_2", "e6_2"}};
	struct dard_topo *t16;
	struct dard_plan *p16;
	struct dard_tflow f[10];
	struct dard_sim_flow out[10];
	struct dard_sim_opts o;
	char err[DARD_ERR_MAX];
	unsigned i;

	(void)state;
	unit_build("fattree:16", NULL, DARD_MODE_AUTO, &t16, &p16);
	for (i = 0; i < 10; i++)
		f[i] = (struct dard_tflow){
			0, find(t16, i < 5 ? "e1_1" : "e1_2"),
			find(t16, dst[i / 5][i % 5]), 1000000000ULL};
	dard_sim_opts_init(&o);
	o.sched = DARD_SIM_DARD_PAPER;
	o.seed = 3;
	for (o.share = 0; o.share < 2; o.share++) {
		memset(&st[o.share], 0, sizeof(st[o.share]));
		if (dard_sim_run(t16, p16, f, 10, &o, out, &st[o.share], err))
			fail_msg("%s", err);
	}
	assert_true(fabs(st[0].ctl_bytes - 31 * 2 * 113 * 80) < 1e-6);
	assert_true(fabs(st[1].share_bytes - 31 * (4 * 64 + 352 * 12) -
			 4 * 2 * 7 * (64 + 352 * 4)) < 1e-6);
	assert_true(fabs(st[1].ctl_bytes - st[1].share_bytes -
			 31 * (113 + 40 + 40) * 80) < 1e-6);
	dard_plan_free(p16);
	dard_topo_free(t16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alone),
		cmocka_unit_test(test_pair),
		cmocka_unit_test(test_same_times),
		cmocka_unit_test(test_want_cap),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
