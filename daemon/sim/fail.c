// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * --fail: link failures for --run, resolved against the topology. A spec
 * is a comma-separated list of LINK@WHEN: LINK is two adjacent switches,
 * A-B (names may hold '-': the split where both halves name nodes), or
 * random:N, N distinct random core links (a root's link down to a
 * switch), drawn from the seed; WHEN is T (down at T s for good) or
 * T1-T2 (back up at T2).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"
#include "rng.h"
#include "sim.h"

/* The link between nodes a and b, or DARD_NONE. */
static uint32_t link_of(const struct dard_topo *t, uint32_t a, uint32_t b)
{
	uint32_t l;

	for (l = 0; l < t->nlinks; l++)
		if ((t->link[l].up == a && t->link[l].down == b) ||
		    (t->link[l].up == b && t->link[l].down == a))
			return l;
	return DARD_NONE;
}

/* WHEN into fl's down and up. */
static int parse_when(const char *item, const char *when,
		      struct dard_sim_fail *fl, char *err)
{
	char buf[64], *dash;
	int ret;

	if (strlen(when) >= sizeof(buf))
		return dard_fail(err, -EINVAL, "--fail `%s': time too long",
				 item);
	strcpy(buf, when);
	dash = strchr(buf, '-');
	if (dash)
		*dash++ = '\0';
	fl->up = HUGE_VAL;
	ret = dard_parse_double(buf, 0, 1e7, &fl->down);
	if (ret)
		return dard_num_fail(err, ret, "--fail time", buf,
				     "seconds from 0 to 10^7");
	if (!dash)
		return 0;
	ret = dard_parse_double(dash, 0, 1e7, &fl->up);
	if (ret)
		return dard_num_fail(err, ret, "--fail time", dash,
				     "seconds from 0 to 10^7");
	if (!(fl->up > fl->down))
		return dard_fail(err, -EINVAL,
				 "--fail `%s': back up at %g, not after %g",
				 item, fl->up, fl->down);
	return 0;
}

/* A-B into its link: the split where both halves are nodes. */
static int parse_pair(const struct dard_topo *t, const char *item, char *what,
		      uint32_t *link, char *err)
{
	uint32_t a = DARD_NONE, b = DARD_NONE;
	char *dash;

	for (dash = strchr(what, '-'); dash; dash = strchr(dash + 1, '-')) {
		*dash = '\0';
		a = dard_topo_find(t, what);
		b = dard_topo_find(t, dash + 1);
		*dash = '-';
		if (a != DARD_NONE && b != DARD_NONE)
			break;
	}
	if (!dash)
		return dard_fail(
			err, -EINVAL,
			"--fail `%s': expected two switches of %s as A-B, or random:N",
			item, dard_topo_label(t));
	if (t->node[a].is_host || t->node[b].is_host)
		return dard_fail(
			err, -EINVAL,
			"--fail `%s': %s is a host; only links between switches fail",
			item, t->node[t->node[a].is_host ? a : b].name);
	*link = link_of(t, a, b);
	if (*link == DARD_NONE)
		return dard_fail(err, -EINVAL,
				 "--fail `%s': %s and %s are not linked", item,
				 t->node[a].name, t->node[b].name);
	return 0;
}

static int is_core(const struct dard_topo *t, uint32_t l)
{
	return t->node[t->link[l].up].level == 0 &&
	       !t->node[t->link[l].down].is_host;
}

/* random:N: appends N distinct core links, down as fl says. */
static int parse_random(const struct dard_topo *t, const char *n_s,
			const struct dard_sim_fail *fl, uint64_t *rng,
			struct dard_sim_fail *out, size_t *n, char *err)
{
	uint32_t ncore = 0, want, l, *pick;
	uint32_t i;
	int ret;

	for (l = 0; l < t->nlinks; l++)
		ncore += is_core(t, l);
	ret = dard_parse_u32(n_s, 1, ncore, &want);
	if (ret) {
		char dom[64];

		snprintf(dom, sizeof(dom), "1 to %u core links", ncore);
		return dard_num_fail(err, ret, "--fail random", n_s, dom);
	}
	pick = malloc(ncore * sizeof(*pick));
	if (!pick)
		return dard_fail(err, -ENOMEM, "out of memory");
	for (l = 0, i = 0; l < t->nlinks; l++)
		if (is_core(t, l))
			pick[i++] = l;
	/* A partial Fisher-Yates: the first want are the draw. */
	for (i = 0; i < want; i++) {
		uint32_t j = i + dard_xorshift64s(rng) % (ncore - i), x;

		x = pick[i];
		pick[i] = pick[j];
		pick[j] = x;
		out[*n] = *fl;
		out[(*n)++].link = pick[i];
	}
	free(pick);
	return 0;
}

/* One LINK@WHEN into out (room for every core link plus one). */
static int parse_item(const struct dard_topo *t, char *item, uint64_t *rng,
		      struct dard_sim_fail *out, size_t *n, char *err)
{
	struct dard_sim_fail fl;
	char *at = strchr(item, '@'), whole[128];
	int ret;

	snprintf(whole, sizeof(whole), "%s", item);
	if (!at)
		return dard_fail(err, -EINVAL,
				 "--fail `%s': expected LINK@SECONDS[-SECONDS]",
				 whole);
	*at++ = '\0';
	ret = parse_when(whole, at, &fl, err);
	if (ret)
		return ret;
	if (!strncmp(item, "random:", 7))
		return parse_random(t, item + 7, &fl, rng, out, n, err);
	ret = parse_pair(t, whole, item, &fl.link, err);
	if (ret)
		return ret;
	out[(*n)++] = fl;
	return 0;
}

int sim_fail_resolve(const struct dard_topo *t, const struct sim_args *a,
		     struct dard_sim_fail **out, size_t *n, char *err)
{
	uint64_t rng = a->sim.seed * 2 + 1;
	size_t i, cap = 0;
	char *buf = NULL, *tok, *save;
	int ret = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < a->nfail; i++)
		for (tok = (char *)a->fail[i]; tok; tok = strchr(tok + 1, ','))
			cap += t->nlinks;
	if (!cap)
		return 0;
	*out = calloc(cap, sizeof(**out));
	if (!*out)
		return dard_fail(err, -ENOMEM, "out of memory");
	for (i = 0; i < a->nfail && !ret; i++) {
		free(buf);
		buf = strdup(a->fail[i]);
		if (!buf)
			ret = dard_fail(err, -ENOMEM, "out of memory");
		for (tok = buf ? strtok_r(buf, ",", &save) : NULL; tok && !ret;
		     tok = strtok_r(NULL, ",", &save))
			ret = parse_item(t, tok, &rng, *out, n, err);
	}
	free(buf);
	if (!ret && !*n)
		ret = dard_fail(err, -EINVAL, "no link in --fail");
	if (ret) {
		free(*out);
		*out = NULL;
	}
	return ret;
}
