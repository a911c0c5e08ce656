// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dardctl flow: the datapath's flows, and moving one to another path. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "ctl.h"
#include "addr6.h"
#include "args.h"
#include "load.h"
#include "dpopen.h"
#include "format.h"
#include "objects.h"
#include "objopts.h"
#include "dp.h"
#include "num.h"
#include "path.h"
#include "print.h"

static int usage(FILE *f)
{
	fprintf(f,
		"Usage: dardctl flow show [ dev IF ] [ TOPO_OPTS ] [ DP_OPTS ]\n"
		"       dardctl flow move dev IF FLOW path N [ TOPO_OPTS ] [ DP_OPTS ]\n"
		"       dardctl flow sweep dev IF idle SECONDS [ TOPO_OPTS ] [ DP_OPTS ]\n"
		"Where: FLOW := PROTO SRC_ID[:PORT] DST_ID[:PORT]\n"
		"       PROTO := { tcp | udp | icmp | NUMBER }\n"
		"       KIND := { auto | bpf | kmod }\n");
	ctl_opts_usage(f, "       ", CTL_OPTS_TOPO | CTL_OPTS_DP);
	fprintf(f,
		"\n"
		"show  every flow the datapath on IF carries: its ID 5-tuple, its alias\n"
		"      pair and the switches that pair names, its index among the\n"
		"      destination's paths in the datapath (from 0; none if unknown),\n"
		"      bytes, packets, payload (TCP or UDP data bytes), age, when it\n"
		"      became an elephant, and how often it was moved. Without dev:\n"
		"      the elephants the dardd of this network namespace schedules,\n"
		"      each with its path and the history of its paths.\n"
		"move  put FLOW on path N (as numbered by `dardctl path list' from this\n"
		"      host to the destination), from its next packet on.\n"
		"sweep forget the flows idle for SECONDS, printing each as ended (a\n"
		"      flow that ends without a FIN or RST of its own is noticed so).\n");
	return f == stdout ? CTL_OK : CTL_USAGE;
}

struct show {
	struct ctl *c;
	struct dard_pathctx *pc;
	uint64_t now;
};

/*
 * A flow's alias pair: in IPv6 where its packets cross the fabric in
 * IPv6 (4in6), its IPv4 form in JSON always.
 */
static void print_pair(const struct dard_plan *p,
		       const struct dard_alias_pair *pair)
{
	int v6 = dard_plan_outer6(p);
	char b[INET6_ADDRSTRLEN];
	struct in6_addr a6;

	snprintf(b, sizeof(b), "%s", inet_ntoa((struct in_addr){pair->saddr}));
	print_string(v6 ? PRINT_JSON : PRINT_ANY, "saddr", " via %s", b);
	snprintf(b, sizeof(b), "%s", inet_ntoa((struct in_addr){pair->daddr}));
	print_string(v6 ? PRINT_JSON : PRINT_ANY, "daddr", " -> %s", b);
	if (!v6)
		return;
	dard_plan_v6(p, ntohl(pair->saddr), &a6);
	print_string(PRINT_ANY, "saddr6", " via %s", dard_addr6_str(&a6, b));
	dard_plan_v6(p, ntohl(pair->daddr), &a6);
	print_string(PRINT_ANY, "daddr6", " -> %s", dard_addr6_str(&a6, b));
}

static int show_cb(const struct dard_flow_key *k, const struct dard_flow *f,
		   void *arg)
{
	struct show *s = arg;
	const struct dard_topo *t = s->c->cfg.topo;
	char p[DARD_IPPROTO_STRLEN];
	struct dard_path path;
	unsigned i;

	open_json_object(NULL);
	print_string(PRINT_ANY, "proto", "%s", dard_ipproto_name(k->proto, p));
	ctl_print_ends(k);
	print_pair(s->c->cfg.plan, &f->path);
	open_json_array(PRINT_JSON, "switches");
	if (!dard_path_decode(s->pc, ntohl(f->path.saddr), ntohl(f->path.daddr),
			      &path, NULL)) {
		print_text(" (");
		for (i = 0; i < path.nsw; i++)
			print_string(PRINT_ANY, NULL, i ? " %s" : "%s",
				     t->node[path.sw[i]].name);
		print_text(")");
	}
	close_json_array(PRINT_JSON, NULL);
	/* Omitted when unknown: the datapath then never repaths it. */
	if (f->path_idx < DARD_PATHS_MAX)
		print_uint(PRINT_ANY, "path_index", " index %llu", f->path_idx);
	print_uint(PRINT_ANY, "bytes", "\n    bytes %llu", f->bytes);
	print_uint(PRINT_ANY, "packets", " packets %llu", f->packets);
	print_uint(PRINT_ANY, "payload", " payload %llu", f->payload);
	print_uint(PRINT_ANY, "age_ms", " age %llums",
		   (s->now - f->first_ns) / 1000000);
	print_uint(PRINT_ANY, "idle_ms", " idle %llums",
		   (s->now - f->last_ns) / 1000000);
	print_bool(PRINT_JSON, "elephant", NULL,
		   f->flags & DARD_FLOW_F_ELEPHANT);
	if (f->flags & DARD_FLOW_F_ELEPHANT)
		print_uint(PRINT_ANY, "elephant_ms", " elephant for %llums",
			   (s->now - f->elephant_ns) / 1000000);
	print_bool(PRINT_JSON, "reported", NULL,
		   f->flags & DARD_FLOW_F_REPORTED);
	print_bool(PRINT_JSON, "ended", NULL, f->flags & DARD_FLOW_F_ENDED);
	print_uint(PRINT_ANY, "moves", " moves %llu\n", f->moves);
	close_json_object();
	return 0;
}

/* ID[:PORT]; prints what is wrong with it. */
static int parse_endpoint(const char *what, const char *s, __be32 *addr,
			  __be16 *port)
{
	char buf[32];
	const char *colon = strchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	uint32_t a, p = 0;

	if (n < sizeof(buf)) {
		memcpy(buf, s, n);
		buf[n] = '\0';
	}
	if (n >= sizeof(buf) || dard_addr_parse(buf, &a)) {
		fprintf(stderr, "Invalid %s `%s': expected ID[:PORT]\n", what,
			s);
		return -1;
	}
	if (colon && ctl_parse_u32("port", colon + 1, 0, 65535, &p))
		return -1;
	*addr = htonl(a);
	*port = htons(p);
	return 0;
}

/* tcp, udp, icmp or an IP protocol number; prints what is wrong. */
static int parse_proto(const char *s, uint8_t *proto)
{
	int ret = dard_ipproto_parse(s, proto);

	if (ret)
		fprintf(stderr,
			"Invalid protocol `%s': %s, expected tcp, udp, icmp or 0-255\n",
			s, dard_num_strerror(ret));
	return ret;
}

struct nth {
	uint32_t want, seen;
	struct dard_alias_pair pair;
};

static int nth_cb(const struct dard_path *p, void *arg)
{
	struct nth *n = arg;

	if (++n->seen != n->want)
		return 0;
	n->pair.saddr = htonl(p->saddr);
	n->pair.daddr = htonl(p->daddr);
	return 1;
}

/* What flow move and flow sweep were asked, checked before any I/O. */
struct flow_args {
	struct dard_flow_key key; /* move: FLOW */
	uint32_t path;		  /* move: path N, from 1 */
	uint64_t idle_ns;	  /* sweep: idle SECONDS */
};

/* FLOW path N; CTL_OK or the usage status after printing why. */
static int move_parse(int argc, char **argv, struct flow_args *a)
{
	if (argc != 5) {
		fprintf(stderr, "flow move: expected FLOW and a path\n");
		return usage(stderr);
	}
	if (parse_proto(argv[0], &a->key.proto) ||
	    parse_endpoint("source", argv[1], &a->key.saddr, &a->key.sport) ||
	    parse_endpoint("destination", argv[2], &a->key.daddr,
			   &a->key.dport))
		return CTL_USAGE;
	if (strcmp(argv[3], "path")) {
		fprintf(stderr, "flow move: expected `path N'\n");
		return usage(stderr);
	}
	/* Numbered from 1, as path list prints them. */
	if (ctl_parse_u32("path number", argv[4], 1, UINT32_MAX, &a->path))
		return CTL_USAGE;
	return CTL_OK;
}

static int flow_move(struct ctl *c, struct dard_dp *dp, const char *ifname,
		     const struct flow_args *a)
{
	struct dard_pathctx *pc;
	struct nth nth = {.want = a->path};
	uint32_t s, d;
	int ret;

	s = dard_topo_find_id(c->cfg.topo, ntohl(a->key.saddr));
	d = dard_topo_find_id(c->cfg.topo, ntohl(a->key.daddr));
	if (s == DARD_NONE || d == DARD_NONE) {
		fprintf(stderr, "The flow's addresses are not hosts' IDs\n");
		return CTL_ERR;
	}
	pc = dard_pathctx_new(c->cfg.topo, c->cfg.plan);
	if (!pc) {
		fprintf(stderr, "Unable to list paths: %s\n", strerror(ENOMEM));
		return CTL_ERR;
	}
	dard_path_foreach(pc, s, d, nth_cb, &nth);
	dard_pathctx_free(pc);
	if (nth.seen < nth.want) {
		fprintf(stderr, "There are %u paths from %s to %s, not %u\n",
			nth.seen, c->cfg.topo->node[s].name,
			c->cfg.topo->node[d].name, nth.want);
		return CTL_ERR;
	}
	ret = c->ops->move(dp, &a->key, &nth.pair);
	if (ret) {
		fprintf(stderr, "Unable to move the flow: %s\n",
			ret == -ENOENT ? "no such flow"
				       : dard_dp_strerror(ret));
		return CTL_ERR;
	}
	return CTL_OK;
}

static int ended_cb(const struct dard_event *ev, void *arg)
{
	char p[DARD_IPPROTO_STRLEN];

	open_json_object(NULL);
	print_string(PRINT_ANY, "proto", "ended %s",
		     dard_ipproto_name(ev->key.proto, p));
	ctl_print_ends(&ev->key);
	print_uint(PRINT_ANY, "bytes", " bytes %llu\n", ev->bytes);
	close_json_object();
	return 0;
}

/* idle SECONDS; CTL_OK or the usage status after printing why. */
static int sweep_parse(int argc, char **argv, struct flow_args *a)
{
	if (argc != 2 || strcmp(argv[0], "idle")) {
		fprintf(stderr, "flow sweep: expected `idle SECONDS'\n");
		return usage(stderr);
	}
	/* A year at most: 1e20 s or inf would wrap and sweep live flows. */
	if (ctl_parse_seconds("idle time", argv[1], 0, 31536000, &a->idle_ns))
		return CTL_USAGE;
	return CTL_OK;
}

static int flow_sweep(struct ctl *c, struct dard_dp *dp, const char *ifname,
		      const struct flow_args *a)
{
	int ret = c->ops->sweep(dp, a->idle_ns, ended_cb, NULL);

	if (ret < 0) {
		fprintf(stderr, "Unable to sweep the flows on %s: %s\n", ifname,
			dard_dp_strerror(ret));
		return CTL_ERR;
	}
	return CTL_OK;
}

/* Nothing after `dev IF'. */
static int show_parse(int argc, char **argv, struct flow_args *a)
{
	if (argc) {
		fprintf(stderr, "flow show: unexpected `%s'\n", argv[0]);
		return usage(stderr);
	}
	return CTL_OK;
}

static int flow_show(struct ctl *c, struct dard_dp *dp, const char *ifname,
		     const struct flow_args *a)
{
	struct show s = {.c = c, .now = dard_coarse_ns()};
	int ret;

	s.pc = dard_pathctx_new(c->cfg.topo, c->cfg.plan);
	if (!s.pc) {
		fprintf(stderr, "Unable to show flows: %s\n", strerror(ENOMEM));
		return CTL_ERR;
	}
	ret = c->ops->flows(dp, show_cb, &s);
	dard_pathctx_free(s.pc);
	if (ret < 0) {
		fprintf(stderr, "Unable to read the flows: %s\n",
			dard_dp_strerror(ret));
		return CTL_ERR;
	}
	return CTL_OK;
}

/*
 * The commands: each parses what follows `dev IF' before any I/O, then
 * runs on the datapath there.
 */
static const struct flow_cmd {
	const char *name;
	int (*parse)(int argc, char **argv, struct flow_args *a);
	int (*run)(struct ctl *c, struct dard_dp *dp, const char *ifname,
		   const struct flow_args *a);
} flow_cmds[] = {
	{"show", show_parse, flow_show},
	{"move", move_parse, flow_move},
	{"sweep", sweep_parse, flow_sweep},
};

int do_flow(struct ctl *c, int argc, char **argv)
{
	const struct flow_cmd *cmd = NULL;
	struct flow_args a = {};
	struct dard_dp *dp;
	unsigned i;
	int ret;

	if (argc < 1)
		return usage(stderr);
	if (ctl_wants_help(argc, argv))
		return usage(stdout);
	for (i = 0; i < sizeof(flow_cmds) / sizeof(flow_cmds[0]); i++)
		if (!strcmp(argv[0], flow_cmds[i].name))
			cmd = &flow_cmds[i];
	if (!cmd)
		return ctl_unknown("flow", argv[0]);
	/* show without dev asks dardd instead of the datapath. */
	if (cmd->run == flow_show && argc == 1)
		return ctl_daemon_flows(c);
	if (argc < 3 || strcmp(argv[1], "dev")) {
		fprintf(stderr, "flow %s: expected `dev IF'\n", argv[0]);
		return usage(stderr);
	}
	ret = cmd->parse(argc - 3, argv + 3, &a);
	if (ret != CTL_OK)
		return ret;
	if (ctl_load(c))
		return CTL_ERR;
	if (ctl_dp_open(c, argv[2], &dp))
		return CTL_ERR;
	ret = cmd->run(c, dp, argv[2], &a);
	c->ops->close(dp);
	return ret;
}
