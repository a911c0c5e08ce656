// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * MMF_PGFT_OPT and its parallel form. Sub-fat-trees are found bottom-up:
 * switches of one level that share a child sub-fat-tree are one
 * sub-fat-tree. The rates are then progressive filling in rounds, as in
 * the paper's Fig. 8, with each resource's flow list built once (its
 * section 3.5) to find the flows of the resources that saturate. Each
 * resource's unfixed count and capacity left are updated from the flows
 * fixed (Fig. 8, line 15) instead of recounted from its list in every
 * round as the paper's parallel form does: a round then costs the
 * resources in use plus the flows it fixes, not every unfixed flow
 * again. Threads own ranges of resources; a flow that two threads find
 * saturated is claimed by one, so each is counted once.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "err.h"
#include "opt.h"

/* Resources a and b tie when their shares differ by less than this. */
#define OPT_EPS 1e-9

/* Sub-fat-tree g has resources 2g (its up links) and 2g + 1 (down). */
struct dard_opt {
	const struct dard_topo *t;
	uint32_t ngroups;
	unsigned nlevels; /* chain entries per host: levels nlevels..1 */
	uint32_t *chain;  /* chain[h * nlevels + i]: host h's group at level
			     nlevels - i */
	double *cap;	  /* per group: its up links' capacity, Mbit/s */
};

static uint32_t find(uint32_t *uf, uint32_t x)
{
	while (uf[x] != x)
		x = uf[x] = uf[uf[x]];
	return x;
}

/* The link on a node's i-th up port. */
static uint32_t up_link(const struct dard_topo *t, uint32_t x, unsigned i)
{
	return t->node[x].port[t->node[x].up[i] - 1];
}

/*
 * Groups level by level: union-find joins the parents of each child
 * group, so a group is what the child groups tie together.
 */
static int group(struct dard_opt *o, uint32_t *gid, uint32_t *uf, char *err)
{
	const struct dard_topo *t = o->t;
	uint32_t x, *first = NULL;
	unsigned k, lv;

	o->ngroups = 0;
	for (x = 0; x < t->nnodes; x++) {
		gid[x] = DARD_NONE;
		uf[x] = x;
		if (t->node[x].is_host) {
			if (t->node[x].level != t->nlevels)
				return dard_fail(
					err, -EINVAL,
					"host `%s' is not on the lowest level",
					t->node[x].name);
			gid[x] = o->ngroups++;
		}
	}
	first = malloc(t->nnodes * sizeof(*first));
	if (!first)
		return dard_fail(err, -ENOMEM, "out of memory");
	for (lv = t->nlevels; lv > 0; lv--) {
		for (x = 0; x < o->ngroups; x++)
			first[x] = DARD_NONE;
		for (x = 0; x < t->nnodes; x++) {
			if (t->node[x].level != lv)
				continue;
			for (k = 0; k < t->node[x].nup; k++) {
				uint32_t p = t->link[up_link(t, x, k)].up;
				uint32_t *f = &first[gid[x]];

				if (*f == DARD_NONE)
					*f = p;
				else
					uf[find(uf, p)] = find(uf, *f);
			}
		}
		/* Number the level's groups in node order. */
		for (x = 0; x < t->nnodes; x++)
			if (t->node[x].level == lv - 1 && find(uf, x) == x)
				gid[x] = o->ngroups++;
		for (x = 0; x < t->nnodes; x++)
			if (t->node[x].level == lv - 1)
				gid[x] = gid[find(uf, x)];
	}
	free(first);
	return 0;
}

/* Link l's capacity: the caller's (dard_opt_new_cap), else the tree's. */
static double link_mbps(const struct dard_topo *t, const double *mbps,
			uint32_t l)
{
	return mbps ? mbps[l] : t->link[l].mbps;
}

/*
 * The aggregation is exact when every child group's nodes have the same
 * number of up links, all of one capacity, and every switch of the parent
 * group has as many links down into it as every other: spreading evenly
 * at each hop then reaches a group's switches evenly from any host below
 * and loads its up (and down) links alike (Lemma 1), so its total
 * capacity is what limits the flows crossing it (Lemma 2).
 */
static int check(struct dard_opt *o, const uint32_t *gid, const double *cap,
		 char *err)
{
	const struct dard_topo *t = o->t;
	uint32_t ng = o->ngroups, x, l, p, *size = calloc(ng, sizeof(*size));
	uint32_t *seen = NULL, *cnt = NULL, roots = DARD_NONE;
	size_t *start = NULL, *members = NULL, i;
	unsigned k;
	int ret = -ENOMEM;

	start = calloc(ng + 1, sizeof(*start));
	members = malloc(t->nnodes * sizeof(*members));
	cnt = calloc(t->nnodes, sizeof(*cnt));
	seen = calloc(t->nnodes, sizeof(*seen));
	o->cap = calloc(ng, sizeof(*o->cap));
	if (!size || !start || !members || !cnt || !seen || !o->cap) {
		ret = dard_fail(err, ret, "out of memory");
		goto out;
	}
	for (x = 0; x < t->nnodes; x++)
		size[gid[x]]++;
	for (x = 0; x < ng; x++)
		start[x + 1] = start[x] + size[x];
	for (x = 0; x < t->nnodes; x++)
		members[start[gid[x]] + --size[gid[x]]] = x;
	for (x = 0; x < ng; x++)
		size[x] = start[x + 1] - start[x];
	ret = -EINVAL;
	for (x = 0; x < ng; x++) {
		uint32_t g0 = members[start[x]], want, touched = 0, z;
		const struct dard_node *n0 = &t->node[g0];
		/* The group's up links each, their capacity, its parent. */
		uint32_t nup = n0->nup, parent = DARD_NONE;
		double mbps = 0;

		if (n0->level == 0) {
			if (roots != DARD_NONE) {
				ret = dard_fail(
					err, ret,
					"%s: roots `%s' and `%s' reach different hosts",
					dard_topo_label(t),
					t->node[members[start[roots]]].name,
					n0->name);
				goto out;
			}
			roots = x;
			continue;
		}
		for (i = start[x]; i < start[x + 1]; i++) {
			const struct dard_node *n = &t->node[members[i]];

			if (n->nup != nup) {
				ret = dard_fail(
					err, ret,
					"%s: `%s' has %u up links, `%s' %u: uneven sub-fat-tree",
					dard_topo_label(t), n->name, n->nup,
					n0->name, n0->nup);
				goto out;
			}
			for (k = 0; k < n->nup; k++) {
				l = up_link(t, members[i], k);
				p = t->link[l].up;
				if (!mbps)
					mbps = link_mbps(t, cap, l);
				if (link_mbps(t, cap, l) != mbps) {
					ret = dard_fail(
						err, ret,
						"%s: the up links of `%s' and its peers differ in capacity",
						dard_topo_label(t), n->name);
					goto out;
				}
				parent = gid[p];
				if (!cnt[p]++)
					seen[touched++] = p;
			}
		}
		/* Every parent switch as many links down into this group. */
		want = cnt[seen[0]];
		for (z = 0; z < touched; z++)
			if (cnt[seen[z]] != want || touched != size[parent]) {
				ret = dard_fail(
					err, ret,
					"%s: the %s switches above `%s' and its peers do not all have as many links down to them",
					dard_topo_label(t),
					dard_topo_level_name(t, n0->level - 1),
					n0->name);
				goto out;
			}
		for (z = 0; z < touched; z++)
			cnt[seen[z]] = 0;
		o->cap[x] = (double)size[x] * nup * mbps;
	}
	ret = 0;
out:
	free(size);
	free(start);
	free(members);
	free(cnt);
	free(seen);
	return ret;
}

struct dard_opt *dard_opt_new_cap(const struct dard_topo *t, const double *mbps,
				  char *err)
{
	struct dard_opt *o = calloc(1, sizeof(*o));
	uint32_t *gid = NULL, *uf = NULL, h;
	int ret;

	if (!o) {
		dard_fail(err, -ENOMEM, "out of memory");
		return NULL;
	}
	o->t = t;
	o->nlevels = t->nlevels;
	gid = malloc(t->nnodes * sizeof(*gid));
	uf = malloc(t->nnodes * sizeof(*uf));
	o->chain = malloc((size_t)t->nhosts * t->nlevels * sizeof(*o->chain));
	if (!t->finalized)
		ret = dard_fail(err, -EINVAL, "the topology is not finalized");
	else if (!gid || !uf || !o->chain)
		ret = dard_fail(err, -ENOMEM, "out of memory");
	else
		ret = group(o, gid, uf, err);
	if (!ret)
		ret = check(o, gid, mbps, err);
	if (ret)
		goto out;
	/* Any chain upwards crosses the same groups. */
	for (h = 0; h < t->nhosts; h++) {
		uint32_t x = t->hosts[h];
		unsigned i;

		for (i = 0; i < o->nlevels; i++) {
			o->chain[(size_t)h * o->nlevels + i] = gid[x];
			x = t->link[up_link(t, x, 0)].up;
		}
	}
out:
	free(gid);
	free(uf);
	if (ret) {
		dard_opt_free(o);
		return NULL;
	}
	return o;
}

struct dard_opt *dard_opt_new(const struct dard_topo *t, char *err)
{
	return dard_opt_new_cap(t, NULL, err);
}

void dard_opt_free(struct dard_opt *o)
{
	if (!o)
		return;
	free(o->chain);
	free(o->cap);
	free(o);
}

/* What the threads share in one dard_opt_rates() call. */
struct run {
	uint32_t *list;	  /* each resource's flows */
	size_t *start;	  /* resource a's flows: list[start[a]..start[a+1]] */
	uint32_t *len;	  /* how many of them are not fixed */
	double *rem, *rl; /* capacity left; share of each unfixed flow */
	uint32_t *res;	  /* flow f's resources: res[f * 2 * nlevels..] */
	uint8_t *nres;	  /* how many */
	unsigned stride;
	uint8_t *claimed; /* fixed, by the thread that claimed it */
	uint32_t *now;	  /* per thread: the flows it fixed this round */
	size_t *nnow;
	double *rate;
	uint32_t *bound; /* thread k owns resources bound[k]..bound[k+1] */
	uint32_t *live;	 /* room for each thread's resources in use */
	size_t nflows;
	unsigned threads, rounds;
	pthread_barrier_t bar;
	pthread_mutex_t lock; /* the start gate, with go and cond */
	pthread_cond_t cond;
	int go;
	struct {
		double v;
		char pad[56]; /* a cache line each */
	} min[DARD_OPT_THREADS_MAX];
	double cpu_ms[DARD_OPT_THREADS_MAX];
};

struct worker {
	struct run *r;
	unsigned id;
	pthread_t tid;
};

static double thread_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void wait_all(struct run *r)
{
	if (r->threads > 1)
		pthread_barrier_wait(&r->bar);
}

/*
 * Every thread runs every round on its own resources: their shares and
 * the smallest (Fig. 8, lines 6-9); then the flows of those at the
 * smallest, each claimed by one thread (lines 10-14); then, for every
 * flow fixed, the capacity and count of the resources it owns (line 15).
 * Counts kept this way are the paper's recount in each round, without
 * going over the unfixed flows again.
 */
static void fill(struct run *r, unsigned id)
{
	uint32_t a, lo = r->bound[id], hi = r->bound[id + 1];
	uint32_t *live = r->live + lo, *now = r->now + id * r->nflows;
	size_t nlive = 0, i, j, f;
	unsigned k;

	for (a = lo; a < hi; a++)
		if (r->len[a])
			live[nlive++] = a;
	for (;;) {
		double m = HUGE_VAL, lim;

		for (i = j = 0; i < nlive; i++) {
			a = live[i];
			if (!r->len[a])
				continue;
			live[j++] = a;
			r->rl[a] = r->rem[a] > 0 ? r->rem[a] / r->len[a] : 0;
			if (r->rl[a] < m)
				m = r->rl[a];
		}
		nlive = j;
		r->min[id].v = m;
		wait_all(r);
		for (k = 0; k < r->threads; k++)
			if (r->min[k].v < m)
				m = r->min[k].v;
		if (m == HUGE_VAL)
			break;
		if (!id)
			r->rounds++;
		lim = m + m * OPT_EPS;
		r->nnow[id] = 0;
		for (i = 0; i < nlive; i++) {
			const uint32_t *l = r->list + r->start[live[i]];
			size_t n = r->start[live[i] + 1] - r->start[live[i]];

			if (r->rl[live[i]] > lim)
				continue;
			for (f = 0; f < n; f++) {
				if (__atomic_load_n(&r->claimed[l[f]],
						    __ATOMIC_RELAXED) ||
				    __atomic_exchange_n(&r->claimed[l[f]], 1,
							__ATOMIC_RELAXED))
					continue;
				r->rate[l[f]] = m;
				now[r->nnow[id]++] = l[f];
			}
		}
		wait_all(r);
		for (k = 0; k < r->threads; k++) {
			const uint32_t *fl = r->now + (size_t)k * r->nflows;

			for (f = 0; f < r->nnow[k]; f++) {
				const uint32_t *ra =
					r->res + (size_t)fl[f] * r->stride;

				for (j = 0; j < r->nres[fl[f]]; j++)
					if (ra[j] >= lo && ra[j] < hi) {
						r->rem[ra[j]] -= m;
						r->len[ra[j]]--;
					}
			}
		}
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->r;
	double t0;

	/* Wait until the number of threads, and so the split, is known. */
	pthread_mutex_lock(&r->lock);
	while (!r->go)
		pthread_cond_wait(&r->cond, &r->lock);
	pthread_mutex_unlock(&r->lock);
	t0 = thread_ms();
	fill(r, w->id);
	r->cpu_ms[w->id] = thread_ms() - t0;
	return NULL;
}

/*
 * Equal ranges of resources: a round's cost is mostly its look at every
 * resource in use, and the flow lists are each read once in all.
 */
static void split(struct run *r, uint32_t nres)
{
	unsigned k;

	for (k = 0; k <= r->threads; k++)
		r->bound[k] = (uint64_t)nres * k / r->threads;
}

static void run_free(struct run *r)
{
	free(r->list);
	free(r->start);
	free(r->len);
	free(r->rem);
	free(r->rl);
	free(r->res);
	free(r->nres);
	free(r->claimed);
	free(r->now);
	free(r->nnow);
	free(r->bound);
	free(r->live);
	free(r);
}

/* Each flow's resources: its ends' groups below the level they meet. */
static int lists(struct run *r, const struct dard_opt *o,
		 const struct dard_demand *d, size_t n, uint32_t nres)
{
	const struct dard_topo *t = o->t;
	unsigned nl = o->nlevels, lv;
	size_t f;
	uint32_t a;

	for (f = 0; f < n; f++) {
		const uint32_t *cs, *cd;
		uint32_t *ra = r->res + f * r->stride;

		cs = o->chain + (size_t)t->node[d[f].src].rank * nl;
		cd = o->chain + (size_t)t->node[d[f].dst].rank * nl;
		for (lv = 0; lv < nl && cs[lv] != cd[lv]; lv++) {
			ra[2 * lv] = 2 * cs[lv];
			ra[2 * lv + 1] = 2 * cd[lv] + 1;
			r->start[2 * cs[lv] + 1]++;
			r->start[2 * cd[lv] + 2]++;
		}
		r->nres[f] = 2 * lv;
		r->rate[f] = lv ? -1 : HUGE_VAL;
		r->claimed[f] = !lv;
	}
	for (a = 0; a < nres; a++)
		r->start[a + 1] += r->start[a];
	r->list = malloc((r->start[nres] ? r->start[nres] : 1) *
			 sizeof(*r->list));
	if (!r->list)
		return -ENOMEM;
	for (f = 0; f < n; f++)
		for (lv = 0; lv < r->nres[f]; lv++) {
			a = r->res[f * r->stride + lv];
			r->list[r->start[a] + r->len[a]++] = f;
		}
	for (a = 0; a < nres; a++)
		r->rem[a] = o->cap[a / 2];
	return 0;
}

int dard_opt_rates(const struct dard_opt *o, const struct dard_demand *d,
		   size_t n, unsigned threads, double *rate,
		   struct dard_opt_stats *st, char *err)
{
	const struct dard_topo *t = o->t;
	uint32_t nres = 2 * o->ngroups;
	struct worker w[DARD_OPT_THREADS_MAX];
	struct run *r = NULL;
	unsigned created = 1, i;
	double t0 = thread_ms();
	size_t f, n1 = n ? n : 1;

	if (!threads)
		threads = 1;
	if (threads > DARD_OPT_THREADS_MAX)
		return dard_fail(err, -EINVAL, "%u threads: at most %d",
				 threads, DARD_OPT_THREADS_MAX);
	if (n >= UINT32_MAX)
		return dard_fail(err, -EINVAL, "%zu flows: too many", n);
	for (f = 0; f < n; f++)
		if (d[f].src >= t->nnodes || d[f].dst >= t->nnodes ||
		    !t->node[d[f].src].is_host || !t->node[d[f].dst].is_host)
			return dard_fail(
				err, -EINVAL,
				"flow %zu: its ends are not both hosts", f);
	r = calloc(1, sizeof(*r));
	if (!r)
		return dard_fail(err, -ENOMEM, "out of memory");
	r->stride = 2 * o->nlevels;
	r->nflows = n;
	r->rate = rate;
	r->start = calloc(nres + 1, sizeof(*r->start));
	r->len = calloc(nres + 1, sizeof(*r->len));
	r->rem = malloc(nres * sizeof(*r->rem));
	r->rl = malloc(nres * sizeof(*r->rl));
	r->res = malloc(n1 * r->stride * sizeof(*r->res));
	r->nres = malloc(n1);
	r->claimed = malloc(n1);
	r->now = malloc(threads * n1 * sizeof(*r->now));
	r->nnow = calloc(threads, sizeof(*r->nnow));
	r->bound = malloc((threads + 1) * sizeof(*r->bound));
	r->live = malloc((nres ? nres : 1) * sizeof(*r->live));
	if (!r->start || !r->len || !r->rem || !r->rl || !r->res || !r->nres ||
	    !r->claimed || !r->now || !r->nnow || !r->bound || !r->live ||
	    lists(r, o, d, n, nres)) {
		run_free(r);
		return dard_fail(err, -ENOMEM, "out of memory");
	}
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->cond, NULL);
	for (i = 1; i < threads; i++) {
		w[i].r = r;
		w[i].id = i;
		if (pthread_create(&w[i].tid, NULL, worker_main, &w[i]))
			break;
		created++;
	}
	/* Threads that could not start leave their share to the others:
	 * the rates do not depend on the split. */
	pthread_mutex_lock(&r->lock);
	r->threads = created;
	split(r, nres);
	pthread_barrier_init(&r->bar, NULL, created);
	r->go = 1;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	fill(r, 0);
	for (i = 1; i < created; i++)
		pthread_join(w[i].tid, NULL);
	pthread_barrier_destroy(&r->bar);
	pthread_mutex_destroy(&r->lock);
	pthread_cond_destroy(&r->cond);
	r->cpu_ms[0] = thread_ms() - t0;
	if (st) {
		memset(st, 0, sizeof(*st));
		st->rounds = r->rounds;
		st->threads = created;
		for (i = 0; i < created; i++)
			st->thread_cpu_ms[i] = r->cpu_ms[i];
	}
	run_free(r);
	return 0;
}
