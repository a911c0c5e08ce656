// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-controller's stats answer, checked and printed (ctlr_answer.h).
 * Whatever holds the socket wrote these bytes: nothing here trusts a key
 * to exist or to have the type dard-controller gives it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "ctlr_answer.h"
#include "err.h"

json_object *ctlr_answer_parse(const char *text, char *err)
{
	json_object *doc = json_tokener_parse(text), *e;

	if (!doc || !json_object_is_type(doc, json_type_object)) {
		json_object_put(doc);
		dard_fail(err, -EINVAL,
			  "dard-controller's answer is not a JSON object");
		return NULL;
	}
	if (json_object_object_get_ex(doc, "error", &e)) {
		dard_fail(err, -EINVAL, "dard-controller refused: %.200s",
			  json_object_get_string(e) ? json_object_get_string(e)
						    : "null");
		json_object_put(doc);
		return NULL;
	}
	return doc;
}

/* A value as text; null (which json-c gives as NULL) as `-'. */
static const char *str(json_object *v)
{
	const char *s = json_object_get_string(v);

	return s ? s : "-";
}

/* One line per key, `key value'; objects and arrays as their members. */
static void print_plain(const char *prefix, json_object *o)
{
	char key[128];
	size_t i;

	json_object_object_foreach(o, k, v)
	{
		snprintf(key, sizeof(key), "%s%s", prefix, k);
		if (json_object_is_type(v, json_type_object)) {
			strncat(key, ".", sizeof(key) - strlen(key) - 1);
			print_plain(key, v);
		} else if (json_object_is_type(v, json_type_array)) {
			printf("%s", key);
			for (i = 0; i < json_object_array_length(v); i++)
				printf(" %s",
				       str(json_object_array_get_idx(v, i)));
			printf("\n");
		} else {
			printf("%s %s\n", key, str(v));
		}
	}
}

void ctlr_answer_text(json_object *doc)
{
	print_plain("", doc);
}
