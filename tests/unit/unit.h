/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Helpers the unit tests share; include after <cmocka.h>. */
#ifndef _DARD_TEST_UNIT_H
#define _DARD_TEST_UNIT_H

#include "../../daemon/lib/addr.h"
#include "../../daemon/lib/topo.h"

/* An address written in the test, which must parse. */
static inline uint32_t A(const char *s)
{
	uint32_t a;

	if (dard_addr_parse(s, &a))
		fail_msg("bad address `%s' in the test", s);
	return a;
}

/* A node the test names, which must exist. */
static inline uint32_t find(const struct dard_topo *t, const char *name)
{
	uint32_t n = dard_topo_find(t, name);

	if (n == DARD_NONE)
		fail_msg("no node `%s' in %s", name, t->name);
	return n;
}

#endif /* _DARD_TEST_UNIT_H */
