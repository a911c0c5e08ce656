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
	errno = EINVAL;
	return NULL;
}

static int levels(struct dard_topo *t, const char *a, const char *b,
		  const char *c, char *err)
{
	if (dard_topo_add_level(t, a, err) || dard_topo_add_level(t, b, err) ||
	    dard_topo_add_level(t, c, err))
		return -1;
	return 0;
}

static int sw(struct dard_topo *t, const char *level, char *err,
	      const char *fmt, unsigned a, unsigned b)
{
	char name[DARD_NAME_MAX];

	snprintf(name, sizeof(name), fmt, a, b);
	return level ? dard_topo_add_switch(t, name, level, err)
		     : dard_topo_add_host(t, name, err);
}

static int link2(struct dard_topo *t, char *err, const char *ufmt, unsigned u1,
		 unsigned u2, unsigned up, const char *dfmt, unsigned d1,
		 unsigned d2, unsigned dp)
{
	char u[DARD_NAME_MAX], d[DARD_NAME_MAX];

	snprintf(u, sizeof(u), ufmt, u1, u2);
	snprintf(d, sizeof(d), dfmt, d1, d2);
	return dard_topo_add_link(t, u, up, d, dp, t->mbps, err);
}

struct dard_topo *dard_gen_fattree(unsigned p, uint32_t mbps, char *err)
{
	struct dard_topo *t;
	unsigned h = p / 2, c, k, i, j;

	if (p < 2 || p % 2 || p > DARD_FATTREE_MAX)
		return gen_fail(NULL, err,
				"fattree:%u: p must be even and in 2..%d", p,
				DARD_FATTREE_MAX);
	t = dard_topo_new();
	if (!t)
		return NULL;
	t->mbps = mbps;
	snprintf(t->name, sizeof(t->name), "fattree:%u", p);
	if (levels(t, "core", "aggr", "tor", err))
		goto err;
	for (c = 1; c <= h * h; c++)
		if (sw(t, "core", err, "core%u", c, 0))
			goto err;
	for (k = 1; k <= p; k++)
		for (i = 1; i <= h; i++)
			if (sw(t, "aggr", err, "aggr%u_%u", k, i))
				goto err;
	for (k = 1; k <= p; k++)
		for (i = 1; i <= h; i++)
			if (sw(t, "tor", err, "tor%u_%u", k, i))
				goto err;
	for (k = 1; k <= p; k++)
		for (j = 1; j <= h * h; j++)
			if (sw(t, NULL, err, "e%u_%u", k, j))
				goto err;
	/* core c reaches aggregation switch (c - 1) / h + 1 of every pod. */
	for (c = 1; c <= h * h; c++)
		for (k = 1; k <= p; k++)
			if (link2(t, err, "core%u", c, 0, k, "aggr%u_%u", k,
				  (c - 1) / h + 1, h + (c - 1) % h + 1))
				goto err;
	for (k = 1; k <= p; k++)
		for (i = 1; i <= h; i++)
			for (j = 1; j <= h; j++)
				if (link2(t, err, "aggr%u_%u", k, i, j,
					  "tor%u_%u", k, j, h + i))
					goto err;
	for (k = 1; k <= p; k++)
		for (i = 1; i <= h; i++)
			for (j = 1; j <= h; j++)
				if (link2(t, err, "tor%u_%u", k, i, j, "e%u_%u",
					  k, (i - 1) * h + j, 1))
					goto err;
	if (dard_topo_finalize(t, err))
		goto err;
	return t;
err:
	return gen_fail(t, NULL, NULL);
}

/*
 * VL2: D_I aggregation switches of D_A ports, paired into D_I/2 pods; each
 * pod's D_A/2 ToRs reach both of its aggregation switches; D_A/2
 * intermediate switches of D_I ports reach every aggregation switch.
 */
struct dard_topo *dard_gen_clos(unsigned di, unsigned da, unsigned hosts,
				uint32_t mbps, char *err)
{
	struct dard_topo *t;
	unsigned m, a, k, i, j;

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
	t = dard_topo_new();
	if (!t)
		return NULL;
	t->mbps = mbps;
	snprintf(t->name, sizeof(t->name), "clos:%u,%u,%u", di, da, hosts);
	if (levels(t, "int", "aggr", "tor", err))
		goto err;
	for (m = 1; m <= da / 2; m++)
		if (sw(t, "int", err, "int%u", m, 0))
			goto err;
	for (k = 1; k <= di / 2; k++)
		for (i = 1; i <= 2; i++)
			if (sw(t, "aggr", err, "aggr%u_%u", k, i))
				goto err;
	for (k = 1; k <= di / 2; k++)
		for (i = 1; i <= da / 2; i++)
			if (sw(t, "tor", err, "tor%u_%u", k, i))
				goto err;
	for (k = 1; k <= di / 2; k++)
		for (j = 1; j <= da / 2 * hosts; j++)
			if (sw(t, NULL, err, "e%u_%u", k, j))
				goto err;
	for (m = 1; m <= da / 2; m++)
		for (a = 1; a <= di; a++)
			if (link2(t, err, "int%u", m, 0, a, "aggr%u_%u",
				  (a + 1) / 2, (a - 1) % 2 + 1, da / 2 + m))
				goto err;
	for (k = 1; k <= di / 2; k++)
		for (i = 1; i <= 2; i++)
			for (j = 1; j <= da / 2; j++)
				if (link2(t, err, "aggr%u_%u", k, i, j,
					  "tor%u_%u", k, j, hosts + i))
					goto err;
	for (k = 1; k <= di / 2; k++)
		for (i = 1; i <= da / 2; i++)
			for (j = 1; j <= hosts; j++)
				if (link2(t, err, "tor%u_%u", k, i, j, "e%u_%u",
					  k, (i - 1) * hosts + j, 1))
					goto err;
	if (dard_topo_finalize(t, err))
		goto err;
	return t;
err:
	return gen_fail(t, NULL, NULL);
}

/*
 * The 8-core three-tier tree: per pod two aggregation switches, each with
 * 12 access switches below and all 8 cores above (12:8 = 1.5:1); each
 * access switch has 5 hosts and one link to either aggregation switch of
 * its pod (5:2 = 2.5:1). All links have the same capacity.
 */
enum { T3_CORES = 8, T3_AGGR = 2, T3_ACC = 12, T3_HOSTS = 5 };

struct dard_topo *dard_gen_3tier(unsigned pods, uint32_t mbps, char *err)
{
	struct dard_topo *t;
	unsigned c, k, i, j;

	if (pods < 1 || pods > 64)
		return gen_fail(NULL, err, "3tier:%u: pods must be in 1..64",
				pods);
	t = dard_topo_new();
	if (!t)
		return NULL;
	t->mbps = mbps;
	snprintf(t->name, sizeof(t->name), "3tier:%u", pods);
	if (levels(t, "core", "aggr", "acc", err))
		goto err;
	for (c = 1; c <= T3_CORES; c++)
		if (sw(t, "core", err, "core%u", c, 0))
			goto err;
	for (k = 1; k <= pods; k++)
		for (i = 1; i <= T3_AGGR; i++)
			if (sw(t, "aggr", err, "aggr%u_%u", k, i))
				goto err;
	for (k = 1; k <= pods; k++)
		for (i = 1; i <= T3_ACC; i++)
			if (sw(t, "acc", err, "acc%u_%u", k, i))
				goto err;
	for (k = 1; k <= pods; k++)
		for (j = 1; j <= T3_ACC * T3_HOSTS; j++)
			if (sw(t, NULL, err, "e%u_%u", k, j))
				goto err;
	for (c = 1; c <= T3_CORES; c++)
		for (k = 1; k <= pods; k++)
			for (i = 1; i <= T3_AGGR; i++)
				if (link2(t, err, "core%u", c, 0,
					  (k - 1) * T3_AGGR + i, "aggr%u_%u", k,
					  i, T3_ACC + c))
					goto err;
	for (k = 1; k <= pods; k++)
		for (i = 1; i <= T3_AGGR; i++)
			for (j = 1; j <= T3_ACC; j++)
				if (link2(t, err, "aggr%u_%u", k, i, j,
					  "acc%u_%u", k, j, T3_HOSTS + i))
					goto err;
	for (k = 1; k <= pods; k++)
		for (i = 1; i <= T3_ACC; i++)
			for (j = 1; j <= T3_HOSTS; j++)
				if (link2(t, err, "acc%u_%u", k, i, j, "e%u_%u",
					  k, (i - 1) * T3_HOSTS + j, 1))
					goto err;
	if (dard_topo_finalize(t, err))
		goto err;
	return t;
err:
	return gen_fail(t, NULL, NULL);
}

/* Parses "N[,N...]" into at most max unsigned values; returns the count. */
static int parse_list(const char *s, unsigned *v, int max)
{
	int n = 0;

	while (n < max) {
		char *end;
		unsigned long x;

		if (*s < '0' || *s > '9')
			return -1;
		x = strtoul(s, &end, 10);
		if (x > 100000)
			return -1;
		v[n++] = x;
		if (!*end)
			return n;
		if (*end != ',')
			return -1;
		s = end + 1;
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
		if (parse_list(spec + 8, v, 1) != 1)
			goto bad;
		return dard_gen_fattree(v[0], mbps, err);
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
		"invalid topology `%s' (expected fattree:P, clos:DI,DA[,HOSTS] or 3tier[:PODS])",
		spec);
}
