/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What oblivious.c (the LP) and oblivious_eval.c (the worst case of given
 * weights) share: the ToRs with their hose capacities, and a walk over
 * every ordered ToR pair's paths with the failed ones marked.
 */
#ifndef _DARD_OBLIVIOUS_INT_H
#define _DARD_OBLIVIOUS_INT_H

#include <stddef.h>
#include <stdint.h>
#include <linux/dard.h>

#include "oblivious.h"

/* The ToRs (the last switch level) and what their hosts can send. */
struct obl_tors {
	uint32_t n, nnodes;
	uint32_t *node; /* ToR index -> node */
	uint32_t *idx;	/* node -> ToR index, DARD_NONE if not a ToR */
	uint32_t *host; /* ToR index -> first host, DARD_NONE if none */
	double *h;	/* ToR index -> Mbit/s of its live host links */
};

/* One ordered ToR pair's paths, between the pair's first hosts. */
struct obl_pair {
	uint32_t a, b; /* ToR indices */
	unsigned n, nlive;
	struct dard_path path[DARD_PATHS_MAX];
	uint8_t dead[DARD_PATHS_MAX];
	uint8_t ndl[DARD_PATHS_MAX]; /* switch-to-switch directed links */
	uint32_t dl[DARD_PATHS_MAX][2 * DARD_LEVEL_MAX];
	const uint8_t *down; /* for the path callback */
	const struct dard_topo *t;
};

/* A directed link a path of the pair crosses, and that path. */
struct obl_hop {
	uint32_t dl;
	uint16_t path;
};

/* t finalized, pc and down sane: 0 or -EINVAL with err. */
int obl_check(const struct dard_topo *t, struct dard_pathctx *pc,
	      const uint8_t *down, size_t ndown, char *err);
int obl_tors_init(struct obl_tors *tr, const struct dard_topo *t,
		  const uint8_t *down, char *err);
void obl_tors_free(struct obl_tors *tr);

/*
 * Calls fn for every ordered pair of distinct ToRs that both have hosts,
 * source-major in ToR order, with the pair's paths filled in. Stops at
 * fn's non-zero return and returns it; -E2BIG with err for a pair with
 * more than DARD_PATHS_MAX paths.
 */
int obl_each_pair(const struct dard_topo *t, struct dard_pathctx *pc,
		  const uint8_t *down, const struct obl_tors *tr,
		  struct obl_pair *pp, int (*fn)(struct obl_pair *, void *),
		  void *arg, char *err);

/*
 * The (directed link, path) hops of pp's live paths, sorted by link and
 * path, into hop (room for n * 2 * DARD_LEVEL_MAX); returns how many.
 * Paths with w[path] == 0 are left out when w is not NULL.
 */
size_t obl_hops(const struct obl_pair *pp, const double *w,
		struct obl_hop *hop);

/* The largest link capacity, the LPs' unit so coefficients stay near 1. */
double obl_scale(const struct dard_topo *t);

#endif /* _DARD_OBLIVIOUS_INT_H */
