/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* dard-exp sample: a testbed's CPU, links and queues, every interval. */
#ifndef _DARD_EXP_SAMPLE_H
#define _DARD_EXP_SAMPLE_H

#include <stdio.h>

/* The command, from its own argv ("sample" first): the exit status. */
int exp_sample_cmd(int argc, char **argv, void (*usage)(FILE *));

#endif /* _DARD_EXP_SAMPLE_H */
