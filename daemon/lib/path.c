// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Path enumeration and decoding. Shortest paths between two ToRs turn at
 * the deepest level where the ToRs share an ancestor: fat-tree p^2/4
 * between pods through the cores, p/2 within a pod through the aggregation
 * switches; Clos 2*D_A between pods.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"

struct dard_pathctx {
	const struct dard_topo *t;
	const struct dard_plan *p;
	uint32_t *anc;	/* == gen: an ancestor of the destination ToR */
	uint32_t *seen; /* == gen: in the current upward frontier */
	uint32_t gen;
	uint32_t *front, *next; /* upward frontiers */
};

struct walk {
	struct dard_pathctx *c;
	struct dard_path path;
	uint32_t dtor;
	unsigned top;
	dard_path_cb cb;
	void *arg;
	long count;
	uint32_t up[DARD_LEVEL_MAX]; /* up[l]: chain node at level l */
};

struct dard_pathctx *dard_pathctx_new(const struct dard_topo *t,
				      const struct dard_plan *p)
{
	struct dard_pathctx *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->t = t;
	c->p = p;
	c->anc = calloc(t->nnodes, sizeof(*c->anc));
	c->seen = calloc(t->nnodes, sizeof(*c->seen));
	c->front = calloc(t->nnodes, sizeof(*c->front));
	c->next = calloc(t->nnodes, sizeof(*c->next));
	if (!c->anc || !c->seen || !c->front || !c->next) {
		dard_pathctx_free(c);
		return NULL;
	}
	return c;
}

void dard_pathctx_free(struct dard_pathctx *c)
{
	if (!c)
		return;
	free(c->anc);
	free(c->seen);
	free(c->front);
	free(c->next);
	free(c);
}

static void mark_ancestors(struct dard_pathctx *c, uint32_t n)
{
	const struct dard_node *node = &c->t->node[n];
	unsigned k;

	c->anc[n] = c->gen;
	for (k = 0; k < node->nup; k++) {
		uint32_t u = dard_topo_peer(c->t, n, node->up[k]);

		if (c->anc[u] != c->gen)
			mark_ancestors(c, u);
	}
}

/*
 * Marks dtor's ancestors and returns the deepest level at which stor
 * meets them: where shortest paths between the two turn.
 */
static unsigned meet_level(struct dard_pathctx *c, uint32_t stor, uint32_t dtor)
{
	const struct dard_topo *t = c->t;
	uint32_t nf = 1, nn, i, *tmp;
	unsigned level = t->node[stor].level, k;

	c->gen++;
	mark_ancestors(c, dtor);
	c->front[0] = stor;
	for (;;) {
		for (i = 0; i < nf; i++)
			if (c->anc[c->front[i]] == c->gen)
				return level;
		nn = 0;
		for (i = 0; i < nf; i++) {
			const struct dard_node *n = &t->node[c->front[i]];

			for (k = 0; k < n->nup; k++) {
				uint32_t u = dard_topo_peer(t, c->front[i],
							    n->up[k]);

				if (c->seen[u] != c->gen) {
					c->seen[u] = c->gen;
					c->next[nn++] = u;
				}
			}
		}
		/* No common ancestor: the trees are disconnected. */
		if (!nn)
			return DARD_LEVEL_MAX;
		tmp = c->front;
		c->front = c->next;
		c->next = tmp;
		nf = nn;
		level--;
	}
}

/*
 * Names path->sw by its alias pair: both aliases come from the first prefix
 * of the switch where the path turns, each field being the port the chain
 * takes below. Fills top; -EINVAL when the switches are not a chain of
 * links from src's ToR up and then down to dst's ToR.
 */
static int name_path(const struct dard_pathctx *c, struct dard_path *path)
{
	const struct dard_topo *t = c->t;
	const struct dard_plan *p = c->p;
	uint32_t s, d, prev, li, top;
	unsigned i, it = 0;

	if (!path->nsw)
		return -EINVAL;
	while (it + 1 < path->nsw &&
	       t->node[path->sw[it + 1]].level < t->node[path->sw[it]].level)
		it++;
	top = path->sw[it];
	s = d = p->alloc[t->node[top].alloc].prefix;
	prev = top;
	for (i = it; i-- > 0; prev = path->sw[i]) {
		li = dard_topo_link_between(t, path->sw[i], prev);
		if (li == DARD_NONE)
			return -EINVAL;
		s |= p->link_val[li] << p->shift[t->node[path->sw[i]].level];
	}
	/* A host's one link may be on any port, not only port 1. */
	li = dard_topo_link_between(t, path->src, prev);
	if (li == DARD_NONE || !t->node[path->src].is_host)
		return -EINVAL;
	s |= p->link_val[li] << p->shift[t->nlevels];
	prev = top;
	for (i = it + 1; i < path->nsw; prev = path->sw[i++]) {
		li = dard_topo_link_between(t, path->sw[i], prev);
		if (li == DARD_NONE ||
		    t->node[path->sw[i]].level != t->node[prev].level + 1)
			return -EINVAL;
		d |= p->link_val[li] << p->shift[t->node[path->sw[i]].level];
	}
	li = dard_topo_link_between(t, path->dst, prev);
	if (li == DARD_NONE || !t->node[path->dst].is_host)
		return -EINVAL;
	d |= p->link_val[li] << p->shift[t->nlevels];
	path->saddr = s;
	path->daddr = d;
	path->top = t->node[top].level;
	return 0;
}

static int emit(struct walk *w, const uint32_t *down, unsigned ndown)
{
	struct dard_path *path = &w->path;
	unsigned l, i;
	int ret;

	path->nsw = 0;
	for (l = w->c->t->nlevels - 1; l > w->top; l--)
		path->sw[path->nsw++] = w->up[l];
	path->sw[path->nsw++] = w->up[w->top];
	for (i = 0; i < ndown; i++)
		path->sw[path->nsw++] = down[i];
	name_path(w->c, path);
	path->shortest = 1;
	w->count++;
	ret = w->cb ? w->cb(path, w->arg) : 0;
	return ret;
}

int dard_path_make(struct dard_pathctx *c, uint32_t src, uint32_t dst,
		   const uint32_t *sw, unsigned nsw, struct dard_path *out)
{
	if (!nsw || nsw > 2 * DARD_LEVEL_MAX || src == dst)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->src = src;
	out->dst = dst;
	memcpy(out->sw, sw, nsw * sizeof(*sw));
	out->nsw = nsw;
	out->shortest = 1;
	return name_path(c, out);
}

/* Descends from the turning switch to the destination ToR. */
static int walk_down(struct walk *w, uint32_t *down, unsigned depth,
		     uint32_t from)
{
	const struct dard_topo *t = w->c->t;
	const struct dard_node *n = &t->node[from];
	unsigned k;
	int ret;

	if (from == w->dtor)
		return emit(w, down, depth);
	for (k = 0; k < n->ndown; k++) {
		uint32_t v = dard_topo_peer(t, from, n->down[k]);

		if (v == DARD_NONE || w->c->anc[v] != w->c->gen)
			continue;
		down[depth] = v;
		ret = walk_down(w, down, depth + 1, v);
		if (ret)
			return ret;
	}
	return 0;
}

/* Climbs from the source ToR (level lvl holds node) to the turning level. */
static int walk_up(struct walk *w, unsigned lvl)
{
	const struct dard_topo *t = w->c->t;
	const struct dard_node *n = &t->node[w->up[lvl]];
	uint32_t down[DARD_LEVEL_MAX];
	unsigned k;
	int ret;

	if (lvl == w->top) {
		if (w->c->anc[w->up[lvl]] != w->c->gen)
			return 0;
		return walk_down(w, down, 0, w->up[lvl]);
	}
	for (k = 0; k < n->nup; k++) {
		w->up[lvl - 1] = dard_topo_peer(t, w->up[lvl], n->up[k]);
		ret = walk_up(w, lvl - 1);
		if (ret)
			return ret;
	}
	return 0;
}

long dard_path_foreach(struct dard_pathctx *c, uint32_t src, uint32_t dst,
		       dard_path_cb cb, void *arg)
{
	const struct dard_topo *t = c->t;
	struct walk w = {.c = c, .cb = cb, .arg = arg};
	uint32_t stor = dard_topo_tor(t, src);
	int ret;

	if (src == dst)
		return 0;
	w.dtor = dard_topo_tor(t, dst);
	w.path.src = src;
	w.path.dst = dst;
	w.top = meet_level(c, stor, w.dtor);
	if (w.top >= t->nlevels)
		return 0;
	w.up[t->nlevels - 1] = stor;
	ret = walk_up(&w, t->nlevels - 1);
	return ret ? ret : w.count;
}

long dard_path_count(struct dard_pathctx *c, uint32_t src, uint32_t dst)
{
	return dard_path_foreach(c, src, dst, NULL, NULL);
}

int dard_path_decode(struct dard_pathctx *c, uint32_t saddr, uint32_t daddr,
		     struct dard_path *out, char *err)
{
	const struct dard_topo *t = c->t;
	uint32_t sc[DARD_LEVEL_MAX + 1], dc[DARD_LEVEL_MAX + 1];
	unsigned n = t->nlevels, l;
	int k;
	char e[DARD_ERR_MAX], b1[24], b2[24];

	if (dard_plan_decode(t, c->p, saddr, sc, e) == DARD_NONE) {
		if (err)
			snprintf(err, DARD_ERR_MAX, "source: %.230s", e);
		return -EINVAL;
	}
	if (dard_plan_decode(t, c->p, daddr, dc, e) == DARD_NONE) {
		if (err)
			snprintf(err, DARD_ERR_MAX, "destination: %.230s", e);
		return -EINVAL;
	}
	if (sc[n] == dc[n]) {
		if (err)
			snprintf(err, DARD_ERR_MAX,
				 "%s and %s both belong to %s",
				 dard_addr_str(saddr, b1),
				 dard_addr_str(daddr, b2), t->node[sc[n]].name);
		return -EINVAL;
	}
	/* Climb the source chain until a switch holds the destination. */
	for (k = n - 1; k >= 0; k--)
		if (sc[k] == dc[k])
			break;
	if (k < 0) {
		if (err)
			snprintf(
				err, DARD_ERR_MAX,
				"%s -> %s names no path: the uphill path through %s never meets the downhill path through %s, and %s has no route for it",
				dard_addr_str(saddr, b1),
				dard_addr_str(daddr, b2), t->node[sc[0]].name,
				t->node[dc[0]].name, t->node[sc[0]].name);
		return -ENOENT;
	}
	memset(out, 0, sizeof(*out));
	out->src = sc[n];
	out->dst = dc[n];
	out->saddr = saddr;
	out->daddr = daddr;
	for (l = n - 1; (int)l >= k; l--)
		out->sw[out->nsw++] = sc[l];
	for (l = k + 1; l < n; l++)
		out->sw[out->nsw++] = dc[l];
	out->top = k;
	out->shortest = meet_level(c, sc[n - 1], dc[n - 1]) == (unsigned)k;
	return 0;
}

unsigned dard_path_links(const struct dard_topo *t,
			 const struct dard_path *path, uint32_t *links)
{
	uint32_t prev = path->src;
	unsigned i;

	for (i = 0; i < path->nsw; i++) {
		links[i] = dard_topo_link_between(t, prev, path->sw[i]);
		prev = path->sw[i];
	}
	links[i] = dard_topo_link_between(t, prev, path->dst);
	return i + 1;
}
