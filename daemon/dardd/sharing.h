/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Sharing the switches' answers with the hosts under our ToR (share.c,
 * on libdard's share.h). Every call is a no-op unless share_init set it
 * up.
 */
#ifndef _DARD_DARDD_SHARING_H
#define _DARD_DARDD_SHARING_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"
#include "receiver.h"
#include "share.h"

struct dardd;
struct sw;

/* A host under our ToR, and what we keep of it (share.c). */
struct peer {
	uint32_t mgmt, id;
	uint64_t seq_in;	    /* its last seq taken, 0: none */
	uint64_t want_ns;	    /* when its last WANT came, 0: never */
	uint8_t *want;		    /* per directed link: its last WANT's */
	unsigned nwant;		    /* links in it: 0, no monitors */
	int owed;		    /* our WANT goes to it at our next tick */
	uint64_t sent_sig, sent_ns; /* the last WANT we sent it, when */
	struct dard_share_msg *out; /* the records it wants, to send */
	uint64_t *out_ns; /* per record in out: when its switch answered */
};

/* Sharing the switches' answers with the hosts under our ToR (share.c). */
struct share {
	int on; /* set up, and not --no-share */
	struct dard_share_scope sc;
	struct dard_share_seen seen;
	struct peer *peer;
	unsigned npeers;
	uint64_t prev_tick;	    /* our previous query tick, 0: none yet */
	unsigned outstanding;	    /* this tick's queries not answered yet */
	uint64_t want_sig, want_ns; /* our last WANT, when sent */
	uint8_t *need;		    /* per directed link: scratch */
	struct dard_share_msg *msg; /* decoded, or being built */
	struct dard_rx rx;	    /* the peers' datagrams, taken or refused */
};

/*
 * share.c: the switches' answers shared with the hosts under our ToR
 * (share.h). Every call is a no-op unless share_init set it up.
 */
int share_init(struct dardd *d);
/* The SHARE socket on our management address; 0 or -1, logged. */
int share_open(struct dardd *d);
void share_fini(struct dardd *d);
/* A query tick begins: what is left to send goes, and our WANT if due. */
void share_tick(struct dardd *d, uint64_t now);
/* Whether dl need not be asked this tick: a peer's share covers it. */
int share_covered(struct dardd *d, uint32_t dl);
/* Adds to switch n's query the ports a peer wants; after our own. */
void share_add_wanted(struct dardd *d, uint32_t n, struct sw *s, uint64_t now);
/* This tick's queries are sent: nq of them, the tick at now. */
void share_sent(struct dardd *d, unsigned nq, uint64_t now);
/* Switch n's authentic reply, applied: its records for the peers. */
void share_reply(struct dardd *d, uint32_t n, const struct dard_msg *msg,
		 uint64_t now);
/* Switch n's notice: its records to the peers that want them, at once. */
void share_notice(struct dardd *d, uint32_t n, const struct dard_msg *msg,
		  uint64_t now);
/* One datagram from addr:port (host byte order). */
void share_input(struct dardd *d, const uint8_t *buf, size_t len, uint32_t addr,
		 uint16_t port, uint64_t now);
/* As query_receive(), from the SHARE socket. */
unsigned share_receive(struct dardd *d);

#endif /* _DARD_DARDD_SHARING_H */
