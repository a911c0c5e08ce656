// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The link-state table (links.h), a part of its own: the switches'
 * answers and the peers' shares write it through libdard's
 * dard_reply_apply() and dard_share_apply(), the monitors read it.
 */
#include <errno.h>
#include <stdlib.h>

#include "dardd_priv.h"
#include "links.h"

int links_init(struct dardd *d)
{
	struct dardd_links *l = &d->links;
	size_t ndl = 2 * (size_t)d->t->nlinks;

	l->ls = calloc(ndl, sizeof(*l->ls));
	l->when = calloc(ndl, sizeof(*l->when));
	l->stamp = calloc(ndl, sizeof(*l->stamp));
	l->tick = 0;
	return l->ls && l->when && l->stamp ? 0 : -ENOMEM;
}

void links_fini(struct dardd *d)
{
	struct dardd_links *l = &d->links;

	free(l->ls);
	free(l->when);
	free(l->stamp);
	l->ls = NULL;
	l->when = l->stamp = NULL;
}

void links_tick(struct dardd *d)
{
	d->links.tick++;
}

int links_claimed(const struct dardd *d, uint32_t dl)
{
	return d->links.stamp[dl] == d->links.tick;
}

void links_claim(struct dardd *d, uint32_t dl)
{
	d->links.stamp[dl] = d->links.tick;
}

int links_fresh(const struct dardd *d, uint32_t dl, uint64_t now)
{
	uint64_t when = d->links.when[dl];

	return when && now - when <= d->o.max_age_ns;
}
