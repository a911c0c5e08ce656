/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* dard-exp send: one transfer to dard-exp recv, timed to its end. */
#ifndef _DARD_EXP_SEND_H
#define _DARD_EXP_SEND_H

#include <stdio.h>

/* The command, from its own argv ("send" first): the exit status. */
int exp_send_cmd(int argc, char **argv, void (*usage)(FILE *));

#endif /* _DARD_EXP_SEND_H */
