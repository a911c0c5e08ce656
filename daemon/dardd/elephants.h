/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Our elephants (elephants.c): a table by flow key, and nothing more.
 */
#ifndef _DARD_DARDD_ELEPHANTS_H
#define _DARD_DARDD_ELEPHANTS_H

#include <stddef.h>
#include <stdint.h>
#include <linux/dard.h>

#include "monitor.h"

struct dardd;
struct mon;

enum { HIST_MAX = 8 };

/*
 * How long a path the datapath left on its own twice is not assigned
 * again. Once is not enough: a timeout is as often congestion (the
 * flows colliding before the controller placed them) as a fault, and
 * the controller knows which links are up; a second timeout on the same
 * path after it sent the flow back is the datapath's evidence of a fault
 * the switches do not report (cpapply.c).
 */
#define DARDD_LEFT_NS (10ULL * 1000000000ULL)
enum { DARDD_LEFT_TIMES = 2 };

/* One of our elephants (elephants.c). */
struct elephant {
	struct dard_flow_key key;
	uint32_t dst;		     /* destination host */
	struct mon *mon;	     /* its ToR pair's monitor */
	struct dard_alias_pair pair; /* where the datapath sends it */
	int path;		     /* index among mon's paths, or -1 */
	uint64_t since_ns;	     /* when it became an elephant */
	uint64_t first_ns;	     /* when it began (the flow table's) */
	double pvlb_next;	     /* s: its next pVLB re-pick, 0: unset */
	unsigned moves;		     /* ours, + earlier ones if adopted */
	unsigned neutral;	     /* of ours, neutral ones (mode->escape) */
	uint64_t moved_ns;	     /* our rounds' last move of it, or 0 */
	double moved_rate;	     /* Mbit/s then (the round's), 0: unknown */
	double moved_est;	     /* what that move expected, 0: unknown */
	/* Its rate over the last walk of the flow table (flows.c), for
	 * dard_monitor_quiet: Mbit/s, < 0 until two walks saw it; and at
	 * its monitor's last idle round, 0: none. */
	double rate, idle_rate;
	uint64_t rate_bytes, rate_ns;
	struct {
		uint64_t ns;
		int path;
	} hist[HIST_MAX]; /* paths taken, oldest dropped; from adoption on */
	unsigned nhist;
	int seen; /* in the last walk of the table */
	/* The datapath's own evidence (flows.c's walk): its count of moves
	 * by userspace when last seen (dp_known), and the path it left on
	 * its own (dead or timed out), -1 none, when we saw it last, and
	 * how many times in a row it left it within DARDD_LEFT_NS. */
	uint32_t dp_moves;
	int dp_known, left;
	unsigned left_times;
	uint64_t left_ns;
	struct elephant *next, **pprev; /* all, unlinked in O(1) */
	struct elephant *hnext;		/* its hash bucket */
};

/* Elephants by flow key: every event and every flow-table entry looks. */
enum { EL_BUCKETS = 1024 };

/* elephants.c: the table of our elephants, by flow key. */
void elephants_init(struct dardd *d);
void elephants_fini(struct dardd *d);
struct elephant *el_find(struct dardd *d, const struct dard_flow_key *k);
/* A new entry for k, to host dst, in no monitor yet (path -1); NULL when
 * out of memory. track_add() fills in the rest. */
struct elephant *el_insert(struct dardd *d, const struct dard_flow_key *k,
			   const struct dard_alias_pair *pair, uint32_t dst,
			   uint64_t now);
/* Unlinks and frees e: track_end() has told the others. */
void el_remove(struct dardd *d, struct elephant *e);
void el_hist_add(struct elephant *e, uint64_t now, int path);
/* Our elephants of one monitor, for dard_monitor_round. */
void el_iter(struct mon *mon, struct dard_flow_iter *it);
const char *flow_str(const struct dard_flow_key *k, char *buf, size_t len);

#endif /* _DARD_DARDD_ELEPHANTS_H */
