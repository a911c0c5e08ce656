// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardctl dp weights: a destination's path weights for new flows, set or
 * shown (as the datapath applies them: each path's slots of its
 * DARD_WCMP_SLOTS-slot table).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "addr.h"
#include "ctlsock.h"
#include "ctl.h"
#include "args.h"
#include "load.h"
#include "dpopen.h"
#include "objects.h"
#include "dp.h"
#include "print.h"

/* DEST: an ID address as it is, or a host's name (the topology's). */
static int dest_arg(struct ctl *c, const char *s, uint32_t *id)
{
	uint32_t h;

	if (!dard_addr_parse(s, id))
		return 0;
	if (ctl_load(c))
		return -1;
	h = ctl_node(c, s, 1);
	if (h == DARD_NONE)
		return -1;
	*id = c->cfg.topo->node[h].id;
	return 0;
}

/* One destination's line; -ENOENT (not printed) if the datapath has none. */
static int show_one(struct ctl *c, struct dard_dp *dp, uint32_t id,
		    const char *host)
{
	uint16_t slots[DARD_PATHS_MAX];
	unsigned n = 0, i;
	char b[24];
	int ret = c->ops->weights(dp, id, slots, &n);

	if (ret < 0)
		return ret;
	open_json_object(NULL);
	print_string(PRINT_ANY, "dest", "%s", dard_addr_str(id, b));
	if (host)
		print_string(PRINT_ANY, "host", " (%s)", host);
	print_bool(PRINT_JSON, "weighted", NULL, ret);
	if (!ret)
		print_text(" even");
	open_json_array(PRINT_JSON, "slots");
	for (i = 0; ret && i < n; i++)
		print_uint(PRINT_ANY, NULL, i ? " %llu" : " slots %llu",
			   slots[i]);
	close_json_array(PRINT_JSON, NULL);
	if (ret)
		print_text(" of %u", DARD_WCMP_SLOTS);
	print_text("\n");
	close_json_object();
	return 0;
}

/* Every host of the topology the datapath has a destination for. */
static int show_all(struct ctl *c, struct dard_dp *dp, const char *ifname)
{
	const struct dard_topo *t;
	uint32_t h;
	int ret;

	if (ctl_load(c))
		return CTL_ERR;
	t = c->cfg.topo;
	for (h = 0; h < t->nnodes; h++) {
		if (!t->node[h].is_host)
			continue;
		ret = show_one(c, dp, t->node[h].id, t->node[h].name);
		if (ret && ret != -ENOENT) {
			fprintf(stderr, "Unable to read weights on %s: %s\n",
				ifname, dard_dp_strerror(ret));
			return CTL_ERR;
		}
	}
	return CTL_OK;
}

/* W0 W1 ... or even (*n 0) into w; CTL_OK or CTL_USAGE, said. */
static int parse_weights(int argc, char **argv, uint16_t *w, unsigned *n)
{
	uint32_t v, sum = 0;
	int i;

	*n = 0;
	if (argc == 1 && !strcmp(argv[0], "even"))
		return CTL_OK;
	if (argc > DARD_PATHS_MAX) {
		fprintf(stderr,
			"%d weights: a destination has at most %d paths\n",
			argc, DARD_PATHS_MAX);
		return CTL_USAGE;
	}
	for (i = 0; i < argc; i++) {
		if (ctl_parse_u32("weight", argv[i], 0, 65535, &v))
			return CTL_USAGE;
		w[i] = v;
		sum += v;
	}
	if (!sum) {
		fprintf(stderr,
			"Every weight is 0: give one above 0, or `even'\n");
		return CTL_USAGE;
	}
	*n = argc;
	return CTL_OK;
}

/*
 * Setting weights under a running dardd: it rewrites a destination's
 * weights (the controller's, or even on a fallback) and its dead bits,
 * each write a read-modify-write of the whole destination, as ours is: a
 * write of ours between its read and its write is lost, or ours puts
 * back dead bits it has just cleared or set. So not without force.
 */
static int dardd_guard(int force)
{
	if (!dard_ctl_bound())
		return CTL_OK;
	if (!force) {
		fprintf(stderr,
			"dardd runs in this network namespace: it owns the "
			"weights and may undo these, and the two writes race "
			"(datapath.md, \"Weighted new flows\"); add force to "
			"set them anyway\n");
		return CTL_ERR;
	}
	fprintf(stderr, "warning: dardd runs in this network namespace: it "
			"may overwrite these weights\n");
	return CTL_OK;
}

/* argv: IF [ DEST [ W0 W1 ... | even ] [ force ] ]. */
int ctl_dp_weights(struct ctl *c, int argc, char **argv)
{
	const char *ifname = argv[0], *dest = argc > 1 ? argv[1] : NULL;
	uint16_t w[DARD_PATHS_MAX];
	struct dard_dp *dp;
	uint32_t id = 0;
	unsigned n = 0;
	int ret, force = argc > 3 && !strcmp(argv[argc - 1], "force");

	argc -= force;
	if (argc > 2) {
		ret = parse_weights(argc - 2, argv + 2, w, &n);
		if (ret)
			return ret;
	}
	if (dest && dest_arg(c, dest, &id))
		return CTL_ERR;
	if (ctl_dp_open(c, ifname, &dp))
		return CTL_ERR;
	if (argc > 2 && dardd_guard(force)) {
		c->ops->close(dp);
		return CTL_ERR;
	}
	if (argc == 1) {
		ret = show_all(c, dp, ifname);
		c->ops->close(dp);
		return ret;
	}
	ret = argc > 2 ? c->ops->set_weights(dp, id, n ? w : NULL, n)
		       : show_one(c, dp, id, NULL);
	c->ops->close(dp);
	if (!ret)
		return CTL_OK;
	fprintf(stderr, "Unable to %s weights of %s on %s: %s\n",
		argc > 2 ? "set" : "read", dest, ifname,
		ret == -ENOENT	 ? "the datapath has no such destination"
		: ret == -EINVAL ? "not one weight per path of the destination"
				   " (dardctl path list shows them)"
				 : dard_dp_strerror(ret));
	return CTL_ERR;
}
