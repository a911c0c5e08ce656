// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Counting a switch's elephants and answering a query: no I/O. */
#include <errno.h>

#include "err.h"
#include "topo.h"
#include "reply.h"

unsigned sw_tally(struct sw_port *port, unsigned nports,
		  const struct dard_sw_key *keys, const uint64_t *seen,
		  unsigned n, uint64_t now, uint64_t window_ns, uint8_t *forget)
{
	unsigned i, k, gone = 0;

	for (k = 0; k < n; k++) {
		uint64_t age = now > seen[k] ? now - seen[k] : 0;

		forget[k] = age > 8 * window_ns;
		gone += forget[k];
		if (age > window_ns)
			continue;
		for (i = 0; i < nports; i++)
			if (port[i].ifindex == keys[k].ifindex)
				port[i].elephants++;
	}
	return gone;
}

int sw_query_decode(const void *buf, size_t len, struct dard_msg *msg,
		    char *err)
{
	int ret = dard_proto_decode(buf, len, msg, err);

	if (ret)
		return ret;
	if (msg->type != DARD_MSG_QUERY)
		return dard_fail(err, -EINVAL, "not a query");
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

/* Port num's record; p is the switch's port of that number, or NULL. */
static void state(struct dard_port_state *st, unsigned num,
		  const struct sw_port *p)
{
	st->port = num;
	st->flags = p && p->up ? DARD_PORT_F_UP : 0;
	st->mbps = p ? p->mbps : 0;
	st->elephants = p ? p->elephants : 0;
}

size_t sw_reply(const struct sw_port *port, unsigned nports,
		const struct dard_msg *q, void *buf, size_t cap,
		unsigned *nports_out)
{
	struct dard_port_state st[DARD_MSG_PORTS_MAX];
	unsigned i, n = 0;

	if (q->count)
		for (i = 0; i < q->count && i < DARD_MSG_PORTS_MAX; i++)
			state(&st[n++], q->ports[i],
			      find_port(port, nports, q->ports[i]));
	else
		for (i = 0; i < nports && n < DARD_MSG_PORTS_MAX; i++)
			state(&st[n++], port[i].num, &port[i]);
	*nports_out = n;
	return dard_proto_reply(buf, cap, q->seq, st, n);
}
