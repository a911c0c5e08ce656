// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The centralized schedulers of the flow-level simulation: every central
 * interval the ToRs report their elephants and a controller (Hedera,
 * SDN-greedy or SDN-optimal) places them all again.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "flowsim_int.h"

static int by_id(const void *a, const void *b)
{
	size_t x = (*(struct flow *const *)a)->id;
	size_t y = (*(struct flow *const *)b)->id;

	return (x > y) - (x < y);
}

/*
 * A centralized round: the ToRs report their elephants, the controller
 * places them all again, in the order they arrived, and writes the paths
 * that changed.
 */
static int central(struct sim *s, struct dard_sim_flow *out)
{
	struct flow **e;
	size_t n = 0, i;
	int ret;

	e = calloc(s->nact ? s->nact : 1, sizeof(*e));
	if (!e)
		return dard_fail(s->err, -ENOMEM, "out of memory");
	/*
	 * What the edge switches report: Hedera's large flows, at least a
	 * tenth of the host link's rate (its section 4.1), and every flow
	 * old enough to be an elephant; with large at 1, the elephants only.
	 * And, with failures, what a switch dropped for a dead port while a
	 * live path is left: mice too, or they would stall until elephants.
	 */
	for (i = 0; i < s->nact; i++) {
		struct flow *f = s->act[i];

		if (f->elephant ||
		    (s->o->large < 1 &&
		     f->rate >= s->o->large * s->cap[f->links[0]]) ||
		    (s->o->nfail &&
		     flowsim_fail_live_row(s, f, f->row) != f->row))
			e[n++] = f;
	}
	qsort(e, n, sizeof(*e), by_id);
	s->st->ctl_bytes += n * (double)DARD_SIM_REPORT_BYTES;
	ret = s->sched->place(s, e, n, out);
	free(e);
	return ret;
}

/* Its rounds, and one at once when a port went down (flowsim_fail.c). */
static int central_tick(struct sim *s, struct dard_sim_flow *out)
{
	int due = s->now >= s->next_central;

	if (!due && s->now < s->central_now)
		return 0;
	if (s->now >= s->central_now)
		s->central_now = HUGE_VAL;
	if (due)
		s->next_central += s->o->central;
	return central(s, out);
}

static double central_next(const struct sim *s, double when)
{
	return s->nact ? fmin(when, fmin(s->next_central, s->central_now))
		       : when;
}

static void central_idle(struct sim *s)
{
	s->next_central = fmax(s->next_central, s->now + s->o->central);
}

static int hedera_init(struct sim *s)
{
	s->hedera = dard_hedera_new(s->t, s->o->seed);
	if (!s->hedera)
		return dard_fail(s->err, -ENOMEM, "out of memory");
	return 0;
}

static void hedera_fini(struct sim *s)
{
	dard_hedera_free(s->hedera);
}

/* Hedera: demand estimation, then simulated annealing. */
static int hedera_place(struct sim *s, struct flow **e, size_t n,
			struct dard_sim_flow *out)
{
	struct dard_hedera_flow *hf = calloc(n ? n : 1, sizeof(*hf));
	size_t i;
	int ret;

	if (!hf)
		return dard_fail(s->err, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++) {
		hf[i].src = e[i]->src;
		hf[i].dst = e[i]->dst;
		hf[i].c = (struct dard_cands){.dl = e[i]->ps->dl,
					      .npaths = e[i]->ps->npaths,
					      .ndl = e[i]->ps->ndl};
	}
	ret = dard_hedera_demand(s->t, s->cap, hf, n);
	if (!ret)
		ret = dard_hedera_anneal(s->hedera, s->cap, hf, n, s->o->anneal,
					 NULL);
	if (ret) {
		free(hf);
		return dard_fail(s->err, ret, "%s",
				 ret == -ENOMEM ? "out of memory"
						: "demand estimation failed");
	}
	for (i = 0; i < n; i++)
		flowsim_place(s, e[i],
			      flowsim_fail_live_row(s, e[i], hf[i].row), out);
	free(hf);
	return 0;
}

/*
 * What a controller sees of the flows: their candidate rows, and the
 * links' loads with a failed link full, as its poll sees it.
 */
static int ctl_view(struct sim *s, struct flow **e, size_t n,
		    struct dard_cands **c, uint32_t **load)
{
	size_t i;

	*c = calloc(n ? n : 1, sizeof(**c));
	*load = calloc(2 * (size_t)s->t->nlinks, sizeof(**load));
	if (!*c || !*load)
		return dard_fail(s->err, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		(*c)[i] = (struct dard_cands){.dl = e[i]->ps->dl,
					      .npaths = e[i]->ps->npaths,
					      .ndl = e[i]->ps->ndl};
	for (i = 0; s->o->nfail && i < 2 * (size_t)s->t->nlinks; i++)
		if (!(s->cap[i] > 0))
			(*load)[i] = UINT32_MAX / 2;
	return 0;
}

static void ctl_apply(struct sim *s, struct flow **e, size_t n,
		      const uint32_t *row, struct dard_sim_flow *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		flowsim_place(s, e[i], flowsim_fail_live_row(s, e[i], row[i]),
			      out);
}

/* SDN-greedy over the flows' rows. */
static int greedy_place(struct sim *s, struct flow **e, size_t n,
			struct dard_sim_flow *out)
{
	uint32_t *row = calloc(n ? n : 1, sizeof(*row)), *load = NULL;
	struct dard_cands *c = NULL;
	int ret = row ? ctl_view(s, e, n, &c, &load)
		      : dard_fail(s->err, -ENOMEM, "out of memory");

	if (!ret) {
		dard_route_greedy_rows(c, n, load, row);
		ctl_apply(s, e, n, row, out);
	}
	free(c);
	free(row);
	free(load);
	return ret;
}

/* The row of a path found by a routing algorithm. */
static int find_row(const struct pset *p, const struct dard_path *path)
{
	uint32_t k;

	if (path->nsw != p->nsw)
		return -1;
	for (k = 0; k < p->npaths; k++)
		if (!memcmp(&p->sw[(size_t)k * p->nsw], path->sw,
			    p->nsw * sizeof(p->sw[0])))
			return k;
	return -1;
}

/*
 * SDN-optimal's rows for the flows' hosts: the thesis's placement, or the
 * ToR colouring of the whole demand.
 */
static int optimal_rows(struct sim *s, struct flow **e, size_t n, int thesis,
			uint32_t *row)
{
	struct dard_demand *d = calloc(n ? n : 1, sizeof(*d));
	struct dard_path *paths = calloc(n ? n : 1, sizeof(*paths));
	size_t i;
	int ret;

	if (!d || !paths) {
		ret = dard_fail(s->err, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		d[i].src = e[i]->src;
		d[i].dst = e[i]->dst;
	}
	ret = thesis ? dard_route_optimal_tree(s->pc, s->rtree, d, n, paths,
					       s->err)
		     : dard_route_optimal_tor(s->pc, s->rtree, d, n, paths,
					      s->err);
	if (ret == -ENOMEM)
		dard_fail(s->err, ret, "out of memory");
	for (i = 0; !ret && i < n; i++) {
		int r = find_row(e[i]->ps, &paths[i]);

		if (r < 0)
			ret = dard_fail(
				s->err, -EIO,
				"sdn-optimal placed a flow off its paths");
		row[i] = (uint32_t)r;
	}
out:
	free(d);
	free(paths);
	return ret;
}

/*
 * SDN-optimal, then the local search that keeps its L_D and unstacks the
 * switch links its count-only objective leaves loaded (experiments.md).
 * A failed link is full to the search, so flows leave it for the least
 * loaded live row, not just the next one.
 */
static int optimal_place(struct sim *s, struct flow **e, size_t n,
			 struct dard_sim_flow *out)
{
	uint32_t *row = calloc(n ? n : 1, sizeof(*row)), *load = NULL;
	uint32_t *cur = calloc(n ? n : 1, sizeof(*cur));
	struct dard_cands *c = NULL;
	int ret = row && cur ? ctl_view(s, e, n, &c, &load)
			     : dard_fail(s->err, -ENOMEM, "out of memory");
	size_t i;

	if (!ret)
		ret = optimal_rows(s, e, n, 0, row);
	if (!ret) {
		for (i = 0; i < n; i++)
			cur[i] = e[i]->row;
		dard_route_refine_rows(c, n, s->o->keep ? cur : NULL,
				       s->o->refine, load, row);
		ctl_apply(s, e, n, row, out);
	}
	free(c);
	free(cur);
	free(row);
	free(load);
	return ret;
}

/* The thesis's SDN-optimal, placed as it comes. */
static int optimal_thesis_place(struct sim *s, struct flow **e, size_t n,
				struct dard_sim_flow *out)
{
	uint32_t *row = calloc(n ? n : 1, sizeof(*row));
	int ret = row ? optimal_rows(s, e, n, 1, row)
		      : dard_fail(s->err, -ENOMEM, "out of memory");

	if (!ret)
		ctl_apply(s, e, n, row, out);
	free(row);
	return ret;
}

const struct sim_sched flowsim_hedera = {
	.name = "hedera",
	.init = hedera_init,
	.fini = hedera_fini,
	.tick = central_tick,
	.next = central_next,
	.idle = central_idle,
	.place = hedera_place,
};

const struct sim_sched flowsim_greedy = {
	.name = "sdn-greedy",
	.tick = central_tick,
	.next = central_next,
	.idle = central_idle,
	.place = greedy_place,
};

static int optimal_check(const struct dard_topo *t,
			 const struct dard_sim_opts *o, char *err)
{
	return dard_route_optimal_check(t, err);
}

/* The tree is checked and described once, not every round. */
static int optimal_init(struct sim *s)
{
	return dard_route_tree_new(s->t, &s->rtree, s->err);
}

static void optimal_fini(struct sim *s)
{
	dard_route_tree_free(s->rtree);
}

const struct sim_sched flowsim_optimal = {
	.name = "sdn-optimal",
	.check = optimal_check,
	.init = optimal_init,
	.fini = optimal_fini,
	.tick = central_tick,
	.next = central_next,
	.idle = central_idle,
	.place = optimal_place,
};

const struct sim_sched flowsim_optimal_thesis = {
	.name = "sdn-optimal-thesis",
	.check = optimal_check,
	.init = optimal_init,
	.fini = optimal_fini,
	.tick = central_tick,
	.next = central_next,
	.idle = central_idle,
	.place = optimal_thesis_place,
};
