// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * DARD's control traffic in the flow-level simulation: at each query,
 * the switches each host asks (its monitors', alone or shared with the
 * hosts under its ToR, share.h; its watch's, sched.h's watch, alone),
 * the WANTs and SHAREs that sharing sends, and the agents' notices; and
 * the watch itself, which switches it asks and what the notices told
 * it is dead (flowsim_fail.c reads it).
 * Split from flowsim_dard.c, which decides what the queries see.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "flowsim_int.h"
#include "share.h"

/*
 * With mode.watch: each ToR's watch, planned for its first host (the
 * ToR's hosts have the same paths), as dardd plans its own.
 */
int flowsim_watch_init(struct sim *s)
{
	const struct dard_topo *t = s->t;
	struct dard_share_scope sc;
	unsigned i, k;
	uint32_t n;

	if (!(s->mode.watch > 0))
		return 0;
	s->watch = calloc(t->nnodes, sizeof(*s->watch));
	s->wdead = calloc(2 * (size_t)t->nlinks + 1, sizeof(*s->wdead));
	if (!s->watch || !s->wdead)
		return -ENOMEM;
	for (n = 0; n < t->nnodes; n++) {
		struct sim_watch *w = &s->watch[n];

		if (t->node[n].is_host || dard_topo_tor_host(t, n) == DARD_NONE)
			continue;
		if (dard_share_scope_init(&sc, t, n))
			return -ENOMEM;
		free(sc.in);
		w->above = sc.above;
		if (dard_watch_plan(s->pc, t, dard_topo_tor_host(t, n),
				    w->above, &w->q, &w->nq))
			return -ENOMEM;
		w->dl = calloc((2 * (size_t)t->nlinks + 63) / 64 + 1,
			       sizeof(*w->dl));
		if (!w->dl)
			return -ENOMEM;
		for (i = 0; i < w->nq; i++)
			for (k = 0; k < w->q[i].nports; k++) {
				uint32_t dl = dard_port_dlink(t, w->q[i].sw,
							      w->q[i].ports[k]);

				if (dl != DARD_NONE)
					w->dl[dl / 64] |= 1ULL << (dl % 64);
			}
	}
	return 0;
}

void flowsim_watch_fini(struct sim *s)
{
	uint32_t n;

	for (n = 0; s->watch && n < s->t->nnodes; n++) {
		free(s->watch[n].above);
		free(s->watch[n].dl);
		dard_watch_free(s->watch[n].q, s->watch[n].nq);
	}
	free(s->watch);
	free(s->wdead);
	s->watch = NULL;
	s->wdead = NULL;
	s->next_watch = 0;
	s->watch_due = 0;
	s->nwdead = 0;
}

/* A host's query of switch sw, unless it asked it already (s->stamp). */
static void ask(struct sim *s, uint32_t sw)
{
	if (s->asked[sw] == s->stamp)
		return;
	s->asked[sw] = s->stamp;
	s->st->ctl_bytes += DARD_SIM_QUERY_BYTES + DARD_SIM_REPLY_BYTES;
}

/*
 * Whether the watch asks q's switch at this query: when it renews (every
 * mode.watch), and while a link of q is dead, as dardd's watch_asks.
 */
static int watch_asks(const struct sim *s, const struct dard_mon_query *q)
{
	unsigned k;

	if (s->watch_due)
		return 1;
	for (k = 0; s->nwdead && k < q->nports; k++) {
		uint32_t dl = dard_port_dlink(s->t, q->sw, q->ports[k]);

		if (dl != DARD_NONE && s->wdead[dl])
			return 1;
	}
	return 0;
}

/* Host h's watch queries, its own, sharing or not (dardd's watch.c). */
static void watch_ask(struct sim *s, uint32_t h)
{
	const struct sim_watch *w = &s->watch[dard_topo_tor(s->t, h)];
	unsigned k;

	for (k = 0; k < w->nq; k++)
		if (watch_asks(s, &w->q[k]))
			ask(s, w->q[k].sw);
}

/*
 * The directed links of q that the host needs, each once, added to the
 * have its WANT holds so far: what one WANT datagram carries, as dardd's
 * want_add. *over says q needs a link beyond: the host asks q's switch
 * itself, as dardd does for a link no SHARE covers.
 */
static unsigned share_need(struct sim *s, const struct dard_mon_query *q,
			   uint64_t mine, uint64_t *sig, unsigned have,
			   int *over)
{
	unsigned k, n = 0;

	for (k = 0; k < q->nports; k++) {
		uint32_t dl = dard_port_dlink(s->t, q->sw, q->ports[k]);

		if (dl == DARD_NONE || s->dlhost[dl] == mine)
			continue;
		if (have + n == DARD_SHARE_WANTS_MAX) {
			*over = 1;
			continue;
		}
		s->dlhost[dl] = mine;
		*sig += dard_share_mix(dl);
		n++;
	}
	return n;
}

/* A message of n records of len bytes each, split into datagrams. */
static double share_bytes(unsigned n, unsigned len, unsigned max)
{
	return (double)n * len +
	       (double)((n + max - 1) / max) *
		       (DARD_SHARE_HDR_LEN + DARD_SHARE_MAC_LEN);
}

/*
 * Query q of host h under sharing: its shared links into h's WANT, and
 * its switch asked, by h unless the ToR's sharer asked it (group) or h
 * did (mine).
 */
static void share_query(struct sim *s, struct share_want *w,
			const struct share_tor *st,
			const struct dard_mon_query *q, uint64_t mine,
			uint64_t group)
{
	if (st->above[q->sw]) {
		int over = 0;
		unsigned n;

		n = share_need(s, q, mine, &w->cur, w->n, &over);
		w->n += n;
		w->nrec += n;
		if (s->asked[q->sw] >= group &&
		    (!over || s->asked[q->sw] == mine))
			return;
	} else if (s->asked[q->sw] == mine) {
		return;
	}
	s->asked[q->sw] = mine;
	s->st->ctl_bytes += DARD_SIM_QUERY_BYTES + DARD_SIM_REPLY_BYTES;
}

/*
 * One host's queries under sharing: the ToR's shared switches once
 * (group), the others its own; its monitors', then its watch's, never
 * shared (dardd's watch.c). Notes in its want how many shared links it
 * needs now and their signature.
 */
static void share_host(struct sim *s, const struct share_tor *st, uint32_t h,
		       uint64_t group)
{
	struct share_want *w = &s->want[h];
	uint64_t mine = ++s->stamp;
	const struct sim_watch *sw;
	struct mon *m;
	unsigned k;

	w->prev = w->sig;
	w->cur = 0;
	w->n = 0;
	w->nrec = 0;
	for (m = s->hmon[h]; m; m = m->hnext)
		for (k = 0; !m->quiet && k < m->m->nqueries; k++)
			share_query(s, w, st, &m->m->query[k], mine, group);
	/* The watch its own: each host watches for itself (dardd's watch.c). */
	sw = s->watch ? &s->watch[st->tor] : NULL;
	for (k = 0; sw && k < sw->nq; k++)
		if (watch_asks(s, &sw->q[k]) && s->asked[sw->q[k].sw] != mine) {
			s->asked[sw->q[k].sw] = mine;
			s->st->ctl_bytes +=
				DARD_SIM_QUERY_BYTES + DARD_SIM_REPLY_BYTES;
		}
}

static void share_count(struct sim *s, double bytes)
{
	s->st->ctl_bytes += bytes;
	s->st->share_bytes += bytes;
}

/*
 * The agents' notices of directed link dl's change (proto.h): one to
 * every host under each ToR whose watch names dl, each its own watcher,
 * counted at the paper's reply size, as the replies are.
 */
static void notices(struct sim *s, uint32_t dl)
{
	const struct dard_topo *t = s->t;
	uint32_t tor, h;
	unsigned k, nh;

	for (tor = 0; tor < t->nnodes; tor++) {
		if (!flowsim_watched(s, tor, dl))
			continue;
		nh = 0;
		for_each_port(t, tor, k) {
			h = dard_topo_peer(t, tor, k);
			nh += h != DARD_NONE && t->node[h].is_host;
		}
		s->st->notices += nh;
		s->st->ctl_bytes += nh * DARD_SIM_REPLY_BYTES;
	}
}

int flowsim_watch_notice(struct sim *s, uint32_t l, int dead)
{
	uint32_t dl;
	int told = 0;

	if (!s->watch)
		return 0;
	for (dl = 2 * l; dl <= 2 * l + 1; dl++) {
		if (s->wdead[dl] == dead)
			continue;
		s->wdead[dl] = dead;
		s->nwdead += dead ? 1 : -1;
		notices(s, dl);
		told = 1;
	}
	return told;
}

/*
 * Whether this query renews the watch (every mode.watch, half a query
 * interval early, as dardd's watch_tick). What it knows dead the
 * notices tell (flowsim_watch_notice), at the failure's instant.
 */
void flowsim_watch_query(struct sim *s)
{
	double every = s->mode.watch;

	if (!s->watch)
		return;
	s->watch_due = s->now >= s->next_watch;
	if (s->watch_due)
		s->next_watch = s->now + every - fmin(every, s->mode.query) / 2;
}

/*
 * Host h's WANT, when its needs changed or are due again (dardd's
 * want_update): to every peer when it becomes active (it had none) or
 * its 10 s refresh is due, else to the active ones only (who alone ask
 * switches and share); and each active peer that did not announce
 * itself now owes it its own.
 */
static void share_want(struct sim *s, const struct share_tor *st, uint32_t h,
		       unsigned active)
{
	const struct dard_topo *t = s->t;
	struct share_want *w = &s->want[h];
	double size =
		share_bytes(w->n, DARD_SHARE_WREC_LEN, DARD_SHARE_WANTS_MAX);
	int due = w->n && s->now - w->at >= DARD_SHARE_WANT_REFRESH_MS / 1e3;
	unsigned k;

	if (!w->n)
		size = DARD_SHARE_HDR_LEN + DARD_SHARE_MAC_LEN;
	if (w->cur == w->sig && !due)
		return;
	if (w->sig && due) {
		share_count(s, (st->nhosts - 1) * size);
	} else if (w->sig || !w->n) {
		share_count(s, (active - !!w->n) * size);
	} else {
		share_count(s, (st->nhosts - 1) * size);
		for_each_port(t, st->tor, k) {
			uint32_t p = dard_topo_peer(t, st->tor, k);
			const struct share_want *pw = &s->want[p];

			if (p != h && p != DARD_NONE && t->node[p].is_host &&
			    pw->n && pw->prev)
				share_count(s,
					    share_bytes(pw->n,
							DARD_SHARE_WREC_LEN,
							DARD_SHARE_WANTS_MAX));
		}
	}
	w->sig = w->cur;
	w->at = s->now;
}

/*
 * What dardd sends when a ToR's hosts share (share.h): per ToR, each
 * switch they all ask (the ToR and those above) asked once per interval,
 * for every port any of them needs, by whichever host ticks first (here
 * the first in port order); that host sends each other host the records
 * it WANTs, 12 bytes a directed link, in SHAREs of at most 117 records
 * and 64 bytes of header and MAC each (their real size). A host's WANT
 * (4 bytes a link) goes to its peers when its needs change and every
 * 10 s (share_want). The switches below other ToRs' ancestors each host
 * asks for itself, as without sharing.
 */
static void query_shared(struct sim *s)
{
	const struct dard_topo *t = s->t;
	uint32_t i;
	unsigned k;

	for (i = 0; i < s->ntors; i++) {
		const struct share_tor *st = &s->tors[i];
		uint64_t group = ++s->stamp;
		unsigned active = 0;
		int sharer = 1;

		for_each_port(t, st->tor, k) {
			uint32_t h = dard_topo_peer(t, st->tor, k);

			if (h == DARD_NONE || !t->node[h].is_host)
				continue;
			share_host(s, st, h, group);
			active += s->want[h].n > 0;
			if (!s->want[h].n)
				continue;
			/* The first asks; every other gets what it wants. */
			if (sharer) {
				sharer = 0;
				continue;
			}
			share_count(s, share_bytes(s->want[h].nrec,
						   DARD_SHARE_REC_LEN,
						   DARD_SHARE_RECS_MAX));
		}
		for_each_port(t, st->tor, k) {
			uint32_t h = dard_topo_peer(t, st->tor, k);

			if (h != DARD_NONE && t->node[h].is_host)
				share_want(s, st, h, active);
		}
	}
}

void flowsim_queries(struct sim *s)
{
	struct mon *m;
	uint32_t i;
	unsigned k;

	if (s->o->share) {
		query_shared(s);
		return;
	}
	/*
	 * What dardd sends: one query to each switch any of a host's
	 * monitors or its watch asks, and its reply. A host's monitors are
	 * together in its list: a stamp per switch marks those it has asked.
	 */
	s->stamp++;
	for (m = s->mons; m; m = m->next) {
		struct mon *h;

		if (s->hmon[m->host] != m)
			continue;
		for (h = m; h; h = h->hnext)
			for (k = 0; !h->quiet && k < h->m->nqueries; k++)
				ask(s, h->m->query[k].sw);
		if (s->watch)
			watch_ask(s, m->host);
		s->stamp++;
	}
	/* The watch of every host without a monitor: its switches alone. */
	for (i = 0; s->watch && i < s->t->nhosts; i++)
		if (!s->hmon[s->t->hosts[i]]) {
			watch_ask(s, s->t->hosts[i]);
			s->stamp++;
		}
}
