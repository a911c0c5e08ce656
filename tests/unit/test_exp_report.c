// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-exp report's figures on experiment directories written here:
 * three runs of ecmp, pvlb and dard (and switch-ecmp in one run) with
 * hand-chosen transfer times, each scheduler's mean, deviation and 95%
 * interval against hand calculation, the model's mean and the ratio
 * over the runs that have both, a gain whose interval leaves out 0, one
 * that holds it and one of a single pair, the model's gain with its
 * interval and whether the testbed's agrees; the text tables and the
 * JSON's values; the one-run layout; bad rows refused with FILE:LINE.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "exp_fix.h"
#include "jsonout.h"
#include "report.h"

#define HEADER                                                                 \
	"pattern,rate,scheduler,id,src,dst,start,seconds,bytes,moves,path\n"

/* A results.csv row of a finished flow (seconds), or a failed one. */
#define ROW(sched, id, secs)                                                   \
	"stride,0.1," sched "," #id ",e1_1,e3_1,0.5," secs ",1000,0,\n"

static void write_meta(struct exp_fix *x)
{
	put(x, "meta",
	    "date=2026-12-01T10:00:00+00:00\n"
	    "command=scripts/experiment compare --repeat 3\n"
	    "topo=fattree:4\nlink=10\ngoodput=1\npattern=stride\nrate=0.1\n"
	    "duration=60\nsize=32\nschedulers=ecmp,pvlb,dard\nruns=3\n"
	    "seeds=1 2 3\nloadavg=1.5\nnproc=2\n");
}

/*
 * ecmp 10, 12, 14 (a failed flow in run 1); pvlb 9, 10, 13; dard 8,
 * 9.6, 11; switch-ecmp 20 in run 1 only.
 */
static void write_runs(struct exp_fix *x)
{
	/* clang-format off */
	put(x, "run1/results.csv", HEADER
	    ROW("ecmp", 1, "9") ROW("ecmp", 2, "11") ROW("ecmp", 3, "")
	    ROW("pvlb", 1, "9") ROW("pvlb", 2, "9")
	    ROW("dard", 1, "8") ROW("dard", 2, "8")
	    ROW("switch-ecmp", 1, "20"));
	put(x, "run2/results.csv", HEADER
	    ROW("ecmp", 1, "12") ROW("ecmp", 2, "12")
	    ROW("pvlb", 1, "10") ROW("pvlb", 2, "10")
	    ROW("dard", 1, "9.6") ROW("dard", 2, "9.6"));
	put(x, "run3/results.csv", HEADER
	    ROW("ecmp", 1, "13") ROW("ecmp", 2, "15")
	    ROW("pvlb", 1, "13") ROW("pvlb", 2, "13")
	    ROW("dard", 1, "10") ROW("dard", 2, "12"));
	/* clang-format on */
	/* Run 1's failed ecmp flow 3 has a model row the mean leaves out. */
	put(x, "run1/model.csv",
	    "sched,flow,src,dst,start,end,time,moves\n"
	    "ecmp,1,e1_1,e3_1,0.5,8.5,8,0\necmp,2,e1_1,e3_1,0.5,10.5,10,0\n"
	    "ecmp,3,e1_1,e3_1,0.5,50.5,50,0\npvlb,1,e1_1,e3_1,0.5,8.5,8,0\n"
	    "pvlb,2,e1_1,e3_1,0.5,8.5,8,0\ndard,1,e1_1,e3_1,0.5,7.5,7,0\n"
	    "dard,2,e1_1,e3_1,0.5,7.5,7,0\nbound,1,e1_1,e3_1,0.5,5.5,5,0\n"
	    "bound,2,e1_1,e3_1,0.5,6.5,6,0\n");
	put(x, "run2/model.csv",
	    "sched,flow,src,dst,start,end,time,moves\n"
	    "ecmp,1,e1_1,e3_1,0,10,10,0\necmp,2,e1_1,e3_1,0,10,10,0\n"
	    "pvlb,1,e1_1,e3_1,0,9,9,0\npvlb,2,e1_1,e3_1,0,9,9,0\n"
	    "dard,1,e1_1,e3_1,0,8,8,0\ndard,2,e1_1,e3_1,0,8,8,0\n"
	    "bound,1,e1_1,e3_1,0,5,5,0\nbound,2,e1_1,e3_1,0,5,5,0\n");
}

static const struct exp_gain *gain_of(struct exp_fix *x, const char *s,
				      const char *o)
{
	unsigned i, si = sched_of(x, s), oi = sched_of(x, o);

	for (i = 0; i < x->e.ngains; i++)
		if (x->e.gain[i].s == si && x->e.gain[i].o == oi)
			return &x->e.gain[i];
	fail_msg("no gain of %s over %s", s, o);
	return NULL;
}

static void test_cells(void **state)
{
	struct exp_fix *x = *state;
	const struct exp_cell *c;
	unsigned ecmp;

	write_meta(x);
	write_runs(x);
	load_ok(x);
	assert_int_equal(x->e.nruns, 3);
	/* meta's order first, then what results.csv adds. */
	assert_int_equal(x->e.nsched, 4);
	assert_string_equal(x->e.sched[3], "switch-ecmp");
	ecmp = sched_of(x, "ecmp");
	c = &x->e.run[0].cell[ecmp];
	assert_int_equal(c->flows, 3);
	assert_int_equal(c->failed, 1);
	near(c->avg, 10, 1e-12);
	/* The same flows' model and bound: flow 3 failed, so not 50. */
	near(c->model, 9, 1e-12);
	near(c->bound, 5.5, 1e-12);
	near(exp_cell_ratio(c), 10.0 / 9, 1e-12);
	c = &x->e.run[2].cell[ecmp];
	assert_true(isnan(c->model) && isnan(exp_cell_ratio(c)));
	assert_string_equal(x->e.run[1].seed, "2");
	/* Nothing sampled: no verdict, and why. */
	assert_int_equal(exp_faith(&c->v), EXP_NOT_JUDGED);
	assert_true(has_skip(&c->v, "cpu", "no t0"));
	assert_true(has_skip(&c->v, "share", "no times"));
	assert_false(x->e.run[1].cell[sched_of(x, "switch-ecmp")].present);
}

static void test_across_runs(void **state)
{
	struct exp_fix *x = *state;
	const struct exp_sstat *ss;

	write_meta(x);
	write_runs(x);
	load_ok(x);
	ss = &x->e.ss[sched_of(x, "ecmp")];
	assert_int_equal(ss->ci.n, 3);
	near(ss->ci.mean, 12, 1e-12);
	near(ss->ci.sd, 2, 1e-12);
	/* t(2) = 4.30265: 4.30265 * 2 / sqrt(3). */
	near(ss->ci.half, 4.968272, 1e-5);
	near(ss->min, 10, 0);
	near(ss->max, 14, 0);
	/* The model over runs 1 and 2 (run 3 has no model.csv). */
	assert_int_equal(ss->model_n, 2);
	near(ss->model, 9.5, 1e-12);
	near(ss->ratio, 11 / 9.5, 1e-12);
	near(ss->bound, 5.25, 1e-12);
	ss = &x->e.ss[sched_of(x, "switch-ecmp")];
	assert_int_equal(ss->ci.n, 1);
	assert_true(isnan(ss->ci.sd) && isnan(ss->ci.half));
	assert_true(isnan(ss->model));
}

static void test_gains(void **state)
{
	struct exp_fix *x = *state;
	const struct exp_gain *g;

	write_meta(x);
	write_runs(x);
	load_ok(x);
	/* dard over ecmp, switch-ecmp, pvlb: the script's order. */
	assert_int_equal(x->e.ngains, 3);
	assert_ptr_equal(&x->e.gain[0], gain_of(x, "dard", "ecmp"));
	assert_ptr_equal(&x->e.gain[1], gain_of(x, "dard", "switch-ecmp"));
	/* 0.2, 0.2, 3/14: the interval leaves out 0. */
	g = gain_of(x, "dard", "ecmp");
	assert_int_equal(g->ci.n, 3);
	near(g->ci.mean, 0.204761905, 1e-8);
	near(g->ci.half, 0.020488810, 1e-6);
	assert_string_equal(exp_gain_verdict(g), "significant");
	/* The model's: (9 - 7) / 9 and (10 - 8) / 10. */
	assert_int_equal(g->model_n, 2);
	near(g->model, (2.0 / 9 + 0.2) / 2, 1e-12);
	/* t(1) = 12.7062: 12.7062 * sd(2/9, 0.2) / sqrt(2). */
	near(g->model_half, 12.7062 * (1.0 / 45) / 2, 1e-4);
	/* On the same pairs the testbed's 0.2 and 0.2: 0.2 - 2/9, 0. */
	assert_int_equal(g->diff.n, 2);
	near(g->diff.mean, -1.0 / 90, 1e-12);
	assert_string_equal(exp_gain_model_verdict(g), "agrees");
	/* 1/9, 0.04, 2/13: the interval holds 0. */
	g = gain_of(x, "dard", "pvlb");
	near(g->ci.mean, 0.101652422, 1e-8);
	near(g->ci.half, 0.142861302, 1e-6);
	assert_true(g->ci.mean - g->ci.half < 0);
	assert_string_equal(exp_gain_verdict(g), "not significant");
	/* One pair: a gain and no interval; no model for switch-ecmp. */
	g = gain_of(x, "dard", "switch-ecmp");
	assert_int_equal(g->ci.n, 1);
	near(g->ci.mean, 0.6, 1e-12);
	assert_string_equal(exp_gain_verdict(g), "one run: no interval");
	assert_true(isnan(g->model));
	assert_int_equal(g->diff.n, 0);
	assert_string_equal(exp_gain_model_verdict(g), "no model");
}

/* The model verdict reads the difference's interval, nothing else. */
static void test_model_verdict(void **state)
{
	struct exp_gain g = {.diff = {.n = 5, .mean = 0.05, .half = 0.04}};

	(void)state;
	assert_string_equal(exp_gain_model_verdict(&g), "differs");
	g.diff.mean = -0.05;
	assert_string_equal(exp_gain_model_verdict(&g), "differs");
	g.diff.half = 0.06;
	assert_string_equal(exp_gain_model_verdict(&g), "agrees");
	g.diff = (struct dard_ci){.n = 1, .mean = 0.3, .half = NAN};
	assert_string_equal(exp_gain_model_verdict(&g), "one pair");
	g.diff.n = 0;
	assert_string_equal(exp_gain_model_verdict(&g), "no model");
}

/* exp_print's text into a string (free it). */
static char *text_of(struct exp_fix *x)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	assert_non_null(f);
	exp_print(&x->e, f);
	fclose(f);
	return s;
}

static void contains(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("no `%s' in:\n%s", want, text);
}

static void test_text(void **state)
{
	struct exp_fix *x = *state;
	char *t;

	write_meta(x);
	write_runs(x);
	load_ok(x);
	t = text_of(x);
	contains(t, "warning: the machine was busy before the experiment "
		    "(load average 1.5)\n");
	contains(t, "note: run 3: no model.csv: no model or bound figures\n");
	contains(t, "\n== runs\nrun  seed   sched         flows failed    "
		    "avg_s  model_s  bound_s  ratio   idle verdict\n"
		    "1    1      ecmp              3      1   10.000    9.000"
		    "    5.500  1.111      - not-judged\n");
	contains(t, "\n== schedulers\nsched         runs   mean_s    sd_s  "
		    "ci95_s    min_s    max_s  model_s  ratio  bound_s ratios\n"
		    "ecmp             3   12.000   2.000   4.968   10.000   "
		    "14.000    9.500  1.158    5.250 1.111,1.200,-\n");
	contains(t,
		 "\n== gains\nsched         over          pairs gain_pct "
		 "ci95_pct model_pct    mci95 of_model model    verdict\n"
		 "dard          ecmp              3    20.48     2.05     "
		 "21.11    14.12     0.97 agrees   significant\n"
		 "dard          switch-ecmp       1    60.00        -        "
		 " -        -        - no model one run: no interval\n"
		 "dard          pvlb              3    10.17    14.29     "
		 "11.81     8.82     0.86 agrees   not significant\n");
	contains(t, "\n== fidelity\nrun          sched         verdict\n"
		    "1            ecmp          not judged\n");
	contains(t, "1            ecmp          cpu          no t0\n");
	free(t);
}

/* The JSON at path, parsed. */
static struct json_object *json_at(const char *path, const char *query)
{
	struct json_object *doc = json_object_from_file(path), *o = doc, *n;
	char key[64];
	const char *p = query;
	size_t len;

	assert_non_null(doc);
	/* A dotted path of keys and array indices: "gains.0.sched". */
	for (; *p; p += len + (p[len] == '.')) {
		len = strcspn(p, ".");
		snprintf(key, sizeof(key), "%.*s", (int)len, p);
		if (json_object_is_type(o, json_type_array))
			n = json_object_array_get_idx(o, atoi(key));
		else if (!json_object_object_get_ex(o, key, &n))
			fail_msg("no %s in %s", query, path);
		o = n;
	}
	json_object_get(o);
	json_object_put(doc);
	return o;
}

static double json_num(const char *path, const char *query)
{
	struct json_object *o = json_at(path, query);
	double v;

	if (!json_object_is_type(o, json_type_double) &&
	    !json_object_is_type(o, json_type_int))
		fail_msg("%s is no number", query);
	v = json_object_get_double(o);
	json_object_put(o);
	return v;
}

static void json_is(const char *path, const char *query, const char *want)
{
	struct json_object *o = json_at(path, query);
	const char *got = o ? json_object_to_json_string(o) : "null";

	if (strcmp(got, want))
		fail_msg("%s is %s, expected %s", query, got, want);
	json_object_put(o);
}

static void test_json(void **state)
{
	struct exp_fix *x = *state;
	char path[128];

	write_meta(x);
	write_runs(x);
	load_ok(x);
	snprintf(path, sizeof(path), "%s/summary.json", x->dir);
	assert_int_equal(exp_json_write(&x->e, path, x->err), 0);
	near(json_num(path, "meta.link"), 10, 0);
	json_is(path, "meta.seeds", "[ 1, 2, 3 ]");
	json_is(path, "meta.schedulers.2", "\"dard\"");
	json_is(path, "meta.topo", "\"fattree:4\"");
	near(json_num(path, "schedulers.ecmp.mean"), 12, 1e-9);
	near(json_num(path, "schedulers.ecmp.ci95"), 4.968272, 1e-5);
	near(json_num(path, "schedulers.ecmp.ratio"), 11 / 9.5, 1e-9);
	json_is(path, "schedulers.ecmp.ratios.2", "null");
	json_is(path, "schedulers.switch-ecmp.ci95", "null");
	near(json_num(path, "runs.0.schedulers.ecmp.avg"), 10, 0);
	near(json_num(path, "runs.0.schedulers.ecmp.model"), 9, 0);
	near(json_num(path, "runs.0.seed"), 1, 0);
	json_is(path, "runs.2.schedulers.ecmp.model", "null");
	json_is(path, "runs.0.schedulers.ecmp.fidelity.faithful", "null");
	json_is(path, "gains.0.over", "\"ecmp\"");
	near(json_num(path, "gains.0.gain"), 0.204761905, 1e-8);
	json_is(path, "gains.0.significant", "true");
	json_is(path, "gains.1.significant", "null");
	json_is(path, "gains.2.significant", "false");
	json_is(path, "gains.1.verdict", "\"one run: no interval\"");
	near(json_num(path, "gains.0.model_ci95"), 12.7062 / 90, 1e-4);
	near(json_num(path, "gains.0.of_model"), 0.204761905 / (19.0 / 90),
	     1e-8);
	near(json_num(path, "gains.0.minus_model"), -1.0 / 90, 1e-10);
	json_is(path, "gains.0.model_verdict", "\"agrees\"");
	json_is(path, "gains.1.model_verdict", "\"no model\"");
	json_is(path, "gains.1.of_model", "null");
	json_is(path, "calibration", "null");
}

/* DIR's own results.csv, no meta: averages, and what is missing. */
static void test_one_run(void **state)
{
	struct exp_fix *x = *state;
	unsigned s;

	put(x, "results.csv",
	    HEADER ROW("ecmp", 1, "4") ROW("ecmp", 2, "6") ROW("dard", 1, "3"));
	load_ok(x);
	assert_true(x->e.single);
	assert_int_equal(x->e.nruns, 1);
	s = sched_of(x, "ecmp");
	near(x->e.run[0].cell[s].avg, 5, 0);
	near(x->e.ss[s].ci.mean, 5, 0);
	assert_true(isnan(x->e.ss[s].ci.half));
	assert_string_equal(x->e.note[0],
			    "no meta: the link rate, goodput, topology and "
			    "load average are unknown; averages only");
	assert_int_equal(x->e.ngains, 1);
	near(x->e.gain[0].ci.mean, 0.4, 1e-12);
}

/* Bad files are refused with the file, the line and why. */
static void test_refused(void **state)
{
	struct exp_fix *x = *state;

	write_meta(x);
	write_runs(x);
	put(x, "run2/results.csv",
	    HEADER ROW("ecmp", 1, "12") "stride,0.1,ecmp,2,e1_1,e3_1,0.5,12\n");
	assert_int_equal(load(x), -EINVAL);
	assert_true(strstr(x->err, "/run2/results.csv:3: 8 fields, expected "
				   "11"));
	put(x, "run2/results.csv",
	    HEADER ROW("ecmp", 1, "12") ROW("ecmp", 2, "1x2"));
	assert_int_equal(load(x), -EINVAL);
	assert_true(strstr(x->err, "/run2/results.csv:3: seconds `1x2': not a "
				   "number"));
	write_runs(x);
	put(x, "run1/model.csv", "sched,flow,time\necmp,one,8\n");
	assert_int_equal(load(x), -EINVAL);
	assert_true(strstr(x->err, "/run1/model.csv:2: flow `one': not a "
				   "number"));
	write_runs(x);
	put(x, "meta", "topo=fattree:4\nlink=ten\n");
	assert_int_equal(load(x), -EINVAL);
	assert_true(strstr(x->err, "/meta:2: link `ten': not a number"));
	put(x, "meta", "topo=fattree:4\nlink 10\n");
	assert_int_equal(load(x), -EINVAL);
	assert_true(strstr(x->err, "/meta:2: no `='"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_cells, exp_fix_setup,
						exp_fix_teardown),
		cmocka_unit_test_setup_teardown(test_across_runs, exp_fix_setup,
						exp_fix_teardown),
		cmocka_unit_test_setup_teardown(test_gains, exp_fix_setup,
						exp_fix_teardown),
		cmocka_unit_test(test_model_verdict),
		cmocka_unit_test_setup_teardown(test_text, exp_fix_setup,
						exp_fix_teardown),
		cmocka_unit_test_setup_teardown(test_json, exp_fix_setup,
						exp_fix_teardown),
		cmocka_unit_test_setup_teardown(test_one_run, exp_fix_setup,
						exp_fix_teardown),
		cmocka_unit_test_setup_teardown(test_refused, exp_fix_setup,
						exp_fix_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
