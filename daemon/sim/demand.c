// SPDX-License-Identifier: GPL-2.0 OR MIT
/* --place's demand: a traffic pattern's first flows, or a file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "demandfile.h"
#include "sim.h"
#include "traffic.h"

/* A demand file (demandfile.h), read whole; errors name the file and line. */
static long read_demand(const struct dard_topo *t, const char *path,
			struct dard_demand **out, char *err, size_t errlen)
{
	char e[DARD_ERR_MAX], *text;
	unsigned line;
	size_t len;
	long n;

	if (sim_read_file(path, DARD_DEMAND_MAX, &text, &len, err, errlen))
		return -1;
	n = dard_demand_parse(t, text, len, out, &line, e);
	free(text);
	if (n < 0 && line)
		snprintf(err, errlen, "%s:%u: %s", path, line, e);
	else if (n < 0)
		snprintf(err, errlen, "%s: %s", path, e);
	return n < 0 ? -1 : n;
}

/* One flow per host, the pattern's choice of destination. */
static long pattern_demand(const struct dard_topo *t, int pattern,
			   uint64_t seed, struct dard_demand **out, char *err,
			   size_t errlen)
{
	struct dard_traffic_opts o;
	struct dard_tflow *f;
	char e[DARD_ERR_MAX];
	uint8_t *done = calloc(t->nnodes, 1);
	struct dard_demand *d = calloc(t->nhosts, sizeof(*d));
	long n, i, k = 0;

	dard_traffic_opts_init(&o);
	o.pattern = pattern;
	o.seed = seed;
	o.rate = 1;
	/* e^-40: every host has an arrival, without millions of flows. */
	o.duration = 40;
	n = done && d ? dard_traffic_gen(t, &o, &f, e) : -ENOMEM;
	if (n < 0) {
		snprintf(err, errlen, "%s", n == -ENOMEM ? "out of memory" : e);
		free(done);
		free(d);
		return -1;
	}
	for (i = 0; i < n && k < (long)t->nhosts; i++)
		if (!done[f[i].src]) {
			done[f[i].src] = 1;
			d[k].src = f[i].src;
			d[k].dst = f[i].dst;
			k++;
		}
	free(f);
	free(done);
	*out = d;
	return k;
}

long sim_demand(const struct dard_topo *t, const char *spec, uint64_t seed,
		struct dard_demand **out, char *err, size_t errlen)
{
	int pattern = dard_pattern_parse(spec);

	if (pattern >= 0)
		return pattern_demand(t, pattern, seed, out, err, errlen);
	return read_demand(t, spec, out, err, errlen);
}
