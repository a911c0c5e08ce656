// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for dard-sim's demand file (daemon/algo/demandfile.h)
 * on a fattree:4: a file taken gives flows between two different hosts,
 * no more than it has lines; a file refused names a line it has.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "demandfile.h"
#include "gen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dard_topo *t;
	struct dard_demand *d = NULL;
	const char *text = (const char *)data;
	char err[DARD_ERR_MAX];
	size_t i, lines = 1;
	unsigned line;
	long n;

	if (!t && !(t = dard_gen_spec("fattree:4", 1000, err)))
		abort();
	for (i = 0; i < size; i++)
		lines += text[i] == '\n';
	n = dard_demand_parse(t, text, size, &d, &line, err);
	if (n < 0) {
		if (!line || line > lines || !err[0])
			abort();
		return 0;
	}
	if ((size_t)n > lines || line)
		abort();
	for (i = 0; i < (size_t)n; i++)
		if (d[i].src >= t->nnodes || !t->node[d[i].src].is_host ||
		    d[i].dst >= t->nnodes || !t->node[d[i].dst].is_host ||
		    d[i].src == d[i].dst)
			abort();
	free(d);
	return 0;
}
