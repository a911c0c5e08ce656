// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The flow-level simulation: arrivals, max-min rates, completions, moves. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "flowsim.h"
#include "maxmin.h"
#include "monitor.h"
#include "rng.h"

enum { LINKS_MAX = 2 * DARD_LEVEL_MAX + 2 };

struct mon;

struct flow {
	size_t id;
	double start; /* s */
	uint32_t src, dst;
	double left; /* Mbit */
	double rate; /* Mbit/s */
	struct dard_path path;
	uint32_t links[LINKS_MAX]; /* directed, host links included */
	unsigned nlinks;
	int elephant;
	struct mon *mon;
	int pidx; /* index among mon's paths */
};

struct mon {
	uint32_t host, dst_tor;
	struct dard_monitor *m;
	double next_round;
	unsigned nflows;
	struct mon *next;
};

struct sim {
	const struct dard_topo *t;
	const struct dard_sim_opts *o;
	struct dard_pathctx *pc;
	double *cap;
	struct dard_lstate *ls;
	uint64_t *when;
	struct flow **act;
	size_t nact;
	struct dard_mm_flow *mm;
	double *rates;
	struct mon *mons;
	uint64_t rng;
	double now;
	int dirty; /* rates must be recomputed */
};

static uint64_t rnd(struct sim *s)
{
	return dard_xorshift64s(&s->rng);
}

/* splitmix64 over the seed and a flow's number. */
static uint64_t flow_hash(uint64_t seed, uint64_t id)
{
	return dard_mix64(seed * 0x9e3779b97f4a7c15ULL + id + 1);
}

static double urand(struct sim *s)
{
	return (rnd(s) >> 11) * (1.0 / 9007199254740992.0);
}

void dard_sim_opts_init(struct dard_sim_opts *o)
{
	o->sched = DARD_SIM_DARD;
	o->elephant_age = 10;
	o->query = 1;
	o->schedule = 5;
	o->delta = 10;
	o->pvlb = 10;
	o->seed = 1;
}

static const char *const sched_names[] = {"ecmp", "pvlb", "dard"};

const char *dard_sim_sched_name(int sched)
{
	return sched >= 0 && sched <= DARD_SIM_DARD ? sched_names[sched] : "?";
}

int dard_sim_sched_parse(const char *s)
{
	int i;

	for (i = 0; i <= DARD_SIM_DARD; i++)
		if (!strcmp(s, sched_names[i]))
			return i;
	return -1;
}

/* A flow's links: host up, the switch-to-switch ones, host down. */
static void set_path(struct sim *s, struct flow *f, const struct dard_path *p)
{
	uint32_t l[LINKS_MAX];
	unsigned n = dard_path_links(s->t, p, l);

	f->path = *p;
	f->nlinks = 0;
	f->links[f->nlinks++] = dard_dlink(l[0], DARD_UP);
	f->nlinks += dard_path_dlinks(s->t, p, f->links + f->nlinks);
	f->links[f->nlinks++] = dard_dlink(l[n - 1], DARD_DOWN);
	s->dirty = 1;
}

struct nth {
	long want, seen;
	struct dard_path p;
};

static int nth_cb(const struct dard_path *p, void *arg)
{
	struct nth *k = arg;

	if (k->seen++ != k->want)
		return 0;
	k->p = *p;
	return 1;
}

/* Path number k (mod their count) from src to dst. */
static int pick_path(struct sim *s, struct flow *f, uint64_t k)
{
	long n = dard_path_count(s->pc, f->src, f->dst);
	struct nth x = {0};

	if (n <= 0)
		return -ENOENT;
	x.want = k % n;
	dard_path_foreach(s->pc, f->src, f->dst, nth_cb, &x);
	set_path(s, f, &x.p);
	return 0;
}

static void rates(struct sim *s)
{
	size_t i;

	if (!s->dirty)
		return;
	for (i = 0; i < s->nact; i++) {
		s->mm[i].links = s->act[i]->links;
		s->mm[i].nlinks = s->act[i]->nlinks;
	}
	dard_maxmin(s->cap, 2 * s->t->nlinks, s->mm, s->nact, s->rates);
	for (i = 0; i < s->nact; i++)
		s->act[i]->rate = s->rates[i];
	s->dirty = 0;
}

/* The switches' answer to every query: elephants per directed link. */
static void query(struct sim *s)
{
	uint32_t l;
	size_t i;
	unsigned k;

	for (l = 0; l < 2 * s->t->nlinks; l++) {
		s->ls[l].flows = 0;
		s->ls[l].mbps = s->cap[l];
		s->ls[l].known = 1;
	}
	for (i = 0; i < s->nact; i++)
		if (s->act[i]->elephant)
			for (k = 0; k < s->act[i]->nlinks; k++)
				s->ls[s->act[i]->links[k]].flows++;
}

static struct mon *mon_get(struct sim *s, uint32_t host, uint32_t dst_tor)
{
	char err[DARD_ERR_MAX];
	struct mon *m;

	for (m = s->mons; m; m = m->next)
		if (m->host == host && m->dst_tor == dst_tor)
			return m;
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->m = dard_monitor_new(s->pc, s->t, host, dst_tor, err);
	if (!m->m) {
		free(m);
		return NULL;
	}
	m->host = host;
	m->dst_tor = dst_tor;
	m->next_round = s->now + s->o->schedule + urand(s) * s->o->schedule;
	m->next = s->mons;
	s->mons = m;
	return m;
}

static void mon_free(struct mon *m)
{
	dard_monitor_free(m->m);
	free(m);
}

static void mon_put(struct sim *s, struct mon *m)
{
	struct mon **pp;

	if (--m->nflows)
		return;
	for (pp = &s->mons; *pp != m; pp = &(*pp)->next)
		;
	*pp = m->next;
	mon_free(m);
}

/* A flow old enough becomes an elephant and joins its ToR pair's monitor. */
static void promote(struct sim *s, struct flow *f)
{
	uint32_t dtor;

	/* The event came at start + age: compare the same sum. */
	if (f->elephant || f->start + s->o->elephant_age > s->now)
		return;
	dtor = dard_topo_tor(s->t, f->dst);
	f->elephant = 1;
	if (s->o->sched != DARD_SIM_DARD || dtor == dard_topo_tor(s->t, f->src))
		return;
	f->mon = mon_get(s, f->src, dtor);
	if (!f->mon)
		return;
	f->mon->nflows++;
	f->pidx = dard_monitor_path_index(f->mon->m, &f->path);
}

/* One round of a monitor: dardd's round on the last query's states. */
static void round_of(struct sim *s, struct mon *m, struct dard_sim_flow *out)
{
	struct flow *pick = NULL;
	struct dard_move mv;
	size_t j;

	m->next_round = s->now + s->o->schedule + urand(s) * s->o->schedule;
	dard_monitor_pv(m->m, s->ls, s->when, 1, UINT64_MAX, m->m->pv);
	memset(m->m->fv, 0, m->m->npaths * sizeof(*m->m->fv));
	for (j = 0; j < s->nact; j++)
		if (s->act[j]->mon == m && s->act[j]->pidx >= 0)
			m->m->fv[s->act[j]->pidx]++;
	if (!dard_sched_round_links(s->ls, m->m->links, m->m->pv, m->m->fv,
				    m->m->npaths, s->o->delta, &mv))
		return;
	for (j = 0; j < s->nact; j++) {
		struct flow *f = s->act[j];

		if (f->mon == m && f->pidx == (int)mv.from &&
		    (!pick || out[f->id].moves < out[pick->id].moves))
			pick = f;
	}
	if (!pick)
		return;
	/* The monitor's path, with this flow's own hosts at the ends. */
	{
		struct dard_path p = pick->path;
		const struct dard_mon_path *mp = &m->m->path[mv.to];

		p.nsw = mp->nsw;
		memcpy(p.sw, mp->sw, mp->nsw * sizeof(p.sw[0]));
		set_path(s, pick, &p);
	}
	/* As dardd does: the move counted at once in its own picture. */
	dard_lstate_move(s->ls, &m->m->links[mv.from], &m->m->links[mv.to]);
	pick->pidx = mv.to;
	out[pick->id].moves++;
}

int dard_sim_run(const struct dard_topo *t, const struct dard_plan *p,
		 const struct dard_tflow *flows, size_t n,
		 const struct dard_sim_opts *o, struct dard_sim_flow *out,
		 char *err)
{
	struct sim s = {.t = t, .o = o, .rng = o->seed * 2 + 1};
	double next_query = 0, next_pvlb = o->pvlb;
	struct flow *all = calloc(n ? n : 1, sizeof(*all));
	size_t next = 0, i, done = 0;
	uint32_t l;
	int ret = -ENOMEM;

	s.pc = dard_pathctx_new(t, p);
	s.cap = malloc(2 * (size_t)t->nlinks * sizeof(*s.cap));
	s.ls = calloc(2 * (size_t)t->nlinks, sizeof(*s.ls));
	s.when = calloc(2 * (size_t)t->nlinks, sizeof(*s.when));
	s.act = calloc(n ? n : 1, sizeof(*s.act));
	s.mm = calloc(n ? n : 1, sizeof(*s.mm));
	s.rates = calloc(n ? n : 1, sizeof(*s.rates));
	if (!all || !s.pc || !s.cap || !s.ls || !s.when || !s.act || !s.mm ||
	    !s.rates) {
		dard_fail(err, ret, "out of memory");
		goto out;
	}
	/* Every state is from the last query: all equally fresh. */
	for (l = 0; l < 2 * t->nlinks; l++) {
		s.cap[l] = t->link[l / 2].mbps;
		s.when[l] = 1;
	}
	for (i = 0; i < n; i++) {
		out[i].start = flows[i].start;
		out[i].end = -1;
		out[i].moves = 0;
	}
	while (done < n) {
		double when = HUGE_VAL, dt;
		struct flow *first = NULL;
		struct mon *m;

		rates(&s);
		/* The next event of any kind. */
		if (next < n)
			when = flows[next].start;
		for (i = 0; i < s.nact; i++) {
			struct flow *f = s.act[i];
			double end = f->rate > 0 ? s.now + f->left / f->rate
						 : HUGE_VAL;

			if (end < when) {
				when = end;
				first = f;
			}
			if (!f->elephant && f->start + o->elephant_age < when) {
				when = f->start + o->elephant_age;
				first = NULL;
			}
		}
		if (o->sched == DARD_SIM_DARD) {
			if (next_query < when) {
				when = next_query;
				first = NULL;
			}
			for (m = s.mons; m; m = m->next)
				if (m->next_round < when) {
					when = m->next_round;
					first = NULL;
				}
		}
		if (o->sched == DARD_SIM_PVLB && next_pvlb < s.now)
			next_pvlb = s.now + o->pvlb; /* idle meanwhile */
		if (o->sched == DARD_SIM_PVLB && s.nact && next_pvlb < when) {
			when = next_pvlb;
			first = NULL;
		}
		if (isinf(when)) {
			ret = dard_fail(err, -EIO, "flows left with no rate");
			goto out;
		}
		/* Every active flow moves on at its rate until then. */
		dt = when - s.now;
		for (i = 0; i < s.nact; i++)
			s.act[i]->left -= s.act[i]->rate * dt;
		s.now = when;
		/* Completions (all that are due, not only the first). */
		for (i = 0; i < s.nact;) {
			struct flow *f = s.act[i];

			if (f != first && f->left > 1e-9 * (1 + f->rate)) {
				i++;
				continue;
			}
			out[f->id].end = s.now;
			if (f->mon)
				mon_put(&s, f->mon);
			s.act[i] = s.act[--s.nact];
			s.dirty = 1;
			done++;
		}
		/* Arrivals. */
		while (next < n && flows[next].start <= s.now) {
			struct flow *f = &all[next];

			f->id = next;
			f->start = flows[next].start;
			f->src = flows[next].src;
			f->dst = flows[next].dst;
			f->left = flows[next].bytes * 8.0 / 1e6;
			f->pidx = -1;
			/* ECMP's hash: the seed and the flow only, so every
			 * scheduler starts from the same placement. */
			if (pick_path(&s, f, flow_hash(o->seed, next))) {
				ret = dard_fail(err, -ENOENT,
						"no path for flow %zu", next);
				goto out;
			}
			s.act[s.nact++] = f;
			next++;
		}
		for (i = 0; i < s.nact; i++)
			promote(&s, s.act[i]);
		if (o->sched == DARD_SIM_PVLB && s.now >= next_pvlb) {
			next_pvlb += o->pvlb;
			for (i = 0; i < s.nact; i++) {
				struct dard_path before = s.act[i]->path;

				pick_path(&s, s.act[i], rnd(&s));
				if (memcmp(before.sw, s.act[i]->path.sw,
					   sizeof(before.sw)))
					out[s.act[i]->id].moves++;
			}
		}
		if (o->sched == DARD_SIM_DARD) {
			if (s.now >= next_query) {
				next_query += o->query;
				query(&s);
			}
			for (m = s.mons; m; m = m->next)
				if (m->next_round <= s.now)
					round_of(&s, m, out);
		}
	}
	ret = 0;
out:
	while (s.mons) {
		struct mon *m = s.mons;

		s.mons = m->next;
		mon_free(m);
	}
	dard_pathctx_free(s.pc);
	free(s.cap);
	free(s.ls);
	free(s.when);
	free(s.act);
	free(s.mm);
	free(s.rates);
	free(all);
	return ret;
}
