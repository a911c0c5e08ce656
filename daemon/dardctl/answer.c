// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's answers, checked and printed (answer.h). Whatever holds the
 * socket wrote these bytes: nothing here trusts a key to exist or to
 * have the type dardd gives it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "answer.h"
#include "dardd.h"
#include "err.h"
#include "topo.h"

static json_object *parse(const char *buf, size_t len)
{
	json_tokener *tok = json_tokener_new();
	json_object *doc;
	size_t end;

	if (!tok)
		return NULL;
	doc = json_tokener_parse_ex(tok, buf, len);
	end = json_tokener_get_parse_end(tok);
	if (json_tokener_get_error(tok) != json_tokener_success)
		doc = NULL;
	json_tokener_free(tok);
	/* One document: only blanks (the newline) after it. */
	while (doc && end < len && isspace((unsigned char)buf[end]))
		end++;
	if (doc && end != len) {
		json_object_put(doc);
		doc = NULL;
	}
	return doc;
}

json_object *answer_parse(const char *cmd, const char *buf, size_t len,
			  char *err)
{
	/* Objects: stats, and sched with or without its arguments. */
	int want_array = strcmp(cmd, DARDD_CMD_STATS) &&
			 strncmp(cmd, DARDD_CMD_SCHED, strlen(DARDD_CMD_SCHED));
	json_object *doc = parse(buf, len), *e;

	if (!doc) {
		dard_fail(
			err, -EINVAL,
			"dardd answered %s with something not JSON (is dardctl as new as dardd?)",
			cmd);
		return NULL;
	}
	if (json_object_is_type(doc, json_type_object) &&
	    json_object_object_get_ex(doc, "error", &e)) {
		dard_fail(err, -EINVAL, "dardd: %.200s",
			  json_object_get_string(e) ? json_object_get_string(e)
						    : "null");
		json_object_put(doc);
		return NULL;
	}
	if (!json_object_is_type(doc, want_array ? json_type_array
						 : json_type_object)) {
		dard_fail(err, -EINVAL,
			  "dardd answered %s with a JSON %s, not an %s", cmd,
			  json_type_to_name(json_object_get_type(doc)),
			  want_array ? "array" : "object");
		json_object_put(doc);
		return NULL;
	}
	return doc;
}

/* A key's value if it is an array, else NULL: what length may be asked. */
static json_object *arr(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_array))
		return NULL;
	return v;
}

static size_t arr_len(json_object *a)
{
	return json_object_is_type(a, json_type_array)
		       ? json_object_array_length(a)
		       : 0;
}

static const char *str(json_object *o, const char *key)
{
	const char *s = NULL;
	json_object *v;

	if (json_object_object_get_ex(o, key, &v))
		s = json_object_get_string(v);
	return s ? s : "?";
}

static long long num(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_int64(v)
						     : 0;
}

static double dbl(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_double(v)
						     : 0;
}

/* The known column: a dead path (a port reported down) says so. */
static const char *known_str(json_object *p)
{
	if (json_object_get_boolean(json_object_object_get(p, "dead")))
		return "dead";
	return json_object_get_boolean(json_object_object_get(p, "known"))
		       ? "yes"
		       : "no";
}

/*
 * The loads of a path's links, ToR to ToR, in Mbit/s: "-" for one its
 * switch did not measure (null), as for anything not a number.
 */
static const char *loads_str(json_object *p, char *buf, size_t size)
{
	json_object *links = arr(p, "links");
	size_t j, off = 0;

	buf[0] = 0;
	for (j = 0; j < arr_len(links) && off < size; j++) {
		json_object *v, *l = json_object_array_get_idx(links, j);
		int n;

		if (json_object_object_get_ex(l, "load", &v) &&
		    (json_object_is_type(v, json_type_double) ||
		     json_object_is_type(v, json_type_int)))
			n = snprintf(buf + off, size - off, "%s%.1f",
				     j ? "/" : "", json_object_get_double(v));
		else
			n = snprintf(buf + off, size - off, "%s-",
				     j ? "/" : "");
		off += n > 0 ? (size_t)n : 0;
	}
	return buf[0] ? buf : "-";
}

static void path_text(json_object *p)
{
	json_object *sw = arr(p, "switches");
	char loads[128];
	size_t j;

	printf("  %-4lld %-7s %-12s %-9lld %-6lld %-23s", num(p, "index"),
	       known_str(p), str(p, "bonf"), num(p, "elephants"),
	       num(p, "ours"), loads_str(p, loads, sizeof(loads)));
	for (j = 0; j < arr_len(sw); j++) {
		const char *s = json_object_get_string(
			json_object_array_get_idx(sw, j));

		printf(" %s", s ? s : "?");
	}
	putchar('\n');
}

static void monitors_text(json_object *doc)
{
	size_t i, k;

	for (i = 0; i < arr_len(doc); i++) {
		json_object *m = json_object_array_get_idx(doc, i);
		json_object *paths = arr(m, "paths");
		int quiet = json_object_get_boolean(
			json_object_object_get(m, "quiet"));

		printf("%s -> %s: %lld elephants, %lld rounds, %lld moves, %lld switches queried%s\n",
		       str(m, "src_tor"), str(m, "dst_tor"),
		       num(m, "elephants"), num(m, "rounds"), num(m, "moves"),
		       num(m, "switches"), quiet ? ", quiet" : "");
		printf("  %-4s %-7s %-12s %-9s %-6s %-23s %s\n", "path",
		       "known", "BoNF Mbit/s", "elephants", "ours",
		       "load Mbit/s", "switches");
		for (k = 0; k < arr_len(paths); k++)
			path_text(json_object_array_get_idx(paths, k));
	}
}

static void flows_text(json_object *doc)
{
	size_t i, k;

	for (i = 0; i < arr_len(doc); i++) {
		json_object *f = json_object_array_get_idx(doc, i);
		json_object *h = arr(f, "history");

		printf("%s %s:%lld %s:%lld (%s) path %lld via %s -> %s\n",
		       str(f, "proto"), str(f, "src"), num(f, "sport"),
		       str(f, "dst"), num(f, "dport"), str(f, "dst_host"),
		       num(f, "path"), str(f, "saddr"), str(f, "daddr"));
		printf("    elephant for %.1fs moves %lld",
		       dbl(f, "elephant_s"), num(f, "moves"));
		if (json_object_object_get(f, "mbps"))
			printf(" at %.1f Mbit/s", dbl(f, "mbps"));
		printf(" history");
		for (k = 0; k < arr_len(h); k++) {
			json_object *x = json_object_array_get_idx(h, k);

			printf(" path %lld (%.1fs ago)", num(x, "path"),
			       dbl(x, "ago_s"));
		}
		putchar('\n');
	}
}

/* One key and value a line, the values in one column; null as `-'. */
static void stats_text(json_object *doc)
{
	int width = 0;

	if (!json_object_is_type(doc, json_type_object))
		return;
	json_object_object_foreach(doc, k, v)
	{
		(void)v;
		if ((int)strlen(k) > width)
			width = strlen(k);
	}
	/* Whatever holds the socket wrote the keys: a sane column. */
	if (width > 40)
		width = 40;
	json_object_object_foreach(doc, key, val)
	{
		const char *s = val ? json_object_get_string(val) : NULL;

		printf("%-*s %s\n", width, key, s ? s : "-");
	}
}

void answer_text(const char *cmd, json_object *doc)
{
	if (!strcmp(cmd, DARDD_CMD_MONITORS))
		monitors_text(doc);
	else if (!strcmp(cmd, DARDD_CMD_FLOWS))
		flows_text(doc);
	else
		stats_text(doc);
}
