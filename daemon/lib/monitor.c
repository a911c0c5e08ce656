// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Monitors: paths, the queries that cover them, and path-state vectors. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "monitor.h"
#include "rng.h"

struct build {
	const struct dard_topo *t;
	struct dard_monitor *m;
	unsigned cap;
	int oom;
};

static int add_path(const struct dard_path *p, void *arg)
{
	struct build *b = arg;
	struct dard_mon_path *mp;

	if (b->m->npaths == b->cap) {
		unsigned cap = b->cap ? 2 * b->cap : 16;
		void *np = realloc(b->m->path, cap * sizeof(*b->m->path));

		if (!np) {
			b->oom = 1;
			return 1;
		}
		b->m->path = np;
		b->cap = cap;
	}
	mp = &b->m->path[b->m->npaths++];
	memset(mp, 0, sizeof(*mp));
	mp->nsw = p->nsw;
	memcpy(mp->sw, p->sw, p->nsw * sizeof(p->sw[0]));
	mp->ndl = dard_path_dlinks(b->t, p, mp->dl);
	return 0;
}

/* The port of sw that a directed link leaves by. */
static unsigned exit_port(const struct dard_topo *t, uint32_t dl)
{
	const struct dard_link *l = &t->link[dl / 2];

	return dl % 2 == DARD_UP ? l->down_port : l->up_port;
}

static int plan_queries(const struct dard_topo *t, struct dard_monitor *m)
{
	uint32_t *slot = malloc(t->nnodes * sizeof(*slot));
	uint8_t *seen = calloc(2 * (size_t)t->nlinks, 1);
	unsigned i, k;
	uint32_t n;
	int ret = -ENOMEM;

	if (!slot || !seen)
		goto out;
	for (n = 0; n < t->nnodes; n++)
		slot[n] = DARD_NONE;
	/* Which switches, in node order, then their ports in path order. */
	for (i = 0; i < m->npaths; i++)
		for (k = 0; k < m->path[i].ndl; k++)
			slot[dard_dlink_exit(t, m->path[i].dl[k])] = 0;
	for (n = 0; n < t->nnodes; n++)
		if (slot[n] != DARD_NONE)
			slot[n] = m->nqueries++;
	m->query = calloc(m->nqueries, sizeof(*m->query));
	if (!m->query) {
		m->nqueries = 0;
		goto out;
	}
	for (n = 0; n < t->nnodes; n++) {
		if (slot[n] == DARD_NONE)
			continue;
		m->query[slot[n]].sw = n;
		m->query[slot[n]].ports =
			calloc(t->node[n].nports, sizeof(uint16_t));
		if (!m->query[slot[n]].ports)
			goto out;
	}
	for (i = 0; i < m->npaths; i++)
		for (k = 0; k < m->path[i].ndl; k++) {
			uint32_t dl = m->path[i].dl[k];
			struct dard_mon_query *q =
				&m->query[slot[dard_dlink_exit(t, dl)]];

			if (seen[dl]++)
				continue;
			q->ports[q->nports++] = exit_port(t, dl);
		}
	ret = 0;
out:
	free(slot);
	free(seen);
	return ret;
}

static int round_arrays(struct dard_monitor *m)
{
	unsigned i;

	m->links = calloc(m->npaths ? m->npaths : 1, sizeof(*m->links));
	m->pv = calloc(m->npaths ? m->npaths : 1, sizeof(*m->pv));
	m->fv = calloc(m->npaths ? m->npaths : 1, sizeof(*m->fv));
	if (!m->links || !m->pv || !m->fv)
		return -ENOMEM;
	for (i = 0; i < m->npaths; i++) {
		m->links[i].dl = m->path[i].dl;
		m->links[i].n = m->path[i].ndl;
	}
	return 0;
}

struct dard_monitor *dard_monitor_new(struct dard_pathctx *c,
				      const struct dard_topo *t,
				      uint32_t src_host, uint32_t dst_tor,
				      char *err)
{
	uint32_t src_tor = dard_topo_tor(t, src_host);
	uint32_t dst = dard_topo_tor_host(t, dst_tor);
	struct build b = {.t = t};

	if (src_tor == DARD_NONE || dst == DARD_NONE) {
		dard_fail(err, -EINVAL, "%s or %s is not a ToR with hosts",
			  t->node[src_host].name, t->node[dst_tor].name);
		return NULL;
	}
	if (src_tor == dst_tor) {
		dard_fail(err, -EINVAL,
			  "%s is %s's own ToR: there is only one path",
			  t->node[dst_tor].name, t->node[src_host].name);
		return NULL;
	}
	b.m = calloc(1, sizeof(*b.m));
	if (!b.m)
		goto oom;
	b.m->src_tor = src_tor;
	b.m->dst_tor = dst_tor;
	b.m->rng = (uint64_t)src_host << 32 | dst_tor;
	dard_path_foreach(c, src_host, dst, add_path, &b);
	if (b.oom || plan_queries(t, b.m) || round_arrays(b.m))
		goto oom;
	if (!b.m->npaths) {
		dard_fail(err, -ENOENT, "no path from %s to %s",
			  t->node[src_tor].name, t->node[dst_tor].name);
		dard_monitor_free(b.m);
		return NULL;
	}
	return b.m;
oom:
	dard_monitor_free(b.m);
	dard_fail(err, -ENOMEM, "out of memory for a monitor");
	return NULL;
}

void dard_monitor_free(struct dard_monitor *m)
{
	unsigned i;

	if (!m)
		return;
	for (i = 0; i < m->nqueries; i++)
		free(m->query[i].ports);
	free(m->query);
	free(m->path);
	free(m->links);
	free(m->pv);
	free(m->fv);
	free(m);
}

struct watch_build {
	const struct dard_topo *t;
	const uint8_t *above;
	uint8_t *seen; /* per directed link */
};

static int watch_path(const struct dard_path *p, void *arg)
{
	struct watch_build *b = arg;
	uint32_t dl[2 * DARD_LEVEL_MAX];
	unsigned k, n = dard_path_dlinks(b->t, p, dl);

	for (k = 0; k < n; k++)
		if (b->above[dard_dlink_exit(b->t, dl[k])])
			b->seen[dl[k]] = 1;
	return 0;
}

int dard_watch_plan(struct dard_pathctx *c, const struct dard_topo *t,
		    uint32_t src_host, const uint8_t *above,
		    struct dard_mon_query **q, unsigned *nq)
{
	struct watch_build b = {t, above, calloc(2 * (size_t)t->nlinks + 1, 1)};
	uint32_t src_tor = dard_topo_tor(t, src_host), n, dst, dl;
	uint16_t *ports = NULL;
	unsigned k, np;

	*q = NULL;
	*nq = 0;
	if (!b.seen)
		return -ENOMEM;
	for (n = 0; n < t->nnodes; n++) {
		if (n == src_tor || t->node[n].is_host)
			continue;
		dst = dard_topo_tor_host(t, n);
		if (dst != DARD_NONE)
			dard_path_foreach(c, src_host, dst, watch_path, &b);
	}
	*q = calloc(t->nnodes, sizeof(**q));
	if (!*q)
		goto oom;
	for (n = 0; n < t->nnodes; n++) {
		if (!above[n] || t->node[n].is_host)
			continue;
		np = 0;
		for (k = 1; k <= t->node[n].nports; k++) {
			dl = dard_port_dlink(t, n, k);
			if (dl == DARD_NONE || !b.seen[dl])
				continue;
			if (!ports) {
				ports = calloc(t->node[n].nports,
					       sizeof(*ports));
				if (!ports)
					goto oom;
			}
			ports[np++] = k;
		}
		if (!np)
			continue;
		(*q)[*nq].sw = n;
		(*q)[*nq].nports = np;
		(*q)[(*nq)++].ports = ports;
		ports = NULL;
	}
	free(b.seen);
	return 0;
oom:
	free(b.seen);
	dard_watch_free(*q, *nq);
	*q = NULL;
	*nq = 0;
	return -ENOMEM;
}

void dard_watch_free(struct dard_mon_query *q, unsigned nq)
{
	unsigned i;

	for (i = 0; q && i < nq; i++)
		free(q[i].ports);
	free(q);
}

int dard_monitor_path_index(const struct dard_monitor *m,
			    const struct dard_path *path)
{
	unsigned i;

	/* Hosts differ, switches do not: compare ToR to ToR. */
	for (i = 0; i < m->npaths; i++)
		if (m->path[i].nsw == path->nsw &&
		    !memcmp(m->path[i].sw, path->sw,
			    path->nsw * sizeof(path->sw[0])))
			return i;
	return -1;
}

uint32_t dard_port_dlink(const struct dard_topo *t, uint32_t sw, unsigned port)
{
	const struct dard_link *l = dard_topo_port_link(t, sw, port);

	if (!l)
		return DARD_NONE;
	return dard_dlink(t->node[sw].port[port - 1],
			  l->up == sw ? DARD_DOWN : DARD_UP);
}

unsigned dard_reply_apply(const struct dard_topo *t, uint32_t sw,
			  const struct dard_msg *reply, struct dard_lstate *ls,
			  uint64_t *when, uint64_t now)
{
	unsigned i, n = 0;

	for (i = 0; i < reply->count; i++) {
		const struct dard_port_state *st = &reply->state[i];
		uint32_t dl = dard_port_dlink(t, sw, st->port);

		if (dl == DARD_NONE)
			continue;
		/*
		 * Down: dead from now on, not when the old state ages. Its
		 * switch answered, so the link's state is known: it carries
		 * nothing.
		 */
		ls[dl].mbps = st->mbps;
		ls[dl].flows = st->elephants;
		/* Not measured is no load known, never an idle link. */
		ls[dl].loaded = st->load_kbps != DARD_LOAD_UNKNOWN;
		ls[dl].load = ls[dl].loaded ? st->load_kbps / 1000.0 : 0;
		ls[dl].known = 1;
		ls[dl].dead = !(st->flags & DARD_PORT_F_UP);
		when[dl] = now;
		n++;
	}
	return n;
}

void dard_monitor_pv(const struct dard_monitor *m, const struct dard_lstate *ls,
		     const uint64_t *when, uint64_t now, uint64_t max_age,
		     struct dard_pstate *pv)
{
	struct dard_lstate l[2 * DARD_LEVEL_MAX];
	uint32_t idx[2 * DARD_LEVEL_MAX];
	unsigned i, k;

	for (i = 0; i < m->npaths; i++) {
		const struct dard_mon_path *p = &m->path[i];

		for (k = 0; k < p->ndl; k++) {
			l[k] = ls[p->dl[k]];
			/* Silence is unknown, never dead, even after "down". */
			if (!when[p->dl[k]] || now - when[p->dl[k]] > max_age) {
				l[k].known = 0;
				l[k].dead = 0;
			}
			idx[k] = k;
		}
		dard_path_state(l, idx, p->ndl, m->busy, &pv[i]);
	}
}

void dard_monitor_fv(struct dard_monitor *m, const struct dard_flow_iter *it)
{
	struct dard_round_flow f;
	const void *cur = NULL;

	memset(m->fv, 0, m->npaths * sizeof(*m->fv));
	while ((cur = it->next(it->arg, cur, &f)))
		if (f.path >= 0 && (unsigned)f.path < m->npaths)
			m->fv[f.path]++;
}

static int all_known(const struct dard_monitor *m)
{
	unsigned i;

	for (i = 0; i < m->npaths; i++)
		if (!m->pv[i].known)
			return 0;
	return 1;
}

/* The caller lets flow cur go to path to (dard_flow_iter's may_move). */
static int may_move(const struct dard_flow_iter *it, const void *cur,
		    unsigned to)
{
	return !it->may_move || it->may_move(it->arg, cur, to);
}

/* A flow the round may not move: it moved less than the hold ago. */
static int held(const struct dard_round_flow *f,
		const struct dard_sched_mode *mode, double now)
{
	return mode->hold > 0 && f->moves && now - f->moved_at < mode->hold;
}

/* Every link of path i has a load its switch measured. */
static int loaded(const struct dard_monitor *m, const struct dard_lstate *ls,
		  unsigned i)
{
	unsigned k;

	for (k = 0; k < m->links[i].n; k++)
		if (!ls[m->links[i].dl[k]].loaded)
			return 0;
	return 1;
}

/*
 * A move is futile when it left the flow's rate within delta, or this
 * share of what it was if that is less: a flow that moved onto a path
 * others filled at the same time is not held by its hosts (a third of a
 * 50 Mbit/s link to a half is a gain, if less than delta).
 */
#define FUTILE 0.1

/*
 * With busy links, a move must also gain more than delta over the rate
 * the flow has: the other elephants of a busy link may be limited
 * elsewhere and leave it more than the link's BoNF (a flow at 800 Mbit/s
 * on a link whose BoNF says 500 would otherwise leave for a path
 * offering 667, and come back). And, where the loads of both paths were
 * measured, a flow whose last move was futile is limited by what every
 * path shares (its host's links, or the far host's, which no switch a
 * monitor asks reports): it stays while its rate holds, or it would swap
 * paths at every hold. Not when its path now offers less than the move
 * expected (crowded): others moved onto it too, as a ToR peer does in
 * the same query interval, and the move was futile for that, not for
 * the flow's hosts (issue 28: two such pairs stayed at half a link for
 * good).
 */
static int crowded(const struct dard_monitor *m, const struct dard_lstate *ls,
		   const struct dard_round_flow *f, unsigned path)
{
	const struct dard_path_links *p = &m->links[path];

	return f->moved_est > 0 && isfinite(f->moved_est) &&
	       dard_path_count_est(ls, p, p) < f->moved_est * (1 - 1e-9);
}

static int gains(const struct dard_monitor *m, const struct dard_lstate *ls,
		 const struct dard_round_flow *f, const struct dard_move *mv,
		 double delta)
{
	if (!(m->busy > 0) || !(f->rate >= 0))
		return 1;
	if (f->moves && f->moved_rate > 0 && loaded(m, ls, mv->from) &&
	    loaded(m, ls, mv->to) && !crowded(m, ls, f, mv->from) &&
	    fabs(f->rate - f->moved_rate) <=
		    fmin(delta, FUTILE * f->moved_rate))
		return 0;
	return mv->estimate - f->rate > delta;
}

/*
 * The hold keeps a flow that moved where it went, so that it does not
 * chase paths other hosts' moves have filled since the last query. A
 * flow whose path others crowded in the same query interval (two ToR
 * peers onto one up link) is let go after a quarter of the hold with the
 * escape's probability each round, so that one of the two leaves soon
 * and the other, as likely as not, stays.
 */
static int holds(struct dard_monitor *m, const struct dard_lstate *ls,
		 const struct dard_round_flow *f,
		 const struct dard_sched_mode *mode, double now)
{
	if (!held(f, mode, now))
		return 0;
	/* A quarter of the hold first: the switches count a flow on the
	 * path it left for a window after the move, and a query or two
	 * may not have seen the move at all. */
	return !(mode->escape > 0 && f->path >= 0 &&
		 now - f->moved_at >= mode->hold / 4 &&
		 crowded(m, ls, f, (unsigned)f->path) &&
		 dard_splitmix_unit(&m->rng) <= mode->escape);
}

/*
 * The neutral move out of an equilibrium (dard_sched_neutral), for the
 * flow on its source that moved least among those it may move: not
 * held, and under its budget of them. Taken with mode->escape's
 * probability.
 */
static const void *escape(struct dard_monitor *m, const struct dard_lstate *ls,
			  const struct dard_flow_iter *it,
			  const struct dard_sched_mode *mode, double now,
			  struct dard_move *mv)
{
	struct dard_round_flow f;
	const void *cur = NULL, *pick = NULL;
	unsigned least = 0;
	double rate = -1;

	if (!dard_sched_neutral(ls, m->links, m->pv, m->fv, m->npaths, m->busy,
				&m->rng, mv))
		return NULL;
	memset(&f, 0, sizeof(f));
	while ((cur = it->next(it->arg, cur, &f))) {
		if (f.path == (int)mv->from && may_move(it, cur, mv->to) &&
		    !held(&f, mode, now) && f.neutral < mode->escape_max &&
		    (!pick || f.moves < least)) {
			pick = cur;
			least = f.moves;
			rate = f.rate;
		}
		memset(&f, 0, sizeof(f));
	}
	if (!pick || !(dard_splitmix_unit(&m->rng) <= mode->escape))
		return NULL;
	mv->rate = rate;
	return pick;
}

const void *dard_monitor_round_mode(struct dard_monitor *m,
				    const struct dard_lstate *ls,
				    const struct dard_flow_iter *it,
				    double delta,
				    const struct dard_sched_mode *mode,
				    double now, struct dard_move *mv)
{
	struct dard_round_flow f;
	const void *cur = NULL, *pick = NULL;
	unsigned least = 0;
	int dead, wants = 0;

	m->idle_until = 0;
	dard_monitor_fv(m, it);
	if (!dard_sched_round_links(ls, m->links, m->pv, m->fv, m->npaths,
				    delta, m->busy, mv)) {
		if (mode->escape > 0 && all_known(m) &&
		    (pick = escape(m, ls, it, mode, now, mv)))
			return pick;
		/* Nothing to gain, and every path known (not a round
		 * blind for want of replies): sleep while our rates hold. */
		if (mode->sleep > 0 && all_known(m))
			m->idle_until = now + mode->sleep;
		return NULL;
	}
	/* The new rule draws among near-equal targets, so that hosts
	 * reading the same answers need not all choose alike. */
	if (mode->escape > 0)
		dard_sched_spread_ties(ls, m->links, m->pv, m->npaths, delta,
				       m->busy, &m->rng, mv);
	/* A dead path's elephants leave whatever the hold says. */
	dead = m->pv[mv->from].dead;
	/* Moving the flow that moved least spreads the moves out. */
	while ((cur = it->next(it->arg, cur, &f))) {
		if (f.path != (int)mv->from || !may_move(it, cur, mv->to))
			continue;
		if (!dead && !gains(m, ls, &f, mv, delta))
			continue;
		wants = 1;
		if ((dead || !holds(m, ls, &f, mode, now)) &&
		    (!pick || f.moves < least)) {
			pick = cur;
			least = f.moves;
			mv->rate = f.rate;
		}
	}
	/* Every flow there already gets more than the target offers. */
	if (!wants && mode->sleep > 0 && all_known(m))
		m->idle_until = now + mode->sleep;
	return pick;
}

int dard_monitor_idle(const struct dard_monitor *m, double now)
{
	return now < m->idle_until;
}

int dard_monitor_quiet(const struct dard_monitor *m,
		       const struct dard_flow_iter *it,
		       const struct dard_sched_mode *mode, double now)
{
	int asleep = now < m->idle_until;
	struct dard_round_flow f;
	const void *cur = NULL;

	if (!(mode->quiet > 0))
		return 0;
	while ((cur = it->next(it->arg, cur, &f))) {
		if (!(f.rate >= 0))
			return 0;
		if (asleep && f.idle_rate > 0 &&
		    f.rate >= mode->quiet * f.idle_rate)
			continue;
		if (!(f.share > 0 && f.rate >= mode->quiet * f.share))
			return 0;
	}
	return 1;
}

const void *dard_monitor_round(struct dard_monitor *m,
			       const struct dard_lstate *ls,
			       const struct dard_flow_iter *it, double delta,
			       struct dard_move *mv)
{
	return dard_monitor_round_mode(
		m, ls, it, delta, &dard_sched_modes[DARD_SCHED_PAPER], 0, mv);
}

void dard_monitor_moved(const struct dard_monitor *m, struct dard_lstate *ls,
			const struct dard_move *mv)
{
	dard_lstate_move(ls, &m->links[mv->from], &m->links[mv->to], mv->rate,
			 mv->estimate);
}
