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

#include "dardctl.h"
#include "dardd.h"
#include "print.h"
#include "readall.h"

/* The largest answer read: a few hundred bytes per elephant or monitor. */
enum { ANSWER_MAX = 64 << 20 };

/* The daemon's answer to cmd, parsed; NULL after printing why. */
static json_object *ask(const char *cmd)
{
	struct sockaddr_un sun;
	socklen_t sunlen = dardd_ctl_addr(&sun);
	char *buf, line[64];
	json_object *doc;
	size_t len;
	int fd, ret;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sun, sunlen)) {
		fprintf(stderr, "No dardd in this network namespace: %s\n",
			strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	snprintf(line, sizeof(line), "%s\n", cmd);
	/* One send: the daemon answers at the newline and closes. */
	if (send(fd, line, strlen(line), MSG_NOSIGNAL) < 0) {
		fprintf(stderr, "Unable to ask dardd: %s\n", strerror(errno));
		close(fd);
		return NULL;
	}
	ret = dard_read_all(fd, ANSWER_MAX, &buf, &len);
	close(fd);
	if (ret == -ENOMEM)
		fprintf(stderr,
			"Unable to read dardd's answer: out of memory\n");
	else if (ret == -EFBIG)
		fprintf(stderr,
			"Unable to read dardd's answer: larger than %u MiB\n",
			ANSWER_MAX >> 20);
	else if (ret)
		fprintf(stderr, "Unable to read dardd's answer: %s\n",
			strerror(-ret));
	if (ret)
		return NULL;
	doc = json_tokener_parse(buf);
	if (!doc)
		fprintf(stderr,
			"dardd answered %s with something not JSON (is dardctl as new as dardd?)\n",
			cmd);
	else if (json_object_is_type(doc, json_type_object) &&
		 json_object_object_get_ex(doc, "error", NULL)) {
		fprintf(stderr, "dardd: %s\n",
			json_object_get_string(
				json_object_object_get(doc, "error")));
		json_object_put(doc);
		doc = NULL;
	}
	free(buf);
	return doc;
}

static const char *str(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v)
						     : "?";
}

static long long num(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v)
						     : 0;
}

static double dbl(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_double(v)
						     : 0;
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

/* The known column: a dead path (a port reported down) says so. */
static const char *known_str(json_object *p)
{
	if (json_object_get_boolean(json_object_object_get(p, "dead")))
		return "dead";
	return json_object_get_boolean(json_object_object_get(p, "known"))
		       ? "yes"
		       : "no";
}

static void monitors_text(json_object *doc)
{
	size_t i, k, j;

	for (i = 0; i < json_object_array_length(doc); i++) {
		json_object *m = json_object_array_get_idx(doc, i), *paths;

		printf("%s -> %s: %lld elephants, %lld rounds, %lld moves, %lld switches queried\n",
		       str(m, "src_tor"), str(m, "dst_tor"),
		       num(m, "elephants"), num(m, "rounds"), num(m, "moves"),
		       num(m, "switches"));
		printf("  %-4s %-7s %-12s %-9s %-6s %s\n", "path", "known",
		       "BoNF Mbit/s", "elephants", "ours", "switches");
		json_object_object_get_ex(m, "paths", &paths);
		for (k = 0; paths && k < json_object_array_length(paths); k++) {
			json_object *p = json_object_array_get_idx(paths, k),
				    *sw;

			printf("  %-4lld %-7s %-12s %-9lld %-6lld",
			       num(p, "index"), known_str(p), str(p, "bonf"),
			       num(p, "elephants"), num(p, "ours"));
			json_object_object_get_ex(p, "switches", &sw);
			for (j = 0; sw && j < json_object_array_length(sw); j++)
				printf(" %s", json_object_get_string(
						      json_object_array_get_idx(
							      sw, j)));
			putchar('\n');
		}
	}
}

static void flows_text(json_object *doc)
{
	size_t i, k;

	for (i = 0; i < json_object_array_length(doc); i++) {
		json_object *f = json_object_array_get_idx(doc, i), *h;

		printf("%s %s:%lld %s:%lld (%s) path %lld via %s -> %s\n",
		       str(f, "proto"), str(f, "src"), num(f, "sport"),
		       str(f, "dst"), num(f, "dport"), str(f, "dst_host"),
		       num(f, "path"), str(f, "saddr"), str(f, "daddr"));
		printf("    elephant for %.1fs moves %lld history",
		       dbl(f, "elephant_s"), num(f, "moves"));
		json_object_object_get_ex(f, "history", &h);
		for (k = 0; h && k < json_object_array_length(h); k++) {
			json_object *x = json_object_array_get_idx(h, k);

			printf(" path %lld (%.1fs ago)", num(x, "path"),
			       dbl(x, "ago_s"));
		}
		putchar('\n');
	}
}

static void stats_text(json_object *doc)
{
	json_object_object_foreach(doc, key, val)
		printf("%-18s %s\n", key, json_object_get_string(val));
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
			"bottleneck, ours) and the switches it crosses.\n");
	else
		fprintf(f,
			"Usage: dardctl stats\n"
			"\n"
			"The counters of the dardd in this network namespace: monitors,\n"
			"elephants, queries and replies (with their bytes), timeouts,\n"
			"rejected messages, scheduling rounds and moves, and paths that\n"
			"turned dead or live again.\n");
	return f == stdout ? CTL_OK : CTL_USAGE;
}

/* Asks dardd cmd and prints the answer: as it came with -j, else text. */
static int show(struct ctl *c, const char *cmd, void (*text)(json_object *))
{
	json_object *doc = ask(cmd);

	if (!doc)
		return CTL_ERR;
	if (c->json)
		print_doc(doc);
	else
		text(doc);
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
	return show(c, DARDD_CMD_MONITORS, monitors_text);
}

int do_stats(struct ctl *c, int argc, char **argv)
{
	if (ctl_wants_help(argc, argv))
		return usage(stdout, "stats");
	if (argc) {
		fprintf(stderr, "stats: unexpected `%s'\n", argv[0]);
		return usage(stderr, "stats");
	}
	return show(c, DARDD_CMD_STATS, stats_text);
}

int ctl_daemon_flows(struct ctl *c)
{
	return show(c, DARDD_CMD_FLOWS, flows_text);
}
