// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardctl controller stats: what the dard-controller on this machine
 * knows, asked over its control socket (a file, root's, mode 0600).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <json-c/json.h>

#include "clock.h"
#include "ctlr_answer.h"
#include "ctlsock.h"
#include "ctl.h"
#include "args.h"
#include "objects.h"
#include "print.h"
#include "readall.h"

#define CTLR_SOCK_DEFAULT "/run/dard/controller.sock"

/* The answer: a few hundred bytes, and a line per failed link. */
enum { ANSWER_MAX = 16 << 20 };

static int usage(FILE *f)
{
	fprintf(f,
		"Usage: dardctl controller stats [ socket PATH ]\n"
		"\n"
		"The state of the dard-controller whose control socket is PATH\n"
		"(default " CTLR_SOCK_DEFAULT "): its algorithm, epoch,\n"
		"rounds, the hosts and flows it knows, the last round's decision\n"
		"time, datagrams and bytes pushed and L_D, the failed links the\n"
		"switches report, and the datagrams it refused, by reason.\n");
	return f == stdout ? CTL_OK : CTL_USAGE;
}

/* Connected to path, its holder checked to be root; -1 after saying why. */
static int connect_to(const char *path)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	char who[DARD_PEER_STRLEN];
	struct ucred cred;
	socklen_t len = sizeof(cred);
	int fd;

	if (strlen(path) >= sizeof(sun.sun_path)) {
		fprintf(stderr, "Invalid socket `%s': too long\n", path);
		return -1;
	}
	strcpy(sun.sun_path, path);
	fd = dard_unix_connect(&sun, sizeof(sun), CTL_ANSWER_WAIT_S * 1000);
	if (fd == -ETIMEDOUT) {
		fprintf(stderr,
			"dard-controller did not answer within %d s: %s takes no connection\n",
			CTL_ANSWER_WAIT_S, path);
		return -1;
	}
	if (fd < 0) {
		fprintf(stderr, "No dard-controller at %s: %s\n", path,
			strerror(-fd));
		return -1;
	}
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len)) {
		fprintf(stderr, "Unable to tell who holds %s: %s\n", path,
			strerror(errno));
		close(fd);
		return -1;
	}
	if (cred.uid != 0) {
		dard_peer_describe(cred.pid, cred.uid, who, sizeof(who));
		fprintf(stderr,
			"Refusing to talk to %s: its holder (%s) is not root, "
			"so not dard-controller\n",
			path, who);
		close(fd);
		return -1;
	}
	return fd;
}

static json_object *ask(const char *path)
{
	char *buf, err[DARD_ERR_MAX];
	json_object *doc;
	uint64_t by;
	size_t len;
	int fd, ret;

	by = dard_clock_ns(CLOCK_MONOTONIC) + CTL_ANSWER_WAIT_S * 1000000000ULL;
	fd = connect_to(path);
	if (fd < 0)
		return NULL;
	send(fd, "stats\n", 6, MSG_NOSIGNAL);
	ret = dard_read_all_by(fd, ANSWER_MAX, by, &buf, &len);
	close(fd);
	if (ret == -ETIMEDOUT) {
		fprintf(stderr, "dard-controller did not answer within %d s\n",
			CTL_ANSWER_WAIT_S);
		return NULL;
	}
	if (ret) {
		fprintf(stderr, "Unable to read dard-controller's answer: %s\n",
			strerror(-ret));
		return NULL;
	}
	doc = ctlr_answer_parse(buf, err);
	free(buf);
	if (!doc)
		fprintf(stderr, "%s\n", err);
	return doc;
}

int do_controller(struct ctl *c, int argc, char **argv)
{
	const char *path = CTLR_SOCK_DEFAULT;
	json_object *doc;

	if (ctl_wants_help(argc, argv))
		return usage(stdout);
	if (argc < 1 || strcmp(argv[0], "stats")) {
		fprintf(stderr, "controller: expected `stats'\n");
		return usage(stderr);
	}
	if (argc == 3 && !strcmp(argv[1], "socket")) {
		path = argv[2];
	} else if (argc != 1) {
		fprintf(stderr, "controller stats: unexpected `%s'\n", argv[1]);
		return usage(stderr);
	}
	doc = ask(path);
	if (!doc)
		return CTL_ERR;
	if (c->json)
		print_json_value(NULL, doc);
	else
		ctlr_answer_text(doc);
	json_object_put(doc);
	return CTL_OK;
}
