/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The words after OBJECT: help asked for, a command not known, and strict
 * numbers. Each prints its refusal once, on stderr, for the object.
 */
#ifndef _DARD_ARGS_H
#define _DARD_ARGS_H

#include <stdint.h>

/* Whether the arguments ask for help: help first, or -h/--help anywhere. */
int ctl_wants_help(int argc, char **argv);
/* "Command CMD is unknown, try dardctl OBJ help"; returns CTL_USAGE. */
int ctl_unknown(const char *obj, const char *cmd);
/*
 * Strict numbers from options and arguments (num.h): on a refusal each
 * prints `Invalid WHAT `S': REASON, expected RANGE' and returns -1.
 */
int ctl_parse_u64(const char *what, const char *s, uint64_t min, uint64_t max,
		  uint64_t *out);
int ctl_parse_u32(const char *what, const char *s, uint32_t min, uint32_t max,
		  uint32_t *out);
int ctl_parse_double(const char *what, const char *s, double min, double max,
		     double *out);
/* Seconds as a finite decimal in [min, max], into ns. */
int ctl_parse_seconds(const char *what, const char *s, double min, double max,
		      uint64_t *ns);

#endif /* _DARD_ARGS_H */
