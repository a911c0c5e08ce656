// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The fidelity checks on the sampler's files and the calibration's
 * flows (fidelity.h). A run is compared with a fluid model: links that
 * carry what tbf lets through and lose nothing while not full, on a
 * machine with CPU to spare.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fidelity.h"
#include "thresholds.h"

void exp_judge_cpu(const struct exp_cpu_sample *s, size_t n, double from,
		   double to, struct exp_cpu_figures *out,
		   struct exp_verdict *v)
{
	unsigned in = 0, busy = 0;
	double sum = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i].t < from || s[i].t > to)
			continue;
		in++;
		sum += s[i].idle;
		busy += s[i].idle < EXP_CPU_IDLE_MIN;
	}
	out->n = in;
	out->idle = in ? sum / in : NAN;
	out->busy = in ? (double)busy / in : NAN;
	if (!in) {
		exp_skip(v, "cpu", "no sample between t0 and the last end");
		return;
	}
	v->judged++;
	if (out->busy > EXP_CPU_BUSY_MAX)
		exp_reason(v, "cpu", out->busy,
			   "cpu: %.1f%% of %u samples had an idle share under "
			   "%.2f (more than %.0f%%)",
			   100 * out->busy, in, EXP_CPU_IDLE_MIN,
			   100 * EXP_CPU_BUSY_MAX);
}

static int by_link_time(const void *a, const void *b)
{
	const struct exp_link_sample *x = a, *y = b;
	int c = strcmp(x->node, y->node);

	if (!c)
		c = strcmp(x->dev, y->dev);
	if (!c)
		c = (x->t > y->t) - (x->t < y->t);
	return c;
}

static int same_link(const struct exp_link_sample *a,
		     const struct exp_link_sample *b)
{
	return !strcmp(a->node, b->node) && !strcmp(a->dev, b->dev);
}

/* What the links' intervals showed. */
struct links_found {
	unsigned intervals, over, over_links, drop_links;
	double worst;			   /* the highest rate over */
	const struct exp_link_sample *top; /* on this link */
	double drops, top_drops;	   /* all, and the most on one link */
	const struct exp_link_sample *dropper;
};

/*
 * The rate over s[i - 1]..s[i] in Mbit/s; NAN when there is no such
 * interval or its counters went back (the interface was made anew).
 */
static double rate_at(const struct exp_link_sample *s, size_t n, size_t i)
{
	double dt;

	if (i < 1 || i >= n)
		return NAN;
	dt = s[i].t - s[i - 1].t;
	if (!(dt > 0) || s[i].tx_bytes < s[i - 1].tx_bytes ||
	    s[i].drops < s[i - 1].drops)
		return NAN;
	return (s[i].tx_bytes - s[i - 1].tx_bytes) * 8 / dt / 1e6;
}

/*
 * Whether a link was short of full around interval i: under
 * EXP_DROP_UNDER x link in it and in its neighbours. A queue that
 * dropped in an interval beside a full one may have been full at that
 * moment (a flow's start or end inside the interval lowers its mean).
 */
static int short_around(const struct exp_link_sample *s, size_t n, size_t i,
			double link)
{
	double under = EXP_DROP_UNDER * link;
	size_t k;

	for (k = i - 1; k <= i + 1; k++)
		if (rate_at(s, n, k) >= under)
			return 0;
	return 1;
}

/* One link's samples s[0..n), all of one link, in time. */
static void one_link(const struct exp_link_sample *s, size_t n, double from,
		     double to, double link, struct links_found *f)
{
	/* tbf may send its bucket on top of the rate (thresholds.h). */
	double burst =
		fmax(EXP_TBF_BURST_S * link * 1e6 / 8, EXP_TBF_BURST_MIN_BYTES);
	double dt, rate, drops = 0, worst = 0;
	unsigned over = 0;
	size_t i;

	for (i = 1; i < n; i++) {
		const struct exp_link_sample *a = &s[i - 1], *b = &s[i];

		dt = b->t - a->t;
		rate = rate_at(s, n, i);
		if (isnan(rate) || b->t <= from || a->t >= to)
			continue;
		f->intervals++;
		if (rate > EXP_SHAPING_OVER * link + burst * 8 / dt / 1e6) {
			over++;
			worst = fmax(worst, rate);
		}
		if (b->drops > a->drops && short_around(s, n, i, link))
			drops += b->drops - a->drops;
	}
	f->over += over;
	f->over_links += over > 0;
	if (over && worst > f->worst) {
		f->worst = worst;
		f->top = s;
	}
	f->drops += drops;
	f->drop_links += drops > 0;
	if (drops > f->top_drops) {
		f->top_drops = drops;
		f->dropper = s;
	}
}

void exp_judge_links(struct exp_link_sample *s, size_t n, double from,
		     double to, double link, struct exp_verdict *v)
{
	struct links_found f = {0};
	size_t i, j;

	qsort(s, n, sizeof(*s), by_link_time);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && same_link(&s[i], &s[j]); j++)
			;
		one_link(s + i, j - i, from, to, link, &f);
	}
	if (!f.intervals) {
		exp_skip(v, "shaping",
			 "no link sampled twice between t0 and the last end");
		return;
	}
	v->judged++;
	if (f.top)
		exp_reason(v, "shaping", f.worst,
			   "shaping: %s:%s carried %.2f Mbit/s, above %.2f x "
			   "%g Mbit/s (%u intervals on %u links)",
			   f.top->node, f.top->dev, f.worst, EXP_SHAPING_OVER,
			   link, f.over, f.over_links);
	if (f.dropper)
		exp_reason(v, "shaping", f.top_drops,
			   "shaping: %s:%s dropped %.0f packets in intervals "
			   "under %.1f x %g Mbit/s (%.0f on %u links)",
			   f.dropper->node, f.dropper->dev, f.top_drops,
			   EXP_DROP_UNDER, link, f.drops, f.drop_links);
}

void exp_judge_calib(const struct exp_calib_flow *f, size_t n, double link,
		     double goodput, struct exp_calib *c)
{
	const struct exp_calib_flow *slow = NULL;
	size_t i;

	c->flows = n;
	c->below = 0;
	c->want = EXP_CALIB_MIN * link * goodput;
	for (i = 0; i < n; i++) {
		if (!slow || f[i].mbps < slow->mbps)
			slow = &f[i];
		c->below += f[i].mbps < c->want;
	}
	if (slow) {
		c->slowest = slow->id;
		snprintf(c->slowest_src, sizeof(c->slowest_src), "%s",
			 slow->src);
		snprintf(c->slowest_dst, sizeof(c->slowest_dst), "%s",
			 slow->dst);
		c->slowest_mbps = slow->mbps;
	}
	if (!n || !isfinite(c->want)) {
		exp_skip(&c->v, "calibration",
			 !n ? "no calibration flow"
			    : "no link rate or goodput in meta");
		return;
	}
	c->v.judged++;
	if (c->below)
		exp_reason(&c->v, "calibration", c->below,
			   "calibration: %u of %u flows under %.1f x %g x %g "
			   "= %.2f Mbit/s; the slowest, %u (%s -> %s), at "
			   "%.2f Mbit/s",
			   c->below, c->flows, EXP_CALIB_MIN, link, goodput,
			   c->want, c->slowest, c->slowest_src, c->slowest_dst,
			   c->slowest_mbps);
}
