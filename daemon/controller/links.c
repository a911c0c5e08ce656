// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Failed links, from the switches' own agents: every query interval one
 * switch protocol query (proto.h, same keys as the hosts') to each
 * switch with a management address, for all its ports. A link is failed
 * while either end's agent reports its port not up. A silent agent is
 * not a dead link: what it reported is dropped after three intervals
 * without an answer, and its links count as up unless the other end says
 * otherwise (a dead switch's links are reported by its neighbours).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "ctlr.h"
#include "proto.h"

enum { SILENT_AFTER = 3 }; /* intervals without an answer */

/* A switch's agent, as we query it. */
struct cswitch {
	uint32_t node, mgmt;
	uint64_t pending; /* seq of the query not yet answered, or 0 */
	uint64_t answered_ns;
	int silent;
};

static int by_mgmt(const void *a, const void *b)
{
	uint32_t x = ((const struct cswitch *)a)->mgmt;
	uint32_t y = ((const struct cswitch *)b)->mgmt;

	return (x > y) - (x < y);
}

static const struct dard_rx_ops switch_ops;

int links_init(struct ctlr *c)
{
	size_t n = 0, k = 0;
	uint32_t i;

	dard_rx_init(&c->srx, &switch_ops, c);
	for (i = 0; i < c->t->nnodes; i++)
		n += !c->t->node[i].is_host && c->t->node[i].mgmt;

	c->down = calloc(c->t->nlinks + 1, 1);
	c->sw = calloc(n + 1, sizeof(*c->sw));
	if (!c->down || !c->sw)
		return -ENOMEM;
	for (i = 0; i < c->t->nnodes; i++)
		if (!c->t->node[i].is_host && c->t->node[i].mgmt)
			c->sw[k++] = (struct cswitch){
				.node = i, .mgmt = c->t->node[i].mgmt};
	c->nsw = n;
	qsort(c->sw, n, sizeof(*c->sw), by_mgmt);
	return 0;
}

void links_fini(struct ctlr *c)
{
	free(c->down);
	free(c->sw);
	c->down = NULL;
	c->sw = NULL;
}

/* Recounts the failed links after a change of the set (gen moved on). */
static void recount(struct ctlr *c, uint64_t gen)
{
	uint32_t i, n = 0;

	if (gen == c->fail_gen)
		return;
	for (i = 0; i < c->t->nlinks; i++)
		n += !!c->down[i];
	log_info("%u switch links failed (were %u)", n, c->nfailed);
	c->nfailed = n;
}

/* Sets or clears sw's end of each of its switch-to-switch links. */
static void set_end(struct ctlr *c, uint32_t sw, unsigned port, int down)
{
	const struct dard_link *l = dard_topo_port_link(c->t, sw, port);
	uint8_t bit, was;
	uint32_t i;

	if (!l || c->t->node[l->down].is_host)
		return;
	i = l - c->t->link;
	bit = l->up == sw ? 1 : 2;
	was = !!c->down[i];
	if (down)
		c->down[i] |= bit;
	else
		c->down[i] &= ~bit;
	/* Any link failed or back: a new set, whatever the count. */
	if (was != !!c->down[i])
		c->fail_gen++;
}

static void forget_switch(struct ctlr *c, struct cswitch *s)
{
	unsigned k;

	for_each_port(c->t, s->node, k)
		set_end(c, s->node, k, 0);
}

/*
 * The last seq of our switch queries: the process's, since its sender
 * (DARD_PROTO_SENDER_CONTROLLER) is, whatever the struct ctlr.
 */
static uint64_t query_seq;

void links_query(struct ctlr *c, uint64_t now)
{
	static uint8_t buf[DARD_MSG_MAX];
	uint64_t gen = c->fail_gen;
	size_t i, len;

	for (i = 0; i < c->nsw; i++) {
		struct cswitch *s = &c->sw[i];
		unsigned np = c->t->node[s->node].nports;

		if (s->pending && !s->silent &&
		    now - s->answered_ns >= SILENT_AFTER * c->o.query_ns) {
			log_warn("%s has not answered for %.3g s: its reports "
				 "are dropped, its links not taken for dead",
				 c->t->node[s->node].name,
				 (now - s->answered_ns) / 1e9);
			s->silent = 1;
			c->st.silent++;
			forget_switch(c, s);
		}
		/* Our clock in µs, each seq above the last (proto.h). */
		query_seq = dard_proto_next_seq(
			query_seq, dard_clock_ns(CLOCK_REALTIME) / 1000);
		/* Every port (count 0), padded to the reply's length. */
		len = dard_proto_query(buf, sizeof(buf), &c->keys->key[0],
				       DARD_PROTO_SENDER_CONTROLLER, query_seq,
				       NULL, 0, dard_proto_query_len(np));
		if (!s->pending)
			s->answered_ns = s->answered_ns ? s->answered_ns : now;
		s->pending = query_seq;
		if (!len)
			continue;
		if (c->xmit_switch(c, buf, len, s->mgmt, c->o.switch_port) <
		    0) {
			c->st.send_errors++;
			dard_log_ratelimited(&c->rl_switch, now, DARD_LOG_WARN,
					     "query to %s failed",
					     c->t->node[s->node].name);
			continue;
		}
		c->st.queries++;
	}
	recount(c, gen);
}

static struct cswitch *switch_at(struct ctlr *c, uint32_t addr)
{
	struct cswitch key = {.mgmt = addr};

	return bsearch(&key, c->sw, c->nsw, sizeof(key), by_mgmt);
}

/* No MAC is computed for a stranger's datagram. */
static int switch_source(void *arg, uint32_t addr, uint16_t port, char *why)
{
	if (switch_at(arg, addr))
		return DARD_RX_TAKEN;
	strcpy(why, "not a switch of ours");
	return DARD_RX_SOURCE;
}

/* The reply being taken: 16 KiB, kept off the stack. */
static struct dard_msg reply;

static int switch_decode(void *arg, const uint8_t *buf, size_t len, char *err)
{
	struct ctlr *c = arg;

	return dard_proto_decode(buf, len, c->keys, &reply, err);
}

static int switch_take(void *arg, size_t len, uint32_t addr, uint16_t port,
		       uint64_t now, char *why)
{
	struct ctlr *c = arg;
	struct cswitch *s = switch_at(c, addr);
	uint64_t gen = c->fail_gen;
	unsigned i;

	if (reply.type != DARD_MSG_REPLY) {
		strcpy(why, "not a reply");
		return DARD_RX_MALFORMED;
	}
	if (!s->pending || reply.seq != s->pending ||
	    reply.sender != DARD_PROTO_SENDER_CONTROLLER) {
		strcpy(why, "answers no query of ours (wrong seq)");
		return DARD_RX_SEQ;
	}
	c->st.replies++;
	s->pending = 0;
	s->answered_ns = now;
	if (s->silent)
		log_info("%s answers again", c->t->node[s->node].name);
	s->silent = 0;
	for (i = 0; i < reply.count; i++)
		set_end(c, s->node, reply.state[i].port,
			!(reply.state[i].flags & DARD_PORT_F_UP));
	recount(c, gen);
	return DARD_RX_TAKEN;
}

/* Counted in all only (query_refused); one warning a second. */
static const struct dard_rx_ops switch_ops = {
	.what = "switch reply",
	.max_len = DARD_MSG_MAX,
	.kinds = DARD_RX_BIT(PROTO) | DARD_RX_BIT(KEY) | DARD_RX_BIT(MAC) |
		 DARD_RX_BIT(SOURCE) | DARD_RX_BIT(SEQ),
	.source = switch_source,
	.decode = switch_decode,
	.take = switch_take,
	.now = ctlr_now_ns,
};

void links_receive(struct ctlr *c, const void *buf, size_t len, uint32_t addr,
		   uint16_t port, uint64_t now)
{
	dard_rx_input(&c->srx, buf, len, addr, port, now);
}
