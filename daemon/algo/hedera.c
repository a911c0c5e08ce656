// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Hedera's demand estimation and simulated annealing (hedera.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hedera.h"
#include "maxmin.h"
#include "rng.h"
#include "sched.h"

struct dard_hedera {
	const struct dard_topo *t;
	uint32_t *idx; /* per node; hosts only */
	uint64_t rng;
};

struct dard_hedera *dard_hedera_new(const struct dard_topo *t, uint64_t seed)
{
	struct dard_hedera *h = calloc(1, sizeof(*h));
	uint32_t i;

	if (!h)
		return NULL;
	h->idx = calloc(t->nnodes, sizeof(*h->idx));
	if (!h->idx) {
		free(h);
		return NULL;
	}
	h->t = t;
	h->rng = dard_mix64(seed) | 1;
	/* Hosts under one ToR are numbered in a row: they start apart. */
	for (i = 0; i < t->nhosts; i++)
		h->idx[t->hosts[i]] = t->node[t->hosts[i]].rank;
	return h;
}

void dard_hedera_free(struct dard_hedera *h)
{
	if (!h)
		return;
	free(h->idx);
	free(h);
}

int dard_hedera_demand(const struct dard_topo *t, const double *cap,
		       struct dard_hedera_flow *f, size_t n)
{
	struct dard_mm_flow *mm = calloc(n ? n : 1, sizeof(*mm));
	uint32_t *links = calloc(2 * (n ? n : 1), sizeof(*links));
	double *rate = calloc(n ? n : 1, sizeof(*rate));
	size_t i;
	int ret = -ENOMEM;

	if (!mm || !links || !rate)
		goto out;
	for (i = 0; i < n; i++) {
		links[2 * i] = dard_host_dlink(t, f[i].src, DARD_UP);
		links[2 * i + 1] = dard_host_dlink(t, f[i].dst, DARD_DOWN);
		mm[i].links = &links[2 * i];
		mm[i].nlinks = 2;
	}
	ret = dard_maxmin(cap, 2 * t->nlinks, mm, n, rate);
	for (i = 0; !ret && i < n; i++)
		f[i].demand = rate[i];
out:
	free(mm);
	free(links);
	free(rate);
	return ret;
}

struct anneal {
	const double *cap;
	double *load;
	double energy;
	struct dard_hedera_flow *f;
	uint32_t *order; /* flows by destination */
	uint32_t *first; /* per destination: its flows in order[] */
	uint32_t *dst;	 /* destination hosts */
	int32_t *pos;	 /* per node: index in dst[], or -1 */
};

static void add(struct anneal *a, const struct dard_hedera_flow *f, double sign)
{
	const uint32_t *dl = f->c.dl + (size_t)f->row * f->c.ndl;
	unsigned k;

	for (k = 0; k < f->c.ndl; k++) {
		double *x = &a->load[dl[k]], c = a->cap[dl[k]];

		a->energy -= fmax(*x - c, 0);
		*x += sign * f->demand;
		a->energy += fmax(*x - c, 0);
	}
}

/* Gives destination host number d the index v: its flows follow. */
static void set_index(struct anneal *a, uint32_t d, uint32_t v)
{
	uint32_t i;

	for (i = a->first[d]; i < a->first[d + 1]; i++) {
		struct dard_hedera_flow *f = &a->f[a->order[i]];

		add(a, f, -1);
		f->row = v % f->c.npaths;
		add(a, f, +1);
	}
}

static int by_dst(const void *x, const void *y, void *arg)
{
	const struct dard_hedera_flow *f = arg;
	uint32_t i = *(const uint32_t *)x, j = *(const uint32_t *)y;
	uint32_t a = f[i].dst, b = f[j].dst;

	return a != b ? (a > b) - (a < b) : (i > j) - (i < j);
}

int dard_hedera_anneal(struct dard_hedera *h, const double *cap,
		       struct dard_hedera_flow *f, size_t n, unsigned iters,
		       double *energy)
{
	const struct dard_topo *t = h->t;
	struct anneal a = {.cap = cap, .f = f};
	uint32_t ndst = 0, k, i, kmax = 1, *best = NULL;
	double best_e = 0, t0;
	size_t j;
	int ret = -ENOMEM;

	a.load = calloc(2 * (size_t)t->nlinks, sizeof(*a.load));
	a.order = calloc(n ? n : 1, sizeof(*a.order));
	a.first = calloc(n + 1, sizeof(*a.first));
	a.dst = calloc(n ? n : 1, sizeof(*a.dst));
	a.pos = malloc(t->nnodes * sizeof(*a.pos));
	best = calloc(n ? n : 1, sizeof(*best));
	if (!a.load || !a.order || !a.first || !a.dst || !a.pos || !best)
		goto out;
	memset(a.pos, 0xff, t->nnodes * sizeof(*a.pos));
	for (j = 0; j < n; j++)
		a.order[j] = j;
	qsort_r(a.order, n, sizeof(*a.order), by_dst, f);
	for (j = 0; j < n; j++) {
		uint32_t d = f[a.order[j]].dst;

		if (a.pos[d] < 0) {
			a.pos[d] = ndst;
			a.first[ndst] = j;
			a.dst[ndst++] = d;
		}
		if (f[a.order[j]].c.npaths > kmax)
			kmax = f[a.order[j]].c.npaths;
	}
	a.first[ndst] = n;
	/* Start from the state the last round left. */
	for (j = 0; j < n; j++) {
		f[j].row = h->idx[f[j].dst] % f[j].c.npaths;
		add(&a, &f[j], +1);
	}
	for (i = 0; i < ndst; i++)
		best[i] = h->idx[a.dst[i]];
	best_e = a.energy;
	t0 = ndst ? a.energy / ndst : 0;
	if (!iters)
		iters = 1000 + 10 * ndst;
	for (k = 0; k < iters && best_e > 1e-9; k++) {
		double temp = t0 * (1 - (double)k / iters), before = a.energy;
		uint32_t d = dard_xorshift64s(&h->rng) % ndst, h1 = a.dst[d];
		uint32_t v1 = h->idx[h1], h2 = DARD_NONE, v2 = 0;

		if (dard_xorshift64s(&h->rng) & 1) {
			uint32_t tor = dard_topo_tor(t, h1);
			const struct dard_node *s = &t->node[tor];

			h2 = dard_topo_peer(
				t, tor,
				s->down[dard_xorshift64s(&h->rng) % s->ndown]);
			if (h2 == h1 || h2 == DARD_NONE || !t->node[h2].is_host)
				h2 = DARD_NONE;
		}
		if (h2 != DARD_NONE) {
			v2 = h->idx[h2];
			h->idx[h1] = v2;
			h->idx[h2] = v1;
		} else {
			h->idx[h1] = dard_xorshift64s(&h->rng) % kmax;
		}
		if (h->idx[h1] == v1)
			continue;
		set_index(&a, d, h->idx[h1]);
		if (h2 != DARD_NONE && a.pos[h2] >= 0)
			set_index(&a, a.pos[h2], v1);
		if (a.energy > before + 1e-9 &&
		    !(temp > 0 &&
		      dard_urand(&h->rng) < exp((before - a.energy) / temp))) {
			/* Rejected: undo. */
			h->idx[h1] = v1;
			set_index(&a, d, v1);
			if (h2 != DARD_NONE) {
				h->idx[h2] = v2;
				if (a.pos[h2] >= 0)
					set_index(&a, a.pos[h2], v2);
			}
			continue;
		}
		if (a.energy < best_e - 1e-9) {
			best_e = a.energy;
			for (i = 0; i < ndst; i++)
				best[i] = h->idx[a.dst[i]];
		}
	}
	for (i = 0; i < ndst; i++)
		h->idx[a.dst[i]] = best[i];
	for (j = 0; j < n; j++)
		f[j].row = h->idx[f[j].dst] % f[j].c.npaths;
	if (energy)
		*energy = fmax(best_e, 0);
	ret = 0;
out:
	free(a.load);
	free(a.order);
	free(a.first);
	free(a.dst);
	free(a.pos);
	free(best);
	return ret;
}
