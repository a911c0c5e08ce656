// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for the host configuration file parser, which reads
 * untrusted input. Beyond not crashing, a file that parses must survive a
 * write and re-parse unchanged, and the paths enumerated between its first
 * hosts must decode back to themselves from their alias pairs.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "path.h"

enum {
	MAX_NODES = 2000, /* bigger topologies only make runs slow */
	/* Alias lines grow with the product of the fan-ins. */
	MAX_ALIASES = 1 << 14,
	/* Paths between two hosts are at most the product of their aliases. */
	MAX_PAIR_PATHS = 1 << 10,
	NPAIR_HOSTS = 3, /* first hosts, plus the last, checked pairwise */
};

struct check {
	struct dard_pathctx *c;
	long n;
};

static int check_path(const struct dard_path *path, void *arg)
{
	struct check *ck = arg;
	struct dard_path out;
	char err[DARD_ERR_MAX];

	ck->n++;
	if (dard_path_decode(ck->c, path->saddr, path->daddr, &out, err))
		abort();
	if (out.src != path->src || out.dst != path->dst ||
	    out.top != path->top || out.nsw != path->nsw ||
	    out.shortest != path->shortest ||
	    memcmp(out.sw, path->sw, path->nsw * sizeof(path->sw[0])))
		abort();
	return 0;
}

static void check_pair(const struct dard_topo *t, struct dard_pathctx *c,
		       uint32_t src, uint32_t dst)
{
	struct check ck = {.c = c};
	uint64_t bound;
	long n;

	bound = (uint64_t)dard_plan_naliases(t, src) *
		dard_plan_naliases(t, dst);
	if (bound > MAX_PAIR_PATHS)
		return;
	n = dard_path_count(c, src, dst);
	if (n < 0 || (uint64_t)n > bound)
		abort();
	if (dard_path_foreach(c, src, dst, check_path, &ck) != n || ck.n != n)
		abort();
}

static void check_paths(const struct dard_config *cfg)
{
	const struct dard_topo *t = cfg->topo;
	uint32_t pick[NPAIR_HOSTS + 1], n = 0, i, j;
	struct dard_pathctx *c;

	c = dard_pathctx_new(t, cfg->plan);
	if (!c)
		return;
	for (i = 0; i < t->nhosts && i < NPAIR_HOSTS; i++)
		pick[n++] = t->hosts[i];
	if (t->nhosts > NPAIR_HOSTS)
		pick[n++] = t->hosts[t->nhosts - 1];
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			if (i != j)
				check_pair(t, c, pick[i], pick[j]);
	dard_pathctx_free(c);
}

/* Writing what was parsed and parsing it again must give the same text. */
static void check_roundtrip(const struct dard_config *cfg)
{
	const struct dard_topo *t = cfg->topo;
	unsigned flags = DARD_CONFIG_F_PLAN | DARD_CONFIG_F_ALIASES;
	struct dard_buf b1 = {0}, b2 = {0};
	struct dard_config again;
	uint64_t naliases = 0;
	uint32_t i;

	for (i = 0; i < t->nhosts; i++)
		naliases += dard_plan_naliases(t, t->hosts[i]);
	if (naliases > MAX_ALIASES)
		flags &= ~DARD_CONFIG_F_ALIASES;
	dard_config_write(t, cfg->plan, flags, &b1);
	if (b1.oom)
		goto out;
	if (dard_config_parse(&again, b1.s, b1.len, NULL, 0, NULL, NULL))
		abort();
	dard_config_write(again.topo, again.plan, flags, &b2);
	if (!b2.oom && (b1.len != b2.len || memcmp(b1.s, b2.s, b1.len)))
		abort();
	dard_config_free(&again);
out:
	dard_buf_free(&b1);
	dard_buf_free(&b2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dard_config cfg;

	if (dard_config_parse(&cfg, (const char *)data, size, NULL, 0, NULL,
			      NULL))
		return 0;
	if (cfg.topo->nnodes <= MAX_NODES) {
		check_roundtrip(&cfg);
		check_paths(&cfg);
	}
	dard_config_free(&cfg);
	return 0;
}
