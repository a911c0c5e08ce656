// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Our elephants: every flow the datapath reported as an elephant and that
 * has not ended, by flow key, each with its monitor, its path and the
 * paths it took. A table and nothing more: it calls no other part of
 * dardd; flows.c tracks and ends elephants, telling the monitors and
 * the controller.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "dardd_priv.h"
#include "elephants.h"
#include "monitors.h"
#include "rng.h"

const char *flow_str(const struct dard_flow_key *k, char *buf, size_t len)
{
	char s[INET_ADDRSTRLEN], dst[INET_ADDRSTRLEN], p[DARD_IPPROTO_STRLEN];

	inet_ntop(AF_INET, &k->saddr, s, sizeof(s));
	inet_ntop(AF_INET, &k->daddr, dst, sizeof(dst));
	snprintf(buf, len, "%s %s:%u -> %s:%u", dard_ipproto_name(k->proto, p),
		 s, ntohs(k->sport), dst, ntohs(k->dport));
	return buf;
}

void el_hist_add(struct elephant *e, uint64_t now, int path)
{
	if (e->nhist == HIST_MAX) {
		memmove(e->hist, e->hist + 1,
			sizeof(e->hist[0]) * (HIST_MAX - 1));
		e->nhist--;
	}
	e->hist[e->nhist].ns = now;
	e->hist[e->nhist].path = path;
	e->nhist++;
}

static struct elephant **el_bucket(struct dardd *d,
				   const struct dard_flow_key *k)
{
	uint64_t a, b;

	_Static_assert(sizeof(*k) == 2 * sizeof(a), "a key is two words");
	memcpy(&a, k, sizeof(a));
	memcpy(&b, (const char *)k + sizeof(a), sizeof(b));
	return &d->elh[dard_mix64(a ^ dard_mix64(b)) % EL_BUCKETS];
}

struct elephant *el_find(struct dardd *d, const struct dard_flow_key *k)
{
	struct elephant *e;

	for (e = *el_bucket(d, k); e; e = e->hnext)
		if (!memcmp(&e->key, k, sizeof(*k)))
			return e;
	return NULL;
}

struct elephant *el_insert(struct dardd *d, const struct dard_flow_key *k,
			   const struct dard_alias_pair *pair, uint32_t dst,
			   uint64_t now)
{
	struct elephant *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->key = *k;
	e->dst = dst;
	e->pair = *pair;
	e->path = -1;
	e->since_ns = now;
	/* Until a walk reads the flow table's: it lived the age at least. */
	e->first_ns = now > d->o.age_ns ? now - d->o.age_ns : 0;
	e->seen = 1;
	e->left = -1;
	e->rate = -1;
	e->next = d->els;
	if (e->next)
		e->next->pprev = &e->next;
	e->pprev = &d->els;
	d->els = e;
	e->hnext = *el_bucket(d, k);
	*el_bucket(d, k) = e;
	return e;
}

static void el_unlink(struct dardd *d, struct elephant *e)
{
	struct elephant **pp;

	*e->pprev = e->next;
	if (e->next)
		e->next->pprev = e->pprev;
	for (pp = el_bucket(d, &e->key); *pp != e; pp = &(*pp)->hnext)
		;
	*pp = e->hnext;
}

void el_remove(struct dardd *d, struct elephant *e)
{
	el_unlink(d, e);
	free(e);
}

void elephants_init(struct dardd *d)
{
	d->els = NULL;
	memset(d->elh, 0, sizeof(d->elh));
}

/* At exit: the flows go on without us, so nothing is logged as ended. */
void elephants_fini(struct dardd *d)
{
	struct elephant *e;

	while ((e = d->els)) {
		el_unlink(d, e);
		free(e);
	}
}

/* A flow's share of our up link: the link's rate over our elephants. */
static double share_of(const struct dardd *d)
{
	uint32_t up = dard_host_dlink(d->t, d->me, DARD_UP);

	return d->t->link[up / 2].mbps / (d->nel ? d->nel : 1);
}

/* The table links every elephant: the monitor's are those that name it. */
static const void *el_next(void *arg, const void *cur,
			   struct dard_round_flow *f)
{
	struct mon *mon = arg;
	const struct dardd *d = mon->d;
	const struct elephant *e;

	e = cur ? ((const struct elephant *)cur)->next : d->els;
	for (; e; e = e->next)
		if (e->mon == mon) {
			f->path = e->path;
			f->moves = e->moves;
			f->neutral = e->neutral;
			/* Never moved by a round: long ago, for the hold. */
			f->moved_at =
				e->moved_ns ? e->moved_ns / 1e9 : -HUGE_VAL;
			f->moved_rate = e->moved_rate;
			f->moved_est = e->moved_est;
			f->rate = e->rate;
			f->idle_rate = e->idle_rate;
			f->share = share_of(d);
			return e;
		}
	return NULL;
}

void el_iter(struct mon *mon, struct dard_flow_iter *it)
{
	it->next = el_next;
	it->arg = mon;
	it->may_move = NULL;
}
