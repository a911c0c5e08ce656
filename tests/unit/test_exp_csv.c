// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-exp's readers of the experiment directory's files: CSV with a
 * header (columns found by name, in any order, others left out) or
 * without, key=value lines and the testbed's nodes file; every refusal
 * with the file, the line and why.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "csv.h"

static const char *const ab[] = {"a", "b"};

static int rd(struct exp_csv *c, const char *text, unsigned ncols, int header,
	      char *err)
{
	return exp_csv_read(c, "f.csv", text, strlen(text), ab, ncols, header,
			    err);
}

static void test_header(void **state)
{
	char err[EXP_ERR_MAX] = "";
	struct exp_csv c;
	unsigned u;
	double v;

	(void)state;
	/* Found by name; blank lines skipped, lines counted. */
	assert_int_equal(rd(&c, "b,x,a\n2,junk,1\n\n4,,3.5", 2, 1, err), 0);
	assert_int_equal(c.nrows, 2);
	assert_string_equal(exp_csv_str(&c, 0, 0), "1");
	assert_string_equal(exp_csv_str(&c, 0, 1), "2");
	assert_int_equal(c.line[1], 4);
	assert_int_equal(exp_csv_num(&c, 1, 0, 0, 10, 0, &v, err), 0);
	assert_true(v == 3.5);
	assert_int_equal(exp_csv_uint(&c, 1, 1, 100, &u, err), 0);
	assert_int_equal(u, 4);
	assert_int_equal(exp_csv_uint(&c, 1, 0, 100, &u, err), -EINVAL);
	assert_string_equal(err, "f.csv:4: a `3.5': not a number");
	assert_int_equal(exp_csv_num(&c, 0, 1, 0, 1, 0, &v, err), -EINVAL);
	assert_string_equal(err, "f.csv:2: b `2': out of range");
	exp_csv_free(&c);
	/* An empty field: NAN when it may be, else refused. */
	assert_int_equal(rd(&c, "a,b\n,1\n", 2, 1, err), 0);
	assert_int_equal(exp_csv_num(&c, 0, 0, 0, 1, 1, &v, err), 0);
	assert_true(isnan(v));
	assert_int_equal(exp_csv_num(&c, 0, 0, 0, 1, 0, &v, err), -EINVAL);
	assert_string_equal(err, "f.csv:2: no a");
	assert_int_equal(exp_csv_uint(&c, 0, 0, 1, &u, err), -EINVAL);
	assert_string_equal(err, "f.csv:2: a `': empty");
	exp_csv_free(&c);
}

static void test_refusals(void **state)
{
	char err[EXP_ERR_MAX] = "";
	struct exp_csv c;

	(void)state;
	assert_int_equal(rd(&c, "a,b\n1,2\n1\n", 2, 1, err), -EINVAL);
	assert_string_equal(err, "f.csv:3: 1 fields, expected 2");
	assert_null(c.text);
	assert_int_equal(rd(&c, "a,b\n1,2,3\n", 2, 1, err), -EINVAL);
	assert_string_equal(err, "f.csv:2: 3 fields, expected 2");
	assert_int_equal(rd(&c, "a\n1\n", 2, 1, err), -EINVAL);
	assert_string_equal(err, "f.csv:1: no column `b' in the header");
	assert_int_equal(rd(&c, "\n\n", 2, 1, err), -EINVAL);
	assert_string_equal(err, "f.csv: no header line");
	assert_int_equal(
		exp_csv_read(&c, "f.csv", "a,b\n1,\0\n", 7, ab, 2, 1, err),
		-EINVAL);
	assert_string_equal(err, "f.csv:2: a NUL byte");
	/* Without a header: exactly the fields named. */
	assert_int_equal(rd(&c, "1,2\n3,4\n", 2, 0, err), 0);
	assert_int_equal(c.nrows, 2);
	assert_string_equal(exp_csv_str(&c, 1, 1), "4");
	exp_csv_free(&c);
	assert_int_equal(rd(&c, "1,2\n3\n", 2, 0, err), -EINVAL);
	assert_string_equal(err, "f.csv:2: 1 fields, expected 2");
	assert_int_equal(rd(&c, "", 2, 0, err), 0);
	assert_int_equal(c.nrows, 0);
	exp_csv_free(&c);
}

static void test_kv(void **state)
{
	char err[EXP_ERR_MAX] = "";
	struct exp_kv kv;
	unsigned line;

	(void)state;
#define KV(s) exp_kv_read(&kv, "meta", s, strlen(s), err)
	assert_int_equal(KV("a=1\n# note\n\nb=x=y\nc=\n"), 0);
	assert_int_equal(kv.n, 3);
	assert_string_equal(exp_kv_get(&kv, "a", NULL), "1");
	assert_string_equal(exp_kv_get(&kv, "b", &line), "x=y");
	assert_int_equal(line, 4);
	assert_string_equal(exp_kv_get(&kv, "c", NULL), "");
	assert_null(exp_kv_get(&kv, "d", NULL));
	exp_kv_free(&kv);
	assert_int_equal(KV("a=1\n=2\n"), -EINVAL);
	assert_string_equal(err, "meta:2: no key before `='");
	assert_int_equal(KV("a=1\nb\n"), -EINVAL);
	assert_string_equal(err, "meta:2: no `=' (KEY=VALUE lines)");
	assert_int_equal(KV("a=1\nb=2\na=3\n"), -EINVAL);
	assert_string_equal(err, "meta:3: `a' again (line 1 has it)");
#undef KV
}

static void test_nodes(void **state)
{
	char err[EXP_ERR_MAX] = "", name[64];
	struct exp_node *n;
	long k;

	(void)state;
#define NODES(s) exp_nodes_read("nodes", s, strlen(s), &n, err)
	k = NODES("e1_1 host t-e1_1\n\ntor1_1\tswitch t-tor1_1\n");
	assert_int_equal(k, 2);
	assert_string_equal(n[1].name, "tor1_1");
	assert_string_equal(n[1].ns, "t-tor1_1");
	free(n);
	assert_int_equal(NODES("e1_1 host\n"), -EINVAL);
	assert_string_equal(err, "nodes:1: expected NODE KIND NAMESPACE");
	assert_int_equal(NODES("a host b\ne1_1 host t-e1_1 more\n"), -EINVAL);
	assert_string_equal(err, "nodes:2: expected NODE KIND NAMESPACE");
	assert_int_equal(NODES("e1_1 host ../x\n"), -EINVAL);
	assert_string_equal(err, "nodes:1: `../x' is no namespace name");
	assert_int_equal(NODES("e1_1 host ..\n"), -EINVAL);
	assert_int_equal(NODES("\n"), -EINVAL);
	assert_string_equal(err, "nodes: no nodes");
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	assert_int_equal(exp_nodes_read("nodes", name, strlen(name), &n, err),
			 -EINVAL);
#undef NODES
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_kv),
		cmocka_unit_test(test_nodes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
