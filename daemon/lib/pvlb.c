// SPDX-License-Identifier: GPL-2.0 OR MIT
/* pVLB's rule (pvlb.h), for dard-sim and dardd alike. */
#include "pvlb.h"

double dard_pvlb_first(double start, double interval)
{
	return start + interval;
}

int dard_pvlb_step(double *next, double now, double interval, unsigned npaths,
		   uint64_t (*rnd)(void *ctx), void *ctx)
{
	if (*next > now || !npaths)
		return -1;
	*next += interval;
	return (int)(rnd(ctx) % npaths);
}
