// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * SDN-optimal and SDN-adaptive placements of elephant flows on three-level
 * fat-trees (Documentation/routing.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "edgecolour.h"
#include "err.h"
#include "route.h"

/*
 * A three-level fat-tree as SDN-optimal sees it, checked once per call.
 * ToRs and pods are numbered. A pod's aggregation switch a is the one each
 * of its ToRs reaches by up port a (in port order), alike at every ToR of
 * the pod; group a is the g cores above aggregation switch a of pod 0, and
 * every core reaches one aggregation switch per pod, all of one index.
 */
struct ftree {
	const struct dard_topo *t;
	uint32_t ntors, npods;
	unsigned u;	 /* up ports per ToR: aggregation indices */
	unsigned g;	 /* up ports per aggregation switch: cores per group */
	unsigned hmax;	 /* the most hosts under a ToR */
	uint32_t *tor;	 /* node -> ToR number, or DARD_NONE */
	uint32_t *pod;	 /* ToR number -> pod */
	uint32_t *agg;	 /* pod * u + a -> aggregation switch */
	uint32_t *core;	 /* a * g + c -> core */
	uint32_t *mark;	 /* node -> pod (aggregation) or index (core) */
	uint32_t *index; /* node -> index (aggregation switches) */
};

static void ftree_free(struct ftree *f)
{
	free(f->tor);
	free(f->pod);
	free(f->agg);
	free(f->core);
	free(f->mark);
	free(f->index);
}

/* The neighbour on a node's k-th up port (port order). */
static uint32_t up_peer(const struct dard_topo *t, uint32_t node, unsigned k)
{
	return dard_topo_peer(t, node, t->node[node].up[k]);
}

/* Cores: one aggregation switch per pod, all of one index. */
static int ftree_cores(const struct dard_topo *t, struct ftree *f, char *err)
{
	uint32_t i;
	unsigned k;

	for (i = 0; i < f->npods * f->u; i++) {
		uint32_t x = f->agg[i];

		for (k = 0; k < t->node[x].nup; k++) {
			uint32_t y = up_peer(t, x, k);

			if (f->mark[y] == DARD_NONE)
				f->mark[y] = f->index[x];
			if (f->mark[y] != f->index[x] ||
			    t->node[y].ndown != f->npods)
				return dard_fail(
					err, -EINVAL,
					"SDN-optimal needs a fat-tree: %s does not reach one aggregation switch of one index per pod",
					t->node[y].name);
			if (i < f->u)
				f->core[i * f->g + k] = y;
		}
	}
	return 0;
}

static int ftree_new(const struct dard_topo *t, struct ftree *f, char *err)
{
	uint32_t i;
	unsigned a;
	int ret = -EINVAL;

	memset(f, 0, sizeof(*f));
	f->t = t;
	if (t->nlevels != 3)
		return dard_fail(
			err, -EINVAL,
			"SDN-optimal needs a three-level fat-tree; %s has %u levels",
			dard_topo_label(t), t->nlevels);
	f->tor = malloc(t->nnodes * sizeof(*f->tor));
	f->mark = malloc(t->nnodes * sizeof(*f->mark));
	f->index = malloc(t->nnodes * sizeof(*f->index));
	if (!f->tor || !f->mark || !f->index)
		goto nomem;
	for (i = 0; i < t->nnodes; i++) {
		const struct dard_node *n = &t->node[i];

		f->tor[i] = f->mark[i] = f->index[i] = DARD_NONE;
		if (n->is_host || !n->level)
			continue;
		if (n->level == 2) {
			if (f->ntors && n->nup != f->u)
				goto uneven;
			f->u = n->nup;
			if (n->ndown > f->hmax)
				f->hmax = n->ndown;
			f->tor[i] = f->ntors++;
			continue;
		}
		/* Tapered aggregation switches are refused: counting their
		 * core links per round does not make a round routable
		 * (Documentation/routing.md). */
		if (n->nup != n->ndown) {
			ret = dard_fail(
				err, -EINVAL,
				"SDN-optimal needs full bisection above the ToRs; %s has %u up and %u down ports",
				n->name, n->nup, n->ndown);
			goto out;
		}
		if (f->g && n->nup != f->g)
			goto uneven;
		f->g = n->nup;
	}
	if (!f->ntors || !f->u || !f->g)
		goto uneven;
	f->pod = malloc(f->ntors * sizeof(*f->pod));
	f->agg = malloc((size_t)f->ntors * f->u * sizeof(*f->agg));
	f->core = malloc((size_t)f->u * f->g * sizeof(*f->core));
	if (!f->pod || !f->agg || !f->core)
		goto nomem;
	for (i = 0; i < f->ntors * f->u; i++)
		f->agg[i] = DARD_NONE;
	/* Pods: a ToR's pod is its first aggregation switch's. */
	for (i = 0; i < t->nnodes; i++) {
		uint32_t p, tn = f->tor[i];

		if (tn == DARD_NONE)
			continue;
		p = f->mark[up_peer(t, i, 0)];
		if (p == DARD_NONE)
			p = f->npods++;
		for (a = 0; a < f->u; a++) {
			uint32_t x = up_peer(t, i, a);

			if (f->mark[x] == DARD_NONE &&
			    f->agg[p * f->u + a] == DARD_NONE) {
				f->mark[x] = p;
				f->index[x] = a;
				f->agg[p * f->u + a] = x;
			}
			if (f->mark[x] != p || f->index[x] != a) {
				ret = dard_fail(
					err, -EINVAL,
					"SDN-optimal needs a fat-tree: %s reaches %s by up port %u, another ToR of its pod reaches it otherwise",
					t->node[i].name, t->node[x].name,
					a + 1);
				goto out;
			}
		}
		f->pod[tn] = p;
	}
	ret = ftree_cores(t, f, err);
	goto out;
uneven:
	ret = dard_fail(
		err, -EINVAL,
		"SDN-optimal needs a fat-tree: the switches of a level of %s differ in up ports",
		dard_topo_label(t));
	goto out;
nomem:
	ret = dard_fail(err, -ENOMEM, "out of memory");
out:
	if (ret)
		ftree_free(f);
	return ret;
}

/* Where each flow's ends are, looked up once: ToR nodes, numbers, pods. */
struct ends {
	uint32_t st, dt, sn, dn, sp, dp;
};

/*
 * Counting sort of items 0..n-1 by key[] < nkeys: order[] lists them
 * bucket by bucket, bucket b being order[start[b]..start[b + 1]).
 */
static void bucket(size_t n, const unsigned *key, unsigned nkeys, size_t *start,
		   size_t *order)
{
	size_t i;
	unsigned b;

	memset(start, 0, (nkeys + 1) * sizeof(*start));
	for (i = 0; i < n; i++)
		start[key[i] + 1]++;
	for (b = 0; b < nkeys; b++)
		start[b + 1] += start[b];
	for (i = 0; i < n; i++)
		order[start[key[i]]++] = i;
	for (b = nkeys; b > 0; b--)
		start[b] = start[b - 1];
	start[0] = 0;
}

/* Buffers for one placement, sized for n flows once. */
struct work {
	struct ends *x;
	struct dard_bedge *e;
	unsigned *cls, *col, *key;
	size_t *sel, *ord, *start, *start2, *ord2;
	uint32_t *deg; /* per ToR number: out, then in */
};

static void work_free(struct work *w)
{
	free(w->x);
	free(w->e);
	free(w->cls);
	free(w->col);
	free(w->key);
	free(w->sel);
	free(w->ord);
	free(w->start);
	free(w->start2);
	free(w->ord2);
	free(w->deg);
}

static int work_new(struct work *w, size_t n, const struct ftree *f)
{
	size_t cnt = n ? n : 1;

	w->x = calloc(cnt, sizeof(*w->x));
	w->e = calloc(cnt, sizeof(*w->e));
	w->cls = calloc(cnt, sizeof(*w->cls));
	w->col = calloc(cnt, sizeof(*w->col));
	w->key = calloc(cnt, sizeof(*w->key));
	w->sel = calloc(cnt, sizeof(*w->sel));
	w->ord = calloc(cnt, sizeof(*w->ord));
	w->ord2 = calloc(cnt, sizeof(*w->ord2));
	/* Keys: classes (at most n) or round * u + index (below n + u). */
	w->start = calloc(cnt + f->u + 1, sizeof(*w->start));
	w->start2 = calloc(cnt + f->u + 1, sizeof(*w->start2));
	w->deg = calloc(2 * (size_t)f->ntors, sizeof(*w->deg));
	if (!w->x || !w->e || !w->cls || !w->col || !w->key || !w->sel ||
	    !w->ord || !w->ord2 || !w->start || !w->start2 || !w->deg) {
		work_free(w);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Routes the m non-local flows sel[0..m-1] of one class: their ToR-to-ToR
 * demand is coloured with u * L colours, L = ceil(largest ToR degree / u);
 * colour k gives aggregation index k mod u in round k / u. A round puts at
 * most one flow on each ToR up and down link; per round and index, the
 * pod-to-pod demand is coloured with g colours, colour c being core c of
 * the index's group.
 */
static int route_class(struct dard_pathctx *c, const struct ftree *f,
		       const struct dard_demand *d, struct work *w, size_t m,
		       struct dard_path *out)
{
	uint32_t dmax = 0, sw[5];
	size_t j, i, mm, ninter = 0;
	unsigned ncol, nkeys, b;
	int ret;

	for (j = 0; j < m; j++) {
		const struct ends *x = &w->x[w->sel[j]];

		if (++w->deg[x->sn] > dmax)
			dmax = w->deg[x->sn];
		if (++w->deg[f->ntors + x->dn] > dmax)
			dmax = w->deg[f->ntors + x->dn];
		w->e[j].l = x->sn;
		w->e[j].r = x->dn;
	}
	for (j = 0; j < m; j++) {
		w->deg[w->x[w->sel[j]].sn] = 0;
		w->deg[f->ntors + w->x[w->sel[j]].dn] = 0;
	}
	ncol = f->u * ((dmax + f->u - 1) / f->u);
	if (!ncol)
		return 0;
	ret = dard_edge_colour(f->ntors, f->ntors, w->e, m, ncol, w->col);
	if (ret)
		return ret;
	/* Within a pod: the index alone; between pods: a key per round and
	 * index, the ToR colour itself. */
	for (j = 0; j < m; j++) {
		const struct ends *x = &w->x[w->sel[j]];
		unsigned a = w->col[j] % f->u;

		if (x->sp != x->dp) {
			w->sel[ninter] = w->sel[j];
			w->key[ninter++] = w->col[j];
			continue;
		}
		sw[0] = x->st;
		sw[1] = f->agg[x->sp * f->u + a];
		sw[2] = x->dt;
		i = w->sel[j];
		ret = dard_path_make(c, d[i].src, d[i].dst, sw, 3, &out[i]);
		if (ret)
			return ret;
	}
	nkeys = ncol;
	bucket(ninter, w->key, nkeys, w->start2, w->ord2);
	for (b = 0; b < nkeys; b++) {
		unsigned a = b % f->u;

		mm = w->start2[b + 1] - w->start2[b];
		for (j = 0; j < mm; j++) {
			const struct ends *x =
				&w->x[w->sel[w->ord2[w->start2[b] + j]]];

			w->e[j].l = x->sp;
			w->e[j].r = x->dp;
		}
		ret = dard_edge_colour(f->npods, f->npods, w->e, mm, f->g,
				       w->col);
		for (j = 0; !ret && j < mm; j++) {
			const struct ends *x;

			i = w->sel[w->ord2[w->start2[b] + j]];
			x = &w->x[i];
			sw[0] = x->st;
			sw[1] = f->agg[x->sp * f->u + a];
			sw[2] = f->core[a * f->g + w->col[j]];
			sw[3] = f->agg[x->dp * f->u + a];
			sw[4] = x->dt;
			ret = dard_path_make(c, d[i].src, d[i].dst, sw, 5,
					     &out[i]);
		}
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * SDN-optimal on a checked fat-tree. Full bisection, unless whole: the
 * thesis's Algorithm 3 first splits D into NL_D permutations (host
 * colouring), each then one contention-free round. Tapered ToRs, or
 * whole: one class, the whole demand, so that the ToR colouring needs only
 * ceil(largest ToR degree / u) rounds (splitting first could cost a round
 * per permutation, and the permutations' rounds stack on the same links).
 */
static int place(struct dard_pathctx *c, const struct dard_topo *t,
		 const struct ftree *f, const struct dard_demand *d, size_t n,
		 int whole, struct dard_path *out, char *err)
{
	uint32_t nl, sw[1];
	unsigned nclass = 1, k;
	struct work w;
	size_t i, j, m;
	int ret = dard_route_node_load(t, d, n, &nl, err);

	if (ret)
		return ret;
	if (work_new(&w, n, f))
		return dard_fail(err, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		struct ends *x = &w.x[i];

		x->st = dard_topo_tor(t, d[i].src);
		x->dt = dard_topo_tor(t, d[i].dst);
		x->sn = f->tor[x->st];
		x->dn = f->tor[x->dt];
		x->sp = f->pod[x->sn];
		x->dp = f->pod[x->dn];
	}
	if (!whole && f->hmax <= f->u && nl > 1) {
		for (i = 0; i < n; i++) {
			w.e[i].l = t->node[d[i].src].rank;
			w.e[i].r = t->node[d[i].dst].rank;
		}
		ret = dard_edge_colour(t->nhosts, t->nhosts, w.e, n, nl, w.cls);
		if (ret)
			goto fail;
		nclass = nl;
	}
	bucket(n, w.cls, nclass, w.start, w.ord);
	for (k = 0; k < nclass; k++) {
		for (j = w.start[k], m = 0; j < w.start[k + 1]; j++) {
			i = w.ord[j];
			/* Under one ToR: the host links are the path. */
			if (w.x[i].st == w.x[i].dt) {
				sw[0] = w.x[i].st;
				ret = dard_path_make(c, d[i].src, d[i].dst, sw,
						     1, &out[i]);
				if (ret)
					goto fail;
				continue;
			}
			w.sel[m++] = i;
		}
		ret = route_class(c, f, d, &w, m, out);
		if (ret)
			goto fail;
	}
	work_free(&w);
	return 0;
fail:
	work_free(&w);
	if (ret == -ENOMEM)
		return dard_fail(err, ret, "out of memory");
	return dard_fail(err, ret,
			 "SDN-optimal could not place the demand on %s",
			 dard_topo_label(t));
}

/* The handle is the checked tree itself. */
struct dard_route_tree {
	struct ftree f;
};

int dard_route_tree_new(const struct dard_topo *t, struct dard_route_tree **out,
			char *err)
{
	struct dard_route_tree *rt = malloc(sizeof(*rt));
	int ret;

	if (!rt)
		return dard_fail(err, -ENOMEM, "out of memory");
	ret = ftree_new(t, &rt->f, err);
	if (ret) {
		free(rt);
		return ret;
	}
	*out = rt;
	return 0;
}

void dard_route_tree_free(struct dard_route_tree *rt)
{
	if (!rt)
		return;
	ftree_free(&rt->f);
	free(rt);
}

int dard_route_optimal_check(const struct dard_topo *t, char *err)
{
	struct ftree f;
	int ret = ftree_new(t, &f, err);

	if (!ret)
		ftree_free(&f);
	return ret;
}

int dard_route_optimal_tree(struct dard_pathctx *c,
			    const struct dard_route_tree *rt,
			    const struct dard_demand *d, size_t n,
			    struct dard_path *out, char *err)
{
	return place(c, rt->f.t, &rt->f, d, n, 0, out, err);
}

int dard_route_optimal_tor(struct dard_pathctx *c,
			   const struct dard_route_tree *rt,
			   const struct dard_demand *d, size_t n,
			   struct dard_path *out, char *err)
{
	return place(c, rt->f.t, &rt->f, d, n, 1, out, err);
}

int dard_route_optimal(struct dard_pathctx *c, const struct dard_topo *t,
		       const struct dard_demand *d, size_t n,
		       struct dard_path *out, char *err)
{
	struct ftree f;
	int ret = ftree_new(t, &f, err);

	if (ret)
		return ret;
	ret = place(c, t, &f, d, n, 0, out, err);
	ftree_free(&f);
	return ret;
}

int dard_route_adaptive(struct dard_pathctx *c, const struct dard_topo *t,
			const struct dard_demand *d, size_t n,
			struct dard_path *out, char *err)
{
	struct ftree f;
	uint32_t lb;
	/* A tree SDN-optimal refuses is refused whatever the demand. */
	int ret = ftree_new(t, &f, err);

	if (ret)
		return ret;
	ret = dard_route_lower_bound(t, d, n, &lb, err);
	if (!ret && lb > 1)
		ret = DARD_SDN_MULTIPATH;
	else if (!ret)
		ret = place(c, t, &f, d, n, 0, out, err);
	ftree_free(&f);
	return ret;
}
