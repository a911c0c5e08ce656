/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * A flow file (dard-sim --run --flows FILE): the flows of a traffic, to
 * replay those an experiment ran. CSV without quoting: a header line
 * naming the columns, in any order, then a flow a line. The columns
 * start (s), src and dst (host names of the topology) and bytes must be
 * there, and id (a whole number) may be; any other is ignored, so that
 * `dardctl traffic gen format csv' (id,start,src,dst,src_id,dst_id,bytes)
 * is one. Blanks around a field and blank lines are allowed. Pure: the
 * caller reads the file (at most DARD_FLOWS_MAX bytes); the fuzz target
 * feeds it anything.
 */
#ifndef _DARD_FLOWFILE_H
#define _DARD_FLOWFILE_H

#include <stddef.h>
#include <stdint.h>

#include "topo.h"
#include "traffic.h"

enum {
	DARD_FLOWS_MAX = 64 << 20,  /* bytes of a flow file */
	DARD_FLOWS_LINE_MAX = 4096, /* bytes of one of its lines */
};

/*
 * The flows of text[0..len) into *out, sorted by start (those that start
 * together in the file's order), and each one's number into *ids: its id,
 * or without an id column its row's, 0 for the first flow (both set
 * only on success; free() them). Returns how many, at least one, or a
 * negative errno with err
 * (DARD_ERR_MAX) saying what is wrong and *line where (1 from the first;
 * 0 for the whole file).
 */
long dard_flows_parse(const struct dard_topo *t, const char *text, size_t len,
		      struct dard_tflow **out, uint64_t **ids, unsigned *line,
		      char *err);

#endif /* _DARD_FLOWFILE_H */
