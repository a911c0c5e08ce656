// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dard-switchd's options: every number through num.h, named on error. */
#include <errno.h>
#include <arpa/inet.h>
#include <getopt.h>
#include <string.h>
#include <linux/dard.h>

#include "cfgfile.h"
#include "keyfile.h"
#include "err.h"
#include "topo.h"
#include "log.h"
#include "num.h"
#include "opts.h"
#include "proto.h"
#include "stdopts.h"

void switchd_usage(FILE *f)
{
	fprintf(f,
		"Usage: dard-switchd [OPTIONS] SWITCH\n"
		"\n"
		"The state-query agent of switch SWITCH of a dard fabric. It\n"
		"counts the elephant flows leaving each of the switch's ports\n"
		"(IP-in-IP packets whose outer DSCP is the hosts' elephant mark,\n"
		"seen within the last --window seconds, that carried at least\n"
		"--min-share of the port's bandwidth over a window) with a BPF\n"
		"program on each port's TC egress hook, and answers the hosts'\n"
		"monitors over UDP with every asked port's bandwidth (the link\n"
		"capacity in the configuration file), elephant count and load\n"
		"(the bytes its interface sent over the last --window, from\n"
		"the kernel's counters; not measured in the first window). It\n"
		"runs in the switch's network namespace, in the foreground, and\n"
		"logs to stderr; SIGUSR1 logs its counters, SIGINT and SIGTERM\n"
		"detach the programs and stop it.\n"
		"\n"
		"It also owns the switch's downhill and uphill tables (table\n"
		"100 and its rule, tables 1000+PORT and their `from' rules):\n"
		"it adds what is missing at start, when a link or route\n"
		"changes (a port back up, a route removed) and every\n"
		"--reconcile seconds, and never deletes or changes a route.\n"
		"A fabric with IPv6 gets them in IPv6 too, next hops the\n"
		"ports' peers at fe80::1 (upper end) and fe80::2 (lower).\n"
		"\n"
		"Options:\n"
		"  -c, --config FILE     the host configuration file (default\n"
		"                        $DARD_CONFIG, else " DARD_CONFIG_DEFAULT
		")\n"
		"  -k, --key FILE        the switch protocol's key file (default\n"
		"                        $DARD_KEY, else " DARD_KEY_DEFAULT
		")\n"
		"  -l, --listen ADDR     answer on ADDR (default: the switch's\n"
		"                        management address in the file)\n"
		"  -p, --port N          UDP port (default %d)\n"
		"  -w, --window SECONDS  count elephants seen this recently, and\n"
		"                        measure the load over as long\n"
		"                        (default 1; up to 3600)\n"
		"  -d, --elephant-dscp N the hosts' elephant mark, 0-63 (default 8)\n"
		"  -m, --min-share F     count a marked flow only if it carried\n"
		"                        this share of its port's bandwidth over\n"
		"                        a window, 0 to 1 (default 1/64: 0.015625;\n"
		"                        0: every marked flow, as in the paper)\n"
		"  -i, --ifname FORMAT   the name of port N's interface, a printf\n"
		"                        format of the number (default p%%u)\n"
		"  -r, --reconcile SECONDS\n"
		"                        check the tables this often (default\n"
		"                        5; up to 3600)\n"
		"  -n, --no-tables       leave the switch's tables alone\n"
		"  -e, --probe-interval SECONDS\n"
		"                        send an ICMP echo every SECONDS out of\n"
		"                        each port that leads to a switch, to\n"
		"                        the peer's link address; a port whose\n"
		"                        peer answered none for three intervals\n"
		"                        is down in answers and notices, its\n"
		"                        carrier up or not, until it answers\n"
		"                        again (BFD's echo; default 0.1, 0.01\n"
		"                        to 60; 0: no probes, the carrier alone)\n"
		"  -v, --verbose         log every query, and libbpf's debug\n"
		"  -q, --quiet           log errors only\n"
		"  -V, --version         print the version\n"
		"  -h, --help            print this help\n"
		"\n"
		"Exit status: 0 stopped by a signal, 1 error, 2 bad usage.\n",
		DARD_PROTO_PORT);
}

/* A value that is not a number but still wrong, in num.h's form. */
static int bad(char *err, const char *opt, const char *arg, const char *want)
{
	dard_fail(err, -EINVAL, "Invalid %s `%s': expected %s", opt, arg, want);
	return 2;
}

/* One %u and nothing else that printf would expand. */
static int ifname_ok(const char *fmt)
{
	const char *pct = strchr(fmt, '%');

	return pct && !strncmp(pct, "%u", 2) && !strchr(pct + 2, '%');
}

/* One option and its argument: DARD_OPTS_RUN, or the exit status. */
static int option(struct switchd_opts *o, int opt, const char *arg, char *err)
{
	int ret = 0;

	switch (opt) {
	case 'c':
		o->config = arg;
		break;
	case 'k':
		o->key = arg;
		break;
	case 'l':
		if (inet_pton(AF_INET, arg, &o->listen) != 1)
			return bad(err, "--listen", arg, "an IPv4 address");
		o->has_listen = 1;
		break;
	case 'p':
		ret = dard_parse_u32(arg, 1, 65535, &o->port);
		if (ret)
			dard_num_fail(err, ret, "--port", arg, "1-65535");
		break;
	case 'w':
		ret = dard_parse_seconds(arg, 0, 3600, &o->window_ns);
		/* What rounds to 0 ns counts nothing: out of range too. */
		if (!ret && !o->window_ns)
			ret = -ERANGE;
		if (ret)
			dard_num_fail(err, ret, "--window", arg,
				      "seconds above 0, up to 3600");
		break;
	case 'd':
		ret = dard_parse_u32(arg, 0, 63, &o->dscp);
		if (ret)
			dard_num_fail(err, ret, "--elephant-dscp", arg, "0-63");
		break;
	case 'm':
		ret = dard_parse_double(arg, 0, 1, &o->min_share);
		if (ret)
			dard_num_fail(err, ret, "--min-share", arg,
				      "a share from 0 to 1");
		break;
	case 'i':
		if (!ifname_ok(arg))
			return bad(err, "--ifname", arg,
				   "one %u for the port number");
		o->ifname_fmt = arg;
		break;
	case 'r':
		ret = dard_parse_seconds(arg, 0, 3600, &o->reconcile_ns);
		if (!ret && o->reconcile_ns < 1000000)
			ret = -ERANGE;
		if (ret)
			dard_num_fail(err, ret, "--reconcile", arg,
				      "seconds from 0.001 up to 3600");
		break;
	case 'n':
		o->no_tables = 1;
		break;
	case 'e':
		ret = dard_parse_seconds(arg, 0, 60, &o->probe_ns);
		/* Below the coarse clock's steps, ticks would bunch. */
		if (!ret && o->probe_ns && o->probe_ns < 10000000)
			ret = -ERANGE;
		if (ret)
			dard_num_fail(err, ret, "--probe-interval", arg,
				      "0, or seconds from 0.01 up to 60");
		break;
	default:
		return dard_common_opt(opt, "dard-switchd", &o->level,
				       switchd_usage);
	}
	return ret ? 2 : DARD_OPTS_RUN;
}

int switchd_opts_parse(int argc, char **argv, struct switchd_opts *o, char *err)
{
	static const struct option longopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"key", required_argument, NULL, 'k'},
		{"listen", required_argument, NULL, 'l'},
		{"port", required_argument, NULL, 'p'},
		{"window", required_argument, NULL, 'w'},
		{"elephant-dscp", required_argument, NULL, 'd'},
		{"min-share", required_argument, NULL, 'm'},
		{"ifname", required_argument, NULL, 'i'},
		{"reconcile", required_argument, NULL, 'r'},
		{"no-tables", no_argument, NULL, 'n'},
		{"probe-interval", required_argument, NULL, 'e'},
		DARD_OPTS_COMMON,
		{},
	};
	int opt, ret;

	memset(o, 0, sizeof(*o));
	o->port = DARD_PROTO_PORT;
	o->window_ns = 1000000000;
	o->dscp = 8;
	o->min_share = 1.0 / DARD_SW_SHARE_INV;
	o->ifname_fmt = "p%u";
	o->level = DARD_LOG_INFO;
	o->reconcile_ns = 5000000000ULL;
	o->probe_ns = 100000000ULL;
	err[0] = '\0';
	while ((opt = getopt_long(argc, argv, "c:k:l:p:w:d:m:i:r:ne:vqVh",
				  longopts, NULL)) != -1) {
		ret = option(o, opt, optarg, err);
		if (ret != DARD_OPTS_RUN)
			return ret;
	}
	if (optind != argc - 1) {
		dard_fail(err, -EINVAL, "%s (try --help)",
			  optind < argc ? "one SWITCH only" : "which SWITCH?");
		return 2;
	}
	o->sw = argv[optind];
	return DARD_OPTS_RUN;
}
