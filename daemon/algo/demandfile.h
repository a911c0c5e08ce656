/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A demand file (dard-sim --place --demand FILE): `SRC DST' per line,
 * host names of the topology, `#' starts a comment. Pure: the caller
 * reads the file (at most DARD_DEMAND_MAX bytes); the fuzz target feeds
 * it anything.
 */
#ifndef _DARD_DEMANDFILE_H
#define _DARD_DEMANDFILE_H

#include <stddef.h>

#include "route.h"
#include "topo.h"

enum {
	DARD_DEMAND_MAX = 64 << 20, /* bytes of a demand file */
	DARD_DEMAND_LINE_MAX = 4096 /* bytes of one of its lines */
};

/*
 * The flows of text[0..len) into *out (free() it): how many, or a
 * negative errno with err (DARD_ERR_MAX) saying what is wrong and *line
 * where (1 from the first; 0 for the whole file).
 */
long dard_demand_parse(const struct dard_topo *t, const char *text, size_t len,
		       struct dard_demand **out, unsigned *line, char *err);

#endif /* _DARD_DEMANDFILE_H */
