// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The policy digest in the BPF build: tests/bpf/policy_digest.bpf.c runs
 * every function of <linux/dard_policy.h> over the same 100,000 seeded
 * inputs as the userspace build (tests/unit/test_policy_digest.c) and
 * the kernel module's self-test (tests/kmod/test.sh), in chunks of
 * BPF_PROG_TEST_RUN, and each function's digest must be the expected
 * one. The verifier must take the program first: a policy function that
 * stops verifying fails here too.
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
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf_test.h"
#include "policy_digest.h"
#include "policy_digest.skel.h"

static void test_digest(void **state)
{
	static const uint64_t want[DARD_PD_NR] = DARD_PD_EXPECT;
	static const char *const name[DARD_PD_NR] = DARD_PD_NAMES;
	struct policy_digest *skel = policy_digest__open_and_load();
	struct pd_chunk c;
	unsigned f, bad = 0;
	int fd;

	(void)state;
	assert_non_null(skel);
	fd = bpf_program__fd(skel->progs.policy_digest);
	for (c.first = 0; c.first < DARD_PD_INPUTS; c.first += c.count) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .ctx_in = &c,
			    .ctx_size_in = sizeof(c));

		c.count = DARD_PD_INPUTS - c.first;
		if (c.count > PD_CHUNK_MAX)
			c.count = PD_CHUNK_MAX;
		assert_int_equal(bpf_prog_test_run_opts(fd, &o), 0);
		assert_int_equal(o.retval, 0);
	}
	for (f = 0; f < DARD_PD_NR; f++) {
		uint64_t got = skel->bss->pd.digest[f];

		printf("policy digest: %s %016" PRIx64 "%s\n", name[f], got,
		       got == want[f] ? "" : " FAIL");
		if (got != want[f]) {
			print_error("%s: digest %016" PRIx64
				    ", want %016" PRIx64 "\n",
				    name[f], got, want[f]);
			bad++;
		}
	}
	policy_digest__destroy(skel);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_digest),
	};

	bpf_test_need_root("test_policy_bpf");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
