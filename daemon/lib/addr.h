/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * NIRA-style hierarchical addressing (DARD paper, section 2.3). Every root
 * owns a prefix and allocates a sub-prefix to the subtree below each of its
 * down ports, recursively, so a host owns one alias per root-to-host path.
 *
 * An alias is base | field 0 | field 1 | ... | field nlevels, from the top:
 *   field 0        the root's index among the roots
 *   field l        the port of the level l-1 switch that the chain takes
 *   field nlevels  the host field: the ToR's host port + 1
 * Paper mode (section 2.3) gives every field 6 bits and numbers ports from
 * 1; compact mode gives each field the fewest bits its fan-out needs and
 * numbers down ports from 0 in port order. In both modes host field values
 * 0 and 1 are never hosts: 0 is the ToR's subnet, 1 the ToR itself.
 * Pure: no I/O. Addresses are in host byte order.
 */
#ifndef _DARD_ADDR_H
#define _DARD_ADDR_H

#include <stdint.h>
#include <netinet/in.h>

#include "topo.h"

enum dard_addr_mode {
	DARD_MODE_AUTO, /* paper if the tree fits, else compact */
	DARD_MODE_PAPER,
	DARD_MODE_COMPACT,
};

enum { DARD_PAPER_BITS = 6, DARD_ALLOC_MAX = 1 << 26 };

struct dard_prefix {
	uint32_t addr;
	uint8_t len;
};

/* Which address families a fabric's hosts and switches use (addr6.h). */
enum dard_family {
	DARD_FAMILY_IPV4, /* the default */
	DARD_FAMILY_IPV6, /* IPv6 only: the IPv4 plan is its layout alone */
	DARD_FAMILY_DUAL,
};

struct dard_prefix6 {
	struct in6_addr addr;
	uint8_t len;
};

/* The outer header ID traffic crosses the fabric in (addr6.h). */
enum dard_outer {
	DARD_OUTER_AUTO, /* IPv6 in an IPv6-only fabric, else IPv4 */
	DARD_OUTER_IPV4, /* IP-in-IP */
	DARD_OUTER_IPV6, /* 4in6 */
};

/* What an operator chooses; dard_plan_opts_init() gives the defaults. */
struct dard_plan_opts {
	struct dard_prefix base;  /* aliases: 10.0.0.0/8 */
	struct dard_prefix ids;	  /* host IDs: 172.16.0.0/16 */
	struct dard_prefix links; /* /31 per link: 172.20.0.0/14 */
	struct dard_prefix mgmt;  /* management LAN: 172.24.0.0/16 */
	int mode;
	int family;		   /* enum dard_family */
	int outer;		   /* enum dard_outer */
	struct dard_prefix6 base6; /* IPv6 aliases: fd00:da::/48 */
	struct dard_prefix6 ids6;  /* IPv6 host IDs: fd00:da:1::/64 */
};

/* One prefix allocated to a switch, and the up port it came through. */
struct dard_alloc {
	uint32_t prefix;
	uint16_t up_port; /* 0 for a root's own prefix */
	uint16_t pad;
};

struct dard_plan {
	struct dard_plan_opts opts;
	int mode;	 /* PAPER or COMPACT, never AUTO */
	uint8_t nfields; /* topo->nlevels + 1 */
	uint8_t width[DARD_LEVEL_MAX + 1];
	uint8_t shift[DARD_LEVEL_MAX + 1];
	uint8_t plen[DARD_LEVEL_MAX + 1]; /* prefix length at each level */
	/* The same for the IPv6 aliases; all 0 in an IPv4 fabric. */
	uint8_t width6[DARD_LEVEL_MAX + 1];
	uint8_t shift6[DARD_LEVEL_MAX + 1];
	uint8_t plen6[DARD_LEVEL_MAX + 1];
	struct dard_alloc *alloc; /* node->alloc indexes this */
	uint32_t nalloc;
	uint32_t *link_val; /* field value at each link's upper end */
};

void dard_plan_opts_init(struct dard_plan_opts *o);
/*
 * Allocates every switch's prefixes and fills unset host IDs and mgmt.
 * NULL with the reason in err (DARD_ERR_MAX) on failure.
 */
struct dard_plan *dard_plan_new(struct dard_topo *t,
				const struct dard_plan_opts *o, char *err);
/*
 * The same, for a caller that wants the code (0 or a negative errno) and,
 * when node is not NULL, the node the reason is about in *node
 * (DARD_NONE when it is about no one node).
 */
int dard_plan_build(struct dard_topo *t, const struct dard_plan_opts *o,
		    struct dard_plan **out, uint32_t *node, char *err);
void dard_plan_free(struct dard_plan *p);

/* A host's number of aliases and its i-th alias. */
uint32_t dard_plan_naliases(const struct dard_topo *t, uint32_t host);
uint32_t dard_plan_alias(const struct dard_topo *t, const struct dard_plan *p,
			 uint32_t host, uint32_t i);
/*
 * The chain of nodes an alias was allocated along, root first:
 * chain[0..nlevels], chain[nlevels] being the host. Returns the host, or
 * DARD_NONE with err saying why addr is not an alias.
 */
uint32_t dard_plan_decode(const struct dard_topo *t, const struct dard_plan *p,
			  uint32_t addr, uint32_t *chain, char *err);
/* The alias that chain[0..nlevels] names: the inverse of decode. */
uint32_t dard_plan_encode(const struct dard_topo *t, const struct dard_plan *p,
			  const uint32_t *chain);
/* Address of one end of a link on the /31 link network. */
uint32_t dard_plan_link_addr(const struct dard_plan *p, uint32_t link,
			     int upper);

const char *dard_mode_name(int mode);
int dard_mode_parse(const char *s);
uint32_t dard_mask(unsigned len);
/* A prefix length after its '/': decimal digits, at most max; 0 or -EINVAL. */
int dard_plen_parse(const char *s, unsigned max, unsigned *len);
/* "a.b.c.d/len" or "a.b.c.d" (a /32); 0 or -EINVAL. */
int dard_prefix_parse(const char *s, struct dard_prefix *p);
int dard_addr_parse(const char *s, uint32_t *addr);
/* Formats into buf (at least 16 or 19 bytes) and returns buf. */
char *dard_addr_str(uint32_t addr, char *buf);
char *dard_prefix_str(uint32_t addr, unsigned len, char *buf);

/* An IP protocol's name: "255" and its NUL fit. */
enum { DARD_IPPROTO_STRLEN = 4 };
/*
 * tcp, udp, icmp or the protocol's number, as dardctl and dardd both print
 * a flow's protocol; returns a constant name or buf.
 */
const char *dard_ipproto_name(uint8_t proto, char buf[DARD_IPPROTO_STRLEN]);
/* tcp, udp, icmp or a number 0-255; 0, -EINVAL or -ERANGE (num.h). */
int dard_ipproto_parse(const char *s, uint8_t *proto);

#endif /* _DARD_ADDR_H */
