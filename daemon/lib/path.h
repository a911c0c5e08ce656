/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Paths between hosts and their (source alias, destination alias) names.
 * A packet climbs the source alias's chain until it reaches a switch whose
 * downhill table holds the destination alias, then descends that alias's
 * chain (DARD paper, section 2.3): decoding follows exactly this rule, so
 * it says what the switches will do. Pure: no I/O.
 */
#ifndef _DARD_PATH_H
#define _DARD_PATH_H

#include "addr.h"
#include "topo.h"

struct dard_path {
	uint32_t src, dst;		 /* host nodes */
	uint32_t saddr, daddr;		 /* the alias pair naming the path */
	uint32_t sw[2 * DARD_LEVEL_MAX]; /* switches crossed, in order */
	uint8_t nsw;
	uint8_t top;	  /* level of the switch where it turns down */
	uint8_t shortest; /* turns at the deepest common level */
};

struct dard_pathctx;

/* NULL only when memory runs out: there is nothing else to report. */
struct dard_pathctx *dard_pathctx_new(const struct dard_topo *t,
				      const struct dard_plan *p);
void dard_pathctx_free(struct dard_pathctx *c);

/* Return non-zero from the callback to stop the walk with that value. */
typedef int (*dard_path_cb)(const struct dard_path *path, void *arg);

/*
 * Calls cb for every shortest path from host src to host dst, each named by
 * its canonical alias pair (both aliases allocated by the first prefix of
 * the switch where the path turns). Returns the number of paths, or the
 * callback's non-zero value.
 */
long dard_path_foreach(struct dard_pathctx *c, uint32_t src, uint32_t dst,
		       dard_path_cb cb, void *arg);
long dard_path_count(struct dard_pathctx *c, uint32_t src, uint32_t dst);

/*
 * The path from host src to host dst through the switches sw[0..nsw-1]
 * (src's ToR first, up and then down to dst's ToR), named by its canonical
 * alias pair, without enumerating the pair's paths: what a centralized
 * router that picks switches needs. The caller vouches that the path is a
 * shortest one. 0, or -EINVAL when sw is not such a chain of links.
 */
int dard_path_make(struct dard_pathctx *c, uint32_t src, uint32_t dst,
		   const uint32_t *sw, unsigned nsw, struct dard_path *out);

/*
 * The path an alias pair names. Fails with err filled when either address
 * is not an alias, both belong to one host, or the pair names no path (the
 * source's uphill path never meets the destination's downhill path).
 */
int dard_path_decode(struct dard_pathctx *c, uint32_t saddr, uint32_t daddr,
		     struct dard_path *out, char *err);

/* Links crossed, host to host: path->nsw + 1 of them. */
unsigned dard_path_links(const struct dard_topo *t,
			 const struct dard_path *path, uint32_t *links);

#endif /* _DARD_PATH_H */
