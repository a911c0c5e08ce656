// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardctl monitor show, flow show (without dev), stats and sched: what
 * the dardd of this network namespace knows, asked over its control
 * socket, and its scheduling mode, changed through it.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <json-c/json.h>

#include "answer.h"
#include "clock.h"
#include "ctlsock.h"
#include "ctl.h"
#include "args.h"
#include "objects.h"
#include "dardd.h"
#include "print.h"
#include "readall.h"

/* The largest answer read: a few hundred bytes per elephant or monitor. */
enum { ANSWER_MAX = 64 << 20 };

/* The daemon's answer to cmd, parsed; NULL after printing why. */
static json_object *ask(const char *cmd)
{
	char *buf, line[64], err[DARD_ERR_MAX];
	int fd, ret, sent;
	json_object *doc;
	uint64_t by;
	size_t len;

	/* One deadline for the connect and the answer. */
	by = dard_clock_ns(CLOCK_MONOTONIC) + CTL_ANSWER_WAIT_S * 1000000000ULL;
	/* Only once its holder is known to be root (ctlsock.h). */
	fd = dard_ctl_connect(CTL_ANSWER_WAIT_S * 1000, err);
	if (fd < 0) {
		fprintf(stderr, "%s\n", err);
		return NULL;
	}
	snprintf(line, sizeof(line), "%s\n", cmd);
	/*
	 * One send: the daemon answers at the newline and closes. A refusal
	 * (not root) may close before we send: its answer says why.
	 */
	sent = send(fd, line, strlen(line), MSG_NOSIGNAL) < 0 ? -errno : 0;
	ret = dard_read_all_by(fd, ANSWER_MAX, by, &buf, &len);
	close(fd);
	if (!ret && !len && sent) {
		free(buf);
		ret = sent;
	}
	if (ret == -ENOMEM)
		fprintf(stderr,
			"Unable to read dardd's answer: out of memory\n");
	else if (ret == -EFBIG)
		fprintf(stderr,
			"Unable to read dardd's answer: larger than %u MiB\n",
			ANSWER_MAX >> 20);
	else if (ret == -ETIMEDOUT)
		fprintf(stderr, "dardd did not answer within %d s\n",
			CTL_ANSWER_WAIT_S);
	else if (ret)
		fprintf(stderr, "Unable to ask dardd: %s\n", strerror(-ret));
	if (ret)
		return NULL;
	doc = answer_parse(cmd, buf, len, err);
	if (!doc)
		fprintf(stderr, "%s\n", err);
	free(buf);
	return doc;
}

/* The answer as dardctl's -j output: an array of objects, as ever. */
static void print_doc(json_object *doc)
{
	size_t i;

	if (!json_object_is_type(doc, json_type_array)) {
		print_json_value(NULL, doc);
		return;
	}
	for (i = 0; i < json_object_array_length(doc); i++)
		print_json_value(NULL, json_object_array_get_idx(doc, i));
}

static int usage(FILE *f, const char *what)
{
	if (!strcmp(what, "monitor"))
		fprintf(f,
			"Usage: dardctl monitor show\n"
			"\n"
			"The monitors of the dardd in this network namespace: one per\n"
			"destination ToR with elephants, each path's state (known, or dead\n"
			"when a switch reports a link of it down; BoNF, elephants on its\n"
			"bottleneck, ours), the load its switches measured on each of its\n"
			"links, ToR to ToR, in Mbit/s (`-': not measured), and the\n"
			"switches it crosses.\n");
	else if (!strcmp(what, "sched"))
		fprintf(f,
			"Usage: dardctl sched show\n"
			"       dardctl sched set { fast | paper | off | pvlb [ interval S ] }\n"
			"\n"
			"What moves the elephants of the dardd in this network namespace,\n"
			"and its intervals. set changes it while dardd runs, its flows\n"
			"and monitors kept:\n"
			"  fast, paper  DARD's rounds under that mode (dardd --sched-mode):\n"
			"               its rounds, queries and delta, unless dardd's\n"
			"               command line set them; the elephant age stays the\n"
			"               datapath's\n"
			"  pvlb         no rounds; each elephant re-picks a random path\n"
			"               every S seconds of its life (default: as before,\n"
			"               first dardd's --pvlb-interval, 10), the paper's pVLB\n"
			"               by the rule dard-sim's pvlb runs\n"
			"  off          no rounds and no moves: new flows hashed over the\n"
			"               live paths (ECMP)\n"
			"A controller that places the elephants still does, in any mode.\n");
	else
		fprintf(f,
			"Usage: dardctl stats\n"
			"\n"
			"The counters of the dardd in this network namespace: monitors,\n"
			"elephants, queries and replies (with their bytes), timeouts,\n"
			"rejected messages, scheduling rounds and moves, and paths that\n"
			"turned dead or live again; who places its elephants (mode: dard\n"
			"or controller, and why) and what the controller did: its\n"
			"address, algorithm, epoch, seconds since heard, reports sent,\n"
			"assignments, moves and weights applied, fallbacks to DARD and\n"
			"its messages refused by reason.\n");
	return f == stdout ? CTL_OK : CTL_USAGE;
}

/* Asks dardd cmd and prints the answer: as it came with -j, else text. */
static int show(struct ctl *c, const char *cmd)
{
	json_object *doc = ask(cmd);

	if (!doc)
		return CTL_ERR;
	if (c->json)
		print_doc(doc);
	else
		answer_text(cmd, doc);
	json_object_put(doc);
	return CTL_OK;
}

int do_monitor(struct ctl *c, int argc, char **argv)
{
	if (ctl_wants_help(argc, argv))
		return usage(stdout, "monitor");
	if (argc != 1 || strcmp(argv[0], "show")) {
		fprintf(stderr, "monitor: expected `show'\n");
		return usage(stderr, "monitor");
	}
	return show(c, DARDD_CMD_MONITORS);
}

int do_stats(struct ctl *c, int argc, char **argv)
{
	if (ctl_wants_help(argc, argv))
		return usage(stdout, "stats");
	if (argc) {
		fprintf(stderr, "stats: unexpected `%s'\n", argv[0]);
		return usage(stderr, "stats");
	}
	return show(c, DARDD_CMD_STATS);
}

/* sched set's words as dardd's command line: "sched MODE [SECONDS]". */
static int sched_line(int argc, char **argv, char *line, size_t size)
{
	static const char *const modes[] = {"fast", "paper", "off", "pvlb"};
	size_t i;

	for (i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(argv[0], modes[i]))
			break;
	if (i == sizeof(modes) / sizeof(modes[0])) {
		fprintf(stderr,
			"sched set: invalid mode `%s': expected fast, paper, "
			"off or pvlb\n",
			argv[0]);
		return -1;
	}
	if (argc == 1) {
		snprintf(line, size, "%s %s", DARDD_CMD_SCHED, argv[0]);
		return 0;
	}
	if (argc != 3 || strcmp(argv[0], "pvlb") ||
	    strcmp(argv[1], "interval")) {
		fprintf(stderr, "sched set: unexpected `%s'%s\n", argv[1],
			strcmp(argv[0], "pvlb")
				? ""
				: ": expected `interval SECONDS'");
		return -1;
	}
	/* dardd checks the number; a word that is one goes as it is. */
	if (strlen(argv[2]) > 16 || strchr(argv[2], ' ')) {
		fprintf(stderr, "sched set: invalid interval `%s'\n", argv[2]);
		return -1;
	}
	snprintf(line, size, "%s pvlb %s", DARDD_CMD_SCHED, argv[2]);
	return 0;
}

int do_sched(struct ctl *c, int argc, char **argv)
{
	char line[48];

	if (ctl_wants_help(argc, argv))
		return usage(stdout, "sched");
	if (argc == 1 && !strcmp(argv[0], "show"))
		return show(c, DARDD_CMD_SCHED);
	if (argc >= 2 && !strcmp(argv[0], "set")) {
		if (sched_line(argc - 1, argv + 1, line, sizeof(line)))
			return usage(stderr, "sched");
		return show(c, line);
	}
	fprintf(stderr, "sched: expected `show' or `set MODE'\n");
	return usage(stderr, "sched");
}

int ctl_daemon_flows(struct ctl *c)
{
	return show(c, DARDD_CMD_FLOWS);
}
