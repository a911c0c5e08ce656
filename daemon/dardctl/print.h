/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * One printer per record for text and JSON (the json_print API of
 * iproute2, written anew on json-c): PRINT_ANY prints the text format in
 * text mode and the key in JSON mode.
 */
#ifndef _DARD_PRINT_H
#define _DARD_PRINT_H

#include <stdint.h>

enum output_type {
	PRINT_FP = 1,	/* text only */
	PRINT_JSON = 2, /* JSON only */
	PRINT_ANY = 3,
};

void new_json_obj(int json, int pretty);
void delete_json_obj(void);
int is_json_context(void);

void open_json_object(const char *key);
void close_json_object(void);
void open_json_array(enum output_type type, const char *key);
void close_json_array(enum output_type type, const char *end);

void print_string(enum output_type type, const char *key, const char *fmt,
		  const char *value);
void print_uint(enum output_type type, const char *key, const char *fmt,
		uint64_t value);
void print_float(enum output_type type, const char *key, const char *fmt,
		 double value);
void print_bool(enum output_type type, const char *key, const char *fmt,
		int value);
void print_nl(void);
struct json_object;
/* Adds a reference to o to the JSON output (nothing in text mode). */
void print_json_value(const char *key, struct json_object *o);
void print_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* _DARD_PRINT_H */
