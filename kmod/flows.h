/* SPDX-License-Identifier: GPL-2.0 */
/* The flow table: one entry per inner (ID) flow, bounded, RCU readers. */
#ifndef _DARD_FLOWS_H
#define _DARD_FLOWS_H

#include <linux/rhashtable.h>
#include <linux/spinlock.h>
#include "device.h"

/* A flow: its key, and struct dard_flow as the BPF datapath keeps it. */
struct dard_kflow {
	struct rhash_head node;
	struct dard_flow_key key;
	spinlock_t lock;     /* f's path and flags against netlink and events */
	u32 dest_gen;	     /* the path list it was placed on */
	struct list_head ev; /* in dd->ev_list while it owes an event */
	bool unlinked;	     /* out of the table: never queued again */
	struct dard_flow f;
	struct rcu_head rcu;
};

int dard_flows_init(struct dard_dev *dd);
void dard_flows_uninit(struct dard_dev *dd);
struct dard_kflow *dard_flow_lookup(struct dard_dev *dd,
				    const struct dard_flow_key *key);
/* Inserts nf, or returns the flow another CPU placed first; NULL when the
 * table is full (nf is then the caller's to free). */
struct dard_kflow *dard_flow_insert(struct dard_dev *dd, struct dard_kflow *nf);
int dard_flow_del(struct dard_dev *dd, const struct dard_flow_key *key);
/* Queues f, which owes an event, for the event work. */
void dard_flow_owes_event(struct dard_dev *dd, struct dard_kflow *f);

#endif /* _DARD_FLOWS_H */
