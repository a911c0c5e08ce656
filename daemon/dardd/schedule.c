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
#include "log.h"

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
	/* The controller places our elephants: the round waits its turn. */
	if (controller_places(d))
		return;
	/* Quiet at the last query tick: it asked nothing, and acts on
	 * nothing (mon_quiet_all). */
	if (mon->quiet) {
		d->st.rounds_quiet++;
		return;
	}
	mon->rounds++;
	d->st.rounds++;
	dard_monitor_pv(mon->m, d->ls, d->ls_when, now, d->o.max_age_ns,
			mon->m->pv);
	el_iter(mon, &it);
	pick = (struct elephant *)dard_monitor_round_mode(
		mon->m, d->ls, &it, schedule_delta(d, mon), &d->o.sched,
		now / 1e9, &mv);
	/* Nothing to gain: the rates now are the bar while it sleeps. */
	if (dard_monitor_idle(mon->m, now / 1e9))
		for (e = d->els; e; e = e->next)
			if (e->mon == mon)
				e->idle_rate = e->rate;
	if (!pick || move(d, mon, pick, mv.to, &pair))
		return;
	/* Our own move, known before the switches count it. */
	dard_monitor_moved(mon->m, d->ls, &mv);
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
