// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * What operators run without dard: switches route on the destination ID
 * with Linux multipath next hops (hashed on the 5-tuple, each switch with
 * its own seed: ctl_deploy.c), hosts send plainly, nothing is wrapped.
 * Every route a host below a switch can be reached by goes down; every
 * other destination goes up over all up ports.
 */
#include <stdlib.h>

#include "render.h"

void render_mark_hosts(const struct dard_topo *t, uint32_t node, uint8_t *below)
{
	const struct dard_node *n = &t->node[node];
	unsigned k;

	if (n->is_host) {
		below[node] = 1;
		return;
	}
	for (k = 0; k < n->ndown; k++) {
		uint32_t c = dard_topo_peer(t, node, n->down[k]);

		if (c != DARD_NONE)
			render_mark_hosts(t, c, below);
	}
}

static void nexthop(FILE *f, const struct dard_topo *t,
		    const struct dard_plan *p, uint32_t sw, unsigned port,
		    int multi)
{
	uint32_t mine, peer;
	char b[24], ifn[16];

	render_link_ends(t, p, sw, port, &mine, &peer);
	fprintf(f, "%svia %s dev %s", multi ? " nexthop " : " ",
		dard_addr_str(peer, b), render_ifname(t, sw, port, ifn));
}

void render_switch_ecmp(FILE *f, const struct dard_topo *t,
			const struct dard_plan *p, uint32_t sw, const char *ip)
{
	const struct dard_node *n = &t->node[sw];
	uint8_t **below = calloc(n->ndown + 1, sizeof(*below));
	unsigned k, j, cnt;
	uint32_t h;
	char b[24];

	fprintf(f,
		"# %s (%s): ECMP on the destination ID, down where the host\n"
		"# is below, else over every up port\n",
		n->name, t->level_name[n->level]);
	render_links(f, t, p, sw, ip);
	if (!below) {
		fprintf(f, "# out of memory\n");
		return;
	}
	for (k = 0; k < n->ndown; k++) {
		below[k] = calloc(t->nnodes, 1);
		if (!below[k]) {
			fprintf(f, "# out of memory\n");
			goto out;
		}
		render_mark_hosts(t, dard_topo_peer(t, sw, n->down[k]),
				  below[k]);
	}
	for (j = 0; j < t->nhosts; j++) {
		h = t->hosts[j];
		for (cnt = 0, k = 0; k < n->ndown; k++)
			cnt += below[k][h];
		if (!cnt)
			continue;
		/* proto before the next hops: ip takes all after them. */
		fprintf(f, "%sroute add %s/32 proto static", ip,
			dard_addr_str(t->node[h].id, b));
		for (k = 0; k < n->ndown; k++)
			if (below[k][h])
				nexthop(f, t, p, sw, n->down[k], cnt > 1);
		fprintf(f, "\n");
	}
	if (n->nup) {
		fprintf(f, "%sroute add default proto static", ip);
		for (k = 0; k < n->nup; k++)
			nexthop(f, t, p, sw, n->up[k], n->nup > 1);
		fprintf(f, "\n");
	}
out:
	for (k = 0; k < n->ndown; k++)
		free(below[k]);
	free(below);
}
