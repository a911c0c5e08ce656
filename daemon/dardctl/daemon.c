// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardctl monitor show, flow show (without dev) and stats: what the dardd
 * of this network namespace knows, asked over its control socket.
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

int ctl_daemon_flows(struct ctl *c)
{
	return show(c, DARDD_CMD_FLOWS);
}
