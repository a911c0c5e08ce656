// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-sim's flow file (flowfile.h): a plan as `dardctl traffic gen
 * format csv' writes it comes back as the flows it was made of; columns
 * in any order, others ignored; flows sorted by start, each with its
 * number; and every refusal, with the line it names.
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

#include "flowfile.h"
#include "unit.h"

static struct dard_topo *t;

static int setup(void **state)
{
	(void)state;
	t = unit_gen("fattree:4");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	dard_topo_free(t);
	return 0;
}

/* The text's flows, which must parse: how many. */
static long parse(const char *text, struct dard_tflow **f, uint64_t **ids)
{
	char err[DARD_ERR_MAX] = "";
	unsigned line = 99;
	long n;

	n = dard_flows_parse(t, text, strlen(text), f, ids, &line, err);
	if (n < 0)
		fail_msg("line %u: %s", line, err);
	assert_int_equal(line, 0);
	return n;
}

/* A text appended to, as a file is written. */
struct text {
	char *s;
	size_t len;
};

static void put(struct text *x, const char *fmt, ...)
{
	va_list ap;
	char *line;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	assert_true(n >= 0);
	x->s = realloc(x->s, x->len + n + 1);
	assert_non_null(x->s);
	memcpy(x->s + x->len, line, n + 1);
	x->len += n;
	free(line);
}

/*
 * A plan of random traffic, in dardctl's CSV (microseconds) and in full
 * precision: the same flows, ids and order, the starts exact or within
 * half a microsecond.
 */
static void test_plan(void **state)
{
	struct dard_traffic_opts o;
	struct dard_tflow *g, *f;
	struct text us = {NULL, 0}, full = {NULL, 0};
	char err[DARD_ERR_MAX], a[16], b[16];
	uint64_t *ids;
	long n, i;

	(void)state;
	dard_traffic_opts_init(&o);
	o.pattern = DARD_PATTERN_RANDOM;
	o.rate = 0.5;
	o.duration = 20;
	o.bytes = 32 << 20;
	o.seed = 7;
	n = dard_traffic_gen(t, &o, &g, err);
	assert_true(n > 50);
	put(&us, "id,start,src,dst,src_id,dst_id,bytes\n");
	put(&full, "bytes,dst,start,src\n");
	for (i = 0; i < n; i++) {
		dard_addr_str(t->node[g[i].src].id, a);
		dard_addr_str(t->node[g[i].dst].id, b);
		put(&us, "%ld,%.6f,%s,%s,%s,%s,%llu\n", i, g[i].start,
		    t->node[g[i].src].name, t->node[g[i].dst].name, a, b,
		    (unsigned long long)g[i].bytes);
		put(&full, "%llu,%s,%.17g,%s\n", (unsigned long long)g[i].bytes,
		    t->node[g[i].dst].name, g[i].start, t->node[g[i].src].name);
	}
	assert_int_equal(parse(us.s, &f, &ids), n);
	for (i = 0; i < n; i++) {
		assert_int_equal(ids[i], i);
		assert_int_equal(f[i].src, g[i].src);
		assert_int_equal(f[i].dst, g[i].dst);
		assert_int_equal(f[i].bytes, g[i].bytes);
		assert_true(fabs(f[i].start - g[i].start) <= 5e-7);
	}
	free(f);
	free(ids);
	/* Without an id column, a flow's number is its row's. */
	assert_int_equal(parse(full.s, &f, &ids), n);
	assert_memory_equal(f, g, n * sizeof(*f));
	for (i = 0; i < n; i++)
		assert_int_equal(ids[i], i);
	free(f);
	free(ids);
	free(us.s);
	free(full.s);
	free(g);
}

/*
 * Blanks, CRLF, blank lines and other columns are no matter; flows out
 * of order are sorted by start, those starting together kept in the
 * file's order, each with its id.
 */
static void test_order(void **state)
{
	static const char text[] = "\r\n note , bytes,src ,dst, id ,start\r\n"
				   "a, 1000, e1_1, e2_1, 10, 2.5\r\n"
				   "\n"
				   "b,2000,e1_2,e2_2,11,0.5\n"
				   "  \t \n"
				   "c,3000,e2_1,e1_1,12,2.5\n"
				   "d,4000,e3_1,e4_1,13,1";
	static const struct {
		double start;
		uint64_t bytes, id;
	} want[] = {{0.5, 2000, 11},
		    {1, 4000, 13},
		    {2.5, 1000, 10},
		    {2.5, 3000, 12}};
	struct dard_tflow *f;
	uint64_t *ids;
	unsigned i;

	(void)state;
	assert_int_equal(parse(text, &f, &ids), 4);
	for (i = 0; i < 4; i++) {
		assert_true(f[i].start == want[i].start);
		assert_int_equal(f[i].bytes, want[i].bytes);
		assert_int_equal(ids[i], want[i].id);
	}
	assert_int_equal(f[0].src, find(t, "e1_2"));
	assert_int_equal(f[3].dst, find(t, "e1_1"));
	free(f);
	free(ids);
}

static const struct refusal {
	const char *text;
	unsigned line;
	const char *says;
} refusals[] = {
	{"", 1, "no header: an empty file"},
	{"\n \n\r\n", 1, "no header: an empty file"},
	{"start,src,dst,bytes\n\n", 1, "no flow after the header"},
	{"start,src,dst\n0,e1_1,e2_1\n", 1,
	 "no `bytes' column (a header names start, src, dst and bytes)"},
	{"\nid,Start,src,dst,bytes\n", 2, "no `start' column"},
	{"start,src,dst,bytes,src\n", 1, "a second `src' column"},
	{"start,src,dst,bytes\n0,e1_1,e2_1,1\n\n0,e1_1,e9_1,1\n", 4,
	 "`e9_1' is no host of fattree:4"},
	{"start,src,dst,bytes\n0,core1,e2_1,1\n", 2,
	 "`core1' is no host of fattree:4"},
	{"start,src,dst,bytes\n0,,e2_1,1\n", 2, "`' is no host"},
	{"start,src,dst,bytes\n0,e1_1,e1_1,1\n", 2, "e1_1 sends to itself"},
	{"start,src,dst,bytes\nx,e1_1,e2_1,1\n", 2,
	 "Invalid start `x': not a number, expected seconds from 0 to 10^9"},
	{"start,src,dst,bytes\n-1,e1_1,e2_1,1\n", 2,
	 "Invalid start `-1': out of range"},
	{"start,src,dst,bytes\nnan,e1_1,e2_1,1\n", 2, "Invalid start `nan'"},
	{"start,src,dst,bytes\n0,e1_1,e2_1,0\n", 2,
	 "Invalid bytes `0': out of range, expected a whole number from 1 to 10^15"},
	{"start,src,dst,bytes\n0,e1_1,e2_1,1.5\n", 2,
	 "Invalid bytes `1.5': not a number"},
	{"start,src,dst,bytes\n0,e1_1,e2_1,\n", 2, "Invalid bytes `'"},
	{"id,start,src,dst,bytes\n-3,0,e1_1,e2_1,1\n", 2, "Invalid id `-3'"},
	{"start,src,dst,bytes\n0,e1_1,e2_1\n", 2,
	 "3 fields where the header has 4"},
	{"start,src,dst,bytes\n0,e1_1,e2_1,1,\n", 2,
	 "5 fields where the header has 4"},
	{"start,src,dst,bytes\n0,e1_1,e2_1,1\n0,e1_1,\"e2_1\",1\n", 3,
	 "`\"e2_1\"' is no host"},
};

static void refused(const char *text, size_t len, unsigned want_line,
		    const char *says)
{
	struct dard_tflow *f = NULL;
	uint64_t *ids = NULL;
	char err[DARD_ERR_MAX] = "";
	unsigned line = 99;
	long n;

	n = dard_flows_parse(t, text, len, &f, &ids, &line, err);
	if (n >= 0 || line != want_line || !strstr(err, says))
		fail_msg("`%.60s': %ld, line %u: %s; expected line %u: %s",
			 text, n, line, err, want_line, says);
	assert_null(f);
	assert_null(ids);
}

static void test_refused(void **state)
{
	char *big = malloc(DARD_FLOWS_LINE_MAX + 64);
	static const char nul[] = "start,src,dst,bytes\n0,e1_1\0,e2_1,1\n";
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++)
		refused(refusals[i].text, strlen(refusals[i].text),
			refusals[i].line, refusals[i].says);
	refused(nul, sizeof(nul) - 1, 2, "a NUL byte");
	assert_non_null(big);
	strcpy(big, "start,src,dst,bytes\n0,e1_1,e2_1,");
	memset(big + strlen(big), '1', DARD_FLOWS_LINE_MAX);
	big[DARD_FLOWS_LINE_MAX + 40] = 0;
	refused(big, strlen(big), 2, "longer than 4096 bytes");
	/* The whole file: read no further than its size. */
	refused(big, (size_t)DARD_FLOWS_MAX + 1, 0, "larger than 64 MiB");
	free(big);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
