// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The policy digest in the userspace build (<linux/dard_policy_digest.h>):
 * every function of <linux/dard_policy.h> over the same 100,000 seeded
 * inputs as the BPF program's run (tests/bpf/test_policy_bpf.c) and the
 * kernel module's self-test (tests/kmod/test.sh), and each function's
 * digest the expected one, which is also theirs. A decision this build
 * makes otherwise, after a change to the policy or to how it is
 * compiled, fails here; the other two builds fail theirs.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <linux/dard_policy_digest.h>

#include <cmocka.h>

static void test_digest(void **state)
{
	static const uint64_t want[DARD_PD_NR] = DARD_PD_EXPECT;
	static const char *const name[DARD_PD_NR] = DARD_PD_NAMES;
	struct dard_pd *p = calloc(1, sizeof(*p));
	unsigned k, f, bad = 0;

	(void)state;
	assert_non_null(p);
	dard_pd_init(p);
	for (k = 0; k < DARD_PD_INPUTS; k++)
		dard_pd_input(p, k);
	for (f = 0; f < DARD_PD_NR; f++) {
		printf("policy digest: %s %016" PRIx64 "%s\n", name[f],
		       (uint64_t)p->digest[f],
		       p->digest[f] == want[f] ? "" : " FAIL");
		if (p->digest[f] != want[f]) {
			print_error("%s: digest %016" PRIx64
				    ", want %016" PRIx64 "\n",
				    name[f], (uint64_t)p->digest[f], want[f]);
			bad++;
		}
	}
	free(p);
	assert_int_equal(bad, 0);
}

/* The inputs depend on their number alone: input k is the same whether
 * or not the ones before it ran, as a BPF run from k needs. */
static void test_inputs_stand_alone(void **state)
{
	struct dard_pd *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
	unsigned k;

	(void)state;
	assert_non_null(a);
	assert_non_null(b);
	dard_pd_init(a);
	for (k = 0; k < 1000; k++)
		dard_pd_input(a, k);
	/* The digests afresh; the rest as the inputs before left it. */
	dard_pd_init(a);
	dard_pd_input(a, 54321);
	dard_pd_init(b);
	dard_pd_input(b, 54321);
	assert_memory_equal(a->digest, b->digest, sizeof(a->digest));
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digest),
		cmocka_unit_test(test_inputs_stand_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
