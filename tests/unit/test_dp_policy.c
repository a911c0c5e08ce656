// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The decisions both datapaths take from <linux/dard_policy.h>, as the
 * BPF program and the kernel module compile them: what a packet's
 * payload is, when a flow is an elephant, and the default elephant
 * payload a host's datapath gets from its link's capacity; the next
 * live path, a new flow's, a moved one's and the D-SACK walk, by case
 * (test_policy_digest holds all three builds to them in bulk).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/dard_policy.h>

#include <cmocka.h>

#include "dp.h"
#include "err.h"
#include "gen.h"
#include "topo.h"

enum { S = 1000000000 };

static void test_payload(void **state)
{
	(void)state;
	/* A TCP segment with timestamps: 1448 of 1500. */
	assert_int_equal(dard_payload(1500, 20, 32), 1448);
	/* A pure ACK: none. */
	assert_int_equal(dard_payload(52, 20, 32), 0);
	/* UDP; and a fragment, whose every byte past IP's header counts. */
	assert_int_equal(dard_payload(728, 20, 8), 700);
	assert_int_equal(dard_payload(1480, 20, 0), 1460);
	/* Headers said to be longer than the packet: nothing, no wrap. */
	assert_int_equal(dard_payload(40, 24, 60), 0);
	assert_int_equal(dard_payload(0, 20, 0), 0);
	/* A GSO packet carries its headers once: 64 KiB less 52. */
	assert_int_equal(dard_payload(65535, 20, 32), 65483);
}

static void test_is_elephant(void **state)
{
	(void)state;
	/* Age and payload, both at least. */
	assert_true(dard_is_elephant(S, 1000, S, 1000));
	assert_false(dard_is_elephant(S - 1, 1000, S, 1000));
	assert_false(dard_is_elephant(S, 999, S, 1000));
	/* No payload is no elephant, whatever the thresholds. */
	assert_false(dard_is_elephant(100ULL * S, 0, 0, 0));
	assert_false(dard_is_elephant(100ULL * S, 0, S, 0));
	assert_true(dard_is_elephant(0, 1, 0, 0));
}

static void test_bytes_for(void **state)
{
	(void)state;
	/* Hedera's 10% of a second at the link's rate. */
	assert_int_equal(dard_elephant_bytes_for(20), 250000);
	assert_int_equal(dard_elephant_bytes_for(100), 1250000);
	assert_int_equal(dard_elephant_bytes_for(100000), 1250000000ULL);
	assert_int_equal(dard_elephant_bytes_for(0), 0);
}

/* Unset, the datapath's payload follows the host's link; set, it is kept. */
static void test_dp_default(void **state)
{
	char err[DARD_ERR_MAX];
	struct dard_topo *t = dard_gen_fattree(4, 50, err);
	struct dard_dp_opts o;

	(void)state;
	assert_non_null(t);
	dard_dp_opts_init(&o, "eth0", NULL);
	assert_true(o.elephant_bytes == DARD_DP_ELEPHANT_BYTES_AUTO);
	assert_int_equal(dard_dp_elephant_bytes(&o, t, t->hosts[0]), 625000);
	/* Without a tree (a bare attach): any payload. */
	assert_int_equal(dard_dp_elephant_bytes(&o, NULL, 0), 0);
	o.elephant_bytes = 0;
	assert_int_equal(dard_dp_elephant_bytes(&o, t, t->hosts[0]), 0);
	o.elephant_bytes = 12345;
	assert_int_equal(dard_dp_elephant_bytes(&o, t, t->hosts[3]), 12345);
	dard_topo_free(t);
}

/* A destination of n paths, those in dead[] (ended by -1) dead. */
static struct dard_dest *dest_of(unsigned n, const int *dead)
{
	struct dard_dest *d = calloc(1, sizeof(*d));
	unsigned i;

	assert_non_null(d);
	d->npaths = n;
	for (i = 0; i < n; i++) {
		d->path[i].saddr = htonl(0x0a000000 + i);
		d->path[i].daddr = htonl(0x0b000000 + i);
		d->next[i] = i + 1 < n ? i + 1 : 0;
	}
	for (; dead && *dead >= 0; dead++)
		d->dead[*dead / 64] |= 1ULL << (*dead % 64);
	return d;
}

/* The first live path after one, going round, across bitmap words. */
static void test_next_live(void **state)
{
	struct dard_dest *d =
		dest_of(200, (const int[]){5, 6, 63, 64, 199, -1});

	(void)state;
	assert_int_equal(dard_next_live(d, 4), 7);
	assert_int_equal(dard_next_live(d, 62), 65);
	assert_int_equal(dard_next_live(d, 198), 0);
	/* Round to the start, past dead ones. */
	d->dead[0] |= 3;
	assert_int_equal(dard_next_live(d, 198), 2);
	/* None live but itself: none. */
	memset(d->dead, 0xff, sizeof(d->dead));
	d->dead[1] &= ~(1ULL << (70 - 64));
	assert_int_equal(dard_next_live(d, 70), DARD_PATHS_MAX);
	/* No path, or one past them: none. */
	assert_int_equal(dard_next_live(d, 200), DARD_PATHS_MAX);
	free(d);
}

/* A new flow: the hash's path, the next live one, or all dead. */
static void test_place(void **state)
{
	struct dard_dest *d = dest_of(4, (const int[]){1, -1});
	__u32 how;

	(void)state;
	assert_int_equal(dard_place(d, 4 + 2, &how), 2);
	assert_int_equal(how, DARD_PLACE_HASHED);
	assert_int_equal(dard_place(d, 4 + 1, &how), 2);
	assert_int_equal(how, DARD_PLACE_DEAD_AVOIDED);
	/* Weighted: the hash's slot; a slot past the paths is taken as even. */
	d->weighted = 1;
	d->slot[9] = 3;
	d->slot[10] = 7;
	assert_int_equal(dard_place(d, 9, &how), 3);
	assert_int_equal(dard_place(d, 10, &how), 2);
	d->dead[0] = 0xf;
	assert_int_equal(dard_place(d, 9, &how), 3);
	assert_int_equal(how, DARD_PLACE_ALL_DEAD);
	d->npaths = 0;
	assert_int_equal(dard_place(d, 9, &how), DARD_PATHS_MAX);
	free(d);
}

/* TCP's failure moves a flow along the repair order, past dead paths;
 * a flow whose index names another pair starts from path 0. */
static void test_move_on(void **state)
{
	struct dard_dest *d = dest_of(4, (const int[]){2, -1});
	struct dard_alias_pair other = {0};

	(void)state;
	d->next[0] = 2;
	assert_int_equal(dard_move_on(d, 0, &d->path[0]), 3);
	assert_int_equal(dard_move_on(d, 3, &d->path[3]), 0);
	assert_int_equal(dard_move_on(d, 1, &other), 0);
	/* Dead, and its path still its pair: the next live. */
	assert_int_equal(dard_repath_dead(d, 2, &d->path[2]), 3);
	assert_int_equal(dard_repath_dead(d, 2, &other), DARD_PATHS_MAX);
	assert_int_equal(dard_repath_dead(d, 1, &d->path[1]), DARD_PATHS_MAX);
	d->npaths = 1;
	assert_int_equal(dard_move_on(d, 0, &d->path[0]), DARD_PATHS_MAX);
	free(d);
}

/* The D-SACK walk: Linux's layout, a SACK above the ACK, one cut short. */
static void test_dsack(void **state)
{
	/* NOP NOP TS(10), NOP NOP SACK(10) for 40000-41000. */
	const __u8 ts_dsack[24] = {1, 1, 8,    10,   0, 0, 0,	 1,
				   0, 0, 0,    2,    1, 1, 5,	 10,
				   0, 0, 0x9c, 0x40, 0, 0, 0xa0, 0x28};
	__u32 start = 0;

	(void)state;
	assert_true(dard_dsack(ts_dsack, sizeof(ts_dsack), 50000, &start));
	assert_int_equal(start, 40000);
	/* At or above the ACK: a plain SACK. */
	assert_false(dard_dsack(ts_dsack, sizeof(ts_dsack), 40000, &start));
	/* The SACK says 10 bytes where 9 are left: not read. */
	assert_false(dard_dsack(ts_dsack, sizeof(ts_dsack) - 1, 50000, &start));
	/* An EOL ends the options before it. */
	assert_false(dard_dsack(
		(const __u8[]){0, 5, 10, 0, 0, 0x9c, 0x40, 0, 0, 0xa0, 0x28},
		11, 50000, &start));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_payload),
		cmocka_unit_test(test_is_elephant),
		cmocka_unit_test(test_bytes_for),
		cmocka_unit_test(test_dp_default),
		cmocka_unit_test(test_next_live),
		cmocka_unit_test(test_place),
		cmocka_unit_test(test_move_on),
		cmocka_unit_test(test_dsack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
