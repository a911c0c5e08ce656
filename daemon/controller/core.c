// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The controller without its sockets: what main, the unit tests and the
 * benchmark set up alike, each part by its own init.
 */
#include <errno.h>
#include <string.h>

#include "ctlr.h"
#include "err.h"

int ctlr_init(struct ctlr *c, const struct dard_config *cfg,
	      const struct dard_keys *keys, const struct ctlr_opts *o,
	      char *err)
{
	int ret;

	memset(c, 0, sizeof(*c));
	c->udp = c->swudp = c->ctl = c->tfd = c->epfd = -1;
	c->t = cfg->topo;
	c->o = *o;
	c->keys = keys;
	c->topo = dard_cp_topo_digest(c->t);
	c->pc = dard_pathctx_new(cfg->topo, cfg->plan);
	/* The LP's thread has its own: a path context is not shared. */
	if (o->algo == DARD_CP_ALGO_OBLIVIOUS)
		c->obl_pc = dard_pathctx_new(cfg->topo, cfg->plan);
	if (!c->pc || hosts_init(c) || links_init(c) || obl_init(c) ||
	    (o->algo == DARD_CP_ALGO_OBLIVIOUS && !c->obl_pc))
		return dard_fail(err, -ENOMEM, "out of memory");
	ret = paths_init(c);
	if (ret == -E2BIG)
		return dard_fail(err, ret,
				 "%s has more than %u shortest paths up from "
				 "a ToR to one level",
				 dard_topo_label(c->t), CTLR_CHAINS_MAX);
	if (ret)
		return dard_fail(err, ret, "out of memory");
	return round_init(c, err);
}

void ctlr_fini(struct ctlr *c)
{
	obl_fini(c);
	round_fini(c);
	links_fini(c);
	paths_fini(c);
	hosts_fini(c);
	dard_pathctx_free(c->pc);
	dard_pathctx_free(c->obl_pc);
	c->pc = c->obl_pc = NULL;
}
