// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's clock, alone in its file: every part reads it and it calls
 * nothing, so that it sits under them all, and a test that drives time
 * (tests/fuzz/cpin_fuzz.c) links its own instead.
 */
#include "clock.h"
#include "dardd_priv.h"

uint64_t dardd_now_ns(void)
{
	return dard_clock_ns(CLOCK_MONOTONIC);
}
