/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-switchd's answers without the I/O: each port's elephants counted
 * from a snapshot of the counter's table, and the reply to a query built
 * from the ports' state. Pure, for the unit tests.
 */
#ifndef _DARD_SWITCHD_REPLY_H
#define _DARD_SWITCHD_REPLY_H

#include <net/if.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/dard.h>

#include "proto.h"

/* A sample of a port's interface counter: tx_bytes at ns (0: none). */
struct sw_tx {
	uint64_t bytes, ns;
	unsigned ifindex; /* the interface it was read from */
};

/* One port of the switch: a link in the topology and an interface here. */
struct sw_port {
	unsigned num; /* the port's number in the topology */
	unsigned ifindex;
	char ifname[IF_NAMESIZE];
	uint32_t mbps;
	uint32_t elephants; /* at the last count */
	uint64_t min_bytes; /* a flow counts with this many in a window */
	int up;		    /* the link was up at the last look */
	int told;	    /* what the watchers were told (notice.h) */
	uint32_t load_kbps; /* over the last window; DARD_LOAD_UNKNOWN */
	struct sw_tx tx;    /* the last good sample of its counter */
};

/*
 * The load between two samples of a port's counter, in kbit/s rounded
 * down and saturated at DARD_LOAD_MAX; DARD_LOAD_UNKNOWN when there is
 * no earlier sample, time did not advance, or the counter went back or
 * was read from another interface (the link created anew): no honest
 * rate for that window.
 */
uint32_t sw_load_kbps(const struct sw_tx *prev, const struct sw_tx *cur);
/*
 * Takes sample cur of port p (NULL: not read, the interface is gone):
 * sets its load from the last sample and keeps cur as the last. Returns
 * 1 when the counter was reset (the load is not measured), else 0.
 */
int sw_load_take(struct sw_port *p, const struct sw_tx *cur);

/*
 * The bytes a marked flow must carry in a window of window_ns to count
 * as an elephant on a port of mbps: share of what the port can send in
 * it, rounded up (0 for share 0: every flow counts, as in the paper).
 */
uint64_t sw_min_bytes(uint32_t mbps, double share, uint64_t window_ns);

/*
 * Adds the n entries (key, value) of a snapshot that were seen within
 * window_ns of now, and carried their port's min_bytes in now's window
 * or the one before, to their ports' elephants; an entry seen after now
 * (another CPU's clock) is fresh. Sets forget[k] for entries unseen for
 * over 8 windows, for the caller to delete, and returns how many.
 */
unsigned sw_tally(struct sw_port *port, unsigned nports,
		  const struct dard_sw_key *keys,
		  const struct dard_sw_flow *val, unsigned n, uint64_t now,
		  uint64_t window_ns, uint8_t *forget);

/*
 * Decodes a query or watch into msg: 0, or dard_proto_decode's -errno, or
 * -EINVAL for a reply or notice, with err (DARD_ERR_MAX) why.
 */
int sw_query_decode(const void *buf, size_t len, const struct dard_keys *keys,
		    struct dard_msg *msg, char *err);

/*
 * Whether q is padded for its reply: its ports of ours' records fit in
 * its length plus DARD_PROTO_SLACK (no ports: always, as many as fit).
 */
int sw_padded(const struct sw_port *port, unsigned nports,
	      const struct dard_msg *q);

/* Port num's record; p is the switch's port of that number, or NULL. */
void sw_port_record(struct dard_port_state *st, unsigned num,
		    const struct sw_port *p);

/*
 * The reply to query q from the ports' state, signed with k, written into
 * buf: its length, 0 if cap is too small or the reply would be longer
 * than q plus DARD_PROTO_SLACK (an unpadded query: unanswered, so that
 * nobody amplifies through us); it echoes q's sender and seq. Ports the
 * switch does not have get no record; a query without ports asks for
 * every port, as many as fit in that bound. *nports_out: the ports
 * answered.
 */
size_t sw_reply(const struct sw_port *port, unsigned nports,
		const struct dard_msg *q, const struct dard_key *k, void *buf,
		size_t cap, unsigned *nports_out);

#endif /* _DARD_SWITCHD_REPLY_H */
