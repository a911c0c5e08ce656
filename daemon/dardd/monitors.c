// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Monitors on demand (paper, section 2.4): one per destination ToR that
 * some elephant of ours goes to, released with its last elephant.
 */
#include <stdlib.h>
#include <arpa/inet.h>

#include "dardd_priv.h"
#include "dead.h"
#include "elephants.h"
#include "monitors.h"
#include "log.h"
#include "rng.h"

/* The seed of the random part of the scheduling interval; never 0. */
void monitors_init(struct dardd *d, uint64_t seed)
{
	d->rng = seed ? seed : 1;
}

void monitors_fini(struct dardd *d)
{
	struct mon *mon;

	while ((mon = d->mons)) {
		d->mons = mon->next;
		dard_monitor_free(mon->m);
		free(mon);
	}
}

uint64_t mon_next_round(struct dardd *d, uint64_t now)
{
	return now + d->o.schedule_ns +
	       dard_xorshift64s(&d->rng) % (d->o.schedule_ns + 1);
}

/*
 * Whether a path of mon is dead by its states (dead_update's last view),
 * pushed to the datapath or not yet: the bits the push failed to set are
 * tried again only while its states stay fresh.
 */
static int any_dead(const struct mon *mon)
{
	unsigned i;

	for (i = 0; i < DARD_PATHS_MAX / 64; i++)
		if (mon->dead[i])
			return 1;
	for (i = 0; i < mon->m->npaths; i++)
		if (mon->m->pv[i].dead)
			return 1;
	return 0;
}

/*
 * Whether the datapath repaired a flow on its own since the last tick (a
 * timeout moved it: the sock_ops callback, a SYN or D-SACK sent again, a
 * new hash; the module counts the last): a path may have died unseen by
 * a quiet monitor.
 */
static int dp_repaired(struct dardd *d)
{
	uint64_t v[__DARD_STAT_MAX], n;
	int grew;

	if (!d->ops->stats || d->ops->stats(d->dp, v))
		return 0;
	n = v[DARD_STAT_REPATH_RTO] + v[DARD_STAT_REPATH_SYN] +
	    v[DARD_STAT_REPATH_DSACK] + v[DARD_STAT_REPATH_REHASH];
	grew = d->repairs_seen && n != d->repairs;
	d->repairs = n;
	d->repairs_seen = 1;
	return grew;
}

void mon_quiet_all(struct dardd *d, uint64_t now)
{
	const struct dard_sched_mode *mode = &d->o.sched;
	int wake = mode->quiet > 0 && dp_repaired(d);
	struct dard_flow_iter it;
	struct mon *mon;

	for (mon = d->mons; mon; mon = mon->next) {
		int was = mon->quiet;

		el_iter(mon, &it);
		/* A dead path keeps it asking: its states must not age to
		 * unknown, which would revive the path (dead.c). */
		/* One kept for its dead paths alone asks every tick. */
		mon->quiet = !wake && !any_dead(mon) && mon->nflows &&
			     dard_monitor_quiet(mon->m, &it, mode, now / 1e9);
		mon->quiet_ticks += mon->quiet;
		d->st.monitor_ticks++;
		d->st.quiet_ticks += mon->quiet;
		/* Awake again: its first round after this tick's replies,
		 * which come within milliseconds; a quarter interval is
		 * a loop tick or more (loop.c). */
		if (was && !mon->quiet &&
		    mon->next_round_ns < now + d->o.query_ns / 4)
			mon->next_round_ns = now + d->o.query_ns / 4;
	}
}

unsigned mon_count(const struct dardd *d)
{
	const struct mon *mon;
	unsigned n = 0;

	for (mon = d->mons; mon; mon = mon->next)
		n++;
	return n;
}

int mon_path_of(struct dardd *d, struct mon *mon,
		const struct dard_alias_pair *pair)
{
	char err[DARD_ERR_MAX];
	struct dard_path p;

	if (dard_path_decode(d->pc, ntohl(pair->saddr), ntohl(pair->daddr), &p,
			     err))
		return -1;
	return dard_monitor_path_index(mon->m, &p);
}

struct mon *mon_get(struct dardd *d, uint32_t dst_tor, uint64_t now)
{
	char err[DARD_ERR_MAX];
	struct mon *mon;

	for (mon = d->mons; mon; mon = mon->next)
		if (mon->m->dst_tor == dst_tor)
			return mon;
	mon = calloc(1, sizeof(*mon));
	if (!mon)
		return NULL;
	mon->d = d;
	mon->m = dard_monitor_new(d->pc, d->t, d->me, dst_tor, err);
	if (!mon->m) {
		log_warn("no monitor towards %s: %s", d->t->node[dst_tor].name,
			 err);
		free(mon);
		return NULL;
	}
	mon->m->busy = d->o.sched.busy;
	/* Its own draws for the escape, apart from every other host's
	 * and from the last run's. */
	mon->m->rng ^= dard_mix64(dard_clock_ns(CLOCK_REALTIME));
	/* Let a query round come back before the first decision. */
	mon->next_round_ns = mon_next_round(d, now);
	d->next_query_ns = now;
	mon->next = d->mons;
	d->mons = mon;
	d->st.monitors_created++;
	log_info("monitor %s -> %s: %u paths, %u switches to query",
		 d->t->node[d->my_tor].name, d->t->node[dst_tor].name,
		 mon->m->npaths, mon->m->nqueries);
	return mon;
}

static void mon_free(struct dardd *d, struct mon *mon, const char *why)
{
	struct mon **pp;

	for (pp = &d->mons; *pp; pp = &(*pp)->next)
		if (*pp == mon) {
			*pp = mon->next;
			break;
		}
	log_info("monitor %s -> %s released: %s", d->t->node[d->my_tor].name,
		 d->t->node[mon->m->dst_tor].name, why);
	dard_monitor_free(mon->m);
	free(mon);
}

void mon_put(struct dardd *d, struct mon *mon)
{
	if (--mon->nflows || mon->watch_until_ns)
		return;
	mon_free(d, mon, "its last elephant ended");
}

void mon_expire(struct dardd *d, uint64_t now)
{
	struct mon *mon, *next;

	for (mon = d->mons; mon; mon = next) {
		next = mon->next;
		if (mon->watch_until_ns && mon->watch_until_ns <= now) {
			mon->watch_until_ns = 0;
			if (!mon->nflows)
				mon_free(d, mon, "no flow of ours goes there");
		}
	}
}
