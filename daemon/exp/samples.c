// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The sampler's files and the calibration, read and judged (samples.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "num.h"
#include "samples.h"

/* dir/t0: one number, epoch seconds. -ENOENT: not there. */
static int read_t0(const char *dir, double *t0, char *err)
{
	char path[PATH_MAX], *buf;
	size_t len;
	int ret;

	if ((ret = exp_path(path, dir, "t0", err)) ||
	    (ret = exp_file(path, &buf, &len, err)))
		return ret;
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == ' '))
		buf[--len] = '\0';
	ret = dard_parse_double(buf, 0, 1e11, t0);
	if (ret)
		exp_fail(err, -EINVAL, "%s:1: t0 `%.40s': %s", path, buf,
			 dard_num_strerror(ret));
	free(buf);
	return ret ? -EINVAL : 0;
}

static const char *const cpu_cols[] = {"t", "idle"};

static int read_cpu(const char *dir, struct exp_cpu_sample **s, size_t *n,
		    char *err)
{
	char path[PATH_MAX];
	struct exp_csv c;
	size_t i;
	int ret;

	if ((ret = exp_path(path, dir, "cpu.csv", err)) ||
	    (ret = exp_csv_file(&c, path, cpu_cols, 2, 1, err)))
		return ret;
	*n = c.nrows;
	*s = calloc(c.nrows ? c.nrows : 1, sizeof(**s));
	if (!*s)
		ret = exp_fail(err, -ENOMEM, "out of memory");
	for (i = 0; !ret && i < c.nrows; i++)
		if (!(ret = exp_csv_num(&c, i, 0, 0, 1e11, 0, &(*s)[i].t, err)))
			ret = exp_csv_num(&c, i, 1, 0, 1, 0, &(*s)[i].idle,
					  err);
	exp_csv_free(&c);
	return ret;
}

static const char *const links_cols[] = {
	"t", "node", "dev", "tx_bytes", "tx_packets", "drops", "backlog",
};

/* links.csv's rows into s, which point into c's text. */
static int read_links(const char *dir, struct exp_csv *c,
		      struct exp_link_sample **s, size_t *n, char *err)
{
	char path[PATH_MAX];
	double x;
	size_t i;
	int ret;

	if ((ret = exp_path(path, dir, "links.csv", err)) ||
	    (ret = exp_csv_file(c, path, links_cols, 7, 1, err)))
		return ret;
	*n = c->nrows;
	*s = calloc(c->nrows ? c->nrows : 1, sizeof(**s));
	if (!*s)
		return exp_fail(err, -ENOMEM, "out of memory");
	for (i = 0; i < c->nrows; i++) {
		struct exp_link_sample *l = &(*s)[i];

		l->node = exp_csv_str(c, i, 1);
		l->dev = exp_csv_str(c, i, 2);
		if (!*l->node || !*l->dev)
			return exp_fail(err, -EINVAL, "%s:%u: no node or dev",
					c->name, c->line[i]);
		if ((ret = exp_csv_num(c, i, 0, 0, 1e11, 0, &l->t, err)) ||
		    (ret = exp_csv_num(c, i, 3, 0, 1e20, 0, &l->tx_bytes,
				       err)) ||
		    (ret = exp_csv_num(c, i, 4, 0, 1e20, 0, &x, err)) ||
		    (ret = exp_csv_num(c, i, 5, 0, 1e20, 0, &l->drops, err)) ||
		    (ret = exp_csv_num(c, i, 6, 0, 1e20, 0, &x, err)))
			return ret;
	}
	return 0;
}

static int judge_links(const char *dir, double from, double to, double link,
		       struct exp_verdict *v, char *err)
{
	struct exp_link_sample *s = NULL;
	struct exp_csv c;
	size_t n = 0;
	int ret;

	if (!isfinite(link)) {
		exp_skip(v, "shaping", "no link rate in meta");
		return 0;
	}
	ret = read_links(dir, &c, &s, &n, err);
	if (ret == -ENOENT) {
		exp_skip(v, "shaping", "no links.csv");
		return 0;
	}
	if (!ret)
		exp_judge_links(s, n, from, to, link, v);
	free(s);
	exp_csv_free(&c);
	return ret;
}

int exp_judge_samples(const char *dir, double end, double link,
		      struct exp_cpu_figures *cf, struct exp_verdict *v,
		      char *err)
{
	struct exp_cpu_sample *s = NULL;
	size_t n = 0;
	double t0;
	int ret;

	*cf = (struct exp_cpu_figures){0, NAN, NAN};
	ret = read_t0(dir, &t0, err);
	if (ret == -ENOENT || (!ret && !isfinite(end))) {
		exp_skip(v, "cpu", ret ? "no t0" : "no flow's end known");
		exp_skip(v, "shaping", ret ? "no t0" : "no flow's end known");
		return 0;
	}
	if (ret)
		return ret;
	ret = read_cpu(dir, &s, &n, err);
	if (ret == -ENOENT)
		exp_skip(v, "cpu", "no cpu.csv");
	else if (!ret)
		exp_judge_cpu(s, n, t0, t0 + end, cf, v);
	free(s);
	if (ret && ret != -ENOENT)
		return ret;
	return judge_links(dir, t0, t0 + end, link, v, err);
}

static const char *const calib_cols[] = {
	"id", "src", "dst", "seconds", "bytes", "mbps",
};

/* calibration/flows.csv into f; the longest flow's seconds in *end. */
static int calib_flows(const struct exp_csv *c, struct exp_calib_flow *f,
		       double *end, char *err)
{
	double secs, x;
	size_t i;
	int ret;

	*end = NAN;
	for (i = 0; i < c->nrows; i++) {
		f[i].src = exp_csv_str(c, i, 1);
		f[i].dst = exp_csv_str(c, i, 2);
		if ((ret = exp_csv_uint(c, i, 0, UINT32_MAX, &f[i].id, err)) ||
		    (ret = exp_csv_num(c, i, 3, 0, 1e9, 0, &secs, err)) ||
		    (ret = exp_csv_num(c, i, 4, 0, 1e18, 0, &x, err)) ||
		    (ret = exp_csv_num(c, i, 5, 0, 1e9, 0, &f[i].mbps, err)))
			return ret;
		*end = isfinite(*end) ? fmax(*end, secs) : secs;
	}
	return 0;
}

int exp_calib_load(struct exp *e, char *err)
{
	struct exp_calib *cal = &e->calib;
	struct exp_calib_flow *f = NULL;
	struct exp_cpu_figures cf;
	char dir[PATH_MAX], path[PATH_MAX];
	struct exp_csv c;
	double end = NAN;
	int ret;

	cal->idle = cal->cpu_busy = cal->slowest_mbps = cal->want = NAN;
	if ((ret = exp_path(dir, e->dir, "calibration", err)) ||
	    (ret = exp_path(path, dir, "flows.csv", err)))
		return ret;
	ret = exp_csv_file(&c, path, calib_cols, 6, 1, err);
	if (ret == -ENOENT) {
		exp_note(e, "no calibration/flows.csv: the calibration is not "
			    "judged");
		return 0;
	}
	if (ret)
		return ret;
	cal->have = 1;
	f = calloc(c.nrows ? c.nrows : 1, sizeof(*f));
	ret = f ? calib_flows(&c, f, &end, err)
		: exp_fail(err, -ENOMEM, "out of memory");
	if (!ret) {
		exp_judge_calib(f, c.nrows, e->meta.link, e->meta.goodput, cal);
		ret = exp_judge_samples(dir, end, e->meta.link, &cf, &cal->v,
					err);
	}
	if (!ret) {
		cal->idle = cf.idle;
		cal->idle_n = cf.n;
		cal->cpu_busy = cf.busy;
	}
	free(f);
	exp_csv_free(&c);
	return ret;
}
