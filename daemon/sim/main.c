// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-sim: the flow-level simulator. --place places one demand with a
 * routing algorithm and prints the placement as JSON (place.c); --run
 * simulates the paper's section 4.3 under each scheduler (run.c, on
 * daemon/algo/flowsim.c). Options: opts.c.
 */
#include <limits.h>
#include <stdio.h>

#include "cfgfile.h"
#include "sim.h"
#include "stdopts.h"

int main(int argc, char **argv)
{
	/* Any tree runs: big generated ones get a wider base. */
	const struct dard_load_opts lo = {.mbps = 1000, .wide_base = 1};
	char err[DARD_ERR_MAX + PATH_MAX];
	struct dard_config cfg = {0};
	struct sim_args a;
	int ret;

	ret = sim_opts_parse(argc, argv, &a, err);
	if (ret != DARD_OPTS_RUN) {
		if (err[0])
			fprintf(stderr, "dard-sim: %s\n", err);
		return ret;
	}
	if (dard_topo_load(&cfg, a.topo, &lo, err, sizeof(err))) {
		fprintf(stderr, "dard-sim: %s\n", err);
		return 1;
	}
	if (a.mode == SIM_PLACE)
		ret = sim_place(cfg.topo, cfg.plan, &a);
	else
		ret = sim_run(cfg.topo, cfg.plan, &a);
	dard_config_free(&cfg);
	return ret;
}
