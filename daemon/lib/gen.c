// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Topology generators. Names follow the paper's figures, 1-based: core1,
 * aggr<pod>_<i>, tor<pod>_<i>, hosts e<pod>_<j> numbered across the pod.
 * Every switch numbers its down ports first (1..ndown) and its up ports
 * after them, which is how Table 2 of the paper numbers aggr1_1's ports.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"
#include "num.h"

static struct dard_topo *gen_fail(struct dard_topo *t, char *err,
				  const char *fmt, ...)
{
	va_list ap;

	if (err && fmt) {
		va_start(ap, fmt);
		vsnprintf(err, DARD_ERR_MAX, fmt, ap);
		va_end(ap);
	}
	dard_topo_free(t);
	return NULL;
}

/*
 * The three trees share a shape: roots above pods; per pod `aggr'
 * aggregation switches over `tors' ToRs, every ToR reaching every
 * aggregation switch of its pod; `hosts' hosts per ToR. They differ only in
 * which aggregation switches each root reaches, which wire() says, with
 * the ports. Level names double as node name prefixes.
 */
struct pod_tree {
	const char *level[3];
	unsigned roots, pods, aggr, tors, hosts;
	int (*wire)(const struct pod_tree *pt, unsigned r, unsigned k,
		    unsigned i, unsigned *rport, unsigned *aport);
};

/*
 * Fat-tree: an aggregation switch has as many up ports as ToRs below it,
 * g = tors, so core r reaches aggregation switch (r - 1) / g + 1 of each pod
 * (g = p/2, whether or not the ToRs are tapered).
 */
static int wire_fattree(const struct pod_tree *pt, unsigned r, unsigned k,
			unsigned i, unsigned *rport, unsigned *aport)
{
	unsigned h = pt->tors;

	*rport = k;
	*aport = pt->tors + (r - 1) % h + 1;
	return i == (r - 1) / h + 1;
}

/* Clos and three-tier: every root reaches every aggregation switch. */
static int wire_full(const struct pod_tree *pt, unsigned r, unsigned k,
		     unsigned i, unsigned *rport, unsigned *aport)
{
	*rport = (k - 1) * pt->aggr + i;
	*aport = pt->tors + r;
	return 1;
}

static int node(struct dard_topo *t, unsigned level, const char *prefix,
		unsigned a, unsigned b, char *err)
{
	char name[DARD_NAME_MAX];

	if (level == 0)
		snprintf(name, sizeof(name), "%s%u", prefix, a);
	else
		snprintf(name, sizeof(name), "%s%u_%u", prefix, a, b);
	if (level == 3)
		return dard_topo_add_host(t, name, err);
	return dard_topo_add_switch(t, name, t->level_name[level], err);
}

static int add_link(struct dard_topo *t, unsigned ul, unsigned u1, unsigned u2,
		    unsigned up, unsigned dl, unsigned d1, unsigned d2,
		    unsigned dp, const char *const *prefix, char *err)
{
	char u[DARD_NAME_MAX], d[DARD_NAME_MAX];

	if (ul == 0)
		snprintf(u, sizeof(u), "%s%u", prefix[ul], u1);
	else
		snprintf(u, sizeof(u), "%s%u_%u", prefix[ul], u1, u2);
	snprintf(d, sizeof(d), "%s%u_%u", prefix[dl], d1, d2);
	return dard_topo_add_link(t, u, up, d, dp, t->mbps, err);
}

static struct dard_topo *build(const struct pod_tree *pt, const char *name,
			       uint32_t mbps, char *err)
{
	static const char *const host = "e";
	const char *const prefix[4] = {pt->level[0], pt->level[1], pt->level[2],
				       host};
	struct dard_topo *t = dard_topo_new();
	unsigned r, k, i, j, rport, aport;

	if (!t)
		return gen_fail(NULL, err, "out of memory");
	t->mbps = mbps;
	snprintf(t->name, sizeof(t->name), "%s", name);
	for (i = 0; i < 3; i++)
		if (dard_topo_add_level(t, pt->level[i], err))
			goto err;
	for (r = 1; r <= pt->roots; r++)
		if (node(t, 0, prefix[0], r, 0, err))
			goto err;
	for (k = 1; k <= pt->pods; k++)
		for (i = 1; i <= pt->aggr; i++)
			if (node(t, 1, prefix[1], k, i, err))
				goto err;
	for (k = 1; k <= pt->pods; k++)
		for (i = 1; i <= pt->tors; i++)
			if (node(t, 2, prefix[2], k, i, err))
				goto err;
	for (k = 1; k <= pt->pods; k++)
		for (j = 1; j <= pt->tors * pt->hosts; j++)
			if (node(t, 3, host, k, j, err))
				goto err;
	for (r = 1; r <= pt->roots; r++)
		for (k = 1; k <= pt->pods; k++)
			for (i = 1; i <= pt->aggr; i++)
				if (pt->wire(pt, r, k, i, &rport, &aport) &&
				    add_link(t, 0, r, 0, rport, 1, k, i, aport,
					     prefix, err))
					goto err;
	for (k = 1; k <= pt->pods; k++)
		for (i = 1; i <= pt->aggr; i++)
			for (j = 1; j <= pt->tors; j++)
				if (add_link(t, 1, k, i, j, 2, k, j,
					     pt->hosts + i, prefix, err))
					goto err;
	for (k = 1; k <= pt->pods; k++)
		for (i = 1; i <= pt->tors; i++)
			for (j = 1; j <= pt->hosts; j++)
				if (add_link(t, 2, k, i, j, 3, k,
					     (i - 1) * pt->hosts + j, 1, prefix,
					     err))
					goto err;
	if (dard_topo_finalize(t, NULL, err))
		goto err;
	return t;
err:
	return gen_fail(t, NULL, NULL);
}

/*
 * Fat-tree of p-port switches, its ToRs tapered taper:1: a ToR has u =
 * p / (taper + 1) up ports and taper * u hosts; a pod has u aggregation
 * switches over p/2 ToRs, each with p/2 up ports; u * p/2 cores reach one
 * aggregation switch in each of the p pods. taper = 1 is the full-bisection
 * fat-tree: p^2/4 cores, p/2 of everything per pod.
 */
struct dard_topo *dard_gen_fattree_tapered(unsigned p, unsigned taper,
					   uint32_t mbps, char *err)
{
	struct pod_tree pt = {
		.level = {"core", "aggr", "tor"},
		.pods = p,
		.tors = p / 2,
		.wire = wire_fattree,
	};
	char name[32];

	if (p < 2 || p % 2 || p > DARD_FATTREE_MAX)
		return gen_fail(NULL, err,
				"fattree:%u: p must be even and in 2..%d", p,
				DARD_FATTREE_MAX);
	if (taper < 1 || p % (taper + 1))
		return gen_fail(
			NULL, err,
			"fattree:%u,%u: the taper plus one must divide p (a ToR has p/(T+1) up ports and T times as many hosts)",
			p, taper);
	pt.aggr = p / (taper + 1);
	pt.hosts = taper * pt.aggr;
	pt.roots = pt.aggr * (p / 2);
	if (taper == 1)
		snprintf(name, sizeof(name), "fattree:%u", p);
	else
		snprintf(name, sizeof(name), "fattree:%u,%u", p, taper);
	return build(&pt, name, mbps, err);
}

struct dard_topo *dard_gen_fattree(unsigned p, uint32_t mbps, char *err)
{
	return dard_gen_fattree_tapered(p, 1, mbps, err);
}

/*
 * VL2: D_I aggregation switches of D_A ports, paired into D_I/2 pods; each
 * pod's D_A/2 ToRs reach both of its aggregation switches; D_A/2
 * intermediate switches of D_I ports reach every aggregation switch.
 */
struct dard_topo *dard_gen_clos(unsigned di, unsigned da, unsigned hosts,
				uint32_t mbps, char *err)
{
	struct pod_tree pt = {
		.level = {"int", "aggr", "tor"},
		.roots = da / 2,
		.pods = di / 2,
		.aggr = 2,
		.tors = da / 2,
		.hosts = hosts,
		.wire = wire_full,
	};
	char name[48];

	if (di < 2 || di % 2 || da < 2 || da % 2 || di > DARD_CLOS_MAX ||
	    da > DARD_CLOS_MAX)
		return gen_fail(
			NULL, err,
			"clos:%u,%u: D_I and D_A must be even and in 2..%d", di,
			da, DARD_CLOS_MAX);
	if (hosts < 1 || hosts > 256)
		return gen_fail(
			NULL, err,
			"clos:%u,%u,%u: hosts per ToR must be in 1..256", di,
			da, hosts);
	snprintf(name, sizeof(name), "clos:%u,%u,%u", di, da, hosts);
	return build(&pt, name, mbps, err);
}

/*
 * The 8-core three-tier tree: per pod two aggregation switches, each with
 * 12 access switches below and all 8 cores above (12:8 = 1.5:1); each
 * access switch has 5 hosts and one link to either aggregation switch of
 * its pod (5:2 = 2.5:1). All links have the same capacity.
 */
struct dard_topo *dard_gen_3tier(unsigned pods, uint32_t mbps, char *err)
{
	struct pod_tree pt = {
		.level = {"core", "aggr", "acc"},
		.roots = 8,
		.pods = pods,
		.aggr = 2,
		.tors = 12,
		.hosts = 5,
		.wire = wire_full,
	};
	char name[32];

	if (pods < 1 || pods > 64)
		return gen_fail(NULL, err, "3tier:%u: pods must be in 1..64",
				pods);
	snprintf(name, sizeof(name), "3tier:%u", pods);
	return build(&pt, name, mbps, err);
}

/*
 * Parses "N[,N...]" into at most max values of 0..100000 (num.h: digits
 * only); returns the count, or -1.
 */
static int parse_list(const char *s, unsigned *v, int max)
{
	char word[16];
	int n;

	for (n = 0; n < max; n++) {
		size_t len = strcspn(s, ",");

		if (len >= sizeof(word))
			return -1;
		memcpy(word, s, len);
		word[len] = '\0';
		if (dard_parse_u32(word, 0, 100000, &v[n]))
			return -1;
		if (!s[len])
			return n + 1;
		s += len + 1;
	}
	return -1;
}

int dard_gen_is_spec(const char *spec)
{
	return !strncmp(spec, "fattree:", 8) || !strncmp(spec, "clos:", 5) ||
	       !strcmp(spec, "3tier") || !strncmp(spec, "3tier:", 6);
}

struct dard_topo *dard_gen_spec(const char *spec, uint32_t mbps, char *err)
{
	unsigned v[3];
	int n;

	if (!strncmp(spec, "fattree:", 8)) {
		n = parse_list(spec + 8, v, 2);
		if (n < 1)
			goto bad;
		return dard_gen_fattree_tapered(v[0], n == 2 ? v[1] : 1, mbps,
						err);
	}
	if (!strncmp(spec, "clos:", 5)) {
		n = parse_list(spec + 5, v, 3);
		if (n < 2)
			goto bad;
		return dard_gen_clos(v[0], v[1], n == 3 ? v[2] : 2, mbps, err);
	}
	if (!strcmp(spec, "3tier"))
		return dard_gen_3tier(4, mbps, err);
	if (!strncmp(spec, "3tier:", 6)) {
		if (parse_list(spec + 6, v, 1) != 1)
			goto bad;
		return dard_gen_3tier(v[0], mbps, err);
	}
bad:
	return gen_fail(
		NULL, err,
		"invalid topology `%s' (expected fattree:P[,T], clos:DI,DA[,HOSTS] or 3tier[:PODS])",
		spec);
}
