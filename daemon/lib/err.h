/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * How libdard (and libdard-algo) report errors, one way everywhere:
 *
 * - A function that can fail returns 0 (or a count, or a value through a
 *   pointer) and a negative errno on failure, or a pointer and NULL on
 *   failure, and writes the reason into its caller's char err[DARD_ERR_MAX]
 *   (topo.h) with dard_fail(). err may be NULL when the caller does not
 *   want the text. A function whose only failure is memory (e.g.
 *   dard_pathctx_new, dard_hedera_new, dard_hedera_anneal) says so in its
 *   header and takes no err: NULL or -ENOMEM is the whole message.
 * - errno is never a side channel: nothing in the library sets it for a
 *   caller to read after a NULL. Where a caller needs the code behind a
 *   NULL constructor, a twin returns it (dard_plan_build beside
 *   dard_plan_new).
 * - A data structure never carries an error field. What a caller needs to
 *   know about a failure is in the message and its return: a message
 *   about one node names that node beside the message (the node
 *   out-parameter of dard_topo_finalize and dard_plan_build), and
 *   dard_config_parse() gives the line beside the message.
 * - Out of memory is always reported (-ENOMEM, "out of memory"), never
 *   answered with a partial result (tests/unit/test_oom.c fails every
 *   allocation in turn).
 * - Messages are lower case, name the thing and the value (`base 10.0.0.1/8
 *   has host bits set'), and are printed once, by the program at the
 *   outermost caller, with its prefix: `dardctl: ...'.
 */
#ifndef _DARD_ERR_H
#define _DARD_ERR_H

/*
 * Formats the message into err (DARD_ERR_MAX bytes) when err is not NULL,
 * and returns ret, so that callers can write `return dard_fail(...)'.
 */
int dard_fail(char *err, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* _DARD_ERR_H */
