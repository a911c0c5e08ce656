// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Which backend drives a host's datapath: --datapath kmod|bpf|auto (or
 * $DARD_DATAPATH). auto follows what is there, so that dardctl finds the
 * datapath dardd attached whichever it is, and attaches the kernel
 * module's where the module is loaded.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dp.h"
#include "dp_kmod.h"

static const char *const kind_names[] = {
	[DARD_DP_AUTO] = "auto",
	[DARD_DP_BPF] = "bpf",
	[DARD_DP_KMOD] = "kmod",
};

int dard_dp_kind_parse(const char *s)
{
	unsigned i;

	if (!s)
		return DARD_DP_AUTO;
	for (i = 0; i < sizeof(kind_names) / sizeof(kind_names[0]); i++)
		if (!strcmp(s, kind_names[i]))
			return i;
	return -EINVAL;
}

const struct dard_dp_ops *dard_dp_pick(enum dard_dp_kind kind,
				       const struct dard_dp_seen *seen)
{
	if (kind == DARD_DP_BPF)
		return &dard_dp_bpf;
	if (kind == DARD_DP_KMOD)
		return &dard_dp_kmod;
	if (seen->dard_link)
		return &dard_dp_kmod;
	if (seen->pinned)
		return &dard_dp_bpf;
	return seen->module ? &dard_dp_kmod : &dard_dp_bpf;
}

const struct dard_dp_ops *
dard_dp_choose(enum dard_dp_kind kind, const char *ifname, const char *pin_root)
{
	struct dard_dp_seen seen = {};
	struct dard_klink dev;
	struct dard_knl k = {};
	char path[PATH_MAX];

	if (kind != DARD_DP_AUTO)
		return dard_dp_pick(kind, &seen);
	/* bpf_open needs every map: dard_meta stands for them all. */
	snprintf(path, sizeof(path), "%s/%s/dard_meta",
		 pin_root ? pin_root : DARD_PIN_ROOT, ifname);
	seen.pinned = !access(path, F_OK);
	/* Only a loaded module: asking the controller for the family by
	 * name would load an installed one (MODULE_ALIAS_GENL_FAMILY). */
	if (!access("/sys/module/dard", F_OK) && !dard_knl_open(&k)) {
		seen.module = 1;
		dard_knl_close(&k);
		seen.dard_link = !dard_klink_find(ifname, &dev);
	}
	return dard_dp_pick(kind, &seen);
}
