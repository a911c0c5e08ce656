// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-exp report's fidelity verdicts on one run of fattree:4 at 10
 * Mbit/s written here: ecmp's files are clean (a full link's drops, a
 * counter gone back, a sample outside the run are no reason) and it is
 * faithful; dard's trigger every reason: a saturated CPU, a link over
 * its rate, drops on a link not full, a flow alone on its path under
 * its links' goodput (a flow beside another is not judged).
 * The calibration, faithful and not; the shares' rules on their own
 * (the first and a last partial interval, a flow not running through a
 * second); paths that do not decode.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "exp_fix.h"
#include "report.h"
#include "fairshare.h"
#include "unit.h"

#define PATH1 "tor1_1 aggr1_1 core1 aggr3_1 tor3_1"
/* e1_2 -> e3_2 by no link of PATH1's: each flow alone on its path. */
#define PATH2 "tor1_1 aggr1_2 core3 aggr3_2 tor3_1"

static void write_meta(struct exp_fix *x)
{
	put(x, "meta",
	    "topo=fattree:4\nlink=10\ngoodput=1\nruns=1\nseeds=7\n"
	    "schedulers=ecmp,dard\nloadavg=0.2\n");
	put(x, "run1/results.csv",
	    "pattern,rate,scheduler,id,src,dst,start,seconds,bytes,moves,path\n"
	    "stride,0.1,ecmp,1,e1_1,e3_1,0,10,1,0," PATH1 "\n"
	    "stride,0.1,ecmp,2,e1_2,e3_2,0,10,1,0," PATH2 "\n"
	    "stride,0.1,dard,1,e1_1,e3_1,0,10,1,0," PATH1 "\n"
	    "stride,0.1,dard,2,e1_2,e3_2,0,10,1,0," PATH2 "\n");
}

/* Ten one-second iperf3 intervals at mbps. */
static void put_report(struct exp_fix *x, const char *sched, unsigned id,
		       double mbps)
{
	char rel[64], body[2048];
	size_t len = 0;
	unsigned i;

	snprintf(rel, sizeof(rel), "run1/%s/json/%u.json", sched, id);
	len += snprintf(body, sizeof(body), "{\"start\": {}, \"intervals\": [");
	for (i = 0; i < 10; i++)
		len += snprintf(body + len, sizeof(body) - len,
				"%s{\"streams\": [], \"sum\": {\"start\": %u, "
				"\"end\": %u.0, \"bytes\": %.0f, "
				"\"bits_per_second\": %.1f}}",
				i ? ", " : "", i, i + 1, mbps * 1e6 / 8,
				mbps * 1e6);
	snprintf(body + len, sizeof(body) - len, "], \"end\": {}}\n");
	put(x, rel, "%s", body);
}

/*
 * One scheduler's run from t0 = 1000.25: flow 1 on PATH1, flow 2 on
 * PATH2 for 10 s, each alone on its path (a share of 10 Mbit/s), flow
 * 1 at 9 Mbit/s, flow 2 at f2; ten CPU samples in
 * the run, busy of them at an idle share of 0.05; one link over its
 * rate (over: 12 Mbit/s in one interval) and drops on a link at 4
 * Mbit/s (drops of them); the drops of full links, or beside a full
 * interval, are not counted.
 */
static void put_sched(struct exp_fix *x, const char *s, double f2,
		      unsigned busy, int over, unsigned drops)
{
	char rel[64], cpu[1024], links[8192];
	size_t c = 0, l = 0;
	unsigned i;

	snprintf(rel, sizeof(rel), "run1/%s/t0", s);
	put(x, rel, "1000.25\n");
	snprintf(rel, sizeof(rel), "run1/%s/times", s);
	put(x, rel, "1,0.000,10.000\n2,0.000,10.000\n");
	snprintf(rel, sizeof(rel), "run1/%s/paths.log", s);
	put(x, rel,
	    "0.5,1,0," PATH1 "\n0.5,2,0," PATH2 "\n10.0,1,0," PATH1
	    "\n10.0,2,0," PATH2 "\n");
	put_report(x, s, 1, 9);
	put_report(x, s, 2, f2);
	c += snprintf(cpu, sizeof(cpu), "t,idle\n");
	for (i = 1; i <= 10; i++)
		c += snprintf(cpu + c, sizeof(cpu) - c, "%.2f,%.2f\n",
			      1000.25 + i, i <= busy ? 0.05 : 0.5);
	/* Long after the run: not judged. */
	snprintf(cpu + c, sizeof(cpu) - c, "1030,0\n");
	snprintf(rel, sizeof(rel), "run1/%s/cpu.csv", s);
	put(x, rel, "%s", cpu);
	l += snprintf(links, sizeof(links),
		      "t,node,dev,tx_bytes,tx_packets,drops,backlog\n");
	for (i = 0; i <= 10; i++) {
		double t = 1000.25 + i;
		/* 8 Mbit/s, and 12 in the interval ending at i = 5. */
		double tor = 1e6 * i + (over && i >= 5 ? 0.5e6 : 0);

		l += snprintf(links + l, sizeof(links) - l,
			      "%.2f,tor1_1,p3,%.0f,%u,0,0\n"
			      "%.2f,aggr1_1,p3,%.0f,%u,%u,1500\n"
			      /* Full: its drops are the model's too. */
			      "%.2f,tor3_1,p1,%.0f,%u,%u,0\n"
			      /* Made anew at i = 6: its counters go back. */
			      "%.2f,tor3_1,p2,%.0f,%u,0,0\n"
			      /* Full, then at 5 Mbit/s from i = 4 with drops
			       * next to the full interval: a flow's end. */
			      "%.2f,tor3_1,p3,%.0f,%u,%u,0\n",
			      t, tor, i, t, 0.5e6 * i, i, i >= 7 ? drops : 0, t,
			      1.125e6 * i, i, i >= 3 ? 100 : 0, t,
			      i < 6 ? 1e5 * i : 1e5 * (i - 6), i, t,
			      i <= 4 ? 1.25e6 * i : 5e6 + 0.625e6 * (i - 4), i,
			      i >= 5 ? 7 : 0);
	}
	snprintf(rel, sizeof(rel), "run1/%s/links.csv", s);
	put(x, rel, "%s", links);
}

static void put_calib(struct exp_fix *x, double slow)
{
	put(x, "calibration/flows.csv",
	    "id,src,dst,path,seconds,bytes,mbps\n"
	    "1,e1_1,e3_1," PATH1 ",9.0,11000000,9.8\n"
	    "2,e1_2,e3_2,tor1_1 aggr1_2 core3 aggr3_2 tor3_1,9.5,11000000,"
	    "%.1f\n",
	    slow);
	put(x, "calibration/t0", "2000\n");
	put(x, "calibration/cpu.csv", "t,idle\n2001,0.7\n2002,0.8\n");
	put(x, "calibration/links.csv",
	    "t,node,dev,tx_bytes,tx_packets,drops,backlog\n"
	    "2000,tor1_1,p3,0,0,0,0\n2005,tor1_1,p3,5000000,10,0,0\n");
}

static void test_clean(void **state)
{
	struct exp_fix *x = *state;
	const struct exp_cell *c;

	write_meta(x);
	put_sched(x, "ecmp", 9, 1, 0, 0);
	put_calib(x, 9.5);
	load_ok(x);
	c = &x->e.run[0].cell[sched_of(x, "ecmp")];
	if (exp_faith(&c->v) != EXP_FAITHFUL)
		fail_msg("ecmp: %u reasons, the first: %s", c->v.nreasons,
			 c->v.nreasons ? c->v.reason[0].text : "");
	assert_int_equal(c->v.judged, 3);
	assert_int_equal(c->v.nskips, 0);
	/* Ten samples in the run, one under 0.10: 10% is not more. */
	assert_int_equal(c->idle_n, 10);
	near(c->idle, 0.455, 1e-12);
	near(c->cpu_busy, 0.1, 1e-12);
	/* Seconds 1 to 9 of both flows (the first interval is not). */
	assert_int_equal(c->judged_fs, 18);
	near(c->below, 0, 0);
	assert_int_equal(exp_faith(&x->e.calib.v), EXP_FAITHFUL);
	assert_int_equal(x->e.calib.flows, 2);
	near(x->e.calib.want, 9, 1e-12);
	assert_int_equal(x->e.calib.idle_n, 2);
	near(x->e.calib.idle, 0.75, 1e-12);
}

static void test_reasons(void **state)
{
	struct exp_fix *x = *state;
	const struct exp_cell *c;

	write_meta(x);
	put_sched(x, "ecmp", 9, 0, 0, 0);
	put_sched(x, "dard", 3, 3, 1, 5);
	load_ok(x);
	c = &x->e.run[0].cell[sched_of(x, "dard")];
	assert_int_equal(exp_faith(&c->v), EXP_UNFAITHFUL);
	assert_int_equal(c->v.nreasons, 4);
	assert_true(has_reason(&c->v, "cpu",
			       "cpu: 30.0% of 10 samples had an idle share "
			       "under 0.10"));
	near(c->cpu_busy, 0.3, 1e-12);
	/* 1.5 MB in a second: 12 Mbit/s, over 10.5 and the 0.64 burst. */
	assert_true(has_reason(&c->v, "shaping",
			       "shaping: tor1_1:p3 carried 12.00 Mbit/s, above "
			       "1.05 x 10 Mbit/s (1 intervals on 1 links)"));
	assert_true(
		has_reason(&c->v, "shaping",
			   "shaping: aggr1_1:p3 dropped 5 packets in "
			   "intervals under 0.8 x 10 Mbit/s (5 on 1 links)"));
	/* Flow 2 at 3 of its 10: every one of its seconds judged. */
	assert_int_equal(c->judged_fs, 18);
	near(c->below, 0.5, 1e-12);
	assert_true(has_reason(&c->v, "share",
			       "flows below their share: 50.0% of 18 "
			       "flow-seconds alone on their paths under 0.8 x "
			       "the links' goodput (more than 10%); worst: 2 "
			       "(" PATH2 ") 0.30, 1 (" PATH1 ") 0.90"));
	/* ecmp beside it is faithful still. */
	c = &x->e.run[0].cell[sched_of(x, "ecmp")];
	assert_int_equal(exp_faith(&c->v), EXP_FAITHFUL);
}

/* What is not there leaves its check not judged, saying why. */
static void test_missing(void **state)
{
	struct exp_fix *x = *state;
	const struct exp_cell *c;
	char rel[128];

	write_meta(x);
	put_sched(x, "ecmp", 5, 0, 0, 0);
	snprintf(rel, sizeof(rel), "%s/run1/ecmp/links.csv", x->dir);
	remove(rel);
	snprintf(rel, sizeof(rel), "%s/run1/ecmp/paths.log", x->dir);
	remove(rel);
	load_ok(x);
	c = &x->e.run[0].cell[sched_of(x, "ecmp")];
	assert_int_equal(exp_faith(&c->v), EXP_FAITHFUL);
	assert_int_equal(c->v.judged, 1);
	assert_true(has_skip(&c->v, "shaping", "no links.csv"));
	assert_true(has_skip(&c->v, "share", "no paths.log"));
	/* dard has no directory at all. */
	c = &x->e.run[0].cell[sched_of(x, "dard")];
	assert_int_equal(exp_faith(&c->v), EXP_NOT_JUDGED);
	assert_true(has_skip(&c->v, "cpu", "no t0"));
	assert_true(has_skip(&c->v, "share", "no times"));
}

static void test_calibration(void **state)
{
	struct exp_fix *x = *state;
	const struct exp_calib *cal;
	char *t = NULL;
	size_t len;
	FILE *f;

	write_meta(x);
	put_calib(x, 8);
	load_ok(x);
	cal = &x->e.calib;
	assert_int_equal(exp_faith(&cal->v), EXP_UNFAITHFUL);
	assert_int_equal(cal->below, 1);
	assert_int_equal(cal->slowest, 2);
	assert_true(has_reason(&cal->v, "calibration",
			       "calibration: 1 of 2 flows under 0.9 x 10 x 1 = "
			       "9.00 Mbit/s; the slowest, 2 (e1_2 -> e3_2), at "
			       "8.00 Mbit/s"));
	/* The report says so first. */
	f = open_memstream(&t, &len);
	exp_print(&x->e, f);
	fclose(f);
	if (strncmp(t,
		    "warning: the calibration is not faithful: "
		    "calibration: 1 of 2 flows",
		    67))
		fail_msg("the report begins: %.200s", t);
	free(t);
}

/* Bad sample files are refused with FILE:LINE. */
static void test_bad_samples(void **state)
{
	struct exp_fix *x = *state;

	write_meta(x);
	put_sched(x, "ecmp", 5, 0, 0, 0);
	put(x, "run1/ecmp/cpu.csv", "t,idle\n1001,0.5\n1002,1.5\n");
	assert_int_equal(load(x), -EINVAL);
	assert_true(strstr(x->err, "/run1/ecmp/cpu.csv:3: idle `1.5': out of "
				   "range"));
	put_sched(x, "ecmp", 5, 0, 0, 0);
	put(x, "run1/ecmp/times", "1,0.000\n");
	assert_int_equal(load(x), -EINVAL);
	assert_true(strstr(x->err, "/run1/ecmp/times:1: 2 fields, expected 3"));
	put_sched(x, "ecmp", 5, 0, 0, 0);
	put(x, "run1/ecmp/paths.log", "0.5,1,0,tor1_1 core1\n");
	assert_int_equal(load(x), -EINVAL);
	assert_true(strstr(x->err, "/run1/ecmp/paths.log:1: path `tor1_1 "
				   "core1': no link from tor1_1 to core1"));
	put_sched(x, "ecmp", 5, 0, 0, 0);
	put(x, "run1/ecmp/json/2.json", "{\"intervals\": [\n{\"sum\": 3");
	assert_int_equal(load(x), -EINVAL);
	assert_true(strstr(x->err, "/run1/ecmp/json/2.json:2: not JSON"));
	put_sched(x, "ecmp", 5, 0, 0, 0);
	put(x, "run1/ecmp/t0", "soon\n");
	assert_int_equal(load(x), -EINVAL);
	assert_true(strstr(x->err, "/run1/ecmp/t0:1: t0 `soon': not a number"));
	/* A host the topology has not, named in the run's results.csv. */
	put_sched(x, "ecmp", 5, 0, 0, 0);
	put(x, "run1/results.csv",
	    "pattern,rate,scheduler,id,src,dst,start,seconds,bytes,moves,path\n"
	    "stride,0.1,ecmp,1,e9_9,e3_1,0,10,1,0,\n");
	assert_int_equal(load(x), -EINVAL);
	assert_true(strstr(x->err, "/run1/results.csv:2: e9_9 or e3_1 is no "
				   "host of fattree:4"));
}

/* The shares' rules on one flow alone: 10 Mbit/s is its share. */
static void test_share_rules(void **state)
{
	struct dard_topo *t = unit_gen("fattree:4");
	char err[DARD_ERR_MAX];
	/* The first, two whole ones at 9.5 and a partial last one. */
	struct exp_iv iv[] = {{0, 1, 2}, {1, 2, 9.5}, {2, 3, 9.5}, {3, 3.5, 1}};
	struct exp_seen seen = {.t = 0.5, .path = PATH1};
	struct exp_sflow f[2] = {{.id = 4,
				  .begin = 0.2,
				  .end = 3.7,
				  .iv = iv,
				  .niv = 4,
				  .seen = &seen,
				  .nseen = 1}};
	struct exp_share sh;

	(void)state;
	assert_int_equal(exp_path_links(t, find(t, "e1_1"), find(t, "e3_1"),
					PATH1, seen.link, &seen.nlinks, err),
			 0);
	/* Host up, four switch links, host down. */
	assert_int_equal(seen.nlinks, 6);
	/*
	 * Second 0 is not run through (it began at 0.2); in 1 it is alone
	 * on its path, but was not the second before; in 2 it is judged, at
	 * 9.5 of its 10; 3 is not run through (it ended at 3.7).
	 */
	assert_int_equal(exp_judge_share(2 * t->nlinks, 10, f, 1, &sh), 0);
	assert_int_equal(sh.judged, 1);
	assert_int_equal(sh.below, 0);
	assert_int_equal(sh.nworst, 1);
	near(sh.worst[0].ratio, 0.95, 1e-12);
	/* At 7.5 of 10, alone: below. */
	iv[2].mbps = 7.5;
	assert_int_equal(exp_judge_share(2 * t->nlinks, 10, f, 1, &sh), 0);
	assert_int_equal(sh.judged, 1);
	assert_int_equal(sh.below, 1);
	/* Beside another flow on its path it is not judged, above or below
	 * its share: TCP's sharing is not the testbed's fault. */
	f[1] = f[0];
	f[1].id = 5;
	assert_int_equal(exp_judge_share(2 * t->nlinks, 10, f, 2, &sh), 0);
	assert_int_equal(sh.judged, 0);
	/* Nor beside one that lived only inside its judged interval (from
	 * 2.2 to 3.2): it runs through no whole second, but took a part. */
	f[1].begin = 3.0;
	f[1].end = 3.6;
	assert_int_equal(exp_judge_share(2 * t->nlinks, 10, f, 2, &sh), 0);
	assert_int_equal(sh.judged, 0);
	/* One that lived before that interval is no competitor in it. */
	f[1].begin = 1.05;
	f[1].end = 1.9;
	assert_int_equal(exp_judge_share(2 * t->nlinks, 10, f, 2, &sh), 0);
	assert_int_equal(sh.judged, 1);
	/* Seen only after the second's middle: its first sighting stands
	 * for before (no scheduler moves a flow that young). */
	seen.t = 2.6;
	assert_int_equal(exp_judge_share(2 * t->nlinks, 10, f, 1, &sh), 0);
	assert_int_equal(sh.judged, 1);
	assert_int_equal(exp_path_links(t, find(t, "e1_1"), find(t, "e3_1"),
					"tor1_1 nosuch", seen.link,
					&seen.nlinks, err),
			 -EINVAL);
	assert_string_equal(err, "no switch `nosuch' in fattree:4");
	assert_int_equal(exp_path_links(t, find(t, "e1_1"), find(t, "e3_1"),
					"tor1_1 aggr1_1", seen.link,
					&seen.nlinks, err),
			 -EINVAL);
	assert_string_equal(err, "no link from aggr1_1 to e3_1");
	dard_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_clean, exp_fix_setup,
						exp_fix_teardown),
		cmocka_unit_test_setup_teardown(test_reasons, exp_fix_setup,
						exp_fix_teardown),
		cmocka_unit_test_setup_teardown(test_missing, exp_fix_setup,
						exp_fix_teardown),
		cmocka_unit_test_setup_teardown(test_calibration, exp_fix_setup,
						exp_fix_teardown),
		cmocka_unit_test_setup_teardown(test_bad_samples, exp_fix_setup,
						exp_fix_teardown),
		cmocka_unit_test(test_share_rules),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
