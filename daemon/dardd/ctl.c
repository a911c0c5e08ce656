// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The control socket (daemon/common/dardd.h): one command line in, one
 * JSON document out, for `dardctl monitor show', `flow show', `stats'
 * and `sched show' and `sched set', the one command that writes.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>

#include <json-c/json.h>

#include "ctlsock.h"
#include "dardd.h"
#include "dardd_priv.h"
#include "controller.h"
#include "counters.h"
#include "ctl.h"
#include "elephants.h"
#include "links.h"
#include "monitors.h"
#include "opts.h"
#include "schedule.h"
#include "log.h"
#include "num.h"

static json_object *pstate_json(const struct dard_pstate *ps)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "known", json_object_new_boolean(ps->known));
	json_object_object_add(o, "dead", json_object_new_boolean(ps->dead));
	json_object_object_add(o, "bonf",
			       isinf(ps->bonf)
				       ? json_object_new_string("inf")
				       : json_object_new_double(ps->bonf));
	json_object_object_add(o, "mbps", json_object_new_double(ps->mbps));
	json_object_object_add(o, "elephants",
			       json_object_new_int64(ps->flows));
	return o;
}

/*
 * Path p's directed links, ToR to ToR, as their switches answered: a
 * link's state is what dard_monitor_pv() reads (older than max_age:
 * unknown, never dead), and its load, in Mbit/s, null when its switch
 * did not measure it or the answer is that old.
 */
static json_object *links_json(struct dardd *d, const struct dard_mon_path *p,
			       uint64_t now)
{
	json_object *links = json_object_new_array();
	unsigned k;

	for (k = 0; k < p->ndl; k++) {
		const struct dard_lstate *ls = &d->links.ls[p->dl[k]];
		int fresh = links_fresh(d, p->dl[k], now);
		json_object *l = json_object_new_object();

		json_object_object_add(
			l, "from",
			json_object_new_string(d->t->node[p->sw[k]].name));
		json_object_object_add(
			l, "to",
			json_object_new_string(d->t->node[p->sw[k + 1]].name));
		json_object_object_add(
			l, "known",
			json_object_new_boolean(fresh && ls->known));
		json_object_object_add(l, "dead",
				       json_object_new_boolean(
					       fresh && ls->known && ls->dead));
		json_object_object_add(l, "mbps",
				       json_object_new_double(ls->mbps));
		json_object_object_add(l, "elephants",
				       json_object_new_int64(ls->flows));
		json_object_object_add(
			l, "load",
			fresh && ls->known && ls->loaded
				? json_object_new_double(ls->load)
				: NULL);
		json_object_array_add(links, l);
	}
	return links;
}

static json_object *paths_json(struct dardd *d, const struct dard_monitor *m)
{
	json_object *paths = json_object_new_array();
	uint64_t now = dardd_now_ns();
	unsigned i, k;

	for (i = 0; i < m->npaths; i++) {
		json_object *p = pstate_json(&m->pv[i]), *sw;

		json_object_object_add(p, "index",
				       json_object_new_int64(i + 1));
		json_object_object_add(p, "ours",
				       json_object_new_int64(m->fv[i]));
		sw = json_object_new_array();
		for (k = 1; k + 1 < m->path[i].nsw; k++)
			json_object_array_add(
				sw, json_object_new_string(
					    d->t->node[m->path[i].sw[k]].name));
		json_object_object_add(p, "switches", sw);
		json_object_object_add(p, "links",
				       links_json(d, &m->path[i], now));
		json_object_array_add(paths, p);
	}
	return paths;
}

static json_object *monitors_json(struct dardd *d)
{
	json_object *a = json_object_new_array();
	uint64_t now = dardd_now_ns();
	struct dard_flow_iter it;
	struct mon *mon;

	for (mon = d->mons; mon; mon = mon->next) {
		json_object *o = json_object_new_object();
		const struct dard_monitor *m = mon->m;

		/* The vectors as they are now, not at the last round. */
		dard_monitor_pv(m, d->links.ls, d->links.when, now,
				d->o.max_age_ns, m->pv);
		el_iter(mon, &it);
		dard_monitor_fv(mon->m, &it);
		json_object_object_add(
			o, "src_tor",
			json_object_new_string(d->t->node[m->src_tor].name));
		json_object_object_add(
			o, "dst_tor",
			json_object_new_string(d->t->node[m->dst_tor].name));
		json_object_object_add(o, "elephants",
				       json_object_new_int64(mon->nflows));
		json_object_object_add(o, "rounds",
				       json_object_new_int64(mon->rounds));
		json_object_object_add(o, "moves",
				       json_object_new_int64(mon->moves));
		json_object_object_add(o, "switches",
				       json_object_new_int64(m->nqueries));
		json_object_object_add(o, "quiet",
				       json_object_new_boolean(mon->quiet));
		json_object_object_add(o, "quiet_ticks",
				       json_object_new_int64(mon->quiet_ticks));
		json_object_object_add(o, "paths", paths_json(d, m));
		json_object_array_add(a, o);
	}
	return a;
}

static void add_addr(json_object *o, const char *key, uint32_t be)
{
	struct in_addr in = {.s_addr = be};
	char s[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &in, s, sizeof(s));
	json_object_object_add(o, key, json_object_new_string(s));
}

static json_object *history_json(const struct elephant *e, uint64_t now)
{
	json_object *h = json_object_new_array();
	unsigned i;

	for (i = 0; i < e->nhist; i++) {
		json_object *x = json_object_new_object();

		json_object_object_add(
			x, "ago_s",
			json_object_new_double((now - e->hist[i].ns) / 1e9));
		json_object_object_add(
			x, "path", json_object_new_int(e->hist[i].path + 1));
		json_object_array_add(h, x);
	}
	return h;
}

static json_object *flows_json(struct dardd *d)
{
	json_object *a = json_object_new_array();
	uint64_t now = dardd_now_ns();
	struct elephant *e;

	for (e = d->els; e; e = e->next) {
		json_object *o = json_object_new_object(), *mbps;
		char p[DARD_IPPROTO_STRLEN];

		json_object_object_add(o, "proto",
				       json_object_new_string(dard_ipproto_name(
					       e->key.proto, p)));
		add_addr(o, "src", e->key.saddr);
		json_object_object_add(
			o, "sport", json_object_new_int(ntohs(e->key.sport)));
		add_addr(o, "dst", e->key.daddr);
		json_object_object_add(
			o, "dport", json_object_new_int(ntohs(e->key.dport)));
		json_object_object_add(
			o, "dst_host",
			json_object_new_string(d->t->node[e->dst].name));
		json_object_object_add(o, "path",
				       json_object_new_int(e->path + 1));
		add_addr(o, "saddr", e->pair.saddr);
		add_addr(o, "daddr", e->pair.daddr);
		json_object_object_add(o, "moves",
				       json_object_new_int64(e->moves));
		json_object_object_add(
			o, "elephant_s",
			json_object_new_double((now - e->since_ns) / 1e9));
		/* Not known until two walks of the flow table: null. */
		mbps = e->rate < 0 ? NULL : json_object_new_double(e->rate);
		json_object_object_add(o, "mbps", mbps);
		json_object_object_add(o, "history", history_json(e, now));
		json_object_array_add(a, o);
	}
	return a;
}

static void add_u64(json_object *o, const char *key, uint64_t v)
{
	json_object_object_add(o, key, json_object_new_int64((int64_t)v));
}

/* The values DARDD_STATS's V entries name: stat_NAME() adds NAME. */
static void stat_host(struct dardd *d, json_object *o)
{
	json_object_object_add(o, "host",
			       json_object_new_string(d->t->node[d->me].name));
}

static void stat_mode(struct dardd *d, json_object *o)
{
	json_object_object_add(o, "mode",
			       json_object_new_string(controller_mode_name(d)));
}

static void stat_mode_why(struct dardd *d, json_object *o)
{
	json_object_object_add(o, "mode_why",
			       json_object_new_string(controller_mode_why(d)));
}

/* Wall-clock, so that it can be set beside other hosts' and a log's. */
static void stat_mode_since_ns(struct dardd *d, json_object *o)
{
	add_u64(o, "mode_since_ns", d->cp.mode_wall_ns);
}

static void stat_monitors(struct dardd *d, json_object *o)
{
	add_u64(o, "monitors", mon_count(d));
}

/* Their sum, summed here, then ctl_REASON for each reason (ctlsock.h). */
static void stat_sched_mode(struct dardd *d, json_object *o)
{
	json_object_object_add(o, "sched_mode",
			       json_object_new_string(dardd_mode_name(&d->o)));
}

static void stat_pvlb_interval_s(struct dardd *d, json_object *o)
{
	json_object_object_add(o, "pvlb_interval_s",
			       json_object_new_double(d->o.pvlb));
}

static void stat_ctl_refused(struct dardd *d, json_object *o)
{
	uint64_t sum = 0;
	char key[32];
	int i;

	for (i = 0; i < __DARD_CTL_REFUSALS; i++)
		sum += d->st.ctl_why[i];
	add_u64(o, "ctl_refused", sum);
	for (i = 0; i < __DARD_CTL_REFUSALS; i++) {
		snprintf(key, sizeof(key), "ctl_%s", dard_ctl_refusal_name(i));
		add_u64(o, key, d->st.ctl_why[i]);
	}
}

static void stat_controller(struct dardd *d, json_object *o)
{
	if (d->o.controller)
		add_addr(o, "controller", htonl(d->o.controller));
	else
		json_object_object_add(o, "controller",
				       json_object_new_string("none"));
}

static void stat_controller_algo(struct dardd *d, json_object *o)
{
	const char *algo = dard_cp_algo_name(d->cp.algo);

	json_object_object_add(
		o, "controller_algo",
		json_object_new_string(algo && d->cp.heard_ns ? algo : "none"));
}

static void stat_controller_epoch(struct dardd *d, json_object *o)
{
	add_u64(o, "controller_epoch", d->cp.epoch);
}

/* null: never heard from. */
static void stat_controller_heard_s(struct dardd *d, json_object *o)
{
	uint64_t ago = dardd_now_ns() - d->cp.heard_ns;

	json_object_object_add(
		o, "controller_heard_s",
		d->cp.heard_ns ? json_object_new_double(ago / 1e9) : NULL);
}

static void stat_share(struct dardd *d, json_object *o)
{
	json_object_object_add(o, "share", json_object_new_boolean(d->sh.on));
}

static void stat_share_peers(struct dardd *d, json_object *o)
{
	add_u64(o, "share_peers", d->sh.npeers);
}

/* `dardctl stats': DARDD_STATS (dardd_priv.h), in its order. */
#define STAT_C(name) add_u64(o, #name, d->st.name);
#define STAT_R(name, r, id) add_u64(o, #name, d->r.n[DARD_RX_##id]);
#define STAT_KIND(id, name) add_u64(o, #name, rx->n[DARD_RX_##id]);
#define STAT_L(name, r, LIST)                                                  \
	rx = &d->r;                                                            \
	add_u64(o, #name, dard_rx_refused(rx));                                \
	LIST(STAT_KIND)
#define STAT_V(name) stat_##name(d, o);

static json_object *stats_json(struct dardd *d)
{
	json_object *o = json_object_new_object();
	const struct dard_rx *rx;

	DARDD_STATS(STAT_C, STAT_R, STAT_L, STAT_V)
	return o;
}

#undef STAT_C
#undef STAT_R
#undef STAT_KIND
#undef STAT_L
#undef STAT_V

/* What moves our elephants, and the intervals it runs by. */
static json_object *sched_json(struct dardd *d)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "sched_mode",
			       json_object_new_string(dardd_mode_name(&d->o)));
	json_object_object_add(o, "pvlb_interval_s",
			       json_object_new_double(d->o.pvlb));
	json_object_object_add(o, "schedule_interval_s",
			       json_object_new_double(d->o.schedule_ns / 1e9));
	json_object_object_add(o, "query_interval_s",
			       json_object_new_double(d->o.query_ns / 1e9));
	json_object_object_add(o, "mode_changes",
			       json_object_new_int64(d->st.mode_changes));
	return o;
}

/*
 * "MODE" or "pvlb SECONDS" after DARDD_CMD_SCHED: the mode changed, 0;
 * -EINVAL for anything else, nothing changed.
 */
static int sched_set(struct dardd *d, const char *args, uint64_t now)
{
	char name[DARD_CTL_LINE_MAX];
	const char *sp = strchr(args, ' ');
	const char *was = dardd_mode_name(&d->o);
	double pvlb = 0;
	struct mon *mon;
	size_t n = sp ? (size_t)(sp - args) : strlen(args);

	memcpy(name, args, n);
	name[n] = 0;
	if (sp && (strcmp(name, "pvlb") ||
		   dard_parse_double(sp + 1, 0.001, 86400, &pvlb)))
		return -EINVAL;
	if (dardd_opts_set_mode(&d->o, name, pvlb))
		return -EINVAL;
	d->st.mode_changes++;
	schedule_mode_changed(d);
	/* The new mode's rounds from now, not the old one's. */
	for (mon = d->mons; mon; mon = mon->next)
		mon->next_round_ns = mon_next_round(d, now);
	log_info("scheduling mode %s (was %s), set through the control socket",
		 dardd_mode_name(&d->o), was);
	return 0;
}

/* The commands of dardd.h that only read, and what answers each. */
static const struct {
	const char *cmd;
	json_object *(*answer)(struct dardd *d);
} cmds[] = {
	{DARDD_CMD_MONITORS, monitors_json},
	{DARDD_CMD_FLOWS, flows_json},
	{DARDD_CMD_STATS, stats_json},
	{DARDD_CMD_SCHED, sched_json},
};

json_object *ctl_answer(struct dardd *d, const char *cmd)
{
	size_t i;

	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(cmd, cmds[i].cmd))
			return cmds[i].answer(d);
	return NULL;
}

json_object *ctl_command(struct dardd *d, const char *line, int *why)
{
	size_t n = strlen(DARDD_CMD_SCHED);

	*why = 0;
	if (!strncmp(line, DARDD_CMD_SCHED " ", n + 1)) {
		if (sched_set(d, line + n + 1, dardd_now_ns())) {
			*why = DARD_CTL_INVALID;
			return NULL;
		}
		return sched_json(d);
	}
	if (!strchr(line, ' ')) {
		json_object *doc = ctl_answer(d, line);

		if (doc)
			return doc;
	}
	*why = DARD_CTL_UNKNOWN;
	return NULL;
}

/*
 * A refusal, counted by reason and logged at most once a second per
 * reason: anyone in the namespace can cause one per connection.
 */
static void refuse(struct dardd *d, int fd, int why, const char *what)
{
	static const char *const answers[__DARD_CTL_REFUSALS] = {
		[DARD_CTL_NOT_ROOT] = "root only",
		[DARD_CTL_MALFORMED] = "malformed command: expected one word "
				       "and a newline",
		[DARD_CTL_OVERSIZED] = "command too long",
		[DARD_CTL_UNKNOWN] = "unknown command: expected monitors, "
				     "flows, stats or sched",
		[DARD_CTL_INVALID] = "invalid arguments: expected sched fast, "
				     "paper, off, pvlb or pvlb SECONDS",
	};
	char who[DARD_PEER_STRLEN] = "an unknown peer", text[128];
	struct ucred cred;
	socklen_t clen = sizeof(cred);

	d->st.ctl_why[why]++;
	if (!getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen))
		dard_peer_describe(cred.pid, cred.uid, who, sizeof(who));
	dard_log_ratelimited(&d->ctl_rl[why], dardd_now_ns(), DARD_LOG_WARN,
			     "control socket: refused %s: %s%s%s%s", who,
			     answers[why], what ? " (`" : "", what ? what : "",
			     what ? "')" : "");
	snprintf(text, sizeof(text), "{\"error\":\"%s\"}\n", answers[why]);
	if (send(fd, text, strlen(text), MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		log_debug("control client went away: %s", strerror(errno));
}

/* Root only: the directory says so, and so do we, should its mode not. */
static int is_root(int fd)
{
	struct ucred cred;
	socklen_t clen = sizeof(cred);

	return !getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) &&
	       cred.uid == 0;
}

/*
 * One line, however it arrives, and not a byte past DARD_CTL_LINE_MAX; a
 * stalled client costs a second at most. Returns the bytes read.
 */
static size_t read_line(int fd, char *buf)
{
	struct timeval tv = {.tv_sec = 1};
	ssize_t n = 0;
	size_t len;

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	for (len = 0; len < DARD_CTL_LINE_MAX && !memchr(buf, '\n', len);
	     len += n) {
		n = read(fd, buf + len, DARD_CTL_LINE_MAX - len);
		if (n <= 0)
			break;
	}
	return len;
}

/*
 * What a refused client sent and we did not read, dropped: closing on
 * unread bytes would reset the connection before it reads why.
 */
static void drain(int fd)
{
	char buf[512];
	int i;

	for (i = 0; i < 8; i++)
		if (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) <= 0)
			break;
}

void ctl_accept(struct dardd *d)
{
	char buf[DARD_CTL_LINE_MAX], cmd[DARD_CTL_LINE_MAX], seen[48];
	json_object *doc;
	const char *text;
	size_t len;
	int fd, why;

	fd = accept4(d->ctl, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	if (!is_root(fd)) {
		refuse(d, fd, DARD_CTL_NOT_ROOT, NULL);
		goto out;
	}
	len = read_line(fd, buf);
	why = dard_ctl_line(buf, len, cmd);
	if (why) {
		dard_ctl_printable(buf, len, seen, sizeof(seen));
		refuse(d, fd, why, seen);
		goto out;
	}
	doc = ctl_command(d, cmd, &why);
	if (!doc) {
		refuse(d, fd, why, cmd);
		goto out;
	}
	text = json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN);
	if (send(fd, text, strlen(text), MSG_NOSIGNAL) < 0 ||
	    send(fd, "\n", 1, MSG_NOSIGNAL) < 0)
		log_debug("control client went away: %s", strerror(errno));
	json_object_put(doc);
out:
	drain(fd);
	close(fd);
}

int ctl_init(struct dardd *d)
{
	char err[DARD_ERR_MAX];
	int fd = dard_ctl_listen(&d->ctl_lock, err);

	d->ctl = -1;
	if (fd < 0) {
		log_err("%s", err);
		return fd;
	}
	d->ctl = fd;
	return 0;
}

void ctl_fini(struct dardd *d)
{
	dard_ctl_close(d->ctl, d->ctl_lock);
	d->ctl = -1;
	d->ctl_lock = -1;
}
