// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Out of memory is reported, never answered with a partial result: the
 * test is linked with --wrap=malloc,calloc,realloc (Makefile) so that the n-th
 * allocation of libdard fails, for every n until the call needs no more.
 * Each call must then either give the answer it gives with enough memory
 * or -ENOMEM (NULL) with "out of memory" in err.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "addr.h"
#include "config.h"
#include "flowfile.h"
#include "gen.h"
#include "path.h"
#include "route.h"
#include "topo.h"
#include "unit.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);

/* Allocations left before one fails; -1 (disarm()): none fails. */
static volatile long budget = -1;
/* Whether an allocation was refused since the last arm(). */
static volatile int refused;

static int take(void)
{
	if (budget < 0)
		return 1;
	if (budget-- > 0)
		return 1;
	refused = 1;
	return 0;
}

void *__wrap_malloc(size_t size)
{
	return take() ? __real_malloc(size) : NULL;
}

void *__wrap_calloc(size_t n, size_t size)
{
	return take() ? __real_calloc(n, size) : NULL;
}

void *__wrap_realloc(void *p, size_t size)
{
	return take() ? __real_realloc(p, size) : NULL;
}

static void arm(long n)
{
	budget = n;
	refused = 0;
}

static void disarm(void)
{
	budget = -1;
}

static void oom_reported(int ret, const char *err)
{
	assert_int_equal(ret, -ENOMEM);
	assert_non_null(strstr(err, "out of memory"));
}

/* One host of each ToR sends to the next ToR's: a permutation. */
static size_t demand(const struct dard_topo *t, struct dard_demand *d,
		     size_t max)
{
	size_t n = 0;
	uint32_t i;

	for (i = 0; i < t->nhosts && n < max; i += 2, n++) {
		d[n].src = t->hosts[i];
		d[n].dst = t->hosts[(i + 2) % t->nhosts];
	}
	return n;
}

static void test_node_load_and_bound(void **state)
{
	struct dard_topo *t = unit_gen("fattree:4");
	struct dard_demand d[16];
	char err[DARD_ERR_MAX];
	uint32_t want_nl, want_lb, v;
	size_t n = demand(t, d, 16);
	long k;
	int ret;

	(void)state;
	assert_int_equal(dard_route_node_load(t, d, n, &want_nl, err), 0);
	assert_int_equal(dard_route_lower_bound(t, d, n, &want_lb, err), 0);
	assert_int_equal(want_nl, 1);
	for (k = 0;; k++) {
		arm(k);
		v = 12345;
		ret = dard_route_node_load(t, d, n, &v, err);
		disarm();
		if (!refused) {
			assert_int_equal(ret, 0);
			assert_int_equal(v, want_nl);
			break;
		}
		oom_reported(ret, err);
		assert_int_equal(v, 12345);
	}
	assert_true(k > 0);
	for (k = 0;; k++) {
		arm(k);
		v = 12345;
		ret = dard_route_lower_bound(t, d, n, &v, err);
		disarm();
		if (!refused) {
			assert_int_equal(ret, 0);
			assert_int_equal(v, want_lb);
			break;
		}
		oom_reported(ret, err);
		assert_int_equal(v, 12345);
	}
	assert_true(k > 2);
	dard_topo_free(t);
}

/* SDN-adaptive never decides on a bound memory ran out computing. */
static void test_adaptive(void **state)
{
	struct dard_topo *t = unit_gen("fattree:4");
	struct dard_plan_opts o;
	struct dard_plan *p;
	struct dard_pathctx *pc;
	struct dard_demand d[16];
	struct dard_path out[16];
	char err[DARD_ERR_MAX];
	size_t n = demand(t, d, 16);
	long k;
	int ret;

	(void)state;
	dard_plan_opts_init(&o);
	p = dard_plan_new(t, &o, err);
	assert_non_null(p);
	pc = dard_pathctx_new(t, p);
	assert_non_null(pc);
	assert_int_equal(dard_route_adaptive(pc, t, d, n, out, err),
			 DARD_SDN_SINGLE);
	for (k = 0;; k++) {
		arm(k);
		ret = dard_route_adaptive(pc, t, d, n, out, err);
		disarm();
		if (!refused) {
			assert_int_equal(ret, DARD_SDN_SINGLE);
			break;
		}
		oom_reported(ret, err);
	}
	assert_true(k > 3);
	dard_pathctx_free(pc);
	dard_plan_free(p);
	dard_topo_free(t);
}

/* Building and addressing a tree: NULL and a message, never a crash. */
static void test_gen_and_plan(void **state)
{
	struct dard_plan_opts o;
	char err[DARD_ERR_MAX];
	struct dard_topo *t;
	struct dard_plan *p;
	long k;

	(void)state;
	dard_plan_opts_init(&o);
	for (k = 0;; k++) {
		err[0] = '\0';
		arm(k);
		t = dard_gen_spec("clos:4,4,2", 1000, err);
		disarm();
		if (!refused) {
			assert_non_null(t);
			break;
		}
		assert_null(t);
		assert_non_null(strstr(err, "out of memory"));
	}
	for (k = 0;; k++) {
		err[0] = '\0';
		arm(k);
		p = dard_plan_new(t, &o, err);
		disarm();
		if (!refused) {
			assert_non_null(p);
			break;
		}
		assert_null(p);
		assert_non_null(strstr(err, "out of memory"));
	}
	dard_plan_free(p);
	dard_topo_free(t);
}

/* The config parser: -ENOMEM and the message, whatever it was doing. */
static void test_config(void **state)
{
	static const char text[] = "levels core tor\n"
				   "switch c1 core\n"
				   "switch t1 tor\n"
				   "switch t2 tor\n"
				   "host h1\n"
				   "host h2\n"
				   "link c1:1 t1:1\n"
				   "link c1:2 t2:1\n"
				   "link t1:2 h1\n"
				   "link t2:2 h2\n";
	struct dard_config cfg;
	char err[DARD_ERR_MAX];
	unsigned line;
	long k;
	int ret;

	(void)state;
	for (k = 0;; k++) {
		memset(&cfg, 0, sizeof(cfg));
		arm(k);
		ret = dard_config_parse(&cfg, text, sizeof(text) - 1, NULL, 0,
					&line, err);
		disarm();
		if (!refused) {
			if (ret)
				fail_msg("line %u: %s", line, err);
			dard_config_free(&cfg);
			break;
		}
		oom_reported(ret, err);
		dard_config_free(&cfg);
	}
	assert_true(k > 3);
}

/*
 * dard-sim's flow file, grown and sorted: its flows, or -ENOMEM and the
 * message for the whole file, never a line's fault, nor half the flows.
 */
static void test_flows(void **state)
{
	struct dard_topo *t = unit_gen("fattree:4");
	struct dard_tflow *want, *f;
	uint64_t *wid, *ids;
	char err[DARD_ERR_MAX], *text = NULL;
	unsigned line;
	size_t len;
	FILE *m = open_memstream(&text, &len);
	long k, n, i;

	(void)state;
	assert_non_null(m);
	fprintf(m, "id,start,src,dst,bytes\n");
	/* Starts falling: more flows than the first room, out of order. */
	for (i = 0; i < 100; i++)
		fprintf(m, "%ld,%ld,%s,%s,1000\n", i, 100 - i,
			t->node[t->hosts[i % 16]].name,
			t->node[t->hosts[(i + 1) % 16]].name);
	assert_int_equal(fclose(m), 0);
	n = dard_flows_parse(t, text, len, &want, &wid, &line, err);
	assert_int_equal(n, 100);
	for (k = 0;; k++) {
		f = NULL;
		ids = NULL;
		arm(k);
		i = dard_flows_parse(t, text, len, &f, &ids, &line, err);
		disarm();
		if (!refused) {
			assert_int_equal(i, n);
			assert_memory_equal(f, want, n * sizeof(*f));
			assert_memory_equal(ids, wid, n * sizeof(*ids));
			free(f);
			free(ids);
			break;
		}
		oom_reported(i, err);
		assert_int_equal(line, 0);
		assert_null(f);
		assert_null(ids);
	}
	assert_true(k > 2);
	free(want);
	free(wid);
	free(text);
	dard_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_node_load_and_bound),
		cmocka_unit_test(test_adaptive),
		cmocka_unit_test(test_gen_and_plan),
		cmocka_unit_test(test_config),
		cmocka_unit_test(test_flows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
