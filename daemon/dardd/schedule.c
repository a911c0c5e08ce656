// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The flow scheduler (paper, section 2.5): each monitor runs a selfish
 * round every schedule interval plus a random time up to one more
 * (dard_monitor_round_mode under --sched-mode, the round the simulator
 * runs too), and moves one elephant through the datapath when it pays by
 * more than delta.
 */
#include <math.h>
#include <string.h>
#include <arpa/inet.h>

#include "dardd_priv.h"
#include "controller.h"
#include "elephants.h"
#include "monitors.h"
#include "opts.h"
#include "schedule.h"
#include "log.h"
#include "pvlb.h"
#include "rng.h"

double schedule_delta(const struct dardd *d, const struct mon *mon)
{
	struct dard_sched_mode m = d->o.sched;

	/* --delta, or the mode's: Mbit/s, or a share of the slowest live
	 * path's bandwidth. */
	m.delta = d->o.delta_is_frac ? 0 : d->o.delta;
	m.delta_share = d->o.delta_is_frac ? d->o.delta : 0;
	return dard_sched_delta(&m, mon->m->pv, mon->m->npaths);
}

/* The datapath sends e by monitor path `to', named for its two hosts. */
static int move(struct dardd *d, struct mon *mon, struct elephant *e,
		unsigned to, struct dard_alias_pair *pair)
{
	const struct dard_mon_path *want = &mon->m->path[to];
	struct dard_path p;
	char b[96];
	int ret;

	if (dard_path_make(d->pc, d->me, e->dst, want->sw, want->nsw, &p))
		return -1;
	pair->saddr = htonl(p.saddr);
	pair->daddr = htonl(p.daddr);
	ret = d->ops->move(d->dp, &e->key, pair);
	if (ret) {
		log_warn("moving %s failed: %s",
			 flow_str(&e->key, b, sizeof(b)),
			 dard_dp_strerror(ret));
		return -1;
	}
	return 0;
}

void schedule(struct dardd *d, struct mon *mon, uint64_t now)
{
	struct dard_flow_iter it;
	struct dard_alias_pair pair;
	struct dard_move mv;
	struct elephant *pick, *e;
	char b[96];

	mon->next_round_ns = mon_next_round(d, now);
	/* The controller places our elephants, or another mode moves them
	 * (pvlb) or nothing does (off): the round waits its turn. */
	if (controller_places(d) || d->o.mover != DARDD_MOVER_DARD)
		return;
	/* Quiet at the last query tick: it asked nothing, and acts on
	 * nothing (mon_quiet_all). */
	if (mon->quiet) {
		d->st.rounds_quiet++;
		return;
	}
	mon->rounds++;
	d->st.rounds++;
	dard_monitor_pv(mon->m, d->links.ls, d->links.when, now,
			d->o.max_age_ns, mon->m->pv);
	el_iter(mon, &it);
	pick = (struct elephant *)dard_monitor_round_mode(
		mon->m, d->links.ls, &it, schedule_delta(d, mon), &d->o.sched,
		now / 1e9, &mv);
	/* Nothing to gain: the rates now are the bar while it sleeps. */
	if (dard_monitor_idle(mon->m, now / 1e9))
		for (e = d->els; e; e = e->next)
			if (e->mon == mon)
				e->idle_rate = e->rate;
	if (!pick || move(d, mon, pick, mv.to, &pair))
		return;
	/* Our own move, known before the switches count it. */
	dard_monitor_moved(mon->m, d->links.ls, &mv);
	pick->pair = pair;
	pick->path = mv.to;
	pick->moves++;
	pick->moved_ns = now;
	/* A neutral move keeps its rate by design: no futile move to end
	 * its moves on (monitor.c, gains). */
	pick->moved_rate = pick->rate > 0 && !mv.neutral ? pick->rate : 0;
	pick->neutral += mv.neutral;
	pick->moved_est = mv.count_est;
	el_hist_add(pick, now, mv.to);
	mon->moves++;
	d->st.moves++;
	d->st.moves_neutral += mv.neutral;
	log_info(
		"moved %s from path %u (BoNF %.4g Mbit/s) to path %u (%.4g with it)%s",
		flow_str(&pick->key, b, sizeof(b)), mv.from + 1, mv.from_bonf,
		mv.to + 1, mv.estimate,
		mv.neutral ? ", a neutral move out of an equilibrium" : "");
}

static uint64_t pvlb_rnd(void *d)
{
	return dard_xorshift64s(&((struct dardd *)d)->rng);
}

/*
 * When e's first re-pick is: an interval after it began (the flow
 * table's first packet), or if that is past, as the mode came later,
 * the first of its intervals still ahead.
 */
static double pvlb_first(const struct dardd *d, const struct elephant *e,
			 double now)
{
	double next = dard_pvlb_first(e->first_ns / 1e9, d->o.pvlb);

	if (next <= now)
		next += ceil((now - next) / d->o.pvlb) * d->o.pvlb;
	return next > now ? next : next + d->o.pvlb;
}

void schedule_pvlb(struct dardd *d, uint64_t now)
{
	struct dard_alias_pair pair;
	struct elephant *e;
	double t = now / 1e9;
	char b[96];
	int to;

	if (d->o.mover != DARDD_MOVER_PVLB || controller_places(d))
		return;
	for (e = d->els; e; e = e->next) {
		/* Its start is the flow table's, once a walk has seen it. */
		if (!e->dp_known)
			continue;
		if (!e->pvlb_next)
			e->pvlb_next = pvlb_first(d, e, t);
		to = dard_pvlb_step(&e->pvlb_next, t, d->o.pvlb,
				    e->mon->m->npaths, pvlb_rnd, d);
		/* Its own path drawn: it stays, as dard-sim's does. */
		if (to < 0 || to == e->path || move(d, e->mon, e, to, &pair))
			continue;
		log_debug("pvlb: moved %s from path %d to path %d",
			  flow_str(&e->key, b, sizeof(b)), e->path + 1, to + 1);
		e->pair = pair;
		e->path = to;
		e->moves++;
		e->moved_ns = now;
		e->moved_rate = e->moved_est = 0;
		el_hist_add(e, now, to);
		e->mon->moves++;
		d->st.pvlb_moves++;
	}
}

void schedule_mode_changed(struct dardd *d)
{
	struct elephant *e;

	for (e = d->els; e; e = e->next)
		e->pvlb_next = 0;
}
