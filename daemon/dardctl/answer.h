/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dardd's answers on the control socket (dardd.h), read by dardctl: the
 * bytes checked and parsed, and printed as text. Apart from the socket so
 * that tests/fuzz/answer_fuzz.c can feed it anything.
 */
#ifndef _DARD_ANSWER_H
#define _DARD_ANSWER_H

#include <stddef.h>

struct json_object;

/*
 * The answer to cmd (a DARDD_CMD_*) in buf[0..len): one JSON document and
 * a newline, an array for monitors and flows, an object for stats and
 * sched (with its arguments or without). NULL
 * with the reason in err (DARD_ERR_MAX): not JSON, not the shape cmd
 * answers with, or dardd's own {"error": "why"}.
 */
struct json_object *answer_parse(const char *cmd, const char *buf, size_t len,
				 char *err);

/* Prints a parsed answer to cmd as text on stdout; any shape is safe. */
void answer_text(const char *cmd, struct json_object *doc);

#endif /* _DARD_ANSWER_H */
