/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* dard-exp report's figures as JSON (json-c): numbers as numbers. */
#ifndef _DARD_EXP_JSONOUT_H
#define _DARD_EXP_JSONOUT_H

#include "exp.h"

/* Writes e's JSON to path: 0, or a negative errno with err set. */
int exp_json_write(const struct exp *e, const char *path, char *err);

#endif /* _DARD_EXP_JSONOUT_H */
