// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * --fail and --degrade: link failures and degraded links for --run,
 * resolved against the topology. A --fail spec is a comma-separated list
 * of LINK@WHEN, a --degrade spec of LINK=F. LINK is two adjacent
 * switches, A-B (names may hold '-': the split where both halves name
 * nodes); core:N, the topology's Nth core link (a root's link down to a
 * switch, counted from 1 in the order dardctl topo gen lists them); or
 * random:N, N distinct random core links drawn from the seed (the same
 * draw for either option). WHEN is T (down at T s for good) or T1-T2
 * (back up at T2); F is the share of its capacity a degraded link keeps
 * (above 0, below 1), for the whole run.
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
static int parse_pair(const struct dard_topo *t, const char *opt,
		      const char *item, char *what, uint32_t *link, char *err)
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
			"--%s `%s': expected two switches of %s as A-B, core:N or random:N",
			opt, item, dard_topo_label(t));
	if (t->node[a].is_host || t->node[b].is_host)
		return dard_fail(
			err, -EINVAL,
			"--%s `%s': %s is a host; only links between switches %s",
			opt, item, t->node[t->node[a].is_host ? a : b].name,
			strcmp(opt, "fail") ? "degrade" : "fail");
	*link = link_of(t, a, b);
	if (*link == DARD_NONE)
		return dard_fail(err, -EINVAL,
				 "--%s `%s': %s and %s are not linked", opt,
				 item, t->node[a].name, t->node[b].name);
	return 0;
}

static int is_core(const struct dard_topo *t, uint32_t l)
{
	return t->node[t->link[l].up].level == 0 &&
	       !t->node[t->link[l].down].is_host;
}

/* The core links' count, and their indices into pick (if not NULL). */
static uint32_t core_links(const struct dard_topo *t, uint32_t *pick)
{
	uint32_t l, n = 0;

	for (l = 0; l < t->nlinks; l++)
		if (is_core(t, l)) {
			if (pick)
				pick[n] = l;
			n++;
		}
	return n;
}

/*
 * random:N: N distinct core links into links (room for every core link),
 * drawn from rng; their number, or 0 with err set.
 */
static uint32_t parse_random(const struct dard_topo *t, const char *opt,
			     const char *n_s, uint64_t *rng, uint32_t *links,
			     char *err)
{
	uint32_t ncore = core_links(t, NULL), want, i;
	char what[32];
	int ret;

	snprintf(what, sizeof(what), "--%s random", opt);
	ret = dard_parse_u32(n_s, 1, ncore, &want);
	if (ret) {
		char dom[64];

		snprintf(dom, sizeof(dom), "1 to %u core links", ncore);
		dard_num_fail(err, ret, what, n_s, dom);
		return 0;
	}
	core_links(t, links);
	/* A partial Fisher-Yates: the first want are the draw. */
	for (i = 0; i < want; i++) {
		uint32_t j = i + dard_xorshift64s(rng) % (ncore - i), x;

		x = links[i];
		links[i] = links[j];
		links[j] = x;
	}
	return want;
}

/* core:N: the Nth core link (from 1) into links; 1, or 0 with err set. */
static uint32_t parse_core(const struct dard_topo *t, const char *opt,
			   const char *n_s, uint32_t *links, char *err)
{
	uint32_t ncore = core_links(t, links), nth;
	char what[32], dom[64];
	int ret;

	snprintf(what, sizeof(what), "--%s core", opt);
	ret = dard_parse_u32(n_s, 1, ncore, &nth);
	if (ret) {
		snprintf(dom, sizeof(dom), "1 to %u core links", ncore);
		dard_num_fail(err, ret, what, n_s, dom);
		return 0;
	}
	links[0] = links[nth - 1];
	return 1;
}

/*
 * LINK (what, in item) into links (room for every core link): how many
 * links it names, or 0 with err set.
 */
static uint32_t parse_link(const struct dard_topo *t, const char *opt,
			   const char *item, char *what, uint64_t *rng,
			   uint32_t *links, char *err)
{
	if (!strncmp(what, "random:", 7))
		return parse_random(t, opt, what + 7, rng, links, err);
	if (!strncmp(what, "core:", 5))
		return parse_core(t, opt, what + 5, links, err);
	return parse_pair(t, opt, item, what, links, err) ? 0 : 1;
}

/* One LINK@WHEN into out (room for every core link plus one). */
static int parse_item(const struct dard_topo *t, char *item, uint64_t *rng,
		      uint32_t *links, struct dard_sim_fail *out, size_t *n,
		      char *err)
{
	struct dard_sim_fail fl;
	char *at = strchr(item, '@'), whole[128];
	uint32_t i, nl;
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
	nl = parse_link(t, "fail", whole, item, rng, links, err);
	if (!nl)
		return -EINVAL;
	for (i = 0; i < nl; i++) {
		out[*n] = fl;
		out[(*n)++].link = links[i];
	}
	return 0;
}

int sim_fail_resolve(const struct dard_topo *t, const struct sim_args *a,
		     struct dard_sim_fail **out, size_t *n, char *err)
{
	uint64_t rng = a->sim.seed * 2 + 1;
	size_t i, cap = 0;
	char *buf = NULL, *tok, *save;
	uint32_t *links;
	int ret = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < a->nfail; i++)
		for (tok = (char *)a->fail[i]; tok; tok = strchr(tok + 1, ','))
			cap += t->nlinks;
	if (!cap)
		return 0;
	*out = calloc(cap, sizeof(**out));
	links = calloc(t->nlinks + 1, sizeof(*links));
	if (!*out || !links) {
		free(*out);
		free(links);
		*out = NULL;
		return dard_fail(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < a->nfail && !ret; i++) {
		free(buf);
		buf = strdup(a->fail[i]);
		if (!buf)
			ret = dard_fail(err, -ENOMEM, "out of memory");
		for (tok = buf ? strtok_r(buf, ",", &save) : NULL; tok && !ret;
		     tok = strtok_r(NULL, ",", &save))
			ret = parse_item(t, tok, &rng, links, *out, n, err);
	}
	free(buf);
	free(links);
	if (!ret && !*n)
		ret = dard_fail(err, -EINVAL, "no link in --fail");
	if (ret) {
		free(*out);
		*out = NULL;
	}
	return ret;
}

/* One LINK=F into out (room for every core link more). */
static int parse_degrade(const struct dard_topo *t, char *item, uint64_t *rng,
			 uint32_t *links, struct dard_sim_degrade *out,
			 size_t *n, char *err)
{
	char *eq = strrchr(item, '='), whole[128];
	uint32_t i, nl;
	size_t j;
	double f;
	int ret;

	snprintf(whole, sizeof(whole), "%s", item);
	if (!eq)
		return dard_fail(err, -EINVAL,
				 "--degrade `%s': expected LINK=FACTOR", whole);
	*eq++ = '\0';
	/* 0 is --fail's, and 1 no degrade at all: neither is meant. */
	ret = dard_parse_double(eq, 0, 1, &f);
	if (!ret && (f == 0 || f == 1))
		ret = -ERANGE;
	if (ret)
		return dard_num_fail(
			err, ret, "--degrade factor", eq,
			"a share of the capacity above 0, below 1");
	nl = parse_link(t, "degrade", whole, item, rng, links, err);
	if (!nl)
		return -EINVAL;
	for (i = 0; i < nl; i++) {
		const struct dard_link *l = &t->link[links[i]];

		/* Which factor would win is no question to leave open. */
		for (j = 0; j < *n; j++)
			if (out[j].link == links[i])
				return dard_fail(
					err, -EINVAL,
					"--degrade `%s': %s-%s is degraded twice",
					whole, t->node[l->up].name,
					t->node[l->down].name);
		out[(*n)++] = (struct dard_sim_degrade){links[i], f};
	}
	return 0;
}

int sim_degrade_resolve(const struct dard_topo *t, const struct sim_args *a,
			struct dard_sim_degrade **out, size_t *n, char *err)
{
	/* --fail's draw: random:1 names one link under either option. */
	uint64_t rng = a->sim.seed * 2 + 1;
	char *buf = NULL, *tok, *save;
	uint32_t *links;
	size_t i;
	int ret = 0;

	*out = NULL;
	*n = 0;
	if (!a->ndegrade)
		return 0;
	/* No link twice: every link once at most. */
	*out = calloc(t->nlinks + 1, sizeof(**out));
	links = calloc(t->nlinks + 1, sizeof(*links));
	if (!*out || !links) {
		ret = dard_fail(err, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < a->ndegrade && !ret; i++) {
		free(buf);
		buf = strdup(a->degrade[i]);
		if (!buf)
			ret = dard_fail(err, -ENOMEM, "out of memory");
		for (tok = buf ? strtok_r(buf, ",", &save) : NULL; tok && !ret;
		     tok = strtok_r(NULL, ",", &save))
			ret = parse_degrade(t, tok, &rng, links, *out, n, err);
	}
	if (!ret && !*n)
		ret = dard_fail(err, -EINVAL, "no link in --degrade");
out:
	free(buf);
	free(links);
	if (ret) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return ret;
}
