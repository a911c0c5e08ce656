// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-exp report's JSON (jsonout.h): the figures the text prints, numbers
 * as numbers (shares and gains as fractions, times in seconds), null
 * for a figure that cannot be had.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "figures.h"
#include "jsonout.h"
#include "num.h"

#define add json_object_object_add

/* A double, or null; printed short (json-c's default is %.17g). */
static struct json_object *jnum(double v)
{
	char s[32];

	if (!isfinite(v))
		return NULL;
	snprintf(s, sizeof(s), "%.10g", v);
	return json_object_new_double_s(v, s);
}

static struct json_object *jstr(const char *s)
{
	return json_object_new_string(s);
}

/* meta: numbers as numbers, seeds and schedulers as arrays. */
static struct json_object *jmeta(const struct exp_meta *m)
{
	struct json_object *o = json_object_new_object(), *a;
	const char *k, *v, *p;
	uint64_t u;
	double d;
	size_t i, n;
	char word[32];

	for (i = 0; i < m->kv.n; i++) {
		k = m->kv.key[i];
		v = m->kv.val[i];
		if (!strcmp(k, "seeds") || !strcmp(k, "schedulers")) {
			int seeds = !strcmp(k, "seeds");

			a = json_object_new_array();
			for (p = v; *(p += strspn(p, seeds ? " " : ","));
			     p += n) {
				n = strcspn(p, seeds ? " " : ",");
				snprintf(word, sizeof(word), "%.*s", (int)n, p);
				json_object_array_add(
					a,
					seeds && !dard_parse_u64(word, 0,
								 UINT64_MAX, &u)
						? json_object_new_uint64(u)
						: jstr(word));
			}
			add(o, k, a);
		} else if (strcmp(k, "date") && strcmp(k, "command") &&
			   strcmp(k, "topo") && strcmp(k, "pattern") &&
			   !dard_parse_double(v, -HUGE_VAL, HUGE_VAL, &d)) {
			add(o, k, jnum(d));
		} else {
			add(o, k, jstr(v));
		}
	}
	return o;
}

static struct json_object *jverdict(const struct exp_verdict *v)
{
	struct json_object *o = json_object_new_object();
	struct json_object *rs = json_object_new_array();
	struct json_object *sk = json_object_new_array(), *x;
	unsigned i;

	switch (exp_faith(v)) {
	case EXP_FAITHFUL:
		add(o, "faithful", json_object_new_boolean(1));
		break;
	case EXP_UNFAITHFUL:
		add(o, "faithful", json_object_new_boolean(0));
		break;
	default:
		add(o, "faithful", NULL);
	}
	for (i = 0; i < v->nreasons; i++) {
		x = json_object_new_object();
		add(x, "check", jstr(v->reason[i].check));
		add(x, "value", jnum(v->reason[i].value));
		add(x, "text", jstr(v->reason[i].text));
		json_object_array_add(rs, x);
	}
	for (i = 0; i < v->nskips; i++) {
		x = json_object_new_object();
		add(x, "check", jstr(v->skip[i].check));
		add(x, "why", jstr(v->skip[i].why));
		json_object_array_add(sk, x);
	}
	add(o, "reasons", rs);
	add(o, "not_judged", sk);
	return o;
}

static struct json_object *jcalib(const struct exp_calib *c)
{
	struct json_object *o, *s;

	if (!c->have)
		return NULL;
	o = json_object_new_object();
	add(o, "flows", json_object_new_int64(c->flows));
	add(o, "below", json_object_new_int64(c->below));
	add(o, "want_mbps", jnum(c->want));
	s = NULL;
	if (c->flows) {
		s = json_object_new_object();
		add(s, "id", json_object_new_int64(c->slowest));
		add(s, "src", jstr(c->slowest_src));
		add(s, "dst", jstr(c->slowest_dst));
		add(s, "mbps", jnum(c->slowest_mbps));
	}
	add(o, "slowest", s);
	add(o, "idle", jnum(c->idle));
	add(o, "samples", json_object_new_int64(c->idle_n));
	add(o, "cpu_busy", jnum(c->cpu_busy));
	add(o, "fidelity", jverdict(&c->v));
	return o;
}

static struct json_object *jcell(const struct exp_cell *c)
{
	struct json_object *o = json_object_new_object();

	add(o, "flows", json_object_new_int64(c->flows));
	add(o, "failed", json_object_new_int64(c->failed));
	add(o, "avg", jnum(c->avg));
	add(o, "model", jnum(c->model));
	add(o, "bound", jnum(c->bound));
	add(o, "ratio", jnum(exp_cell_ratio(c)));
	add(o, "idle", jnum(c->idle));
	add(o, "samples", json_object_new_int64(c->idle_n));
	add(o, "cpu_busy", jnum(c->cpu_busy));
	add(o, "below_share", jnum(c->below));
	add(o, "flow_seconds", json_object_new_int64(c->judged_fs));
	add(o, "fidelity", jverdict(&c->v));
	return o;
}

static struct json_object *jruns(const struct exp *e)
{
	struct json_object *a = json_object_new_array(), *o, *ss;
	uint64_t seed;
	unsigned r, s;

	for (r = 0; r < e->nruns; r++) {
		const struct exp_run *run = &e->run[r];

		o = json_object_new_object();
		add(o, "run", json_object_new_int64(run->num));
		add(o, "seed",
		    !dard_parse_u64(run->seed, 0, UINT64_MAX, &seed)
			    ? json_object_new_uint64(seed)
			    : NULL);
		add(o, "idle", jnum(run->idle));
		add(o, "samples", json_object_new_int64(run->idle_n));
		ss = json_object_new_object();
		for (s = 0; s < e->nsched; s++)
			if (run->cell[s].present)
				add(ss, e->sched[s], jcell(&run->cell[s]));
		add(o, "schedulers", ss);
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *jscheds(const struct exp *e)
{
	struct json_object *o = json_object_new_object(), *x, *ratios;
	unsigned s, r;

	for (s = 0; s < e->nsched; s++) {
		const struct exp_sstat *ss = &e->ss[s];

		x = json_object_new_object();
		add(x, "runs", json_object_new_int64(ss->ci.n));
		add(x, "mean", jnum(ss->ci.mean));
		add(x, "sd", jnum(ss->ci.sd));
		add(x, "ci95", jnum(ss->ci.half));
		add(x, "min", jnum(ss->min));
		add(x, "max", jnum(ss->max));
		add(x, "model", jnum(ss->model));
		add(x, "model_runs", json_object_new_int64(ss->model_n));
		add(x, "ratio", jnum(ss->ratio));
		add(x, "bound", jnum(ss->bound));
		ratios = json_object_new_array();
		for (r = 0; r < e->nruns; r++)
			json_object_array_add(
				ratios,
				jnum(exp_cell_ratio(&e->run[r].cell[s])));
		add(x, "ratios", ratios);
		add(o, e->sched[s], x);
	}
	return o;
}

static struct json_object *jgains(const struct exp *e)
{
	struct json_object *a = json_object_new_array(), *o;
	unsigned i;

	for (i = 0; i < e->ngains; i++) {
		const struct exp_gain *g = &e->gain[i];

		o = json_object_new_object();
		add(o, "sched", jstr(e->sched[g->s]));
		add(o, "over", jstr(e->sched[g->o]));
		add(o, "pairs", json_object_new_int64(g->ci.n));
		add(o, "gain", jnum(g->ci.mean));
		add(o, "ci95", jnum(g->ci.half));
		add(o, "significant",
		    g->ci.n > 1 ? json_object_new_boolean(
					  dard_ci_excludes_zero(&g->ci))
				: NULL);
		add(o, "verdict", jstr(exp_gain_verdict(g)));
		add(o, "model", jnum(g->model));
		add(o, "model_pairs", json_object_new_int64(g->model_n));
		add(o, "model_ci95", jnum(g->model_half));
		add(o, "of_model", jnum(exp_gain_of_model(g)));
		add(o, "minus_model", jnum(g->diff.mean));
		add(o, "minus_model_ci95", jnum(g->diff.half));
		add(o, "model_verdict", jstr(exp_gain_model_verdict(g)));
		json_object_array_add(a, o);
	}
	return a;
}

static struct json_object *jdoc(const struct exp *e)
{
	struct json_object *o = json_object_new_object(), *notes;
	unsigned i;

	add(o, "dir", jstr(e->dir));
	add(o, "layout", jstr(e->single ? "one-run" : "runs"));
	add(o, "meta", e->meta.have ? jmeta(&e->meta) : NULL);
	notes = json_object_new_array();
	for (i = 0; i < e->nnotes; i++)
		json_object_array_add(notes, jstr(e->note[i]));
	add(o, "notes", notes);
	add(o, "calibration", jcalib(&e->calib));
	add(o, "runs", jruns(e));
	add(o, "schedulers", jscheds(e));
	add(o, "gains", jgains(e));
	return o;
}

int exp_json_write(const struct exp *e, const char *path, char *err)
{
	struct json_object *doc = jdoc(e);
	const char *text = json_object_to_json_string_ext(
		doc, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE);
	FILE *f;
	int ret = 0;

	if (!text) {
		json_object_put(doc);
		return exp_fail(err, -ENOMEM, "out of memory");
	}
	f = fopen(path, "w");
	if (!f || fputs(text, f) == EOF || fputc('\n', f) == EOF)
		ret = exp_fail(err, -errno, "Unable to write `%s': %s", path,
			       strerror(errno));
	if (f && fclose(f) && !ret)
		ret = exp_fail(err, -errno, "Unable to write `%s': %s", path,
			       strerror(errno));
	json_object_put(doc);
	return ret;
}
