// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * DARD in the flow-level simulation: the switches' answers, a host's
 * monitors per destination ToR and their rounds, dardd's own library
 * code (monitor.c, sched.c) under the run's mode (sched.h); what the
 * queries cost, and the watch, in flowsim_share.c.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "flowsim_int.h"
#include "rng.h"
#include "share.h"

/*
 * A monitor's elephants for dard_monitor_round and dard_monitor_quiet:
 * the moves are in out (NULL: none needed), each host's elephants in
 * s->nel.
 */
struct round_iter {
	const struct sim *s;
	const struct mon *m;
	const struct dard_sim_flow *out;
};

static const void *round_next(void *arg, const void *cur,
			      struct dard_round_flow *rf)
{
	const struct round_iter *it = arg;
	const struct flow *f =
		cur ? ((const struct flow *)cur)->mnext : it->m->flows;
	uint32_t nel;

	if (!f)
		return NULL;
	rf->path = f->row;
	rf->moves = it->out ? it->out[f->id].moves : 0;
	rf->neutral = f->neutral;
	rf->moved_est = f->moved_est;
	rf->moved_at = f->moved_at;
	rf->moved_rate = f->moved_rate;
	rf->rate = f->rate;
	rf->idle_rate = f->idle_rate;
	/* Counted by mark_quiet alone, 0 when it did not: never a division
	 * by 0, not even one the compiler would speculate. */
	nel = it->s->nel[f->src];
	/* Whole Mbit/s, as dardd's share_of divides its link's. */
	rf->share = floor(flowsim_mbps(it->s->t, it->s->o, f->up / 2) /
			  (nel ? nel : 1));
	if (!nel)
		rf->share = 0;
	return f;
}

/* Split mode: a round never moves a part onto its flow's other parts. */
static int round_may_move(void *arg, const void *cur, unsigned to)
{
	(void)arg;
	return !flowsim_part_on(cur, to);
}

/*
 * Which monitors are quiet this interval (dard_monitor_quiet): dardd
 * decides at its query tick, from its flows' rates over the last second;
 * here from their rates now.
 */
static void mark_quiet(struct sim *s)
{
	struct round_iter ri = {s, NULL, NULL};
	struct dard_flow_iter it = {.next = round_next, .arg = &ri};
	struct mon *m;
	size_t i;

	if (!(s->mode.quiet > 0))
		return;
	for (i = 0; i < s->nact; i++)
		s->nel[s->act[i]->src] = 0;
	for (i = 0; i < s->nact; i++)
		s->nel[s->act[i]->src] += s->act[i]->elephant;
	for (m = s->mons; m; m = m->next) {
		int was = m->quiet;

		ri.m = m;
		/* As dardd's mon_quiet_all: a dead path, or a timeout of
		 * its host's since the last query, keeps it asking. */
		m->quiet = !s->woke[m->host] && !m->dead &&
			   !flowsim_fail_watch_dead(s, m->flows->ps, m->host) &&
			   dard_monitor_quiet(m->m, &it, &s->mode, s->now);
		if (was && !m->quiet &&
		    m->next_round < s->now + s->mode.query / 4)
			m->next_round = s->now + s->mode.query / 4;
	}
	memset(s->woke, 0, s->t->nnodes * sizeof(*s->woke));
}

/*
 * What each monitor sees dead after this query. One that asked, every
 * dead link of its paths; a quiet one, those its host's other monitors
 * asked about (dardd's dead_update takes every monitor's states from the
 * host's one link table), else what it saw when it last asked.
 */
static void dead_views(struct sim *s)
{
	struct mon *m, *h;

	for (m = s->mons; m; m = m->next) {
		uint64_t mine;

		if (s->hmon[m->host] != m)
			continue;
		mine = ++s->stamp;
		for (h = m; h; h = h->hnext)
			if (!h->quiet) {
				h->dead =
					flowsim_fail_any_dead(s, h->flows->ps);
				flowsim_fail_mark_dead(s, h->flows->ps,
						       s->dlseen, mine);
			}
		for (h = m; h; h = h->hnext)
			if (h->quiet && !h->dead)
				h->dead = flowsim_fail_seen_dead(
					s, h->flows->ps, s->dlseen, mine);
	}
}

/*
 * The switches' answer to every query: elephants per directed link, each
 * counted where its rate is at least min_share of the link's bandwidth
 * (dard-switchd counts bytes over a window; here the rate at the query).
 */
static void query(struct sim *s)
{
	uint32_t l;
	size_t i;
	unsigned k;

	mark_quiet(s);
	s->queried = 1;

	for (l = 0; l < 2 * s->t->nlinks; l++) {
		s->ls[l].flows = 0;
		/* Every switch measures its ports' load: what leaves. */
		s->ls[l].load = 0;
		s->ls[l].loaded = 1;
		/* A failed port: answered without DARD_PORT_F_UP; a
		 * degraded one at the speed it runs at, as a switch reads
		 * its port's (flowsim_mbps). */
		s->ls[l].mbps = flowsim_mbps(s->t, s->o, l / 2);
		s->ls[l].known = 1;
		s->ls[l].dead = !(s->cap[l] > 0);
	}
	for (i = 0; i < s->nact; i++)
		for (k = 0; k < s->act[i]->nlinks; k++) {
			struct dard_lstate *l = &s->ls[s->act[i]->links[k]];

			l->load += s->act[i]->rate;
			l->flows += s->act[i]->elephant &&
				    s->act[i]->rate >= s->min_share * l->mbps;
		}
	flowsim_watch_query(s);
	if (s->o->nfail)
		dead_views(s);
	if (s->lq) {
		memcpy(s->lq, s->ls, 2 * (size_t)s->t->nlinks * sizeof(*s->ls));
		s->nvlog = 0;
	}
	flowsim_queries(s);
}

static struct mon *mon_get(struct sim *s, const struct flow *f)
{
	uint32_t dtor = f->ps->dtor;
	struct mon *m;
	unsigned k;

	for (m = s->hmon[f->src]; m; m = m->hnext)
		if (m->m->dst_tor == dtor)
			return m;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->m = dard_monitor_new(s->pc, s->t, f->src, dtor, s->err);
	if (!m->m) {
		free(m);
		return NULL;
	}
	/* Its paths are the pair's rows, in one order: a row is an index. */
	for (k = 0; k < m->m->npaths; k++)
		if (m->m->npaths != f->ps->npaths ||
		    memcmp(m->m->path[k].sw, &f->ps->sw[(size_t)k * f->ps->nsw],
			   f->ps->nsw * sizeof(f->ps->sw[0]))) {
			dard_fail(s->err, -EIO, "monitor paths out of order");
			dard_monitor_free(m->m);
			free(m);
			return NULL;
		}
	m->m->busy = s->mode.busy;
	/* The escape's draws: from the run's seed, apart per monitor. */
	m->m->rng ^= dard_mix64(s->o->seed);
	m->host = f->src;
	m->next_round =
		s->now + s->mode.round + dard_urand(&s->rng) * s->mode.round;
	m->next = s->mons;
	if (m->next)
		m->next->pprev = &m->next;
	m->pprev = &s->mons;
	s->mons = m;
	m->hnext = s->hmon[f->src];
	s->hmon[f->src] = m;
	return m;
}

static void mon_free(struct mon *m)
{
	dard_monitor_free(m->m);
	free(m);
}

/* A flow leaves its monitor, and the monitor goes with its last flow. */
static void mon_leave(struct sim *s, struct flow *f)
{
	struct mon *m = f->mon, **pp;
	struct flow **fp;

	for (fp = &m->flows; *fp != f; fp = &(*fp)->mnext)
		;
	*fp = f->mnext;
	f->mon = NULL;
	if (m->flows)
		return;
	*m->pprev = m->next;
	if (m->next)
		m->next->pprev = m->pprev;
	for (pp = &s->hmon[m->host]; *pp != m; pp = &(*pp)->hnext)
		;
	*pp = m->hnext;
	mon_free(m);
}

/*
 * What host h's rounds see (o->stale): the last query's link states on
 * monitor m's links, and h's own moves since, as dardd counts its own
 * moves at once (dard_monitor_moved) and hears of the others' from the
 * switches.
 */
static struct dard_lstate *view_of(struct sim *s, const struct mon *m)
{
	unsigned i, k;
	size_t j;

	for (i = 0; i < m->m->npaths; i++)
		for (k = 0; k < m->m->links[i].n; k++) {
			uint32_t dl = m->m->links[i].dl[k];

			s->view[dl] = s->lq[dl];
		}
	for (j = 0; j < s->nvlog; j++) {
		const struct vmove *v = &s->vlog[j];
		struct dard_path_links from = {v->from, v->nfrom};
		struct dard_path_links to = {v->to, v->nto};

		/* Links outside m's are written, and never read. */
		if (v->host == m->host)
			dard_lstate_move(s->view, &from, &to, v->rate, v->est);
	}
	return s->view;
}

/*
 * Host h moved a flow from one set of links to another (from empty: a new
 * part): logged until the next query counts it.
 */
static int log_links(struct sim *s, uint32_t host,
		     const struct dard_path_links *from,
		     const struct dard_path_links *to, double rate, double est)
{
	struct vmove *v;

	if (s->nvlog == s->vlog_cap) {
		size_t cap = s->vlog_cap ? 2 * s->vlog_cap : 64;

		v = realloc(s->vlog, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		s->vlog = v;
		s->vlog_cap = cap;
	}
	v = &s->vlog[s->nvlog++];
	v->host = host;
	v->nfrom = from->n;
	v->nto = to->n;
	memcpy(v->from, from->dl, from->n * sizeof(v->from[0]));
	memcpy(v->to, to->dl, to->n * sizeof(v->to[0]));
	v->rate = rate;
	v->est = est;
	return 0;
}

/* Host h moved as mv says: logged until the next query counts it. */
static int log_move(struct sim *s, const struct mon *m,
		    const struct dard_move *mv)
{
	return log_links(s, m->host, &m->m->links[mv->from],
			 &m->m->links[mv->to], mv->rate, mv->estimate);
}

/*
 * One round of a monitor: dardd's own round (dard_monitor_round) on the
 * last query's states, with its host's own moves since (o->stale).
 */
static int round_of(struct sim *s, struct mon *m, struct dard_sim_flow *out)
{
	struct round_iter ri = {s, m, out};
	struct dard_flow_iter it = {
		.next = round_next,
		.arg = &ri,
		.may_move = s->split > 1 ? round_may_move : NULL,
	};
	struct dard_lstate *ls = s->ls;
	struct flow *pick, *f;
	struct dard_move mv;

	m->next_round =
		s->now + s->mode.round + dard_urand(&s->rng) * s->mode.round;
	/* Quiet at the last query: it asked nothing, and acts on nothing. */
	if (m->quiet)
		return 0;
	if (s->lq)
		ls = view_of(s, m);
	dard_monitor_pv(m->m, ls, s->when, 1, UINT64_MAX, m->m->pv);
	pick = (struct flow *)dard_monitor_round_mode(
		m->m, ls, &it,
		dard_sched_delta(&s->mode, m->m->pv, m->m->npaths), &s->mode,
		s->now, &mv);
	if (dard_monitor_idle(m->m, s->now))
		for (f = m->flows; f; f = f->mnext)
			f->idle_rate = f->rate;
	if (!pick)
		return 0;
	if (s->lq && log_move(s, m, &mv))
		return dard_fail(s->err, -ENOMEM, "out of memory");
	flowsim_move(s, pick, mv.to, out);
	/* As dardd: a neutral move keeps the rate by design. */
	pick->moved_rate = mv.rate > 0 && !mv.neutral ? mv.rate : 0;
	pick->moved_at = s->now;
	pick->neutral += mv.neutral;
	pick->moved_est = mv.count_est;
	s->st->neutral += mv.neutral;
	/* As dardd does: the move counted at once in its own picture
	 * (with o->stale, in the log its host's views take it from). */
	dard_monitor_moved(m->m, s->ls, &mv);
	return 0;
}

/* A flow, or a part of one, joins its monitor's elephants. */
static void mon_join(struct mon *m, struct flow *f)
{
	f->mon = m;
	f->idle_rate = 0;
	f->mnext = m->flows;
	m->flows = f;
}

/*
 * The row of f's next part: among those no part of f holds, the one the
 * view's path states pv give the most bandwidth with one more elephant
 * (pv NULL: the host has no view, the first free one), in an order
 * hashed from f so that hosts with one view need not all pick alike.
 */
static uint32_t split_row(const struct sim *s, const struct flow *f,
			  const struct dard_pstate *pv)
{
	uint32_t n = f->ps->npaths, i, row, best = n;
	uint64_t h = dard_mix64(dard_mix64(s->o->seed) + f->id);

	for (i = 0; i < n; i++) {
		row = (h + i) % n;
		if (flowsim_part_on(f, row))
			continue;
		if (best == n || (pv && pv[row].est > pv[best].est))
			best = row;
	}
	return best;
}

/*
 * The host counts a new elephant of its own (a part) on row in its view,
 * as it counts a move (as the round does), so that its next part and its
 * next rounds see it before the switches do. est: the load it expects
 * the part to add (not finite: none, its load already measured).
 */
static int split_count(struct sim *s, const struct mon *m, uint32_t row,
		       double est)
{
	static const uint32_t none[1];
	const struct dard_path_links from = {none, 0};

	if (s->lq && log_links(s, m->host, &from, &m->m->links[row], -1, est))
		return dard_fail(s->err, -ENOMEM, "out of memory");
	dard_lstate_move(s->ls, &from, &m->m->links[row], -1, est);
	return 0;
}

/*
 * Split mode (flowsim.h): elephant f spreads over split rows, or as many
 * as its pair has. Part 0, on the flow's row, is an elephant the
 * switches have not counted yet, but its host knows where it is: the
 * host's view counts it first (its load was measured if it ran at the
 * last query), so that the next part avoids its links where others
 * are free; then each new part in turn.
 */
static int split(struct sim *s, struct flow *f)
{
	struct mon *m = f->mon;
	uint32_t k, n = f->ps->npaths < s->split ? f->ps->npaths : s->split;
	const struct dard_pstate *pv = NULL;
	struct dard_lstate *ls;
	struct flow *part;

	if (n > 1 && split_count(s, m, f->row, NAN))
		return -ENOMEM;
	for (k = 1; k < n; k++) {
		if (s->queried) {
			ls = s->lq ? view_of(s, m) : s->ls;
			dard_monitor_pv(m->m, ls, s->when, 1, UINT64_MAX,
					m->m->pv);
			pv = m->m->pv;
		}
		part = flowsim_part_add(s, f, split_row(s, f, pv));
		mon_join(m, part);
		if (split_count(s, m, part->row,
				pv ? pv[part->row].est : HUGE_VAL))
			return -ENOMEM;
	}
	return 0;
}

/* DARD: an elephant joins its host's monitor of its ToR pair. */
static int dard_elephant(struct sim *s, struct flow *f)
{
	if (f->ps->stor == f->ps->dtor)
		return 0;
	f->mon = mon_get(s, f);
	if (!f->mon)
		return -EIO;
	mon_join(f->mon, f);
	return s->split > 1 ? split(s, f) : 0;
}

static void dard_finish(struct sim *s, struct flow *f)
{
	if (f->mon)
		mon_leave(s, f);
}

/* The switches answer every query interval; each monitor's round is due. */
static int dard_tick(struct sim *s, struct dard_sim_flow *out)
{
	struct mon *m;

	if (s->now >= s->next_query) {
		s->next_query += s->mode.query;
		query(s);
		if (s->o->nfail)
			flowsim_fail_dp(s, out);
	}
	for (m = s->mons; m; m = m->next)
		if (m->next_round <= s->now && round_of(s, m, out))
			return -ENOMEM;
	return 0;
}

static double dard_next(const struct sim *s, double when)
{
	const struct mon *m;

	when = fmin(when, s->next_query);
	for (m = s->mons; m; m = m->next)
		when = fmin(when, m->next_round);
	return when;
}

static void dard_idle(struct sim *s)
{
	s->next_query = fmax(s->next_query, s->now);
}

/* Split mode's parts have no failover (flowsim_fail.c moves flows). */
static int dard_check(const struct dard_topo *t, const struct dard_sim_opts *o,
		      char *err)
{
	(void)t;
	if (o->split > 1 && o->nfail)
		return dard_fail(err, -EINVAL,
				 "split mode is not modelled with failures");
	return 0;
}

/* With sharing: the ToRs, and the switches each one's hosts all ask. */
static int dard_init(struct sim *s)
{
	const struct dard_topo *t = s->t;
	struct dard_share_scope sc;
	uint32_t n, i, *tor_of;
	int ret;

	ret = dard_check(t, s->o, s->err);
	if (ret)
		return ret;

	s->nel = calloc(t->nnodes, sizeof(*s->nel));
	s->woke = calloc(t->nnodes, sizeof(*s->woke));
	s->dlseen = calloc(2 * (size_t)t->nlinks, sizeof(*s->dlseen));
	if (!s->nel || !s->woke || !s->dlseen || flowsim_watch_init(s))
		return dard_fail(s->err, -ENOMEM, "out of memory");
	if (s->o->stale) {
		s->lq = calloc(2 * (size_t)t->nlinks, sizeof(*s->lq));
		s->view = calloc(2 * (size_t)t->nlinks, sizeof(*s->view));
		if (!s->lq || !s->view)
			return dard_fail(s->err, -ENOMEM, "out of memory");
	}
	if (!s->o->share)
		return 0;
	/* Per node, its index in s->tors when it is a ToR. */
	tor_of = malloc(t->nnodes * sizeof(*tor_of));
	s->tors = calloc(t->nnodes, sizeof(*s->tors));
	s->dlhost = calloc(2 * (size_t)t->nlinks + 1, sizeof(*s->dlhost));
	s->want = calloc(t->nnodes, sizeof(*s->want));
	if (!tor_of || !s->tors || !s->dlhost || !s->want) {
		ret = dard_fail(s->err, -ENOMEM, "out of memory");
		goto out;
	}
	for (n = 0; n < t->nnodes; n++) {
		tor_of[n] = DARD_NONE;
		if (t->node[n].is_host || dard_topo_tor_host(t, n) == DARD_NONE)
			continue;
		if (dard_share_scope_init(&sc, t, n)) {
			ret = dard_fail(s->err, -ENOMEM, "out of memory");
			goto out;
		}
		/* Only the switches: the sim counts per switch. */
		free(sc.in);
		s->tors[s->ntors].tor = n;
		s->tors[s->ntors].above = sc.above;
		tor_of[n] = s->ntors++;
	}
	for (i = 0; i < t->nhosts; i++) {
		uint32_t tor = dard_topo_tor(t, t->hosts[i]);

		if (tor != DARD_NONE && tor_of[tor] != DARD_NONE)
			s->tors[tor_of[tor]].nhosts++;
	}
out:
	free(tor_of);
	return ret;
}

static void dard_fini(struct sim *s)
{
	uint32_t i;

	flowsim_watch_fini(s);
	for (i = 0; i < s->ntors; i++)
		free(s->tors[i].above);
	free(s->tors);
	free(s->dlhost);
	free(s->want);
	free(s->nel);
	free(s->woke);
	free(s->dlseen);
	free(s->lq);
	free(s->view);
	free(s->vlog);
	s->lq = s->view = NULL;
	s->vlog = NULL;
	s->nvlog = s->vlog_cap = 0;
	s->dlseen = NULL;
	s->woke = NULL;
	s->nel = NULL;
	s->want = NULL;
	s->dlhost = NULL;
	s->tors = NULL;
	s->ntors = 0;
	while (s->mons) {
		struct mon *m = s->mons;

		s->mons = m->next;
		mon_free(m);
	}
}

const struct sim_sched flowsim_dard = {
	.name = "dard",
	.check = dard_check,
	.init = dard_init,
	.fini = dard_fini,
	.elephant = dard_elephant,
	.finish = dard_finish,
	.tick = dard_tick,
	.next = dard_next,
	.idle = dard_idle,
};

/* The same hooks: the mode comes from the scheduler (sim_mode). */
const struct sim_sched flowsim_dard_paper = {
	.name = "dard-paper",
	.check = dard_check,
	.init = dard_init,
	.fini = dard_fini,
	.elephant = dard_elephant,
	.finish = dard_finish,
	.tick = dard_tick,
	.next = dard_next,
	.idle = dard_idle,
};
