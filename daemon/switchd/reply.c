// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Counting a switch's elephants and answering a query: no I/O. */
#include <errno.h>
#include <math.h>

#include "err.h"
#include "topo.h"
#include "reply.h"

uint64_t sw_min_bytes(uint32_t mbps, double share, uint64_t window_ns)
{
	/* Mbit/s to bytes per ns is 1/8000; a double avoids the overflow. */
	double b = ceil(share * mbps * (double)window_ns / 8000.0);

	return b >= 0x1p64 ? UINT64_MAX : (uint64_t)b;
}

/* The most a flow carried in now's window w or the one before. */
static uint64_t window_bytes(const struct dard_sw_flow *f, uint64_t w)
{
	/* A window after w: another CPU's clock, as fresh as w. */
	if (f->window >= w)
		return f->bytes > f->prev ? f->bytes : f->prev;
	return f->window + 1 == w ? f->bytes : 0;
}

unsigned sw_tally(struct sw_port *port, unsigned nports,
		  const struct dard_sw_key *keys,
		  const struct dard_sw_flow *val, unsigned n, uint64_t now,
		  uint64_t window_ns, uint8_t *forget)
{
	uint64_t w = now / window_ns;
	unsigned i, k, gone = 0;

	for (k = 0; k < n; k++) {
		uint64_t seen = val[k].seen_ns;
		uint64_t age = now > seen ? now - seen : 0;
		uint64_t bytes = window_bytes(&val[k], w);

		forget[k] = age > 8 * window_ns;
		gone += forget[k];
		if (age > window_ns)
			continue;
		for (i = 0; i < nports; i++)
			if (port[i].ifindex == keys[k].ifindex &&
			    bytes >= port[i].min_bytes)
				port[i].elephants++;
	}
	return gone;
}

uint32_t sw_load_kbps(const struct sw_tx *prev, const struct sw_tx *cur)
{
	double kbps;

	if (!prev->ns || cur->ns <= prev->ns || cur->bytes < prev->bytes ||
	    cur->ifindex != prev->ifindex)
		return DARD_LOAD_UNKNOWN;
	/* bits / s / 1000; a double holds any u64 byte count closely. */
	kbps = (double)(cur->bytes - prev->bytes) * 8e6 /
	       (double)(cur->ns - prev->ns);
	return kbps >= DARD_LOAD_MAX ? DARD_LOAD_MAX : (uint32_t)kbps;
}

int sw_load_take(struct sw_port *p, const struct sw_tx *cur)
{
	int reset;

	if (!cur) {
		p->load_kbps = DARD_LOAD_UNKNOWN;
		p->tx = (struct sw_tx){0};
		return 0;
	}
	reset = p->tx.ns &&
		(cur->bytes < p->tx.bytes || cur->ifindex != p->tx.ifindex);
	p->load_kbps = sw_load_kbps(&p->tx, cur);
	p->tx = *cur;
	return reset;
}

int sw_query_decode(const void *buf, size_t len, const struct dard_keys *keys,
		    struct dard_msg *msg, char *err)
{
	int ret = dard_proto_decode(buf, len, keys, msg, err);

	if (ret)
		return ret;
	if (!dard_proto_asks(msg->type))
		return dard_fail(err, -EINVAL, "not a query or watch");
	return 0;
}

static const struct sw_port *find_port(const struct sw_port *port,
				       unsigned nports, unsigned num)
{
	unsigned i;

	for (i = 0; i < nports; i++)
		if (port[i].num == num)
			return &port[i];
	return NULL;
}

void sw_port_record(struct dard_port_state *st, unsigned num,
		    const struct sw_port *p)
{
	st->port = num;
	st->flags = p && p->up ? DARD_PORT_F_UP : 0;
	st->mbps = p ? p->mbps : 0;
	st->elephants = p ? p->elephants : 0;
	st->load_kbps = p ? p->load_kbps : DARD_LOAD_UNKNOWN;
}

/* The most records a reply to q may carry: q's length plus the slack. */
static unsigned reply_fit(const struct dard_msg *q)
{
	size_t bound = (size_t)q->len + DARD_PROTO_SLACK;
	unsigned fit = 0;

	while (fit < DARD_MSG_PORTS_MAX &&
	       dard_proto_reply_len(fit + 1) <= bound)
		fit++;
	return fit;
}

int sw_padded(const struct sw_port *port, unsigned nports,
	      const struct dard_msg *q)
{
	unsigned i, n = 0;

	for (i = 0; i < q->count && i < DARD_MSG_PORTS_MAX; i++)
		n += find_port(port, nports, q->ports[i]) != NULL;
	/* No ports: every port, as many as fit. */
	return n <= reply_fit(q);
}

size_t sw_reply(const struct sw_port *port, unsigned nports,
		const struct dard_msg *q, const struct dard_key *k, void *buf,
		size_t cap, unsigned *nports_out)
{
	static struct dard_port_state st[DARD_MSG_PORTS_MAX];
	unsigned i, n = 0, fit = reply_fit(q);

	*nports_out = 0;
	if (q->count) {
		for (i = 0; i < q->count && i < DARD_MSG_PORTS_MAX; i++) {
			const struct sw_port *p =
				find_port(port, nports, q->ports[i]);

			if (p)
				sw_port_record(&st[n++], q->ports[i], p);
		}
		if (n > fit)
			return 0;
	} else {
		for (i = 0; i < nports && n < fit; i++)
			sw_port_record(&st[n++], port[i].num, &port[i]);
	}
	*nports_out = n;
	return dard_proto_reply(buf, cap, k, q->sender, q->seq, st, n);
}
