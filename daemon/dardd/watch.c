// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The watch: a host learns of dead links through the switches' answers,
 * and without it asks only for its monitors' paths, one per destination
 * ToR with elephants; a new flow elsewhere was hashed onto a dead link
 * and waited for TCP's timeout. So every watch interval we also send
 * the switches above our ToR a WATCH (proto.h) for every exit port some
 * path of ours leaves by: our ToR's and our aggregation switches' up
 * links, and every core's links down to every other pod. Each answers
 * it as a query and keeps it DARD_PROTO_LEASE_US, telling us in a notice
 * the moment one of those links goes down or comes back (query.c takes
 * it); the interval only renews the watch and catches a lost notice.
 * That sees every link of every path of ours but the last hop down into
 * another pod's ToR, which its pod's hosts watch and the datapath's
 * in-band repair covers; the next level, every other aggregation
 * switch, would cost as many switches again (fattree:8: 21 switches
 * against 37). Each host watches for itself, not shared with its ToR's
 * peers (share.h): a notice goes to its watcher alone, and sharing the
 * watch's records every interval cost more than the queries it saved
 * (Documentation/experiments.md, "The watch's cost").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dardd_priv.h"
#include "monitor.h"
#include "query.h"
#include "share.h"
#include "watch.h"
#include "log.h"

int watch_init(struct dardd *d)
{
	struct dard_share_scope sc;
	int ret;

	memset(&d->watch, 0, sizeof(d->watch));
	ret = dard_share_scope_init(&sc, d->t, d->my_tor);
	if (ret == -EINVAL)
		return 0; /* no ToR above us: no paths to watch */
	if (!ret) {
		ret = dard_watch_plan(d->pc, d->t, d->me, sc.above, &d->watch.q,
				      &d->watch.nq);
		dard_share_scope_free(&sc);
	}
	if (ret)
		log_err("the watch: out of memory");
	return ret;
}

void watch_fini(struct dardd *d)
{
	dard_watch_free(d->watch.q, d->watch.nq);
	memset(&d->watch, 0, sizeof(d->watch));
}

int watch_on(const struct dardd *d)
{
	return d->watch.nq && d->o.sched.watch > 0;
}

void watch_tick(struct dardd *d, uint64_t now)
{
	struct dardd_watch *w = &d->watch;
	uint64_t every = (uint64_t)(d->o.sched.watch * 1e9);

	w->due = watch_on(d) && now >= w->next_ns;
	if (!w->due)
		return;
	/* Half a tick early: an interval of one tick asks at each. */
	w->next_ns = now + every -
		     (every < d->o.query_ns ? every : d->o.query_ns) / 2;
	d->st.watch_ticks++;
}

int watch_asks(const struct dardd *d, const struct dard_mon_query *q)
{
	unsigned k;

	if (!watch_on(d))
		return 0;
	if (d->watch.due || d->sw[q->sw].watch_seq)
		return 1;
	for (k = 0; d->dead.dl && d->dead.ndl && k < q->nports; k++) {
		uint32_t dl = dard_port_dlink(d->t, q->sw, q->ports[k]);

		if (dl != DARD_NONE && d->dead.dl[dl])
			return 1;
	}
	return 0;
}
