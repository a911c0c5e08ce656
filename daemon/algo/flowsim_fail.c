// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Link failures in the flow-level simulation (dard-sim --fail): a failed
 * link has capacity 0 both ways, so max-min gives its flows rate 0 and
 * they stall. What each scheduler does about it:
 *   ecmp         nothing: the host's hash never moves a flow (the black
 *                hole issue 12 describes);
 *   switch-ecmp  the switches' routing withdraws the link: converge
 *                seconds after it failed, every flow on it is re-hashed
 *                onto a live path; new flows then hash onto live paths;
 *   dard         the switch agents answer a failed port as down, so at
 *                the next query a host that asked about the link knows
 *                it dead: through a monitor whose paths cross it, or its
 *                watch (mode.watch: the switches above its ToR, for every
 *                link of its paths but the last hop into another pod's
 *                ToR). dardd pushes the dead bits for every destination
 *                whose paths cross it, and the datapath moves each flow
 *                of the host on a path it knows dead onto the next live
 *                one (a new one starts there); rounds then balance the
 *                elephants. A flow on a link its host does not know dead
 *                stalls, or with rto > 0 moves to the next path every
 *                rto seconds it is stalled (TCP's timeout repair);
 *   hedera, sdn-*: a controller polls every switch at its round, and
 *                converge seconds after a link goes down it hears of it
 *                and runs a round at once (its own rounds keep their
 *                times), so it places no elephant on a failed link if a
 *                live path is left (sdn-greedy and sdn-optimal's search
 *                count failed links as full; the others' choice, if
 *                dead, gives way to the next live row); the switches
 *                report every flow they drop for a dead port, mice too;
 *   pvlb         nothing more than it does anyway: its random re-picks
 *                are the host's, blind to liveness.
 * A link back up carries again; no flow moves back for it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "flowsim_int.h"
#include "rng.h"

/* With nothing to come, all flows stalled this long end the run. */
#define STUCK_END 30.0

struct fail_ev {
	double at;
	uint32_t link;
	int down;
};

const struct sim_sched flowsim_switch_ecmp = {
	.name = "switch-ecmp",
};

static int ev_cmp(const void *a, const void *b)
{
	const struct fail_ev *x = a, *y = b;

	if (x->at != y->at)
		return (x->at > y->at) - (x->at < y->at);
	return y->down - x->down; /* a down before an up at one time */
}

int flowsim_fail_init(struct sim *s)
{
	const struct dard_sim_opts *o = s->o;
	size_t i;

	for (i = 0; i < o->nfail; i++) {
		const struct dard_sim_fail *fl = &o->fail[i];

		if (fl->link >= s->t->nlinks || !(fl->down >= 0) ||
		    !(fl->up > fl->down) || isinf(fl->down))
			return dard_fail(s->err, -EINVAL,
					 "bad failure %zu: link %u, %g to %g",
					 i, fl->link, fl->down, fl->up);
	}
	if (!(o->converge >= 0) || !(o->rto >= 0) || isinf(o->converge) ||
	    isinf(o->rto))
		return dard_fail(s->err, -EINVAL, "bad failure timings");
	s->ev = calloc(2 * o->nfail, sizeof(*s->ev));
	s->ndown = calloc(s->t->nlinks, sizeof(*s->ndown));
	s->down_at = calloc(s->t->nlinks, sizeof(*s->down_at));
	if (!s->ev || !s->ndown || !s->down_at)
		return dard_fail(s->err, -ENOMEM, "out of memory");
	for (i = 0; i < o->nfail; i++) {
		s->ev[s->nev++] =
			(struct fail_ev){o->fail[i].down, o->fail[i].link, 1};
		if (!isinf(o->fail[i].up))
			s->ev[s->nev++] = (struct fail_ev){o->fail[i].up,
							   o->fail[i].link, 0};
	}
	qsort(s->ev, s->nev, sizeof(*s->ev), ev_cmp);
	s->fail_due = s->nev ? s->ev[0].at : HUGE_VAL;
	s->stuck_since = -1;
	return 0;
}

void flowsim_fail_fini(struct sim *s)
{
	free(s->ev);
	free(s->ndown);
	free(s->down_at);
}

/* Row of f's pair dead: truly (links at capacity 0), or as last queried. */
static int row_dead(const struct sim *s, const struct pset *p, uint32_t row,
		    int queried)
{
	const uint32_t *dl = &p->dl[(size_t)row * p->ndl];
	unsigned k;

	for (k = 0; k < p->ndl; k++)
		if (queried ? s->ls[dl[k]].dead : !(s->cap[dl[k]] > 0))
			return 1;
	return 0;
}

/* Whether p's rows cross directed link dl. */
static int pset_has(const struct pset *p, uint32_t dl)
{
	size_t k, n = (size_t)p->npaths * p->ndl;

	for (k = 0; k < n; k++)
		if (p->dl[k] == dl)
			return 1;
	return 0;
}

/*
 * Whether host h, under ToR tor, knows dl dead, as dardd's dead.c does
 * from its link table: its watch was told (dl is one its plan names),
 * or the last query's answer says so and a monitor of h
 * asked about dl (one not quiet, or with a dead path, as dardd keeps
 * those asking). Not only a monitor of the flow's own ToR pair: any
 * answer marks every destination's paths through the link.
 */
static int knows_dead(const struct sim *s, uint32_t h, uint32_t tor,
		      uint32_t dl)
{
	const struct mon *m;

	if (s->watch && s->wdead[dl] && flowsim_watched(s, tor, dl))
		return 1;
	if (!s->ls[dl].dead)
		return 0;
	for (m = s->hmon[h]; m; m = m->hnext)
		if ((!m->quiet || m->dead) && pset_has(m->flows->ps, dl))
			return 1;
	return 0;
}

/* Row of f's pair dead to what f's host knows (its datapath's bits). */
static int row_known_dead(const struct sim *s, const struct flow *f,
			  uint32_t row)
{
	const uint32_t *dl = &f->ps->dl[(size_t)row * f->ps->ndl];
	unsigned k;

	for (k = 0; k < f->ps->ndl; k++)
		if (knows_dead(s, f->src, f->ps->stor, dl[k]))
			return 1;
	return 0;
}

/*
 * The datapath's rule: the next live row after from, or from if none;
 * live truly, or (known) to what f's host knows.
 */
static uint32_t next_live_from(const struct sim *s, const struct flow *f,
			       uint32_t from, int known)
{
	uint32_t k, row;

	for (k = 1; k < f->ps->npaths; k++) {
		row = (from + k) % f->ps->npaths;
		if (known ? !row_known_dead(s, f, row)
			  : !row_dead(s, f->ps, row, 0))
			return row;
	}
	return from;
}

static uint32_t next_live(const struct sim *s, const struct flow *f)
{
	return next_live_from(s, f, f->row, 1);
}

uint32_t flowsim_fail_live_row(const struct sim *s, const struct flow *f,
			       uint32_t row)
{
	if (!s->o->nfail || !f->ps->ndl || !row_dead(s, f->ps, row, 0))
		return row;
	return next_live_from(s, f, row, 0);
}

/* When routing has converged around f's dead links. */
static double converged(const struct sim *s, const struct flow *f)
{
	const uint32_t *dl = &f->ps->dl[(size_t)f->row * f->ps->ndl];
	double at = 0;
	unsigned k;

	for (k = 0; k < f->ps->ndl; k++)
		if (!(s->cap[dl[k]] > 0))
			at = fmax(at, s->down_at[dl[k] / 2]);
	return at + s->o->converge;
}

/* Switch ECMP's hash of f over the live rows (none: its own row). */
static uint32_t live_hash(const struct sim *s, const struct flow *f)
{
	uint32_t row, nlive = 0, k;

	for (row = 0; row < f->ps->npaths; row++)
		nlive += !row_dead(s, f->ps, row, 0);
	if (!nlive)
		return f->row;
	k = dard_mix64(s->o->seed ^ (0xfa11ULL << 32 | f->id)) % nlive;
	for (row = 0;; row++)
		if (!row_dead(s, f->ps, row, 0) && !k--)
			return row;
}

/* Switch ECMP re-hashes f over the live rows (none: it stays). */
static void rehash(struct sim *s, struct flow *f, struct dard_sim_flow *out)
{
	flowsim_move(s, f, live_hash(s, f), out);
}

static void apply_events(struct sim *s)
{
	while (s->next_ev < s->nev && s->ev[s->next_ev].at <= s->now) {
		const struct fail_ev *e = &s->ev[s->next_ev++];
		uint32_t l = e->link;

		if (e->down && !s->ndown[l]++) {
			s->down_at[l] = e->at;
			/* A controller hears of the port going down (as a
			 * routing protocol does) and places again. */
			if (s->sched->place)
				s->central_now = fmin(s->central_now,
						      e->at + s->o->converge);
		} else if (!e->down && s->ndown[l])
			s->ndown[l]--;
		s->cap[2 * l] = s->cap[2 * l + 1] =
			s->ndown[l] ? 0 : flowsim_mbps(s->t, s->o, l);
		s->dirty = 1;
		/* Its switches' notices reach their watchers at once. */
		s->noticed |= flowsim_watch_notice(s, l, s->ndown[l] > 0);
	}
}

/* One flow's repair, if its scheduler has one; the next due time. */
static double repair(struct sim *s, struct flow *f, struct dard_sim_flow *out)
{
	double at;

	if (!row_dead(s, f->ps, f->row, 0)) {
		f->dead_since = -1;
		return HUGE_VAL;
	}
	if (f->dead_since < 0)
		f->dead_since = s->now;
	if (s->o->sched == DARD_SIM_SWITCH_ECMP) {
		at = converged(s, f);
		if (at > s->now)
			return at;
		rehash(s, f, out);
	} else if (s->sched->tick == flowsim_dard.tick && /* or dard-paper */
		   s->o->rto > 0) {
		at = f->dead_since + s->o->rto;
		if (at > s->now)
			return at;
		/* A timeout knows no liveness: the next path, blindly. */
		flowsim_move(s, f, (f->row + 1) % f->ps->npaths, out);
		/* dardd sees repath_rto grow: its monitors ask again. */
		s->woke[f->src] = 1;
		f->dead_since = s->now;
		return s->now + s->o->rto;
	}
	if (!row_dead(s, f->ps, f->row, 0))
		f->dead_since = -1;
	return HUGE_VAL;
}

void flowsim_fail_scan(struct sim *s, struct dard_sim_flow *out)
{
	size_t i;

	s->noticed = 0;
	apply_events(s);
	/* The datapaths of the hosts told move their flows off it now. */
	if (s->noticed && s->sched->tick == flowsim_dard.tick)
		flowsim_fail_dp(s, out);
	s->fail_due = s->next_ev < s->nev ? s->ev[s->next_ev].at : HUGE_VAL;
	for (i = 0; i < s->nact; i++)
		s->fail_due = fmin(s->fail_due, repair(s, s->act[i], out));
}

/*
 * Whether a row of f's might be known dead: a link of it dead at the
 * last query or the watch's (a cheap filter before row_known_dead).
 */
static int row_maybe_dead(const struct sim *s, const struct flow *f,
			  uint32_t row)
{
	const uint32_t *dl = &f->ps->dl[(size_t)row * f->ps->ndl];
	unsigned k;

	for (k = 0; k < f->ps->ndl; k++)
		if (s->ls[dl[k]].dead || (s->wdead && s->wdead[dl[k]]))
			return 1;
	return 0;
}

static void dp_move(struct sim *s, struct flow *f, struct dard_sim_flow *out)
{
	if (f->ps->ndl && row_maybe_dead(s, f, f->row) &&
	    row_known_dead(s, f, f->row))
		flowsim_move(s, f, next_live(s, f), out);
}

void flowsim_fail_dp(struct sim *s, struct dard_sim_flow *out)
{
	size_t i;

	for (i = 0; i < s->nact; i++)
		dp_move(s, s->act[i], out);
}

void flowsim_fail_arrive(struct sim *s, struct flow *f)
{
	int dard = s->sched->tick == flowsim_dard.tick;

	f->dead_since = -1;
	if (!f->ps->ndl || (dard ? !row_maybe_dead(s, f, f->row)
				 : !row_dead(s, f->ps, f->row, 0)))
		return;
	/*
	 * A new flow: placed, not moved. Under DARD on the datapath's next
	 * live path, where its host knows the row dead (a monitor's answer
	 * or the watch's); under a controller once it heard of the failure
	 * (converge seconds on) and set the switches' default routes around
	 * it, hashed over the live paths as switch ECMP does.
	 */
	if (dard ? row_known_dead(s, f, f->row)
		 : s->sched->place && converged(s, f) <= s->now) {
		f->row = dard ? next_live(s, f) : live_hash(s, f);
		memcpy(&f->links[1], &f->ps->dl[(size_t)f->row * f->ps->ndl],
		       f->ps->ndl * sizeof(f->links[0]));
	}
}

int flowsim_fail_watch_dead(const struct sim *s, const struct pset *p,
			    uint32_t h)
{
	uint32_t tor = dard_topo_tor(s->t, h);
	size_t k, n = (size_t)p->npaths * p->ndl;

	if (!s->watch || !s->nwdead)
		return 0;
	for (k = 0; k < n; k++)
		if (s->wdead[p->dl[k]] && flowsim_watched(s, tor, p->dl[k]))
			return 1;
	return 0;
}

int flowsim_fail_any_dead(const struct sim *s, const struct pset *p)
{
	uint32_t row;

	for (row = 0; row < p->npaths; row++)
		if (row_dead(s, p, row, 1))
			return 1;
	return 0;
}

void flowsim_fail_mark_dead(const struct sim *s, const struct pset *p,
			    uint64_t *seen, uint64_t stamp)
{
	size_t k, n = (size_t)p->npaths * p->ndl;

	for (k = 0; k < n; k++)
		if (s->ls[p->dl[k]].dead)
			seen[p->dl[k]] = stamp;
}

int flowsim_fail_seen_dead(const struct sim *s, const struct pset *p,
			   const uint64_t *seen, uint64_t stamp)
{
	size_t k, n = (size_t)p->npaths * p->ndl;

	(void)s;
	for (k = 0; k < n; k++)
		if (seen[p->dl[k]] == stamp)
			return 1;
	return 0;
}

int flowsim_fail_stuck(struct sim *s, int arrivals)
{
	int moving = arrivals || s->next_ev < s->nev || !s->nact;
	size_t i;

	for (i = 0; !moving && i < s->nact; i++)
		moving = s->act[i]->rate > 0;
	if (moving) {
		s->stuck_since = -1;
		return 0;
	}
	if (s->stuck_since < 0)
		s->stuck_since = s->now;
	/*
	 * The sum flowsim_fail_end steps to: now - stuck_since may round
	 * below STUCK_END once there, and the run would never end.
	 */
	return s->now >= s->stuck_since + STUCK_END;
}

double flowsim_fail_end(const struct sim *s)
{
	return (s->stuck_since < 0 ? s->now : s->stuck_since) + STUCK_END;
}
