// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The flow-level simulation's schedulers, one ops table each, by enum
 * dard_sim_sched: ECMP and pVLB here, DARD in flowsim_dard.c beside its
 * round, the controllers in flowsim_ctl.c, the bound in flowsim_bound.c.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "err.h"
#include "flowsim_int.h"
#include "pvlb.h"

/* ECMP: the hash at arrival is all. */
static const struct sim_sched flowsim_ecmp = {
	.name = "ecmp",
};

static void pvlb_arrive(struct sim *s, struct flow *f)
{
	f->next_pvlb = dard_pvlb_first(f->start, s->o->pvlb);
}

static uint64_t pvlb_rnd(void *s)
{
	return flowsim_rnd(s);
}

/* pVLB (pvlb.h, dardd's pvlb mode's rule): a random row every pvlb
 * seconds of a flow's life. */
static int pvlb_tick(struct sim *s, struct dard_sim_flow *out)
{
	size_t i;
	int row;

	for (i = 0; i < s->nact; i++) {
		struct flow *f = s->act[i];

		row = dard_pvlb_step(&f->next_pvlb, s->now, s->o->pvlb,
				     f->ps->npaths, pvlb_rnd, s);
		if (row >= 0)
			flowsim_move(s, f, row, out);
	}
	return 0;
}

static double pvlb_next(const struct sim *s, double when)
{
	size_t i;

	for (i = 0; i < s->nact; i++)
		when = fmin(when, s->act[i]->next_pvlb);
	return when;
}

static const struct sim_sched flowsim_pvlb = {
	.name = "pvlb",
	.arrive = pvlb_arrive,
	.tick = pvlb_tick,
	.next = pvlb_next,
};

const struct sim_sched *const flowsim_scheds[DARD_SIM_NSCHED] = {
	[DARD_SIM_ECMP] = &flowsim_ecmp,
	[DARD_SIM_PVLB] = &flowsim_pvlb,
	[DARD_SIM_DARD] = &flowsim_dard,
	[DARD_SIM_DARD_PAPER] = &flowsim_dard_paper,
	[DARD_SIM_HEDERA] = &flowsim_hedera,
	[DARD_SIM_GREEDY] = &flowsim_greedy,
	[DARD_SIM_OPTIMAL] = &flowsim_optimal,
	[DARD_SIM_SWITCH_ECMP] = &flowsim_switch_ecmp,
	[DARD_SIM_OPTIMAL_THESIS] = &flowsim_optimal_thesis,
	[DARD_SIM_BOUND] = &flowsim_bound,
};

int dard_sim_check(const struct dard_topo *t, const struct dard_sim_opts *o,
		   char *err)
{
	const struct sim_sched *s;

	if (o->sched < 0 || o->sched >= DARD_SIM_NSCHED)
		return dard_fail(err, -EINVAL, "bad simulation options");
	s = flowsim_scheds[o->sched];
	return s->check ? s->check(t, o, err) : 0;
}

const char *dard_sim_sched_name(int sched)
{
	return sched >= 0 && sched < DARD_SIM_NSCHED
		       ? flowsim_scheds[sched]->name
		       : "?";
}

int dard_sim_sched_parse(const char *s)
{
	int i;

	for (i = 0; i < DARD_SIM_NSCHED; i++)
		if (!strcmp(s, flowsim_scheds[i]->name))
			return i;
	return -1;
}
