// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The shortest paths between two ToRs as rows: a flow's path index is its
 * row (dard_path_foreach's order, the same for every host pair under the
 * two ToRs, the index hosts and the datapath use), and SDN-greedy chooses
 * among the rows' switch links.
 *
 * A pair's paths turning at level L are the source ToR's up chains to L,
 * each followed by the destination ToR's down chains from its top
 * (route.h, struct dard_chains). Those chains are built once per ToR and
 * level when the controller starts, so the first report of a ToR pair
 * costs what a later one does: a pair only finds its level and counts
 * its rows, and nothing is walked or copied per pair. On fattree:64 a
 * pair would otherwise hold 1,024 rows of its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ctlr.h"
#include "rng.h"
#include "sched.h"

/* A link from an ancestor of the ToR at level l + 1 up to one at l. */
struct hop {
	uint32_t x;	/* the upper switch's rank in level l */
	uint32_t port;	/* its port: down ports go in port order */
	uint32_t li, v; /* the link, the lower switch */
};

/* What building the chains needs beside the tree (freed after). */
struct build {
	const struct dard_topo *t;
	uint32_t *lrank;   /* node -> rank among its level's switches */
	uint32_t *lfirst;  /* level -> its first node in byrank */
	uint32_t *byrank;  /* lfirst[L] + rank -> node */
	uint32_t *topnode; /* scratch: the up chains' top nodes */
	uint32_t *next;	   /* scratch: the next level's */
	struct hop *hop;   /* scratch: links into the next level */
	size_t cap;	   /* of each */
};

/* Room for n up chains' tops, and their links, in the scratch. */
static int reserve(struct build *b, size_t n)
{
	uint32_t *x, *y;
	struct hop *z;

	if (n <= b->cap)
		return 0;
	x = realloc(b->topnode, n * sizeof(*x));
	if (x)
		b->topnode = x;
	y = realloc(b->next, n * sizeof(*y));
	if (y)
		b->next = y;
	z = realloc(b->hop, n * sizeof(*z));
	if (z)
		b->hop = z;
	if (!x || !y || !z)
		return -ENOMEM;
	b->cap = n;
	return 0;
}

static void chains_free(struct dard_chains *ch)
{
	free(ch->top);
	free(ch->up);
	free(ch->first);
	free(ch->down);
}

void paths_fini(struct ctlr *c)
{
	size_t i;
	unsigned l;

	for (i = 0; i < c->ps_cap; i++)
		free(c->ps[i]);
	free(c->ps);
	c->ps = NULL;
	c->ps_cap = c->nps = 0;
	for (i = 0; c->chains && i < c->nchains; i++)
		for (l = 0; l < DARD_LEVEL_MAX; l++)
			chains_free(&c->chains[i][l]);
	free(c->chains);
	free(c->lrank);
	c->chains = NULL;
	c->lrank = NULL;
}

/*
 * tor's up chains to level l, from those to l + 1 (tops in b->topnode,
 * replaced by the new tops): each chain's up ports in order, as
 * dard_path_foreach climbs.
 */
static int build_up(struct build *b, uint32_t tor, unsigned l,
		    const struct dard_chains *below, struct dard_chains *ch)
{
	const struct dard_topo *t = b->t;
	uint64_t n = 0;
	uint32_t i, *tmp;
	unsigned k;

	if (below)
		for (i = 0; i < below->nup; i++)
			n += t->node[b->topnode[i]].nup;
	else
		n = t->node[tor].nup;
	if (n > CTLR_CHAINS_MAX)
		return -E2BIG;
	ch->len = t->nlevels - 1 - l;
	if (reserve(b, n))
		return -ENOMEM;
	ch->top = malloc((n ? n : 1) * sizeof(*ch->top));
	ch->up = malloc((n * ch->len + 1) * sizeof(*ch->up));
	if (!ch->top || !ch->up)
		return -ENOMEM;
	for (i = 0; i < (below ? below->nup : 1); i++) {
		uint32_t from = below ? b->topnode[i] : tor;
		const struct dard_node *x = &t->node[from];

		for (k = 0; k < x->nup; k++) {
			uint32_t li = x->port[x->up[k] - 1];
			uint32_t *dl = &ch->up[(size_t)ch->nup * ch->len];

			if (below)
				memcpy(dl, &below->up[(size_t)i * below->len],
				       below->len * sizeof(*dl));
			dl[ch->len - 1] = dard_dlink(li, DARD_UP);
			b->next[ch->nup] = t->link[li].up;
			ch->top[ch->nup++] = b->lrank[t->link[li].up];
		}
	}
	tmp = b->topnode;
	b->topnode = b->next;
	b->next = tmp;
	return 0;
}

/* The hops from the ancestors at l + 1 (below; none: tor itself). */
static uint32_t gather_hops(struct build *b, uint32_t tor, unsigned l,
			    const struct dard_chains *below)
{
	const struct dard_topo *t = b->t;
	uint32_t r, v, nh = 0, nv = below ? below->n : 1;
	unsigned k;

	for (r = 0; r < nv; r++) {
		if (below && below->first[r] == below->first[r + 1])
			continue;
		v = below ? b->byrank[b->lfirst[l + 1] + below->lo + r] : tor;
		for (k = 0; k < t->node[v].nup; k++) {
			uint32_t li = t->node[v].port[t->node[v].up[k] - 1];

			b->hop[nh++] =
				(struct hop){.x = b->lrank[t->link[li].up],
					     .port = t->link[li].up_port,
					     .li = li,
					     .v = v};
		}
	}
	return nh;
}

/*
 * The down chains to tor from each of its ancestors at level l, by rank
 * (ch->lo .. from the up chains' tops), each ancestor's in its down
 * ports' order and then below's: as dard_path_foreach descends. Built
 * from the links up from the ancestors at l + 1, the only ones that lead
 * to tor: a core's other down ports are never looked at.
 */
static int build_down(struct build *b, uint32_t tor, unsigned l,
		      const struct dard_chains *below, struct dard_chains *ch)
{
	uint32_t i, j, hi = 0, nh, n, w;
	struct hop h;

	ch->lo = UINT32_MAX;
	for (i = 0; i < ch->nup; i++) {
		ch->lo = ch->top[i] < ch->lo ? ch->top[i] : ch->lo;
		hi = ch->top[i] > hi ? ch->top[i] : hi;
	}
	if (!ch->nup)
		return 0;
	ch->n = hi - ch->lo + 1;
	ch->first = calloc((size_t)ch->n + 1, sizeof(*ch->first));
	nh = gather_hops(b, tor, l, below);
	if (!ch->first)
		return -ENOMEM;
	/* By rank, then port: insertion, as a switch has few such hops. */
	for (i = 1; i < nh; i++) {
		h = b->hop[i];
		for (j = i; j > 0 && (b->hop[j - 1].x > h.x ||
				      (b->hop[j - 1].x == h.x &&
				       b->hop[j - 1].port > h.port));
		     j--)
			b->hop[j] = b->hop[j - 1];
		b->hop[j] = h;
	}
	for (i = 0, n = 0; i < nh; i++) {
		w = below ? dard_chains_from(below, b->lrank[b->hop[i].v]) : 1;
		ch->first[b->hop[i].x - ch->lo + 1] += w;
		n += w;
	}
	ch->each = ch->first[b->hop[0].x - ch->lo + 1];
	for (i = 0; i < ch->n; i++) {
		w = ch->first[i + 1];
		if (w && w != ch->each)
			ch->each = 0;
		ch->first[i + 1] += ch->first[i];
	}
	ch->down = malloc(((size_t)n * ch->len + 1) * sizeof(*ch->down));
	if (!ch->down)
		return -ENOMEM;
	for (i = 0, n = 0; i < nh; i++) {
		uint32_t d = dard_dlink(b->hop[i].li, DARD_DOWN), k = 0, e = 1;
		const uint32_t *rest = NULL;

		if (below) {
			k = below->first[b->lrank[b->hop[i].v] - below->lo];
			e = below->first[b->lrank[b->hop[i].v] - below->lo + 1];
			rest = below->down;
		}
		for (; k < e; k++, n++) {
			ch->down[(size_t)n * ch->len] = d;
			if (rest)
				memcpy(&ch->down[(size_t)n * ch->len + 1],
				       &rest[(size_t)k * below->len],
				       below->len * sizeof(*rest));
		}
	}
	return 0;
}

/* A ToR's chains to every level above it. */
static int build_tor(struct build *b, uint32_t tor, struct dard_chains *ch)
{
	unsigned tl = b->t->nlevels - 1, l;
	int ret;

	for (l = tl; l-- > 0;) {
		ret = build_up(b, tor, l, l + 1 < tl ? &ch[l + 1] : NULL,
			       &ch[l]);
		ch[l].gate = ch[tl - 1].up;
		ch[l].ngate = ch[tl - 1].nup;
		if (!ret)
			ret = build_down(b, tor, l,
					 l + 1 < tl ? &ch[l + 1] : NULL,
					 &ch[l]);
		if (ret)
			return ret;
	}
	return 0;
}

/* Whether two ToRs' chains at a level have the same top switches. */
static int same_tops(const struct dard_chains *a, const struct dard_chains *b)
{
	uint32_t r;

	if (a->lo != b->lo || a->n != b->n)
		return 0;
	for (r = 0; r < a->n; r++)
		if ((a->first[r + 1] > a->first[r]) !=
		    (b->first[r + 1] > b->first[r]))
			return 0;
	return 1;
}

static uint64_t tops_hash(const struct dard_chains *ch)
{
	uint64_t h = dard_mix64((uint64_t)ch->lo << 32 | ch->n);
	uint32_t r;

	for (r = 0; r < ch->n; r++)
		if (ch->first[r + 1] > ch->first[r])
			h = dard_mix64(h ^ r);
	return h;
}

/*
 * Gives the ToRs with the same top switches at level l one set number
 * (the first such ToR's rank), so that a pair of them finds its rows
 * without comparing their chains: every fat-tree ToR reaches every core,
 * a pod's ToRs its aggregation switches.
 */
static int intern(struct ctlr *c, unsigned l)
{
	size_t cap = 2, i, k;
	uint32_t *slot, r;

	while (cap < 2 * (size_t)c->nchains)
		cap *= 2;
	slot = malloc(cap * sizeof(*slot));
	if (!slot)
		return -ENOMEM;
	memset(slot, 0xff, cap * sizeof(*slot));
	for (r = 0; r < c->nchains; r++) {
		struct dard_chains *ch = &c->chains[r][l];

		k = tops_hash(ch) & (cap - 1);
		for (i = k; slot[i] != DARD_NONE; i = (i + 1) & (cap - 1))
			if (same_tops(&c->chains[slot[i]][l], ch))
				break;
		if (slot[i] == DARD_NONE)
			slot[i] = r;
		ch->set = slot[i];
	}
	free(slot);
	return 0;
}

static int build_all(struct ctlr *c, struct build *b)
{
	const struct dard_topo *t = c->t;
	uint32_t i, cnt[DARD_LEVEL_MAX + 1] = {0};
	unsigned tl = t->nlevels - 1, l;

	for (i = 0; i < t->nnodes; i++)
		if (!t->node[i].is_host)
			cnt[t->node[i].level]++;
	for (l = 1; l <= t->nlevels; l++)
		b->lfirst[l] = b->lfirst[l - 1] + cnt[l - 1];
	memset(cnt, 0, sizeof(cnt));
	for (i = 0; i < t->nnodes; i++)
		if (!t->node[i].is_host) {
			c->lrank[i] = cnt[t->node[i].level]++;
			b->byrank[b->lfirst[t->node[i].level] + c->lrank[i]] =
				i;
		}
	c->chains = calloc(cnt[tl] ? cnt[tl] : 1, sizeof(*c->chains));
	if (!c->chains)
		return -ENOMEM;
	c->nchains = cnt[tl];
	for (i = 0; i < cnt[tl]; i++) {
		int ret = build_tor(b, b->byrank[b->lfirst[tl] + i],
				    c->chains[i]);

		if (ret)
			return ret;
	}
	for (l = 0; l < tl; l++)
		if (intern(c, l))
			return -ENOMEM;
	return 0;
}

int paths_init(struct ctlr *c)
{
	const struct dard_topo *t = c->t;
	struct build b = {.t = t};
	int ret = -ENOMEM;

	c->lrank = calloc(t->nnodes + 1, sizeof(*c->lrank));
	b.lrank = c->lrank;
	b.lfirst = calloc(DARD_LEVEL_MAX + 1, sizeof(*b.lfirst));
	b.byrank = calloc(t->nnodes + 1, sizeof(*b.byrank));
	if (c->lrank && b.lfirst && b.byrank)
		ret = build_all(c, &b);
	free(b.lfirst);
	free(b.byrank);
	free(b.topnode);
	free(b.next);
	free(b.hop);
	return ret;
}

static size_t slot(const struct ctlr *c, uint32_t stor, uint32_t dtor)
{
	size_t i = dard_mix64((uint64_t)stor << 32 | dtor) & (c->ps_cap - 1);

	while (c->ps[i] && (c->ps[i]->stor != stor || c->ps[i]->dtor != dtor))
		i = (i + 1) & (c->ps_cap - 1);
	return i;
}

/* Keeps the table at most half full. */
static int grow(struct ctlr *c)
{
	struct cpset **old = c->ps;
	size_t oc = c->ps_cap, i;

	if (2 * (c->nps + 1) <= oc)
		return 0;
	c->ps_cap = oc ? 2 * oc : 1024;
	c->ps = calloc(c->ps_cap, sizeof(*c->ps));
	if (!c->ps) {
		c->ps = old;
		c->ps_cap = oc;
		return -ENOMEM;
	}
	for (i = 0; i < oc; i++)
		if (old[i])
			c->ps[slot(c, old[i]->stor, old[i]->dtor)] = old[i];
	free(old);
	return 0;
}

/*
 * The level where the pair's shortest paths turn: the lowest at which
 * the source's up chains reach an ancestor of the destination (as
 * dard_path_foreach finds it); then its rows. Two ToRs with the same
 * switches at a level meet there with rows counted at once; others look
 * up their chains' tops (none when the levels' ranks do not overlap).
 */
static int find_rows(const struct ctlr *c, struct cpset *p)
{
	unsigned tl = c->t->nlevels - 1, l;
	const struct dard_chains *s, *d;
	uint32_t u, n;

	for (l = tl; l-- > 0;) {
		s = &c->chains[c->lrank[p->stor]][l];
		d = &c->chains[c->lrank[p->dtor]][l];
		if (s->nup && s->set == d->set) {
			p->each = d->each;
			p->npaths = s->nup * d->each;
			break;
		}
		if (s->lo >= d->lo + d->n || d->lo >= s->lo + s->n)
			continue;
		for (u = 0; u < s->nup; u++)
			if (dard_chains_from(d, s->top[u]))
				break;
		if (u < s->nup)
			break;
	}
	if (l >= tl)
		return -ENOENT;
	p->s = s;
	p->d = d;
	p->nsw = 2 * (tl - l) + 1;
	p->ndl = 2 * (tl - l);
	if (p->each)
		return 0;
	p->each = dard_chains_from(d, s->top[0]);
	for (u = 0; u < s->nup; u++) {
		n = dard_chains_from(d, s->top[u]);
		if (n != p->each)
			p->each = 0;
		p->npaths += n;
	}
	return p->npaths ? 0 : -ENOENT;
}

int paths_get(struct ctlr *c, uint32_t src, uint32_t dst,
	      const struct cpset **out)
{
	uint32_t stor = dard_topo_tor(c->t, src),
		 dtor = dard_topo_tor(c->t, dst);
	struct cpset *p;
	size_t i;
	int ret = 0;

	if (grow(c))
		return -ENOMEM;
	i = slot(c, stor, dtor);
	if (c->ps[i]) {
		c->ps[i]->used = c->st.rounds;
		*out = c->ps[i];
		return 0;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->stor = stor;
	p->dtor = dtor;
	p->used = c->st.rounds;
	if (stor == dtor) {
		/* One way, through the ToR: no switch-to-switch link. */
		p->npaths = 1;
		p->nsw = 1;
	} else {
		ret = find_rows(c, p);
	}
	if (ret) {
		free(p);
		return ret;
	}
	c->ps[i] = p;
	c->nps++;
	*out = p;
	return 0;
}

void paths_trim(struct ctlr *c, size_t nflows, uint64_t since)
{
	struct cpset **old = c->ps;
	size_t oc = c->ps_cap, i;

	/* Amortised: a rebuild of the table per this many new pairs. */
	if (c->nps <= 2 * nflows + 1024)
		return;
	c->ps = calloc(oc, sizeof(*c->ps));
	if (!c->ps) {
		c->ps = old;
		return;
	}
	c->nps = 0;
	for (i = 0; i < oc; i++) {
		if (!old[i])
			continue;
		if (old[i]->used < since) {
			free(old[i]);
			continue;
		}
		c->ps[slot(c, old[i]->stor, old[i]->dtor)] = old[i];
		c->nps++;
	}
	free(old);
}

struct dard_cands paths_cands(const struct cpset *p)
{
	/* A pair under one ToR: one row of no switch link. */
	static const uint32_t none[1];

	return (struct dard_cands){.dl = p->s ? NULL : none,
				   .npaths = p->npaths,
				   .ndl = p->ndl,
				   .up = p->s,
				   .down = p->d,
				   .each = p->each};
}

unsigned paths_dlinks(const struct cpset *p, uint32_t k, uint32_t *dl)
{
	struct dard_cands cd = paths_cands(p);

	return dard_cands_row(&cd, k, dl);
}

/* Whether n links' ends (up: their upper, else lower) are sw[0..n-1]. */
static int ends_are(const struct dard_topo *t, const uint32_t *dl, unsigned n,
		    int up, const uint32_t *sw)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		const struct dard_link *l = &t->link[dl[i] / 2];

		if ((up ? l->up : l->down) != sw[i])
			return 0;
	}
	return 1;
}

/*
 * Only the up chains to the path's top switch are compared, switch by
 * switch along their links: no link is looked up by its ends.
 */
int paths_row(const struct ctlr *c, const struct cpset *p,
	      const struct dard_path *path)
{
	const struct dard_chains *s = p->s, *d = p->d;
	uint32_t k = 0, u, j, n, x, first;

	if (path->nsw != p->nsw || path->sw[0] != p->stor ||
	    path->sw[path->nsw - 1] != p->dtor)
		return -1;
	if (!s)
		return 0;
	x = c->lrank[path->sw[s->len]];
	for (u = 0; u < s->nup; u++, k += n) {
		n = dard_chains_from(d, s->top[u]);
		if (s->top[u] != x || !n ||
		    !ends_are(c->t, &s->up[(size_t)u * s->len], s->len, 1,
			      path->sw + 1))
			continue;
		first = d->first[x - d->lo];
		for (j = 0; j < n; j++)
			if (ends_are(c->t,
				     &d->down[(size_t)(first + j) * d->len],
				     d->len, 0, path->sw + s->len + 1))
				return k + j;
		return -1;
	}
	return -1;
}

int paths_failed(const struct ctlr *c, const struct cpset *p, uint32_t k)
{
	uint32_t dl[2 * DARD_LEVEL_MAX];
	unsigned j, n;

	if (!c->nfailed)
		return 0;
	n = paths_dlinks(p, k, dl);
	/* A directed link's undirected one is its index / 2 (sched.h). */
	for (j = 0; j < n; j++)
		if (c->down[dl[j] / 2])
			return 1;
	return 0;
}
