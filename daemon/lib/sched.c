// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Link and path states, and DARD's selfish scheduling round. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"
#include "sched.h"

uint32_t dard_host_dlink(const struct dard_topo *t, uint32_t host,
			 enum dard_dir dir)
{
	return dard_dlink(t->node[host].port[dard_topo_host_port(t, host) - 1],
			  dir);
}

double dard_bonf(double mbps, uint32_t flows)
{
	return flows ? mbps / flows : HUGE_VAL;
}

/* The load says whether the link is full; 0 and a missing load: unknown. */
static int use_load(const struct dard_lstate *l, double busy)
{
	return busy > 0 && l->loaded && l->load >= 0;
}

double dard_link_bonf(const struct dard_lstate *l, double busy)
{
	if (use_load(l, busy) && l->load < busy * l->mbps)
		return HUGE_VAL;
	return dard_bonf(l->mbps, l->flows);
}

double dard_link_est(const struct dard_lstate *l, double busy)
{
	/* In double: a reply may say 2^32 - 1 flows. */
	double e = l->mbps / (l->flows + 1.0);

	if (use_load(l, busy) && l->mbps - l->load > e)
		e = l->mbps - l->load;
	return e;
}

unsigned dard_path_dlinks(const struct dard_topo *t,
			  const struct dard_path *path, uint32_t *dlinks)
{
	unsigned i, n = 0;

	for (i = 0; i + 1 < path->nsw; i++) {
		uint32_t a = path->sw[i], b = path->sw[i + 1];
		uint32_t l = dard_topo_link_between(t, a, b);

		/* Up while the next switch is a level nearer the roots. */
		dlinks[n++] = dard_dlink(l, t->node[b].level < t->node[a].level
						    ? DARD_UP
						    : DARD_DOWN);
	}
	return n;
}

unsigned dard_path_dlinks_all(const struct dard_topo *t,
			      const struct dard_path *path, uint32_t *dlinks)
{
	unsigned n = 1 + dard_path_dlinks(t, path, dlinks + 1);

	dlinks[0] = dard_host_dlink(t, path->src, DARD_UP);
	dlinks[n] = dard_host_dlink(t, path->dst, DARD_DOWN);
	return n + 1;
}

void dard_path_state(const struct dard_lstate *ls, const uint32_t *dlinks,
		     unsigned n, double busy, struct dard_pstate *ps)
{
	unsigned i;

	memset(ps, 0, sizeof(*ps));
	ps->bonf = HUGE_VAL;
	ps->est = HUGE_VAL;
	ps->known = 1;
	for (i = 0; i < n; i++) {
		const struct dard_lstate *l = &ls[dlinks[i]];
		double b = dard_link_bonf(l, busy);
		double e = dard_link_est(l, busy);

		if (!l->known)
			ps->known = 0;
		if (l->dead)
			ps->dead = 1;
		/* The bottleneck; among links without flows, the slowest. */
		if (b < ps->bonf || (b == ps->bonf && e < ps->est)) {
			ps->bonf = b;
			ps->mbps = l->mbps;
			ps->flows = l->flows;
		}
		if (e < ps->est)
			ps->est = e;
	}
	if (ps->dead) {
		/* Nothing gets through: its elephants sit at zero. */
		ps->bonf = 0;
		ps->est = 0;
	}
}

struct cover {
	uint8_t *mark;
};

static int mark_path(const struct dard_path *path, void *arg)
{
	struct cover *c = arg;
	unsigned i;

	for (i = 0; i + 1 < path->nsw; i++)
		c->mark[path->sw[i]] = 1;
	return 0;
}

unsigned dard_monitor_switches(struct dard_pathctx *pc,
			       const struct dard_topo *t, uint32_t src_tor,
			       uint32_t dst_tor, uint32_t *out, unsigned max)
{
	uint32_t s = dard_topo_tor_host(t, src_tor),
		 d = dard_topo_tor_host(t, dst_tor), i;
	struct cover c;
	unsigned n = 0;

	if (s == DARD_NONE || d == DARD_NONE || src_tor == dst_tor)
		return 0;
	c.mark = calloc(t->nnodes, 1);
	if (!c.mark)
		return 0;
	dard_path_foreach(pc, s, d, mark_path, &c);
	for (i = 0; i < t->nnodes; i++) {
		if (!c.mark[i])
			continue;
		if (n < max)
			out[n] = i;
		n++;
	}
	free(c.mark);
	return n;
}

/*
 * The source of a round: the first dead path carrying our elephants, or
 * else the known one of them with the smallest BoNF; n when none.
 */
static unsigned pick_source(const struct dard_pstate *pv, const uint32_t *fv,
			    unsigned n)
{
	unsigned i, from = n;

	for (i = 0; i < n; i++)
		if (pv[i].dead && fv[i])
			return i;
	for (i = 0; i < n; i++)
		if (pv[i].known && fv[i] &&
		    (from == n || pv[i].bonf < pv[from].bonf))
			from = i;
	return from;
}

/* A path a flow may move onto: its state is known and it is alive. */
static int live(const struct dard_pstate *ps)
{
	return ps->known && !ps->dead;
}

int dard_sched_round(const struct dard_pstate *pv, const uint32_t *fv,
		     unsigned n, double delta, struct dard_move *m)
{
	unsigned i, from = pick_source(pv, fv, n), to = n;

	if (from == n)
		return 0;
	/* The least congested path to put it on. */
	for (i = 0; i < n; i++)
		if (live(&pv[i]) && (to == n || pv[i].bonf > pv[to].bonf))
			to = i;
	if (to == n || from == to)
		return 0;
	/* HUGE_VAL - HUGE_VAL is NaN: an empty path offers no gain over
	 * another that carries none of the congestion. A dead source
	 * gains whatever the target offers. */
	if (!pv[from].dead && !(pv[to].est - pv[from].bonf > delta))
		return 0;
	m->from = from;
	m->to = to;
	m->from_bonf = pv[from].bonf;
	m->estimate = pv[to].est;
	m->rate = -1;
	m->neutral = 0;
	m->count_est = 0;
	return 1;
}

int dard_path_links_has(const struct dard_path_links *p, uint32_t dl)
{
	unsigned i;

	for (i = 0; i < p->n; i++)
		if (p->dl[i] == dl)
			return 1;
	return 0;
}

double dard_path_count_est(const struct dard_lstate *ls,
			   const struct dard_path_links *from,
			   const struct dard_path_links *to)
{
	double e = HUGE_VAL, b;
	unsigned k;

	for (k = 0; k < to->n; k++) {
		const struct dard_lstate *l = &ls[to->dl[k]];

		b = dard_bonf(l->mbps,
			      l->flows + !dard_path_links_has(from, to->dl[k]));
		if (b < e)
			e = b;
	}
	return e;
}

/* What path `to' offers a flow of path `from' (dard_sched_round_links). */
static double target_est(const struct dard_lstate *ls,
			 const struct dard_path_links *from,
			 const struct dard_path_links *to, double busy)
{
	double e = HUGE_VAL;
	unsigned k;

	for (k = 0; k < to->n; k++) {
		const struct dard_lstate *l = &ls[to->dl[k]];
		/* A shared link carries the flow either way. */
		double b = dard_path_links_has(from, to->dl[k])
				   ? dard_link_bonf(l, busy)
				   : dard_link_est(l, busy);

		if (b < e)
			e = b;
	}
	return e;
}

int dard_sched_round_links(const struct dard_lstate *ls,
			   const struct dard_path_links *paths,
			   const struct dard_pstate *pv, const uint32_t *fv,
			   unsigned n, double delta, double busy,
			   struct dard_move *m)
{
	unsigned i, from = pick_source(pv, fv, n), to = n;
	double best = 0;

	if (from == n)
		return 0;
	for (i = 0; i < n; i++) {
		double e;

		if (i == from || !live(&pv[i]))
			continue;
		e = target_est(ls, &paths[from], &paths[i], busy);
		if (to == n || e > best ||
		    (e == best && pv[i].bonf > pv[to].bonf)) {
			to = i;
			best = e;
		}
	}
	if (to == n || (!pv[from].dead && !(best - pv[from].bonf > delta)))
		return 0;
	m->from = from;
	m->to = to;
	m->from_bonf = pv[from].bonf;
	m->estimate = best;
	m->rate = -1;
	m->neutral = 0;
	m->count_est = dard_path_count_est(ls, &paths[from], &paths[to]);
	return 1;
}

int dard_sched_spread_ties(const struct dard_lstate *ls,
			   const struct dard_path_links *paths,
			   const struct dard_pstate *pv, unsigned n,
			   double delta, double busy, uint64_t *rng,
			   struct dard_move *m)
{
	unsigned i, to = m->to, ties = 0;
	/* Within delta, and never wider than a twentieth of the best. */
	double near = delta > 0 ? fmin(delta, 0.05 * m->estimate) : 0;
	double floor = m->estimate - near, e, est = m->estimate;

	if (m->neutral || m->from >= n || m->to >= n || !isfinite(floor))
		return 0;
	for (i = 0; i < n; i++) {
		if (i == m->from || !live(&pv[i]))
			continue;
		e = target_est(ls, &paths[m->from], &paths[i], busy);
		/* Near the best, and still a move the round would make. */
		if (!(e >= floor) ||
		    (!pv[m->from].dead && !(e - pv[m->from].bonf > delta)))
			continue;
		if (dard_splitmix64(rng) % ++ties == 0) {
			to = i;
			est = e;
		}
	}
	if (to == m->to)
		return 0;
	m->to = to;
	m->estimate = est;
	m->count_est = dard_path_count_est(ls, &paths[m->from], &paths[to]);
	return 1;
}

void dard_lstate_move(struct dard_lstate *ls,
		      const struct dard_path_links *from,
		      const struct dard_path_links *to, double rate, double est)
{
	unsigned i;

	for (i = 0; i < from->n; i++) {
		struct dard_lstate *l = &ls[from->dl[i]];

		if (l->flows)
			l->flows--;
		/* A shared link keeps the flow's load: it stays on it. */
		if (rate >= 0 && !dard_path_links_has(to, from->dl[i])) {
			l->load -= rate;
			if (l->load < 0)
				l->load = 0;
		}
	}
	for (i = 0; i < to->n; i++) {
		struct dard_lstate *l = &ls[to->dl[i]];

		l->flows++;
		if (isfinite(est) && est > 0 &&
		    !dard_path_links_has(from, to->dl[i]))
			l->load += est;
	}
}

/* Within rounding of BoNF b: links at the source's bottleneck level. */
static int at_level(double x, double b)
{
	return fabs(x - b) <= 1e-9 * b;
}

int dard_sched_neutral(const struct dard_lstate *ls,
		       const struct dard_path_links *paths,
		       const struct dard_pstate *pv, const uint32_t *fv,
		       unsigned n, double busy, uint64_t *rng,
		       struct dard_move *m)
{
	unsigned i, k, from = pick_source(pv, fv, n), to = n, ties = 0;
	const struct dard_path_links *src;
	double b, best = 0;
	int shared = 0;

	if (!(busy > 0) || from == n || !live(&pv[from]) ||
	    !isfinite(pv[from].bonf) || !(pv[from].bonf > 0))
		return 0;
	b = pv[from].bonf;
	src = &paths[from];
	for (k = 0; k < src->n; k++) {
		const struct dard_lstate *l = &ls[src->dl[k]];

		if (at_level(dard_link_bonf(l, busy), b) && l->flows >= 2)
			shared = 1;
	}
	if (!shared)
		return 0;
	for (i = 0; i < n; i++) {
		double e = HUGE_VAL;
		int frees = 1;

		if (i == from || !live(&pv[i]))
			continue;
		for (k = 0; k < paths[i].n && frees; k++) {
			uint32_t dl = paths[i].dl[k];
			const struct dard_lstate *l = &ls[dl];
			double x;

			if (dard_path_links_has(src, dl)) {
				x = dard_link_bonf(l, busy);
				/* It would not leave this bottleneck. */
				if (at_level(x, b))
					frees = 0;
			} else {
				/*
				 * Room for the flow's rate beside what
				 * its elephants take (limited elsewhere),
				 * within busy's slack for measurement.
				 */
				if (!use_load(l, busy) ||
				    !(l->load < busy * l->mbps) ||
				    !(l->mbps - l->load >= busy * b))
					frees = 0;
				x = dard_link_est(l, busy);
			}
			if (x < e)
				e = x;
		}
		if (!frees || !(e >= b || at_level(e, b)))
			continue;
		/* The best estimate; among equals, each as likely. */
		if (to == n || e > best) {
			to = i;
			best = e;
			ties = 1;
		} else if (e == best && dard_splitmix64(rng) % ++ties == 0) {
			to = i;
		}
	}
	if (to == n)
		return 0;
	m->from = from;
	m->to = to;
	m->from_bonf = b;
	m->estimate = best;
	m->rate = -1;
	m->neutral = 1;
	m->count_est = dard_path_count_est(ls, src, &paths[to]);
	return 1;
}

const struct dard_sched_mode dard_sched_modes[DARD_SCHED_NMODES] = {
	[DARD_SCHED_PAPER] = {.name = "paper",
			      .elephant_age = 10,
			      .round = 5,
			      .query = 1,
			      .delta = 10},
	/* Measured on fattree:8 and clos:8,8 (experiments.md). */
	[DARD_SCHED_FAST] = {.name = "fast",
			     .elephant_age = 1,
			     .round = 1,
			     .query = 1,
			     .delta_share = 0.01,
			     .hold = 8,
			     .quiet = 0.9,
			     .sleep = 3,
			     .busy = 0.9,
			     .escape = 0.5,
			     .escape_max = 2,
			     .watch = 20},
};

double dard_sched_delta(const struct dard_sched_mode *mode,
			const struct dard_pstate *pv, unsigned n)
{
	double bw = HUGE_VAL;
	unsigned i;

	if (!(mode->delta_share > 0))
		return mode->delta;
	for (i = 0; i < n; i++)
		if (pv[i].known && !pv[i].dead && pv[i].mbps < bw)
			bw = pv[i].mbps;
	return isinf(bw) ? 0 : mode->delta_share * bw;
}

int dard_sched_mode_parse(const char *name)
{
	int i;

	for (i = 0; i < DARD_SCHED_NMODES; i++)
		if (!strcmp(name, dard_sched_modes[i].name))
			return i;
	return -1;
}
