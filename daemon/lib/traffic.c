// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Traffic patterns of the paper's evaluation. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "rng.h"
#include "traffic.h"
#include "workload.h"

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

static int cmp_start(const void *a, const void *b)
{
	const struct dard_tflow *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->src < y->src ? -1 : x->src > y->src;
}

/*
 * Where the hosts are, for staggered: host indices grouped by ToR and by
 * pod, each group in host order. A source's candidates in a class are a
 * group minus a smaller one (its pod minus its ToR, say), so they are
 * drawn from the groups, not from lists built per source.
 */
struct where {
	uint32_t *tor, *pod;	 /* per host index: its ToR's and pod's node */
	uint32_t *bytor, *bypod; /* host indices, grouped */
	uint32_t *tstart, *pstart; /* per node: its group's first entry */
	uint32_t *tpos, *ppos;	   /* per host: its entry in bytor, bypod */
};

static void where_free(struct where *w)
{
	free(w->tor);
	free(w->pod);
	free(w->bytor);
	free(w->bypod);
	free(w->tstart);
	free(w->pstart);
	free(w->tpos);
	free(w->ppos);
}

/* A stable counting sort of the hosts by key[] (node indices). */
static void group_by(uint32_t n, uint32_t nnodes, const uint32_t *key,
		     uint32_t *start, uint32_t *by, uint32_t *pos)
{
	uint32_t i;

	memset(start, 0, (nnodes + 1) * sizeof(*start));
	for (i = 0; i < n; i++)
		start[key[i] + 1]++;
	for (i = 0; i < nnodes; i++)
		start[i + 1] += start[i];
	for (i = 0; i < n; i++) {
		pos[i] = start[key[i]]++;
		by[pos[i]] = i;
	}
	for (i = nnodes; i > 0; i--)
		start[i] = start[i - 1];
	start[0] = 0;
}

static int where_new(const struct dard_topo *t, struct where *w)
{
	uint32_t n = t->nhosts, m = t->nnodes + 1, i;

	memset(w, 0, sizeof(*w));
	w->tor = malloc(n * sizeof(*w->tor));
	w->pod = malloc(n * sizeof(*w->pod));
	w->bytor = malloc(n * sizeof(*w->bytor));
	w->bypod = malloc(n * sizeof(*w->bypod));
	w->tpos = malloc(n * sizeof(*w->tpos));
	w->ppos = malloc(n * sizeof(*w->ppos));
	w->tstart = malloc(m * sizeof(*w->tstart));
	w->pstart = malloc(m * sizeof(*w->pstart));
	if (!w->tor || !w->pod || !w->bytor || !w->bypod || !w->tpos ||
	    !w->ppos || !w->tstart || !w->pstart) {
		where_free(w);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		w->tor[i] = dard_topo_tor(t, t->hosts[i]);
		w->pod[i] = dard_host_pod(t, t->hosts[i]);
	}
	group_by(n, t->nnodes, w->tor, w->tstart, w->bytor, w->tpos);
	group_by(n, t->nnodes, w->pod, w->pstart, w->bypod, w->ppos);
	return 0;
}

/*
 * Staggered's destination for host index i: the same ToR with
 * probability torp, the same pod (another ToR) with podp, else another
 * pod; a class with no host gives way to the next. Each class is the
 * hosts in host order less a group: its r-th member is r stepped past
 * the group's members at or before it.
 */
static uint32_t staggered(const struct dard_topo *t, const struct where *w,
			  const struct dard_traffic_opts *o, uint32_t i,
			  uint64_t *s)
{
	uint32_t t0 = w->tstart[w->tor[i]], t1 = w->tstart[w->tor[i] + 1];
	uint32_t p0 = w->pstart[w->pod[i]], p1 = w->pstart[w->pod[i] + 1];
	uint32_t nt = t1 - t0 - 1, np = (p1 - p0) - (t1 - t0);
	uint32_t no = t->nhosts - (p1 - p0), x, k;
	double u = dard_splitmix_unit(s);
	int class;

	if (u <= o->torp && nt)
		class = 0;
	else if (u <= o->torp + o->podp && np)
		class = 1;
	else
		class = no ? 2 : np ? 1 : 0;
	if (class == 0) {
		x = dard_splitmix64(s) % nt;
		if (w->tpos[i] - t0 <= x)
			x++;
		return t->hosts[w->bytor[t0 + x]];
	}
	if (class == 1) {
		x = dard_splitmix64(s) % np;
		for (k = t0; k < t1; k++)
			if (w->ppos[w->bytor[k]] - p0 <= x)
				x++;
		return t->hosts[w->bypod[p0 + x]];
	}
	x = dard_splitmix64(s) % no;
	for (k = p0; k < p1; k++)
		if (w->bypod[k] <= x)
			x++;
	return t->hosts[x];
}

static long check_opts(const struct dard_topo *t,
		       const struct dard_traffic_opts *o, unsigned *step,
		       char *err)
{
	uint32_t n = t->nhosts;

	if (n < 2)
		return dard_fail(err, -EINVAL, "%s has fewer than two hosts",
				 dard_topo_label(t));
	if (o->workload) {
		if (o->workload < 0 || o->workload >= __DARD_WORKLOAD_MAX)
			return dard_fail(err, -EINVAL, "unknown workload %d",
					 o->workload);
		/* Written to refuse NaN too. */
		if (!(o->load > 0 && o->load <= 1))
			return dard_fail(
				err, -EINVAL,
				"load %g: expected a share above 0, up to 1",
				o->load);
		if (o->rate || o->bytes)
			return dard_fail(
				err, -EINVAL,
				"workload %s draws the sizes and the rate: not with a rate or a size",
				dard_workload_name(o->workload));
		if (!(o->mbps >= 0 && o->mbps < HUGE_VAL))
			return dard_fail(err, -EINVAL,
					 "host link capacity %g Mbit/s",
					 o->mbps);
		if (!(o->duration > 0))
			return dard_fail(err, -EINVAL,
					 "duration must be positive");
	} else if (!(o->rate > 0) || !(o->duration > 0) || !o->bytes) {
		return dard_fail(err, -EINVAL,
				 "rate, duration and size must be positive");
	}
	if (o->pattern == DARD_PATTERN_STAGGERED &&
	    (o->torp < 0 || o->podp < 0 || o->torp + o->podp > 1))
		return dard_fail(
			err, -EINVAL,
			"staggered needs ToRP, PodP >= 0 with ToRP + PodP <= 1");
	*step = o->step;
	if (o->pattern == DARD_PATTERN_STRIDE) {
		/* The hosts of one pod: every destination in another. */
		if (!*step) {
			uint32_t pod = dard_host_pod(t, t->hosts[0]);

			while (*step < n &&
			       dard_host_pod(t, t->hosts[*step]) == pod)
				(*step)++;
		}
		if (*step % n == 0)
			return dard_fail(err, -EINVAL,
					 "stride %u sends every host to itself",
					 *step);
	}
	return 0;
}

/*
 * A workload's flows per second from host: its link loaded to o->load,
 * at o->mbps or the topology's capacity.
 */
static double source_rate(const struct dard_topo *t,
			  const struct dard_traffic_opts *o, uint32_t host)
{
	const struct dard_link *l;
	double mbps = o->mbps;

	if (!(mbps > 0) && t->node[host].nup) {
		l = dard_topo_port_link(t, host, t->node[host].up[0]);
		mbps = l ? l->mbps : 0;
	}
	return dard_workload_rate(o->workload, o->load, mbps);
}

/* Appends a flow to *f (len of cap), growing it: 0 or -ENOMEM. */
static int push(struct dard_tflow **f, size_t *len, size_t *cap,
		const struct dard_tflow *x)
{
	if (*len == *cap) {
		size_t c = *cap ? 2 * *cap : 256;
		void *p = realloc(*f, c * sizeof(**f));

		if (!p)
			return -ENOMEM;
		*f = p;
		*cap = c;
	}
	(*f)[(*len)++] = *x;
	return 0;
}

long dard_traffic_gen(const struct dard_topo *t,
		      const struct dard_traffic_opts *o,
		      struct dard_tflow **out, char *err)
{
	uint32_t n = t->nhosts, i;
	struct dard_tflow *f = NULL, x = {.bytes = o->bytes};
	struct where w = {0};
	size_t cap = 0, len = 0;
	uint64_t s = o->seed;
	unsigned step = 0;
	long ret = check_opts(t, o, &step, err);

	if (ret < 0)
		return ret;
	if (o->pattern == DARD_PATTERN_STAGGERED && where_new(t, &w))
		return dard_fail(err, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		double rate = o->rate;

		x.src = t->hosts[i];
		x.start = 0;
		if (o->workload) {
			rate = source_rate(t, o, x.src);
			if (!(rate > 0)) {
				ret = dard_fail(
					err, -EINVAL,
					"host %s's link has no capacity",
					t->node[x.src].name);
				goto out;
			}
		}
		for (;;) {
			x.start += -log(dard_splitmix_unit(&s)) / rate;
			if (x.start >= o->duration)
				break;
			if (o->pattern == DARD_PATTERN_STRIDE)
				x.dst = t->hosts[(i + step) % n];
			else if (o->pattern == DARD_PATTERN_RANDOM)
				x.dst = t->hosts[(i + 1 +
						  dard_splitmix64(&s) %
							  (n - 1)) %
						 n];
			else
				x.dst = staggered(t, &w, o, i, &s);
			/* After the destination: without a workload the
			 * draws are the ones they always were. */
			if (o->workload)
				x.bytes = dard_workload_size(
					o->workload, dard_splitmix_unit(&s));
			if (push(&f, &len, &cap, &x)) {
				ret = dard_fail(err, -ENOMEM, "out of memory");
				goto out;
			}
		}
	}
	qsort(f, len, sizeof(*f), cmp_start);
	*out = f;
	f = NULL;
	ret = len;
out:
	free(f);
	where_free(&w);
	return ret;
}
