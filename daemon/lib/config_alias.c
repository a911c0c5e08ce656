// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The configuration file's alias lines (config_int.h): read, then checked. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "addr6.h"
#include "config_int.h"
#include "err.h"

/* Room for one more of n elements of size in *arr (cap *cap). */
static int grow(struct parser *ps, void **arr, size_t n, size_t *cap,
		size_t size)
{
	size_t c = *cap ? *cap * 2 : 1024;
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*arr, c * size);
	if (!p)
		return cfg_perr(ps, -ENOMEM, "out of memory");
	*arr = p;
	*cap = c;
	return 0;
}

/* "alias HOST ADDR...": a host's aliases may span several lines. */
int cfg_do_alias(struct parser *ps)
{
	struct dard_topo *t = ps->cfg->topo;
	uint32_t h;
	unsigned i;

	h = dard_topo_find(t, ps->tok[1]);
	if (h == DARD_NONE || !t->node[h].is_host)
		return cfg_perr(ps, -EINVAL, "alias: `%s' is not a host",
				ps->tok[1]);
	for (i = 2; i < ps->ntok; i++) {
		struct alias_entry e = {.host = h, .line = ps->line};
		struct in6_addr a6;

		e.v6 = strchr(ps->tok[i], ':') != NULL;
		if (e.v6 ? dard_addr6_parse(ps->tok[i], &a6)
			 : dard_addr_parse(ps->tok[i], &e.addr))
			return cfg_perr(ps, -EINVAL,
					"alias: invalid address `%s'",
					ps->tok[i]);
		if (e.v6) {
			if (grow(ps, (void **)&ps->addr6, ps->naddr6,
				 &ps->addr6_cap, sizeof(a6)))
				return -ENOMEM;
			e.addr = ps->naddr6;
			ps->addr6[ps->naddr6++] = a6;
		}
		if (grow(ps, (void **)&ps->aliases, ps->naliases,
			 &ps->aliases_cap, sizeof(e)))
			return -ENOMEM;
		ps->aliases[ps->naliases++] = e;
	}
	return 0;
}

static int cmp_alias(const void *a, const void *b)
{
	const struct alias_entry *x = a, *y = b;

	if (x->host != y->host)
		return x->host < y->host ? -1 : 1;
	if (x->v6 != y->v6)
		return x->v6 - y->v6;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static const char *alias_str(const struct parser *ps,
			     const struct alias_entry *a, char *buf)
{
	struct in6_addr a6;

	if (!a->v6)
		return dard_addr_str(a->addr, buf);
	if (ps->converted)
		dard_plan_v6(ps->cfg->plan, a->addr, &a6);
	return dard_addr6_str(ps->converted ? &a6 : &ps->addr6[a->addr], buf);
}

/* An alias line's address decoded to its host (DARD_NONE and err). */
static uint32_t alias_host(struct parser *ps, struct alias_entry *a,
			   uint32_t *chain, char *err)
{
	const struct dard_plan *p = ps->cfg->plan;
	const struct dard_topo *t = ps->cfg->topo;
	char b[INET6_ADDRSTRLEN];

	if (a->v6 ? !dard_family_has6(p->opts.family)
		  : !dard_family_has4(p->opts.family)) {
		dard_fail(err, -EINVAL,
			  "%s is IPv%d, but the fabric's family is %s",
			  alias_str(ps, a, b), a->v6 ? 6 : 4,
			  dard_family_name(p->opts.family));
		return DARD_NONE;
	}
	if (!a->v6)
		return dard_plan_decode(t, p, a->addr, chain, err);
	return dard_plan_decode6(t, p, &ps->addr6[a->addr], chain, err);
}

/*
 * Listed aliases must be exactly the ones the plan gives each host, in
 * each family listed.
 */
int cfg_check_aliases(struct parser *ps)
{
	struct dard_config *cfg = ps->cfg;
	const struct dard_topo *t = cfg->topo;
	uint32_t chain[DARD_LEVEL_MAX + 1];
	char err[DARD_ERR_MAX], b[INET6_ADDRSTRLEN];
	size_t i, first;

	for (i = 0; i < ps->naliases; i++) {
		struct alias_entry *a = &ps->aliases[i];
		uint32_t h;

		ps->line = a->line;
		h = alias_host(ps, a, chain, err);
		if (h == DARD_NONE)
			return cfg_perr(ps, -EINVAL, "alias %s: %s",
					t->node[a->host].name, err);
		if (h != a->host)
			return cfg_perr(
				ps, -EINVAL,
				"alias %s: %s belongs to %s under this plan",
				t->node[a->host].name, alias_str(ps, a, b),
				t->node[h].name);
		/* Checked: the IPv4 form, whose duplicates are the same. */
		if (a->v6)
			dard_plan_v4(cfg->plan, &ps->addr6[a->addr], &a->addr,
				     NULL);
	}
	ps->converted = 1;
	if (!ps->naliases)
		return 0;
	qsort(ps->aliases, ps->naliases, sizeof(*ps->aliases), cmp_alias);
	for (first = 0; first < ps->naliases; first = i) {
		uint32_t h = ps->aliases[first].host;
		int v6 = ps->aliases[first].v6;
		unsigned last = 0;

		for (i = first; i < ps->naliases && ps->aliases[i].host == h &&
				ps->aliases[i].v6 == v6;
		     i++) {
			last = ps->aliases[i].line > last ? ps->aliases[i].line
							  : last;
			if (i > first &&
			    ps->aliases[i].addr == ps->aliases[i - 1].addr) {
				ps->line = ps->aliases[i].line;
				return cfg_perr(
					ps, -EINVAL,
					"alias %s: %s listed twice",
					t->node[h].name,
					alias_str(ps, &ps->aliases[i], b));
			}
		}
		if (i - first != dard_plan_naliases(t, h)) {
			ps->line = last;
			return cfg_perr(
				ps, -EINVAL,
				"alias %s: %zu %saliases listed, the plan gives %u",
				t->node[h].name, i - first, v6 ? "IPv6 " : "",
				dard_plan_naliases(t, h));
		}
	}
	return 0;
}
