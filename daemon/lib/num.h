/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Strict number parsing, for every program's options and arguments and
 * the configuration file: decimal digits only for integers (no sign, no
 * blanks, no trailing text, nothing wider than the target silently cut
 * down), finite decimals only for quantities (no nan, inf or hex).
 * Each returns 0, -EINVAL when s is not such a number, or -ERANGE when it
 * is one outside [min, max]; *out is written only on success.
 */
#ifndef _DARD_NUM_H
#define _DARD_NUM_H

#include <stdint.h>

int dard_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int dard_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out);
int dard_parse_double(const char *s, double min, double max, double *out);
/* Seconds as a decimal in [min_s, max_s] (both finite), into ns. */
int dard_parse_seconds(const char *s, double min_s, double max_s, uint64_t *ns);

/* "not a number" or "out of range", for a return of the above. */
const char *dard_num_strerror(int ret);

/*
 * The one message for a number refused by the above, into err
 * (DARD_ERR_MAX, err.h) for the program to print once with its prefix:
 * "Invalid WHAT `ARG': REASON, expected WANT", e.g. "Invalid
 * --query-interval `x': not a number, expected seconds from 0.001 to
 * 86400". want may be NULL. Returns ret.
 */
int dard_num_fail(char *err, int ret, const char *what, const char *arg,
		  const char *want);

#endif /* _DARD_NUM_H */
