// SPDX-License-Identifier: GPL-2.0 OR MIT
/* IPv6 aliases and IDs: the IPv4 plan re-encoded (see addr6.h). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/dard.h>

#include "addr6.h"
#include "err.h"

static const char *const family_names[] = {
	[DARD_FAMILY_IPV4] = "ipv4",
	[DARD_FAMILY_IPV6] = "ipv6",
	[DARD_FAMILY_DUAL] = "dual",
};

const char *dard_family_name(int family)
{
	if (family < 0 || family > DARD_FAMILY_DUAL)
		return "?";
	return family_names[family];
}

int dard_family_parse(const char *s)
{
	int f;

	for (f = 0; f <= DARD_FAMILY_DUAL; f++)
		if (!strcmp(s, family_names[f]))
			return f;
	return -EINVAL;
}

static const char *const outer_names[] = {
	[DARD_OUTER_AUTO] = "auto",
	[DARD_OUTER_IPV4] = "ipv4",
	[DARD_OUTER_IPV6] = "ipv6",
};

const char *dard_outer_name(int outer)
{
	if (outer < 0 || outer > DARD_OUTER_IPV6)
		return "?";
	return outer_names[outer];
}

int dard_outer_parse(const char *s)
{
	int o;

	for (o = 0; o <= DARD_OUTER_IPV6; o++)
		if (!strcmp(s, outer_names[o]))
			return o;
	return -EINVAL;
}

int dard_plan_outer6(const struct dard_plan *p)
{
	return p->opts.outer == DARD_OUTER_IPV6 ||
	       (p->opts.outer == DARD_OUTER_AUTO &&
		p->opts.family == DARD_FAMILY_IPV6);
}

int dard_outer_check(const struct dard_plan_opts *o, char *err)
{
	if (o->outer == DARD_OUTER_IPV6 && !dard_family_has6(o->family))
		return dard_fail(
			err, -EINVAL,
			"outer ipv6 needs a fabric with IPv6 (family ipv6 or dual)");
	if (o->outer == DARD_OUTER_IPV4 && !dard_family_has4(o->family))
		return dard_fail(
			err, -EINVAL,
			"outer ipv4 needs IPv4 aliases, which an IPv6-only fabric has not");
	return 0;
}

int dard_addr6_parse(const char *s, struct in6_addr *a)
{
	/* inet_pton takes no prefix, scope or surrounding space: as wanted. */
	return inet_pton(AF_INET6, s, a) == 1 ? 0 : -EINVAL;
}

/* Whether a and b agree in their first len bits. */
static int same_prefix(const struct in6_addr *a, const struct in6_addr *b,
		       unsigned len)
{
	unsigned n = len / 8, r = len % 8;

	if (memcmp(a->s6_addr, b->s6_addr, n))
		return 0;
	return !r || !((a->s6_addr[n] ^ b->s6_addr[n]) & (0xff00 >> r));
}

/* Whether a has a bit set past its first len. */
static int host_bits(const struct in6_addr *a, unsigned len)
{
	static const struct in6_addr zero;
	struct in6_addr top = zero;
	unsigned n = len / 8, r = len % 8;

	memcpy(top.s6_addr, a->s6_addr, n);
	if (r)
		top.s6_addr[n] = a->s6_addr[n] & (0xff00 >> r);
	return memcmp(&top, a, sizeof(top)) != 0;
}

int dard_prefix6_parse(const char *s, struct dard_prefix6 *p)
{
	char buf[INET6_ADDRSTRLEN];
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	unsigned len = 128;

	if (n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (dard_addr6_parse(buf, &p->addr))
		return -EINVAL;
	if (slash && dard_plen_parse(slash + 1, 128, &len))
		return -EINVAL;
	if (host_bits(&p->addr, len))
		return -EINVAL;
	p->len = len;
	return 0;
}

char *dard_addr6_str(const struct in6_addr *a, char *buf)
{
	if (!inet_ntop(AF_INET6, a, buf, INET6_ADDRSTRLEN))
		strcpy(buf, "?");
	return buf;
}

char *dard_prefix6_str(const struct in6_addr *a, unsigned len, char *buf)
{
	dard_addr6_str(a, buf);
	sprintf(buf + strlen(buf), "/%u", len);
	return buf;
}

int dard_in_prefix6(const struct in6_addr *a, const struct dard_prefix6 *p)
{
	return same_prefix(a, &p->addr, p->len);
}

int dard_prefix6_overlap(const struct dard_prefix6 *a,
			 const struct dard_prefix6 *b)
{
	return same_prefix(&a->addr, &b->addr,
			   a->len < b->len ? a->len : b->len);
}

/* Bit k counts from the address's least significant bit. */
static uint32_t get6(const struct in6_addr *a, unsigned shift, unsigned width)
{
	uint32_t v = 0;
	unsigned i;

	for (i = width; i-- > 0;) {
		unsigned k = shift + i;

		v = v << 1 | ((a->s6_addr[15 - k / 8] >> (k % 8)) & 1);
	}
	return v;
}

static void put6(struct in6_addr *a, unsigned shift, unsigned width, uint32_t v)
{
	unsigned i;

	for (i = 0; i < width; i++) {
		unsigned k = shift + i;

		if ((v >> i) & 1)
			a->s6_addr[15 - k / 8] |= 1u << (k % 8);
	}
}

static uint32_t field_mask(unsigned width)
{
	return width >= 32 ? ~0u : (1u << width) - 1;
}

int dard_plan6_layout(struct dard_plan *p, char *err)
{
	const struct dard_plan_opts *o = &p->opts;
	unsigned avail = 128 - o->base6.len, total = 0, f;
	char b[DARD_PREFIX6_STRLEN], c[DARD_PREFIX6_STRLEN];

	if (host_bits(&o->base6.addr, o->base6.len))
		return dard_fail(
			err, -EINVAL, "base6 %s has host bits set",
			dard_prefix6_str(&o->base6.addr, o->base6.len, b));
	if (host_bits(&o->ids6.addr, o->ids6.len))
		return dard_fail(
			err, -EINVAL, "ids6 %s has host bits set",
			dard_prefix6_str(&o->ids6.addr, o->ids6.len, b));
	if (dard_prefix6_overlap(&o->base6, &o->ids6))
		return dard_fail(
			err, -EINVAL,
			"the IPv6 alias base %s overlaps the IPv6 ID prefix %s",
			dard_prefix6_str(&o->base6.addr, o->base6.len, b),
			dard_prefix6_str(&o->ids6.addr, o->ids6.len, c));
	/* An IPv4 ID's offset in ids must fit below ids6. */
	if (128u - o->ids6.len < 32u - o->ids.len)
		return dard_fail(
			err, -ERANGE,
			"ids6 %s leaves %u bits for host IDs, but ids /%u numbers them with %u",
			dard_prefix6_str(&o->ids6.addr, o->ids6.len, b),
			128 - o->ids6.len, o->ids.len, 32 - o->ids.len);
	for (f = 0; f < p->nfields && p->width[f] <= 16; f++)
		;
	/* Whole groups when they fit, and no field is wider than one. */
	if (f == p->nfields && p->nfields * 16u <= avail) {
		memset(p->width6, 16, p->nfields);
		total = p->nfields * 16u;
	} else {
		for (f = 0; f < p->nfields; f++) {
			p->width6[f] = (p->width[f] + 3) / 4 * 4;
			total += p->width6[f];
		}
	}
	if (total > avail)
		return dard_fail(
			err, -ERANGE,
			"%u alias fields need %u bits below the IPv6 base, but %s leaves %u; use a base of /%u or shorter",
			p->nfields, total,
			dard_prefix6_str(&o->base6.addr, o->base6.len, b),
			avail, 128 - total);
	for (total = 0, f = p->nfields; f-- > 0;) {
		p->shift6[f] = total;
		total += p->width6[f];
	}
	for (f = 0; f < p->nfields; f++)
		p->plen6[f] = 128 - p->shift6[f];
	return 0;
}

void dard_plan_v6(const struct dard_plan *p, uint32_t v4, struct in6_addr *a)
{
	unsigned f;

	*a = p->opts.base6.addr;
	for (f = 0; f < p->nfields; f++)
		put6(a, p->shift6[f], p->width6[f],
		     (v4 >> p->shift[f]) & field_mask(p->width[f]));
}

int dard_plan_v4(const struct dard_plan *p, const struct in6_addr *a,
		 uint32_t *v4, char *err)
{
	const struct dard_prefix6 *base = &p->opts.base6;
	char b[INET6_ADDRSTRLEN], c[DARD_PREFIX6_STRLEN];
	struct in6_addr back;
	uint32_t v = p->opts.base.addr;
	unsigned f;

	if (!dard_in_prefix6(a, base))
		return dard_fail(err, -EINVAL,
				 "%s is outside the IPv6 alias base %s",
				 dard_addr6_str(a, b),
				 dard_prefix6_str(&base->addr, base->len, c));
	for (f = 0; f < p->nfields; f++) {
		uint32_t x = get6(a, p->shift6[f], p->width6[f]);

		if (x > field_mask(p->width[f]))
			return dard_fail(
				err, -EINVAL,
				"%s is not an alias: field %u (value %u) is wider than its %u bits",
				dard_addr6_str(a, b), f, x, p->width[f]);
		v |= x << p->shift[f];
	}
	dard_plan_v6(p, v, &back);
	if (memcmp(&back, a, sizeof(back)))
		return dard_fail(
			err, -EINVAL,
			"%s has bits set between the base and the root field",
			dard_addr6_str(a, b));
	*v4 = v;
	return 0;
}

void dard_plan_alias6(const struct dard_topo *t, const struct dard_plan *p,
		      uint32_t host, uint32_t i, struct in6_addr *a)
{
	dard_plan_v6(p, dard_plan_alias(t, p, host, i), a);
}

void dard_plan_id6(const struct dard_topo *t, const struct dard_plan *p,
		   uint32_t host, struct in6_addr *a)
{
	*a = p->opts.ids6.addr;
	put6(a, 0, 32, t->node[host].id - p->opts.ids.addr);
}

uint32_t dard_plan_find_id6(const struct dard_topo *t,
			    const struct dard_plan *p, const struct in6_addr *a)
{
	const struct dard_prefix *ids = &p->opts.ids;
	uint32_t off, h;
	struct in6_addr back;

	if (!dard_in_prefix6(a, &p->opts.ids6))
		return DARD_NONE;
	/* The host bits below ids6, 32 at most (ids6 is /96 or longer). */
	off = get6(a, 0,
		   128 - p->opts.ids6.len < 32 ? 128 - p->opts.ids6.len : 32);
	if (off > field_mask(32 - ids->len))
		return DARD_NONE;
	h = dard_topo_find_id(t, ids->addr + off);
	if (h == DARD_NONE)
		return DARD_NONE;
	dard_plan_id6(t, p, h, &back);
	return memcmp(&back, a, sizeof(back)) ? DARD_NONE : h;
}

uint32_t dard_plan_decode6(const struct dard_topo *t, const struct dard_plan *p,
			   const struct in6_addr *a, uint32_t *chain, char *err)
{
	char why[DARD_ERR_MAX], b[INET6_ADDRSTRLEN];
	uint32_t v4, h;

	if (dard_plan_v4(p, a, &v4, err))
		return DARD_NONE;
	h = dard_plan_decode(t, p, v4, chain, err ? why : NULL);
	if (h == DARD_NONE && err)
		dard_fail(err, 0, "%s, in IPv4 form: %s", dard_addr6_str(a, b),
			  why);
	return h;
}

void dard_link_ll6(int upper, struct in6_addr *a)
{
	memset(a, 0, sizeof(*a));
	a->s6_addr[0] = 0xfe;
	a->s6_addr[1] = 0x80;
	a->s6_addr[15] = upper ? 1 : 2;
}

void dard_plan_layout6(struct dard_layout6 *l, const struct dard_plan *p)
{
	unsigned f, i;

	memset(l, 0, sizeof(*l));
	l->outer6 = 1;
	l->base4 = p->opts.base.addr;
	for (i = 0; i < 4; i++)
		l->base6[i] = ntohl(p->opts.base6.addr.s6_addr32[i]);
	l->nfields = p->nfields;
	for (f = 0; f < p->nfields && f < DARD_LAYOUT_FIELDS; f++) {
		l->shift4[f] = p->shift[f];
		l->width4[f] = p->width[f];
		l->shift6[f] = p->shift6[f];
		l->width6[f] = p->width6[f];
	}
}
