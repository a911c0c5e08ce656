// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Filling a freshly attached datapath from the address plan. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <linux/dard_policy.h>

#include "addr6.h"
#include "dp.h"
#include "addr.h"
#include "err.h"
#include "path.h"
#include "repair.h"
#include "sched.h"

struct collect {
	struct dard_alias_pair path[DARD_PATHS_MAX];
	struct dard_path full[DARD_PATHS_MAX];
	uint8_t next[DARD_PATHS_MAX];
	uint32_t next_tor; /* the ToR next[] is for; UINT32_MAX: none */
	unsigned next_n, n;
};

static int collect_cb(const struct dard_path *p, void *arg)
{
	struct collect *c = arg;

	if (c->n == DARD_PATHS_MAX)
		return -E2BIG;
	c->path[c->n].saddr = htonl(p->saddr);
	c->path[c->n].daddr = htonl(p->daddr);
	c->full[c->n] = *p;
	c->n++;
	return 0;
}

/*
 * The repair order depends only on the switches, which the hosts under
 * one ToR share: computed once per ToR, for the hosts in a row under it.
 */
static const uint8_t *repair_order(struct collect *c, uint32_t tor)
{
	if (c->next_tor != tor || c->next_n != c->n) {
		dard_repair_order(c->full, c->n, c->next);
		c->next_tor = tor;
		c->next_n = c->n;
	}
	return c->next;
}

/*
 * Fills a datapath just attached for host me: its aliases, and its paths
 * to every other host. Returns 0, or -errno with err (DARD_ERR_MAX) set.
 */
static int dard_dp_program(const struct dard_dp_ops *ops, struct dard_dp *dp,
			   const struct dard_topo *t, const struct dard_plan *p,
			   uint32_t me, char *err)
{
	struct dard_pathctx *pc = dard_pathctx_new(t, p);
	struct collect *col = malloc(sizeof(*col));
	uint32_t i;
	int ret = 0;

	if (!pc || !col) {
		ret = dard_fail(err, -ENOMEM, "out of memory");
		goto out;
	}
	col->next_tor = UINT32_MAX;
	for (i = 0; i < dard_plan_naliases(t, me) && !ret; i++) {
		ret = ops->add_alias(dp, dard_plan_alias(t, p, me, i));
		if (ret)
			dard_fail(err, ret, "adding alias %u of %s: %s", i,
				  t->node[me].name, dard_dp_strerror(ret));
	}
	for (i = 0; i < t->nhosts && !ret; i++) {
		uint32_t h = t->hosts[i];
		long n;

		if (h == me)
			continue;
		col->n = 0;
		n = dard_path_foreach(pc, me, h, collect_cb, col);
		if (n < 0) {
			ret = dard_fail(err, (int)n,
					"%s to %s: more than %d paths",
					t->node[me].name, t->node[h].name,
					DARD_PATHS_MAX);
		} else if (n > 0) {
			ret = ops->set_dest(
				dp, t->node[h].id, col->path, col->n,
				repair_order(col, dard_topo_tor(t, h)));
			if (ret)
				dard_fail(err, ret, "paths to %s: %s",
					  t->node[h].name,
					  dard_dp_strerror(ret));
		}
	}
out:
	free(col);
	dard_pathctx_free(pc);
	return ret;
}

void dard_dp_opts_init(struct dard_dp_opts *o, const char *ifname,
		       const char *pin_root)
{
	memset(o, 0, sizeof(*o));
	o->ifname = ifname;
	o->pin_root = pin_root;
	o->elephant_age_ns = 10ULL * 1000000000;
	o->elephant_bytes = DARD_DP_ELEPHANT_BYTES_AUTO;
	o->elephant_dscp = 8;
}

uint64_t dard_dp_elephant_bytes(const struct dard_dp_opts *o,
				const struct dard_topo *t, uint32_t me)
{
	if (o->elephant_bytes != DARD_DP_ELEPHANT_BYTES_AUTO)
		return o->elephant_bytes;
	if (!t)
		return 0;
	return dard_elephant_bytes_for(
		t->link[dard_host_dlink(t, me, DARD_UP) / 2].mbps);
}

int dard_dp_attach_host(const struct dard_dp_ops *ops, struct dard_dp **dp,
			struct dard_dp_opts *o, const struct dard_topo *t,
			const struct dard_plan *p, uint32_t me, char *err)
{
	char why[DARD_ERR_MAX];
	int ret;

	o->my_id = t->node[me].id;
	o->elephant_bytes = dard_dp_elephant_bytes(o, t, me);
	o->max_dests = t->nhosts;
	o->id_net = p->opts.ids.addr;
	o->id_plen = p->opts.ids.len;
	o->outer6 = dard_plan_outer6(p) ? p : NULL;
	ret = ops->attach(dp, o);
	if (ret)
		return dard_fail(err, ret,
				 "Unable to attach the datapath to %s: %s",
				 o->ifname, dard_dp_strerror(ret));
	ret = dard_dp_program(ops, *dp, t, p, me, why);
	if (ret) {
		ops->detach(*dp);
		ops->close(*dp);
		*dp = NULL;
		return dard_fail(err, ret,
				 "Unable to program the datapath on %s: %s",
				 o->ifname, why);
	}
	return 0;
}
