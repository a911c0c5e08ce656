// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-exp: what an experiment on the namespace testbed did to the
 * machine (sample.c), what it shows (report.c), and its transfers,
 * timed to their end (send.c, recv.c). main only wires: a
 * table of the commands drives both the dispatch and the help; each
 * command parses its own options (opts.c).
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "opts.h"
#include "recv.h"
#include "report.h"
#include "sample.h"
#include "send.h"
#include "stdopts.h"

static const struct cmd {
	const char *name;
	const char *argv0; /* what getopt's messages begin with */
	int (*run)(int argc, char **argv, void (*usage)(FILE *));
	const char *synopsis;
	const char *description;
} cmds[] = {
	{"sample", "dard-exp sample", exp_sample_cmd,
	 "--prefix PREFIX --out DIR [ --interval S ]\n"
	 "                       [ --state DIR ]",
	 "record a testbed's CPU idle share, links and queues"},
	{"report", "dard-exp report", exp_report_cmd, "DIR [ --json FILE ]",
	 "an experiment's statistics, fidelity and the model beside it"},
	{"send", "dard-exp send", exp_send_cmd,
	 "--to ADDR --port PORT --bytes N [ --from ADDR ]\n"
	 "                     [ --cport PORT ] [ --interval S ]\n"
	 "                     [ --congestion ALGO ] [ --timeout S ]",
	 "one transfer, timed until the receiver has every byte"},
	{"recv", "dard-exp recv", exp_recv_cmd,
	 "--bind ADDR --port PORT [ --once ] [ --daemon ]\n"
	 "                     [ --timeout S ]",
	 "send's receiver: reads to the end, answers with the count"},
	{"bench", "dard-exp bench", exp_bench_cmd, "LOG... [ --json FILE ]",
	 "the figures test logs print: each one's mean and interval"},
};

enum { NCMDS = sizeof(cmds) / sizeof(cmds[0]) };

static void usage(FILE *f)
{
	unsigned i;

	for (i = 0; i < NCMDS; i++)
		fprintf(f, "%s dard-exp %s %s\n",
			i ? "      " : "Usage:", cmds[i].name,
			cmds[i].synopsis);
	fputs("       dard-exp { -V | --version | -h | --help }\n"
	      "\n"
	      "Commands:\n",
	      f);
	for (i = 0; i < NCMDS; i++)
		fprintf(f, "  %-7s %s\n", cmds[i].name, cmds[i].description);
	fputc('\n', f);
	exp_opts_help(f);
	fputs("\n"
	      "Exit status: 0 success, 1 error (a bad file, a testbed not up, a\n"
	      "transfer that failed), 2 bad usage.\n",
	      f);
}

int main(int argc, char **argv)
{
	unsigned i;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	for (i = 0; i < NCMDS; i++)
		if (!strcmp(argv[1], cmds[i].name)) {
			argv[1] = (char *)cmds[i].argv0;
			return cmds[i].run(argc - 1, argv + 1, usage);
		}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return dard_common_opt('h', "dard-exp", NULL, usage);
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version"))
		return dard_common_opt('V', "dard-exp", NULL, usage);
	fprintf(stderr, "dard-exp: unknown command `%s' (try --help)\n",
		argv[1]);
	return 2;
}
