/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Helpers the unit tests share; include after <cmocka.h>. */
#ifndef _DARD_TEST_UNIT_H
#define _DARD_TEST_UNIT_H

#include <stdlib.h>
#include <string.h>

#include "addr.h"
#include "gen.h"
#include "path.h"
#include "route.h"
#include "sched.h"
#include "topo.h"
#include "traffic.h"

/* An address written in the test, which must parse. */
static inline uint32_t A(const char *s)
{
	uint32_t a;

	if (dard_addr_parse(s, &a))
		fail_msg("bad address `%s' in the test", s);
	return a;
}

/* A derangement (dard_derangement) seeded by rand(), so srand repeats it. */
static inline void unit_derangement(uint32_t *perm, uint32_t n)
{
	uint64_t rng = (uint64_t)rand() << 1 | 1;

	dard_derangement(perm, n, &rng);
}

struct unit_rows {
	const struct dard_topo *t;
	struct dard_cands c;
	uint32_t *dl;
};

static inline int unit_rows_cb(const struct dard_path *p, void *arg)
{
	struct unit_rows *r = arg;
	uint32_t dl[2 * DARD_LEVEL_MAX];

	r->c.ndl = dard_path_dlinks(r->t, p, dl);
	r->dl = (uint32_t *)realloc(r->dl, (r->c.npaths + 1) * r->c.ndl *
						   sizeof(*r->dl));
	if (!r->dl)
		fail_msg("out of memory");
	memcpy(&r->dl[r->c.npaths++ * r->c.ndl], dl, r->c.ndl * sizeof(*dl));
	r->c.dl = r->dl;
	return 0;
}

/*
 * Every path from src to dst as a row of directed switch links, in
 * dard_path_foreach's order, as the simulator keeps them; free(c.dl).
 */
static inline struct dard_cands unit_rows(struct dard_pathctx *pc,
					  const struct dard_topo *t,
					  uint32_t src, uint32_t dst)
{
	struct unit_rows r = {.t = t};

	dard_path_foreach(pc, src, dst, unit_rows_cb, &r);
	return r.c;
}

/* A node the test names, which must exist. */
static inline uint32_t find(const struct dard_topo *t, const char *name)
{
	uint32_t n = dard_topo_find(t, name);

	if (n == DARD_NONE)
		fail_msg("no node `%s' in %s", name, t->name);
	return n;
}

/* A generated topology (spec), which must generate. */
static inline struct dard_topo *unit_gen(const char *spec)
{
	char err[DARD_ERR_MAX] = "";
	struct dard_topo *t = dard_gen_spec(spec, 1000, err);

	if (!t)
		fail_msg("%s: %s", spec, err);
	return t;
}

/* NL_D and the lower bound, which fail only when memory runs out. */
static inline uint32_t unit_node_load(const struct dard_topo *t,
				      const struct dard_demand *d, size_t n)
{
	char err[DARD_ERR_MAX];
	uint32_t v = 0;

	if (dard_route_node_load(t, d, n, &v, err))
		fail_msg("%s", err);
	return v;
}

static inline uint32_t unit_lower_bound(const struct dard_topo *t,
					const struct dard_demand *d, size_t n)
{
	char err[DARD_ERR_MAX];
	uint32_t v = 0;

	if (dard_route_lower_bound(t, d, n, &v, err))
		fail_msg("%s", err);
	return v;
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
