/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The datapath (flows.c): its events and walks of its flow table.
 */
#ifndef _DARD_DARDD_FLOWS_H
#define _DARD_DARDD_FLOWS_H

#include <stdint.h>
#include <linux/dard.h>

struct dardd;

/* flows.c: the datapath, its events and its flow table. */
int flows_open(struct dardd *d);
void flows_fini(struct dardd *d);
int flows_on_event(const struct dard_event *ev, void *arg);
/* Our elephants against the flow table; idle flows forgotten. */
void flows_sweep(struct dardd *d, uint64_t now);

#endif /* _DARD_DARDD_FLOWS_H */
