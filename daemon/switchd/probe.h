/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-switchd's link probes. A link can fail silently, its carrier up
 * (a half-broken cable or optic, a peer whose forwarding is stuck): no
 * link event, IFF_RUNNING unchanged, and the hosts would hash new flows
 * onto it until their SYNs time out. Routers run BFD for this; its echo
 * function is what we do: every --probe-interval the agent sends an ICMP
 * echo request out of each port that leads to another switch, to the
 * peer's address on the link's /31, and the peer's kernel answers it
 * over the same link (not its agent: an agent stopped or restarting
 * takes no link down). A port none of whose echoes was answered for
 * SW_PROBE_MISSES intervals is down to the agent's answers and notices,
 * as a carrier down is, until the next answer. An echo carries a random
 * nonce of this run's, which its answer must return, so that nobody off
 * the link can answer for the peer. In an IPv6-only fabric, which has
 * no IPv4 link address, the echo is ICMPv6's, to the peer's link-local
 * address (fe80::1 or fe80::2, dard_link_ll6). Documentation/protocol.md,
 * "Link probes".
 */
#ifndef _DARD_SWITCHD_PROBE_H
#define _DARD_SWITCHD_PROBE_H

#include <stddef.h>
#include <stdint.h>

#include "addr.h"
#include "answer.h"

enum sw_probe_sizes {
	SW_PROBE_MISSES = 3, /* intervals unanswered: down (BFD's usual) */
	SW_PROBE_NONCE = 8,
	SW_PROBE_LEN = 8 + SW_PROBE_NONCE, /* ICMP header and the nonce */
	SW_PROBE_DRAIN = 16, /* answers read a port at a tick, at most */
};

/* The echo request seq with id and nonce, into buf (SW_PROBE_LEN). */
void sw_probe_echo(uint8_t *buf, uint16_t id, uint16_t seq,
		   const uint8_t *nonce);
/*
 * Whether pkt, len bytes from a raw ICMP socket (its IPv4 header first),
 * is peer's echo reply to one of ours: from peer, id and nonce ours, its
 * checksum right.
 */
int sw_probe_answer(const uint8_t *pkt, size_t len, uint32_t peer, uint16_t id,
		    const uint8_t *nonce);
/*
 * The same for ICMPv6: pkt is the ICMPv6 message (a raw socket gives no
 * IPv6 header; the kernel checked its checksum), from the address from.
 */
int sw_probe_answer6(const uint8_t *pkt, size_t len,
		     const struct in6_addr *from, const struct in6_addr *peer,
		     uint16_t id, const uint8_t *nonce);
/*
 * Port pr's state after a tick that found its last echo answered or not:
 * down at SW_PROBE_MISSES unanswered in a row, up at the first answer.
 * Counted in ticks, not time: an agent that stalls (a slow reconcile, a
 * stopped process) reads its answers late, not never, and takes no
 * port down for it.
 */
static inline void sw_probe_judge(struct sw_probe *pr)
{
	if (!pr->sent)
		return;
	if (pr->answered) {
		pr->misses = 0;
		pr->down = 0;
	} else if (++pr->misses >= SW_PROBE_MISSES) {
		pr->down = 1;
	}
	pr->answered = 0;
}

/*
 * Probes every --probe-interval (every_ns, 0: none) the ports of switch
 * sw whose links lead to switches (topology t, plan p): a socket each.
 * err (DARD_ERR_MAX).
 */
int sw_probe_open(struct sw_agent *a, const struct dard_topo *t,
		  const struct dard_plan *p, uint32_t sw, uint64_t every_ns,
		  char *err);
void sw_probe_close(struct sw_agent *a);
/* Whether port i (of a->port) is down by its probes. */
static inline int sw_probe_port_down(const struct sw_agent *a, unsigned i)
{
	return a->probe && a->probe[i].fd >= 0 && a->probe[i].down;
}
/*
 * A probe tick at now: takes the answers waiting, sends every probed
 * port an echo, and sw_notify()s a change.
 */
void sw_probe_tick(struct sw_agent *a, uint64_t now);

#endif /* _DARD_SWITCHD_PROBE_H */
