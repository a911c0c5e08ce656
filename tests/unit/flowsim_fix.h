/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The flow-level simulation's tests (test_flowsim.c, test_flowsim_fail.c):
 * fattree:4 at 1 Gbit/s for the group, and one run under given options
 * into stats, a failure failing the test. Include after <cmocka.h>.
 */
#ifndef _DARD_TEST_FLOWSIM_FIX_H
#define _DARD_TEST_FLOWSIM_FIX_H

#include "flowsim.h"
#include "route.h"
#include "unit.h"

static struct dard_topo *t;
static struct dard_plan *p;

static inline int setup(void **state)
{
	(void)state;
	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &t, &p); /* 1 Gbit/s */
	return 0;
}

static inline int teardown(void **state)
{
	(void)state;
	dard_plan_free(p);
	dard_topo_free(t);
	return 0;
}

static struct dard_sim_stats stats;
/* run_step's and run_quiet's --watch-interval: below 0 the mode's. */
static double fix_watch = -1;

/* One run under o, into stats; a failure fails the test. */
static inline void run_o(const struct dard_sim_opts *o,
			 const struct dard_tflow *f, size_t n,
			 struct dard_sim_flow *out)
{
	char err[DARD_ERR_MAX];

	if (dard_sim_run(t, p, f, n, o, out, &stats, err))
		fail_msg("%s: %s", dard_sim_sched_name(o->sched), err);
}

static inline void run_step(int sched, uint64_t seed, double step,
			    const struct dard_tflow *f, size_t n,
			    struct dard_sim_flow *out)
{
	struct dard_sim_opts o;

	dard_sim_opts_init(&o);
	o.sched = sched;
	o.seed = seed;
	o.step = step;
	o.watch = fix_watch;
	run_o(&o, f, n, out);
}

static inline void run(int sched, uint64_t seed, const struct dard_tflow *f,
		       size_t n, struct dard_sim_flow *out)
{
	run_step(sched, seed, 0, f, n, out);
}

/* dard with --quiet F and --sleep S; below 0: the mode's. */
static inline void run_quiet(int sched, double quiet, double sleep,
			     const struct dard_tflow *f, size_t n,
			     struct dard_sim_flow *out)
{
	struct dard_sim_opts o;

	dard_sim_opts_init(&o);
	o.sched = sched;
	o.quiet = quiet;
	o.sleep = sleep;
	o.watch = fix_watch;
	run_o(&o, f, n, out);
}

#endif /* _DARD_TEST_FLOWSIM_FIX_H */
