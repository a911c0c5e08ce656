// SPDX-License-Identifier: GPL-2.0 OR MIT
/* --place's demand: a traffic pattern's first flows, or a file. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "traffic.h"

/* A demand file: `SRC DST' per line; errors name the line. */
static long read_demand(const struct dard_topo *t, const char *path,
			struct dard_demand **out, char *err, size_t errlen)
{
	struct dard_demand *d = NULL;
	size_t n = 0, cap = 0;
	char line[256];
	unsigned lineno = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(err, errlen, "unable to open `%s': %s", path,
			 strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char a[64], b[64], extra[2];
		int k;

		lineno++;
		line[strcspn(line, "#\n")] = 0;
		k = sscanf(line, "%63s %63s %1s", a, b, extra);
		if (k <= 0)
			continue;
		if (k != 2) {
			snprintf(err, errlen, "%s:%u: expected `SRC DST'", path,
				 lineno);
			goto bad;
		}
		if (n == cap) {
			void *p = realloc(d, (cap = cap ? 2 * cap : 64) *
						     sizeof(*d));

			if (!p) {
				snprintf(err, errlen, "out of memory");
				goto bad;
			}
			d = p;
		}
		d[n].src = dard_topo_find(t, a);
		d[n].dst = dard_topo_find(t, b);
		if (d[n].src == DARD_NONE || !t->node[d[n].src].is_host ||
		    d[n].dst == DARD_NONE || !t->node[d[n].dst].is_host) {
			snprintf(err, errlen,
				 "%s:%u: `%s' or `%s' is no host of %s", path,
				 lineno, a, b, dard_topo_label(t));
			goto bad;
		}
		if (d[n].src == d[n].dst) {
			snprintf(err, errlen, "%s:%u: %s sends to itself", path,
				 lineno, a);
			goto bad;
		}
		n++;
	}
	fclose(f);
	*out = d;
	return n;
bad:
	fclose(f);
	free(d);
	return -1;
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
