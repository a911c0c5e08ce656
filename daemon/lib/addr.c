// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The address plan: field widths, prefix allocation down the tree, alias
 * encoding and decoding, and the ID, link and management addresses.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>

#include "addr.h"
#include "addr6.h"
#include "err.h"
#include "num.h"

/* The protocols with a name; any other is printed and parsed as a number. */
static const struct {
	uint8_t proto;
	const char *name;
} ipprotos[] = {
	{IPPROTO_TCP, "tcp"},
	{IPPROTO_UDP, "udp"},
	{IPPROTO_ICMP, "icmp"},
};

uint32_t dard_mask(unsigned len)
{
	return len ? ~0u << (32 - len) : 0;
}

char *dard_addr_str(uint32_t a, char *buf)
{
	sprintf(buf, "%u.%u.%u.%u", a >> 24, (a >> 16) & 255, (a >> 8) & 255,
		a & 255);
	return buf;
}

char *dard_prefix_str(uint32_t a, unsigned len, char *buf)
{
	dard_addr_str(a, buf);
	sprintf(buf + strlen(buf), "/%u", len);
	return buf;
}

int dard_addr_parse(const char *s, uint32_t *addr)
{
	uint32_t a = 0;
	int i;

	for (i = 0; i < 4; i++) {
		unsigned v = 0, digits = 0;

		while (*s >= '0' && *s <= '9' && digits < 4) {
			v = v * 10 + (*s++ - '0');
			digits++;
		}
		if (!digits || digits > 3 || v > 255)
			return -EINVAL;
		a = a << 8 | v;
		if (i < 3 && *s++ != '.')
			return -EINVAL;
	}
	if (*s)
		return -EINVAL;
	*addr = a;
	return 0;
}

int dard_plen_parse(const char *s, unsigned max, unsigned *len)
{
	unsigned v = 0;

	/* Digits only, no sign, no space; at most as many as max has. */
	if (!*s || strlen(s) > (max >= 100 ? 3u : 2u))
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (*s - '0');
	}
	if (v > max)
		return -EINVAL;
	*len = v;
	return 0;
}

int dard_prefix_parse(const char *s, struct dard_prefix *p)
{
	char buf[32];
	const char *slash = strchr(s, '/');
	size_t n = slash ? (size_t)(slash - s) : strlen(s);
	unsigned len = 32;

	if (n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (dard_addr_parse(buf, &p->addr))
		return -EINVAL;
	if (slash && dard_plen_parse(slash + 1, 32, &len))
		return -EINVAL;
	if (p->addr & ~dard_mask(len))
		return -EINVAL;
	p->len = len;
	return 0;
}

const char *dard_mode_name(int mode)
{
	switch (mode) {
	case DARD_MODE_PAPER:
		return "paper";
	case DARD_MODE_COMPACT:
		return "compact";
	default:
		return "auto";
	}
}

int dard_mode_parse(const char *s)
{
	if (!strcmp(s, "auto"))
		return DARD_MODE_AUTO;
	if (!strcmp(s, "paper"))
		return DARD_MODE_PAPER;
	if (!strcmp(s, "compact"))
		return DARD_MODE_COMPACT;
	return -EINVAL;
}

const char *dard_ipproto_name(uint8_t proto, char buf[DARD_IPPROTO_STRLEN])
{
	unsigned i;

	for (i = 0; i < sizeof(ipprotos) / sizeof(ipprotos[0]); i++)
		if (ipprotos[i].proto == proto)
			return ipprotos[i].name;
	snprintf(buf, DARD_IPPROTO_STRLEN, "%u", proto);
	return buf;
}

int dard_ipproto_parse(const char *s, uint8_t *proto)
{
	uint32_t v;
	unsigned i;
	int ret;

	for (i = 0; i < sizeof(ipprotos) / sizeof(ipprotos[0]); i++) {
		if (!strcmp(s, ipprotos[i].name)) {
			*proto = ipprotos[i].proto;
			return 0;
		}
	}
	ret = dard_parse_u32(s, 0, 255, &v);
	if (ret)
		return ret;
	*proto = v;
	return 0;
}

void dard_plan_opts_init(struct dard_plan_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->base = (struct dard_prefix){10u << 24, 8};
	o->ids = (struct dard_prefix){172u << 24 | 16 << 16, 16};
	o->links = (struct dard_prefix){172u << 24 | 20 << 16, 14};
	o->mgmt = (struct dard_prefix){172u << 24 | 24 << 16, 16};
	o->mode = DARD_MODE_AUTO;
	o->family = DARD_FAMILY_IPV4;
	dard_prefix6_parse("fd00:da::/48", &o->base6);
	dard_prefix6_parse("fd00:da:1::/64", &o->ids6);
}

void dard_plan_free(struct dard_plan *p)
{
	if (!p)
		return;
	free(p->alloc);
	free(p->link_val);
	free(p);
}

static unsigned bits(uint32_t values)
{
	unsigned b = 0;

	while (b < 32 && (1ull << b) < values)
		b++;
	return b;
}

/* Index of port among node n's down ports, which are sorted. */
static uint32_t down_rank(const struct dard_node *n, unsigned port)
{
	uint32_t lo = 0, hi = n->ndown;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (n->down[mid] < port)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint32_t link_value(const struct dard_topo *t, int mode,
			   const struct dard_link *l)
{
	const struct dard_node *u = &t->node[l->up];
	uint32_t v =
		mode == DARD_MODE_PAPER ? l->up_port : down_rank(u, l->up_port);

	/* Host field: 0 is the ToR's subnet and 1 the ToR itself. */
	if (u->level == t->nlevels - 1)
		v += mode == DARD_MODE_PAPER ? 1 : 2;
	return v;
}

/* Maximum field values per field for the given mode. */
static void field_max(const struct dard_topo *t, int mode, uint32_t *max)
{
	uint32_t i;

	memset(max, 0, (DARD_LEVEL_MAX + 1) * sizeof(*max));
	max[0] = mode == DARD_MODE_PAPER ? t->nroots : t->nroots - 1;
	for (i = 0; i < t->nlinks; i++) {
		const struct dard_link *l = &t->link[i];
		uint32_t v = link_value(t, mode, l);
		unsigned f = t->node[l->up].level + 1;

		if (v > max[f])
			max[f] = v;
	}
}

static int layout(const struct dard_topo *t, struct dard_plan *p, char *err)
{
	unsigned avail = 32 - p->opts.base.len, total = 0, f;
	uint32_t max[DARD_LEVEL_MAX + 1];
	int mode = p->opts.mode;
	char need[128] = "", b[24];

	if (!t->nlevels || t->nlevels > DARD_LEVEL_MAX)
		return dard_fail(err, -EINVAL, "bad number of levels");
	p->nfields = t->nlevels + 1;
	if (mode == DARD_MODE_AUTO || mode == DARD_MODE_PAPER) {
		field_max(t, DARD_MODE_PAPER, max);
		for (f = 0; f < p->nfields; f++)
			if (max[f] >= 1u << DARD_PAPER_BITS)
				break;
		if (f == p->nfields && p->nfields * DARD_PAPER_BITS <= avail) {
			p->mode = DARD_MODE_PAPER;
			memset(p->width, DARD_PAPER_BITS, p->nfields);
			goto shifts;
		}
		if (mode == DARD_MODE_PAPER) {
			if (f < p->nfields)
				return dard_fail(
					err, -ERANGE,
					"%s does not fit paper addressing: field %u needs value %u, more than %u bits hold",
					dard_topo_label(t), f, max[f],
					DARD_PAPER_BITS);
			return dard_fail(
				err, -ERANGE,
				"%s does not fit paper addressing: %u fields of %u bits need %u bits but %s leaves %u",
				dard_topo_label(t), p->nfields, DARD_PAPER_BITS,
				p->nfields * DARD_PAPER_BITS,
				dard_prefix_str(p->opts.base.addr,
						p->opts.base.len, b),
				avail);
		}
	}
	p->mode = DARD_MODE_COMPACT;
	field_max(t, DARD_MODE_COMPACT, max);
	for (f = 0; f < p->nfields; f++) {
		p->width[f] = bits(max[f] + 1);
		total += p->width[f];
		snprintf(need + strlen(need), sizeof(need) - strlen(need),
			 "%s%u", f ? "+" : "", p->width[f]);
	}
	if (total > avail)
		return dard_fail(
			err, -ERANGE,
			"%s needs %u address bits below the base prefix (%s, one field per level) but %s leaves %u; use a base of /%u or shorter",
			dard_topo_label(t), total, need,
			dard_prefix_str(p->opts.base.addr, p->opts.base.len, b),
			avail, 32 - total);
shifts:
	p->shift[p->nfields - 1] = 0;
	for (f = p->nfields - 1; f > 0; f--)
		p->shift[f - 1] = p->shift[f] + p->width[f];
	for (f = 0; f < p->nfields; f++)
		p->plen[f] = 32 - p->shift[f];
	return 0;
}

/*
 * Addresses a prefix hands out from addr + 1, without its first and last:
 * none in a /31 or /32, where addr + 1 leaves the prefix or wraps to 0.
 */
static uint32_t addr_span(unsigned len)
{
	if (len >= 31)
		return 0;
	return len ? (1u << (32 - len)) - 2 : ~0u;
}

static int in_prefix(uint32_t a, const struct dard_prefix *p)
{
	return (a & dard_mask(p->len)) == p->addr;
}

static int overlap(const struct dard_prefix *a, const struct dard_prefix *b)
{
	uint32_t m = dard_mask(a->len < b->len ? a->len : b->len);

	return (a->addr & m) == (b->addr & m);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Gives every node (every host, for IDs) without an address of this kind
 * the next one of the prefix that no node was given explicitly. Explicit
 * addresses must lie inside the prefix, so the kinds cannot collide.
 */
static int assign(struct dard_topo *t, const struct dard_prefix *pre, int ids,
		  uint32_t *node, char *err)
{
	const char *what = ids ? "ID" : "management address";
	const char *kind = ids ? "ID prefix" : "management prefix";
	uint32_t span = addr_span(pre->len), need = 0, ntaken = 0, next = 1;
	uint32_t *taken = calloc(t->nnodes + 1, sizeof(*taken)), i;
	char b[24], c[24];
	int ret = 0;

	if (!taken)
		return dard_fail(err, -ENOMEM, "out of memory");
	for (i = 0; i < t->nnodes && !ret; i++) {
		uint32_t v = ids ? t->node[i].id : t->node[i].mgmt;

		if (ids && !t->node[i].is_host)
			continue;
		need++;
		if (!v)
			continue;
		if (!in_prefix(v, pre) || v - pre->addr < 1 ||
		    v - pre->addr > span) {
			ret = dard_fail(
				err, -EINVAL,
				"%s: %s %s is not a node address of %s",
				t->node[i].name, what, dard_addr_str(v, b),
				dard_prefix_str(pre->addr, pre->len, c));
			*node = i;
		}
		taken[ntaken++] = v;
	}
	if (!ret && need > span)
		ret = dard_fail(err, -ERANGE, "%s %s holds %u %s, not %u", kind,
				dard_prefix_str(pre->addr, pre->len, b), span,
				ids ? "hosts" : "nodes", need);
	qsort(taken, ntaken, sizeof(*taken), cmp_u32);
	for (i = 0; i < t->nnodes && !ret; i++) {
		uint32_t *v = ids ? &t->node[i].id : &t->node[i].mgmt;

		if ((ids && !t->node[i].is_host) || *v)
			continue;
		while (bsearch(&(uint32_t){pre->addr + next}, taken, ntaken,
			       sizeof(*taken), cmp_u32))
			next++;
		*v = pre->addr + next++;
	}
	free(taken);
	return ret;
}

static int fill_addresses(struct dard_topo *t, struct dard_plan *p,
			  uint32_t *node, char *err)
{
	const struct dard_plan_opts *o = &p->opts;
	const struct dard_prefix *pre[] = {&o->base, &o->ids, &o->links,
					   &o->mgmt};
	static const char *const name[] = {"alias base", "ID prefix",
					   "link prefix", "management prefix"};
	uint32_t span;
	unsigned i, j;
	char b[24], c[24];
	int ret;

	/* Disjoint, so that no address can be two things at once. */
	for (i = 0; i < 4; i++)
		for (j = i + 1; j < 4; j++)
			if (overlap(pre[i], pre[j]))
				return dard_fail(
					err, -EINVAL,
					"the %s %s overlaps the %s %s", name[i],
					dard_prefix_str(pre[i]->addr,
							pre[i]->len, b),
					name[j],
					dard_prefix_str(pre[j]->addr,
							pre[j]->len, c));
	/* A /32 holds no /31; shifting by 31 - 32 would be undefined. */
	if (o->links.len == 32)
		span = 0;
	else
		span = o->links.len ? 1u << (31 - o->links.len) : ~0u;
	if (t->nlinks > span)
		return dard_fail(
			err, -ERANGE,
			"link prefix %s holds %u /31 links, not %u",
			dard_prefix_str(o->links.addr, o->links.len, b), span,
			t->nlinks);
	ret = assign(t, &o->ids, 1, node, err);
	if (ret)
		return ret;
	return assign(t, &o->mgmt, 0, node, err);
}

static int allocate(struct dard_topo *t, struct dard_plan *p, char *err)
{
	uint64_t total = 0;
	uint32_t i, off = 0;
	unsigned l, k;

	/* Counts first: a node has the sum of its parents' allocations. */
	for (l = 0; l < t->nlevels; l++) {
		for (i = 0; i < t->nnodes; i++) {
			struct dard_node *n = &t->node[i];
			uint64_t c = 0;

			if (n->level != l)
				continue;
			if (!l)
				c = 1;
			for (k = 0; k < n->nup; k++)
				c += t->node[dard_topo_peer(t, i, n->up[k])]
					     .nalloc;
			if (c > DARD_ALLOC_MAX || total + c > DARD_ALLOC_MAX)
				return dard_fail(
					err, -E2BIG,
					"%s has more than %u root-to-switch paths",
					dard_topo_label(t), DARD_ALLOC_MAX);
			n->nalloc = c;
			total += c;
		}
	}
	p->alloc = calloc(total ? total : 1, sizeof(*p->alloc));
	if (!p->alloc)
		return dard_fail(err, -ENOMEM, "out of memory");
	p->nalloc = total;
	for (l = 0; l < t->nlevels; l++) {
		for (i = 0; i < t->nnodes; i++) {
			struct dard_node *n = &t->node[i];
			struct dard_alloc *a;

			if (n->level != l)
				continue;
			n->alloc = off;
			a = &p->alloc[off];
			off += n->nalloc;
			if (!l) {
				uint32_t v = p->mode == DARD_MODE_PAPER
						     ? n->rank + 1
						     : n->rank;

				a->prefix =
					p->opts.base.addr | v << p->shift[0];
				continue;
			}
			/* Up ports in order, each parent's prefixes in order.
			 */
			for (k = 0; k < n->nup; k++) {
				uint32_t j, li = n->port[n->up[k] - 1];
				const struct dard_node *u =
					&t->node[t->link[li].up];

				for (j = 0; j < u->nalloc; j++) {
					a->prefix =
						p->alloc[u->alloc + j].prefix |
						p->link_val[li] << p->shift[l];
					a->up_port = n->up[k];
					a++;
				}
			}
		}
	}
	return 0;
}

int dard_plan_build(struct dard_topo *t, const struct dard_plan_opts *o,
		    struct dard_plan **out, uint32_t *node, char *err)
{
	struct dard_plan *p;
	uint32_t i, bad;
	char b[24];
	int ret;

	if (!node)
		node = &bad;
	*node = DARD_NONE;
	if (!t->finalized)
		return dard_fail(err, -EINVAL, "topology not finalized");
	p = calloc(1, sizeof(*p));
	if (!p)
		return dard_fail(err, -ENOMEM, "out of memory");
	p->opts = *o;
	if (o->base.addr & ~dard_mask(o->base.len)) {
		ret = dard_fail(err, -EINVAL, "base %s has host bits set",
				dard_prefix_str(o->base.addr, o->base.len, b));
		goto err;
	}
	ret = dard_outer_check(o, err) ?: layout(t, p, err);
	if (ret == 0 && dard_family_has6(o->family))
		ret = dard_plan6_layout(p, err);
	if (ret < 0)
		goto err;
	p->link_val = calloc(t->nlinks + 1, sizeof(*p->link_val));
	if (!p->link_val) {
		ret = dard_fail(err, -ENOMEM, "out of memory");
		goto err;
	}
	for (i = 0; i < t->nlinks; i++)
		p->link_val[i] = link_value(t, p->mode, &t->link[i]);
	ret = allocate(t, p, err);
	if (ret < 0)
		goto err;
	ret = fill_addresses(t, p, node, err);
	if (ret < 0)
		goto err;
	*out = p;
	return 0;
err:
	dard_plan_free(p);
	return ret;
}

struct dard_plan *dard_plan_new(struct dard_topo *t,
				const struct dard_plan_opts *o, char *err)
{
	struct dard_plan *p = NULL;

	dard_plan_build(t, o, &p, NULL, err);
	return p;
}

uint32_t dard_plan_naliases(const struct dard_topo *t, uint32_t host)
{
	return t->node[dard_topo_tor(t, host)].nalloc;
}

uint32_t dard_plan_alias(const struct dard_topo *t, const struct dard_plan *p,
			 uint32_t host, uint32_t i)
{
	/* A host's one link may be on any port, not only port 1. */
	uint32_t tor = dard_topo_tor(t, host);
	uint32_t li = dard_topo_link_between(t, host, tor);

	return p->alloc[t->node[tor].alloc + i].prefix | p->link_val[li];
}

uint32_t dard_plan_encode(const struct dard_topo *t, const struct dard_plan *p,
			  const uint32_t *chain)
{
	const struct dard_node *r = &t->node[chain[0]];
	uint32_t a = p->opts.base.addr;
	unsigned l;

	a |= (p->mode == DARD_MODE_PAPER ? r->rank + 1 : r->rank)
	     << p->shift[0];
	for (l = 1; l <= t->nlevels; l++)
		a |= p->link_val[dard_topo_link_between(t, chain[l - 1],
							chain[l])]
		     << p->shift[l];
	return a;
}

uint32_t dard_plan_decode(const struct dard_topo *t, const struct dard_plan *p,
			  uint32_t addr, uint32_t *chain, char *err)
{
	const struct dard_prefix *base = &p->opts.base;
	uint32_t v, root;
	unsigned l;
	char b[24], c[24];

	if ((addr & dard_mask(base->len)) != base->addr) {
		dard_fail(err, 0, "%s is outside the alias base %s",
			  dard_addr_str(addr, b),
			  dard_prefix_str(base->addr, base->len, c));
		return DARD_NONE;
	}
	if (p->shift[0] + p->width[0] < 32 - base->len &&
	    addr >> (p->shift[0] + p->width[0]) !=
		    base->addr >> (p->shift[0] + p->width[0])) {
		dard_fail(err, 0,
			  "%s has bits set between the base and the root field",
			  dard_addr_str(addr, b));
		return DARD_NONE;
	}
	v = (addr >> p->shift[0]) & ((1u << p->width[0]) - 1);
	root = p->mode == DARD_MODE_PAPER ? v - 1 : v;
	if ((p->mode == DARD_MODE_PAPER && !v) || root >= t->nroots) {
		dard_fail(err, 0, "%s names root %u, but %s has %u roots",
			  dard_addr_str(addr, b),
			  p->mode == DARD_MODE_PAPER ? v : v + 1,
			  dard_topo_label(t), t->nroots);
		return DARD_NONE;
	}
	chain[0] = t->roots[root];
	for (l = 1; l <= t->nlevels; l++) {
		const struct dard_node *u = &t->node[chain[l - 1]];
		int hostf = l == t->nlevels;
		uint32_t port = 0, next;

		v = (addr >> p->shift[l]) & ((1u << p->width[l]) - 1);
		if (p->mode == DARD_MODE_PAPER) {
			port = hostf ? v - 1 : v;
			if (hostf && v < 2)
				port = 0;
		} else if (!hostf || v >= 2) {
			uint32_t r = hostf ? v - 2 : v;

			port = r < u->ndown ? u->down[r] : 0;
		}
		next = port ? dard_topo_peer(t, chain[l - 1], port) : DARD_NONE;
		if (next == DARD_NONE || t->node[next].level != l) {
			if (hostf)
				dard_fail(
					err, 0,
					"%s is not a host alias: host field %u names no host below %s",
					dard_addr_str(addr, b), v, u->name);
			else
				dard_fail(
					err, 0,
					"%s is not an alias: field %u (value %u) names no port below %s",
					dard_addr_str(addr, b), l, v, u->name);
			return DARD_NONE;
		}
		chain[l] = next;
	}
	return chain[t->nlevels];
}

uint32_t dard_plan_link_addr(const struct dard_plan *p, uint32_t link,
			     int upper)
{
	return p->opts.links.addr + 2 * link + !upper;
}
