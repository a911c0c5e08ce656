// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Filling a freshly attached datapath from the address plan. */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dp.h"
#include "lib/err.h"
#include "lib/path.h"

struct collect {
	struct dard_alias_pair path[DARD_PATHS_MAX];
	unsigned n;
};

static int collect_cb(const struct dard_path *p, void *arg)
{
	struct collect *c = arg;

	if (c->n == DARD_PATHS_MAX)
		return -E2BIG;
	c->path[c->n].saddr = htonl(p->saddr);
	c->path[c->n].daddr = htonl(p->daddr);
	c->n++;
	return 0;
}

int dard_dp_program(const struct dard_dp_ops *ops, struct dard_dp *dp,
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
	for (i = 0; i < dard_plan_naliases(t, me) && !ret; i++) {
		ret = ops->add_alias(dp, dard_plan_alias(t, p, me, i));
		if (ret)
			dard_fail(err, ret, "adding alias %u of %s: %s", i,
				  t->node[me].name, strerror(-ret));
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
			ret = ops->set_dest(dp, t->node[h].id, col->path,
					    col->n);
			if (ret)
				dard_fail(err, ret, "paths to %s: %s",
					  t->node[h].name, strerror(-ret));
		}
	}
out:
	free(col);
	dard_pathctx_free(pc);
	return ret;
}
