/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The one way every program and benchmark reads a clock. */
#ifndef _DARD_CLOCK_H
#define _DARD_CLOCK_H

#include <stdint.h>
#include <time.h>

/* clock in ns; the clocks dard uses cannot fail on Linux. */
static inline uint64_t dard_clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* clock in ms, with the ns as a fraction: for timings that are printed. */
static inline double dard_clock_ms(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#endif /* _DARD_CLOCK_H */
