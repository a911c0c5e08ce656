// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-exp bench (bench.h): figure lines of test logs into a markdown
 * table and JSON, each figure's values summed up by libdard's stats.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "bench.h"
#include "err.h"
#include "num.h"
#include "readall.h"
#include "stats.h"
#include "stdopts.h"
#include "topo.h"

enum { BENCH_FILE_MAX = 64 << 20 };

static struct exp_bfig *find(struct exp_bench *b, const char *name)
{
	struct exp_bfig *f;
	size_t i;

	for (i = 0; i < b->n; i++)
		if (!strcmp(b->fig[i].name, name))
			return &b->fig[i];
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;

		f = realloc(b->fig, cap * sizeof(*f));
		if (!f)
			return NULL;
		b->fig = f;
		b->cap = cap;
	}
	f = &b->fig[b->n++];
	memset(f, 0, sizeof(*f));
	strcpy(f->name, name);
	return f;
}

static int push(struct exp_bfig *f, double v)
{
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 8;
		double *x = realloc(f->v, cap * sizeof(*x));

		if (!x)
			return -ENOMEM;
		f->v = x;
		f->cap = cap;
	}
	f->v[f->n++] = v;
	return 0;
}

/* One `figure NAME VALUE UNIT [WHAT]' line, NUL-terminated, no newline. */
static int add_line(struct exp_bench *b, char *line, unsigned lineno, char *err)
{
	char *name, *value, *unit, *what, *save;
	struct exp_bfig *f;
	double v;

	strtok_r(line, " ", &save); /* "figure" */
	name = strtok_r(NULL, " ", &save);
	value = strtok_r(NULL, " ", &save);
	unit = strtok_r(NULL, " ", &save);
	what = strtok_r(NULL, "", &save);
	if (!name || !value)
		return dard_fail(err, -EINVAL,
				 "%u: a figure needs a name and a value",
				 lineno);
	if (strlen(name) >= EXP_BENCH_NAME_MAX)
		return dard_fail(err, -EINVAL,
				 "%u: a figure's name over %d bytes", lineno,
				 EXP_BENCH_NAME_MAX - 1);
	/* A unit may be left out: then the rest is no unit. */
	if (unit && strlen(unit) >= EXP_BENCH_UNIT_MAX)
		return dard_fail(err, -EINVAL, "%u: %s's unit over %d bytes",
				 lineno, name, EXP_BENCH_UNIT_MAX - 1);
	if (strcmp(value, "nan") &&
	    (dard_parse_double(value, -1e300, 1e300, &v) || !isfinite(v)))
		return dard_fail(err, -EINVAL,
				 "%u: %s's value `%s' is no number", lineno,
				 name, value);
	f = find(b, name);
	if (!f)
		return -ENOMEM;
	if (f->n + f->nan == 0) {
		snprintf(f->unit, sizeof(f->unit), "%s", unit ? unit : "");
		snprintf(f->what, sizeof(f->what), "%s", what ? what : "");
	} else if (strcmp(f->unit, unit ? unit : "")) {
		return dard_fail(err, -EINVAL,
				 "%u: %s in `%s', earlier in `%s'", lineno,
				 name, unit ? unit : "", f->unit);
	}
	if (!strcmp(value, "nan")) {
		f->nan++;
		return 0;
	}
	return push(f, v);
}

int exp_bench_add(struct exp_bench *b, const char *text, size_t len, char *err)
{
	unsigned lineno = 0;
	size_t at = 0;
	int ret = 0;

	*err = '\0';
	while (at < len && !ret) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - text - at) : len - at;
		char *line;

		lineno++;
		if (n > 7 && !memcmp(text + at, "figure ", 7)) {
			line = strndup(text + at, n);
			if (!line)
				return -ENOMEM;
			/* A NUL inside the line ends it early: no harm. */
			ret = add_line(b, line, lineno, err);
			free(line);
		}
		at += n + 1;
	}
	return ret;
}

void exp_bench_free(struct exp_bench *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		free(b->fig[i].v);
	free(b->fig);
	memset(b, 0, sizeof(*b));
}

/*
 * v as the table shows it: three significant digits, whole numbers from
 * 100 up to a million as they are (2000, not 2e+03), and 0 for what is
 * within rounding of 0 at the scale of the figure (an sd of 2.7e-16 of
 * equal values).
 */
static const char *shown(char *buf, size_t size, double v, double scale)
{
	if (fabs(v) < 1e-9 * fmax(1, fabs(scale)))
		v = 0;
	if (fabs(v) >= 100 && fabs(v) < 1e6)
		snprintf(buf, size, "%.0f", v);
	else
		snprintf(buf, size, "%.3g", v);
	return buf;
}

void exp_bench_print(const struct exp_bench *b, FILE *out)
{
	size_t i, k;

	fputs("| figure | n | mean | sd | 95% interval | least | largest | unit | what |\n"
	      "|---|---|---|---|---|---|---|---|---|\n",
	      out);
	for (i = 0; i < b->n; i++) {
		const struct exp_bfig *f = &b->fig[i];
		struct dard_ci ci;
		double lo = NAN, hi = NAN;
		char a[32], c[32];

		dard_ci95(f->v, f->n, &ci);
		for (k = 0; k < f->n; k++) {
			if (k == 0 || f->v[k] < lo)
				lo = f->v[k];
			if (k == 0 || f->v[k] > hi)
				hi = f->v[k];
		}
		fprintf(out, "| %s | %zu%s | %s | %s | ", f->name, f->n,
			f->nan ? " (+nan)" : "",
			shown(a, sizeof(a), ci.mean, ci.mean),
			shown(c, sizeof(c), ci.sd, ci.mean));
		if (isnan(ci.half))
			fputs("- | ", out);
		else
			fprintf(out, "%s to %s | ",
				shown(a, sizeof(a), ci.mean - ci.half, ci.mean),
				shown(c, sizeof(c), ci.mean + ci.half,
				      ci.mean));
		fprintf(out, "%s | %s | %s | %s |\n",
			shown(a, sizeof(a), lo, ci.mean),
			shown(c, sizeof(c), hi, ci.mean), f->unit, f->what);
	}
}

static json_object *num(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static int write_json(const struct exp_bench *b, const char *path)
{
	json_object *arr = json_object_new_array();
	size_t i, k;
	int ret;

	for (i = 0; i < b->n; i++) {
		const struct exp_bfig *f = &b->fig[i];
		json_object *o = json_object_new_object(),
			    *vals = json_object_new_array();
		struct dard_ci ci;

		dard_ci95(f->v, f->n, &ci);
		json_object_object_add(o, "figure",
				       json_object_new_string(f->name));
		json_object_object_add(o, "unit",
				       json_object_new_string(f->unit));
		json_object_object_add(o, "what",
				       json_object_new_string(f->what));
		json_object_object_add(o, "n", json_object_new_int64(f->n));
		json_object_object_add(o, "nan", json_object_new_int64(f->nan));
		json_object_object_add(o, "mean", num(ci.mean));
		json_object_object_add(o, "sd", num(ci.sd));
		json_object_object_add(o, "ci95", num(ci.half));
		for (k = 0; k < f->n; k++)
			json_object_array_add(vals, num(f->v[k]));
		json_object_object_add(o, "values", vals);
		json_object_array_add(arr, o);
	}
	ret = json_object_to_file_ext(path, arr, JSON_C_TO_STRING_PRETTY);
	json_object_put(arr);
	return ret ? -EIO : 0;
}

int exp_bench_cmd(int argc, char **argv, void (*usage)(FILE *))
{
	static const struct option lo[] = {
		{"json", required_argument, NULL, 'j'},
		DARD_OPTS_INFO,
		{NULL, 0, NULL, 0},
	};
	char err[DARD_ERR_MAX];
	struct exp_bench b = {0};
	const char *json = NULL;
	int c, i, ret = 0;

	optind = 0;
	while ((c = getopt_long(argc, argv, "Vh", lo, NULL)) != -1) {
		if (c == 'j') {
			json = optarg;
			continue;
		}
		ret = dard_common_opt(c, "dard-exp", NULL, usage);
		return ret == DARD_OPTS_RUN ? 2 : ret;
	}
	if (optind == argc) {
		fprintf(stderr,
			"dard-exp: bench: give one LOG or more (try --help)\n");
		return 2;
	}
	for (i = optind; i < argc && !ret; i++) {
		char *text;
		size_t len;
		int fd = open(argv[i], O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			fprintf(stderr, "dard-exp: bench: %s: %s\n", argv[i],
				strerror(errno));
			ret = 1;
			break;
		}
		c = dard_read_all(fd, BENCH_FILE_MAX, &text, &len);
		close(fd);
		if (c) {
			fprintf(stderr, "dard-exp: bench: %s: %s\n", argv[i],
				strerror(-c));
			ret = 1;
			break;
		}
		c = exp_bench_add(&b, text, len, err);
		free(text);
		if (c) {
			fprintf(stderr, "dard-exp: bench: %s:%s\n", argv[i],
				c == -ENOMEM ? " out of memory" : err);
			ret = 1;
		}
	}
	if (!ret) {
		exp_bench_print(&b, stdout);
		if (json && write_json(&b, json)) {
			fprintf(stderr, "dard-exp: bench: writing %s failed\n",
				json);
			ret = 1;
		}
	}
	exp_bench_free(&b);
	return ret;
}
