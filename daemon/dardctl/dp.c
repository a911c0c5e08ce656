// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardctl dp: attach the host datapath to an interface, or detach it; its
 * stats, events and weights.
 */
#include <errno.h>
#include <ifaddrs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "ctl.h"
#include "args.h"
#include "load.h"
#include "dpopen.h"
#include "format.h"
#include "objects.h"
#include "objopts.h"
#include "dp.h"
#include "print.h"

static int usage(FILE *f)
{
	fprintf(f,
		"Usage: dardctl dp attach IF [ host NAME ] [ elephant-age SECONDS ]\n"
		"               [ elephant-bytes BYTES ] [ elephant-dscp { DSCP | copy } ]\n"
		"               [ cgroup DIR ] [ device DEV ] [ TOPO_OPTS ] [ DP_OPTS ]\n"
		"       dardctl dp detach IF [ DP_OPTS ]\n"
		"       dardctl dp stats IF [ DP_OPTS ]\n"
		"       dardctl dp events IF [ wait MS ] [ DP_OPTS ]\n"
		"       dardctl dp weights IF [ DEST [ { W0 W1 ... | even } [ force ] ] ]\n"
		"               [ TOPO_OPTS ] [ DP_OPTS ]\n"
		"Where: KIND := { auto | bpf | kmod }\n"
		"       DEST := { ID | HOST }\n");
	ctl_opts_usage(f, "       ", CTL_OPTS_TOPO | CTL_OPTS_DP);
	fprintf(f,
		"\n"
		"attach  attach the host datapath to fabric interface IF for host NAME\n"
		"        (default: the host whose ID is configured here), with this\n"
		"        host's aliases and its alias pairs to every other host from the\n"
		"        configuration. A flow is an elephant once it has lived SECONDS\n"
		"        (default 10, the paper's) and carried BYTES of payload, TCP's\n"
		"        or UDP's data, and at least one (default: a tenth of a second\n"
		"        at the configured capacity of NAME's link to its ToR; 0: any\n"
		"        data), so a transfer's ACK stream is never one; its outer\n"
		"        packets then carry DSCP (default 8).\n"
		"        bpf: programs on IF's TC hooks, maps pinned in DIR/IF (default\n"
		"        " DARD_PIN_ROOT
		"/IF), so forwarding outlives dardctl; a TCP flow of a\n"
		"        socket in cgroup v2 DIR (default: cgroup2's root) moves to\n"
		"        another path on a retransmission timeout.\n"
		"        kmod: the dard device DEV (default dard0, the first free\n"
		"        dardN) over IF, made unless IF has one, with the ID route\n"
		"        pointed at it (--pin and cgroup do not apply).\n"
		"        auto (default $DARD_DATAPATH, else auto): what IF has, else\n"
		"        kmod when dard.ko is loaded, else bpf.\n"
		"        IF may also name the dard device itself, from detach on.\n"
		"detach  bpf: remove the programs, the clsact qdisc if attach made it,\n"
		"        and the pins. kmod: delete the dard device; the ID route goes\n"
		"        back to IF.\n"
		"stats   what the datapath did with the packets it saw.\n"
		"events  the elephant and flow-end events waiting (bpf: in the ring\n"
		"        buffer; kmod: none, as they are not queued for a process that\n"
		"        did not listen), then any that arrive within MS milliseconds\n"
		"        (default 0).\n"
		"weights new flows to DEST take its paths in proportion to W0 W1 ...\n"
		"        (one per path, in `dardctl path list' order, each\n"
		"        0-65535, not all 0; 0: never chosen while another path\n"
		"        is), or evenly again (even, the default). Known flows stay\n"
		"        where they are; a dead path is still avoided. Without\n"
		"        weights: DEST's weights as applied, each path's slots of %u,\n"
		"        or even; without DEST: every host's the datapath has. For a\n"
		"        datapath without dardd: where dardd runs (its control socket\n"
		"        bound), setting is refused unless force (dardd owns the\n"
		"        weights and may undo them; the two writes race).\n",
		DARD_WCMP_SLOTS);
	return f == stdout ? CTL_OK : CTL_USAGE;
}

/* The host whose ID is on one of this machine's interfaces. */
static uint32_t local_host(struct ctl *c)
{
	const struct dard_topo *t = c->cfg.topo;
	struct ifaddrs *ifa, *i;
	uint32_t found = DARD_NONE;

	if (getifaddrs(&ifa))
		return DARD_NONE;
	for (i = ifa; i && found == DARD_NONE; i = i->ifa_next) {
		uint32_t a;

		if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET)
			continue;
		a = ntohl(((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr);
		found = dard_topo_find_id(t, a);
	}
	freeifaddrs(ifa);
	return found;
}

static int dp_attach(struct ctl *c, int argc, char **argv)
{
	struct dard_dp_opts o;
	char err[DARD_ERR_MAX];
	const char *host = NULL;
	struct dard_dp *dp;
	uint32_t me, dscp;
	int i, ret;

	dard_dp_opts_init(&o, argv[0], c->pin_root);
	for (i = 1; i < argc; i++) {
		const char *kw = argv[i],
			   *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!val) {
			fprintf(stderr, "dp attach: `%s' needs a value\n", kw);
			return usage(stderr);
		}
		i++;
		if (!strcmp(kw, "host")) {
			host = val;
		} else if (!strcmp(kw, "device")) {
			o.kmod_dev = val;
		} else if (!strcmp(kw, "cgroup")) {
			o.cgroup = val;
		} else if (!strcmp(kw, "elephant-age")) {
			/* A day at most: longer is no elephant test at all. */
			if (ctl_parse_seconds(kw, val, 0, 86400,
					      &o.elephant_age_ns))
				return CTL_USAGE;
		} else if (!strcmp(kw, "elephant-bytes")) {
			if (ctl_parse_u64(kw, val, 0, UINT64_MAX,
					  &o.elephant_bytes))
				return CTL_USAGE;
		} else if (!strcmp(kw, "elephant-dscp")) {
			if (!strcmp(val, "copy")) {
				o.elephant_dscp = -1;
			} else {
				/* DSCP is six bits. */
				if (ctl_parse_u32(kw, val, 0, 63, &dscp))
					return CTL_USAGE;
				o.elephant_dscp = dscp;
			}
		} else {
			fprintf(stderr, "dp attach: unexpected `%s %s'\n", kw,
				val);
			return usage(stderr);
		}
	}
	if (ctl_load(c))
		return CTL_ERR;
	me = host ? ctl_node(c, host, 1) : local_host(c);
	if (me == DARD_NONE) {
		if (!host)
			fprintf(stderr,
				"No host of %s has its ID here: give host NAME\n",
				c->cfg.topo->name);
		return CTL_ERR;
	}
	c->ops = dard_dp_choose(c->dp_kind, o.ifname, c->pin_root);
	ret = dard_dp_attach_host(c->ops, &dp, &o, c->cfg.topo, c->cfg.plan, me,
				  err);
	if (ret) {
		fprintf(stderr, "%s%s\n", err,
			ret == -EEXIST ? " (already attached; detach first)"
			: ret == -EXDEV
				? " (bpffs is not mounted and this is a private mount namespace, as under ip netns exec: use nsenter --net)"
				: "");
		return CTL_ERR;
	}
	c->ops->close(dp);
	return CTL_OK;
}

static int dp_stats(struct ctl *c, const char *ifname)
{
	uint64_t v[__DARD_STAT_MAX];
	struct dard_dp *dp;
	unsigned i;

	if (ctl_dp_open(c, ifname, &dp))
		return CTL_ERR;
	c->ops->stats(dp, v);
	c->ops->close(dp);
	open_json_object(NULL);
	print_string(PRINT_ANY, "dev", "%s\n", ifname);
	for (i = 0; i < __DARD_STAT_MAX; i++) {
		print_text("  %-22s",
			   dard_stat_name(i)); /* new_flow_dead_avoided */
		print_uint(PRINT_ANY, dard_stat_name(i), " %llu\n", v[i]);
	}
	close_json_object();
	return CTL_OK;
}

static int event_cb(const struct dard_event *ev, void *arg)
{
	char ps[16], pd[16];

	inet_ntop(AF_INET, &ev->path.saddr, ps, sizeof(ps));
	inet_ntop(AF_INET, &ev->path.daddr, pd, sizeof(pd));
	open_json_object(NULL);
	print_string(PRINT_ANY, "event", "%s",
		     ev->type == DARD_EVENT_ELEPHANT ? "elephant" : "end");
	print_uint(PRINT_ANY, "proto", " proto %llu", ev->key.proto);
	ctl_print_ends(&ev->key);
	print_string(PRINT_ANY, "saddr", " via %s", ps);
	print_string(PRINT_ANY, "daddr", " -> %s", pd);
	print_uint(PRINT_ANY, "bytes", " bytes %llu\n", ev->bytes);
	close_json_object();
	return 0;
}

static int dp_events(struct ctl *c, int argc, char **argv)
{
	struct dard_dp *dp;
	uint32_t wait = 0;
	int ret;

	if (argc == 3 && !strcmp(argv[1], "wait")) {
		/* Milliseconds, an hour at most. */
		if (ctl_parse_u32("wait", argv[2], 0, 3600000, &wait))
			return CTL_USAGE;
	} else if (argc != 1) {
		fprintf(stderr, "dp events: unexpected `%s'\n", argv[1]);
		return usage(stderr);
	}
	if (ctl_dp_open(c, argv[0], &dp))
		return CTL_ERR;
	/* Drain what is there, then wait for more. */
	ret = c->ops->poll(dp, event_cb, NULL, 0);
	if (ret >= 0 && wait)
		ret = c->ops->poll(dp, event_cb, NULL, wait);
	c->ops->close(dp);
	if (ret < 0) {
		fprintf(stderr, "Unable to read events: %s\n",
			dard_dp_strerror(ret));
		return CTL_ERR;
	}
	return CTL_OK;
}

int do_dp(struct ctl *c, int argc, char **argv)
{
	struct dard_dp *dp;
	int ret;

	if (argc < 1)
		return usage(stderr);
	if (ctl_wants_help(argc, argv))
		return usage(stdout);
	if (argc < 2) {
		fprintf(stderr, "dp %s: which interface?\n", argv[0]);
		return usage(stderr);
	}
	if (!strcmp(argv[0], "attach"))
		return dp_attach(c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "events"))
		return dp_events(c, argc - 1, argv + 1);
	if (!strcmp(argv[0], "weights"))
		return ctl_dp_weights(c, argc - 1, argv + 1);
	if (argc > 2) {
		fprintf(stderr, "dp %s: unexpected `%s'\n", argv[0], argv[2]);
		return usage(stderr);
	}
	if (!strcmp(argv[0], "stats"))
		return dp_stats(c, argv[1]);
	if (strcmp(argv[0], "detach"))
		return ctl_unknown("dp", argv[0]);
	if (ctl_dp_open(c, argv[1], &dp))
		return CTL_ERR;
	ret = c->ops->detach(dp);
	c->ops->close(dp);
	if (ret) {
		fprintf(stderr, "Unable to detach from %s: %s\n", argv[1],
			ret == -EXDEV
				? "it was attached in another network namespace"
				: dard_dp_strerror(ret));
		return CTL_ERR;
	}
	return CTL_OK;
}
