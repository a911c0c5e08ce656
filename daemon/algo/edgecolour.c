// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Bipartite edge colouring by alternating paths. */
#include <errno.h>
#include <stdlib.h>

#include "edgecolour.h"

#define NOEDGE SIZE_MAX

int dard_edge_colour(uint32_t nl, uint32_t nr, const struct dard_bedge *e,
		     size_t m, unsigned ncolours, unsigned *colour)
{
	/* at[v * ncolours + c]: the edge of colour c at vertex v; right
	 * vertices are numbered after the left ones. */
	size_t nv = (size_t)nl + nr, i, k, n, *at, *path;
	uint32_t *deg;
	int ret = -ENOMEM;

	deg = calloc(nv ? nv : 1, sizeof(*deg));
	at = malloc((nv ? nv : 1) * (ncolours ? ncolours : 1) * sizeof(*at));
	path = malloc((m ? m : 1) * sizeof(*path));
	if (!deg || !at || !path)
		goto out;
	for (i = 0; i < nv * ncolours; i++)
		at[i] = NOEDGE;
	ret = -EINVAL;
	for (i = 0; i < m; i++)
		if (e[i].l >= nl || e[i].r >= nr || ++deg[e[i].l] > ncolours ||
		    ++deg[nl + e[i].r] > ncolours)
			goto out;
	for (i = 0; i < m; i++) {
		size_t u = e[i].l, v = (size_t)nl + e[i].r, x = v, f;
		unsigned a = 0, b = 0, col;

		while (at[u * ncolours + a] != NOEDGE)
			a++;
		while (at[v * ncolours + b] != NOEDGE)
			b++;
		if (at[v * ncolours + a] != NOEDGE) {
			/* The a/b path from v; it never reaches u. */
			for (n = 0, col = a;
			     (f = at[x * ncolours + col]) != NOEDGE;
			     col = col == a ? b : a) {
				path[n++] = f;
				x = x == e[f].l ? (size_t)nl + e[f].r : e[f].l;
			}
			for (k = 0; k < n; k++) {
				f = path[k];
				at[e[f].l * ncolours + colour[f]] = NOEDGE;
				at[(nl + e[f].r) * ncolours + colour[f]] =
					NOEDGE;
			}
			for (k = 0; k < n; k++) {
				f = path[k];
				colour[f] = colour[f] == a ? b : a;
				at[e[f].l * ncolours + colour[f]] = f;
				at[(nl + e[f].r) * ncolours + colour[f]] = f;
			}
		}
		colour[i] = a;
		at[u * ncolours + a] = i;
		at[v * ncolours + a] = i;
	}
	ret = 0;
out:
	free(deg);
	free(at);
	free(path);
	return ret;
}
