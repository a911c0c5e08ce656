/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* dard-exp recv: dard-exp send's other end. */
#ifndef _DARD_EXP_RECV_H
#define _DARD_EXP_RECV_H

#include <stdio.h>

/* The command, from its own argv ("recv" first): the exit status. */
int exp_recv_cmd(int argc, char **argv, void (*usage)(FILE *));

#endif /* _DARD_EXP_RECV_H */
