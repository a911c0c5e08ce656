/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The topology and address plan the options name, loaded once. */
#ifndef _DARD_LOAD_H
#define _DARD_LOAD_H

#include <stdint.h>

struct ctl;

/*
 * Loads c->cfg from -t (else $DARD_CONFIG, else the default file) with
 * the generator and address options, once; prints the reason, -1.
 */
int ctl_load(struct ctl *c);
/*
 * Looks a node of the loaded topology up by name: want_host 1 for a host,
 * 0 for a switch, -1 for either; prints an error and returns DARD_NONE.
 */
uint32_t ctl_node(struct ctl *c, const char *name, int want_host);

#endif /* _DARD_LOAD_H */
