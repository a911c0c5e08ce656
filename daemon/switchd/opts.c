// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dard-switchd's options: every number through num.h, named on error. */
#include <errno.h>
#include <arpa/inet.h>
#include <getopt.h>
#include <string.h>

#include "cfgfile.h"
#include "err.h"
#include "topo.h"
#include "log.h"
#include "num.h"
#include "opts.h"
#include "proto.h"

#ifndef DARD_VERSION
#define DARD_VERSION "unknown"
#endif

void switchd_usage(FILE *f)
{
	fprintf(f,
		"Usage: dard-switchd [OPTIONS] SWITCH\n"
		"\n"
		"The state-query agent of switch SWITCH of a dard fabric. It\n"
		"counts the elephant flows leaving each of the switch's ports\n"
		"(IP-in-IP packets whose outer DSCP is the hosts' elephant mark,\n"
		"seen within the last --window seconds) with a BPF program on\n"
		"each port's TC egress hook, and answers the hosts' monitors\n"
		"over UDP with every asked port's bandwidth (the link capacity\n"
		"in the configuration file) and elephant count. It runs in the\n"
		"switch's network namespace, in the foreground, and logs to\n"
		"stderr; SIGUSR1 logs its counters, SIGINT and SIGTERM detach\n"
		"the programs and stop it. Forwarding is never touched.\n"
		"\n"
		"Options:\n"
		"  -c, --config FILE     the host configuration file (default\n"
		"                        $DARD_CONFIG, else " DARD_CONFIG_DEFAULT
		")\n"
		"  -l, --listen ADDR     answer on ADDR (default: the switch's\n"
		"                        management address in the file)\n"
		"  -p, --port N          UDP port (default %d)\n"
		"  -w, --window SECONDS  count elephants seen this recently\n"
		"                        (default 1; up to 3600)\n"
		"  -d, --elephant-dscp N the hosts' elephant mark, 0-63 (default 8)\n"
		"  -i, --ifname FORMAT   the name of port N's interface, a printf\n"
		"                        format of the number (default p%%u)\n"
		"  -v, --verbose         log every query, and libbpf's debug\n"
		"  -q, --quiet           log errors only\n"
		"  -V, --version         print the version\n"
		"  -h, --help            print this help\n"
		"\n"
		"Exit status: 0 stopped by a signal, 1 error, 2 bad usage.\n",
		DARD_PROTO_PORT);
}

static int bad(char *err, const char *opt, const char *want, const char *arg,
	       int ret)
{
	dard_fail(err, -EINVAL, "%s needs %s, not `%s'%s%s", opt, want, arg,
		  ret ? ": " : "", ret ? dard_num_strerror(ret) : "");
	return SWITCHD_BAD_VALUE;
}

/* One %u and nothing else that printf would expand. */
static int ifname_ok(const char *fmt)
{
	const char *pct = strchr(fmt, '%');

	return pct && !strncmp(pct, "%u", 2) && !strchr(pct + 2, '%');
}

static int option(struct switchd_opts *o, int opt, const char *arg, char *err)
{
	int ret;

	switch (opt) {
	case 'c':
		o->config = arg;
		break;
	case 'l':
		if (inet_pton(AF_INET, arg, &o->listen) != 1)
			return bad(err, "--listen", "an IPv4 address", arg, 0);
		o->has_listen = 1;
		break;
	case 'p':
		ret = dard_parse_u32(arg, 1, 65535, &o->port);
		if (ret)
			return bad(err, "--port", "1-65535", arg, ret);
		break;
	case 'w':
		ret = dard_parse_seconds(arg, 0, 3600, &o->window_ns);
		if (ret || !o->window_ns)
			return bad(err, "--window", "seconds in (0, 3600]", arg,
				   ret);
		break;
	case 'd':
		ret = dard_parse_u32(arg, 0, 63, &o->dscp);
		if (ret)
			return bad(err, "--elephant-dscp", "0-63", arg, ret);
		break;
	case 'i':
		if (!ifname_ok(arg))
			return bad(err, "--ifname",
				   "one %u for the port number", arg, 0);
		o->ifname_fmt = arg;
		break;
	case 'v':
		o->level = DARD_LOG_DEBUG;
		break;
	case 'q':
		o->level = DARD_LOG_ERR;
		break;
	case 'V':
		printf("dard-switchd %s\n", DARD_VERSION);
		return SWITCHD_DONE;
	case 'h':
		switchd_usage(stdout);
		return SWITCHD_DONE;
	default: /* getopt has said what */
		err[0] = '\0';
		return SWITCHD_BAD_USAGE;
	}
	return SWITCHD_RUN;
}

int switchd_opts_parse(int argc, char **argv, struct switchd_opts *o, char *err)
{
	static const struct option longopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"listen", required_argument, NULL, 'l'},
		{"port", required_argument, NULL, 'p'},
		{"window", required_argument, NULL, 'w'},
		{"elephant-dscp", required_argument, NULL, 'd'},
		{"ifname", required_argument, NULL, 'i'},
		{"verbose", no_argument, NULL, 'v'},
		{"quiet", no_argument, NULL, 'q'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	int opt, ret;

	memset(o, 0, sizeof(*o));
	o->port = DARD_PROTO_PORT;
	o->window_ns = 1000000000;
	o->dscp = 8;
	o->ifname_fmt = "p%u";
	o->level = DARD_LOG_INFO;
	while ((opt = getopt_long(argc, argv, "c:l:p:w:d:i:vqVh", longopts,
				  NULL)) != -1) {
		ret = option(o, opt, optarg, err);
		if (ret != SWITCHD_RUN)
			return ret;
	}
	if (optind != argc - 1) {
		dard_fail(err, -EINVAL, "%s",
			  optind < argc ? "one SWITCH only" : "which SWITCH?");
		return SWITCHD_BAD_USAGE;
	}
	o->sw = argv[optind];
	return SWITCHD_RUN;
}
