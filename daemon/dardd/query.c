// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Path-state assembly (paper, section 2.4): every query interval, one
 * query to each switch some monitor needs, for the exit ports it needs
 * (Documentation/protocol.md); a reply is taken only from the switch
 * asked and only for the last query, and a switch that stops answering
 * has its links count as unknown once their states are older than
 * max_age.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <sodium.h>

#include "dardd_priv.h"
#include "counters.h"
#include "dead.h"
#include "io.h"
#include "links.h"
#include "monitors.h"
#include "query.h"
#include "sharing.h"
#include "watch.h"
#include "keyfile.h"
#include "log.h"
#include "proto.h"

static int by_mgmt(const void *a, const void *b)
{
	uint32_t x = ((const struct sw_addr *)a)->mgmt;
	uint32_t y = ((const struct sw_addr *)b)->mgmt;

	return (x > y) - (x < y);
}

uint32_t query_switch_at(const struct dardd *d, uint32_t addr)
{
	struct sw_addr key = {.mgmt = addr}, *s;

	s = bsearch(&key, d->swaddr, d->nswaddr, sizeof(key), by_mgmt);
	return s ? s->node : DARD_NONE;
}

/* The index query_switch_at searches: every switch with an address. */
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

static const struct dard_rx_ops reply_ops;

int query_init(struct dardd *d)
{
	uint32_t n;

	dard_rx_init(&d->reply_rx, &reply_ops, d);
	d->sw = calloc(d->t->nnodes, sizeof(*d->sw));
	if (!d->sw || index_switches(d))
		return -ENOMEM;
	for (n = 0; n < d->t->nnodes; n++) {
		d->sw[n].ports =
			calloc(d->t->node[n].nports + 1, sizeof(uint16_t));
		if (!d->sw[n].ports)
			return -ENOMEM;
	}
	return 0;
}

int query_open(struct dardd *d)
{
	char err[DARD_ERR_MAX + PATH_MAX];

	if (dard_crypto_init(err) ||
	    dard_keys_open(&d->keys, dard_key_path(d->o.key), err)) {
		log_err("%s", err);
		return -1;
	}
	return io_open(d, DARDD_SOCK_QUERY, "query");
}

void query_fini(struct dardd *d)
{
	uint32_t n;

	io_close(d, DARDD_SOCK_QUERY);
	for (n = 0; d->sw && n < d->t->nnodes; n++)
		free(d->sw[n].ports);
	free(d->sw);
	free(d->swaddr);
	d->sw = NULL;
	d->swaddr = NULL;
	dard_keys_free(d->keys);
	d->keys = NULL;
	d->nswaddr = 0;
}

/* q's ports not claimed this tick yet, into its switch's query. */
static void collect_query(struct dardd *d, const struct dard_mon_query *q)
{
	struct sw *s = &d->sw[q->sw];
	unsigned k;

	for (k = 0; k < q->nports; k++) {
		uint32_t dl = dard_port_dlink(d->t, q->sw, q->ports[k]);

		if (links_claimed(d, dl))
			continue;
		links_claim(d, dl);
		s->needed = 1;
		/* A ToR peer's answer since our last tick. */
		if (share_covered(d, dl))
			continue;
		/* One datagram carries 1024 ports. */
		if (s->nports < DARD_MSG_PORTS_MAX)
			s->ports[s->nports++] = q->ports[k];
	}
}

/*
 * The watch's query q, our own: each host watches for itself (a WATCH
 * makes its agent tell the sender alone), so its ports go into the
 * switch's query though a monitor's link was shared this tick, once.
 */
static void collect_watch(struct dardd *d, const struct dard_mon_query *q)
{
	struct sw *s = &d->sw[q->sw];
	unsigned k, i;

	for (k = 0; k < q->nports; k++) {
		links_claim(d, dard_port_dlink(d->t, q->sw, q->ports[k]));
		for (i = 0; i < s->nports && s->ports[i] != q->ports[k]; i++)
			;
		if (i == s->nports && s->nports < DARD_MSG_PORTS_MAX)
			s->ports[s->nports++] = q->ports[k];
	}
	s->watching = 1;
}

/* This tick's ports of every switch some monitor or the watch needs. */
static void collect_ports(struct dardd *d)
{
	struct mon *mon;
	unsigned i;

	for (mon = d->mons; mon; mon = mon->next)
		for (i = 0; !mon->quiet && i < mon->m->nqueries; i++)
			collect_query(d, &mon->m->query[i]);
	/*
	 * A WATCH unanswered (its agent not up yet, or lost) is sent again
	 * at the next tick, not a watch interval on: until an agent has
	 * it, it tells us nothing.
	 */
	for (i = 0; i < d->watch.nq; i++)
		if (watch_asks(d, &d->watch.q[i]))
			collect_watch(d, &d->watch.q[i]);
}

/* Who asks, in the queries' sender field: our host's ID address. */
static uint32_t query_sender(const struct dardd *d)
{
	return d->t->node[d->me].id;
}

/* Sends every switch that a monitor or the watch needs one query. */
void query_send(struct dardd *d, uint64_t now)
{
	static uint8_t buf[DARD_MSG_MAX];
	unsigned nq = 0;
	uint32_t n;

	links_tick(d);
	d->st.query_ticks++;
	/* Before the WANT and the ports: a quiet monitor needs none. */
	mon_quiet_all(d, now);
	watch_tick(d, now);
	share_tick(d, now);
	/* States that aged to unknown since the last replies: not dead. */
	dead_update(d, now);
	collect_ports(d);
	for (n = 0; n < d->t->nnodes; n++) {
		struct sw *s = &d->sw[n];
		uint32_t mgmt = d->t->node[n].mgmt;
		uint64_t seq;
		size_t len;

		share_add_wanted(d, n, s, now);
		d->st.share_saved += s->needed && !s->nports;
		s->needed = 0;
		if (!s->nports) {
			s->watching = 0;
			continue;
		}
		/* Unanswered: counted; silent once its states expire. */
		if (s->pending) {
			d->st.timeouts++;
			s->prev = s->pending;
		}
		if (s->pending && !s->silent &&
		    now - s->unanswered_ns > d->o.max_age_ns) {
			log_warn(
				"%s has not answered for %.3g s: its links count as unknown until it does",
				d->t->node[n].name, d->o.max_age_ns / 1e9);
			s->silent = 1;
		}
		/*
		 * Our clock in µs: the agent's window for us (proto.h) takes
		 * each seq once, and those of a dardd before us never.
		 */
		seq = d->io.query_seq = dard_proto_next_seq(
			d->io.query_seq, d->io.wall_ns() / 1000);
		/* Padded to its reply, which the agent never exceeds. */
		if (s->watching)
			len = dard_proto_watch(
				buf, sizeof(buf), &d->keys->key[0],
				query_sender(d), seq, mgmt, s->ports, s->nports,
				dard_proto_watch_len(s->nports));
		else
			len = dard_proto_query(
				buf, sizeof(buf), &d->keys->key[0],
				query_sender(d), seq, s->ports, s->nports,
				dard_proto_query_len(s->nports));
		d->st.watches += s->watching;
		s->nports = 0;
		if (!len || !mgmt ||
		    d->io.xmit(d, DARDD_SOCK_QUERY, buf, len, mgmt) < 0) {
			d->st.send_errors += len && mgmt;
			/* Not sent: asked again at the next tick. */
			s->watch_seq = s->watching ? seq : s->watch_seq;
			s->watching = 0;
			continue;
		}
		d->st.queries++;
		d->st.query_bytes += len;
		nq++;
		if (!s->unanswered_ns)
			s->unanswered_ns = now;
		s->pending = seq;
		s->sent_ns = now;
		s->watch_seq = s->watching ? seq : 0;
		s->watching = 0;
	}
	share_sent(d, nq, now);
}

/*
 * Whether msg, authentic and from switch n, answers n's pending query in
 * time: our sender, its seq, within the query interval. Seq 0 never is
 * (the decoder refuses it; pending is 0 when nothing is).
 */
static int check_answer(struct dardd *d, const struct sw *s,
			const struct dard_msg *msg, uint64_t now, char *why)
{
	if (msg->type != DARD_MSG_REPLY) {
		strcpy(why, "not a reply or notice");
		return DARD_RX_MALFORMED;
	}
	if (msg->sender != query_sender(d)) {
		strcpy(why, "answers another sender's query");
		return DARD_RX_SEQ;
	}
	if (s->spent && msg->seq == s->spent) {
		strcpy(why, "a reply already taken (replayed)");
		return DARD_RX_REPLAY;
	}
	/* A slow switch is no attack: counted late, logged for -v. */
	if (s->prev && msg->seq == s->prev) {
		strcpy(why, "answers a query already given up on");
		return DARD_RX_LATE;
	}
	if (!s->pending || msg->seq != s->pending) {
		strcpy(why, "answers no query of ours (wrong seq)");
		return DARD_RX_SEQ;
	}
	if (now - s->sent_ns > d->o.query_ns) {
		strcpy(why, "arrived after the query's timeout");
		return DARD_RX_LATE;
	}
	return DARD_RX_TAKEN;
}

/*
 * Whether notice msg, authentic and from switch n, is to be taken: its
 * agent n's, for us, newer than the last we took from n (the agent's
 * seqs rise), and
 * within DARD_PROTO_SKEW_US of our clock, so that a recording is stale
 * once the agent has sent any other and, after our restart, in 10 s.
 */
static int check_notice(struct dardd *d, uint32_t n, const struct sw *s,
			const struct dard_msg *msg, char *why)
{
	uint64_t us = d->io.wall_ns() / 1000;

	/* Under the MAC: not another agent's, replayed from this address. */
	if (msg->agent != d->t->node[n].mgmt) {
		strcpy(why, "a notice of another switch's agent");
		return DARD_RX_SOURCE;
	}
	if (msg->sender != query_sender(d)) {
		strcpy(why, "a notice for another host");
		return DARD_RX_SEQ;
	}
	if (msg->seq <= s->noticed) {
		strcpy(why, "a notice no newer than the last taken (replayed)");
		return DARD_RX_REPLAY;
	}
	if (msg->seq + DARD_PROTO_SKEW_US < us ||
	    msg->seq > us + DARD_PROTO_SKEW_US) {
		strcpy(why, "a notice over 10 s from our clock");
		return DARD_RX_REPLAY;
	}
	return DARD_RX_TAKEN;
}

/* Not from a switch's agent: not even worth a MAC's work. */
static int reply_source(void *arg, uint32_t addr, uint16_t port, char *why)
{
	struct dardd *d = arg;
	uint32_t n = query_switch_at(d, addr);

	if (n != DARD_NONE && port == d->o.switch_port)
		return DARD_RX_TAKEN;
	strcpy(why, n == DARD_NONE ? "not a switch of ours"
				   : "not from the agent's port");
	return DARD_RX_SOURCE;
}

/* The reply being taken: 16 KiB, kept off the stack. */
static struct dard_msg reply;

static int reply_decode(void *arg, const uint8_t *buf, size_t len, char *err)
{
	struct dardd *d = arg;

	return dard_proto_decode(buf, len, d->keys, &reply, err);
}

static int reply_take(void *arg, size_t len, uint32_t addr, uint16_t port,
		      uint64_t now, char *why)
{
	struct dardd *d = arg;
	uint32_t n = query_switch_at(d, addr);
	struct sw *s = &d->sw[n];
	int ret;

	if (reply.type == DARD_MSG_NOTICE) {
		ret = check_notice(d, n, s, &reply, why);
		if (ret != DARD_RX_TAKEN)
			return ret;
		s->noticed = reply.seq;
		d->st.notices++;
		d->st.notice_bytes += len;
		log_info("%s: %u links changed (its notice)",
			 d->t->node[n].name, reply.count);
		dard_reply_apply(d->t, n, &reply, d->links.ls, d->links.when,
				 now);
		dead_update(d, now);
		share_notice(d, n, &reply, now);
		return DARD_RX_TAKEN;
	}
	ret = check_answer(d, s, &reply, now, why);
	if (ret != DARD_RX_TAKEN)
		return ret;
	d->st.replies++;
	d->st.reply_bytes += len;
	/* Spent: the same reply again is a replay. */
	s->spent = s->pending;
	if (s->watch_seq == s->pending)
		s->watch_seq = 0; /* its agent keeps our watch */
	s->pending = 0;
	s->unanswered_ns = 0;
	if (s->silent)
		log_info("%s answers again", d->t->node[n].name);
	s->silent = 0;
	dard_reply_apply(d->t, n, &reply, d->links.ls, d->links.when, now);
	dead_update(d, now);
	share_reply(d, n, &reply, now);
	return DARD_RX_TAKEN;
}

static const struct dard_rx_ops reply_ops = {
	.what = "reply",
	.max_len = DARD_MSG_MAX,
	.kinds = DARD_RX_KINDS_OF(DARDD_REPLY_REFUSALS) | DARD_RX_BIT(LATE),
	.source = reply_source,
	.decode = reply_decode,
	.take = reply_take,
	.now = dardd_now_ns,
};

void query_reply(struct dardd *d, const uint8_t *buf, size_t len, uint32_t addr,
		 uint16_t port, uint64_t now)
{
	dard_rx_input(&d->reply_rx, buf, len, addr, port, now);
}

unsigned query_receive(struct dardd *d)
{
	return dard_rx_drain(&d->reply_rx, d->io.fd[DARDD_SOCK_QUERY], NULL);
}
