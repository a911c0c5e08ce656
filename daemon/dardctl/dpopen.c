// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The host datapath on an interface (dpopen.h). */
#include <stdio.h>

#include "ctl.h"
#include "dp.h"
#include "dpopen.h"

int ctl_dp_open(struct ctl *c, const char *ifname, struct dard_dp **dp)
{
	int ret;

	c->ops = dard_dp_choose(c->dp_kind, ifname, c->pin_root);
	ret = c->ops->open(dp, ifname, c->pin_root);
	if (ret)
		fprintf(stderr, "No %s datapath on %s: %s\n", c->ops->name,
			ifname, dard_dp_strerror(ret));
	return ret;
}
