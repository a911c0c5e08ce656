// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * One scheduler's run judged (flows.h): times, paths.log and each
 * finished flow's iperf3 report into fairshare.c's flows, then the shares
 * and the samples.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "dir.h"
#include "fidelity.h"
#include "flows.h"
#include "samples.h"
#include "fairshare.h"

/* What one cell's share check reads, freed together. */
struct cell_in {
	const struct exp *e;
	const char *rdir; /* the run's, where results.csv is */
	char sdir[PATH_MAX];
	struct exp_csv times, paths;
	struct exp_sflow *f; /* a flow per results row of the scheduler */
	const struct exp_rflow **rf;
	size_t n;
	struct exp_seen *seen;
	size_t nseen;
	struct exp_iv **iv;
	double last; /* the last flow's end, since t0 */
};

static int by_id(const void *a, const void *b)
{
	const struct exp_sflow *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

static struct exp_sflow *flow_of(struct cell_in *in, unsigned id)
{
	struct exp_sflow key = {.id = id};

	return bsearch(&key, in->f, in->n, sizeof(*in->f), by_id);
}

static const char *const times_cols[] = {"id", "begin", "end"};

/* times: each flow's begin and end; the last end. -ENOENT: none. */
static int read_times(struct cell_in *in, char *err)
{
	struct exp_csv *c = &in->times;
	struct exp_sflow *f;
	char path[PATH_MAX];
	double b, e;
	unsigned id;
	size_t i;
	int ret;

	if ((ret = exp_path(path, in->sdir, "times", err)) ||
	    (ret = exp_csv_file(c, path, times_cols, 3, 0, err)))
		return ret;
	for (i = 0; i < c->nrows; i++) {
		if ((ret = exp_csv_uint(c, i, 0, UINT32_MAX, &id, err)) ||
		    (ret = exp_csv_num(c, i, 1, -1e9, 1e9, 0, &b, err)) ||
		    (ret = exp_csv_num(c, i, 2, -1e9, 1e9, 0, &e, err)))
			return ret;
		f = flow_of(in, id);
		if (!f)
			continue;
		f->begin = b;
		f->end = e;
		in->last = isfinite(in->last) ? fmax(in->last, e) : e;
	}
	return 0;
}

static const char *const paths_cols[] = {"T", "ID", "MOVES", "SWITCHES"};

static int by_flow_time(const void *a, const void *b)
{
	const struct exp_seen *x = a, *y = b;

	if (x->flow != y->flow)
		return (x->flow > y->flow) - (x->flow < y->flow);
	return (x->t > y->t) - (x->t < y->t);
}

/* One paths.log line of a flow of ours into its sighting s. */
static int sight(struct cell_in *in, size_t i, const struct exp_sflow *f,
		 struct exp_seen *s, char *err)
{
	const struct dard_topo *t = in->e->cfg.topo;
	const struct exp_rflow *rf = in->rf[f - in->f];
	struct exp_csv *c = &in->paths;
	uint32_t src = dard_topo_find(t, rf->src);
	uint32_t dst = dard_topo_find(t, rf->dst);
	char why[DARD_ERR_MAX];
	int ret;

	if (src == DARD_NONE || dst == DARD_NONE || !t->node[src].is_host ||
	    !t->node[dst].is_host)
		return exp_fail(err, -EINVAL,
				"%s/results.csv:%u: %s or %s is no host of %s",
				in->rdir, rf->line, rf->src, rf->dst,
				dard_topo_label(t));
	ret = exp_csv_num(c, i, 0, -1e9, 1e9, 0, &s->t, err);
	if (ret)
		return ret;
	ret = exp_path_links(t, src, dst, exp_csv_str(c, i, 3), s->link,
			     &s->nlinks, why);
	if (ret)
		return exp_fail(err, ret, "%s:%u: path `%s': %s", c->name,
				c->line[i], exp_csv_str(c, i, 3), why);
	s->path = exp_csv_str(c, i, 3);
	s->flow = f - in->f;
	return 0;
}

/* paths.log: every flow's sightings, in time. -ENOENT: none. */
static int read_paths(struct cell_in *in, char *err)
{
	struct exp_csv *c = &in->paths;
	struct exp_sflow *f;
	char path[PATH_MAX];
	unsigned id, moves;
	size_t i, k;
	int ret;

	if ((ret = exp_path(path, in->sdir, "paths.log", err)) ||
	    (ret = exp_csv_file(c, path, paths_cols, 4, 0, err)))
		return ret;
	in->seen = calloc(c->nrows ? c->nrows : 1, sizeof(*in->seen));
	if (!in->seen)
		return exp_fail(err, -ENOMEM, "out of memory");
	for (i = 0; i < c->nrows; i++) {
		if ((ret = exp_csv_uint(c, i, 1, UINT32_MAX, &id, err)) ||
		    (ret = exp_csv_uint(c, i, 2, UINT32_MAX, &moves, err)))
			return ret;
		f = flow_of(in, id);
		if (!f)
			continue;
		ret = sight(in, i, f, &in->seen[in->nseen++], err);
		if (ret)
			return ret;
	}
	qsort(in->seen, in->nseen, sizeof(*in->seen), by_flow_time);
	for (k = 0; k < in->nseen; k = i) {
		f = &in->f[in->seen[k].flow];
		f->seen = &in->seen[k];
		for (i = k;
		     i < in->nseen && in->seen[i].flow == in->seen[k].flow; i++)
			;
		f->nseen = i - k;
	}
	return 0;
}

/* The line of buf at offset off, for a JSON parser's complaint. */
static unsigned line_at(const char *buf, size_t off)
{
	unsigned line = 1;
	size_t i;

	for (i = 0; i < off; i++)
		line += buf[i] == '\n';
	return line;
}

/* A number in o at key (an int or a double): 0, or -EINVAL. */
static int jnum(struct json_object *o, const char *key, double *v)
{
	struct json_object *x;

	if (!json_object_object_get_ex(o, key, &x) ||
	    (!json_object_is_type(x, json_type_double) &&
	     !json_object_is_type(x, json_type_int)))
		return -EINVAL;
	*v = json_object_get_double(x);
	return isfinite(*v) ? 0 : -EINVAL;
}

/* intervals[].sum of an iperf3 -J report into *iv (*n of them). */
static int report_intervals(struct json_object *doc, const char *path,
			    struct exp_iv **iv, size_t *n, char *err)
{
	struct json_object *ivs, *sum;
	double bps;
	size_t i, len;

	*n = 0;
	if (!json_object_object_get_ex(doc, "intervals", &ivs))
		return 0;
	if (!json_object_is_type(ivs, json_type_array))
		return exp_fail(err, -EINVAL, "%s: intervals is no array",
				path);
	len = json_object_array_length(ivs);
	*iv = calloc(len ? len : 1, sizeof(**iv));
	if (!*iv)
		return exp_fail(err, -ENOMEM, "out of memory");
	for (i = 0; i < len; i++) {
		struct exp_iv *x = &(*iv)[i];

		if (!json_object_object_get_ex(
			    json_object_array_get_idx(ivs, i), "sum", &sum) ||
		    jnum(sum, "start", &x->start) ||
		    jnum(sum, "end", &x->end) ||
		    jnum(sum, "bits_per_second", &bps))
			return exp_fail(err, -EINVAL,
					"%s: intervals[%zu].sum lacks start, "
					"end or bits_per_second",
					path, i);
		x->mbps = bps / 1e6;
	}
	*n = len;
	return 0;
}

/* json/ID.json's intervals: 0 (none when it is not there) or refused. */
static int read_report(struct cell_in *in, struct exp_sflow *f,
		       struct exp_iv **iv, char *err)
{
	struct json_tokener *tok;
	struct json_object *doc;
	char path[PATH_MAX], name[32], *buf;
	size_t len;
	int ret;

	snprintf(name, sizeof(name), "json/%u.json", f->id);
	if ((ret = exp_path(path, in->sdir, name, err)))
		return ret;
	ret = exp_file(path, &buf, &len, err);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	tok = json_tokener_new();
	doc = tok ? json_tokener_parse_ex(tok, buf, len) : NULL;
	if (!tok)
		ret = exp_fail(err, -ENOMEM, "out of memory");
	else if (!doc || json_tokener_get_error(tok) != json_tokener_success)
		ret = exp_fail(
			err, -EINVAL, "%s:%u: not JSON: %s", path,
			line_at(buf, json_tokener_get_parse_end(tok)),
			json_tokener_error_desc(json_tokener_get_error(tok)));
	else
		ret = report_intervals(doc, path, iv, &f->niv, err);
	f->iv = *iv;
	json_object_put(doc);
	if (tok)
		json_tokener_free(tok);
	free(buf);
	return ret;
}

static int by_rf_id(const void *a, const void *b)
{
	const struct exp_rflow *const *x = a, *const *y = b;

	return ((*x)->id > (*y)->id) - ((*x)->id < (*y)->id);
}

/* Scheduler s's flows, sorted by id; the last end from results. */
static int cell_flows(struct cell_in *in, unsigned s,
		      const struct exp_rflow *rf, const int *rs, size_t n,
		      char *err)
{
	size_t i, k = 0;

	in->last = NAN;
	for (i = 0; i < n; i++)
		in->n += rs[i] == (int)s;
	in->f = calloc(in->n ? in->n : 1, sizeof(*in->f));
	in->rf = calloc(in->n ? in->n : 1, sizeof(*in->rf));
	in->iv = calloc(in->n ? in->n : 1, sizeof(*in->iv));
	if (!in->f || !in->rf || !in->iv)
		return exp_fail(err, -ENOMEM, "out of memory");
	for (i = 0; i < n; i++)
		if (rs[i] == (int)s)
			in->rf[k++] = &rf[i];
	qsort(in->rf, in->n, sizeof(*in->rf), by_rf_id);
	for (k = 0; k < in->n; k++) {
		if (k && in->rf[k]->id == in->rf[k - 1]->id)
			return exp_fail(
				err, -EINVAL,
				"%s/results.csv:%u: flow %u of %s again",
				in->rdir, in->rf[k]->line, in->rf[k]->id,
				in->e->sched[s]);
		in->f[k] = (struct exp_sflow){
			.id = in->rf[k]->id, .begin = NAN, .end = NAN};
	}
	return 0;
}

/* The last end from results, when times is not there. */
static double results_last(const struct cell_in *in)
{
	double last = NAN;
	size_t k;

	for (k = 0; k < in->n; k++)
		if (isfinite(in->rf[k]->seconds))
			last = fmax(isfinite(last) ? last : 0,
				    in->rf[k]->start + in->rf[k]->seconds);
	return last;
}

/* The share check's verdict from what exp_judge_share found. */
static void share_verdict(const struct exp_share *sh, struct exp_cell *c)
{
	char worst[EXP_TEXT_MAX] = "";
	size_t len = 0;
	unsigned i;

	c->judged_fs = sh->judged;
	c->below = (double)sh->below / sh->judged;
	c->v.judged++;
	if (!(c->below > EXP_SHARE_BELOW_MAX))
		return;
	for (i = 0; i < sh->nworst && len < sizeof(worst); i++)
		len += snprintf(worst + len, sizeof(worst) - len,
				"%s%u (%s) %.2f", i ? ", " : "",
				sh->worst[i].id, sh->worst[i].path,
				sh->worst[i].ratio);
	exp_reason(&c->v, "share", c->below,
		   "flows below their share: %.1f%% of %u flow-seconds alone "
		   "on their paths under %.1f x the links' goodput (more "
		   "than %.0f%%); worst: %s",
		   100 * c->below, sh->judged, EXP_SHARE_BELOW,
		   100 * EXP_SHARE_BELOW_MAX, worst);
}

/* Flows below their share, when what it needs is there. */
static int judge_share(struct cell_in *in, struct exp_cell *c, int have_times,
		       char *err)
{
	const struct exp *e = in->e;
	struct exp_share sh;
	size_t k;
	int ret;

	if (!e->have_topo || !isfinite(e->meta.link) ||
	    !isfinite(e->meta.goodput)) {
		exp_skip(&c->v, "share",
			 !e->have_topo ? "no topology"
				       : "no link rate or goodput in meta");
		return 0;
	}
	if (!have_times) {
		exp_skip(&c->v, "share", "no times");
		return 0;
	}
	ret = read_paths(in, err);
	if (ret == -ENOENT) {
		exp_skip(&c->v, "share", "no paths.log");
		return 0;
	}
	for (k = 0; !ret && k < in->n; k++)
		if (isfinite(in->rf[k]->seconds))
			ret = read_report(in, &in->f[k], &in->iv[k], err);
	if (ret)
		return ret;
	ret = exp_judge_share(2 * e->cfg.topo->nlinks,
			      e->meta.link * e->meta.goodput, in->f, in->n,
			      &sh);
	if (ret)
		return exp_fail(err, ret, "%s: shares: %s", in->sdir,
				strerror(-ret));
	if (!sh.judged)
		exp_skip(&c->v, "share",
			 "no flow-second with a path seen and a whole iperf3 "
			 "interval");
	else
		share_verdict(&sh, c);
	return 0;
}

static void cell_in_free(struct cell_in *in)
{
	size_t k;

	for (k = 0; in->iv && k < in->n; k++)
		free(in->iv[k]);
	free(in->iv);
	free(in->f);
	free(in->rf);
	free(in->seen);
	exp_csv_free(&in->times);
	exp_csv_free(&in->paths);
}

int exp_judge_cell(struct exp *e, struct exp_run *r, unsigned s,
		   const struct exp_rflow *rf, const int *rs, size_t n,
		   char *err)
{
	struct cell_in in = {.e = e, .rdir = r->dir};
	struct exp_cell *c = &r->cell[s];
	struct exp_cpu_figures cf;
	int ret, have_times = 0;

	ret = exp_path(in.sdir, r->dir, e->sched[s], err);
	if (!ret)
		ret = cell_flows(&in, s, rf, rs, n, err);
	if (!ret) {
		ret = read_times(&in, err);
		have_times = !ret;
		if (ret == -ENOENT) {
			ret = 0;
			in.last = results_last(&in);
		}
	}
	if (!ret)
		ret = exp_judge_samples(in.sdir, in.last, e->meta.link, &cf,
					&c->v, err);
	if (!ret) {
		c->idle = cf.idle;
		c->idle_n = cf.n;
		c->cpu_busy = cf.busy;
		ret = judge_share(&in, c, have_times, err);
	}
	cell_in_free(&in);
	return ret;
}
