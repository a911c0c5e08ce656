// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * bound, the flow-level simulation's reference: no flow is routed. At
 * every rate computation each active flow gets its max-min fair rate
 * under the best splittable multipath routing (OPT, opt.h) in place of
 * max-min fairness over the paths flows are on, so no scheduler of whole
 * flows gives the flows more in the max-min order. It moves nothing and
 * sends nothing; its flows keep the hashed row they arrive on, which no
 * rate reads.
 */
#include <errno.h>
#include <stdlib.h>

#include "err.h"
#include "flowsim_int.h"

/* OPT on t with the links at o's capacities (flowsim_mbps). */
static struct dard_opt *opt_at(const struct dard_topo *t,
			       const struct dard_sim_opts *o, char *err)
{
	struct dard_opt *opt;
	double *mbps;
	uint32_t l;

	mbps = malloc((t->nlinks ? t->nlinks : 1) * sizeof(*mbps));
	if (!mbps) {
		dard_fail(err, -ENOMEM, "out of memory");
		return NULL;
	}
	for (l = 0; l < t->nlinks; l++)
		mbps[l] = flowsim_mbps(t, o, l);
	opt = dard_opt_new_cap(t, mbps, err);
	free(mbps);
	return opt;
}

/*
 * OPT on t with the run's capacities, or NULL with err saying why: a tree
 * it does not handle, failures (a failed link makes its sub-fat-tree
 * uneven), degraded links that do the same (OPT takes them when every up
 * link of a sub-fat-tree is degraded alike), or no memory.
 */
static struct dard_opt *bound_opt(const struct dard_topo *t,
				  const struct dard_sim_opts *o, char *err)
{
	struct dard_sim_opts full;
	struct dard_opt *opt;

	if (o->nfail) {
		dard_fail(err, -EINVAL, "OPT takes every link up: no failures");
		return NULL;
	}
	opt = opt_at(t, o, err);
	if (opt || !o->ndegrade)
		return opt;
	/* Say the degrade is to blame only if the tree alone is not. */
	full = *o;
	full.ndegrade = 0;
	opt = opt_at(t, &full, err);
	if (!opt)
		return NULL;
	dard_opt_free(opt);
	dard_fail(
		err, -EINVAL,
		"OPT takes a sub-fat-tree's up links at one capacity: no link degraded alone");
	return NULL;
}

static int bound_check(const struct dard_topo *t, const struct dard_sim_opts *o,
		       char *err)
{
	struct dard_opt *opt = bound_opt(t, o, err);

	dard_opt_free(opt);
	return opt ? 0 : -EINVAL;
}

/* OPT's sub-fat-trees are found once, not at every rate computation. */
static int bound_init(struct sim *s)
{
	s->opt = bound_opt(s->t, s->o, s->err);
	if (!s->opt)
		return -EINVAL;
	s->dem = calloc(s->nflows ? s->nflows : 1, sizeof(*s->dem));
	if (!s->dem)
		return dard_fail(s->err, -ENOMEM, "out of memory");
	return 0;
}

static void bound_fini(struct sim *s)
{
	dard_opt_free(s->opt);
	free(s->dem);
}

/* One thread: the rates are the same on any number. */
static int bound_rates(struct sim *s)
{
	size_t i;

	for (i = 0; i < s->nact; i++) {
		s->dem[i].src = s->act[i]->src;
		s->dem[i].dst = s->act[i]->dst;
	}
	return dard_opt_rates(s->opt, s->dem, s->nact, 1, s->rates, NULL,
			      s->err);
}

const struct sim_sched flowsim_bound = {
	.name = "bound",
	.check = bound_check,
	.init = bound_init,
	.fini = bound_fini,
	.rates = bound_rates,
};
