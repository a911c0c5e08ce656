// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The host table: every host's reported elephants, taken only from an
 * authenticated message of a host of our tree, sent from that host's
 * management address, with a fresh seq and our topology digest
 * (Documentation/protocol.md, "Controller protocol"). Nothing here ever
 * answers: pushes go out per round (round.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "clock.h"
#include "ctlr.h"
#include "err.h"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The host whose ID is id, or DARD_NONE: a binary search, as every
 * record of every report asks (dard_topo_find_id walks the hosts).
 */
static uint32_t host_by_id(const struct ctlr *c, uint32_t id)
{
	uint32_t lo = 0, hi = c->nhosts, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (c->byid[mid] >> 32 < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < c->nhosts && c->byid[lo] >> 32 == id)
		return (uint32_t)c->byid[lo];
	return DARD_NONE;
}

static const struct dard_rx_ops host_ops;

int hosts_init(struct ctlr *c)
{
	uint32_t i;

	dard_rx_init(&c->hrx, &host_ops, c);
	c->nhosts = c->t->nhosts;
	c->host = calloc(c->nhosts ? c->nhosts : 1, sizeof(*c->host));
	c->mgmt = calloc(c->nhosts ? c->nhosts : 1, sizeof(*c->mgmt));
	c->byid = calloc(c->nhosts ? c->nhosts : 1, sizeof(*c->byid));
	if (!c->host || !c->mgmt || !c->byid)
		return -ENOMEM;
	for (i = 0; i < c->nhosts; i++) {
		c->host[i].node = c->t->hosts[i];
		c->mgmt[i] = c->t->node[c->t->hosts[i]].mgmt;
		c->byid[i] = (uint64_t)c->t->node[c->t->hosts[i]].id << 32 |
			     c->t->hosts[i];
	}
	qsort(c->mgmt, c->nhosts, sizeof(*c->mgmt), cmp_u32);
	qsort(c->byid, c->nhosts, sizeof(*c->byid), cmp_u64);
	c->nmgmt = c->nhosts;
	c->flows_max = CTLR_FLOWS_MAX;
	return 0;
}

void hosts_fini(struct ctlr *c)
{
	uint32_t i;

	for (i = 0; c->host && i < c->nhosts; i++)
		free(c->host[i].flow);
	free(c->host);
	free(c->mgmt);
	free(c->byid);
	c->host = NULL;
	c->mgmt = NULL;
	c->byid = NULL;
}

static struct cflow *find_flow(struct chost *h, const struct dard_flow_key *k)
{
	unsigned i;

	for (i = 0; i < h->nflows; i++)
		if (!memcmp(&h->flow[i].key, k, sizeof(*k)))
			return &h->flow[i];
	return NULL;
}

static void drop_flow(struct ctlr *c, struct chost *h, struct cflow *f)
{
	*f = h->flow[--h->nflows];
	c->nflows--;
}

static void forget(struct ctlr *c, struct chost *h)
{
	c->nflows -= h->nflows;
	h->nflows = 0;
	h->in_set = 0;
	h->heard_ns = 0;
	h->wsent = 0;
	c->st.forgotten++;
}

/*
 * A record's flow must be the sender's (its source address the host's
 * ID) to another host of the tree, on a path that exists.
 */
static int check_flow(struct ctlr *c, const struct chost *h,
		      const struct dard_cp_flow *r, uint32_t *dst, char *why)
{
	const struct dard_node *me = &c->t->node[h->node];
	const struct cpset *ps;
	uint32_t d;

	if (ntohl(r->key.saddr) != me->id)
		return dard_fail(why, -EINVAL, "a flow from %s, not from %s",
				 inet_ntoa((struct in_addr){r->key.saddr}),
				 me->name);
	d = host_by_id(c, ntohl(r->key.daddr));
	if (d == DARD_NONE || d == h->node)
		return dard_fail(why, -EINVAL, "a flow to %s, no other host",
				 inet_ntoa((struct in_addr){r->key.daddr}));
	if (r->flags & DARD_CP_FL_END) {
		*dst = d;
		return 0;
	}
	if (paths_get(c, h->node, d, &ps))
		return dard_fail(why, -ENOMEM, "out of memory");
	if (r->path >= ps->npaths)
		return dard_fail(why, -EINVAL,
				 "path %u of a flow to %s (of %u)", r->path,
				 c->t->node[d].name, ps->npaths);
	*dst = d;
	return 0;
}

static int add_flow(struct ctlr *c, struct chost *h,
		    const struct dard_cp_flow *r, uint32_t dst)
{
	struct cflow *f = find_flow(h, &r->key);

	if (!f) {
		if (h->nflows >= CTLR_HOST_FLOWS_MAX ||
		    c->nflows >= c->flows_max)
			return -ENOSPC;
		if (h->nflows == h->cap) {
			unsigned cap = h->cap ? 2 * h->cap : 8;
			struct cflow *n = realloc(h->flow, cap * sizeof(*n));

			if (!n)
				return -ENOMEM;
			h->flow = n;
			h->cap = cap;
		}
		f = &h->flow[h->nflows++];
		c->nflows++;
		f->key = r->key;
		f->dst = dst;
		f->assigned = -1;
		f->refused = -1;
	}
	f->path = r->path;
	f->gen = h->gen;
	return 0;
}

/*
 * A full report (FIRST ... LAST) replaces the host's flows: those not in
 * it are gone. Datagrams without either flag, a full report's middle ones
 * and the incremental reports alike, add and end flows as they come.
 */
static void on_report(struct ctlr *c, struct chost *h,
		      const struct dard_cp_msg *m, uint64_t now)
{
	char why[DARD_ERR_MAX];
	unsigned i;

	c->st.reports++;
	c->st.report_bytes += m->len;
	if (m->flags & DARD_CP_F_FIRST) {
		h->gen++;
		h->in_set = 1;
	}
	for (i = 0; i < m->count; i++) {
		const struct dard_cp_flow *r = &m->flow[i];
		struct cflow *f;
		uint32_t dst = DARD_NONE;

		if (check_flow(c, h, r, &dst, why)) {
			dard_rx_refuse(&c->hrx, DARD_RX_FLOW, h->addr, h->port,
				       why, now);
			continue;
		}
		if (r->flags & DARD_CP_FL_END) {
			f = find_flow(h, &r->key);
			if (f)
				drop_flow(c, h, f);
		} else if (add_flow(c, h, r, dst)) {
			snprintf(why, sizeof(why),
				 "%s has %u flows already (all hosts %u), or "
				 "memory ran out",
				 c->t->node[h->node].name, h->nflows,
				 c->nflows);
			dard_rx_refuse(&c->hrx, DARD_RX_FLOW, h->addr, h->port,
				       why, now);
		}
	}
	if ((m->flags & DARD_CP_F_LAST) && h->in_set) {
		for (i = 0; i < h->nflows;)
			if (h->flow[i].gen != h->gen)
				drop_flow(c, h, &h->flow[i]);
			else
				i++;
		h->in_set = 0;
	}
}

/* The flows the host could not move are placed afresh next round, on
 * another path than the one it could not take. */
static void on_ack(struct ctlr *c, struct chost *h, const struct dard_cp_msg *m,
		   uint64_t now)
{
	unsigned i;

	c->st.acks++;
	for (i = 0; i < m->count; i++) {
		struct cflow *f = find_flow(h, &m->flow[i].key);

		if (!(m->flow[i].flags & DARD_CP_FL_FAILED))
			continue;
		c->st.ack_failed++;
		if (!f)
			continue;
		/* Never pushed there again (round.c), placed afresh. */
		f->refused = m->flow[i].path;
		f->refused_ns = now;
		f->assigned = -1;
	}
}

/*
 * Who may send m from addr: the host it names, from its mgmt address;
 * DARD_RX_TAKEN with it in *hp, or the refusal.
 */
static int sender_of(struct ctlr *c, const struct dard_cp_msg *m, uint32_t addr,
		     struct chost **hp, char *why)
{
	uint32_t node = host_by_id(c, m->sender);
	char err[DARD_ERR_MAX];
	const struct dard_node *n;
	struct chost *h;
	int ret;

	if (m->type != DARD_CP_REPORT && m->type != DARD_CP_ACK) {
		snprintf(why, DARD_RX_WHY_MAX,
			 "a %s: hosts send reports and acks",
			 dard_cp_type_name(m->type));
		return DARD_RX_MALFORMED;
	}
	if (node == DARD_NONE) {
		snprintf(why, DARD_RX_WHY_MAX, "sender %s is no host of %s",
			 inet_ntoa((struct in_addr){htonl(m->sender)}),
			 dard_topo_label(c->t));
		return DARD_RX_SENDER;
	}
	n = &c->t->node[node];
	if (n->mgmt != addr) {
		snprintf(why, DARD_RX_WHY_MAX,
			 "sender %s's management address is %s", n->name,
			 inet_ntoa((struct in_addr){htonl(n->mgmt)}));
		return DARD_RX_SOURCE;
	}
	if (m->topo != c->topo) {
		snprintf(why, DARD_RX_WHY_MAX,
			 "topology differs (%s's digest %08x, ours %08x)",
			 n->name, m->topo, c->topo);
		return DARD_RX_TOPO;
	}
	h = &c->host[n->rank];
	/*
	 * Seqs are the hosts' clocks (cproto.h): fresh means above the last
	 * taken and within DARD_CP_SKEW_NS of ours, so a recording replays
	 * to no one after our restart once it is that old.
	 */
	ret = dard_cp_seq_check(m->seq, h->seq, dard_clock_ns(CLOCK_REALTIME),
				err);
	if (ret) {
		snprintf(why, DARD_RX_WHY_MAX, "%s: %s", n->name, err);
		return dard_rx_kind_of(ret);
	}
	*hp = h;
	return DARD_RX_TAKEN;
}

/* No MAC is computed for a stranger's datagram. */
static int host_source(void *arg, uint32_t addr, uint16_t port, char *why)
{
	struct ctlr *c = arg;

	if (bsearch(&addr, c->mgmt, c->nmgmt, sizeof(addr), cmp_u32))
		return DARD_RX_TAKEN;
	strcpy(why, "no host's management address");
	return DARD_RX_SOURCE;
}

/* The datagram being taken: a few KiB, kept off the stack. */
static struct dard_cp_msg in;

static int host_decode(void *arg, const uint8_t *buf, size_t len, char *err)
{
	struct ctlr *c = arg;

	return dard_cp_decode(buf, len, c->keys, &in, err);
}

static int host_take(void *arg, size_t len, uint32_t addr, uint16_t port,
		     uint64_t now, char *why)
{
	struct ctlr *c = arg;
	struct chost *h;
	int ret = sender_of(c, &in, addr, &h, why);

	if (ret != DARD_RX_TAKEN)
		return ret;
	h->seq = in.seq;
	if (!h->heard_ns)
		log_debug("%s reports", c->t->node[h->node].name);
	h->heard_ns = now;
	h->addr = addr;
	h->port = port;
	if (in.type == DARD_CP_REPORT)
		on_report(c, h, &in, now);
	else
		on_ack(c, h, &in, now);
	return DARD_RX_TAKEN;
}

/* One warning a second in all: the controller's log stays short. */
static const struct dard_rx_ops host_ops = {
	.what = "datagram",
	.max_len = DARD_CP_MSG_MAX,
	.kinds = DARD_RX_KINDS_OF(CTLR_HOST_REFUSALS),
	.source = host_source,
	.decode = host_decode,
	.take = host_take,
	.now = ctlr_now_ns,
};

void ctlr_receive(struct ctlr *c, const void *buf, size_t len, uint32_t addr,
		  uint16_t port, uint64_t now)
{
	dard_rx_input(&c->hrx, buf, len, addr, port, now);
}

void hosts_expire(struct ctlr *c, uint64_t now)
{
	uint32_t i;

	for (i = 0; i < c->nhosts; i++) {
		struct chost *h = &c->host[i];

		if (!host_live(h) || now - h->heard_ns <= c->o.host_timeout_ns)
			continue;
		log_info("%s silent for %.3g s: its %u flows forgotten",
			 c->t->node[h->node].name, (now - h->heard_ns) / 1e9,
			 h->nflows);
		forget(c, h);
	}
}
