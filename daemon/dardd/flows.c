// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The datapath side: elephants come from the datapath's events, and
 * every sweep interval a walk of its flow table reconciles our table
 * with it (flows that left it, flows that went idle, elephants reported
 * before a restart or moved by someone else).
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>

#include "dardd_priv.h"
#include "controller.h"
#include "dead.h"
#include "elephants.h"
#include "flows.h"
#include "monitors.h"
#include "track.h"
#include "log.h"

/* Opens the datapath on o.ifname, attaching it if it is not there yet. */
int flows_open(struct dardd *d)
{
	const char *ifname = d->o.ifname, *pin_root = d->o.pin_root;
	struct dard_dp_opts o;
	char err[DARD_ERR_MAX];
	int ret;

	dard_dp_opts_init(&o, ifname, pin_root);
	o.elephant_age_ns = d->o.age_ns;

	ret = d->ops->open(&d->dp, ifname, pin_root);
	if (!ret) {
		/* Dead bits and weights a dardd before us left behind. */
		dead_clear_all(d);
		cp_weights_even(d);
		return 0;
	}
	if (ret != -ENOENT) {
		log_err("Unable to open the %s datapath on %s: %s",
			d->ops->name, ifname, dard_dp_strerror(ret));
		return -1;
	}
	if (dard_dp_attach_host(d->ops, &d->dp, &o, d->t, d->cfg.plan, d->me,
				err)) {
		log_err("%s", err);
		return -1;
	}
	log_info("attached the %s datapath to %s", d->ops->name, ifname);
	return 0;
}

void flows_fini(struct dardd *d)
{
	if (d->dp)
		d->ops->close(d->dp);
	d->dp = NULL;
}

int flows_on_event(const struct dard_event *ev, void *arg)
{
	struct dardd *d = arg;
	struct elephant *e;

	d->st.events++;
	if (ev->type == DARD_EVENT_ELEPHANT) {
		track_add(d, &ev->key, &ev->path, dardd_now_ns());
	} else if (ev->type == DARD_EVENT_END) {
		e = el_find(d, &ev->key);
		if (e)
			track_end(d, e, "FIN or RST");
	}
	return 0;
}

static int on_idle(const struct dard_event *ev, void *arg)
{
	struct dardd *d = arg;
	struct elephant *e = el_find(d, &ev->key);

	if (e)
		track_end(d, e, "idle");
	return 0;
}

/*
 * An elephant reported before a restart, or while we were away: it keeps
 * what the datapath knows of it, its age and the moves userspace made
 * (ours before the restart, an operator's), so that the rounds' "move
 * the one that moved least" carries on. Its path is the pair it has now.
 * The times of its past moves were ours alone: its history starts here.
 */
static void adopt(struct dardd *d, const struct dard_flow_key *k,
		  const struct dard_flow *f, uint64_t now)
{
	struct elephant *e = track_add(d, k, &f->path, now);
	char b[96];

	if (!e)
		return;
	/* The datapath's clock is CLOCK_MONOTONIC too (coarse). */
	if (f->elephant_ns && f->elephant_ns <= now)
		e->since_ns = f->elephant_ns;
	e->moves = f->moves;
	e->dp_moves = f->moves;
	e->dp_known = 1;
	e->first_ns = f->first_ns;
	log_info("elephant %s adopted: an elephant for %.1f s, %u moves",
		 flow_str(k, b, sizeof(b)), (now - e->since_ns) / 1e9,
		 e->moves);
}

/* One walk of the flow table: what we track against what is there. */
struct walk {
	struct dardd *d;
	uint64_t now;
	unsigned nel; /* elephants that have not ended, ours to any ToR */
};

/* e's rate since the last walk; unknown until two walks saw it. */
static void rate_update(struct elephant *e, const struct dard_flow *f,
			uint64_t now)
{
	if (e->rate_ns && now > e->rate_ns && f->bytes >= e->rate_bytes)
		e->rate = (f->bytes - e->rate_bytes) * 8e3 / (now - e->rate_ns);
	else
		e->rate = -1;
	e->rate_bytes = f->bytes;
	e->rate_ns = now;
}

/*
 * A flow of ours that is no elephant but has lived the elephant age and
 * sent since the last walk (a transfer's ACK stream, a mouse stalled on
 * a dead link) keeps a monitor of its ToR, for the dead paths alone: so
 * that the datapath avoids them for new flows and moves such flows off
 * them (dead.c), as it does for the elephants. It schedules nothing:
 * the monitor has no elephant to move.
 */
static void watch(struct walk *w, const struct dard_flow_key *k,
		  const struct dard_flow *f)
{
	struct dardd *d = w->d;
	uint32_t dst;
	struct mon *mon;

	if ((f->flags & (DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_ENDED)) ||
	    w->now - f->first_ns < d->o.age_ns ||
	    f->last_ns + d->o.sweep_ns < w->now)
		return;
	dst = dard_topo_find_id(d->t, ntohl(k->daddr));
	if (dst == DARD_NONE || dard_topo_tor(d->t, dst) == d->my_tor)
		return;
	mon = mon_get(d, dard_topo_tor(d->t, dst), w->now);
	if (mon)
		mon->watch_until_ns = w->now + d->o.idle_ns;
}

static int walk_cb(const struct dard_flow_key *k, const struct dard_flow *f,
		   void *arg)
{
	struct walk *w = arg;
	struct elephant *e = el_find(w->d, k);

	watch(w, k, f);
	/* Elephants that sent since the last walk: an idle one (UDP, or
	 * TCP gone without a FIN) takes no share of our link. */
	w->nel += (f->flags & DARD_FLOW_F_ELEPHANT) &&
		  !(f->flags & DARD_FLOW_F_ENDED) &&
		  f->last_ns + w->d->o.sweep_ns >= w->now;
	/*
	 * Begun after we took it for an elephant: the LRU evicted ours, which
	 * reports nothing, and a packet made a new entry for its key. Ours
	 * ended; the new one is adopted below once it is an elephant itself.
	 */
	if (e && f->first_ns > e->since_ns) {
		w->d->st.evicted++;
		track_end(w->d, e,
			  "evicted from the flow table, back as a new flow");
		e = NULL;
	}
	if (e) {
		e->seen = 1;
		/*
		 * Moved by someone else: an operator (dardctl), or the
		 * datapath itself, off a path dead or timing out (its moves
		 * count only userspace's): a path the controller must not
		 * send it back to for a while.
		 */
		if (memcmp(&e->pair, &f->path, sizeof(e->pair))) {
			if (e->dp_known && e->dp_moves == f->moves) {
				int again = e->left == e->path &&
					    w->now - e->left_ns < DARDD_LEFT_NS;

				e->left_times = again ? e->left_times + 1 : 1;
				e->left = e->path;
				e->left_ns = w->now;
			}
			e->pair = f->path;
			e->path = mon_path_of(w->d, e->mon, &f->path);
			/* Not our round's move: no futility to judge. */
			e->moved_rate = e->moved_est = 0;
			el_hist_add(e, w->now, e->path);
		}
		e->dp_moves = f->moves;
		e->dp_known = 1;
		e->first_ns = f->first_ns;
		rate_update(e, f, w->now);
		return 0;
	}
	if ((f->flags & DARD_FLOW_F_ELEPHANT) &&
	    !(f->flags & DARD_FLOW_F_ENDED))
		adopt(w->d, k, f, w->now);
	return 0;
}

void flows_sweep(struct dardd *d, uint64_t now)
{
	struct walk w = {d, now, 0};
	struct elephant *e, *next;
	int n;

	for (e = d->els; e; e = e->next)
		e->seen = 0;
	n = d->ops->flows(d->dp, walk_cb, &w);
	mon_expire(d, now);
	/* A walk that failed says nothing about which flows are gone. */
	if (n < 0)
		log_warn("Unable to walk the flow table: %s", strerror(-n));
	else
		d->nel = w.nel;
	for (e = d->els; n >= 0 && e; e = next) {
		next = e->next;
		if (e->seen)
			continue;
		/* The LRU's evictions (or a sweep by dardctl): no event. */
		d->st.evicted++;
		track_end(d, e, "gone from the flow table");
	}
	n = d->ops->sweep(d->dp, d->o.idle_ns, on_idle, d);
	if (n > 0)
		log_debug("swept %d idle flows", n);
}
