// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for dardctl's reading of dard-controller's answer to
 * `stats' (daemon/dardctl/ctlr_answer.h): whoever holds the controller's
 * control socket writes these bytes, read whole and NUL-terminated as
 * dard_read_all leaves them. An answer taken is an object without an
 * "error" key, and printing it as text must be safe whatever it holds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "ctlr_answer.h"
#include "topo.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	/* The text goes nowhere: only that printing it is safe matters. */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[DARD_ERR_MAX] = "", *text = malloc(size + 1);
	json_object *doc;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	doc = ctlr_answer_parse(text, err);
	free(text);
	if (!doc) {
		/* A refusal says why. */
		if (!err[0] || !memchr(err, 0, sizeof(err)))
			abort();
		return 0;
	}
	if (!json_object_is_type(doc, json_type_object) ||
	    json_object_object_get_ex(doc, "error", NULL))
		abort();
	ctlr_answer_text(doc);
	fflush(stdout);
	json_object_put(doc);
	return 0;
}
