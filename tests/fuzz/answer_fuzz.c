// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for dardctl's reading of dardd's answers
 * (daemon/dardctl/answer.h): whoever holds the control socket writes
 * these bytes. The first byte picks the command asked; the rest is the
 * answer. An answer taken must have the command's shape, and printing it
 * as text must be safe whatever its keys hold.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "answer.h"
#include "dardd.h"
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
	static const char *const cmds[] = {DARDD_CMD_MONITORS, DARDD_CMD_FLOWS,
					   DARDD_CMD_STATS};
	char err[DARD_ERR_MAX];
	const char *cmd;
	json_object *doc;

	if (!size)
		return 0;
	cmd = cmds[data[0] % 3];
	doc = answer_parse(cmd, (const char *)data + 1, size - 1, err);
	if (!doc)
		return 0;
	if (json_object_is_type(doc, json_type_array) == (cmd == cmds[2]))
		abort();
	answer_text(cmd, doc);
	fflush(stdout);
	json_object_put(doc);
	return 0;
}
