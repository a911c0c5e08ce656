// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The key file: its parser (every refusal with the file and line), and
 * on disk: modes and owners refused, gen, rotate and promote round trips.
 */
#include <errno.h>
#include <inttypes.h>
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

/*
 * The keys a daemon holds (dard_keys_alloc) are on pages the kernel
 * leaves out of core dumps: /proc/self/smaps flags them `dd'.
 */
static int dontdump(const void *p)
{
	uintptr_t a = (uintptr_t)p, lo = 0, hi = 0;
	char l[512];
	int in = 0, dd = -1;
	FILE *f = fopen("/proc/self/smaps", "r");

	assert_non_null(f);
	while (fgets(l, sizeof(l), f)) {
		if (sscanf(l, "%" SCNxPTR "-%" SCNxPTR " ", &lo, &hi) == 2 &&
		    strchr(l, '-') < strchr(l, ' '))
			in = lo <= a && a < hi;
		else if (in && !strncmp(l, "VmFlags:", 8))
			dd = strstr(l, " dd") != NULL;
	}
	fclose(f);
	return dd;
}

static void test_alloc(void **state)
{
	struct dard_keys *k = dard_keys_alloc(), zero = {0};
	static struct dard_keys plain;

	(void)state;
	assert_non_null(k);
	assert_memory_equal(k, &zero, sizeof(*k));
	assert_int_equal(dontdump(k), 1);
	assert_int_equal(dontdump(&k->key[1].k[DARD_KEY_LEN - 1]), 1);
	/* The check can fail: a static is dumped. */
	assert_int_equal(dontdump(&plain), 0);
	dard_keys_free(k);
	dard_keys_free(NULL);
}

static void test_file(void **state)
{
	char dir[] = "/tmp/dard-key-XXXXXX", path[64], err[DARD_ERR_MAX + 64];
	struct dard_keys a, b;
	struct stat st;

	(void)state;
	assert_int_equal(dard_crypto_init(err), 0);
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/dard.key", dir);
	/* Missing. */
	assert_int_equal(dard_keys_load(&a, path, err), -ENOENT);
	assert_non_null(strstr(err, path));
	/* gen: mode 0600, one key; not twice without force. */
	a = (struct dard_keys){.n = 1};
	dard_key_new(&a.key[0]);
	assert_int_equal(a.key[0].id, 1);
	assert_int_equal(dard_keys_save(&a, path, 0, err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(dard_keys_save(&a, path, 0, err), -EEXIST);
	assert_non_null(strstr(err, "force"));
	assert_int_equal(dard_keys_load(&b, path, err), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	/* Promote: nothing to promote in one key; left as it was. */
	assert_int_equal(dard_keys_promote(&b), -EINVAL);
	assert_memory_equal(&a, &b, sizeof(a));
	/* Rotate: the signing key stays first, a fresh one goes second. */
	dard_keys_rotate(&b);
	assert_int_equal(b.n, 2);
	assert_memory_equal(&b.key[0], &a.key[0], sizeof(a.key[0]));
	assert_int_equal(b.key[1].id, 2);
	assert_memory_not_equal(b.key[1].k, a.key[0].k, DARD_KEY_LEN);
	assert_int_equal(dard_keys_save(&b, path, 1, err), 0);
	assert_int_equal(dard_keys_load(&a, path, err), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	/* Again: the second is replaced, not the first. */
	dard_keys_rotate(&b);
	assert_memory_equal(&b.key[0], &a.key[0], sizeof(a.key[0]));
	assert_int_equal(b.key[1].id, 3);
	assert_memory_not_equal(b.key[1].k, a.key[1].k, DARD_KEY_LEN);
	/* Promote: the two swap, the newer signs. */
	a = b;
	assert_int_equal(dard_keys_promote(&b), 0);
	assert_int_equal(b.n, 2);
	assert_memory_equal(&b.key[0], &a.key[1], sizeof(a.key[1]));
	assert_memory_equal(&b.key[1], &a.key[0], sizeof(a.key[0]));
	/* Not twice: the old key would sign again. */
	a = b;
	assert_int_equal(dard_keys_promote(&b), -EALREADY);
	assert_memory_equal(&a, &b, sizeof(a));
	/* And the next rotate keeps the promoted key first. */
	a = b;
	dard_keys_rotate(&b);
	assert_memory_equal(&b.key[0], &a.key[0], sizeof(a.key[0]));
	assert_int_equal(b.key[1].id, 4);
	/* Ids that came round to 1 skip the signing key's. */
	a.key[0].id = 1;
	a.key[1].id = UINT32_MAX;
	dard_keys_rotate(&a);
	assert_int_equal(a.key[0].id, 1);
	assert_int_equal(a.key[1].id, 2);
	/* Past 4294967295 the fresh key is still the newer for promote. */
	a.key[0].id = UINT32_MAX;
	dard_keys_rotate(&a);
	assert_int_equal(a.key[1].id, 1);
	assert_int_equal(dard_keys_promote(&a), 0);
	assert_int_equal(a.key[0].id, 1);
	assert_int_equal(dard_keys_promote(&a), -EALREADY);
	assert_int_equal(dard_keys_save(&b, path, 1, err), 0);
	assert_int_equal(dard_keys_load(&a, path, err), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	/* Readable by others: refused, naming the file and the mode. */
	assert_int_equal(chmod(path, 0644), 0);
	assert_int_equal(dard_keys_load(&a, path, err), -EPERM);
	assert_non_null(strstr(err, path));
	assert_non_null(strstr(err, "mode 0644"));
	assert_int_equal(chmod(path, 0600), 0);
	/* Owned by someone else, when we are root. */
	if (geteuid() == 0) {
		assert_int_equal(chown(path, 1000, 1000), 0);
		assert_int_equal(dard_keys_load(&a, path, err), -EPERM);
		assert_non_null(strstr(err, "owned by uid 1000"));
	}
	/* Not a regular file. */
	assert_int_equal(dard_keys_load(&a, dir, err), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
	unlink(path);
	rmdir(dir);
}

static void test_path(void **state)
{
	(void)state;
	unsetenv("DARD_KEY");
	assert_string_equal(dard_key_path(NULL), DARD_KEY_DEFAULT);
	setenv("DARD_KEY", "/x/k", 1);
	assert_string_equal(dard_key_path(NULL), "/x/k");
	assert_string_equal(dard_key_path("/y"), "/y");
	unsetenv("DARD_KEY");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_refused),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_path),
		cmocka_unit_test(test_alloc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
