// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * An elephant's life in dardd: tracked when the datapath names it (its
 * event, or a walk of the flow table that finds it), ended when it ends.
 * The elephant table, the monitors and the controller's report each
 * hear of it from here, so that none of them calls another.
 */
#include <arpa/inet.h>

#include "dardd_priv.h"
#include "controller.h"
#include "elephants.h"
#include "monitors.h"
#include "track.h"
#include "log.h"

struct elephant *track_add(struct dardd *d, const struct dard_flow_key *k,
			   const struct dard_alias_pair *pair, uint64_t now)
{
	uint32_t dst = dard_topo_find_id(d->t, ntohl(k->daddr));
	struct elephant *e;
	struct mon *mon;
	char b[96];

	if (el_find(d, k))
		return NULL;
	if (dst == DARD_NONE || dard_topo_tor(d->t, dst) == d->my_tor) {
		log_debug("elephant %s: %s", flow_str(k, b, sizeof(b)),
			  dst == DARD_NONE ? "not to a known ID"
					   : "under our own ToR, one path");
		return NULL;
	}
	e = el_insert(d, k, pair, dst, now);
	if (!e)
		return NULL;
	mon = mon_get(d, dard_topo_tor(d->t, dst), now);
	if (!mon) {
		el_remove(d, e);
		return NULL;
	}
	e->mon = mon;
	mon->nflows++;
	e->path = mon_path_of(d, mon, pair);
	el_hist_add(e, now, e->path);
	d->st.elephants++;
	log_info("elephant %s on path %d of %s", flow_str(k, b, sizeof(b)),
		 e->path + 1, d->t->node[mon->m->dst_tor].name);
	controller_note(d, e, 0);
	return e;
}

void track_end(struct dardd *d, struct elephant *e, const char *why)
{
	struct mon *mon = e->mon;
	char b[96];

	log_info("elephant %s ended (%s)", flow_str(&e->key, b, sizeof(b)),
		 why);
	controller_note(d, e, 1);
	d->st.ended++;
	el_remove(d, e);
	mon_put(d, mon);
}
