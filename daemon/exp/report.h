/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-exp report: an experiment directory read and judged (dir.c),
 * its figures (figures.c) printed as text tables and written as JSON
 * (jsonout.c).
 */
#ifndef _DARD_EXP_REPORT_H
#define _DARD_EXP_REPORT_H

#include <stdio.h>

#include "exp.h"

/* The command, from its own argv ("report" first): the exit status. */
int exp_report_cmd(int argc, char **argv, void (*usage)(FILE *));

/* The text report of a loaded, computed experiment. */
void exp_print(const struct exp *e, FILE *f);

#endif /* _DARD_EXP_REPORT_H */
