/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The selfish flow scheduling tests' network (test_sched.c,
 * test_sched_random.c): flows on a generated tree as the oracle for what
 * switches would answer, each host's monitor (PV and FV), and one round
 * of it, the paper's or dardd's, that applies its move. Include after
 * <cmocka.h>.
 */
#ifndef _DARD_TEST_SCHED_FIX_H
#define _DARD_TEST_SCHED_FIX_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "maxmin.h"
#include "monitor.h"
#include "sched.h"
#include "unit.h"

enum { PATHS_MAX = 64, FLOWS_MAX = 512 };

struct flow {
	uint32_t src, dst; /* hosts */
	unsigned path;	   /* index in the ToR pair's path list */
	unsigned moves;
	double moved_at;   /* s, round_now of its last move */
	double rate;	   /* Mbit/s, max-min fair, when sim_loads */
	double moved_rate; /* its rate at its last move */
	unsigned neutral;  /* its neutral moves (mode->escape) */
	double moved_est;  /* what its last move expected */
};

/* The whole network, as an oracle for what switches would answer. */
struct sim {
	struct dard_topo *t;
	struct dard_plan *p;
	struct dard_pathctx *pc;
	struct dard_lstate *ls;
	struct flow flow[FLOWS_MAX];
	unsigned nflows;
	double mbps;
};

struct plist {
	const struct dard_topo *t;
	uint32_t dl[PATHS_MAX][2 * DARD_LEVEL_MAX];
	unsigned ndl[PATHS_MAX];
	unsigned n;
};

static inline int add_path(const struct dard_path *path, void *arg)
{
	struct plist *l = arg;

	assert_true(l->n < PATHS_MAX);
	l->ndl[l->n] = dard_path_dlinks(l->t, path, l->dl[l->n]);
	l->n++;
	return 0;
}

/* The directed switch-switch links of every path from src to dst. */
static inline void paths(struct sim *s, uint32_t src, uint32_t dst,
			 struct plist *l)
{
	memset(l, 0, sizeof(*l));
	l->t = s->t;
	assert_true(dard_path_foreach(s->pc, src, dst, add_path, l) > 0);
}

static inline void sim_init(struct sim *s, const char *spec, double mbps)
{
	memset(s, 0, sizeof(*s));
	unit_build(spec, NULL, DARD_MODE_AUTO, &s->t, &s->p);
	s->pc = dard_pathctx_new(s->t, s->p);
	assert_non_null(s->pc);
	s->ls = calloc(2 * s->t->nlinks, sizeof(*s->ls));
	assert_non_null(s->ls);
	s->mbps = mbps;
}

static inline void sim_free(struct sim *s)
{
	free(s->ls);
	dard_pathctx_free(s->pc);
	dard_plan_free(s->p);
	dard_topo_free(s->t);
}

/*
 * Whether switches measure loads: every flow's max-min fair rate (TCP's,
 * the paper's Appendix A) over its host links and its path, summed per
 * link, as the flow-level simulator's switches answer.
 */
static int sim_loads;
/* The busy of the rounds and their path states (dard_link_bonf). */
static double round_busy;

static inline void sim_rates(struct sim *s)
{
	static uint32_t dl[FLOWS_MAX][2 * DARD_LEVEL_MAX + 2];
	struct dard_mm_flow mm[FLOWS_MAX];
	double *cap = malloc(2 * s->t->nlinks * sizeof(*cap));
	double rate[FLOWS_MAX];
	struct plist l;
	unsigned i, k;

	assert_non_null(cap);
	for (i = 0; i < 2 * s->t->nlinks; i++)
		cap[i] = s->mbps;
	for (i = 0; i < s->nflows; i++) {
		const struct flow *f = &s->flow[i];

		paths(s, f->src, f->dst, &l);
		dl[i][0] = dard_host_dlink(s->t, f->src, DARD_UP);
		memcpy(&dl[i][1], l.dl[f->path],
		       l.ndl[f->path] * sizeof(dl[i][0]));
		dl[i][l.ndl[f->path] + 1] =
			dard_host_dlink(s->t, f->dst, DARD_DOWN);
		mm[i].links = dl[i];
		mm[i].nlinks = l.ndl[f->path] + 2;
	}
	assert_int_equal(
		dard_maxmin(cap, 2 * s->t->nlinks, mm, s->nflows, rate), 0);
	for (i = 0; i < s->nflows; i++) {
		s->flow[i].rate = rate[i];
		for (k = 0; k < mm[i].nlinks; k++)
			s->ls[mm[i].links[k]].load += rate[i];
	}
	free(cap);
}

/* Link states from where the flows are, as the switches would count. */
static inline void sim_links(struct sim *s)
{
	struct plist l;
	unsigned i, k;

	for (i = 0; i < 2 * s->t->nlinks; i++)
		s->ls[i] = (struct dard_lstate){
			.mbps = s->mbps, .known = 1, .loaded = sim_loads};
	for (i = 0; i < s->nflows; i++) {
		paths(s, s->flow[i].src, s->flow[i].dst, &l);
		for (k = 0; k < l.ndl[s->flow[i].path]; k++)
			s->ls[l.dl[s->flow[i].path][k]].flows++;
	}
	if (sim_loads)
		sim_rates(s);
}

/* The smallest BoNF of any switch-switch link. */
static inline double sim_min_bonf(struct sim *s)
{
	double m = HUGE_VAL;
	unsigned i;

	for (i = 0; i < 2 * s->t->nlinks; i++) {
		const struct dard_link *l = &s->t->link[i / 2];

		if (s->t->node[l->down].is_host)
			continue;
		if (dard_bonf(s->ls[i].mbps, s->ls[i].flows) < m)
			m = dard_bonf(s->ls[i].mbps, s->ls[i].flows);
	}
	return m;
}

/* The monitor of host src towards the ToR of dst: PV and FV. */
static inline unsigned monitor(struct sim *s, uint32_t src, uint32_t dst,
			       struct dard_pstate *pv, uint32_t *fv)
{
	uint32_t dtor = dard_topo_tor(s->t, dst);
	struct plist l;
	unsigned i;

	paths(s, src, dst, &l);
	for (i = 0; i < l.n; i++) {
		dard_path_state(s->ls, l.dl[i], l.ndl[i], round_busy, &pv[i]);
		fv[i] = 0;
	}
	for (i = 0; i < s->nflows; i++)
		if (s->flow[i].src == src &&
		    dard_topo_tor(s->t, s->flow[i].dst) == dtor)
			fv[s->flow[i].path]++;
	return l.n;
}

/* Which round the tests run: the paper's, or dardd's (overlap-aware). */
static int links_aware;
/* dardd's round under this mode (NULL: dard_monitor_round), at this time. */
static const struct dard_sched_mode *round_mode;
static double round_now;
/* The escape's draws, one stream for all the rounds (monitor.c). */
static uint64_t round_rng;

/* The elephants of src's monitor towards the ToR dtor. */
struct round_iter {
	struct sim *s;
	uint32_t src, dtor;
};

static inline const void *round_next(void *arg, const void *cur,
				     struct dard_round_flow *rf)
{
	struct round_iter *it = arg;
	struct sim *s = it->s;
	struct flow *f = cur ? (struct flow *)cur + 1 : s->flow;

	for (; f < s->flow + s->nflows; f++)
		if (f->src == it->src &&
		    dard_topo_tor(s->t, f->dst) == it->dtor) {
			rf->path = f->path;
			rf->moves = f->moves;
			rf->neutral = f->neutral;
			rf->moved_est = f->moved_est;
			rf->moved_at = f->moved_at;
			rf->rate = sim_loads ? f->rate : -1;
			rf->moved_rate = f->moved_rate;
			return f;
		}
	return NULL;
}

/* dardd's round: libdard's dard_monitor_round on src's monitor. */
static inline struct flow *round_links(struct sim *s, uint32_t src,
				       uint32_t dtor,
				       const struct dard_pstate *pv,
				       const struct plist *l, double delta,
				       struct dard_move *m)
{
	struct round_iter ri = {s, src, dtor};
	struct dard_flow_iter it = {.next = round_next, .arg = &ri};
	char err[DARD_ERR_MAX];
	struct dard_monitor *mon;
	struct flow *pick;
	unsigned i;

	mon = dard_monitor_new(s->pc, s->t, src, dtor, err);
	if (!mon)
		fail_msg("%s", err);
	mon->busy = round_busy;
	mon->rng = round_rng;
	/* The monitor's paths are the test's, in the same order. */
	assert_int_equal(mon->npaths, l->n);
	for (i = 0; i < l->n; i++) {
		assert_int_equal(mon->links[i].n, l->ndl[i]);
		assert_memory_equal(mon->links[i].dl, l->dl[i],
				    l->ndl[i] * sizeof(l->dl[i][0]));
		mon->pv[i] = pv[i];
	}
	if (round_mode)
		pick = (struct flow *)dard_monitor_round_mode(
			mon, s->ls, &it, delta, round_mode, round_now, m);
	else
		pick = (struct flow *)dard_monitor_round(mon, s->ls, &it, delta,
							 m);
	round_rng = mon->rng;
	dard_monitor_free(mon);
	return pick;
}

/* The paper's round: dard_sched_round, the first elephant on the source. */
static inline struct flow *round_plain(struct sim *s, uint32_t src,
				       uint32_t dtor,
				       const struct dard_pstate *pv,
				       const uint32_t *fv, unsigned n,
				       double delta, struct dard_move *m)
{
	unsigned i;

	if (!dard_sched_round(pv, fv, n, delta, m))
		return NULL;
	for (i = 0; i < s->nflows; i++)
		if (s->flow[i].src == src &&
		    dard_topo_tor(s->t, s->flow[i].dst) == dtor &&
		    s->flow[i].path == m->from)
			return &s->flow[i];
	return NULL;
}

/* One round of src's monitor towards dst's ToR; applies a move. */
static inline int round_of(struct sim *s, uint32_t src, uint32_t dst,
			   double delta, struct dard_move *m)
{
	struct dard_pstate pv[PATHS_MAX];
	uint32_t fv[PATHS_MAX], dtor = dard_topo_tor(s->t, dst);
	unsigned n = monitor(s, src, dst, pv, fv);
	struct flow *pick;
	struct plist l;

	paths(s, src, dst, &l);
	assert_int_equal(l.n, n);
	pick = links_aware ? round_links(s, src, dtor, pv, &l, delta, m)
			   : round_plain(s, src, dtor, pv, fv, n, delta, m);
	if (!pick)
		return 0;
	if (pick->path != m->from)
		fail_msg("no flow of ours on path %u, which had fv > 0",
			 m->from);
	/* As dardd: a neutral move keeps the rate by design. */
	pick->moved_rate = m->neutral ? 0 : pick->rate;
	pick->path = m->to;
	pick->moves++;
	pick->neutral += m->neutral;
	pick->moved_est = m->count_est;
	pick->moved_at = round_now;
	sim_links(s);
	return 1;
}

#endif /* _DARD_TEST_SCHED_FIX_H */
