// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The watch: a host learns of dead links through the switches' answers,
 * and without it asks only for its monitors' paths, one per destination
 * ToR with elephants; a new flow elsewhere was hashed onto a dead link
 * and waited for TCP's timeout. So every watch interval (the fast
 * mode's: every query tick) we also ask the switches above our ToR for
 * every exit port some path of ours leaves by: our ToR's and our
 * aggregation switches' up links, and every core's links down to every
 * other pod. That sees every link of every path of ours but the last
 * hop down into another pod's ToR, which its pod's hosts watch and the
 * datapath's in-band repair covers; the next level, every other
 * aggregation switch, would cost as many switches again (fattree:8: 21
 * switches against 37). The switches are all in our ToR's sharing scope
 * (share.h): the ToR's hosts WANT the watch's links always, the first
 * to tick asks, the others get a SHARE, so each switch is asked once
 * per ToR per interval, with the ports all its hosts need.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dardd_priv.h"
#include "dead.h"
#include "monitor.h"
#include "share.h"
#include "watch.h"
#include "log.h"

/* Marks in port[n] the ports of m's queries to switches above[n]. */
static int mark(struct dardd *d, const struct dard_monitor *m,
		const uint8_t *above, uint8_t **port)
{
	unsigned i, k;

	for (i = 0; i < m->nqueries; i++) {
		const struct dard_mon_query *q = &m->query[i];

		if (!above[q->sw])
			continue;
		if (!port[q->sw]) {
			port[q->sw] = calloc(d->t->node[q->sw].nports + 1, 1);
			if (!port[q->sw])
				return -ENOMEM;
		}
		for (k = 0; k < q->nports; k++)
			port[q->sw][q->ports[k]] = 1;
	}
	return 0;
}

/* The marked ports as queries, in node order. */
static int build(struct dardd *d, uint8_t **port)
{
	const struct dard_topo *t = d->t;
	struct dardd_watch *w = &d->watch;
	uint32_t n;
	unsigned k, nq = 0;

	for (n = 0; n < t->nnodes; n++)
		nq += port[n] != NULL;
	w->q = calloc(nq ? nq : 1, sizeof(*w->q));
	if (!w->q)
		return -ENOMEM;
	for (n = 0; n < t->nnodes; n++) {
		struct dard_mon_query *q = &w->q[w->nq];

		if (!port[n])
			continue;
		q->ports = calloc(t->node[n].nports + 1, sizeof(*q->ports));
		if (!q->ports)
			return -ENOMEM;
		q->sw = n;
		for (k = 1; k <= t->node[n].nports; k++)
			if (port[n][k])
				q->ports[q->nports++] = k;
		w->nq++;
	}
	return 0;
}

int watch_init(struct dardd *d)
{
	const struct dard_topo *t = d->t;
	struct dard_share_scope sc;
	uint8_t **port;
	uint32_t n;
	int ret;

	memset(&d->watch, 0, sizeof(d->watch));
	ret = dard_share_scope_init(&sc, t, d->my_tor);
	if (ret == -EINVAL)
		return 0; /* no ToR above us: no paths to watch */
	if (ret)
		goto out_log;
	port = calloc(t->nnodes, sizeof(*port));
	ret = port ? 0 : -ENOMEM;
	for (n = 0; !ret && n < t->nnodes; n++) {
		const struct dard_monitor *m = dead_paths_to(d, n);

		if (m)
			ret = mark(d, m, sc.above, port);
	}
	if (!ret)
		ret = build(d, port);
	for (n = 0; port && n < t->nnodes; n++)
		free(port[n]);
	free(port);
	dard_share_scope_free(&sc);
	if (!ret)
		return 0;
out_log:
	log_err("the watch: out of memory");
	return ret;
}

void watch_fini(struct dardd *d)
{
	struct dardd_watch *w = &d->watch;
	unsigned i;

	for (i = 0; w->q && i < w->nq; i++)
		free(w->q[i].ports);
	free(w->q);
	memset(w, 0, sizeof(*w));
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
