// SPDX-License-Identifier: GPL-2.0 OR MIT
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <json-c/json.h>

#include "print.h"

enum { DEPTH_MAX = 16 };

static struct json_object *stack[DEPTH_MAX];
static int depth = -1;
static int pretty;

void new_json_obj(int json, int pp)
{
	pretty = pp;
	if (!json)
		return;
	/* Every command's output is an array of objects. */
	stack[0] = json_object_new_array();
	depth = 0;
}

void delete_json_obj(void)
{
	int flags = JSON_C_TO_STRING_SPACED;

	if (depth < 0)
		return;
	if (pretty)
		flags = JSON_C_TO_STRING_PRETTY;
	flags |= JSON_C_TO_STRING_NOSLASHESCAPE;
	puts(json_object_to_json_string_ext(stack[0], flags));
	json_object_put(stack[0]);
	depth = -1;
}

int is_json_context(void)
{
	return depth >= 0;
}

static void add(const char *key, struct json_object *o)
{
	struct json_object *top = stack[depth];

	if (json_object_is_type(top, json_type_array))
		json_object_array_add(top, o);
	else
		json_object_object_add(top, key ? key : "?", o);
}

void print_json_value(const char *key, struct json_object *o)
{
	if (depth >= 0)
		add(key, json_object_get(o));
}

static void push(const char *key, struct json_object *o)
{
	add(key, o);
	if (depth + 1 >= DEPTH_MAX)
		abort();
	stack[++depth] = o;
}

void open_json_object(const char *key)
{
	if (depth >= 0)
		push(key, json_object_new_object());
}

void close_json_object(void)
{
	if (depth > 0)
		depth--;
}

void open_json_array(enum output_type type, const char *key)
{
	if (depth >= 0) {
		if (type & PRINT_JSON)
			push(key, json_object_new_array());
	} else if (type & PRINT_FP) {
		fputs(key, stdout);
	}
}

void close_json_array(enum output_type type, const char *end)
{
	if (depth >= 0) {
		if ((type & PRINT_JSON) && depth > 0)
			depth--;
	} else if ((type & PRINT_FP) && end) {
		fputs(end, stdout);
	}
}

void print_string(enum output_type type, const char *key, const char *fmt,
		  const char *value)
{
	if (depth >= 0) {
		if (type & PRINT_JSON)
			add(key, json_object_new_string(value));
	} else if (type & PRINT_FP) {
		printf(fmt, value);
	}
}

void print_uint(enum output_type type, const char *key, const char *fmt,
		uint64_t value)
{
	if (depth >= 0) {
		if (type & PRINT_JSON)
			add(key, json_object_new_uint64(value));
	} else if (type & PRINT_FP) {
		printf(fmt, (unsigned long long)value);
	}
}

void print_float(enum output_type type, const char *key, const char *fmt,
		 double value)
{
	if (depth >= 0) {
		if (type & PRINT_JSON)
			add(key, json_object_new_double(value));
	} else if (type & PRINT_FP) {
		printf(fmt, value);
	}
}

void print_bool(enum output_type type, const char *key, const char *fmt,
		int value)
{
	if (depth >= 0) {
		if (type & PRINT_JSON)
			add(key, json_object_new_boolean(value));
	} else if ((type & PRINT_FP) && fmt) {
		printf(fmt, value ? "yes" : "no");
	}
}

void print_nl(void)
{
	if (depth < 0)
		putchar('\n');
}

void print_text(const char *fmt, ...)
{
	va_list ap;

	if (depth >= 0)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}
