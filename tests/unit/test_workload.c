// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Workloads: the tables' means, sizes drawn as the tables say, arrivals
 * at the load asked for, refusals, and the seed.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rng.h"
#include "traffic.h"
#include "workload.h"
#include "unit.h"

static struct dard_topo *t;
static struct dard_plan *p;

static int setup(void **state)
{
	(void)state;
	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &t, &p);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dard_plan_free(p);
	dard_topo_free(t);
	return 0;
}

/*
 * The means the ns-2 studies set for these tables: web search 1711250
 * bytes, data mining 5116.6 packets of 1460 bytes. Printed, for the
 * record of what the load's arithmetic divides by.
 */
static void test_means(void **state)
{
	double ws = dard_workload_mean(DARD_WORKLOAD_WEBSEARCH);
	double dm = dard_workload_mean(DARD_WORKLOAD_DATAMINING);

	(void)state;
	printf("websearch mean %.0f bytes, datamining mean %.0f bytes\n", ws,
	       dm);
	assert_true(fabs(ws - 1711250) < 1e-6);
	assert_true(fabs(dm - 5116.6 * 1460) < 1e-3);
	assert_int_equal(dard_workload_mean(DARD_WORKLOAD_NONE), 0);
	assert_true(dard_workload_min(DARD_WORKLOAD_WEBSEARCH) == 1);
	assert_true(dard_workload_max(DARD_WORKLOAD_WEBSEARCH) == 30e6);
	assert_true(dard_workload_min(DARD_WORKLOAD_DATAMINING) == 1460);
	assert_true(dard_workload_max(DARD_WORKLOAD_DATAMINING) ==
		    666667.0 * 1460);
}

/* The inverse CDF at its points, between them, and at a step. */
static void test_inverse(void **state)
{
	(void)state;
	assert_int_equal(dard_workload_size(DARD_WORKLOAD_WEBSEARCH, 0), 1);
	assert_int_equal(dard_workload_size(DARD_WORKLOAD_WEBSEARCH, 0.15),
			 10000);
	assert_int_equal(dard_workload_size(DARD_WORKLOAD_WEBSEARCH, 0.175),
			 15000);
	assert_int_equal(dard_workload_size(DARD_WORKLOAD_WEBSEARCH, 1),
			 30000000);
	/* Half of data mining's flows are one packet. */
	assert_int_equal(dard_workload_size(DARD_WORKLOAD_DATAMINING, 0), 1460);
	assert_int_equal(dard_workload_size(DARD_WORKLOAD_DATAMINING, 0.5),
			 1460);
	assert_int_equal(dard_workload_size(DARD_WORKLOAD_DATAMINING, 0.55),
			 2190);
	assert_int_equal(dard_workload_size(DARD_WORKLOAD_DATAMINING, 0.99),
			 66667ULL * 1460);
	assert_int_equal(dard_workload_parse("websearch"),
			 DARD_WORKLOAD_WEBSEARCH);
	assert_int_equal(dard_workload_parse("datamining"),
			 DARD_WORKLOAD_DATAMINING);
	assert_int_equal(dard_workload_parse("none"), -1);
	assert_int_equal(dard_workload_parse("hadoop"), -1);
}

/*
 * A million draws with a fixed seed: every size in the table's range,
 * and their mean within five standard errors of the table's (and 3%).
 */
static void sample_mean(int w)
{
	const unsigned n = 1000000;
	double mean = dard_workload_mean(w), sum = 0, sq = 0, x, m, se;
	uint64_t s = 42;
	unsigned i;

	for (i = 0; i < n; i++) {
		x = dard_workload_size(w, dard_splitmix_unit(&s));
		assert_true(x >= dard_workload_min(w));
		assert_true(x <= dard_workload_max(w));
		sum += x;
		sq += x * x;
	}
	m = sum / n;
	se = sqrt((sq / n - m * m) / n);
	printf("%s: sample mean %.0f, table %.0f, standard error %.0f\n",
	       dard_workload_name(w), m, mean, se);
	assert_true(fabs(m - mean) < 5 * se);
	assert_true(fabs(m - mean) < 0.03 * mean);
}

static void test_sample_mean(void **state)
{
	(void)state;
	sample_mean(DARD_WORKLOAD_WEBSEARCH);
	sample_mean(DARD_WORKLOAD_DATAMINING);
}

static long gen(int w, double load, double duration, uint64_t seed,
		struct dard_tflow **f)
{
	struct dard_traffic_opts o;
	char err[DARD_ERR_MAX];
	long n;

	dard_traffic_opts_init(&o);
	o.pattern = DARD_PATTERN_RANDOM;
	o.rate = 0;
	o.bytes = 0;
	o.workload = w;
	o.load = load;
	o.duration = duration;
	o.seed = seed;
	n = dard_traffic_gen(t, &o, f, err);
	if (n < 0)
		fail_msg("%s", err);
	return n;
}

/*
 * 16 hosts on 1 Gbit/s links at load 0.5 for 20 s: each starts 0.5 Gbit/s
 * over the mean size flows a second. The count is Poisson: within four
 * of its standard deviations.
 */
static void arrivals(int w, double load)
{
	double duration = 20, want, bytes = 0;
	struct dard_tflow *f;
	long n, k;

	want = t->nhosts * load * 1e9 / (8 * dard_workload_mean(w)) * duration;
	n = gen(w, load, duration, 7, &f);
	printf("%s at load %g: %ld flows, %.0f expected\n",
	       dard_workload_name(w), load, n, want);
	assert_true(fabs(n - want) < 4 * sqrt(want));
	for (k = 0; k < n; k++) {
		assert_true(f[k].src != f[k].dst);
		assert_true(f[k].start >= 0 && f[k].start < duration);
		assert_true(f[k].bytes >= dard_workload_min(w));
		assert_true(f[k].bytes <= dard_workload_max(w));
		assert_true(k == 0 || f[k - 1].start <= f[k].start);
		bytes += f[k].bytes;
	}
	free(f);
	/* The bytes offered are near the load too, if less tightly. */
	printf("  offered %.3g of the host links\n",
	       bytes * 8 / (t->nhosts * 1e9 * duration));
}

static void test_arrivals(void **state)
{
	(void)state;
	arrivals(DARD_WORKLOAD_WEBSEARCH, 0.5);
	arrivals(DARD_WORKLOAD_WEBSEARCH, 0.8);
	arrivals(DARD_WORKLOAD_DATAMINING, 0.3);
}

/* One seed, one traffic; another seed, another. */
static void test_seed(void **state)
{
	struct dard_tflow *a, *b, *c;
	long na, nb, nc;

	(void)state;
	na = gen(DARD_WORKLOAD_WEBSEARCH, 0.5, 2, 3, &a);
	nb = gen(DARD_WORKLOAD_WEBSEARCH, 0.5, 2, 3, &b);
	nc = gen(DARD_WORKLOAD_WEBSEARCH, 0.5, 2, 4, &c);
	assert_int_equal(na, nb);
	assert_memory_equal(a, b, na * sizeof(*a));
	assert_true(na != nc || memcmp(a, c, na * sizeof(*a)));
	free(a);
	free(b);
	free(c);
}

static void refused(double load, double rate, uint64_t bytes, int w,
		    const char *why)
{
	struct dard_traffic_opts o;
	struct dard_tflow *f = NULL;
	char err[DARD_ERR_MAX];

	dard_traffic_opts_init(&o);
	o.workload = w;
	o.load = load;
	o.rate = rate;
	o.bytes = bytes;
	assert_int_equal(dard_traffic_gen(t, &o, &f, err), -EINVAL);
	if (!strstr(err, why))
		fail_msg("`%s' does not say `%s'", err, why);
	assert_null(f);
}

static void test_refused(void **state)
{
	(void)state;
	refused(0, 0, 0, DARD_WORKLOAD_WEBSEARCH, "load 0");
	refused(1.5, 0, 0, DARD_WORKLOAD_WEBSEARCH, "load 1.5");
	refused(-0.1, 0, 0, DARD_WORKLOAD_DATAMINING, "up to 1");
	refused(NAN, 0, 0, DARD_WORKLOAD_DATAMINING, "up to 1");
	refused(0.5, 0, 1000, DARD_WORKLOAD_WEBSEARCH, "not with a rate");
	refused(0.5, 1, 0, DARD_WORKLOAD_WEBSEARCH, "not with a rate");
	refused(0.5, 0, 0, __DARD_WORKLOAD_MAX, "unknown workload");
}

/*
 * Buckets by decimal size, nearest-rank 99th percentiles, unfinished
 * flows left out: 200 small flows 1..200 (p99 198), one medium, none
 * large.
 */
static void test_slowdown_stats(void **state)
{
	struct dard_slowdown out[DARD_NBUCKETS];
	double slow[203];
	uint64_t bytes[203];
	unsigned i;

	(void)state;
	assert_int_equal(dard_size_bucket(99999), DARD_BUCKET_SMALL);
	assert_int_equal(dard_size_bucket(100000), DARD_BUCKET_MEDIUM);
	assert_int_equal(dard_size_bucket(9999999), DARD_BUCKET_MEDIUM);
	assert_int_equal(dard_size_bucket(10000000), DARD_BUCKET_LARGE);
	for (i = 0; i < 200; i++) {
		/* Backwards: the stats sort. */
		slow[i] = 200 - i;
		bytes[i] = 1000 + i;
	}
	slow[200] = 7;
	bytes[200] = 5000000;
	slow[201] = -1; /* never finished */
	bytes[201] = 50;
	slow[202] = -1;
	bytes[202] = 20000000;
	assert_int_equal(dard_slowdown_stats(slow, bytes, 203, out), 0);
	assert_int_equal(out[DARD_BUCKET_SMALL].n, 200);
	assert_true(out[DARD_BUCKET_SMALL].mean == 100.5);
	assert_true(out[DARD_BUCKET_SMALL].p99 == 198);
	assert_int_equal(out[DARD_BUCKET_MEDIUM].n, 1);
	assert_true(out[DARD_BUCKET_MEDIUM].mean == 7);
	assert_true(out[DARD_BUCKET_MEDIUM].p99 == 7);
	assert_int_equal(out[DARD_BUCKET_LARGE].n, 0);
	assert_true(out[DARD_BUCKET_LARGE].mean == 0);
	assert_int_equal(dard_slowdown_stats(NULL, NULL, 0, out), 0);
	assert_int_equal(out[DARD_BUCKET_SMALL].n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_means),
		cmocka_unit_test(test_inverse),
		cmocka_unit_test(test_sample_mean),
		cmocka_unit_test(test_arrivals),
		cmocka_unit_test(test_seed),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_slowdown_stats),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
