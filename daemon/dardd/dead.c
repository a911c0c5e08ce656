// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Dead paths to the datapath. A link is dead for every path through it,
 * whatever destination the path goes to and whoever heard of it: our
 * monitors' replies, the watch's (watch.c), a ToR peer's SHARE. So the
 * dead set is the link table's, not a monitor's: whenever it changes,
 * every destination host whose paths cross a link that died or came back
 * gets its dead bitmap (dp.h, set_dead), and the datapath keeps its new
 * flows off those paths (Documentation/datapath.md, "Path liveness").
 * Before, only the hosts under a ToR we had a monitor for got bits, and
 * a new flow elsewhere was hashed onto the dead link and waited for
 * TCP's timeout (a SYN: 1 s).
 * A silent switch makes nothing dead: its states age to unknown, and a
 * bit it set earlier is cleared then (its agent may have died while the
 * switch forwards fine; the datapath's own evidence decides). A monitor
 * released clears nothing: the link's state holds the bit, as long as
 * someone (the watch, another monitor, a peer) keeps it fresh.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dardd_priv.h"
#include "dead.h"
#include "monitor.h"
#include "monitors.h"
#include "log.h"

int dead_init(struct dardd *d)
{
	const struct dard_topo *t = d->t;
	struct dardd_dead *dd = &d->dead;
	char err[DARD_ERR_MAX];
	uint32_t n;

	dd->tor = calloc(t->nnodes, sizeof(*dd->tor));
	dd->dl = calloc(2 * (size_t)t->nlinks, sizeof(*dd->dl));
	if (!dd->tor || !dd->dl)
		goto nomem;
	for (n = 0; n < t->nnodes; n++) {
		struct dead_view *v;

		if (n == d->my_tor || t->node[n].is_host ||
		    dard_topo_tor_host(t, n) == DARD_NONE)
			continue;
		v = calloc(1, sizeof(*v));
		if (!v)
			goto nomem;
		/* Paths and their links, never a round: 64 paths of a
		 * fattree:16 ToR pair, 127 pairs, are some 100 KB. */
		v->m = dard_monitor_new(d->pc, t, d->me, n, err);
		if (!v->m) {
			/* No path there (or no memory): nothing to mark. */
			log_warn("our paths to %s: %s", t->node[n].name, err);
			free(v);
			continue;
		}
		dd->tor[n] = v;
	}
	return 0;
nomem:
	log_err("dead paths: out of memory");
	return -ENOMEM;
}

void dead_fini(struct dardd *d)
{
	struct dardd_dead *dd = &d->dead;
	uint32_t n;

	for (n = 0; dd->tor && n < d->t->nnodes; n++)
		if (dd->tor[n]) {
			dard_monitor_free(dd->tor[n]->m);
			free(dd->tor[n]);
		}
	free(dd->tor);
	free(dd->dl);
	memset(dd, 0, sizeof(*dd));
}

const struct dard_monitor *dead_paths_to(const struct dardd *d, uint32_t tor)
{
	if (!d->dead.tor || tor >= d->t->nnodes || !d->dead.tor[tor])
		return NULL;
	return d->dead.tor[tor]->m;
}

/* A destination's paths against the view's dead set. */
struct map {
	const struct dard_monitor *m;
	const uint64_t *mdead;		    /* by view path */
	uint64_t dead[DARD_PATHS_MAX / 64]; /* by destination path */
	unsigned n;
};

/*
 * The datapath's paths to a host are dard_path_foreach's from us to it
 * (dp_program.c), the view's those to the first host of its ToR: the
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

/* Tells the datapath dead, by view path, for every host under tor. */
static int push(struct dardd *d, const struct dead_view *v, uint32_t tor,
		const uint64_t *dead)
{
	const struct dard_topo *t = d->t;
	struct map mp = {.m = v->m, .mdead = dead};
	uint32_t i;
	int ret, err = 0;

	if (!d->ops->set_dead)
		return 0;
	for (i = 0; i < t->nhosts; i++) {
		uint32_t h = t->hosts[i];

		if (dard_topo_tor(t, h) != tor)
			continue;
		memset(mp.dead, 0, sizeof(mp.dead));
		mp.n = 0;
		dard_path_foreach(d->pc, d->me, h, map_path, &mp);
		ret = d->ops->set_dead(d->dp, t->node[h].id, mp.dead);
		/* A destination the datapath does not have has no bits
		 * (dead_clear_all, cpapply): nothing to try again. */
		if (ret && ret != -ENOENT) {
			log_warn("marking dead paths to %s: %s",
				 t->node[h].name, dard_dp_strerror(ret));
			err = ret;
		}
	}
	return err;
}

/* Whether a link's fresh state says its port is down: silence is not. */
static int link_dead(const struct dardd *d, uint32_t dl, uint64_t now)
{
	uint64_t when = d->links.when[dl];

	return when && now - when <= d->o.max_age_ns && d->links.ls[dl].known &&
	       d->links.ls[dl].dead;
}

/* The view's paths with a dead link against those pushed: logged, told. */
static void view_update(struct dardd *d, struct dead_view *v, uint32_t tor)
{
	uint64_t dead[DARD_PATHS_MAX / 64] = {0};
	const struct dard_monitor *m = v->m;
	unsigned i, k;

	for (i = 0; i < m->npaths && i < DARD_PATHS_MAX; i++)
		for (k = 0; k < m->path[i].ndl; k++)
			if (d->dead.dl[m->path[i].dl[k]]) {
				dead[i / 64] |= 1ULL << (i % 64);
				break;
			}
	if (!v->retry && !memcmp(dead, v->dead, sizeof(dead)))
		return;
	for (i = 0; i < m->npaths && i < DARD_PATHS_MAX; i++) {
		uint64_t bit = 1ULL << (i % 64);
		int was = !!(v->dead[i / 64] & bit),
		    is = !!(dead[i / 64] & bit);

		if (was == is)
			continue;
		if (is)
			d->st.dead_paths++;
		else
			d->st.revived_paths++;
		log_info("paths to %s: path %u %s", d->t->node[tor].name, i + 1,
			 is ? "is dead" : "is no longer dead");
	}
	/* Failed: tried again at the next update, whatever changes. */
	v->retry = !!push(d, v, tor, dead);
	d->dead.retry |= v->retry;
	memcpy(v->dead, dead, sizeof(dead));
}

void dead_update(struct dardd *d, uint64_t now)
{
	struct dardd_dead *dd = &d->dead;
	int changed = dd->retry;
	struct mon *mon;
	uint32_t dl, n;

	if (!dd->dl)
		return;
	/* Cheap next to the replies that call it: 2 bytes a link. */
	dd->ndl = 0;
	for (dl = 0; dl < 2 * d->t->nlinks; dl++) {
		uint8_t is = link_dead(d, dl, now);

		changed |= is != dd->dl[dl];
		dd->dl[dl] = is;
		dd->ndl += is;
	}
	if (changed) {
		dd->retry = 0;
		for (n = 0; n < d->t->nnodes; n++)
			if (dd->tor[n])
				view_update(d, dd->tor[n], n);
	}
	/* Each monitor: its states for the rounds and quiet, its ToR's
	 * dead set for cpapply and mon_quiet_all. */
	for (mon = d->mons; mon; mon = mon->next) {
		const struct dead_view *v = dd->tor[mon->m->dst_tor];

		dard_monitor_pv(mon->m, d->links.ls, d->links.when, now,
				d->o.max_age_ns, mon->m->pv);
		if (v)
			memcpy(mon->dead, v->dead, sizeof(mon->dead));
	}
}

/*
 * The bits survive in the pinned maps, but the states that set them did
 * not: kept, a path that came back while we were away would stay
 * avoided until a state of its links said up. So they start clear, as
 * on a fresh attach; a path still dead is dead again within a query
 * interval of the first reply that says so (the watch's, at our first
 * tick), and the datapath moves its flows then. Hosts under our ToR
 * have one path and never a bit; a destination the datapath does not
 * have (-ENOENT) has none either.
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
