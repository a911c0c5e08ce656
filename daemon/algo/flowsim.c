// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The flow-level simulation's engine: arrivals, max-min rates, completions
 * and moves, with the scheduler's hooks (flowsim_int.h) between; DARD's
 * monitors and rounds are here too.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <linux/dard.h>
#include <linux/dard_policy.h>

#include "err.h"
#include "flowsim_int.h"
#include "rng.h"

uint64_t flowsim_rnd(struct sim *s)
{
	return dard_xorshift64s(&s->rng);
}

/* splitmix64 over the seed and a flow's number. */
static uint64_t flow_hash(uint64_t seed, uint64_t id)
{
	return dard_mix64(seed * 0x9e3779b97f4a7c15ULL + id + 1);
}

void dard_sim_opts_init(struct dard_sim_opts *o)
{
	o->sched = DARD_SIM_DARD;
	/* The scheduler's mode decides (sim_mode). */
	o->elephant_age = -1;
	o->elephant_bytes = -1;
	o->query = -1;
	o->schedule = -1;
	o->delta = -1;
	o->quiet = -1;
	o->sleep = -1;
	o->busy = -1;
	o->escape = -1;
	o->watch = -1;
	o->min_share = -1;
	o->stale = 1;
	o->pvlb = 10;
	o->central = 5;
	o->anneal = 0;
	o->large = 0.1;
	o->step = 0;
	o->seed = 1;
	o->fail = NULL;
	o->nfail = 0;
	o->degrade = NULL;
	o->ndegrade = 0;
	o->converge = 0.2;
	o->rto = 0;
	o->refine = 4;
	o->keep = 0;
	o->share = 1;
	o->link = 0;
	o->goodput = 1;
	o->split = 1;
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

/* Moves a flow to another row, counting the switch. */
static void move(struct sim *s, struct flow *f, uint32_t row,
		 struct dard_sim_flow *out)
{
	if (row == f->row)
		return;
	set_row(s, f, row);
	out[f->id].moves++;
}

struct flow *flowsim_part_add(struct sim *s, struct flow *f, uint32_t row)
{
	struct flow *p = &s->parts[f->id * (s->split - 1) + f->nparts];

	/* Its bytes are its flow's: left, size and payload stay 0. */
	memset(p, 0, sizeof(*p));
	p->id = f->id;
	p->start = f->start;
	p->src = f->src;
	p->dst = f->dst;
	p->up = f->up;
	p->down = f->down;
	p->ps = f->ps;
	p->elephant = 1;
	p->dead_since = -1;
	p->moved_at = -HUGE_VAL;
	p->head = f;
	set_row(s, p, row);
	if (!f->nparts)
		f->part = p;
	f->nparts++;
	s->nparts++;
	s->act[s->nact++] = p;
	return p;
}

int flowsim_part_on(const struct flow *f, uint32_t row)
{
	const struct flow *h = f->head ? f->head : f;
	unsigned k;

	if (h->row == row)
		return 1;
	for (k = 0; k < h->nparts; k++)
		if (h->part[k].row == row)
			return 1;
	return 0;
}

/* The schedulers' moves (flowsim_dard.c's too). */
void flowsim_move(struct sim *s, struct flow *f, uint32_t row,
		  struct dard_sim_flow *out)
{
	move(s, f, row, out);
	/* Not a round's move (a round sets it after): nothing to judge. */
	f->moved_rate = f->moved_est = 0;
}

/* Max-min fairness over the flows' paths, or the scheduler's rates. */
static int rates(struct sim *s)
{
	size_t i;
	int ret;

	if (!s->dirty)
		return 0;
	if (s->sched->rates) {
		ret = s->sched->rates(s);
		if (ret)
			return ret;
	} else {
		for (i = 0; i < s->nact; i++) {
			s->mm[i].links = s->act[i]->links;
			s->mm[i].nlinks = s->act[i]->nlinks;
		}
		dard_maxmin(s->cap, 2 * s->t->nlinks, s->mm, s->nact, s->rates);
	}
	for (i = 0; i < s->nact; i++)
		s->act[i]->rate = s->act[i]->total = s->rates[i];
	/* A split flow runs at its parts' rates together. */
	for (i = 0; s->nparts && i < s->nact; i++)
		if (s->act[i]->head)
			s->act[i]->head->total += s->act[i]->rate;
	s->dirty = 0;
	return 0;
}

/*
 * The datapaths' rule (dard_is_elephant): old enough, with its payload
 * carried. Within a part in 10^9 of the payload, as next_event computes
 * the time it is reached and the flow's bits are counted down.
 */
static int payload_due(const struct flow *f)
{
	return f->size - f->left >= f->payload_min * (1 - 1e-9);
}

/*
 * A flow old enough that has carried the elephant payload becomes an
 * elephant, and its scheduler hears of it.
 */
static int promote(struct sim *s, struct flow *f)
{
	/* The event came at start + age: compare the same sum. */
	if (f->elephant || f->start + s->mode.elephant_age > s->now ||
	    !payload_due(f))
		return 0;
	f->elephant = 1;
	s->st->elephants++;
	return s->sched->elephant ? s->sched->elephant(s, f) : 0;
}

/* The controller writes a new path into its switches, and the flow moves. */
void flowsim_place(struct sim *s, struct flow *f, uint32_t row,
		   struct dard_sim_flow *out)
{
	if (row != f->row)
		s->st->ctl_bytes += f->ps->nsw * (double)DARD_SIM_UPDATE_BYTES;
	move(s, f, row, out);
}

/* The next time anything happens in the exact mode. */
static double next_event(struct sim *s, double when)
{
	size_t i;

	for (i = 0; i < s->nact; i++) {
		struct flow *f = s->act[i];

		/* A part: its flow's events are its flow's. */
		if (f->head)
			continue;
		if (f->total > 0)
			when = fmin(when, s->now + f->left / f->total);
		/* Split only once an elephant: total is rate below. */
		if (f->elephant)
			continue;
		if (f->start + s->mode.elephant_age > s->now)
			when = fmin(when, f->start + s->mode.elephant_age);
		else if (!payload_due(f) && f->rate > 0)
			when = fmin(when, s->now + (f->payload_min -
						    (f->size - f->left)) /
							   f->rate);
	}
	if (s->o->nfail)
		when = fmin(when, s->fail_due);
	return s->sched->next ? s->sched->next(s, when) : when;
}

/* The parts of the flows that ended leave the active set, in order. */
static void parts_drop(struct sim *s, const struct dard_sim_flow *out)
{
	size_t i, j = 0;

	for (i = 0; i < s->nact; i++)
		if (!s->act[i]->head || out[s->act[i]->id].end < 0)
			s->act[j++] = s->act[i];
	s->nparts -= s->nact - j;
	s->nact = j;
}

/* Every active flow moves on at its rate to `when'; some finish. */
static size_t advance(struct sim *s, double when, struct dard_sim_flow *out)
{
	double dt = when - s->now;
	size_t i, done = 0, parts = 0;
	unsigned k;

	for (i = 0; i < s->nact;) {
		struct flow *f = s->act[i];

		/* A part: its flow carries the bytes, and ends it. */
		if (f->head) {
			i++;
			continue;
		}
		/*
		 * Done by `when' if its end, computed as next_event
		 * computes it, is. Comparing the bits left against a
		 * tolerance stalls once now's ulp outgrows it.
		 */
		if (!(f->total > 0) || s->now + f->left / f->total > when) {
			f->left -= f->total * dt;
			if (!(f->total > 0))
				s->st->stalled += dt;
			i++;
			continue;
		}
		out[f->id].end = s->now + f->left / f->total;
		s->st->end = fmax(s->st->end, out[f->id].end);
		if (s->sched->finish) {
			s->sched->finish(s, f);
			for (k = 0; k < f->nparts; k++)
				s->sched->finish(s, &f->part[k]);
		}
		parts += f->nparts;
		s->act[i] = s->act[--s->nact];
		s->dirty = 1;
		done++;
	}
	if (parts)
		parts_drop(s, out);
	s->now = when;
	return done;
}

/* Flow id arrives, on ECMP's row. */
static int arrive(struct sim *s, const struct dard_tflow *tf, size_t id)
{
	struct flow *f = &s->all[id];
	int ret;

	f->id = id;
	f->start = tf->start;
	/* Never moved by a round: a failover's move starts no hold. */
	f->moved_at = -HUGE_VAL;
	f->src = tf->src;
	f->dst = tf->dst;
	f->up = dard_host_dlink(s->t, f->src, DARD_UP);
	f->down = dard_host_dlink(s->t, f->dst, DARD_DOWN);
	f->left = tf->bytes * 8.0 / 1e6;
	f->size = f->left;
	/* The payload its host's datapath waits for: by default a share of
	 * a second at its link's configured capacity, in Mbit. */
	if (s->o->elephant_bytes >= 0)
		f->payload_min = s->o->elephant_bytes * 8 / 1e6;
	else
		f->payload_min = (s->o->link > 0 ? s->o->link
						 : s->t->link[f->up / 2].mbps) *
				 DARD_ELEPHANT_SHARE_PCT / 100.0;
	if (s->sched->arrive)
		s->sched->arrive(s, f);
	ret = pset_get(s, f->src, f->dst, &f->ps);
	if (ret == -ENOENT)
		return dard_fail(s->err, ret, "no path for flow %zu", id);
	if (ret)
		return dard_fail(s->err, ret, "out of memory");
	/* ECMP's hash: the seed and the flow only, so every scheduler
	 * starts from the same placement. */
	set_row(s, f, flow_hash(s->o->seed, id) % f->ps->npaths);
	if (s->o->nfail)
		flowsim_fail_arrive(s, f);
	s->act[s->nact++] = f;
	return 0;
}

static void sim_fini(struct sim *s)
{
	size_t i;

	if (s->sched->fini)
		s->sched->fini(s);
	for (i = 0; i < s->ps_cap; i++)
		pset_free(s->ps[i]);
	free(s->ps);
	dard_pathctx_free(s->pc);
	free(s->cap);
	free(s->ls);
	free(s->when);
	free(s->act);
	free(s->parts);
	free(s->mm);
	free(s->rates);
	free(s->hmon);
	free(s->asked);
	free(s->all);
	flowsim_fail_fini(s);
}

/* Each degraded link one of t's, at a factor above 0, up to 1. */
static int degrade_ok(const struct sim *s)
{
	const struct dard_sim_opts *o = s->o;
	size_t i;

	for (i = 0; i < o->ndegrade; i++) {
		const struct dard_sim_degrade *d = &o->degrade[i];

		if (d->link >= s->t->nlinks || !(d->factor > 0) ||
		    !(d->factor <= 1))
			return dard_fail(s->err, -EINVAL,
					 "bad degraded link %zu: link %u at %g",
					 i, d->link, d->factor);
	}
	return 0;
}

static int sim_init(struct sim *s, const struct dard_plan *p, size_t n)
{
	const struct dard_topo *t = s->t;
	/* Room in the active set for every flow and its parts. */
	size_t na = (n ? n : 1) * s->split;
	uint32_t l;
	int ret;

	s->nflows = n;
	s->all = calloc(n ? n : 1, sizeof(*s->all));
	s->pc = dard_pathctx_new(t, p);
	s->cap = malloc(2 * (size_t)t->nlinks * sizeof(*s->cap));
	s->ls = calloc(2 * (size_t)t->nlinks, sizeof(*s->ls));
	s->when = calloc(2 * (size_t)t->nlinks, sizeof(*s->when));
	s->act = calloc(na, sizeof(*s->act));
	s->mm = calloc(na, sizeof(*s->mm));
	s->rates = calloc(na, sizeof(*s->rates));
	s->hmon = calloc(t->nnodes, sizeof(*s->hmon));
	s->asked = calloc(t->nnodes, sizeof(*s->asked));
	if (s->split > 1)
		s->parts =
			calloc((n ? n : 1) * (s->split - 1), sizeof(*s->parts));
	if (!s->all || !s->pc || !s->cap || !s->ls || !s->when || !s->act ||
	    !s->mm || !s->rates || !s->hmon || !s->asked ||
	    (s->split > 1 && !s->parts))
		return dard_fail(s->err, -ENOMEM, "out of memory");
	ret = degrade_ok(s);
	if (ret)
		return ret;
	/* Every state is from the last query: all equally fresh. */
	for (l = 0; l < 2 * t->nlinks; l++) {
		s->cap[l] = flowsim_mbps(t, s->o, l / 2);
		s->when[l] = 1;
	}
	/* A scheduler may build on the capacities (bound's OPT). */
	if (s->sched->init) {
		ret = s->sched->init(s);
		if (ret)
			return ret;
	}
	return s->o->nfail ? flowsim_fail_init(s) : 0;
}

double dard_sim_min_share(const struct dard_sim_opts *o)
{
	/* dard-switchd's default; the paper counts every elephant. */
	if (o->min_share < 0)
		return o->sched == DARD_SIM_DARD ? 1.0 / DARD_SW_SHARE_INV : 0;
	return o->min_share;
}

/*
 * DARD's timers: dard runs the fast mode, dard-paper the paper's, and the
 * other schedulers keep the paper's elephant age for their reports. An
 * option below 0 leaves the mode's; NaN goes through, for opts_ok.
 */
static void sim_mode(struct sim *s)
{
	const struct dard_sim_opts *o = s->o;
	struct dard_sched_mode *m = &s->mode;

	*m = dard_sched_modes[o->sched == DARD_SIM_DARD ? DARD_SCHED_FAST
							: DARD_SCHED_PAPER];
	if (!(o->elephant_age < 0))
		m->elephant_age = o->elephant_age;
	if (!(o->schedule < 0))
		m->round = o->schedule;
	if (!(o->query < 0))
		m->query = o->query;
	/* A delta given is in Mbit/s, whatever the mode's kind. */
	if (!(o->delta < 0)) {
		m->delta = o->delta;
		m->delta_share = 0;
	}
	if (!(o->quiet < 0))
		m->quiet = o->quiet;
	if (!(o->sleep < 0))
		m->sleep = o->sleep;
	if (!(o->busy < 0))
		m->busy = o->busy;
	if (!(o->escape < 0))
		m->escape = o->escape;
	if (!(o->watch < 0))
		m->watch = o->watch;
	s->min_share = dard_sim_min_share(o);
}

/* Written to refuse NaN: a zero interval would never move on. */
static int opts_ok(const struct sim *s)
{
	const struct dard_sim_opts *o = s->o;
	const struct dard_sched_mode *m = &s->mode;

	return m->query > 0 && m->round > 0 && o->pvlb > 0 && o->central > 0 &&
	       o->step >= 0 && m->elephant_age >= 0 && o->large >= 0 &&
	       !isnan(o->elephant_bytes) && o->elephant_bytes < HUGE_VAL &&
	       m->delta >= 0 && m->quiet >= 0 && m->sleep >= 0 &&
	       m->busy >= 0 && m->escape >= 0 && m->escape <= 1 &&
	       m->watch >= 0 && s->min_share >= 0 && s->min_share <= 1 &&
	       o->link >= 0 && o->link < HUGE_VAL && o->goodput > 0 &&
	       o->goodput <= 1 && o->split >= 1 &&
	       o->split <= DARD_SIM_SPLIT_MAX;
}

/* One stop of the loop: the time of the next, in either mode. */
static double next_stop(struct sim *s, double arrival)
{
	double step = s->o->step;

	if (!(step > 0))
		return next_event(s, arrival);
	/* The next step, or the step of the next arrival. */
	return s->nact ? s->now + step
		       : fmax(s->now + step, step * ceil(arrival / step));
}

int dard_sim_run(const struct dard_topo *t, const struct dard_plan *p,
		 const struct dard_tflow *flows, size_t n,
		 const struct dard_sim_opts *o, struct dard_sim_flow *out,
		 struct dard_sim_stats *st, char *err)
{
	struct dard_sim_stats dummy;
	struct sim s = {.t = t, .o = o, .rng = o->seed * 2 + 1, .err = err};
	size_t next = 0, i, done = 0;
	int ret;

	s.st = st ? st : &dummy;
	memset(s.st, 0, sizeof(*s.st));
	*err = 0;
	if (o->sched < 0 || o->sched >= DARD_SIM_NSCHED)
		return dard_fail(err, -EINVAL, "bad simulation options");
	sim_mode(&s);
	if (!opts_ok(&s))
		return dard_fail(err, -EINVAL, "bad simulation options");
	s.sched = flowsim_scheds[o->sched];
	/* Only DARD's hosts split their elephants (flowsim.h). */
	s.split = o->sched == DARD_SIM_DARD || o->sched == DARD_SIM_DARD_PAPER
			  ? o->split
			  : 1;
	s.next_central = o->central;
	s.central_now = HUGE_VAL;
	ret = sim_init(&s, p, n);
	if (ret)
		goto out;
	for (i = 0; i < n; i++) {
		out[i].start = flows[i].start;
		out[i].end = -1;
		out[i].moves = 0;
	}
	while (done < n) {
		double when;

		ret = rates(&s);
		if (ret)
			goto out;
		/* Failures may stall flows for good: the run ends. */
		if (o->nfail && flowsim_fail_stuck(&s, next < n))
			break;
		when = next_stop(&s, next < n ? flows[next].start : HUGE_VAL);
		if (isinf(when) && o->nfail)
			when = flowsim_fail_end(&s);
		if (isinf(when)) {
			ret = dard_fail(err, -EIO, "flows left with no rate");
			goto out;
		}
		done += advance(&s, when, out);
		for (; next < n && flows[next].start <= s.now; next++) {
			ret = arrive(&s, &flows[next], next);
			if (ret)
				goto out;
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
		if (o->nfail)
			flowsim_fail_scan(&s, out);
		ret = s.sched->tick ? s.sched->tick(&s, out) : 0;
		if (ret)
			goto out;
		/* Idle schedulers wait for the next flow. */
		if (!s.nact && s.sched->idle)
			s.sched->idle(&s);
	}
	s.st->unfinished = s.nact;
	ret = 0;
out:
	sim_fini(&s);
	return ret;
}
