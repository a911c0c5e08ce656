// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Dead paths to the datapath: whenever the switches' replies change
 * which of a monitor's paths are dead (a port reported down, sched.h),
 * every destination host under the monitor's ToR gets its dead bitmap
 * (dp.h, set_dead), so that the datapath keeps flows off those paths.
 * A silent switch makes nothing dead: its states age to unknown, and a
 * bit it set earlier is cleared then (its agent may have died while the
 * switch forwards fine; the datapath's own evidence decides).
 */
#include <errno.h>
#include <string.h>

#include "dardd_priv.h"
#include "dead.h"
#include "monitors.h"
#include "log.h"

/* A destination's paths against the monitor's dead set. */
struct map {
	const struct dard_monitor *m;
	const uint64_t *mdead;		    /* by monitor path */
	uint64_t dead[DARD_PATHS_MAX / 64]; /* by destination path */
	unsigned n;
};

/*
 * The datapath's paths to a host are dard_path_foreach's from us to it
 * (dp_program.c), the monitor's those to the first host of its ToR: the
 * same switch sequences, so match them by switches, not by index.
 */
static int map_path(const struct dard_path *p, void *arg)
{
	struct map *mp = arg;
	int i = dard_monitor_path_index(mp->m, p);

	if (mp->n >= DARD_PATHS_MAX)
		return 1;
	if (i >= 0 && i < DARD_PATHS_MAX &&
	    mp->mdead[i / 64] & (1ULL << (i % 64)))
		mp->dead[mp->n / 64] |= 1ULL << (mp->n % 64);
	mp->n++;
	return 0;
}

/* Tells the datapath mon's dead set for every host under its ToR. */
static int push(struct dardd *d, const struct mon *mon, const uint64_t *dead)
{
	const struct dard_topo *t = d->t;
	struct map mp = {.m = mon->m, .mdead = dead};
	uint32_t i;
	int ret, err = 0;

	if (!d->ops->set_dead)
		return 0;
	for (i = 0; i < t->nhosts; i++) {
		uint32_t h = t->hosts[i];

		if (h == d->me || dard_topo_tor(t, h) != mon->m->dst_tor)
			continue;
		memset(mp.dead, 0, sizeof(mp.dead));
		mp.n = 0;
		dard_path_foreach(d->pc, d->me, h, map_path, &mp);
		ret = d->ops->set_dead(d->dp, t->node[h].id, mp.dead);
		if (ret) {
			log_warn("marking dead paths to %s: %s",
				 t->node[h].name, dard_dp_strerror(ret));
			err = ret;
		}
	}
	return err;
}

void dead_update(struct dardd *d, uint64_t now)
{
	struct mon *mon;
	unsigned i;

	for (mon = d->mons; mon; mon = mon->next) {
		uint64_t dead[DARD_PATHS_MAX / 64] = {0};
		const struct dard_pstate *pv = mon->m->pv;

		dard_monitor_pv(mon->m, d->links.ls, d->links.when, now,
				d->o.max_age_ns, mon->m->pv);
		for (i = 0; i < mon->m->npaths && i < DARD_PATHS_MAX; i++)
			if (pv[i].dead)
				dead[i / 64] |= 1ULL << (i % 64);
		if (!memcmp(dead, mon->dead, sizeof(dead)))
			continue;
		for (i = 0; i < mon->m->npaths && i < DARD_PATHS_MAX; i++) {
			uint64_t bit = 1ULL << (i % 64);
			int was = !!(mon->dead[i / 64] & bit),
			    is = !!(dead[i / 64] & bit);

			if (was == is)
				continue;
			if (is)
				d->st.dead_paths++;
			else
				d->st.revived_paths++;
			log_info("monitor %s -> %s: path %u %s",
				 d->t->node[mon->m->src_tor].name,
				 d->t->node[mon->m->dst_tor].name, i + 1,
				 is ? "is dead" : "is no longer dead");
		}
		/* Failed: tried again after the next reply. */
		if (!push(d, mon, dead))
			memcpy(mon->dead, dead, sizeof(dead));
	}
}

void dead_forget(struct dardd *d, struct mon *mon)
{
	static const uint64_t none[DARD_PATHS_MAX / 64];
	unsigned i;

	for (i = 0; i < DARD_PATHS_MAX / 64; i++)
		if (mon->dead[i])
			break;
	/* With no monitor left to clear them, bits would stay forever. */
	if (i < DARD_PATHS_MAX / 64 && !push(d, mon, none))
		memset(mon->dead, 0, sizeof(mon->dead));
}

/*
 * The bits survive in the pinned maps, but the monitors that set them
 * did not: kept, a path that came back while we were away would stay
 * avoided, since only a monitor's change clears a bit, and a destination
 * without elephants gets no monitor at all. So they start clear, as on a
 * fresh attach; a path still dead is dead again within a query interval
 * of its monitor's first replies, and the datapath moves its flows then.
 * Hosts under our ToR have one path and never a bit; a destination the
 * datapath does not have (-ENOENT) has none either.
 */
void dead_clear_all(struct dardd *d)
{
	static const uint64_t none[DARD_PATHS_MAX / 64];
	const struct dard_topo *t = d->t;
	unsigned failed = 0;
	uint32_t i;
	int ret, first = 0;

	if (!d->ops->set_dead)
		return;
	for (i = 0; i < t->nhosts; i++) {
		uint32_t h = t->hosts[i];

		if (dard_topo_tor(t, h) == d->my_tor)
			continue;
		ret = d->ops->set_dead(d->dp, t->node[h].id, none);
		if (ret && ret != -ENOENT && !failed++)
			first = ret;
	}
	/* One line: a datapath that refuses one refuses them all. */
	if (failed)
		log_warn("clearing dead paths: %u destinations failed: %s",
			 failed, strerror(-first));
}
