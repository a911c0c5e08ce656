// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Traffic patterns of the paper's evaluation. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "rng.h"
#include "traffic.h"

static const char *const names[] = {
	[DARD_PATTERN_RANDOM] = "random",
	[DARD_PATTERN_STAGGERED] = "staggered",
	[DARD_PATTERN_STRIDE] = "stride",
};

void dard_traffic_opts_init(struct dard_traffic_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->pattern = DARD_PATTERN_STRIDE;
	o->torp = 0.5;
	o->podp = 0.3;
	o->rate = 0.1;
	o->duration = 60;
	o->bytes = 16ULL << 20;
	o->seed = 1;
}

int dard_pattern_parse(const char *s)
{
	unsigned i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i]))
			return i;
	return -1;
}

const char *dard_pattern_name(int pattern)
{
	return pattern >= 0 && pattern <= DARD_PATTERN_STRIDE ? names[pattern]
							      : "?";
}

void dard_derangement(uint32_t *perm, uint32_t n, uint64_t *rng)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		perm[i] = i;
	for (i = n ? n - 1 : 0; i > 0; i--) {
		uint32_t r = dard_xorshift64s(rng) % i, x = perm[i];

		perm[i] = perm[r];
		perm[r] = x;
	}
}

uint32_t dard_host_pod(const struct dard_topo *t, uint32_t host)
{
	uint32_t tor = dard_topo_tor(t, host), best = DARD_NONE, up;
	unsigned i;

	for (i = 0; i < t->node[tor].nup; i++) {
		up = dard_topo_peer(t, tor, t->node[tor].up[i]);
		if (up < best)
			best = up;
	}
	/* A one-level tree: the ToR is its own pod. */
	return best == DARD_NONE ? tor : best;
}

/* splitmix64: small, fast, and the same everywhere. */
static uint64_t next(uint64_t *s)
{
	return dard_mix64(*s += 0x9e3779b97f4a7c15ULL);
}

/* Uniform in (0, 1]. */
static double uniform(uint64_t *s)
{
	return ((next(s) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

static int cmp_start(const void *a, const void *b)
{
	const struct dard_tflow *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->src < y->src ? -1 : x->src > y->src;
}

/* One of n candidates, uniformly. */
static uint32_t pick(uint64_t *s, const uint32_t *cand, unsigned n)
{
	return cand[next(s) % n];
}

long dard_traffic_gen(const struct dard_topo *t,
		      const struct dard_traffic_opts *o,
		      struct dard_tflow **out, char *err)
{
	uint32_t n = t->nhosts, *same_tor = NULL, *same_pod = NULL,
		 *other = NULL, *tor = NULL, *pod = NULL;
	struct dard_tflow *f = NULL;
	size_t cap = 0, len = 0;
	uint64_t s = o->seed;
	unsigned step = o->step, i;
	long ret;

	if (n < 2)
		return dard_fail(err, -EINVAL, "%s has fewer than two hosts",
				 dard_topo_label(t));
	if (!(o->rate > 0) || !(o->duration > 0) || !o->bytes)
		return dard_fail(err, -EINVAL,
				 "rate, duration and size must be positive");
	if (o->pattern == DARD_PATTERN_STAGGERED &&
	    (o->torp < 0 || o->podp < 0 || o->torp + o->podp > 1))
		return dard_fail(
			err, -EINVAL,
			"staggered needs ToRP, PodP >= 0 with ToRP + PodP <= 1");
	if (o->pattern == DARD_PATTERN_STRIDE) {
		/* The hosts of one pod: every destination in another. */
		if (!step) {
			uint32_t pod = dard_host_pod(t, t->hosts[0]);

			while (step < n &&
			       dard_host_pod(t, t->hosts[step]) == pod)
				step++;
		}
		if (step % n == 0)
			return dard_fail(err, -EINVAL,
					 "stride %u sends every host to itself",
					 step);
	}
	same_tor = malloc(n * sizeof(*same_tor));
	same_pod = malloc(n * sizeof(*same_pod));
	other = malloc(n * sizeof(*other));
	tor = malloc(n * sizeof(*tor));
	pod = malloc(n * sizeof(*pod));
	if (!same_tor || !same_pod || !other || !tor || !pod) {
		ret = dard_fail(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		tor[i] = dard_topo_tor(t, t->hosts[i]);
		pod[i] = dard_host_pod(t, t->hosts[i]);
	}
	for (i = 0; i < n; i++) {
		uint32_t src = t->hosts[i], dst = DARD_NONE, j;
		unsigned nt = 0, np = 0, no = 0;
		double at = 0;

		/* Only staggered asks where the others are. */
		for (j = 0; o->pattern == DARD_PATTERN_STAGGERED && j < n;
		     j++) {
			if (j == i)
				continue;
			if (tor[j] == tor[i])
				same_tor[nt++] = t->hosts[j];
			else if (pod[j] == pod[i])
				same_pod[np++] = t->hosts[j];
			else
				other[no++] = t->hosts[j];
		}
		for (;;) {
			at += -log(uniform(&s)) / o->rate;
			if (at >= o->duration)
				break;
			switch (o->pattern) {
			case DARD_PATTERN_STRIDE:
				dst = t->hosts[(i + step) % n];
				break;
			case DARD_PATTERN_RANDOM:
				dst = t->hosts[(i + 1 + next(&s) % (n - 1)) %
					       n];
				break;
			default: {
				double u = uniform(&s);

				/* A class with no host gives way to the next.
				 */
				if (u <= o->torp && nt)
					dst = pick(&s, same_tor, nt);
				else if (u <= o->torp + o->podp && np)
					dst = pick(&s, same_pod, np);
				else if (no)
					dst = pick(&s, other, no);
				else if (np)
					dst = pick(&s, same_pod, np);
				else
					dst = pick(&s, same_tor, nt);
			}
			}
			if (len == cap) {
				void *p =
					realloc(f, (cap = cap ? 2 * cap : 256) *
							   sizeof(*f));

				if (!p) {
					ret = dard_fail(err, -ENOMEM,
							"out of memory");
					goto out;
				}
				f = p;
			}
			f[len].start = at;
			f[len].src = src;
			f[len].dst = dst;
			f[len].bytes = o->bytes;
			len++;
		}
	}
	qsort(f, len, sizeof(*f), cmp_start);
	*out = f;
	f = NULL;
	ret = len;
out:
	free(f);
	free(same_tor);
	free(same_pod);
	free(other);
	free(tor);
	free(pod);
	return ret;
}
