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
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "dardd_priv.h"
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

static ssize_t xmit_udp(struct dardd *d, const void *buf, size_t len,
			uint32_t mgmt)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons(d->o.switch_port),
				 .sin_addr.s_addr = htonl(mgmt)};

	return sendto(d->udp, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa));
}

int query_init(struct dardd *d)
{
	size_t ndl = 2 * (size_t)d->t->nlinks;
	uint32_t n;

	d->udp = -1;
	d->xmit = xmit_udp;
	d->ls = calloc(ndl, sizeof(*d->ls));
	d->ls_when = calloc(ndl, sizeof(*d->ls_when));
	d->ls_stamp = calloc(ndl, sizeof(*d->ls_stamp));
	d->sw = calloc(d->t->nnodes, sizeof(*d->sw));
	if (!d->ls || !d->ls_when || !d->ls_stamp || !d->sw ||
	    index_switches(d))
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
	struct sockaddr_in sa = {.sin_family = AF_INET};

	d->udp = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	sa.sin_addr.s_addr = htonl(d->t->node[d->me].mgmt);
	if (d->udp < 0 || bind(d->udp, (struct sockaddr *)&sa, sizeof(sa))) {
		log_err("Unable to open the query socket on %s: %s",
			inet_ntoa(sa.sin_addr), strerror(errno));
		return -1;
	}
	return 0;
}

void query_fini(struct dardd *d)
{
	uint32_t n;

	if (d->udp >= 0)
		close(d->udp);
	d->udp = -1;
	for (n = 0; d->sw && n < d->t->nnodes; n++)
		free(d->sw[n].ports);
	free(d->sw);
	free(d->swaddr);
	free(d->ls);
	free(d->ls_when);
	free(d->ls_stamp);
	d->sw = NULL;
	d->swaddr = NULL;
	d->ls = NULL;
	d->ls_when = d->ls_stamp = NULL;
	d->nswaddr = 0;
}

/* This tick's ports of every switch some monitor needs, each once. */
static void collect_ports(struct dardd *d)
{
	struct mon *mon;
	unsigned i, k;

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
}

/* Sends every switch that a monitor needs one query for its ports. */
void query_send(struct dardd *d, uint64_t now)
{
	static uint8_t buf[DARD_MSG_MAX];
	uint32_t n;

	d->tick++;
	/* States that aged to unknown since the last replies: not dead. */
	dead_update(d, now);
	collect_ports(d);
	for (n = 0; n < d->t->nnodes; n++) {
		struct sw *s = &d->sw[n];
		uint32_t mgmt = d->t->node[n].mgmt;
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
		if (!len || !mgmt)
			continue;
		if (d->xmit(d, buf, len, mgmt) < 0) {
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

/* Anyone can send us datagrams: each counted, not each logged. */
static void reject(struct dardd *d, uint32_t addr, const char *what,
		   const char *why, uint64_t now)
{
	struct in_addr in = {.s_addr = htonl(addr)};
	char from[INET_ADDRSTRLEN];

	d->st.rejected++;
	inet_ntop(AF_INET, &in, from, sizeof(from));
	dard_log_ratelimited(&d->rejects, now, DARD_LOG_WARN,
			     "rejected a %s from %s: %s", what, from, why);
}

void query_reply(struct dardd *d, const uint8_t *buf, size_t len, uint32_t addr,
		 uint64_t now)
{
	static struct dard_msg msg;
	char err[DARD_ERR_MAX];
	uint32_t n = query_switch_at(d, addr);
	struct sw *s;

	if (dard_proto_decode(buf, len, &msg, err)) {
		reject(d, addr, "reply", err, now);
		return;
	}
	if (n == DARD_NONE || msg.type != DARD_MSG_REPLY) {
		reject(d, addr, "message",
		       n == DARD_NONE ? "not a switch of ours" : "not a reply",
		       now);
		return;
	}
	s = &d->sw[n];
	/*
	 * An answer to a query we have given up on: harmless. With none
	 * pending (seq is never 0), an unasked one is not taken either.
	 */
	if (!s->pending || msg.seq != s->pending) {
		d->st.late++;
		log_debug("late reply from %s", d->t->node[n].name);
		return;
	}
	d->st.replies++;
	d->st.reply_bytes += len;
	s->pending = 0;
	s->unanswered_ns = 0;
	if (s->silent)
		log_info("%s answers again", d->t->node[n].name);
	s->silent = 0;
	dard_reply_apply(d->t, n, &msg, d->ls, d->ls_when, now);
	dead_update(d, now);
}

void query_receive(struct dardd *d)
{
	static uint8_t buf[DARD_MSG_MAX];
	struct sockaddr_in sa;
	socklen_t salen = sizeof(sa);
	ssize_t len;

	while ((len = recvfrom(d->udp, buf, sizeof(buf), MSG_DONTWAIT,
			       (struct sockaddr *)&sa, &salen)) >= 0)
		query_reply(d, buf, len, ntohl(sa.sin_addr.s_addr),
			    dardd_now_ns());
}
