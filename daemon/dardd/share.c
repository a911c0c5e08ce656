// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Sharing switch answers with the hosts under our ToR (share.h, issue
 * 17): every host under a ToR asks the ToR and the switches above it the
 * same things each second, so the first to ask passes the answers on and
 * the others listen. A peer tells us which directed links it needs (its
 * WANT); when we ask one of those switches we ask for its links too, and
 * send each peer what it wants once this tick's replies are in. A link a
 * peer's SHARE covers since our previous tick we do not ask; a silent
 * sharer leaves us asking again at our next tick. Nothing depends on a
 * peer: without shares this is dardd as it was.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "clock.h"
#include "dardd_priv.h"
#include "counters.h"
#include "dead.h"
#include "io.h"
#include "links.h"
#include "monitors.h"
#include "query.h"
#include "sharing.h"
#include "watch.h"
#include "log.h"

/* The hosts under our ToR with a management address, but us. */
static int find_peers(struct dardd *d)
{
	const struct dard_topo *t = d->t;
	struct share *sh = &d->sh;
	unsigned k;

	sh->peer = calloc(t->node[d->my_tor].nports, sizeof(*sh->peer));
	if (!sh->peer)
		return -ENOMEM;
	for_each_port(t, d->my_tor, k) {
		uint32_t h = dard_topo_peer(t, d->my_tor, k);
		struct peer *p = &sh->peer[sh->npeers];

		if (h == DARD_NONE || h == d->me || !t->node[h].is_host ||
		    !t->node[h].mgmt)
			continue;
		p->mgmt = t->node[h].mgmt;
		p->id = t->node[h].id;
		p->want = calloc(sh->sc.ndl, 1);
		p->out = calloc(1, sizeof(*p->out));
		p->out_ns = calloc(DARD_SHARE_RECS_MAX, sizeof(*p->out_ns));
		if (!p->want || !p->out || !p->out_ns) {
			free(p->want);
			free(p->out);
			free(p->out_ns);
			return -ENOMEM;
		}
		sh->npeers++;
	}
	return 0;
}

static const struct dard_rx_ops share_ops;

int share_init(struct dardd *d)
{
	struct share *sh = &d->sh;

	memset(sh, 0, sizeof(*sh));
	dard_rx_init(&sh->rx, &share_ops, d);
	if (d->o.no_share)
		return 0;
	if (dard_share_scope_init(&sh->sc, d->t, d->my_tor))
		return -ENOMEM;
	sh->seen.got_ns = calloc(sh->sc.ndl, sizeof(*sh->seen.got_ns));
	sh->need = calloc(sh->sc.ndl, 1);
	sh->msg = calloc(1, sizeof(*sh->msg));
	if (!sh->seen.got_ns || !sh->need || !sh->msg || find_peers(d))
		return -ENOMEM;
	/* Alone under the ToR, or unreachable: nothing to share or hear. */
	sh->on = sh->npeers > 0 && d->t->node[d->me].mgmt;
	return 0;
}

int share_open(struct dardd *d)
{
	if (!d->sh.on)
		return 0;
	return io_open(d, DARDD_SOCK_SHARE, "share");
}

void share_fini(struct dardd *d)
{
	struct share *sh = &d->sh;
	unsigned i;

	io_close(d, DARDD_SOCK_SHARE);
	for (i = 0; sh->peer && i < sh->npeers; i++) {
		free(sh->peer[i].want);
		free(sh->peer[i].out);
		free(sh->peer[i].out_ns);
	}
	free(sh->peer);
	free(sh->seen.got_ns);
	free(sh->need);
	free(sh->msg);
	dard_share_scope_free(&sh->sc);
	memset(sh, 0, sizeof(*sh));
}

/* Signs m (type, count and records filled) and sends it to p. */
static int send_to(struct dardd *d, struct peer *p, struct dard_share_msg *m)
{
	static uint8_t buf[DARD_SHARE_MSG_MAX];
	size_t len;

	m->seq = io_next_seq(d);
	m->sender = d->t->node[d->me].id;
	m->topo = d->io.digest;
	len = dard_share_encode(buf, sizeof(buf), &d->keys->key[0], m);
	if (!len || d->io.xmit(d, DARDD_SOCK_SHARE, buf, len, p->mgmt) < 0) {
		d->st.share_send_errors++;
		return -1;
	}
	if (m->type == DARD_SHARE_WANT) {
		d->st.wants_sent++;
		d->st.want_bytes += len;
	} else {
		d->st.shares_sent++;
		d->st.share_bytes += len;
		d->st.share_records += m->count;
	}
	return 0;
}

/*
 * The records waiting for p, aged as of now: a switch's answer may wait
 * a tick for a silent one. Those too old by now are left out.
 */
static void send_out(struct dardd *d, struct peer *p, uint64_t now)
{
	const uint64_t unit = DARD_SHARE_AGE_MS * 1000000ULL;
	struct dard_share_msg *m = p->out;
	unsigned i, n = 0;

	for (i = 0; i < m->count; i++) {
		uint64_t age =
			now > p->out_ns[i] ? (now - p->out_ns[i]) / unit : 0;

		if (age > DARD_SHARE_AGE_MAX)
			continue;
		m->rec[n] = m->rec[i];
		m->rec[n++].age = age;
	}
	m->count = n;
	m->type = DARD_SHARE_MSG;
	if (n)
		send_to(d, p, m);
	m->count = 0;
}

/* What is waiting for each peer: one SHARE each. */
static void flush(struct dardd *d, uint64_t now)
{
	unsigned i;

	for (i = 0; i < d->sh.npeers; i++)
		if (d->sh.peer[i].out->count)
			send_out(d, &d->sh.peer[i], now);
}

/* Whether peer p's last WANT is not too old to hold. */
static int fresh(const struct peer *p, uint64_t now)
{
	return p->want_ns &&
	       now - p->want_ns <= DARD_SHARE_WANT_TTL_MS * 1000000ULL;
}

/* Whether peer p's WANT names dl, and holds. */
static int wants(const struct peer *p, uint32_t dl, uint64_t now)
{
	return p->want[dl] && fresh(p, now);
}

/* Whether p has monitors: it asks switches, and may share with us. */
static int active(const struct peer *p, uint64_t now)
{
	return p->nwant && fresh(p, now);
}

/* The shared links of q not in m yet, added; marked in need. */
static void want_add(struct dardd *d, const struct dard_mon_query *q,
		     struct dard_share_msg *m, uint64_t *sig)
{
	struct share *sh = &d->sh;
	unsigned k;

	for (k = 0; k < q->nports; k++) {
		uint32_t dl = dard_port_dlink(d->t, q->sw, q->ports[k]);

		/* One datagram: the rest we ask for ourselves. */
		if (dl == DARD_NONE || !sh->sc.in[dl] || sh->need[dl] ||
		    m->count == DARD_SHARE_WANTS_MAX)
			continue;
		sh->need[dl] = 1;
		m->want[m->count++] = dl;
		*sig += dard_share_mix(dl);
	}
}

/*
 * Our WANT: the shared links our monitors need (an order-free signature
 * tells a change). Only a peer with monitors of its own asks switches
 * and can share, so: to every peer when we get our first monitor (the
 * announcement), else to the active peers when the links change, and
 * once when there are none left; to every peer every
 * DARD_SHARE_WANT_REFRESH_MS while there are any, since one we hold
 * inactive may be so only because its announcement or ours was lost;
 * and to a peer that announced itself since (it owes us nothing, we owe
 * it ours).
 */
static void want_update(struct dardd *d, uint64_t now)
{
	struct share *sh = &d->sh;
	struct dard_share_msg *m = sh->msg;
	uint64_t sig = 0;
	struct mon *mon;
	unsigned i;
	int due;

	m->type = DARD_SHARE_WANT;
	m->count = 0;
	for (mon = d->mons; mon; mon = mon->next)
		for (i = 0; !mon->quiet && i < mon->m->nqueries; i++)
			want_add(d, &mon->m->query[i], m, &sig);
	for (i = 0; i < m->count; i++)
		sh->need[m->want[i]] = 0;
	due = m->count &&
	      now - sh->want_ns >= DARD_SHARE_WANT_REFRESH_MS * 1000000ULL;
	if (sig != sh->want_sig || due) {
		for (i = 0; i < sh->npeers; i++)
			if (!sh->want_sig || due || active(&sh->peer[i], now))
				sh->peer[i].owed = 1;
		sh->want_sig = sig;
		sh->want_ns = now;
	}
	for (i = 0; i < sh->npeers; i++) {
		struct peer *p = &sh->peer[i];

		if (!p->owed)
			continue;
		p->owed = 0;
		if (!send_to(d, p, m)) {
			p->sent_sig = sig;
			p->sent_ns = now;
		}
	}
}

void share_tick(struct dardd *d, uint64_t now)
{
	if (!d->sh.on)
		return;
	/* Replies that did not all come: what did, goes now. */
	flush(d, now);
	want_update(d, now);
}

int share_covered(struct dardd *d, uint32_t dl)
{
	struct share *sh = &d->sh;

	if (!sh->on || !sh->sc.in[dl] ||
	    !dard_share_covered(&sh->seen, dl, sh->prev_tick))
		return 0;
	d->st.share_skipped++;
	return 1;
}

void share_add_wanted(struct dardd *d, uint32_t n, struct sw *s, uint64_t now)
{
	struct share *sh = &d->sh;
	unsigned k, i;

	if (!sh->on || !s->nports || !dard_share_scope_switch(&sh->sc, n))
		return;
	for_each_port(d->t, n, k) {
		uint32_t dl = dard_port_dlink(d->t, n, k);

		if (dl == DARD_NONE || !sh->sc.in[dl] || links_claimed(d, dl) ||
		    s->nports >= DARD_MSG_PORTS_MAX)
			continue;
		for (i = 0; i < sh->npeers; i++)
			if (wants(&sh->peer[i], dl, now))
				break;
		if (i == sh->npeers)
			continue;
		links_claim(d, dl);
		s->ports[s->nports++] = k;
	}
}

void share_sent(struct dardd *d, unsigned nq, uint64_t now)
{
	if (!d->sh.on)
		return;
	d->sh.outstanding = nq;
	d->sh.prev_tick = now;
}

void share_reply(struct dardd *d, uint32_t n, const struct dard_msg *msg,
		 uint64_t now)
{
	struct share *sh = &d->sh;
	unsigned i, j;

	if (!sh->on)
		return;
	for (i = 0; dard_share_scope_switch(&sh->sc, n) && i < msg->count;
	     i++) {
		uint32_t dl = dard_port_dlink(d->t, n, msg->state[i].port);
		struct dard_share_rec r;

		if (dl == DARD_NONE || !sh->sc.in[dl] ||
		    dard_share_rec_of(&r, dl, &d->links.ls[dl],
				      d->links.when[dl], now))
			continue;
		for (j = 0; j < sh->npeers; j++) {
			struct peer *p = &sh->peer[j];

			if (!wants(p, dl, now))
				continue;
			if (p->out->count == DARD_SHARE_RECS_MAX)
				send_out(d, p, now);
			p->out_ns[p->out->count] = d->links.when[dl];
			p->out->rec[p->out->count++] = r;
		}
	}
	/* The tick's last answer: the peers get theirs at once. */
	if (sh->outstanding && !--sh->outstanding)
		flush(d, now);
}

void share_notice(struct dardd *d, uint32_t n, const struct dard_msg *msg,
		  uint64_t now)
{
	unsigned outstanding = d->sh.outstanding;

	if (!d->sh.on)
		return;
	/* Not one of a tick's answers: its records go out now. */
	d->sh.outstanding = 0;
	share_reply(d, n, msg, now);
	flush(d, now);
	d->sh.outstanding = outstanding;
}

static struct peer *peer_at(struct dardd *d, uint32_t addr)
{
	unsigned i;

	for (i = 0; i < d->sh.npeers; i++)
		if (d->sh.peer[i].mgmt == addr)
			return &d->sh.peer[i];
	return NULL;
}

/* An authentic, checked message from p: its WANT, or its records. */
static void take(struct dardd *d, struct peer *p,
		 const struct dard_share_msg *m, uint64_t now, uint64_t wall)
{
	struct dard_share_counts c;
	unsigned i;

	if (m->type == DARD_SHARE_WANT) {
		/* It announces itself: ours, unless it holds it still. */
		if (m->count && !active(p, now) &&
		    (p->sent_sig != d->sh.want_sig ||
		     now - p->sent_ns > DARD_SHARE_WANT_TTL_MS * 1000000ULL))
			p->owed = 1;
		memset(p->want, 0, d->sh.sc.ndl);
		for (i = 0; i < m->count; i++)
			p->want[m->want[i]] = 1;
		p->nwant = m->count;
		p->want_ns = now;
		d->st.wants_taken++;
		return;
	}
	d->st.shares_taken++;
	d->st.share_taken +=
		dard_share_apply(d->t, m, d->links.ls, d->links.when,
				 &d->sh.seen, now, wall, &c);
	d->st.share_down += c.down;
	d->st.share_stale += c.stale;
	dead_update(d, now);
	/*
	 * A port down is the switch's to say: ask it at once (those links
	 * are not covered), so that a failure reaches us as fast as it
	 * reached the sharer, and no faster on a peer's word alone. The
	 * watch asks too, at that tick: the link may be on no monitor's
	 * paths, and only the switch's answer marks it dead (dead.c).
	 */
	if (c.down && d->next_query_ns > now)
		d->next_query_ns = now;
	if (c.down)
		d->watch.next_ns = now;
}

/* Not from a ToR peer's socket: not even worth a MAC's work. */
static int share_source(void *arg, uint32_t addr, uint16_t port, char *why)
{
	struct dardd *d = arg;
	struct peer *p = peer_at(d, addr);

	if (p && port == DARD_SHARE_PORT)
		return DARD_RX_TAKEN;
	strcpy(why, p ? "not from the share port" : "not a host under our ToR");
	return DARD_RX_SOURCE;
}

static int share_decode(void *arg, const uint8_t *buf, size_t len, char *err)
{
	struct dardd *d = arg;

	return dard_share_decode(buf, len, d->keys, &d->sh.sc, d->sh.msg, err);
}

static int share_take(void *arg, size_t len, uint32_t addr, uint16_t port,
		      uint64_t now, char *why)
{
	struct dardd *d = arg;
	struct dard_share_msg *m = d->sh.msg;
	struct peer *p = peer_at(d, addr);
	uint64_t wall = d->io.wall_ns();
	int ret;

	ret = dard_share_check(m, p->id, d->io.digest, p->seq_in, wall, why);
	if (ret)
		return dard_rx_kind_of(ret);
	p->seq_in = m->seq;
	take(d, p, m, now, wall);
	return DARD_RX_TAKEN;
}

/* Each kind warned of once a second: one must not hide another. */
static const struct dard_rx_ops share_ops = {
	.what = "share",
	.max_len = DARD_SHARE_MSG_MAX,
	.kinds = DARD_RX_KINDS_OF(DARDD_SHARE_REFUSALS),
	.log_per_kind = 1,
	.source = share_source,
	.decode = share_decode,
	.take = share_take,
	.now = dardd_now_ns,
};

void share_input(struct dardd *d, const uint8_t *buf, size_t len, uint32_t addr,
		 uint16_t port, uint64_t now)
{
	if (d->sh.on)
		dard_rx_input(&d->sh.rx, buf, len, addr, port, now);
}

unsigned share_receive(struct dardd *d)
{
	return dard_rx_drain(&d->sh.rx, d->io.fd[DARDD_SOCK_SHARE], NULL);
}
