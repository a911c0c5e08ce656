/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * IPv6 NIRA addressing: the plan of addr.h in IPv6. An IPv6 alias carries
 * the same fields as the host's IPv4 alias, re-encoded one by one:
 *
 *   base6 | zeros | field 0 | field 1 | ... | field nlevels
 *
 * the fields at the low end, each 16 bits (one group of the address) when
 * they all fit below base6, else its IPv4 width rounded up to a nibble. So
 * with base6 fd00:da::/48 on fattree:4 (paper mode) host 1 of tor1_1 has
 * fd00:da::1:1:1:2 through root 1, and a switch's prefix is one group
 * shorter per level up: every prefix is a whole number of groups. The map
 * between the two families is a bijection on the plan's aliases and
 * prefixes, so the IPv4 plan's allocation, decoding and checks serve both;
 * in an IPv6-only fabric the IPv4 plan is that layout and nothing more.
 *
 * A host's IPv6 ID is ids6 plus the offset of its IPv4 ID in ids (an ID is
 * always inside ids): the same host, in either family. Pure: no I/O.
 */
#ifndef _DARD_ADDR6_H
#define _DARD_ADDR6_H

#include <stdint.h>
#include <netinet/in.h>

#include "addr.h"

/* Room for any prefix: an address, '/' and three digits. */
enum { DARD_PREFIX6_STRLEN = INET6_ADDRSTRLEN + 4 };

const char *dard_family_name(int family);
/* ipv4, ipv6 or dual; the family or -EINVAL. */
int dard_family_parse(const char *s);

static inline int dard_family_has4(int family)
{
	return family != DARD_FAMILY_IPV6;
}

static inline int dard_family_has6(int family)
{
	return family != DARD_FAMILY_IPV4;
}

const char *dard_outer_name(int outer);
/* auto, ipv4 or ipv6; the outer or -EINVAL. */
int dard_outer_parse(const char *s);
/* Whether ID traffic crosses p's fabric in IPv6 (4in6). */
int dard_plan_outer6(const struct dard_plan *p);
/*
 * Whether o's outer and family go together: IPv6 needs a fabric with it,
 * IPv4 one with IPv4 aliases. 0 or -EINVAL with the reason in err.
 */
int dard_outer_check(const struct dard_plan_opts *o, char *err);

/* An IPv6 address: 0 or -EINVAL. */
int dard_addr6_parse(const char *s, struct in6_addr *a);
/* "ADDR/LEN" or "ADDR" (a /128), no host bits set: 0 or -EINVAL. */
int dard_prefix6_parse(const char *s, struct dard_prefix6 *p);
/* Format into buf (INET6_ADDRSTRLEN or DARD_PREFIX6_STRLEN), return buf. */
char *dard_addr6_str(const struct in6_addr *a, char *buf);
char *dard_prefix6_str(const struct in6_addr *a, unsigned len, char *buf);
/* Whether a lies in p, and whether two prefixes share an address. */
int dard_in_prefix6(const struct in6_addr *a, const struct dard_prefix6 *p);
int dard_prefix6_overlap(const struct dard_prefix6 *a,
			 const struct dard_prefix6 *b);

/*
 * Fills p's width6, shift6 and plen6 from its IPv4 layout and checks
 * base6 and ids6; called by dard_plan_build() for a fabric with IPv6.
 * 0 or a negative errno with the reason in err.
 */
int dard_plan6_layout(struct dard_plan *p, char *err);

/*
 * The IPv6 form of an IPv4 alias or allocated prefix of p (an address in
 * base), and back: dard_plan_v4() returns 0, or -EINVAL with the reason
 * in err when a is outside base6 or carries bits no field has.
 */
void dard_plan_v6(const struct dard_plan *p, uint32_t v4, struct in6_addr *a);
int dard_plan_v4(const struct dard_plan *p, const struct in6_addr *a,
		 uint32_t *v4, char *err);

struct dard_layout6;
/*
 * 4in6: p's field layout as both datapaths read it (struct dard_layout6
 * of <linux/dard.h>, the arithmetic <linux/dard_layout6.h>'s), outer6
 * set: the BPF program's read-only layout6, the module's DARD_A_LAYOUT6.
 */
void dard_plan_layout6(struct dard_layout6 *l, const struct dard_plan *p);

/* A host's i-th IPv6 alias and its IPv6 ID. */
void dard_plan_alias6(const struct dard_topo *t, const struct dard_plan *p,
		      uint32_t host, uint32_t i, struct in6_addr *a);
void dard_plan_id6(const struct dard_topo *t, const struct dard_plan *p,
		   uint32_t host, struct in6_addr *a);
/* The host whose IPv6 ID is a, or DARD_NONE. */
uint32_t dard_plan_find_id6(const struct dard_topo *t,
			    const struct dard_plan *p,
			    const struct in6_addr *a);
/* dard_plan_decode() of an IPv6 alias. */
uint32_t dard_plan_decode6(const struct dard_topo *t, const struct dard_plan *p,
			   const struct in6_addr *a, uint32_t *chain,
			   char *err);

/*
 * The link-local address of one end of any switch link, the IPv6 next
 * hop of the switch tables: fe80::1 at the upper end, fe80::2 at the
 * lower. Link-local scope is the link, so every link can use the same two.
 */
void dard_link_ll6(int upper, struct in6_addr *a);

#endif /* _DARD_ADDR6_H */
