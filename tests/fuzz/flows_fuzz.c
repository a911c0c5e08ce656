// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for dard-sim's flow file (daemon/algo/flowfile.h) on
 * a fattree:4: a file taken gives at least one flow and no more than its
 * lines after the header, each between two different hosts, with bytes
 * and a start in range, sorted by start; a file refused names a line it
 * has and a reason, and gives nothing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "flowfile.h"
#include "gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dard_topo *t;
	struct dard_tflow *f = NULL;
	uint64_t *ids = NULL;
	const char *text = (const char *)data;
	char err[DARD_ERR_MAX];
	size_t i, lines = 1;
	unsigned line;
	long n;

	if (!t && !(t = dard_gen_spec("fattree:4", 1000, err)))
		abort();
	for (i = 0; i < size; i++)
		lines += text[i] == '\n';
	n = dard_flows_parse(t, text, size, &f, &ids, &line, err);
	if (n < 0) {
		if (!line || line > lines || !err[0] || f || ids)
			abort();
		return 0;
	}
	if (!n || (size_t)n >= lines || line || !f || !ids)
		abort();
	for (i = 0; i < (size_t)n; i++) {
		if (f[i].src >= t->nnodes || !t->node[f[i].src].is_host ||
		    f[i].dst >= t->nnodes || !t->node[f[i].dst].is_host ||
		    f[i].src == f[i].dst)
			abort();
		if (!(f[i].start >= 0 && f[i].start <= 1e9) || !f[i].bytes)
			abort();
		if (i && f[i].start < f[i - 1].start)
			abort();
	}
	free(f);
	free(ids);
	return 0;
}
