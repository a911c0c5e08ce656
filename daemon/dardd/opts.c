// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dardd's command line: a table of options, parsed into struct dardd_opts. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "cfgfile.h"
#include "dardd_priv.h"
#include "opts.h"
#include "dp.h"
#include "err.h"
#include "keyfile.h"
#include "log.h"
#include "num.h"
#include "cproto.h"
#include "proto.h"
#include "pvlb.h"
#include "stdopts.h"

/* Durations: a millisecond (finer than the loop's tick) up to a day. */
#define SECONDS_MIN 0.001
#define SECONDS_MAX 86400.0
/* delta in Mbit/s: up to a Tbit/s, far above any link's bandwidth. */
#define DELTA_MBPS_MAX 1e6

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dardd [OPTIONS] HOST\n"
		"\n"
		"The DARD daemon of host HOST (paper, sections 2.4 and 2.5). It hears\n"
		"of elephant flows from the host's datapath, keeps a monitor for\n"
		"every destination ToR its elephants go to (and, for its dead paths\n"
		"alone, for every ToR its other long-lived flows go to), assembles\n"
		"each monitor's path states by querying the switches' dard-switchd\n"
		"over the management network, and moves one elephant at a time to a\n"
		"path with more bandwidth per elephant (BoNF) when that gains more\n"
		"than delta.\n"
		"It runs in the host's network namespace, in the foreground, and logs\n"
		"to stderr. Forwarding does not depend on it: stopping it leaves\n"
		"every flow where it is, and a new dardd picks the elephants up from\n"
		"the datapath's pinned maps.\n"
		"\n"
		"Options (times in seconds, fractions allowed):\n"
		"  -c, --config FILE          the host configuration file (default\n"
		"                             $DARD_CONFIG, else " DARD_CONFIG_DEFAULT
		")\n"
		"  -k, --key FILE             the switch protocol's key file (default\n"
		"                             $DARD_KEY, else " DARD_KEY_DEFAULT
		")\n"
		"  -i, --interface IF         the fabric interface (default eth0)\n"
		"      --pin DIR              where the datapath's maps are pinned\n"
		"                             (default $DARD_PIN_ROOT, else " DARD_PIN_ROOT
		")\n"
		"  -D, --datapath KIND        bpf (TC programs), kmod (the dard.ko\n"
		"                             device on IF) or auto (default\n"
		"                             $DARD_DATAPATH, else auto: the one on\n"
		"                             IF, else kmod when dard.ko is loaded,\n"
		"                             else bpf)\n"
		"  -M, --sched-mode MODE      fast (default): elephants at 1 s,\n"
		"                             rounds every 1 s + U[0, 1 s], a moved\n"
		"                             flow held 8 s, quiet monitors; or\n"
		"                             paper: the paper's 10 s age and 5 s\n"
		"                             rounds, no hold, never quiet. It sets\n"
		"                             the defaults of -S, -e, -Q, -d and the\n"
		"                             --quiet- options\n"
		"                             (the age only if dardd attaches the\n"
		"                             datapath). pvlb: no rounds; each\n"
		"                             elephant re-picks a random path every\n"
		"                             --pvlb-interval of its life (the\n"
		"                             paper's pVLB, as dard-sim's); off: no\n"
		"                             rounds and no moves (the datapath's\n"
		"                             hash alone: ECMP). Both keep fast's\n"
		"                             queries; `dardctl sched set' changes\n"
		"                             the mode of a running dardd\n"
		"  -Q, --query-interval S     query the switches every S (default 1)\n"
		"  -S, --schedule-interval S  a monitor's round every S plus a random\n"
		"                             time up to S (default: the mode's, 1 or\n"
		"                             5)\n"
		"  -d, --delta D              move only when the gain in BoNF exceeds D\n"
		"                             Mbit/s, or D%% of the paths' bandwidth\n"
		"                             when D ends in %% (default: the mode's,\n"
		"                             1%% for fast, 10 Mbit/s for paper)\n"
		"  -I, --idle S               forget flows idle this long (default 10)\n"
		"  -e, --elephant-age S       when the datapath is not attached yet,\n"
		"                             attach it with this age (default: the\n"
		"                             mode's, 1 or 10)\n"
		"  -p, --switch-port N        dard-switchd's UDP port (default %d)\n"
		"      --controller ADDR      report elephants to dard-controller at\n"
		"                             ADDR (IPv4, UDP port %d) and take its\n"
		"                             paths and weights (default\n"
		"                             $DARD_CONTROLLER, else none: DARD only)\n"
		"      --controller-timeout S back to DARD when it is silent for S\n"
		"                             (default 3)\n"
		"      --controller-report S  a full report every S (default 1)\n"
		"      --no-share             ask every switch ourselves: do not\n"
		"                             share answers with the hosts under\n"
		"                             our ToR (UDP port %d)\n"
		"      --quiet-at F           a monitor whose elephants all run at F\n"
		"                             of their share of our up link or more\n"
		"                             asks no switch and runs no round\n"
		"                             (default: the mode's, 0.9 or 0: never)\n"
		"      --quiet-sleep S        after a round that wanted no move, it\n"
		"                             is quiet for S while each elephant runs\n"
		"                             at F of the rate it had (default: the\n"
		"                             mode's, 3 or 0)\n"
		"      --busy-at F            a link is a bottleneck only when its\n"
		"                             switch measured its load at F of its\n"
		"                             bandwidth or more; 0: by its elephants\n"
		"                             alone (default: the mode's, 0.9 or 0)\n"
		"      --escape P             a round that finds no move that gains\n"
		"                             takes, with probability P, a neutral\n"
		"                             move that costs its flow nothing and\n"
		"                             frees a shared bottleneck, at most\n"
		"                             twice per flow, so that elephants\n"
		"                             settled where no single move gains\n"
		"                             spread; above 0, a round also draws its\n"
		"                             target among near-equal ones (default:\n"
		"                             the mode's, 0.5 or 0: neither)\n"
		"      --pvlb-interval S      pvlb: a flow's re-pick every S of its\n"
		"                             life (default 10, the paper's)\n"
		"      --watch-interval S     watch the switches above our ToR: ask\n"
		"                             them every S for every link of our\n"
		"                             paths they see, elephants or none, and\n"
		"                             have them tell us at once when one goes\n"
		"                             down or comes back (a notice), so that\n"
		"                             a new flow to any destination avoids a\n"
		"                             dead link; shared by the ToR's hosts;\n"
		"                             at most 20 (an agent keeps a watch\n"
		"                             60 s); 0: only the monitors ask\n"
		"                             (default: the mode's, 20 or 0: paper)\n"
		"  -v, --verbose              log every query and reply decision\n"
		"  -q, --quiet                log errors only\n"
		"  -V, --version              print the version\n"
		"  -h, --help                 print this help\n"
		"\n"
		"`dardctl monitor show', `dardctl flow show' (without dev) and\n"
		"`dardctl stats' ask a running dardd in the same network namespace.\n"
		"Exit status: 0 stopped by a signal, 1 error, 2 bad usage.\n",
		DARD_PROTO_PORT, DARD_CP_PORT, DARD_SHARE_PORT);
}

/* A duration in [SECONDS_MIN, SECONDS_MAX], or its refusal in err. */
static int seconds(const char *opt, const char *arg, uint64_t *ns, char *err)
{
	int ret = dard_parse_seconds(arg, SECONDS_MIN, SECONDS_MAX, ns);
	char want[64];

	if (!ret)
		return 0;
	snprintf(want, sizeof(want), "seconds from %.15g to %.15g", SECONDS_MIN,
		 SECONDS_MAX);
	return dard_num_fail(err, ret, opt, arg, want);
}

/* Mbit/s, or a percentage of the paths' bandwidth when it ends in %. */
static int delta(struct dardd_opts *o, const char *arg, char *err)
{
	size_t len = strlen(arg);
	int frac = len && arg[len - 1] == '%';
	char num[64], want[48];
	double x;
	int ret = -EINVAL;

	if (len < sizeof(num)) {
		memcpy(num, arg, len - frac);
		num[len - frac] = 0;
		ret = dard_parse_double(num, 0, frac ? 100 : DELTA_MBPS_MAX,
					&x);
	}
	if (ret) {
		snprintf(want, sizeof(want),
			 "Mbit/s up to %.15g or a percentage", DELTA_MBPS_MAX);
		return dard_num_fail(err, ret, "--delta", arg, want);
	}
	/* The last --delta wins, whichever kind. */
	o->delta_is_frac = frac;
	o->delta = frac ? x / 100 : x;
	return 0;
}

/* Which mover and, for DARD, which mode's defaults: 0 or -EINVAL. */
static int mover(struct dardd_opts *o, const char *name)
{
	int mode = dard_sched_mode_parse(name);

	if (mode >= 0) {
		o->mode = mode;
		o->mover = DARDD_MOVER_DARD;
	} else if (!strcmp(name, "pvlb")) {
		o->mover = DARDD_MOVER_PVLB;
	} else if (!strcmp(name, "off")) {
		o->mover = DARDD_MOVER_OFF;
	} else {
		return -EINVAL;
	}
	return 0;
}

static int sched_mode(struct dardd_opts *o, const char *arg, char *err)
{
	if (mover(o, arg)) {
		dard_fail(err, -EINVAL,
			  "Invalid --sched-mode `%s': expected fast, paper, "
			  "pvlb or off",
			  arg);
		return 2;
	}
	return DARD_OPTS_RUN;
}

/* An IPv4 address, or none (also empty), from --controller or the env. */
static int controller(struct dardd_opts *o, const char *what, const char *arg,
		      char *err)
{
	struct in_addr in;

	if (!*arg || !strcmp(arg, "none")) {
		o->controller = 0;
		return DARD_OPTS_RUN;
	}
	if (inet_pton(AF_INET, arg, &in) != 1 || !in.s_addr ||
	    in.s_addr == INADDR_BROADCAST) {
		dard_fail(err, -EINVAL,
			  "Invalid %s `%s': expected an IPv4 address or none",
			  what, arg);
		return 2;
	}
	o->controller = ntohl(in.s_addr);
	return DARD_OPTS_RUN;
}

/* auto, bpf or kmod, from --datapath or $DARD_DATAPATH. */
static int datapath(struct dardd_opts *o, const char *what, const char *arg,
		    char *err)
{
	int kind = dard_dp_kind_parse(arg);

	if (kind < 0) {
		dard_fail(err, kind,
			  "Invalid %s `%s': expected auto, bpf or kmod", what,
			  arg);
		return 2;
	}
	o->dp_kind = kind;
	return DARD_OPTS_RUN;
}

static void defaults(struct dardd_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->ifname = "eth0";
	o->pin_root = getenv("DARD_PIN_ROOT");
	o->dp_kind = DARD_DP_AUTO;
	o->log_level = DARD_LOG_INFO;
	/* Age, rounds, queries and delta: unset (0, -1) until derive()
	 * takes the mode's. */
	o->mode = DARD_SCHED_FAST;
	o->delta = -1;
	o->quiet_at = -1;
	o->quiet_sleep = -1;
	o->busy_at = -1;
	o->escape = -1;
	o->watch = -1;
	o->mover = DARDD_MOVER_DARD;
	o->pvlb = DARD_PVLB_INTERVAL;
	o->idle_ns = 10000000000ULL;
	o->switch_port = DARD_PROTO_PORT;
	o->cp_timeout_ns = 3000000000ULL;
	o->cp_report_ns = 1000000000ULL;
}

/* What the command line set of what the mode gives defaults to. */
static void keep_given(struct dardd_opts *o)
{
	o->given = (struct dardd_opts_given){
		.query_ns = o->query_ns,
		.schedule_ns = o->schedule_ns,
		.delta = o->delta,
		.delta_is_frac = o->delta_is_frac,
		.quiet_at = o->quiet_at,
		.quiet_sleep = o->quiet_sleep,
		.busy_at = o->busy_at,
		.escape = o->escape,
		.watch = o->watch,
	};
}

/* What follows from the options: link-state age and the sweep interval. */
static void derive(struct dardd_opts *o)
{
	const struct dard_sched_mode *m = &dard_sched_modes[o->mode];

	keep_given(o);
	/* What no option set, in either order with --sched-mode. */
	if (!o->age_ns)
		o->age_ns = (uint64_t)(m->elephant_age * 1e9);
	if (!o->schedule_ns)
		o->schedule_ns = (uint64_t)(m->round * 1e9);
	if (!o->query_ns)
		o->query_ns = (uint64_t)(m->query * 1e9);
	if (o->delta < 0) {
		o->delta_is_frac = m->delta_share > 0;
		o->delta = o->delta_is_frac ? m->delta_share : m->delta;
	}
	o->sched = *m;
	if (o->quiet_at >= 0)
		o->sched.quiet = o->quiet_at;
	if (o->quiet_sleep >= 0)
		o->sched.sleep = o->quiet_sleep;
	if (o->busy_at >= 0)
		o->sched.busy = o->busy_at;
	if (o->escape >= 0)
		o->sched.escape = o->escape;
	if (o->watch >= 0)
		o->sched.watch = o->watch;
	/* A link state older than three query rounds counts as unknown. */
	o->max_age_ns = o->query_ns * 3;
	/* Idle flows are found to within a quarter of the idle time. */
	o->sweep_ns =
		o->idle_ns / 4 < 1000000000ULL ? o->idle_ns / 4 : 1000000000ULL;
}

void dardd_opts_defaults(struct dardd_opts *o)
{
	defaults(o);
	derive(o);
}

int dardd_opts_set_mode(struct dardd_opts *o, const char *name, double pvlb)
{
	struct dardd_opts n = *o;
	const struct dardd_opts_given *g = &o->given;

	if (mover(&n, name) || pvlb < 0 || !isfinite(pvlb))
		return -EINVAL;
	if (pvlb > 0)
		n.pvlb = pvlb;
	/* Derived again from what was given, under the mode now named. */
	n.query_ns = g->query_ns;
	n.schedule_ns = g->schedule_ns;
	n.delta = g->delta;
	n.delta_is_frac = g->delta_is_frac;
	n.quiet_at = g->quiet_at;
	n.quiet_sleep = g->quiet_sleep;
	n.busy_at = g->busy_at;
	n.escape = g->escape;
	n.watch = g->watch;
	derive(&n);
	*o = n;
	return 0;
}

const char *dardd_mode_name(const struct dardd_opts *o)
{
	if (o->mover == DARDD_MOVER_PVLB)
		return "pvlb";
	if (o->mover == DARDD_MOVER_OFF)
		return "off";
	return dard_sched_modes[o->mode].name;
}

/* Long options without a short one. */
enum {
	OPT_CONTROLLER = 256,
	OPT_CP_TIMEOUT,
	OPT_CP_REPORT,
	OPT_NO_SHARE,
	OPT_QUIET_AT,
	OPT_QUIET_SLEEP,
	OPT_BUSY_AT,
	OPT_ESCAPE,
	OPT_PVLB,
	OPT_WATCH,
};

/* A number in [min, max] into *x, or its refusal in err. */
static int number(const char *opt, const char *arg, double min, double max,
		  const char *want, double *x, char *err)
{
	int ret = dard_parse_double(arg, min, max, x);

	return ret ? dard_num_fail(err, ret, opt, arg, want) : 0;
}

/* One option and its argument: DARD_OPTS_RUN, or the exit status. */
static int option(struct dardd_opts *o, int opt, const char *arg, char *err)
{
	uint32_t port;
	int ret;

	switch (opt) {
	case 'c':
		o->config = arg;
		return DARD_OPTS_RUN;
	case 'k':
		o->key = arg;
		return DARD_OPTS_RUN;
	case 'i':
		o->ifname = arg;
		return DARD_OPTS_RUN;
	case 'P':
		o->pin_root = arg;
		return DARD_OPTS_RUN;
	case 'D':
		return datapath(o, "--datapath", arg, err);
	case 'M':
		return sched_mode(o, arg, err);
	case 'Q':
		ret = seconds("--query-interval", arg, &o->query_ns, err);
		break;
	case 'S':
		ret = seconds("--schedule-interval", arg, &o->schedule_ns, err);
		break;
	case 'I':
		ret = seconds("--idle", arg, &o->idle_ns, err);
		break;
	case 'e':
		ret = seconds("--elephant-age", arg, &o->age_ns, err);
		break;
	case 'd':
		ret = delta(o, arg, err);
		break;
	case 'p':
		ret = dard_parse_u32(arg, 1, 65535, &port);
		if (ret)
			dard_num_fail(err, ret, "--switch-port", arg,
				      "1-65535");
		else
			o->switch_port = port;
		break;
	case OPT_CONTROLLER:
		return controller(o, "--controller", arg, err);
	case OPT_CP_TIMEOUT:
		ret = seconds("--controller-timeout", arg, &o->cp_timeout_ns,
			      err);
		break;
	case OPT_CP_REPORT:
		ret = seconds("--controller-report", arg, &o->cp_report_ns,
			      err);
		break;
	case OPT_NO_SHARE:
		o->no_share = 1;
		return DARD_OPTS_RUN;
	case OPT_QUIET_AT:
		ret = number("--quiet-at", arg, 0, 1, "a share from 0 to 1",
			     &o->quiet_at, err);
		break;
	case OPT_QUIET_SLEEP:
		ret = number("--quiet-sleep", arg, 0, SECONDS_MAX,
			     "seconds from 0 to 86400", &o->quiet_sleep, err);
		break;
	case OPT_BUSY_AT:
		ret = number("--busy-at", arg, 0, 1, "a share from 0 to 1",
			     &o->busy_at, err);
		break;
	case OPT_ESCAPE:
		ret = number("--escape", arg, 0, 1, "a probability from 0 to 1",
			     &o->escape, err);
		break;
	case OPT_WATCH:
		ret = number("--watch-interval", arg, 0, DARD_WATCH_MAX,
			     "seconds from 0 to 20", &o->watch, err);
		break;
	case OPT_PVLB:
		ret = number("--pvlb-interval", arg, SECONDS_MIN, SECONDS_MAX,
			     "seconds from 0.001 to 86400", &o->pvlb, err);
		break;
	default:
		return dard_common_opt(opt, "dardd", &o->log_level, usage);
	}
	return ret ? 2 : DARD_OPTS_RUN;
}

int dardd_opts_parse(struct dardd_opts *o, int argc, char **argv, char *err)
{
	static const struct option longopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"key", required_argument, NULL, 'k'},
		{"interface", required_argument, NULL, 'i'},
		{"pin", required_argument, NULL, 'P'},
		{"datapath", required_argument, NULL, 'D'},
		{"sched-mode", required_argument, NULL, 'M'},
		{"query-interval", required_argument, NULL, 'Q'},
		{"schedule-interval", required_argument, NULL, 'S'},
		{"delta", required_argument, NULL, 'd'},
		{"idle", required_argument, NULL, 'I'},
		{"elephant-age", required_argument, NULL, 'e'},
		{"switch-port", required_argument, NULL, 'p'},
		{"controller", required_argument, NULL, OPT_CONTROLLER},
		{"controller-timeout", required_argument, NULL, OPT_CP_TIMEOUT},
		{"controller-report", required_argument, NULL, OPT_CP_REPORT},
		{"no-share", no_argument, NULL, OPT_NO_SHARE},
		{"quiet-at", required_argument, NULL, OPT_QUIET_AT},
		{"quiet-sleep", required_argument, NULL, OPT_QUIET_SLEEP},
		{"busy-at", required_argument, NULL, OPT_BUSY_AT},
		{"escape", required_argument, NULL, OPT_ESCAPE},
		{"pvlb-interval", required_argument, NULL, OPT_PVLB},
		{"watch-interval", required_argument, NULL, OPT_WATCH},
		DARD_OPTS_COMMON,
		{},
	};
	int opt, ret;

	defaults(o);
	err[0] = '\0';
	/* The environment first: --datapath overrides it. */
	if (getenv("DARD_DATAPATH")) {
		ret = datapath(o, "DARD_DATAPATH", getenv("DARD_DATAPATH"),
			       err);
		if (ret != DARD_OPTS_RUN)
			return ret;
	}
	if (getenv("DARD_CONTROLLER")) {
		ret = controller(o, "DARD_CONTROLLER",
				 getenv("DARD_CONTROLLER"), err);
		if (ret != DARD_OPTS_RUN)
			return ret;
	}
	while ((opt = getopt_long(argc, argv, "c:k:i:D:M:Q:S:d:I:e:p:vqVh",
				  longopts, NULL)) != -1) {
		ret = option(o, opt, optarg, err);
		if (ret != DARD_OPTS_RUN)
			return ret;
	}
	if (optind != argc - 1) {
		dard_fail(err, 0, "%s (try --help)",
			  optind < argc ? "one HOST only" : "which HOST?");
		return 2;
	}
	o->host = argv[optind];
	derive(o);
	/*
	 * The watch renews at query ticks: slower ones than a third of the
	 * agents' lease would let it lapse (proto.h).
	 */
	if (o->sched.watch > 0 &&
	    o->query_ns > DARD_WATCH_MAX * 1000000000ULL) {
		dard_fail(
			err, 0,
			"--query-interval above %d s lets the watch lapse at the switches (they keep it 60 s): give --watch-interval 0 too",
			DARD_WATCH_MAX);
		return 2;
	}
	return DARD_OPTS_RUN;
}
