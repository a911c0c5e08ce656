/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The machine's idle share from /proc/stat's aggregate `cpu' line (all
 * CPUs, in USER_HZ ticks): what share of all CPU time between two
 * readings was idle or waiting for I/O. Pure.
 */
#ifndef _DARD_EXP_PROCSTAT_H
#define _DARD_EXP_PROCSTAT_H

#include <stdint.h>

struct exp_cpu {
	uint64_t idle;	/* idle + iowait */
	uint64_t total; /* user nice system idle iowait irq softirq steal */
};

/*
 * The `cpu ' line of a /proc/stat text (the first line starting with
 * it): 0, or -EINVAL when there is none or it has fewer than the four
 * fields every kernel gives. guest and guest_nice are left out: user
 * and nice already count them.
 */
int exp_cpu_parse(const char *text, struct exp_cpu *c);

/*
 * The idle share from a to b, (idle + iowait deltas) / total delta, in
 * [0, 1]; NAN when no tick passed (or the counters went back).
 */
double exp_cpu_idle(const struct exp_cpu *a, const struct exp_cpu *b);

#endif /* _DARD_EXP_PROCSTAT_H */
