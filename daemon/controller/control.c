// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The control socket: a UNIX stream socket at --socket (mode 0600 in a
 * directory it creates 0755), one command line in (dardd's rules,
 * ctlsock.h's dard_ctl_line), one JSON document out, for `dardctl
 * controller stats'. At a path of its own, not one per network namespace
 * as dardd's (dardd.h): the controller runs once per fabric. The file
 * mode keeps others off it; the peer is still checked by SO_PEERCRED.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>

#include <json-c/json.h>

#include "ctlr.h"
#include "ctlsock.h"
#include "err.h"
#include "oblivious.h"

int control_open(struct ctlr *c, char *err)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	char dir[sizeof(sun.sun_path)], *slash;
	int fd;

	if (strlen(c->o.sock) >= sizeof(sun.sun_path))
		return dard_fail(err, -ENAMETOOLONG,
				 "control socket path `%s' is too long",
				 c->o.sock);
	strcpy(sun.sun_path, c->o.sock);
	strcpy(dir, c->o.sock);
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		mkdir(dir, 0755);
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return dard_fail(err, -errno, "Unable to open a socket: %s",
				 strerror(errno));
	/* A socket file outlives its holder: a stale one is ours to replace. */
	unlink(c->o.sock);
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) ||
	    chmod(c->o.sock, 0600) || listen(fd, 8)) {
		int ret = -errno;

		close(fd);
		return dard_fail(err, ret,
				 "Unable to open the control socket `%s': %s",
				 c->o.sock, strerror(-ret));
	}
	c->ctl = fd;
	return 0;
}

void control_close(struct ctlr *c)
{
	if (c->ctl < 0)
		return;
	close(c->ctl);
	unlink(c->o.sock);
	c->ctl = -1;
}

static void add_u64(json_object *o, const char *k, uint64_t v)
{
	json_object_object_add(o, k, json_object_new_int64((int64_t)v));
}

static json_object *failed_json(struct ctlr *c)
{
	json_object *a = json_object_new_array();
	uint32_t i;

	for (i = 0; c->nfailed && i < c->t->nlinks; i++) {
		const struct dard_link *l = &c->t->link[i];
		char s[2 * DARD_NAME_MAX + 16];

		if (!c->down[i])
			continue;
		snprintf(s, sizeof(s), "%s:%u-%s:%u", c->t->node[l->up].name,
			 l->up_port, c->t->node[l->down].name, l->down_port);
		json_object_array_add(a, json_object_new_string(s));
	}
	return a;
}

/* The values CTLR_STATS's V entries name: stat_NAME() adds NAME. */
static void stat_algo(struct ctlr *c, json_object *o)
{
	json_object_object_add(
		o, "algo",
		json_object_new_string(dard_cp_algo_name(c->o.algo)));
}

static void stat_epoch(struct ctlr *c, json_object *o)
{
	add_u64(o, "epoch", c->epoch);
}

/* The hosts heard from within the timeout, and their flows. */
static void stat_hosts(struct ctlr *c, json_object *o)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < c->nhosts; i++)
		n += host_live(&c->host[i]);
	add_u64(o, "hosts", n);
}

static void stat_flows(struct ctlr *c, json_object *o)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < c->nhosts; i++)
		if (host_live(&c->host[i]))
			n += c->host[i].nflows;
	add_u64(o, "flows", n);
}

static void stat_self(struct ctlr *c, json_object *o)
{
	json_object_object_add(o, "self", json_object_new_boolean(c->self));
}

static void stat_last_decision_ms(struct ctlr *c, json_object *o)
{
	json_object_object_add(o, "last_decision_ms",
			       json_object_new_double(c->st.last_ns / 1e6));
}

static void stat_failed_links(struct ctlr *c, json_object *o)
{
	json_object_object_add(o, "failed_links", failed_json(c));
}

/* The oblivious LP's, once it has weights. */
static void stat_lp_exact(struct ctlr *c, json_object *o)
{
	if (c->obl)
		json_object_object_add(
			o, "lp_exact",
			json_object_new_boolean(dard_obl_exact(c->obl)));
}

static void stat_lp_util(struct ctlr *c, json_object *o)
{
	if (c->obl)
		json_object_object_add(
			o, "lp_util",
			dard_obl_exact(c->obl)
				? json_object_new_double(dard_obl_util(c->obl))
				: json_object_new_string("none"));
}

/* `dardctl controller stats': CTLR_STATS (ctlr.h), in its order. */
#define STAT_C(name) add_u64(o, #name, c->st.name);
#define STAT_T(name, rx) add_u64(o, #name, dard_rx_refused(&c->rx));
#define STAT_KIND(id, name) add_u64(r, #name, rx->n[DARD_RX_##id]);
#define STAT_O(name, r_, LIST)                                                 \
	rx = &c->r_;                                                           \
	r = json_object_new_object();                                          \
	LIST(STAT_KIND)                                                        \
	json_object_object_add(o, #name, r);
#define STAT_V(name) stat_##name(c, o);

char *control_stats(struct ctlr *c)
{
	json_object *o = json_object_new_object(), *r;
	const struct dard_rx *rx;
	char *out;

	CTLR_STATS(STAT_C, STAT_T, STAT_O, STAT_V)
	out = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return out;
}

#undef STAT_C
#undef STAT_T
#undef STAT_KIND
#undef STAT_O
#undef STAT_V

/* Writes all of s and a newline, giving up after the send timeout. */
static void answer(int fd, const char *s)
{
	size_t len = strlen(s), off = 0;

	while (off < len) {
		ssize_t n = send(fd, s + off, len - off, MSG_NOSIGNAL);

		if (n <= 0)
			return;
		off += n;
	}
	send(fd, "\n", 1, MSG_NOSIGNAL);
}

static void refuse(int fd, const char *why)
{
	char s[128];

	snprintf(s, sizeof(s), "{\"error\":\"%s\"}", why);
	answer(fd, s);
}

void control_accept(struct ctlr *c)
{
	struct timeval tv = {.tv_sec = 1};
	char buf[DARD_CTL_LINE_MAX], cmd[DARD_CTL_LINE_MAX];
	struct ucred cred;
	socklen_t len = sizeof(cred);
	ssize_t n;
	int fd;

	fd = accept4(c->ctl, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	/* One slow or silent client must not stop the rounds for long. */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) ||
	    cred.uid != 0) {
		refuse(fd, "not root");
		close(fd);
		return;
	}
	n = recv(fd, buf, sizeof(buf), 0);
	if (n <= 0 || dard_ctl_line(buf, n, cmd)) {
		refuse(fd, "one command line, please");
	} else if (!strcmp(cmd, "stats")) {
		char *s = control_stats(c);

		if (s)
			answer(fd, s);
		free(s);
	} else {
		refuse(fd, "unknown command");
	}
	close(fd);
}
