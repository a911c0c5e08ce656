// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Flows below their max-min share, second by second (fairshare.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "maxmin.h"
#include "fairshare.h"

/* The directed link from node a to its neighbour b, or -1. */
static long dlink(const struct dard_topo *t, uint32_t a, uint32_t b)
{
	uint32_t l = dard_topo_link_between(t, a, b);

	if (l == DARD_NONE)
		return -1;
	return 2 * (long)l + (t->link[l].up == a);
}

int exp_path_links(const struct dard_topo *t, uint32_t src, uint32_t dst,
		   const char *switches, uint32_t *link, unsigned *n, char *err)
{
	char name[DARD_NAME_MAX];
	const char *p = switches;
	uint32_t prev = src, node;
	size_t len;
	long l;

	*n = 0;
	for (;;) {
		p += strspn(p, " ");
		len = strcspn(p, " ");
		if (!len)
			break;
		if (len >= sizeof(name))
			return dard_fail(err, -EINVAL,
					 "a switch name too long");
		memcpy(name, p, len);
		name[len] = '\0';
		p += len;
		node = dard_topo_find(t, name);
		if (node == DARD_NONE || t->node[node].is_host)
			return dard_fail(err, -EINVAL, "no switch `%s' in %s",
					 name, dard_topo_label(t));
		l = dlink(t, prev, node);
		if (l < 0 || *n + 2 > EXP_PATH_LINKS)
			return dard_fail(err, -EINVAL, "no link from %s to %s",
					 t->node[prev].name, name);
		link[(*n)++] = l;
		prev = node;
	}
	if (!*n)
		return 0;
	l = dlink(t, prev, dst);
	if (l < 0)
		return dard_fail(err, -EINVAL, "no link from %s to %s",
				 t->node[prev].name, t->node[dst].name);
	link[(*n)++] = l;
	return 0;
}

/*
 * The last sighting at or before t; before the first, the first (the
 * paths are read a second or two apart, and a flow has its hashed path
 * from its first packet: no scheduler moves one that young), so that
 * a new flow counts on its links from its start. NULL: never seen.
 */
static const struct exp_seen *seen_at(const struct exp_sflow *f, double t)
{
	size_t lo = 0, hi = f->nseen;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (f->seen[mid].t <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo)
		return &f->seen[lo - 1];
	return f->nseen ? &f->seen[0] : NULL;
}

/* f's interval covering t (since t0), if it is one to judge. */
static const struct exp_iv *iv_at(const struct exp_sflow *f, double t)
{
	const struct exp_iv *iv;
	size_t i;

	for (i = 1; i < f->niv; i++) {
		iv = &f->iv[i];
		if (!(f->begin + iv->start <= t && t < f->begin + iv->end))
			continue;
		if (i == f->niv - 1 &&
		    iv->end - iv->start <
			    EXP_IPERF_PARTIAL * EXP_IPERF_INTERVAL)
			return NULL;
		return iv;
	}
	return NULL;
}

/* Per flow: its judged seconds' ratios, and the path last judged on. */
struct acc {
	double sum;
	unsigned n;
	const char *path;
	double alone; /* the last second it was alone on its path; -2: none */
};

struct second {
	const struct exp_sflow **run; /* the flows sharing it */
	const struct exp_seen **on;
	struct dard_mm_flow *mm;
	double *rate, *cap;
	unsigned *cnt; /* per directed link: the flows on it */
	size_t nrun;
};

/*
 * Whether a flow is alone on every link of its path: an idle path, its
 * max-min share the links' goodput. Only there is a flow under its share
 * the testbed's fault: beside other flows it may lose to them, or not
 * yet have grown into a share another's end left it, as TCP's flows do
 * and the fluid model's do not.
 */
static int alone(const struct second *s, const struct exp_seen *on)
{
	unsigned j;

	for (j = 0; j < on->nlinks; j++)
		if (s->cnt[on->link[j]] != 1)
			return 0;
	return 1;
}

/*
 * Whether no other flow of f[0..n) that lived at any time in [a, b)
 * shares a link with on, the path of self: a flow that started or
 * ended inside the interval judged (and so is not among the second's
 * runners) took part of it.
 */
static int alone_over(const struct exp_sflow *f, size_t n,
		      const struct exp_sflow *self, const struct exp_seen *on,
		      double a, double b)
{
	const struct exp_seen *g;
	unsigned j, m;
	size_t i;

	for (i = 0; i < n; i++) {
		if (&f[i] == self || !(f[i].begin < b && f[i].end > a))
			continue;
		g = seen_at(&f[i], f[i].begin > a ? f[i].begin : a);
		for (j = 0; g && j < g->nlinks; j++)
			for (m = 0; m < on->nlinks; m++)
				if (g->link[j] == on->link[m])
					return 0;
	}
	return 1;
}

/* Second k: who shares it, their shares, and the judging. */
static int judge_second(struct second *s, uint32_t nlinks,
			const struct exp_sflow *f, size_t n, double k,
			struct acc *acc, struct exp_share *out)
{
	const struct exp_seen *on;
	const struct exp_iv *iv;
	double mid = k + 0.5, r;
	size_t i;
	unsigned j;
	int ret;

	s->nrun = 0;
	for (i = 0; i < n; i++) {
		if (!(f[i].begin <= k && f[i].end >= k + 1))
			continue;
		on = seen_at(&f[i], mid);
		if (!on || !on->nlinks)
			continue;
		s->run[s->nrun] = &f[i];
		s->on[s->nrun] = on;
		s->mm[s->nrun++] = (struct dard_mm_flow){on->link, on->nlinks};
	}
	if (!s->nrun)
		return 0;
	ret = dard_maxmin(s->cap, nlinks, s->mm, s->nrun, s->rate);
	if (ret)
		return ret;
	memset(s->cnt, 0, nlinks * sizeof(*s->cnt));
	for (i = 0; i < s->nrun; i++)
		for (j = 0; j < s->on[i]->nlinks; j++)
			s->cnt[s->on[i]->link[j]]++;
	for (i = 0; i < s->nrun; i++) {
		struct acc *a = &acc[s->run[i] - f];
		int was = a->alone == k - 1;

		if (!alone(s, s->on[i])) {
			a->alone = -2;
			continue;
		}
		a->alone = k;
		/* Alone the second before too: not growing into it. */
		iv = iv_at(s->run[i], mid);
		if (!iv || !was ||
		    !alone_over(f, n, s->run[i], s->on[i],
				s->run[i]->begin + iv->start,
				s->run[i]->begin + iv->end))
			continue;
		r = iv->mbps / s->rate[i];
		out->judged++;
		out->below += r < EXP_SHARE_BELOW;
		a->sum += r;
		a->n++;
		a->path = s->on[i]->path;
	}
	return 0;
}

/* The EXP_SHARE_WORST flows of lowest mean ratio, lowest first. */
static void pick_worst(const struct exp_sflow *f, size_t n,
		       const struct acc *acc, struct exp_share *out)
{
	struct exp_worst w;
	size_t i;
	unsigned k;

	out->nworst = 0;
	for (i = 0; i < n; i++) {
		if (!acc[i].n)
			continue;
		w = (struct exp_worst){f[i].id, acc[i].sum / acc[i].n,
				       acc[i].path};
		if (out->nworst == EXP_SHARE_WORST &&
		    !(w.ratio < out->worst[EXP_SHARE_WORST - 1].ratio))
			continue;
		k = out->nworst < EXP_SHARE_WORST ? out->nworst++
						  : EXP_SHARE_WORST - 1;
		for (; k > 0 && out->worst[k - 1].ratio > w.ratio; k--)
			out->worst[k] = out->worst[k - 1];
		out->worst[k] = w;
	}
}

int exp_judge_share(uint32_t nlinks, double cap, const struct exp_sflow *f,
		    size_t n, struct exp_share *out)
{
	struct second s = {0};
	struct acc *acc = calloc(n ? n : 1, sizeof(*acc));
	double last = 0, k;
	size_t i;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	s.run = calloc(n ? n : 1, sizeof(*s.run));
	s.on = calloc(n ? n : 1, sizeof(*s.on));
	s.mm = calloc(n ? n : 1, sizeof(*s.mm));
	s.rate = calloc(n ? n : 1, sizeof(*s.rate));
	s.cap = malloc((nlinks ? nlinks : 1) * sizeof(*s.cap));
	s.cnt = malloc((nlinks ? nlinks : 1) * sizeof(*s.cnt));
	if (!acc || !s.run || !s.on || !s.mm || !s.rate || !s.cap || !s.cnt)
		ret = -ENOMEM;
	for (i = 0; !ret && i < n; i++)
		acc[i].alone = -2;
	for (i = 0; !ret && i < nlinks; i++)
		s.cap[i] = cap;
	for (i = 0; i < n; i++)
		if (isfinite(f[i].end) && f[i].end > last)
			last = f[i].end;
	for (k = 0; !ret && k + 1 <= last; k++)
		ret = judge_second(&s, nlinks, f, n, k, acc, out);
	if (!ret)
		pick_worst(f, n, acc, out);
	free(acc);
	free(s.run);
	free(s.on);
	free(s.mm);
	free(s.rate);
	free(s.cap);
	free(s.cnt);
	return ret;
}
