// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The key file: its parser (every refusal with the file and line), and
 * on disk: modes and owners refused, gen, rotate and promote round trips.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sys/stat.h>

#include "err.h"
#include "key.h"
#include "keyfile.h"
#include "topo.h"

#define HEX0 "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
#define HEX1 "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"

static int parse(struct dard_keys *k, const char *text, char *err)
{
	err[0] = '\0';
	return dard_keys_parse(k, text, strlen(text), "f.key", err);
}

static void test_parse(void **state)
{
	struct dard_keys k;
	char err[DARD_ERR_MAX], out[512];
	size_t n;

	(void)state;
	assert_int_equal(
		parse(&k, "# c\n\n  2 " HEX0 "  \r\n4294967295\t" HEX1 "\n",
		      err),
		0);
	assert_int_equal(k.n, 2);
	assert_int_equal(k.key[0].id, 2);
	assert_int_equal(k.key[0].k[31], 0x1f);
	assert_int_equal(k.key[1].id, 4294967295U);
	assert_int_equal(k.key[1].k[0], 0xff);
	assert_ptr_equal(dard_keys_find(&k, 2), &k.key[0]);
	assert_null(dard_keys_find(&k, 3));
	/* Written and read back: the same keys. */
	n = dard_keys_format(&k, out, sizeof(out));
	assert_true(n > 0);
	{
		struct dard_keys back;

		assert_int_equal(dard_keys_parse(&back, out, n, "x", err), 0);
		assert_memory_equal(&back, &k, sizeof(k));
	}
	assert_int_equal(dard_keys_format(&k, out, 100), 0);
}

/*
 * Whether err holds 8 or more digits in a row of hex (either case): the
 * refusals below are of lines holding HEX0 or HEX1, and no message may
 * show any of it.
 */
static int quotes(const char *err, const char *hex)
{
	size_t i, n = strlen(hex);
	char w[9];

	for (i = 0; i + 8 <= n; i++) {
		memcpy(w, hex + i, 8);
		w[8] = '\0';
		if (strcasestr(err, w))
			return 1;
	}
	return 0;
}

static void test_parse_refused(void **state)
{
	static const char *const bad[][2] = {
		{"", "f.key: no key in the file"},
		{"# only\n", "f.key: no key in the file"},
		{"1\n", "f.key:1: one word, of 1 characters, is not `ID HEX'"},
		/* A bare key, as `key rotate' was given (issue 30). */
		{HEX0 "\n", "f.key:1: one word, of 64 characters, is not"},
		{"1:" HEX0, "f.key:1: one word, of 66 characters"},
		{"\n0 " HEX0, "f.key:2: the key id, of 1 characters, is out of "
			      "range: expected 1 to 4294967295"},
		{"x " HEX0, "f.key:1: the key id, of 1 characters, is not a "
			    "number"},
		{"4294967296 " HEX0,
		 "key id, of 10 characters, is out of range"},
		/* The columns swapped: the key where the id belongs. */
		{HEX1 " 1", "f.key:1: the key id, of 64 characters, is not a "
			    "number"},
		{"1 " HEX0 "00", "f.key:1: key 1 has 66 hex digits, want 64"},
		{"1 abc", "key 1 has 3 hex digits"},
		{"1 " HEX0 " x",
		 "f.key:1: a third word, of 1 characters, after "
		 "`ID HEX'"},
		/* Two keys on one line, the second the third word. */
		{"1 " HEX0 " " HEX1, "f.key:1: a third word, of 64 characters"},
		{"1 0g" HEX0, "has 66"},
		{"1 0g0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		 "f.key:1: key 1: `g' at digit 2 is not hex"},
		{"1 " HEX0 "\n1 " HEX1, "f.key:2: key id 1 appears twice"},
		{"1 " HEX0 "\n2 " HEX1 "\n3 " HEX0,
		 "f.key:3: more than 2 keys"},
		{"1 " HEX0 "\n" HEX1 "\n", "f.key:2: one word"},
	};
	struct dard_keys k, zero = {0};
	char err[DARD_ERR_MAX], line[400];
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(&k, bad[i][0], err), -EINVAL);
		if (quotes(err, HEX0) || quotes(err, HEX1))
			fail_msg("`%s': `%s' shows key digits", bad[i][0], err);
		if (!strstr(err, bad[i][1]))
			fail_msg("`%s': `%s' does not say `%s'", bad[i][0], err,
				 bad[i][1]);
		/* Nothing of a good first line is left after a bad second. */
		assert_memory_equal(&k, &zero, sizeof(k));
	}
	memset(line, 'a', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	assert_int_equal(parse(&k, line, err), -EINVAL);
	assert_non_null(strstr(err, "f.key:1: line longer than 255 bytes"));
	assert_int_equal(dard_keys_parse(&k, "1 \0", 3, "f.key", err), -EINVAL);
	assert_non_null(strstr(err, "NUL"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_refused),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_path),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
