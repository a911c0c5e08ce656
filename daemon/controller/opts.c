// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-controller's command line: one table gives getopt its options and
 * --help its lines, so the two cannot drift.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "cfgfile.h"
#include "ctlr.h"
#include "err.h"
#include "keyfile.h"
#include "num.h"
#include "proto.h"
#include "stdopts.h"

#define CTLR_SOCK_DEFAULT "/run/dard/controller.sock"
/* Durations: a millisecond up to a day. */
#define SECONDS_MIN 0.001
#define SECONDS_MAX 86400.0

struct opt {
	const char *name;
	int val;
	const char *arg; /* NULL: none */
	const char *help;
};

static const struct opt opts[] = {
	{"config", 'c', "FILE",
	 "the deployment's configuration file, as dardd reads it (default "
	 "$DARD_CONFIG, else " DARD_CONFIG_DEFAULT ")"},
	{"key", 'k', "FILE",
	 "the key file (default $DARD_KEY, else " DARD_KEY_DEFAULT
	 "): its first key signs, every key verifies"},
	{"algo", 'a', "ALGO",
	 "sdn-greedy (default), sdn-optimal, sdn-adaptive or oblivious "
	 "(Documentation/routing.md)"},
	{"listen", 'l', "ADDR",
	 "take reports on ADDR, UDP port 7472, and push from it (default: "
	 "any address); on a machine with several addresses, the one "
	 "hosts are given as --controller"},
	{"interval", 'i', "S", "a round every S seconds (default 1)"},
	{"host-timeout", 't', "S",
	 "forget the flows of a host silent for S seconds (default 3)"},
	{"query-interval", 'Q', "S",
	 "ask the switches' agents for failed links every S seconds "
	 "(default 1)"},
	{"switch-port", 'P', "N", "dard-switchd's UDP port (default 7471)"},
	{"lp-columns", 'L', "N",
	 "oblivious: solve the LP only up to N columns (default 20000: "
	 "fattree:6 solves in seconds); beyond, even weights over the "
	 "surviving paths"},
	{"socket", 's', "PATH",
	 "the control socket `dardctl controller stats' asks (default " CTLR_SOCK_DEFAULT
	 ")"},
	{"verbose", 'v', NULL, "log more"},
	{"quiet", 'q', NULL, "log errors only"},
	{"version", 'V', NULL, "print the version"},
	{"help", 'h', NULL, "print this help"},
};

#define NOPTS (sizeof(opts) / sizeof(opts[0]))

/* Help text wrapped at 78 columns under a 28-column option column. */
static void print_help(FILE *f, const char *s)
{
	const int col = 28, width = 78 - col;
	int used = 0;

	while (*s) {
		int w = strcspn(s, " ");

		if (used && used + 1 + w > width) {
			fprintf(f, "\n%*s", col, "");
			used = 0;
		} else if (used) {
			fputc(' ', f);
			used++;
		}
		fprintf(f, "%.*s", w, s);
		used += w;
		s += w;
		s += *s == ' ';
	}
	fputc('\n', f);
}

static void usage(FILE *f)
{
	unsigned i;

	fprintf(f,
		"Usage: dard-controller [OPTIONS]\n"
		"\n"
		"The optional controller of a dard fabric. Hosts' dardd report\n"
		"their elephant flows to it over UDP on the management network\n"
		"(the controller protocol, authenticated with the deployment's\n"
		"keys); every round it places them with the chosen algorithm\n"
		"(SDN-greedy, SDN-optimal or SDN-adaptive, libdard-algo) and\n"
		"pushes every host heard from lately the paths of its own flows.\n"
		"In oblivious mode it solves the hose-model oblivious-routing LP\n"
		"(GLPK) for the tree and its failed links instead, and pushes\n"
		"every host the path weights its datapath hashes new flows by.\n"
		"It asks the switches' dard-switchd for their ports' states and\n"
		"keeps flows off failed links. It never answers a datagram: hosts\n"
		"hear from it once a round. A host whose controller falls silent\n"
		"goes back to DARD on its own. It runs in the foreground, logs to\n"
		"stderr, and stops cleanly on SIGINT or SIGTERM.\n"
		"\n"
		"Options (times in seconds, fractions allowed):\n");
	for (i = 0; i < NOPTS; i++) {
		char left[64];

		snprintf(left, sizeof(left), "  -%c, --%s%s%s", opts[i].val,
			 opts[i].name, opts[i].arg ? " " : "",
			 opts[i].arg ? opts[i].arg : "");
		fprintf(f, "%-28s", left);
		if (strlen(left) >= 28)
			fprintf(f, "\n%28s", "");
		print_help(f, opts[i].help);
	}
	fprintf(f,
		"\n"
		"`dardctl controller stats' shows its state. Documentation/\n"
		"operations.md runs it; Documentation/routing.md says what each\n"
		"algorithm keeps from round to round and does with failed links.\n"
		"Exit status: 0 stopped by a signal, 1 error, 2 bad usage.\n");
}

static int seconds(const char *opt, const char *arg, uint64_t *ns, char *err)
{
	int ret = dard_parse_seconds(arg, SECONDS_MIN, SECONDS_MAX, ns);

	if (ret)
		dard_num_fail(err, ret, opt, arg,
			      "seconds from 0.001 to 86400");
	return ret ? 2 : DARD_OPTS_RUN;
}

static int port(const char *opt, const char *arg, uint16_t *out, char *err)
{
	uint32_t v;
	int ret = dard_parse_u32(arg, 1, 65535, &v);

	if (ret)
		return dard_num_fail(err, ret, opt, arg, "1-65535"), 2;
	*out = v;
	return DARD_OPTS_RUN;
}

static int algo(const char *arg, int *out, char *err)
{
	static const int ok[] = {DARD_CP_ALGO_GREEDY, DARD_CP_ALGO_OPTIMAL,
				 DARD_CP_ALGO_ADAPTIVE, DARD_CP_ALGO_OBLIVIOUS};
	unsigned i;

	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(arg, dard_cp_algo_name(ok[i]))) {
			*out = ok[i];
			return DARD_OPTS_RUN;
		}
	dard_fail(err, -EINVAL,
		  "Invalid --algo `%s': expected sdn-greedy, sdn-optimal, "
		  "sdn-adaptive or oblivious",
		  arg);
	return 2;
}

static int option(struct ctlr_opts *o, int opt, const char *arg, char *err)
{
	struct in_addr in;

	switch (opt) {
	case 'c':
		o->config = arg;
		return DARD_OPTS_RUN;
	case 'k':
		o->key = arg;
		return DARD_OPTS_RUN;
	case 's':
		o->sock = arg;
		return DARD_OPTS_RUN;
	case 'a':
		return algo(arg, &o->algo, err);
	case 'l':
		if (inet_pton(AF_INET, arg, &in) != 1) {
			dard_fail(err, -EINVAL,
				  "Invalid --listen `%s': expected an IPv4 "
				  "address",
				  arg);
			return 2;
		}
		o->listen = ntohl(in.s_addr);
		return DARD_OPTS_RUN;
	case 'P':
		return port("--switch-port", arg, &o->switch_port, err);
	case 'i':
		return seconds("--interval", arg, &o->interval_ns, err);
	case 't':
		return seconds("--host-timeout", arg, &o->host_timeout_ns, err);
	case 'Q':
		return seconds("--query-interval", arg, &o->query_ns, err);
	case 'L':
		if (dard_parse_u32(arg, 1, 100000000, &o->lp_columns))
			return dard_num_fail(err, -ERANGE, "--lp-columns", arg,
					     "1-100000000"),
			       2;
		return DARD_OPTS_RUN;
	default:
		return dard_common_opt(opt, "dard-controller", &o->level,
				       usage);
	}
}

int ctlr_opts_parse(int argc, char **argv, struct ctlr_opts *o, char *err)
{
	struct option longopts[NOPTS + 1];
	char shortopts[2 * NOPTS + 1];
	unsigned i, k = 0;
	int opt, ret;

	memset(o, 0, sizeof(*o));
	memset(longopts, 0, sizeof(longopts));
	o->algo = DARD_CP_ALGO_GREEDY;
	/* Hosts talk to 7472 only, and take pushes only from it. */
	o->port = DARD_CP_PORT;
	o->switch_port = DARD_PROTO_PORT;
	o->interval_ns = 1000000000ULL;
	o->host_timeout_ns = 3000000000ULL;
	o->query_ns = 1000000000ULL;
	o->sock = CTLR_SOCK_DEFAULT;
	o->level = DARD_LOG_INFO;
	err[0] = 0;
	for (i = 0; i < NOPTS; i++) {
		longopts[i] = (struct option){opts[i].name,
					      opts[i].arg ? required_argument
							  : no_argument,
					      NULL, opts[i].val};
		shortopts[k++] = opts[i].val;
		if (opts[i].arg)
			shortopts[k++] = ':';
	}
	shortopts[k] = 0;
	optind = 1;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) !=
	       -1) {
		ret = option(o, opt, optarg, err);
		if (ret != DARD_OPTS_RUN)
			return ret;
	}
	if (optind != argc) {
		dard_fail(err, -EINVAL, "unexpected argument `%s' (try --help)",
			  argv[optind]);
		return 2;
	}
	return DARD_OPTS_RUN;
}
