// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dard-switchd's watchers: the table and the notices owed. No I/O. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "watchers.h"

int sw_watchers_init(struct sw_watchers *ws, unsigned nports)
{
	memset(ws, 0, sizeof(*ws));
	ws->nports = nports;
	ws->w = calloc(SW_WATCHERS_SLOTS, sizeof(*ws->w));
	ws->bits = calloc((size_t)SW_WATCHERS_SLOTS * (nports ? nports : 1), 1);
	if (!ws->w || !ws->bits) {
		sw_watchers_free(ws);
		return -ENOMEM;
	}
	return 0;
}

void sw_watchers_free(struct sw_watchers *ws)
{
	free(ws->w);
	free(ws->bits);
	memset(ws, 0, sizeof(*ws));
}

unsigned sw_watchers_home(uint32_t sender)
{
	/* Fibonacci hashing: IDs differ in their low bits. */
	return (uint32_t)(sender * 2654435769U) >> (32 - 16);
}

_Static_assert(SW_WATCHERS_SLOTS == 1 << 16, "sw_watchers_home's bits");

/*
 * sender's live slot, else the first lapsed one of its probe, else -1.
 * A slot never used ends the probe: sender was never past it.
 */
static int find(const struct sw_watchers *ws, uint32_t sender, uint64_t now)
{
	unsigned i, k, home = sw_watchers_home(sender);
	int spare = -1;

	for (k = 0; k < SW_WATCHERS_PROBES; k++) {
		const struct sw_watcher *w;

		i = (home + k) & (SW_WATCHERS_SLOTS - 1);
		w = &ws->w[i];
		if (w->until > now && w->sender == sender)
			return (int)i;
		if (w->until <= now && spare < 0)
			spare = (int)i;
		if (!w->until)
			break;
	}
	return spare;
}

int sw_watchers_take(struct sw_watchers *ws, const struct sw_port *port,
		     unsigned nports, const struct dard_msg *q, uint32_t addr,
		     uint16_t udp_port, uint64_t now, uint64_t lease)
{
	int i = find(ws, q->sender, now);
	uint8_t *watched;
	unsigned j, k;

	if (i < 0)
		return -ENOSPC;
	ws->w[i] = (struct sw_watcher){.sender = q->sender,
				       .addr = addr,
				       .port = udp_port,
				       .key_id = q->key_id,
				       .until = now + lease};
	watched = sw_watched(ws, i);
	memset(watched, !q->count, ws->nports);
	for (k = 0; k < q->count; k++)
		for (j = 0; j < nports && j < ws->nports; j++)
			if (port[j].num == q->ports[k])
				watched[j] = 1;
	return 0;
}

unsigned sw_watchers_live(const struct sw_watchers *ws, uint64_t now)
{
	unsigned i, n = 0;

	for (i = 0; i < SW_WATCHERS_SLOTS; i++)
		n += ws->w[i].until > now;
	return n;
}

unsigned sw_watcher_notice(const struct sw_watchers *ws, unsigned i,
			   const struct sw_port *port, unsigned nports,
			   const uint8_t *changed, struct dard_port_state *st)
{
	const uint8_t *watched = sw_watched(ws, i);
	unsigned j, n = 0;

	/* No more than a notice carries (a watch names at most as many). */
	for (j = 0; j < nports && j < ws->nports && n < DARD_MSG_PORTS_MAX; j++)
		if (changed[j] && watched[j])
			sw_port_record(&st[n++], port[j].num, &port[j]);
	return n;
}
