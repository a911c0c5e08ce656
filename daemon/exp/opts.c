// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dard-exp's options (opts.h). */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "opts.h"
#include "stdopts.h"
#include "xfer.h"

void exp_opts_help(FILE *f)
{
	fputs("sample:\n"
	      "Every S seconds, until SIGTERM or SIGINT (then it exits 0), a row of\n"
	      "DIR/cpu.csv, t,idle: the epoch time and the share of all CPUs' time\n"
	      "idle or waiting for I/O since the row before (/proc/stat's cpu line),\n"
	      "and rows of DIR/links.csv, t,node,dev,tx_bytes,tx_packets,drops,backlog:\n"
	      "for every interface but lo and mgmt0 of every node of testbed PREFIX,\n"
	      "its transmit counters (IFLA_STATS64) and its root qdisc's drops and\n"
	      "backlog, read in the node's namespace over one rtnetlink socket made\n"
	      "there at the start (one link dump and one qdisc dump per interval).\n"
	      "Each interval's rows are written whole, so a killed sampler leaves\n"
	      "whole lines. Stop it before the testbed goes down: its sockets keep\n"
	      "the namespaces alive.\n"
	      "  --prefix PREFIX  the testbed; its nodes are the NODE KIND NAMESPACE\n"
	      "                   lines of STATE/PREFIX/nodes (scripts/testbed)\n"
	      "  --out DIR        where cpu.csv and links.csv are written anew (DIR\n"
	      "                   is made if missing)\n"
	      "  --interval S     seconds between samples, 0.1 to 60 (default 1)\n"
	      "  --state DIR      the testbeds' state directory (default\n"
	      "                   $DARD_TESTBED_DIR, else " EXP_TESTBED_DIR
	      ")\n"
	      "\n"
	      "report:\n"
	      "Reads an experiment directory (meta, calibration/ and run1 ... runN\n"
	      "as scripts/experiment writes them, or one run's own results.csv) and\n"
	      "prints, a table per section: the experiment, the calibration, each\n"
	      "run's schedulers (flows, failed, average transfer time, the model's\n"
	      "and the bound's for the same flows, idle share), each fidelity verdict\n"
	      "(faithful, or not faithful: cpu, shaping, flows below their share,\n"
	      "calibration), the checks it could not judge and why, each scheduler\n"
	      "across the runs (mean, standard deviation, 95% interval by Student's\n"
	      "t, least, largest, the model's mean and the ratio) and the gains of\n"
	      "formula (1) over the pairs of runs, with their intervals and the\n"
	      "model's gain (Documentation/experiments.md, \"Fidelity, statistics and\n"
	      "the model\"). A missing file leaves what needs it not judged; a bad\n"
	      "one is refused naming FILE:LINE.\n"
	      "  --json FILE      the same figures as JSON (default DIR/summary.json)\n"
	      "\n"
	      "bench:\n"
	      "Reads the figure lines of test logs (`figure NAME VALUE UNIT [WHAT]',\n"
	      "what tests/lib.sh's figure prints: a rate or a time a test measured\n"
	      "and did not judge) and prints a markdown table: each figure's\n"
	      "values, mean, standard deviation, 95% interval by Student's t,\n"
	      "least and largest (make bench, scripts/bench-figures). A value nan\n"
	      "is counted apart; a line that is no figure is refused with its\n"
	      "LOG:LINE.\n"
	      "  --json FILE      the same as JSON, with every value\n"
	      "\n"
	      "send:\n"
	      "Connects to ADDR:PORT, writes N bytes, shuts its side, reads the\n"
	      "receiver's count (recv) and prints a report in iperf3 -J's shape: the\n"
	      "transfer's seconds run from the connect() call to the count, when the\n"
	      "receiver has every byte (iperf3 -n stops at the last byte written).\n"
	      "Every S seconds, an interval of the bytes the receiver acknowledged\n"
	      "(TCP_INFO). Exit 0 when the count is N, else 1 with the JSON's error.\n"
	      "  --to ADDR        the receiver, an IPv4 or IPv6 address\n"
	      "  --port PORT      its port\n"
	      "  --bytes N        bytes to send, 1 to 2^40\n"
	      "  --from ADDR      the address to send from (default the kernel's)\n"
	      "  --cport PORT     the port to send from (SO_REUSEADDR)\n"
	      "  --interval S     seconds an interval, 0.1 to 60 (default 1)\n"
	      "  --congestion ALGO\n"
	      "                   the socket's TCP_CONGESTION (default the system's)\n"
	      "  --timeout S      seconds the whole transfer may take, 0.1 to 86400\n"
	      "                   (default 600)\n"
	      "\n"
	      "recv:\n"
	      "Listens on ADDR:PORT and reads each connection, one at a time, to its\n"
	      "end, then writes back the count of bytes read (8 bytes, big-endian)\n"
	      "and closes it.\n"
	      "  --bind ADDR      the address to listen on (0.0.0.0 or :: for all)\n"
	      "  --port PORT      the port\n"
	      "  --once           exit after one connection\n"
	      "  --daemon         go to the background once listening, so that a\n"
	      "                   connection is accepted as soon as it returns\n"
	      "  --timeout S      give up, exit 1, after S seconds without a\n"
	      "                   connection or a byte of one, 0.1 to 86400\n"
	      "                   (default 600)\n",
	      f);
}

/* What getopt refused, -h and -V: the exit status. */
static int common(int c, void (*usage)(FILE *))
{
	return dard_common_opt(c, "dard-exp", NULL, usage);
}

int exp_sample_opts(int argc, char **argv, struct exp_sample_args *a,
		    void (*usage)(FILE *), char *err)
{
	static const struct option lo[] = {
		{"prefix", required_argument, NULL, 'p'},
		{"out", required_argument, NULL, 'o'},
		{"interval", required_argument, NULL, 'i'},
		{"state", required_argument, NULL, 's'},
		DARD_OPTS_INFO,
		{NULL, 0, NULL, 0},
	};
	int c, ret;

	memset(a, 0, sizeof(*a));
	err[0] = '\0';
	a->interval = 1;
	optind = 0;
	while ((c = getopt_long(argc, argv, "Vh", lo, NULL)) != -1) {
		switch (c) {
		case 'p':
			a->prefix = optarg;
			break;
		case 'o':
			a->out = optarg;
			break;
		case 's':
			a->state = optarg;
			break;
		case 'i':
			ret = dard_parse_double(optarg, 0.1, 60, &a->interval);
			if (ret) {
				dard_num_fail(err, ret, "--interval", optarg,
					      "seconds from 0.1 to 60");
				return 2;
			}
			break;
		default:
			return common(c, usage);
		}
	}
	if (optind != argc || !a->prefix || !a->out) {
		dard_fail(err, -EINVAL, "sample: %s (try --help)",
			  optind != argc ? "unexpected arguments"
					 : "give --prefix and --out");
		return 2;
	}
	if (!*a->prefix || strchr(a->prefix, '/') || !*a->out) {
		dard_fail(err, -EINVAL, "sample: %s",
			  *a->out ? "--prefix names no testbed"
				  : "an empty --out");
		return 2;
	}
	if (!a->state)
		a->state = getenv("DARD_TESTBED_DIR");
	if (!a->state || !*a->state)
		a->state = EXP_TESTBED_DIR;
	return DARD_OPTS_RUN;
}

int exp_report_opts(int argc, char **argv, struct exp_report_args *a,
		    void (*usage)(FILE *), char *err)
{
	static const struct option lo[] = {
		{"json", required_argument, NULL, 'j'},
		DARD_OPTS_INFO,
		{NULL, 0, NULL, 0},
	};
	int c;

	memset(a, 0, sizeof(*a));
	err[0] = '\0';
	optind = 0;
	while ((c = getopt_long(argc, argv, "Vh", lo, NULL)) != -1) {
		if (c != 'j')
			return common(c, usage);
		a->json = optarg;
	}
	if (optind + 1 != argc || !*argv[optind]) {
		dard_fail(err, -EINVAL, "report: give one DIR (try --help)");
		return 2;
	}
	a->dir = argv[optind];
	return DARD_OPTS_RUN;
}

/* A port, 1 to 65535: 0 or the exit status 2. */
static int parse_port(const char *what, const char *s, unsigned *port,
		      char *err)
{
	uint32_t v;
	int ret = dard_parse_u32(s, 1, 65535, &v);

	if (ret) {
		dard_num_fail(err, ret, what, s, "a port from 1 to 65535");
		return 2;
	}
	*port = v;
	return 0;
}

/* Seconds for --timeout: 0 or the exit status 2. */
static int parse_timeout(const char *s, double *out, char *err)
{
	int ret = dard_parse_double(s, 0.1, 86400, out);

	if (ret) {
		dard_num_fail(err, ret, "--timeout", s,
			      "seconds from 0.1 to 86400");
		return 2;
	}
	return 0;
}

/* A numeric address: 0 or the exit status 2. */
static int parse_addr(const char *what, const char *s, unsigned port,
		      struct sockaddr_storage *ss, socklen_t *len, char *err)
{
	if (!exp_xfer_addr(s, port, ss, len))
		return 0;
	dard_fail(err, -EINVAL,
		  "Invalid %s `%s': expected an IPv4 or IPv6 address", what, s);
	return 2;
}

/* What send's switch takes: 0, or the exit status. */
static int send_opt(int c, struct exp_send_args *a, const char **from,
		    char *err)
{
	int ret;

	switch (c) {
	case 't':
		a->to = optarg;
		return 0;
	case 'p':
		return parse_port("--port", optarg, &a->port, err);
	case 'c':
		return parse_port("--cport", optarg, &a->cport, err);
	case 'f':
		*from = optarg;
		return 0;
	case 'n':
		ret = dard_parse_u64(optarg, 1, EXP_XFER_BYTES_MAX, &a->bytes);
		if (ret)
			dard_num_fail(err, ret, "--bytes", optarg,
				      "bytes from 1 to 2^40");
		return ret ? 2 : 0;
	case 'i':
		ret = dard_parse_double(optarg, 0.1, 60, &a->interval);
		if (ret)
			dard_num_fail(err, ret, "--interval", optarg,
				      "seconds from 0.1 to 60");
		return ret ? 2 : 0;
	case 'C':
		/* The kernel's TCP_CA_NAME_MAX is 16, with the NUL. */
		if (!*optarg || strlen(optarg) > 15) {
			dard_fail(err, -EINVAL,
				  "Invalid --congestion `%s': expected an "
				  "algorithm's name of 1 to 15 characters",
				  optarg);
			return 2;
		}
		a->congestion = optarg;
		return 0;
	case 'T':
		return parse_timeout(optarg, &a->timeout, err);
	}
	return DARD_OPTS_RUN;
}

int exp_send_opts(int argc, char **argv, struct exp_send_args *a,
		  void (*usage)(FILE *), char *err)
{
	static const struct option lo[] = {
		{"to", required_argument, NULL, 't'},
		{"port", required_argument, NULL, 'p'},
		{"bytes", required_argument, NULL, 'n'},
		{"from", required_argument, NULL, 'f'},
		{"cport", required_argument, NULL, 'c'},
		{"interval", required_argument, NULL, 'i'},
		{"congestion", required_argument, NULL, 'C'},
		{"timeout", required_argument, NULL, 'T'},
		DARD_OPTS_INFO,
		{NULL, 0, NULL, 0},
	};
	const char *from = NULL;
	int c, ret;

	memset(a, 0, sizeof(*a));
	err[0] = '\0';
	a->interval = 1;
	a->timeout = 600;
	optind = 0;
	while ((c = getopt_long(argc, argv, "Vh", lo, NULL)) != -1) {
		ret = send_opt(c, a, &from, err);
		if (ret == DARD_OPTS_RUN)
			return common(c, usage);
		if (ret)
			return ret;
	}
	if (optind != argc || !a->to || !a->port || !a->bytes) {
		dard_fail(err, -EINVAL, "send: %s (try --help)",
			  optind != argc ? "unexpected arguments"
					 : "give --to, --port and --bytes");
		return 2;
	}
	if (parse_addr("--to", a->to, a->port, &a->dst, &a->dst_len, err))
		return 2;
	if (!from && !a->cport)
		return DARD_OPTS_RUN;
	/* A --cport alone: from any address of --to's family. */
	if (!from)
		from = a->dst.ss_family == AF_INET ? "0.0.0.0" : "::";
	if (parse_addr("--from", from, a->cport, &a->src, &a->src_len, err))
		return 2;
	if (a->src.ss_family != a->dst.ss_family) {
		dard_fail(err, -EINVAL,
			  "send: --from %s and --to %s are not of one family",
			  from, a->to);
		return 2;
	}
	return DARD_OPTS_RUN;
}

int exp_recv_opts(int argc, char **argv, struct exp_recv_args *a,
		  void (*usage)(FILE *), char *err)
{
	static const struct option lo[] = {
		{"bind", required_argument, NULL, 'b'},
		{"port", required_argument, NULL, 'p'},
		{"once", no_argument, NULL, '1'},
		{"daemon", no_argument, NULL, 'D'},
		{"timeout", required_argument, NULL, 'T'},
		DARD_OPTS_INFO,
		{NULL, 0, NULL, 0},
	};
	int c;

	memset(a, 0, sizeof(*a));
	err[0] = '\0';
	a->timeout = 600;
	optind = 0;
	while ((c = getopt_long(argc, argv, "Vh", lo, NULL)) != -1) {
		switch (c) {
		case 'b':
			a->bind = optarg;
			break;
		case 'p':
			if (parse_port("--port", optarg, &a->port, err))
				return 2;
			break;
		case '1':
			a->once = 1;
			break;
		case 'D':
			a->daemon = 1;
			break;
		case 'T':
			if (parse_timeout(optarg, &a->timeout, err))
				return 2;
			break;
		default:
			return common(c, usage);
		}
	}
	if (optind != argc || !a->bind || !a->port) {
		dard_fail(err, -EINVAL, "recv: %s (try --help)",
			  optind != argc ? "unexpected arguments"
					 : "give --bind and --port");
		return 2;
	}
	if (parse_addr("--bind", a->bind, a->port, &a->addr, &a->addr_len, err))
		return 2;
	return DARD_OPTS_RUN;
}
