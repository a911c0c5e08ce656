// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The experiment directory's CSV, key=value and nodes files (csv.h). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "num.h"

int exp_fail(char *err, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err, EXP_ERR_MAX, fmt, ap);
		va_end(ap);
	}
	return ret;
}

/*
 * A NUL-terminated copy of buf, or NULL with err set: a NUL inside is
 * refused with its line (C strings would end there).
 */
static char *copy_text(const char *name, const char *buf, size_t len, char *err)
{
	const char *nul = memchr(buf, '\0', len), *p;
	unsigned line = 1;
	char *t;

	if (nul) {
		for (p = buf; p < nul; p++)
			line += *p == '\n';
		exp_fail(err, -EINVAL, "%s:%u: a NUL byte", name, line);
		return NULL;
	}
	t = malloc(len + 1);
	if (!t) {
		exp_fail(err, -ENOMEM, "out of memory");
		return NULL;
	}
	memcpy(t, buf, len);
	t[len] = '\0';
	return t;
}

/* Cuts the line at *p off (its end NUL-terminated), moving *p past it. */
static char *next_line(char **p)
{
	char *s = *p, *nl;

	if (!*s)
		return NULL;
	nl = strchr(s, '\n');
	if (nl) {
		*nl = '\0';
		*p = nl + 1;
	} else {
		*p = s + strlen(s);
	}
	return s;
}

/* Splits s at commas into f[] (n of them, counted first). */
static unsigned count_fields(const char *s)
{
	unsigned n = 1;

	for (; *s; s++)
		n += *s == ',';
	return n;
}

static void split_fields(char *s, char **f)
{
	unsigned i = 0;

	f[i++] = s;
	for (; *s; s++)
		if (*s == ',') {
			*s = '\0';
			f[i++] = s + 1;
		}
}

/* Where each wanted column is among the header's fields. */
static int map_header(struct exp_csv *c, char *s, unsigned lineno,
		      unsigned *map, unsigned *nh, char *err)
{
	unsigned n = count_fields(s), i, j;
	char **f = calloc(n, sizeof(*f));

	if (!f)
		return exp_fail(err, -ENOMEM, "out of memory");
	split_fields(s, f);
	for (j = 0; j < c->ncols; j++) {
		for (i = 0; i < n && strcmp(f[i], c->cols[j]); i++)
			;
		if (i == n) {
			free(f);
			return exp_fail(err, -EINVAL,
					"%s:%u: no column `%s' in the header",
					c->name, lineno, c->cols[j]);
		}
		map[j] = i;
	}
	free(f);
	*nh = n;
	return 0;
}

/* Room for one more row. */
static int grow(struct exp_csv *c, size_t *cap, char *err)
{
	size_t want = *cap ? 2 * *cap : 64;
	char **cell;
	unsigned *line;

	if (c->nrows < *cap)
		return 0;
	cell = realloc(c->cell, want * c->ncols * sizeof(*cell));
	if (cell)
		c->cell = cell;
	line = cell ? realloc(c->line, want * sizeof(*line)) : NULL;
	if (!line)
		return exp_fail(err, -ENOMEM, "out of memory");
	c->line = line;
	*cap = want;
	return 0;
}

static int read_rows(struct exp_csv *c, int header, unsigned *map, char **f,
		     char *err)
{
	unsigned lineno = 0, nh = c->ncols, n, j;
	char *p = c->text, *s;
	size_t cap = 0;
	int ret, seen_header = !header;

	while ((s = next_line(&p))) {
		lineno++;
		if (!*s)
			continue;
		if (!seen_header) {
			ret = map_header(c, s, lineno, map, &nh, err);
			if (ret)
				return ret;
			seen_header = 1;
			continue;
		}
		n = count_fields(s);
		if (n != nh)
			return exp_fail(err, -EINVAL,
					"%s:%u: %u fields, expected %u",
					c->name, lineno, n, nh);
		ret = grow(c, &cap, err);
		if (ret)
			return ret;
		if (header) {
			char **all = calloc(nh, sizeof(*all));

			if (!all)
				return exp_fail(err, -ENOMEM, "out of memory");
			split_fields(s, all);
			for (j = 0; j < c->ncols; j++)
				f[j] = all[map[j]];
			free(all);
		} else {
			split_fields(s, f);
		}
		memcpy(&c->cell[c->nrows * c->ncols], f, c->ncols * sizeof(*f));
		c->line[c->nrows++] = lineno;
	}
	if (!seen_header)
		return exp_fail(err, -EINVAL, "%s: no header line", c->name);
	return 0;
}

int exp_csv_read(struct exp_csv *c, const char *name, const char *buf,
		 size_t len, const char *const *cols, unsigned ncols,
		 int header, char *err)
{
	unsigned *map = calloc(ncols ? ncols : 1, sizeof(*map));
	char **f = calloc(ncols ? ncols : 1, sizeof(*f));
	int ret;

	memset(c, 0, sizeof(*c));
	c->name = name;
	c->cols = cols;
	c->ncols = ncols;
	ret = !map || !f ? exp_fail(err, -ENOMEM, "out of memory") : 0;
	if (!ret) {
		c->text = copy_text(name, buf, len, err);
		ret = c->text ? read_rows(c, header, map, f, err) : -EINVAL;
	}
	free(map);
	free(f);
	if (ret)
		exp_csv_free(c);
	return ret;
}

void exp_csv_free(struct exp_csv *c)
{
	free(c->own);
	c->own = NULL;
	free(c->text);
	free(c->cell);
	free(c->line);
	c->text = NULL;
	c->cell = NULL;
	c->line = NULL;
	c->nrows = 0;
}

int exp_csv_num(const struct exp_csv *c, size_t row, unsigned col, double min,
		double max, int empty_ok, double *v, char *err)
{
	const char *s = exp_csv_str(c, row, col);
	int ret;

	if (!*s && empty_ok) {
		*v = NAN;
		return 0;
	}
	if (!*s)
		return exp_fail(err, -EINVAL, "%s:%u: no %s", c->name,
				c->line[row], c->cols[col]);
	ret = dard_parse_double(s, min, max, v);
	if (ret)
		return exp_fail(err, -EINVAL, "%s:%u: %s `%s': %s", c->name,
				c->line[row], c->cols[col], s,
				dard_num_strerror(ret));
	return 0;
}

int exp_csv_uint(const struct exp_csv *c, size_t row, unsigned col,
		 unsigned max, unsigned *v, char *err)
{
	const char *s = exp_csv_str(c, row, col);
	uint32_t u;
	int ret = dard_parse_u32(s, 0, max, &u);

	if (ret)
		return exp_fail(err, -EINVAL, "%s:%u: %s `%s': %s", c->name,
				c->line[row], c->cols[col], s,
				!*s ? "empty" : dard_num_strerror(ret));
	*v = u;
	return 0;
}

static int kv_grow(struct exp_kv *kv, size_t *cap, char *err)
{
	size_t want = *cap ? 2 * *cap : 32;
	char **k, **v;
	unsigned *l;

	if (kv->n < *cap)
		return 0;
	k = realloc(kv->key, want * sizeof(*k));
	if (k)
		kv->key = k;
	v = k ? realloc(kv->val, want * sizeof(*v)) : NULL;
	if (v)
		kv->val = v;
	l = v ? realloc(kv->line, want * sizeof(*l)) : NULL;
	if (!l)
		return exp_fail(err, -ENOMEM, "out of memory");
	kv->line = l;
	*cap = want;
	return 0;
}

static int kv_lines(struct exp_kv *kv, const char *name, char *err)
{
	char *p = kv->text, *s, *eq;
	unsigned lineno = 0, prev;
	size_t cap = 0;
	int ret;

	while ((s = next_line(&p))) {
		lineno++;
		if (!*s || *s == '#')
			continue;
		eq = strchr(s, '=');
		if (!eq || eq == s)
			return exp_fail(err, -EINVAL, "%s:%u: %s", name, lineno,
					eq ? "no key before `='"
					   : "no `=' (KEY=VALUE lines)");
		*eq = '\0';
		if (exp_kv_get(kv, s, &prev))
			return exp_fail(err, -EINVAL,
					"%s:%u: `%s' again (line %u has it)",
					name, lineno, s, prev);
		ret = kv_grow(kv, &cap, err);
		if (ret)
			return ret;
		kv->key[kv->n] = s;
		kv->val[kv->n] = eq + 1;
		kv->line[kv->n++] = lineno;
	}
	return 0;
}

int exp_kv_read(struct exp_kv *kv, const char *name, const char *buf,
		size_t len, char *err)
{
	int ret;

	memset(kv, 0, sizeof(*kv));
	kv->text = copy_text(name, buf, len, err);
	if (!kv->text)
		return -EINVAL;
	ret = kv_lines(kv, name, err);
	if (ret)
		exp_kv_free(kv);
	return ret;
}

const char *exp_kv_get(const struct exp_kv *kv, const char *key, unsigned *line)
{
	size_t i;

	for (i = 0; i < kv->n; i++)
		if (!strcmp(kv->key[i], key)) {
			if (line)
				*line = kv->line[i];
			return kv->val[i];
		}
	return NULL;
}

void exp_kv_free(struct exp_kv *kv)
{
	free(kv->text);
	free(kv->key);
	free(kv->val);
	free(kv->line);
	memset(kv, 0, sizeof(*kv));
}

/* One nodes line's words into n; 0 or -EINVAL with err set. */
static int node_words(char *s, const char *name, unsigned lineno,
		      struct exp_node *n, char *err)
{
	char *w[4], *save;
	unsigned k = 0;

	for (w[k] = strtok_r(s, " \t", &save); w[k] && k < 3;
	     w[k] = strtok_r(NULL, " \t", &save))
		k++;
	if (k != 3 || w[3])
		return exp_fail(err, -EINVAL,
				"%s:%u: expected NODE KIND NAMESPACE", name,
				lineno);
	if (strlen(w[0]) >= sizeof(n->name) || strlen(w[2]) >= sizeof(n->ns))
		return exp_fail(err, -EINVAL, "%s:%u: a name too long", name,
				lineno);
	if (strchr(w[2], '/') || !strcmp(w[2], ".") || !strcmp(w[2], ".."))
		return exp_fail(err, -EINVAL,
				"%s:%u: `%s' is no namespace name", name,
				lineno, w[2]);
	strcpy(n->name, w[0]);
	strcpy(n->ns, w[2]);
	return 0;
}

long exp_nodes_read(const char *name, const char *buf, size_t len,
		    struct exp_node **out, char *err)
{
	char *text = copy_text(name, buf, len, err), *p = text, *s;
	struct exp_node *node = NULL, *more;
	size_t n = 0, cap = 0;
	unsigned lineno = 0;
	int ret = text ? 0 : -EINVAL;

	while (!ret && (s = next_line(&p))) {
		lineno++;
		if (!*s)
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			more = realloc(node, cap * sizeof(*node));
			if (!more) {
				ret = exp_fail(err, -ENOMEM, "out of memory");
				break;
			}
			node = more;
		}
		ret = node_words(s, name, lineno, &node[n], err);
		n += !ret;
	}
	free(text);
	if (!ret && !n)
		ret = exp_fail(err, -EINVAL, "%s: no nodes", name);
	if (ret) {
		free(node);
		return ret;
	}
	*out = node;
	return n;
}
