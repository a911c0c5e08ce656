// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The decisions both datapaths take from <linux/dard_policy.h>, as the
 * BPF program and the kernel module compile them: what a packet's
 * payload is, when a flow is an elephant, and the default elephant
 * payload a host's datapath gets from its link's capacity.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_payload),
		cmocka_unit_test(test_is_elephant),
		cmocka_unit_test(test_bytes_for),
		cmocka_unit_test(test_dp_default),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
