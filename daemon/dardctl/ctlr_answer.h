/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-controller's answer to `stats' on its control socket, read by
 * dardctl (controller.c): parsed and printed as text. Apart from the
 * socket so that tests/fuzz/ctlr_answer_fuzz.c can feed it anything.
 */
#ifndef _DARD_CTLR_ANSWER_H
#define _DARD_CTLR_ANSWER_H

struct json_object;

/*
 * The answer in text (NUL-terminated, as read): a JSON object. NULL with
 * the reason in err (DARD_ERR_MAX): not a JSON object, or the
 * controller's own {"error": "why"}.
 */
struct json_object *ctlr_answer_parse(const char *text, char *err);

/* Prints a parsed answer on stdout, `key value' a line; any shape is safe. */
void ctlr_answer_text(struct json_object *doc);

#endif /* _DARD_CTLR_ANSWER_H */
