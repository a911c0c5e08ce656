// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The topology and address plan the options name (load.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>

#include "cfgfile.h"
#include "ctl.h"
#include "load.h"

int ctl_load(struct ctl *c)
{
	/* Generated trees keep 10.0.0.0/8 unless --base says otherwise. */
	const struct dard_load_opts o = {
		.mbps = c->mbps,
		.over = &c->opts,
		.mask = c->opts_mask,
	};
	char err[DARD_ERR_MAX + PATH_MAX] = "";
	int ret;

	if (c->loaded)
		return 0;
	ret = dard_topo_load(&c->cfg, dard_config_path(c->topo_arg), &o, err,
			     sizeof(err));
	if (ret) {
		fprintf(stderr, "%s%s\n", err,
			ret == -ENOENT && !c->topo_arg
				? " (give --topo fattree:P, clos:DI,DA, 3tier or FILE)"
				: "");
		return -1;
	}
	c->loaded = 1;
	return 0;
}

uint32_t ctl_node(struct ctl *c, const char *name, int want_host)
{
	const struct dard_topo *t = c->cfg.topo;
	uint32_t n = dard_topo_find(t, name);

	if (n == DARD_NONE) {
		fprintf(stderr, "No node `%s' in %s\n", name, t->name);
		return DARD_NONE;
	}
	if (want_host > 0 && !t->node[n].is_host) {
		fprintf(stderr, "`%s' is a switch, not a host\n", name);
		return DARD_NONE;
	}
	if (!want_host && t->node[n].is_host) {
		fprintf(stderr, "`%s' is a host, not a switch\n", name);
		return DARD_NONE;
	}
	return n;
}
