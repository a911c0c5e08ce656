// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd: the DARD host daemon (paper, sections 2.4, 2.5 and 3.1). One
 * event loop over the datapath's ring buffer, a timer, the query socket
 * and the control socket:
 *
 *   - the elephant flow detector: elephants come from the datapath;
 *   - on-demand monitors, one per destination ToR with our elephants;
 *   - path-state assembly: every query interval, one query to each switch
 *     some monitor needs, for the exit ports it needs (protocol.md);
 *   - the flow scheduler: each monitor runs a selfish round every
 *     schedule interval plus a random time up to one more, and moves one
 *     elephant through the datapath when it pays by more than delta.
 *
 * Forwarding never depends on the daemon: the datapath's maps are pinned,
 * and a restarted daemon picks its elephants back up from them.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <json-c/json.h>

#include "cfgfile.h"
#include "dardd.h"
#include "dp.h"
#include "monitor.h"
#include "proto.h"
#include "rng.h"
#include "log.h"

#ifndef DARD_VERSION
#define DARD_VERSION "unknown"
#endif

enum { HIST_MAX = 8 };

struct elephant {
	struct dard_flow_key key;
	uint32_t dst;		     /* destination host */
	struct mon *mon;	     /* its ToR pair's monitor */
	struct dard_alias_pair pair; /* where the datapath sends it */
	int path;		     /* index among mon's paths, or -1 */
	uint64_t since_ns;	     /* when we heard of it */
	unsigned moves;		     /* made by this daemon */
	struct {
		uint64_t ns;
		int path;
	} hist[HIST_MAX]; /* paths taken, oldest dropped */
	unsigned nhist;
	int seen;			/* in the last walk of the table */
	struct elephant *next, **pprev; /* all, unlinked in O(1) */
	struct elephant *hnext;		/* its hash bucket */
};

/* Elephants by flow key: every event and every flow-table entry looks. */
enum { EL_BUCKETS = 1024 };

/* A switch's management address, for replies (sorted by address). */
struct sw_addr {
	uint32_t mgmt, node;
};

struct mon {
	struct dard_monitor *m;
	unsigned nflows;
	uint64_t next_round_ns;
	uint64_t rounds, moves;
	struct mon *next;
};

struct sw {
	uint32_t pending;	/* seq of the unanswered query, or 0 */
	uint64_t unanswered_ns; /* first query since the last reply */
	uint16_t nports;	/* ports of this tick's query */
	uint16_t *ports;
	int silent; /* missed its last query */
};

struct dardd {
	struct dard_config cfg;
	const struct dard_topo *t;
	struct dard_pathctx *pc;
	uint32_t me, my_tor;
	struct dard_dp *dp;
	const struct dard_dp_ops *ops;
	struct dard_lstate *ls;
	uint64_t *ls_when, *ls_stamp, tick;
	struct sw *sw;
	struct sw_addr *swaddr;
	uint32_t nswaddr;
	struct mon *mons;
	struct elephant *els, *elh[EL_BUCKETS];
	int epfd, tfd, udp, ctl;
	uint32_t seq;
	uint64_t rng;
	uint64_t next_query_ns, next_sweep_ns;
	struct dardd_opts o;
	struct dardd_stats st;
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* xorshift64*: the random part of the scheduling interval. */
static uint64_t rnd(struct dardd *d)
{
	return dard_xorshift64s(&d->rng);
}

static uint64_t next_round(struct dardd *d, uint64_t now)
{
	return now + d->o.schedule_ns + rnd(d) % (d->o.schedule_ns + 1);
}

/* A flow's protocol as logs and `dardctl flow show' name it. */
static const char *proto_str(uint8_t proto)
{
	return proto == 6 ? "tcp" : proto == 17 ? "udp" : "ip";
}

static const char *flow_str(const struct dard_flow_key *k, char *buf,
			    size_t len)
{
	char s[INET_ADDRSTRLEN], dst[INET_ADDRSTRLEN];

	inet_ntop(AF_INET, &k->saddr, s, sizeof(s));
	inet_ntop(AF_INET, &k->daddr, dst, sizeof(dst));
	snprintf(buf, len, "%s %s:%u -> %s:%u", proto_str(k->proto), s,
		 ntohs(k->sport), dst, ntohs(k->dport));
	return buf;
}

/* The index of pair among mon's paths, or -1. */
static int path_of(struct dardd *d, struct mon *mon,
		   const struct dard_alias_pair *pair)
{
	char err[DARD_ERR_MAX];
	struct dard_path p;

	if (dard_path_decode(d->pc, ntohl(pair->saddr), ntohl(pair->daddr), &p,
			     err))
		return -1;
	return dard_monitor_path_index(mon->m, &p);
}

static struct mon *mon_get(struct dardd *d, uint32_t dst_tor, uint64_t now)
{
	char err[DARD_ERR_MAX];
	struct mon *mon;

	for (mon = d->mons; mon; mon = mon->next)
		if (mon->m->dst_tor == dst_tor)
			return mon;
	mon = calloc(1, sizeof(*mon));
	if (!mon)
		return NULL;
	mon->m = dard_monitor_new(d->pc, d->t, d->me, dst_tor, err);
	if (!mon->m) {
		log_warn("no monitor towards %s: %s", d->t->node[dst_tor].name,
			 err);
		free(mon);
		return NULL;
	}
	/* Let a query round come back before the first decision. */
	mon->next_round_ns = next_round(d, now);
	d->next_query_ns = now;
	mon->next = d->mons;
	d->mons = mon;
	d->st.monitors_created++;
	log_info("monitor %s -> %s: %u paths, %u switches to query",
		 d->t->node[d->my_tor].name, d->t->node[dst_tor].name,
		 mon->m->npaths, mon->m->nqueries);
	return mon;
}

static void mon_put(struct dardd *d, struct mon *mon)
{
	struct mon **pp;

	if (--mon->nflows)
		return;
	for (pp = &d->mons; *pp; pp = &(*pp)->next)
		if (*pp == mon) {
			*pp = mon->next;
			break;
		}
	log_info("monitor %s -> %s released: its last elephant ended",
		 d->t->node[d->my_tor].name, d->t->node[mon->m->dst_tor].name);
	dard_monitor_free(mon->m);
	free(mon);
}

static void hist_add(struct elephant *e, uint64_t now, int path)
{
	if (e->nhist == HIST_MAX) {
		memmove(e->hist, e->hist + 1,
			sizeof(e->hist[0]) * (HIST_MAX - 1));
		e->nhist--;
	}
	e->hist[e->nhist].ns = now;
	e->hist[e->nhist].path = path;
	e->nhist++;
}

static struct elephant **el_bucket(struct dardd *d,
				   const struct dard_flow_key *k)
{
	uint64_t a, b;

	_Static_assert(sizeof(*k) == 2 * sizeof(a), "a key is two words");
	memcpy(&a, k, sizeof(a));
	memcpy(&b, (const char *)k + sizeof(a), sizeof(b));
	return &d->elh[dard_mix64(a ^ dard_mix64(b)) % EL_BUCKETS];
}

static struct elephant *el_find(struct dardd *d, const struct dard_flow_key *k)
{
	struct elephant *e;

	for (e = *el_bucket(d, k); e; e = e->hnext)
		if (!memcmp(&e->key, k, sizeof(*k)))
			return e;
	return NULL;
}

static void el_add(struct dardd *d, const struct dard_flow_key *k,
		   const struct dard_alias_pair *pair, uint64_t now)
{
	uint32_t dst = dard_topo_find_id(d->t, ntohl(k->daddr));
	struct elephant *e;
	char b[96];

	if (el_find(d, k))
		return;
	if (dst == DARD_NONE || dard_topo_tor(d->t, dst) == d->my_tor) {
		log_debug("elephant %s: %s", flow_str(k, b, sizeof(b)),
			  dst == DARD_NONE ? "not to a known ID"
					   : "under our own ToR, one path");
		return;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		return;
	e->mon = mon_get(d, dard_topo_tor(d->t, dst), now);
	if (!e->mon) {
		free(e);
		return;
	}
	e->mon->nflows++;
	e->key = *k;
	e->dst = dst;
	e->pair = *pair;
	e->path = path_of(d, e->mon, pair);
	e->since_ns = now;
	e->seen = 1;
	hist_add(e, now, e->path);
	e->next = d->els;
	if (e->next)
		e->next->pprev = &e->next;
	e->pprev = &d->els;
	d->els = e;
	e->hnext = *el_bucket(d, k);
	*el_bucket(d, k) = e;
	d->st.elephants++;
	log_info("elephant %s on path %d of %s", flow_str(k, b, sizeof(b)),
		 e->path + 1, d->t->node[e->mon->m->dst_tor].name);
}

static void el_del(struct dardd *d, struct elephant *e, const char *why)
{
	struct elephant **pp;
	char b[96];

	*e->pprev = e->next;
	if (e->next)
		e->next->pprev = e->pprev;
	for (pp = el_bucket(d, &e->key); *pp != e; pp = &(*pp)->hnext)
		;
	*pp = e->hnext;
	log_info("elephant %s ended (%s)", flow_str(&e->key, b, sizeof(b)),
		 why);
	d->st.ended++;
	mon_put(d, e->mon);
	free(e);
}

static int on_event(const struct dard_event *ev, void *arg)
{
	struct dardd *d = arg;
	struct elephant *e;

	d->st.events++;
	if (ev->type == DARD_EVENT_ELEPHANT) {
		el_add(d, &ev->key, &ev->path, now_ns());
	} else if (ev->type == DARD_EVENT_END) {
		e = el_find(d, &ev->key);
		if (e)
			el_del(d, e, "FIN or RST");
	}
	return 0;
}

static int on_idle(const struct dard_event *ev, void *arg)
{
	struct dardd *d = arg;
	struct elephant *e = el_find(d, &ev->key);

	if (e)
		el_del(d, e, "idle");
	return 0;
}

/* One walk of the flow table: what we track against what is there. */
struct walk {
	struct dardd *d;
	uint64_t now;
};

static int walk_cb(const struct dard_flow_key *k, const struct dard_flow *f,
		   void *arg)
{
	struct walk *w = arg;
	struct elephant *e = el_find(w->d, k);

	if (e) {
		e->seen = 1;
		/* Moved by someone else (an operator, a controller)? */
		if (memcmp(&e->pair, &f->path, sizeof(e->pair))) {
			e->pair = f->path;
			e->path = path_of(w->d, e->mon, &f->path);
			hist_add(e, w->now, e->path);
		}
		return 0;
	}
	/* Reported before a restart, or while we were away. */
	if ((f->flags & DARD_FLOW_F_ELEPHANT) &&
	    !(f->flags & DARD_FLOW_F_ENDED))
		el_add(w->d, k, &f->path, w->now);
	return 0;
}

static void sweep(struct dardd *d, uint64_t now)
{
	struct walk w = {d, now};
	struct elephant *e, *next;
	int n;

	for (e = d->els; e; e = e->next)
		e->seen = 0;
	d->ops->flows(d->dp, walk_cb, &w);
	for (e = d->els; e; e = next) {
		next = e->next;
		if (!e->seen)
			el_del(d, e, "gone from the flow table");
	}
	n = d->ops->sweep(d->dp, d->o.idle_ns, on_idle, d);
	if (n > 0)
		log_debug("swept %d idle flows", n);
}

/* Sends every switch that a monitor needs one query for its ports. */
static void query(struct dardd *d, uint64_t now)
{
	static uint8_t buf[DARD_MSG_MAX];
	struct mon *mon;
	uint32_t n;
	unsigned i, k;

	d->tick++;
	for (mon = d->mons; mon; mon = mon->next)
		for (i = 0; i < mon->m->nqueries; i++) {
			const struct dard_mon_query *q = &mon->m->query[i];
			struct sw *s = &d->sw[q->sw];

			for (k = 0; k < q->nports; k++) {
				uint32_t dl = dard_port_dlink(d->t, q->sw,
							      q->ports[k]);

				if (d->ls_stamp[dl] == d->tick)
					continue;
				d->ls_stamp[dl] = d->tick;
				/* One datagram carries 1024 ports. */
				if (s->nports < DARD_MSG_PORTS_MAX)
					s->ports[s->nports++] = q->ports[k];
			}
		}
	for (n = 0; n < d->t->nnodes; n++) {
		struct sw *s = &d->sw[n];
		struct sockaddr_in sa = {.sin_family = AF_INET,
					 .sin_port = htons(d->o.switch_port)};
		size_t len;

		if (!s->nports)
			continue;
		/* Unanswered: counted; silent once its states expire. */
		if (s->pending)
			d->st.timeouts++;
		if (s->pending && !s->silent &&
		    now - s->unanswered_ns > d->o.max_age_ns) {
			log_warn(
				"%s has not answered for %.3g s: its links count as unknown until it does",
				d->t->node[n].name, d->o.max_age_ns / 1e9);
			s->silent = 1;
		}
		if (!++d->seq)
			d->seq = 1;
		len = dard_proto_query(buf, sizeof(buf), d->seq, s->ports,
				       s->nports);
		s->nports = 0;
		sa.sin_addr.s_addr = htonl(d->t->node[n].mgmt);
		if (!len || !sa.sin_addr.s_addr)
			continue;
		if (sendto(d->udp, buf, len, 0, (struct sockaddr *)&sa,
			   sizeof(sa)) < 0) {
			d->st.send_errors++;
			continue;
		}
		d->st.queries++;
		d->st.query_bytes += len;
		if (!s->unanswered_ns)
			s->unanswered_ns = now;
		s->pending = d->seq;
	}
}

static int by_mgmt(const void *a, const void *b)
{
	uint32_t x = ((const struct sw_addr *)a)->mgmt;
	uint32_t y = ((const struct sw_addr *)b)->mgmt;

	return (x > y) - (x < y);
}

/* The switch a reply came from, or DARD_NONE. */
static uint32_t switch_at(struct dardd *d, uint32_t addr)
{
	struct sw_addr key = {.mgmt = addr}, *s;

	s = bsearch(&key, d->swaddr, d->nswaddr, sizeof(key), by_mgmt);
	return s ? s->node : DARD_NONE;
}

/* The index switch_at searches: every switch with an address. */
static int index_switches(struct dardd *d)
{
	uint32_t n;

	d->swaddr = calloc(d->t->nnodes, sizeof(*d->swaddr));
	if (!d->swaddr)
		return -ENOMEM;
	for (n = 0; n < d->t->nnodes; n++)
		if (!d->t->node[n].is_host && d->t->node[n].mgmt)
			d->swaddr[d->nswaddr++] =
				(struct sw_addr){d->t->node[n].mgmt, n};
	qsort(d->swaddr, d->nswaddr, sizeof(*d->swaddr), by_mgmt);
	return 0;
}

static void receive(struct dardd *d)
{
	static struct dard_msg msg;
	static uint8_t buf[DARD_MSG_MAX];
	char err[DARD_ERR_MAX], from[INET_ADDRSTRLEN];
	struct sockaddr_in sa;
	socklen_t salen = sizeof(sa);
	uint32_t n;
	ssize_t len;

	while ((len = recvfrom(d->udp, buf, sizeof(buf), MSG_DONTWAIT,
			       (struct sockaddr *)&sa, &salen)) >= 0) {
		n = switch_at(d, ntohl(sa.sin_addr.s_addr));
		if (dard_proto_decode(buf, len, &msg, err)) {
			d->st.rejected++;
			inet_ntop(AF_INET, &sa.sin_addr, from, sizeof(from));
			log_warn("rejected a reply from %s: %s", from, err);
			continue;
		}
		if (n == DARD_NONE || msg.type != DARD_MSG_REPLY) {
			d->st.rejected++;
			inet_ntop(AF_INET, &sa.sin_addr, from, sizeof(from));
			log_warn("rejected a message from %s: %s", from,
				 n == DARD_NONE ? "not a switch of ours"
						: "not a reply");
			continue;
		}
		/* An answer to a query we have given up on: harmless. */
		if (msg.seq != d->sw[n].pending) {
			d->st.late++;
			log_debug("late reply from %s", d->t->node[n].name);
			continue;
		}
		d->st.replies++;
		d->st.reply_bytes += len;
		d->sw[n].pending = 0;
		d->sw[n].unanswered_ns = 0;
		if (d->sw[n].silent)
			log_info("%s answers again", d->t->node[n].name);
		d->sw[n].silent = 0;
		dard_reply_apply(d->t, n, &msg, d->ls, d->ls_when, now_ns());
	}
}

/* FV: this host's elephants on each of mon's paths. */
static void count_fv(struct dardd *d, struct mon *mon)
{
	struct elephant *e;

	memset(mon->m->fv, 0, mon->m->npaths * sizeof(*mon->m->fv));
	for (e = d->els; e; e = e->next)
		if (e->mon == mon && e->path >= 0)
			mon->m->fv[e->path]++;
}

static void schedule(struct dardd *d, struct mon *mon, uint64_t now)
{
	struct dard_move mv;
	struct elephant *e, *pick = NULL;
	const struct dard_mon_path *want;
	struct dard_alias_pair pair;
	struct dard_path p;
	double delta = d->o.delta_mbps;
	unsigned i;
	char b[96];
	int ret;

	mon->next_round_ns = next_round(d, now);
	mon->rounds++;
	d->st.rounds++;
	dard_monitor_pv(mon->m, d->ls, d->ls_when, now, d->o.max_age_ns,
			mon->m->pv);
	count_fv(d, mon);
	/* delta as a share of the paths' bandwidth: the slowest known. */
	if (d->o.delta_is_frac) {
		double bw = HUGE_VAL;

		for (i = 0; i < mon->m->npaths; i++)
			if (mon->m->pv[i].known && mon->m->pv[i].mbps < bw)
				bw = mon->m->pv[i].mbps;
		delta = isinf(bw) ? 0 : d->o.delta_frac * bw;
	}
	if (!dard_sched_round_links(d->ls, mon->m->links, mon->m->pv,
				    mon->m->fv, mon->m->npaths, delta, &mv))
		return;
	/* The elephant on the source path that has moved least. */
	for (e = d->els; e; e = e->next)
		if (e->mon == mon && e->path == (int)mv.from &&
		    (!pick || e->moves < pick->moves))
			pick = e;
	if (!pick)
		return;
	/* The monitor's path, named for this flow's own two hosts. */
	want = &mon->m->path[mv.to];
	if (dard_path_make(d->pc, d->me, pick->dst, want->sw, want->nsw, &p))
		return;
	pair.saddr = htonl(p.saddr);
	pair.daddr = htonl(p.daddr);
	ret = d->ops->move(d->dp, &pick->key, &pair);
	if (ret) {
		log_warn("moving %s failed: %s",
			 flow_str(&pick->key, b, sizeof(b)), strerror(-ret));
		return;
	}
	/* Our own move, known before the switches count it: the link
	 * states as they will be, so the next round does not act on stale
	 * ones. */
	dard_lstate_move(d->ls, &mon->m->links[mv.from], &mon->m->links[mv.to]);
	pick->pair = pair;
	pick->path = mv.to;
	pick->moves++;
	hist_add(pick, now, mv.to);
	mon->moves++;
	d->st.moves++;
	log_info(
		"moved %s from path %u (BoNF %.4g Mbit/s) to path %u (%.4g with it)",
		flow_str(&pick->key, b, sizeof(b)), mv.from + 1, mv.from_bonf,
		mv.to + 1, mv.estimate);
}

static void on_tick(struct dardd *d)
{
	uint64_t now = now_ns(), expirations;
	struct mon *mon;

	if (read(d->tfd, &expirations, sizeof(expirations)) < 0 &&
	    errno != EAGAIN)
		log_warn("timerfd: %s", strerror(errno));
	if (now >= d->next_query_ns) {
		/* On the interval's grid, unless a whole one was missed. */
		d->next_query_ns += d->o.query_ns;
		if (d->next_query_ns <= now)
			d->next_query_ns = now + d->o.query_ns;
		query(d, now);
	}
	for (mon = d->mons; mon; mon = mon->next)
		if (now >= mon->next_round_ns)
			schedule(d, mon, now);
	if (now >= d->next_sweep_ns) {
		d->next_sweep_ns = now + d->o.sweep_ns;
		sweep(d, now);
	}
}

/* The control socket's answers: JSON documents, see dardctl. */
static json_object *pstate_json(const struct dard_pstate *ps)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "known", json_object_new_boolean(ps->known));
	json_object_object_add(o, "bonf",
			       isinf(ps->bonf)
				       ? json_object_new_string("inf")
				       : json_object_new_double(ps->bonf));
	json_object_object_add(o, "mbps", json_object_new_double(ps->mbps));
	json_object_object_add(o, "elephants",
			       json_object_new_int64(ps->flows));
	return o;
}

static json_object *monitors_json(struct dardd *d)
{
	json_object *a = json_object_new_array();
	uint64_t now = now_ns();
	struct mon *mon;
	unsigned i, k;

	for (mon = d->mons; mon; mon = mon->next) {
		json_object *o = json_object_new_object(), *paths;

		/* The vectors as they are now, not at the last round. */
		dard_monitor_pv(mon->m, d->ls, d->ls_when, now, d->o.max_age_ns,
				mon->m->pv);
		count_fv(d, mon);
		json_object_object_add(
			o, "src_tor",
			json_object_new_string(
				d->t->node[mon->m->src_tor].name));
		json_object_object_add(
			o, "dst_tor",
			json_object_new_string(
				d->t->node[mon->m->dst_tor].name));
		json_object_object_add(o, "elephants",
				       json_object_new_int64(mon->nflows));
		json_object_object_add(o, "rounds",
				       json_object_new_int64(mon->rounds));
		json_object_object_add(o, "moves",
				       json_object_new_int64(mon->moves));
		json_object_object_add(o, "switches",
				       json_object_new_int64(mon->m->nqueries));
		paths = json_object_new_array();
		for (i = 0; i < mon->m->npaths; i++) {
			json_object *p = pstate_json(&mon->m->pv[i]), *sw;

			json_object_object_add(p, "index",
					       json_object_new_int64(i + 1));
			json_object_object_add(
				p, "ours",
				json_object_new_int64(mon->m->fv[i]));
			sw = json_object_new_array();
			for (k = 1; k + 1 < mon->m->path[i].nsw; k++)
				json_object_array_add(
					sw, json_object_new_string(
						    d->t->node[mon->m->path[i]
								       .sw[k]]
							    .name));
			json_object_object_add(p, "switches", sw);
			json_object_array_add(paths, p);
		}
		json_object_object_add(o, "paths", paths);
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *flows_json(struct dardd *d)
{
	json_object *a = json_object_new_array();
	uint64_t now = now_ns();
	struct elephant *e;
	char s[INET_ADDRSTRLEN];
	unsigned i;

	for (e = d->els; e; e = e->next) {
		json_object *o = json_object_new_object(), *h;

		json_object_object_add(
			o, "proto",
			json_object_new_string(proto_str(e->key.proto)));
		inet_ntop(AF_INET, &e->key.saddr, s, sizeof(s));
		json_object_object_add(o, "src", json_object_new_string(s));
		json_object_object_add(
			o, "sport", json_object_new_int(ntohs(e->key.sport)));
		inet_ntop(AF_INET, &e->key.daddr, s, sizeof(s));
		json_object_object_add(o, "dst", json_object_new_string(s));
		json_object_object_add(
			o, "dport", json_object_new_int(ntohs(e->key.dport)));
		json_object_object_add(
			o, "dst_host",
			json_object_new_string(d->t->node[e->dst].name));
		json_object_object_add(o, "path",
				       json_object_new_int(e->path + 1));
		inet_ntop(AF_INET, &e->pair.saddr, s, sizeof(s));
		json_object_object_add(o, "saddr", json_object_new_string(s));
		inet_ntop(AF_INET, &e->pair.daddr, s, sizeof(s));
		json_object_object_add(o, "daddr", json_object_new_string(s));
		json_object_object_add(o, "moves",
				       json_object_new_int64(e->moves));
		json_object_object_add(
			o, "elephant_s",
			json_object_new_double((now - e->since_ns) / 1e9));
		h = json_object_new_array();
		for (i = 0; i < e->nhist; i++) {
			json_object *x = json_object_new_object();

			json_object_object_add(
				x, "ago_s",
				json_object_new_double((now - e->hist[i].ns) /
						       1e9));
			json_object_object_add(
				x, "path",
				json_object_new_int(e->hist[i].path + 1));
			json_object_array_add(h, x);
		}
		json_object_object_add(o, "history", h);
		json_object_array_add(a, o);
	}
	return a;
}

static json_object *stats_json(struct dardd *d)
{
	json_object *o = json_object_new_object();
	const struct dardd_stats *s = &d->st;
	struct mon *mon;
	unsigned n = 0;

	for (mon = d->mons; mon; mon = mon->next)
		n++;
	json_object_object_add(o, "host",
			       json_object_new_string(d->t->node[d->me].name));
	json_object_object_add(o, "monitors", json_object_new_int64(n));
#define STAT(f) json_object_object_add(o, #f, json_object_new_int64(s->f))
	STAT(monitors_created);
	STAT(elephants);
	STAT(ended);
	STAT(events);
	STAT(queries);
	STAT(query_bytes);
	STAT(replies);
	STAT(reply_bytes);
	STAT(timeouts);
	STAT(late);
	STAT(rejected);
	STAT(send_errors);
	STAT(rounds);
	STAT(moves);
	STAT(ctl_refused);
#undef STAT
	return o;
}

static void on_ctl(struct dardd *d)
{
	struct ucred cred;
	socklen_t clen = sizeof(cred);
	char cmd[64] = "";
	json_object *doc = NULL;
	const char *text;
	size_t len;
	ssize_t n = 0;
	int fd;

	fd = accept4(d->ctl, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return;
	/* Root only: the abstract socket has no file mode to say so. */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) ||
	    cred.uid != 0) {
		static const char no[] = "{\"error\":\"root only\"}\n";

		d->st.ctl_refused++;
		if (send(fd, no, sizeof(no) - 1, MSG_NOSIGNAL | MSG_DONTWAIT) <
		    0)
			log_debug("control client went away");
		close(fd);
		return;
	}
	/* A client that stalls costs the loop a second at most. */
	struct timeval tv = {.tv_sec = 1};
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	/* One line, however it arrives. */
	for (len = 0; len < sizeof(cmd) - 1 && !memchr(cmd, '\n', len);
	     len += n) {
		n = read(fd, cmd + len, sizeof(cmd) - 1 - len);
		if (n <= 0)
			break;
	}
	cmd[len] = 0;
	cmd[strcspn(cmd, "\n")] = 0;
	if (!strcmp(cmd, "monitors"))
		doc = monitors_json(d);
	else if (!strcmp(cmd, "flows"))
		doc = flows_json(d);
	else if (!strcmp(cmd, "stats"))
		doc = stats_json(d);
	if (!doc) {
		d->st.ctl_refused++;
		text = "{\"error\":\"unknown command: expected monitors, flows or stats\"}";
	} else {
		text = json_object_to_json_string_ext(doc,
						      JSON_C_TO_STRING_PLAIN);
	}
	if (send(fd, text, strlen(text), MSG_NOSIGNAL) < 0 ||
	    send(fd, "\n", 1, MSG_NOSIGNAL) < 0)
		log_debug("control client went away: %s", strerror(errno));
	json_object_put(doc);
	close(fd);
}

static int ctl_socket(void)
{
	struct sockaddr_un sun;
	socklen_t len = dardd_ctl_addr(&sun);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sun, len) || listen(fd, 8)) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	return fd;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dardd [OPTIONS] HOST\n"
		"\n"
		"The DARD daemon of host HOST (paper, sections 2.4 and 2.5). It hears\n"
		"of elephant flows from the host's BPF datapath, keeps a monitor for\n"
		"every destination ToR its elephants go to, assembles each monitor's\n"
		"path states by querying the switches' dard-switchd over the\n"
		"management network, and moves one elephant at a time to a path with\n"
		"more bandwidth per elephant (BoNF) when that gains more than delta.\n"
		"It runs in the host's network namespace, in the foreground, and logs\n"
		"to stderr. Forwarding does not depend on it: stopping it leaves\n"
		"every flow where it is, and a new dardd picks the elephants up from\n"
		"the datapath's pinned maps.\n"
		"\n"
		"Options (times in seconds, fractions allowed):\n"
		"  -c, --config FILE          the host configuration file (default\n"
		"                             $DARD_CONFIG, else " DARD_CONFIG_DEFAULT
		")\n"
		"  -i, --interface IF         the fabric interface (default eth0)\n"
		"      --pin DIR              where the datapath's maps are pinned\n"
		"                             (default $DARD_PIN_ROOT, else " DARD_PIN_ROOT
		")\n"
		"  -Q, --query-interval S     query the switches every S (default 1)\n"
		"  -S, --schedule-interval S  a monitor's round every S plus a random\n"
		"                             time up to S (default 5)\n"
		"  -d, --delta D              move only when the gain in BoNF exceeds D\n"
		"                             Mbit/s, or D%% of the paths' bandwidth\n"
		"                             when D ends in %% (default 10)\n"
		"  -I, --idle S               forget flows idle this long (default 10)\n"
		"  -e, --elephant-age S       when the datapath is not attached yet,\n"
		"                             attach it with this age (default 10)\n"
		"  -p, --switch-port N        dard-switchd's UDP port (default %d)\n"
		"  -v, --verbose              log every query and reply decision\n"
		"  -q, --quiet                log errors only\n"
		"  -V, --version              print the version\n"
		"  -h, --help                 print this help\n"
		"\n"
		"`dardctl monitor show', `dardctl flow show' (without dev) and\n"
		"`dardctl stats' ask a running dardd in the same network namespace.\n"
		"Exit status: 0 stopped by a signal, 1 error, 2 bad usage.\n",
		DARD_PROTO_PORT);
}

static int seconds(const char *opt, const char *arg, uint64_t *ns)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v > 0) || v > 86400) {
		fprintf(stderr,
			"dardd: %s needs seconds in (0, 86400], not `%s'\n",
			opt, arg);
		return -1;
	}
	*ns = v * 1e9;
	return 0;
}

static int open_datapath(struct dardd *d, const char *ifname,
			 const char *pin_root, uint64_t age_ns)
{
	struct dard_dp_opts o;
	char err[DARD_ERR_MAX];
	int ret;

	dard_dp_opts_init(&o, ifname, pin_root);
	o.elephant_age_ns = age_ns;

	ret = d->ops->open(&d->dp, ifname, pin_root);
	if (!ret)
		return 0;
	if (ret != -ENOENT) {
		log_err("Unable to open the datapath on %s: %s", ifname,
			strerror(-ret));
		return -1;
	}
	if (dard_dp_attach_host(d->ops, &d->dp, &o, d->t, d->cfg.plan, d->me,
				err)) {
		log_err("%s", err);
		return -1;
	}
	log_info("attached the datapath to %s", ifname);
	return 0;
}

static int add_fd(struct dardd *d, int fd)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};

	return epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ev);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"interface", required_argument, NULL, 'i'},
		{"pin", required_argument, NULL, 'P'},
		{"query-interval", required_argument, NULL, 'Q'},
		{"schedule-interval", required_argument, NULL, 'S'},
		{"delta", required_argument, NULL, 'd'},
		{"idle", required_argument, NULL, 'I'},
		{"elephant-age", required_argument, NULL, 'e'},
		{"switch-port", required_argument, NULL, 'p'},
		{"verbose", no_argument, NULL, 'v'},
		{"quiet", no_argument, NULL, 'q'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	static struct dardd d;
	const char *config = NULL, *ifname = "eth0";
	const char *pin_root = getenv("DARD_PIN_ROOT");
	char err[DARD_ERR_MAX + PATH_MAX], *end;
	struct sigaction sig = {.sa_handler = on_signal};
	uint64_t age_ns = 10ULL * 1000000000, tick;
	struct sockaddr_in sa = {.sin_family = AF_INET};
	struct itimerspec its = {0};
	int opt, level = DARD_LOG_INFO, efd, ret = 1;
	unsigned long v;

	d.o.query_ns = 1000000000ULL;
	d.o.schedule_ns = 5000000000ULL;
	d.o.delta_mbps = 10;
	d.o.idle_ns = 10000000000ULL;
	d.o.switch_port = DARD_PROTO_PORT;
	while ((opt = getopt_long(argc, argv, "c:i:Q:S:d:I:e:p:vqVh", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'c':
			config = optarg;
			break;
		case 'i':
			ifname = optarg;
			break;
		case 'P':
			pin_root = optarg;
			break;
		case 'Q':
			if (seconds("--query-interval", optarg, &d.o.query_ns))
				return 2;
			break;
		case 'S':
			if (seconds("--schedule-interval", optarg,
				    &d.o.schedule_ns))
				return 2;
			break;
		case 'I':
			if (seconds("--idle", optarg, &d.o.idle_ns))
				return 2;
			break;
		case 'e':
			if (seconds("--elephant-age", optarg, &age_ns))
				return 2;
			break;
		case 'd': {
			double x = strtod(optarg, &end);

			if (end == optarg || !isfinite(x) || x < 0 ||
			    (*end && strcmp(end, "%")) || (*end && x > 100)) {
				fprintf(stderr,
					"dardd: --delta needs Mbit/s or a percentage, not `%s'\n",
					optarg);
				return 2;
			}
			/* The last --delta wins, whichever kind. */
			d.o.delta_is_frac = !!*end;
			d.o.delta_frac = *end ? x / 100 : 0;
			d.o.delta_mbps = *end ? 0 : x;
			break;
		}
		case 'p':
			v = strtoul(optarg, &end, 10);
			if (*end || !v || v > 65535) {
				fprintf(stderr,
					"dardd: --switch-port needs 1-65535, not `%s'\n",
					optarg);
				return 2;
			}
			d.o.switch_port = v;
			break;
		case 'v':
			level = DARD_LOG_DEBUG;
			break;
		case 'q':
			level = DARD_LOG_ERR;
			break;
		case 'V':
			printf("dardd %s\n", DARD_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "dardd: %s\n",
			optind < argc ? "one HOST only" : "which HOST?");
		usage(stderr);
		return 2;
	}
	dard_log_init("dardd", level);
	/* A link state older than three query rounds counts as unknown. */
	d.o.max_age_ns = d.o.query_ns * 3;
	/* Idle flows are found to within a quarter of the idle time. */
	d.o.sweep_ns = d.o.idle_ns / 4 < 1000000000ULL ? d.o.idle_ns / 4
						       : 1000000000ULL;
	config = dard_config_path(config);
	if (dard_config_read(&d.cfg, config, NULL, 0, err, sizeof(err))) {
		log_err("%s", err);
		return 1;
	}
	d.t = d.cfg.topo;
	d.me = dard_topo_find(d.t, argv[optind]);
	if (d.me == DARD_NONE || !d.t->node[d.me].is_host) {
		log_err("%s: no host `%s' in %s", config, argv[optind],
			dard_topo_label(d.t));
		return 1;
	}
	d.my_tor = dard_topo_tor(d.t, d.me);
	d.pc = dard_pathctx_new(d.t, d.cfg.plan);
	d.ls = calloc(2 * (size_t)d.t->nlinks, sizeof(*d.ls));
	d.ls_when = calloc(2 * (size_t)d.t->nlinks, sizeof(*d.ls_when));
	d.ls_stamp = calloc(2 * (size_t)d.t->nlinks, sizeof(*d.ls_stamp));
	d.sw = calloc(d.t->nnodes, sizeof(*d.sw));
	if (!d.pc || !d.ls || !d.ls_when || !d.ls_stamp || !d.sw ||
	    index_switches(&d)) {
		log_err("out of memory");
		return 1;
	}
	for (v = 0; v < d.t->nnodes; v++) {
		d.sw[v].ports =
			calloc(d.t->node[v].nports + 1, sizeof(uint16_t));
		if (!d.sw[v].ports) {
			log_err("out of memory");
			return 1;
		}
	}
	d.rng = now_ns() ^ ((uint64_t)getpid() << 32) ^ d.me;
	if (!d.rng)
		d.rng = 1;
	d.ops = &dard_dp_bpf;
	if (open_datapath(&d, ifname, pin_root, age_ns))
		return 1;
	d.epfd = epoll_create1(EPOLL_CLOEXEC);
	d.udp = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	sa.sin_addr.s_addr = htonl(d.t->node[d.me].mgmt);
	if (d.epfd < 0 || d.udp < 0 ||
	    bind(d.udp, (struct sockaddr *)&sa, sizeof(sa))) {
		log_err("Unable to open the query socket on %s: %s",
			inet_ntoa(sa.sin_addr), strerror(errno));
		goto out;
	}
	d.ctl = ctl_socket();
	if (d.ctl < 0) {
		log_err("Unable to open the control socket: %s%s",
			strerror(-d.ctl),
			d.ctl == -EADDRINUSE
				? " (another dardd runs in this network namespace)"
				: "");
		goto out;
	}
	efd = d.ops->event_fd(d.dp, on_event, &d);
	if (efd < 0) {
		log_err("Unable to read the datapath's events: %s",
			strerror(-efd));
		goto out;
	}
	/* Ticks fine enough for the query interval, at most 4 per second. */
	tick = d.o.query_ns / 4;
	if (d.o.schedule_ns / 4 < tick)
		tick = d.o.schedule_ns / 4;
	if (tick > 250000000ULL)
		tick = 250000000ULL;
	if (tick < 10000000ULL)
		tick = 10000000ULL;
	its.it_interval.tv_sec = tick / 1000000000ULL;
	its.it_interval.tv_nsec = tick % 1000000000ULL;
	its.it_value = its.it_interval;
	d.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (d.tfd < 0 || timerfd_settime(d.tfd, 0, &its, NULL) ||
	    add_fd(&d, d.tfd) || add_fd(&d, d.udp) || add_fd(&d, d.ctl) ||
	    add_fd(&d, efd)) {
		log_err("Unable to set up the event loop: %s", strerror(errno));
		goto out;
	}
	sigaction(SIGINT, &sig, NULL);
	sigaction(SIGTERM, &sig, NULL);
	signal(SIGPIPE, SIG_IGN);
	/* Elephants reported before we started. */
	sweep(&d, now_ns());
	log_info(
		"%s: datapath on %s, query every %.3g s, rounds every %.3g s + U[0, %.3g s], delta %.3g%s",
		argv[optind], ifname, d.o.query_ns / 1e9, d.o.schedule_ns / 1e9,
		d.o.schedule_ns / 1e9,
		d.o.delta_is_frac ? d.o.delta_frac * 100 : d.o.delta_mbps,
		d.o.delta_is_frac ? "% of the path bandwidth" : " Mbit/s");
	while (!stop) {
		struct epoll_event evs[8];
		int i, n = epoll_wait(d.epfd, evs, 8, -1);

		for (i = 0; i < n; i++) {
			int fd = evs[i].data.fd;

			if (fd == d.tfd)
				on_tick(&d);
			else if (fd == d.udp)
				receive(&d);
			else if (fd == d.ctl)
				on_ctl(&d);
			else
				d.ops->poll(d.dp, on_event, &d, 0);
		}
	}
	log_info(
		"stopping: %llu queries, %llu replies, %llu timeouts, %llu moves",
		(unsigned long long)d.st.queries,
		(unsigned long long)d.st.replies,
		(unsigned long long)d.st.timeouts,
		(unsigned long long)d.st.moves);
	ret = 0;
out:
	d.ops->close(d.dp);
	return ret;
}
