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
	      "  --json FILE      the same figures as JSON (default DIR/summary.json)\n",
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
