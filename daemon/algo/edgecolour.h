/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Edge colouring of bipartite multigraphs with as many colours as the
 * largest degree (Kőnig's theorem), by alternating paths: for an edge
 * (u, v) take a colour a free at u and b free at v; if a is not free at v,
 * swap a and b along the a/b path from v, which cannot reach u in a
 * bipartite graph. Pure: no I/O.
 */
#ifndef _DARD_EDGECOLOUR_H
#define _DARD_EDGECOLOUR_H

#include <stddef.h>
#include <stdint.h>

struct dard_bedge {
	uint32_t l, r; /* left and right vertex */
};

/*
 * Colours the m edges between nl left and nr right vertices with colours
 * 0..ncolours-1, no two edges at a vertex alike. ncolours must be at
 * least the largest degree. Returns 0, -EINVAL (a vertex out of range or
 * too few colours) or -ENOMEM.
 */
int dard_edge_colour(uint32_t nl, uint32_t nr, const struct dard_bedge *e,
		     size_t m, unsigned ncolours, unsigned *colour);

#endif /* _DARD_EDGECOLOUR_H */
