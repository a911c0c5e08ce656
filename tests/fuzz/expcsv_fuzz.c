// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for dard-exp's reading of an experiment directory
 * (daemon/exp/csv.c): the first byte chooses the reader, the rest is
 * the file: CSV with a header (columns by name), CSV without, meta's
 * key=value lines, the testbed's nodes file. Beyond not crashing: a
 * table taken has every field of every row, none holding a comma or a
 * newline, on lines in order within the file; a number read from it is
 * taken or refused naming the file and line; meta's keys are there
 * once each; a node's namespace is a name /run/netns can hold; every
 * refusal says which file.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"

static const char *const cols[] = {"t", "node", "idle"};

/* A refusal names the file first. */
static void refused(const char *err)
{
	if (strncmp(err, "f", 1) ||
	    (err[1] != ':' && strcmp(err, "out of memory")))
		abort();
}

static void table(const char *buf, size_t len, int header)
{
	char err[EXP_ERR_MAX] = "";
	struct exp_csv c;
	unsigned lines = 1, j, u;
	size_t i;
	double v;

	for (i = 0; i < len; i++)
		lines += buf[i] == '\n';
	if (exp_csv_read(&c, "f", buf, len, cols, 3, header, err)) {
		if (c.text || c.cell || c.nrows)
			abort();
		refused(err);
		return;
	}
	for (i = 0; i < c.nrows; i++) {
		if (c.line[i] > lines || (i && c.line[i] <= c.line[i - 1]))
			abort();
		for (j = 0; j < 3; j++) {
			const char *s = exp_csv_str(&c, i, j);

			if (!s || strpbrk(s, ",\n"))
				abort();
			err[0] = '\0';
			if (exp_csv_num(&c, i, j, -1e9, 1e9, j == 2, &v, err))
				refused(err);
			else if (!(v >= -1e9 && v <= 1e9) && !(j == 2 && !*s))
				abort();
			if (exp_csv_uint(&c, i, j, 1000, &u, err))
				refused(err);
			else if (u > 1000)
				abort();
		}
	}
	exp_csv_free(&c);
}

static void meta(const char *buf, size_t len)
{
	char err[EXP_ERR_MAX] = "";
	struct exp_kv kv;
	size_t i;

	if (exp_kv_read(&kv, "f", buf, len, err)) {
		refused(err);
		return;
	}
	for (i = 0; i < kv.n; i++)
		if (!*kv.key[i] || strchr(kv.key[i], '=') ||
		    strchr(kv.val[i], '\n') ||
		    exp_kv_get(&kv, kv.key[i], NULL) != kv.val[i])
			abort();
	exp_kv_free(&kv);
}

static void nodes(const char *buf, size_t len)
{
	char err[EXP_ERR_MAX] = "";
	struct exp_node *n;
	long k, i;

	k = exp_nodes_read("f", buf, len, &n, err);
	if (k < 0) {
		refused(err);
		return;
	}
	if (!k)
		abort();
	for (i = 0; i < k; i++)
		if (!n[i].name[0] || !n[i].ns[0] || strchr(n[i].ns, '/') ||
		    !strcmp(n[i].ns, "..") || !strcmp(n[i].ns, "."))
			abort();
	free(n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data + 1;

	if (!size)
		return 0;
	switch (data[0] % 4) {
	case 0:
		table(buf, size - 1, 1);
		break;
	case 1:
		table(buf, size - 1, 0);
		break;
	case 2:
		meta(buf, size - 1);
		break;
	default:
		nodes(buf, size - 1);
	}
	return 0;
}
