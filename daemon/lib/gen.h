/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Generators for the paper's topologies. Pure: no I/O. */
#ifndef _DARD_GEN_H
#define _DARD_GEN_H

#include "topo.h"

enum dard_gen_limits {
	DARD_FATTREE_MAX = 64, /* p; fattree:64 has 65,536 hosts */
	DARD_CLOS_MAX = 128,   /* D_I and D_A */
};

/* Fat-tree of p-port switches: p^2/4 cores, p pods, p^3/4 hosts. */
struct dard_topo *dard_gen_fattree(unsigned p, uint32_t mbps, char *err);
/*
 * The same, its ToRs tapered taper:1 (the SDN thesis's 3:1 tree has 24 hosts
 * and 8 up ports per ToR): u = p/(taper + 1) up ports and taper * u hosts
 * per ToR, u aggregation switches and p/2 ToRs per pod, u * p/2 cores.
 * The aggregation switches are not tapered. taper + 1 must divide p.
 */
struct dard_topo *dard_gen_fattree_tapered(unsigned p, unsigned taper,
					   uint32_t mbps, char *err);
/* VL2 Clos: D_A/2 intermediates, D_I aggregation, D_A*D_I/4 ToRs. */
struct dard_topo *dard_gen_clos(unsigned di, unsigned da, unsigned hosts,
				uint32_t mbps, char *err);
/* The paper's 8-core three-tier tree: access 2.5:1, aggregation 1.5:1. */
struct dard_topo *dard_gen_3tier(unsigned pods, uint32_t mbps, char *err);

/*
 * "fattree:P[,T]", "clos:DI,DA[,HOSTS]" or "3tier[:PODS]". Returns NULL with
 * err filled when spec is not one of these or memory runs out.
 */
struct dard_topo *dard_gen_spec(const char *spec, uint32_t mbps, char *err);
/* Whether spec names a generator (as opposed to a file). */
int dard_gen_is_spec(const char *spec);

#endif /* _DARD_GEN_H */
