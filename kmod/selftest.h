/* SPDX-License-Identifier: GPL-2.0 */
/* The self-tests of insmod dard.ko selftest=1. */
#ifndef _DARD_SELFTEST_H
#define _DARD_SELFTEST_H

/* Runs them if asked: 0, or a negative errno that refuses the load. */
int dard_selftest_init(void);

#endif /* _DARD_SELFTEST_H */
