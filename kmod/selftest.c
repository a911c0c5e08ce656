// SPDX-License-Identifier: GPL-2.0
/*
 * The self-tests the module runs at load when asked (insmod dard.ko
 * selftest=1), before anything registers: the policy digest of
 * <linux/dard_policy_digest.h>, every function of <linux/dard_policy.h>
 * over the same seeded inputs as the userspace and BPF builds, as the
 * kernel's compiler and flags built it. Each function's digest is
 * printed and held to the expected one; tests/kmod/test.sh loads the
 * module so in the qemu guest and holds the printed digests to the same
 * table. A failure refuses the load.
 */
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/dard_policy_digest.h>
#include "selftest.h"

static bool selftest;
module_param(selftest, bool, 0444);
MODULE_PARM_DESC(selftest, "run the self-tests at load; a failure refuses it");

static int policy_digest(void)
{
	static const u64 want[DARD_PD_NR] = DARD_PD_EXPECT;
	static const char *const name[DARD_PD_NR] = DARD_PD_NAMES;
	struct dard_pd *p;
	u32 k, f, bad = 0;

	/* Its tables are too big for a kernel stack. */
	p = kzalloc(sizeof(*p), GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	dard_pd_init(p);
	for (k = 0; k < DARD_PD_INPUTS; k++) {
		dard_pd_input(p, k);
		/* Seconds under qemu's TCG: others run meanwhile. */
		if (!(k % 1024))
			cond_resched();
	}
	for (f = 0; f < DARD_PD_NR; f++) {
		if (p->digest[f] == want[f]) {
			pr_info("policy self-test: %s %016llx\n", name[f],
				p->digest[f]);
			continue;
		}
		pr_err("policy self-test: %s %016llx FAIL, want %016llx\n",
		       name[f], p->digest[f], want[f]);
		bad++;
	}
	kfree(p);
	if (bad)
		return -ENOTRECOVERABLE;
	pr_info("policy self-test: pass\n");
	return 0;
}

int dard_selftest_init(void)
{
	if (!selftest)
		return 0;
	return policy_digest();
}
