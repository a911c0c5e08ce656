// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * DARD in the flow-level simulation: the switches' answers, a host's
 * monitors per destination ToR and their rounds, dardd's own library
 * code (monitor.c, sched.c) under the run's mode (sched.h).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "flowsim_int.h"
#include "rng.h"

/* The switches' answer to every query: elephants per directed link. */
static void query(struct sim *s)
{
	struct mon *m;
	uint32_t l;
	size_t i;
	unsigned k;

	for (l = 0; l < 2 * s->t->nlinks; l++) {
		s->ls[l].flows = 0;
		/* A failed port: answered without DARD_PORT_F_UP. */
		s->ls[l].mbps = s->t->link[l / 2].mbps;
		s->ls[l].known = 1;
		s->ls[l].dead = !(s->cap[l] > 0);
	}
	for (i = 0; i < s->nact; i++)
		if (s->act[i]->elephant)
			for (k = 0; k < s->act[i]->nlinks; k++)
				s->ls[s->act[i]->links[k]].flows++;
	/*
	 * What dardd sends: one query to each switch any of a host's
	 * monitors watches, and its reply. A host's monitors are together
	 * in its list: a stamp per switch marks those it has asked.
	 */
	s->stamp++;
	for (m = s->mons; m; m = m->next) {
		struct mon *h;

		if (s->hmon[m->host] != m)
			continue;
		for (h = m; h; h = h->hnext)
			for (k = 0; k < h->m->nqueries; k++) {
				uint32_t sw = h->m->query[k].sw;

				if (s->asked[sw] == s->stamp)
					continue;
				s->asked[sw] = s->stamp;
				s->st->ctl_bytes += DARD_SIM_QUERY_BYTES +
						    DARD_SIM_REPLY_BYTES;
			}
		s->stamp++;
	}
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

/* A monitor's elephants for dard_monitor_round: the moves are in out. */
struct round_iter {
	const struct mon *m;
	const struct dard_sim_flow *out;
};

static const void *round_next(void *arg, const void *cur,
			      struct dard_round_flow *rf)
{
	const struct round_iter *it = arg;
	const struct flow *f =
		cur ? ((const struct flow *)cur)->mnext : it->m->flows;

	if (f) {
		rf->path = f->row;
		rf->moves = it->out[f->id].moves;
		rf->moved_at = f->moved_at;
	}
	return f;
}

/*
 * One round of a monitor: dardd's own round (dard_monitor_round) on the
 * last query's states.
 */
static void round_of(struct sim *s, struct mon *m, struct dard_sim_flow *out)
{
	struct round_iter ri = {m, out};
	struct dard_flow_iter it = {round_next, &ri};
	struct flow *pick;
	struct dard_move mv;

	m->next_round =
		s->now + s->mode.round + dard_urand(&s->rng) * s->mode.round;
	dard_monitor_pv(m->m, s->ls, s->when, 1, UINT64_MAX, m->m->pv);
	pick = (struct flow *)dard_monitor_round_mode(
		m->m, s->ls, &it, s->mode.delta, &s->mode, s->now, &mv);
	if (!pick)
		return;
	flowsim_move(s, pick, mv.to, out);
	pick->moved_at = s->now;
	/* As dardd does: the move counted at once in its own picture. */
	dard_monitor_moved(m->m, s->ls, &mv);
}

/* DARD: an elephant joins its host's monitor of its ToR pair. */
static int dard_elephant(struct sim *s, struct flow *f)
{
	if (f->ps->stor == f->ps->dtor)
		return 0;
	f->mon = mon_get(s, f);
	if (!f->mon)
		return -EIO;
	f->mnext = f->mon->flows;
	f->mon->flows = f;
	return 0;
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
		if (m->next_round <= s->now)
			round_of(s, m, out);
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

static void dard_fini(struct sim *s)
{
	while (s->mons) {
		struct mon *m = s->mons;

		s->mons = m->next;
		mon_free(m);
	}
}

const struct sim_sched flowsim_dard = {
	.name = "dard",
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
	.fini = dard_fini,
	.elephant = dard_elephant,
	.finish = dard_finish,
	.tick = dard_tick,
	.next = dard_next,
	.idle = dard_idle,
};
