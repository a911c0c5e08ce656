/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Helpers the unit tests share; include after <cmocka.h>. */
#ifndef _DARD_TEST_UNIT_H
#define _DARD_TEST_UNIT_H

#include <stdlib.h>

#include "../../daemon/lib/addr.h"
#include "../../daemon/lib/gen.h"
#include "../../daemon/lib/topo.h"

/* An address written in the test, which must parse. */
static inline uint32_t A(const char *s)
{
	uint32_t a;

	if (dard_addr_parse(s, &a))
		fail_msg("bad address `%s' in the test", s);
	return a;
}

/*
 * perm[i] for i < n: a random permutation of 0..n-1 with no fixed point
 * (Sattolo's shuffle, one cycle), by rand().
 */
static inline void unit_derangement(uint32_t *perm, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n - 1; i > 0; i--) {
		uint32_t r = rand() % i, x = perm[i];

		perm[i] = perm[r];
		perm[r] = x;
	}
}

/* A node the test names, which must exist. */
static inline uint32_t find(const struct dard_topo *t, const char *name)
{
	uint32_t n = dard_topo_find(t, name);

	if (n == DARD_NONE)
		fail_msg("no node `%s' in %s", name, t->name);
	return n;
}

/* A generated topology (spec) and its plan, base NULL meaning 10/8. */
static inline void unit_build(const char *spec, const char *base, int mode,
			      struct dard_topo **t, struct dard_plan **p)
{
	struct dard_plan_opts o;
	char err[DARD_ERR_MAX] = "";

	*t = dard_gen_spec(spec, 1000, err);
	if (!*t)
		fail_msg("%s: %s", spec, err);
	dard_plan_opts_init(&o);
	if (base && dard_prefix_parse(base, &o.base))
		fail_msg("bad base `%s' in the test", base);
	o.mode = mode;
	*p = dard_plan_new(*t, &o, err);
	if (!*p)
		fail_msg("%s: plan: %s", spec, err);
}

#endif /* _DARD_TEST_UNIT_H */
