// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The flow-level simulation: arrivals, max-min rates, completions, moves. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "flowsim.h"
#include "hedera.h"
#include "maxmin.h"
#include "monitor.h"
#include "rng.h"
#include "route.h"

enum { LINKS_MAX = 2 * DARD_LEVEL_MAX + 2 };

/*
 * The shortest paths between two ToRs, in dard_path_foreach's order (the
 * order of a monitor's paths too), as rows of switches and of directed
 * switch-to-switch links. Flows of every host pair under the two ToRs
 * share it; a flow is its row.
 */
struct pset {
	uint32_t stor, dtor;
	uint32_t npaths;
	uint8_t nsw, ndl;
	uint32_t *sw, *dl;
};

struct mon;

struct flow {
	size_t id;
	double start; /* s */
	uint32_t src, dst;
	uint32_t up, down; /* the hosts' directed links */
	double left;	   /* Mbit */
	double rate;	   /* Mbit/s */
	double next_pvlb;  /* s */
	const struct pset *ps;
	uint32_t row;
	uint32_t links[LINKS_MAX]; /* directed, host links included */
	unsigned nlinks;
	int elephant;
	struct mon *mon;
	struct flow *mnext; /* the monitor's elephants */
};

struct mon {
	uint32_t host;
	struct dard_monitor *m;
	double next_round;
	struct flow *flows;
	struct mon *next, **pprev; /* all monitors, unlinked in O(1) */
	struct mon *hnext;	   /* the host's */
};

struct sim {
	const struct dard_topo *t;
	const struct dard_sim_opts *o;
	struct dard_sim_stats *st;
	struct dard_pathctx *pc;
	double *cap;
	struct dard_lstate *ls;
	uint64_t *when;
	struct flow **act;
	size_t nact;
	struct dard_mm_flow *mm;
	double *rates;
	struct pset **ps; /* open addressing on the ToR pair */
	size_t nps, ps_cap;
	struct mon *mons, **hmon; /* hmon: per node */
	uint64_t *asked, stamp;	  /* per node: the query that asked it */
	struct dard_hedera *hedera;
	uint64_t rng;
	double now;
	int dirty; /* rates must be recomputed */
	char *err;
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
	return dard_urand(&s->rng);
}

void dard_sim_opts_init(struct dard_sim_opts *o)
{
	o->sched = DARD_SIM_DARD;
	o->elephant_age = 10;
	o->query = 1;
	o->schedule = 5;
	o->delta = 10;
	o->pvlb = 10;
	o->central = 5;
	o->anneal = 0;
	o->large = 0.1;
	o->step = 0;
	o->seed = 1;
}

static const char *const sched_names[DARD_SIM_NSCHED] = {
	"ecmp", "pvlb", "dard", "hedera", "sdn-greedy", "sdn-optimal",
};

const char *dard_sim_sched_name(int sched)
{
	return sched >= 0 && sched < DARD_SIM_NSCHED ? sched_names[sched] : "?";
}

int dard_sim_sched_parse(const char *s)
{
	int i;

	for (i = 0; i < DARD_SIM_NSCHED; i++)
		if (!strcmp(s, sched_names[i]))
			return i;
	return -1;
}

static void pset_free(struct pset *p)
{
	if (!p)
		return;
	free(p->sw);
	free(p->dl);
	free(p);
}

struct fill {
	const struct dard_topo *t;
	struct pset *p;
	uint32_t k;
};

static int fill_cb(const struct dard_path *path, void *arg)
{
	struct fill *x = arg;
	struct pset *p = x->p;

	memcpy(&p->sw[x->k * p->nsw], path->sw, p->nsw * sizeof(p->sw[0]));
	dard_path_dlinks(x->t, path, &p->dl[x->k * p->ndl]);
	x->k++;
	return 0;
}

static size_t pset_slot(const struct sim *s, uint32_t stor, uint32_t dtor)
{
	size_t i = dard_mix64((uint64_t)stor << 32 | dtor) & (s->ps_cap - 1);

	while (s->ps[i] && (s->ps[i]->stor != stor || s->ps[i]->dtor != dtor))
		i = (i + 1) & (s->ps_cap - 1);
	return i;
}

static int first_cb(const struct dard_path *path, void *arg)
{
	*(struct dard_path *)arg = *path;
	return 1;
}

/* Grows the table to keep it at most half full. */
static int pset_grow(struct sim *s)
{
	struct pset **old = s->ps;
	size_t oc = s->ps_cap, i;

	if (2 * (s->nps + 1) <= oc)
		return 0;
	s->ps_cap = oc ? 2 * oc : 1024;
	s->ps = calloc(s->ps_cap, sizeof(*s->ps));
	if (!s->ps) {
		s->ps = old;
		s->ps_cap = oc;
		return -ENOMEM;
	}
	for (i = 0; i < oc; i++)
		if (old[i])
			s->ps[pset_slot(s, old[i]->stor, old[i]->dtor)] =
				old[i];
	free(old);
	return 0;
}

/*
 * The paths from src's ToR to dst's into *out, built the first time.
 * 0, -ENOENT when there is none, or -ENOMEM.
 */
static int pset_get(struct sim *s, uint32_t src, uint32_t dst,
		    const struct pset **out)
{
	uint32_t stor = dard_topo_tor(s->t, src),
		 dtor = dard_topo_tor(s->t, dst);
	struct dard_path first;
	struct fill x = {.t = s->t};
	struct pset *p;
	size_t i;
	long n = 1;

	if (pset_grow(s))
		return -ENOMEM;
	i = pset_slot(s, stor, dtor);
	if (s->ps[i]) {
		*out = s->ps[i];
		return 0;
	}
	if (stor == dtor) {
		/* One way, through the ToR, over no switch-to-switch link. */
		first.nsw = 1;
		first.sw[0] = stor;
	} else if (dard_path_foreach(s->pc, src, dst, first_cb, &first) != 1) {
		return -ENOENT;
	} else {
		n = dard_path_count(s->pc, src, dst);
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->stor = stor;
	p->dtor = dtor;
	p->npaths = n;
	/* Shortest paths between two ToRs all turn at one level. */
	p->nsw = first.nsw;
	p->ndl = first.nsw - 1;
	p->sw = malloc(n * p->nsw * sizeof(*p->sw));
	p->dl = malloc((n * p->ndl + 1) * sizeof(*p->dl));
	if (!p->sw || !p->dl) {
		pset_free(p);
		return -ENOMEM;
	}
	if (stor == dtor) {
		p->sw[0] = stor;
	} else {
		x.p = p;
		dard_path_foreach(s->pc, src, dst, fill_cb, &x);
	}
	s->ps[i] = p;
	s->nps++;
	*out = p;
	return 0;
}

/* A flow's links: host up, the row's switch-to-switch ones, host down. */
static void set_row(struct sim *s, struct flow *f, uint32_t row)
{
	const struct pset *p = f->ps;

	f->row = row;
	f->nlinks = 0;
	f->links[f->nlinks++] = f->up;
	memcpy(&f->links[1], &p->dl[(size_t)row * p->ndl],
	       p->ndl * sizeof(f->links[0]));
	f->nlinks += p->ndl;
	f->links[f->nlinks++] = f->down;
	s->dirty = 1;
}

/* The row of a path found by a routing algorithm. */
static int find_row(const struct pset *p, const struct dard_path *path)
{
	uint32_t k;

	if (path->nsw != p->nsw)
		return -1;
	for (k = 0; k < p->npaths; k++)
		if (!memcmp(&p->sw[(size_t)k * p->nsw], path->sw,
			    p->nsw * sizeof(p->sw[0])))
			return k;
	return -1;
}

/* Moves a flow to another row, counting the switch. */
static void move(struct sim *s, struct flow *f, uint32_t row,
		 struct dard_sim_flow *out)
{
	if (row == f->row)
		return;
	set_row(s, f, row);
	out[f->id].moves++;
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
	struct mon *m;
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
	m->next_round = s->now + s->o->schedule + urand(s) * s->o->schedule;
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

/* A flow old enough becomes an elephant and joins its ToR pair's monitor. */
static int promote(struct sim *s, struct flow *f)
{
	/* The event came at start + age: compare the same sum. */
	if (f->elephant || f->start + s->o->elephant_age > s->now)
		return 0;
	f->elephant = 1;
	s->st->elephants++;
	if (s->o->sched != DARD_SIM_DARD || f->ps->stor == f->ps->dtor)
		return 0;
	f->mon = mon_get(s, f);
	if (!f->mon)
		return -EIO;
	f->mnext = f->mon->flows;
	f->mon->flows = f;
	return 0;
}

/* One round of a monitor: dardd's round on the last query's states. */
static void round_of(struct sim *s, struct mon *m, struct dard_sim_flow *out)
{
	struct flow *f, *pick = NULL;
	struct dard_move mv;

	m->next_round = s->now + s->o->schedule + urand(s) * s->o->schedule;
	dard_monitor_pv(m->m, s->ls, s->when, 1, UINT64_MAX, m->m->pv);
	memset(m->m->fv, 0, m->m->npaths * sizeof(*m->m->fv));
	for (f = m->flows; f; f = f->mnext)
		m->m->fv[f->row]++;
	if (!dard_sched_round_links(s->ls, m->m->links, m->m->pv, m->m->fv,
				    m->m->npaths, s->o->delta, &mv))
		return;
	for (f = m->flows; f; f = f->mnext)
		if (f->row == mv.from &&
		    (!pick || out[f->id].moves < out[pick->id].moves))
			pick = f;
	if (!pick)
		return;
	move(s, pick, mv.to, out);
	/* As dardd does: the move counted at once in its own picture. */
	dard_lstate_move(s->ls, &m->m->links[mv.from], &m->m->links[mv.to]);
}

/* The controller writes a new path into its switches, and the flow moves. */
static void place(struct sim *s, struct flow *f, uint32_t row,
		  struct dard_sim_flow *out)
{
	if (row != f->row)
		s->st->ctl_bytes += f->ps->nsw * (double)DARD_SIM_UPDATE_BYTES;
	move(s, f, row, out);
}

static int by_id(const void *a, const void *b)
{
	size_t x = (*(struct flow *const *)a)->id;
	size_t y = (*(struct flow *const *)b)->id;

	return (x > y) - (x < y);
}

/*
 * A centralized round: the ToRs report their elephants, the controller
 * places them all again, in the order they arrived, and writes the paths
 * that changed.
 */
static int central(struct sim *s, struct dard_sim_flow *out)
{
	struct dard_hedera_flow *hf = NULL;
	struct dard_demand *d = NULL;
	struct dard_path *paths = NULL;
	struct flow **e = NULL;
	uint32_t *load = NULL;
	size_t n = 0, i;
	int ret = -ENOMEM;

	e = calloc(s->nact ? s->nact : 1, sizeof(*e));
	if (!e)
		goto out;
	/*
	 * What the edge switches report: Hedera's large flows, at least a
	 * tenth of the host link's rate (its section 4.1), and every flow
	 * old enough to be an elephant; with large at 1, the elephants only.
	 */
	for (i = 0; i < s->nact; i++) {
		struct flow *f = s->act[i];

		if (f->elephant ||
		    (s->o->large < 1 &&
		     f->rate >= s->o->large * s->cap[f->links[0]]))
			e[n++] = f;
	}
	qsort(e, n, sizeof(*e), by_id);
	s->st->ctl_bytes += n * (double)DARD_SIM_REPORT_BYTES;
	if (s->o->sched == DARD_SIM_HEDERA) {
		hf = calloc(n ? n : 1, sizeof(*hf));
		if (!hf)
			goto out;
		for (i = 0; i < n; i++) {
			hf[i].src = e[i]->src;
			hf[i].dst = e[i]->dst;
			hf[i].c = (struct dard_cands){
				e[i]->ps->dl, e[i]->ps->npaths, e[i]->ps->ndl};
		}
		ret = dard_hedera_demand(s->t, s->cap, hf, n);
		if (!ret)
			ret = dard_hedera_anneal(s->hedera, s->cap, hf, n,
						 s->o->anneal, NULL);
		if (ret)
			goto out;
		for (i = 0; i < n; i++)
			place(s, e[i], hf[i].row, out);
		ret = 0;
		goto out;
	}
	if (s->o->sched == DARD_SIM_GREEDY) {
		struct dard_cands *c = calloc(n ? n : 1, sizeof(*c));
		uint32_t *row = calloc(n ? n : 1, sizeof(*row));

		load = calloc(2 * (size_t)s->t->nlinks, sizeof(*load));
		if (!c || !row || !load) {
			free(c);
			free(row);
			goto out;
		}
		for (i = 0; i < n; i++)
			c[i] = (struct dard_cands){
				e[i]->ps->dl, e[i]->ps->npaths, e[i]->ps->ndl};
		dard_route_greedy_rows(c, n, load, row);
		for (i = 0; i < n; i++)
			place(s, e[i], row[i], out);
		free(c);
		free(row);
		ret = 0;
		goto out;
	}
	d = calloc(n ? n : 1, sizeof(*d));
	paths = calloc(n ? n : 1, sizeof(*paths));
	if (!d || !paths)
		goto out;
	for (i = 0; i < n; i++) {
		d[i].src = e[i]->src;
		d[i].dst = e[i]->dst;
	}
	ret = dard_route_optimal(s->pc, s->t, d, n, paths, s->err);
	if (ret)
		goto out;
	for (i = 0; i < n; i++) {
		int row = find_row(e[i]->ps, &paths[i]);

		if (row < 0) {
			ret = dard_fail(
				s->err, -EIO,
				"sdn-optimal placed a flow off its paths");
			goto out;
		}
		place(s, e[i], row, out);
	}
out:
	if (ret == -ENOMEM)
		dard_fail(s->err, ret, "out of memory");
	free(hf);
	free(d);
	free(paths);
	free(load);
	free(e);
	return ret;
}

/* The next time anything happens in the exact mode. */
static double next_event(struct sim *s, double when, double next_query,
			 double next_central)
{
	const struct dard_sim_opts *o = s->o;
	struct mon *m;
	size_t i;

	for (i = 0; i < s->nact; i++) {
		struct flow *f = s->act[i];

		if (f->rate > 0)
			when = fmin(when, s->now + f->left / f->rate);
		if (!f->elephant)
			when = fmin(when, f->start + o->elephant_age);
		if (o->sched == DARD_SIM_PVLB)
			when = fmin(when, f->next_pvlb);
	}
	if (o->sched == DARD_SIM_DARD) {
		when = fmin(when, next_query);
		for (m = s->mons; m; m = m->next)
			when = fmin(when, m->next_round);
	}
	if (o->sched >= DARD_SIM_HEDERA && s->nact)
		when = fmin(when, next_central);
	return when;
}

int dard_sim_run(const struct dard_topo *t, const struct dard_plan *p,
		 const struct dard_tflow *flows, size_t n,
		 const struct dard_sim_opts *o, struct dard_sim_flow *out,
		 struct dard_sim_stats *st, char *err)
{
	struct dard_sim_stats dummy;
	struct sim s = {.t = t, .o = o, .rng = o->seed * 2 + 1, .err = err};
	double next_query = 0, next_central = o->central;
	struct flow *all = calloc(n ? n : 1, sizeof(*all));
	size_t next = 0, i, done = 0;
	uint32_t l;
	int ret = -ENOMEM;

	s.st = st ? st : &dummy;
	memset(s.st, 0, sizeof(*s.st));
	*err = 0;
	/* Written to refuse NaN: a zero interval would never move on. */
	if (!(o->query > 0 && o->schedule > 0 && o->pvlb > 0 &&
	      o->central > 0 && o->step >= 0 && o->elephant_age >= 0 &&
	      o->large >= 0 && o->delta >= 0) ||
	    o->sched < 0 || o->sched >= DARD_SIM_NSCHED) {
		free(all);
		return dard_fail(err, -EINVAL, "bad simulation options");
	}
	s.pc = dard_pathctx_new(t, p);
	s.cap = malloc(2 * (size_t)t->nlinks * sizeof(*s.cap));
	s.ls = calloc(2 * (size_t)t->nlinks, sizeof(*s.ls));
	s.when = calloc(2 * (size_t)t->nlinks, sizeof(*s.when));
	s.act = calloc(n ? n : 1, sizeof(*s.act));
	s.mm = calloc(n ? n : 1, sizeof(*s.mm));
	s.rates = calloc(n ? n : 1, sizeof(*s.rates));
	s.hmon = calloc(t->nnodes, sizeof(*s.hmon));
	s.asked = calloc(t->nnodes, sizeof(*s.asked));
	if (o->sched == DARD_SIM_HEDERA)
		s.hedera = dard_hedera_new(t, o->seed);
	if (!all || !s.pc || !s.cap || !s.ls || !s.when || !s.act || !s.mm ||
	    !s.rates || !s.hmon || !s.asked ||
	    (o->sched == DARD_SIM_HEDERA && !s.hedera)) {
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
		double when = next < n ? flows[next].start : HUGE_VAL, dt;
		struct mon *m;

		rates(&s);
		if (o->step > 0)
			/* The next step, or the step of the next arrival. */
			when = s.nact ? s.now + o->step
				      : fmax(s.now + o->step,
					     o->step * ceil(when / o->step));
		else
			when = next_event(&s, when, next_query, next_central);
		if (isinf(when)) {
			ret = dard_fail(err, -EIO, "flows left with no rate");
			goto out;
		}
		/* Every active flow moves on at its rate; some finish. */
		dt = when - s.now;
		for (i = 0; i < s.nact;) {
			struct flow *f = s.act[i];

			/*
			 * Done by `when' if its end, computed as next_event
			 * computes it, is. Comparing the bits left against
			 * a tolerance stalls once now's ulp outgrows it.
			 */
			if (!(f->rate > 0) ||
			    s.now + f->left / f->rate > when) {
				f->left -= f->rate * dt;
				i++;
				continue;
			}
			out[f->id].end = s.now + f->left / f->rate;
			s.st->end = fmax(s.st->end, out[f->id].end);
			if (f->mon)
				mon_leave(&s, f);
			s.act[i] = s.act[--s.nact];
			s.dirty = 1;
			done++;
		}
		s.now = when;
		/* Arrivals. */
		while (next < n && flows[next].start <= s.now) {
			struct flow *f = &all[next];

			f->id = next;
			f->start = flows[next].start;
			f->src = flows[next].src;
			f->dst = flows[next].dst;
			f->up = dard_host_dlink(t, f->src, DARD_UP);
			f->down = dard_host_dlink(t, f->dst, DARD_DOWN);
			f->left = flows[next].bytes * 8.0 / 1e6;
			f->next_pvlb = f->start + o->pvlb;
			ret = pset_get(&s, f->src, f->dst, &f->ps);
			if (ret) {
				if (ret == -ENOENT)
					dard_fail(err, ret,
						  "no path for flow %zu", next);
				else
					dard_fail(err, ret, "out of memory");
				goto out;
			}
			/* ECMP's hash: the seed and the flow only, so every
			 * scheduler starts from the same placement. */
			set_row(&s, f,
				flow_hash(o->seed, next) % f->ps->npaths);
			s.act[s.nact++] = f;
			next++;
		}
		for (i = 0; i < s.nact; i++) {
			ret = promote(&s, s.act[i]);
			if (ret) {
				/* Monitors explain their failures. */
				if (!*err)
					dard_fail(err, ret, "out of memory");
				goto out;
			}
		}
		if (o->sched == DARD_SIM_PVLB)
			for (i = 0; i < s.nact; i++) {
				struct flow *f = s.act[i];

				if (f->next_pvlb > s.now)
					continue;
				f->next_pvlb += o->pvlb;
				move(&s, f, rnd(&s) % f->ps->npaths, out);
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
		if (o->sched >= DARD_SIM_HEDERA && s.now >= next_central) {
			next_central += o->central;
			ret = central(&s, out);
			if (ret)
				goto out;
		}
		/* Idle schedulers wait for the next flow. */
		if (!s.nact) {
			next_query = fmax(next_query, s.now);
			next_central = fmax(next_central, s.now + o->central);
		}
	}
	ret = 0;
out:
	while (s.mons) {
		struct mon *m = s.mons;

		s.mons = m->next;
		mon_free(m);
	}
	for (i = 0; i < s.ps_cap; i++)
		pset_free(s.ps[i]);
	free(s.ps);
	dard_hedera_free(s.hedera);
	dard_pathctx_free(s.pc);
	free(s.cap);
	free(s.ls);
	free(s.when);
	free(s.act);
	free(s.mm);
	free(s.rates);
	free(s.hmon);
	free(s.asked);
	free(all);
	return ret;
}
