// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The key file's format (key.h): parsed and written, no I/O. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "err.h"
#include "key.h"
#include "num.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One "ID HEX" line (NUL-terminated, no newline) into k. */
static int parse_line(char *s, struct dard_key *k, const char *name,
		      unsigned line, char *err)
{
	char *id = strtok(s, " \t"), *hex = strtok(NULL, " \t");
	char *extra = strtok(NULL, " \t");
	size_t i, n;
	int ret;

	if (!hex)
		return dard_fail(err, -EINVAL,
				 "%s:%u: `%s' is not `ID HEX' (a key id and %d "
				 "hex digits)",
				 name, line, id, 2 * DARD_KEY_LEN);
	if (extra)
		return dard_fail(err, -EINVAL,
				 "%s:%u: unexpected `%s' after the key", name,
				 line, extra);
	ret = dard_parse_u32(id, 1, UINT32_MAX, &k->id);
	if (ret)
		return dard_fail(err, -EINVAL,
				 "%s:%u: key id `%s': %s, expected 1 to %u",
				 name, line, id, dard_num_strerror(ret),
				 UINT32_MAX);
	n = strlen(hex);
	if (n != 2 * DARD_KEY_LEN)
		return dard_fail(err, -EINVAL,
				 "%s:%u: key %u has %zu hex digits, want %d",
				 name, line, k->id, n, 2 * DARD_KEY_LEN);
	for (i = 0; i < DARD_KEY_LEN; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return dard_fail(
				err, -EINVAL,
				"%s:%u: key %u: `%c' at digit %zu is not hex",
				name, line, k->id,
				hi < 0 ? hex[2 * i] : hex[2 * i + 1],
				hi < 0 ? 2 * i + 1 : 2 * i + 2);
		k->k[i] = hi << 4 | lo;
	}
	return 0;
}

int dard_keys_parse(struct dard_keys *keys, const char *text, size_t len,
		    const char *name, char *err)
{
	char s[256];
	unsigned line = 0;
	size_t off = 0;

	memset(keys, 0, sizeof(*keys));
	while (off < len) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t n = (nl ? (size_t)(nl - text) : len) - off;
		char *p = s, *e;
		struct dard_key k;
		unsigned i;

		line++;
		if (n >= sizeof(s))
			return dard_fail(err, -EINVAL,
					 "%s:%u: line longer than %zu bytes",
					 name, line, sizeof(s) - 1);
		memcpy(s, text + off, n);
		s[n] = '\0';
		off += n + 1;
		if (memchr(s, '\0', n))
			return dard_fail(err, -EINVAL, "%s:%u: a NUL byte",
					 name, line);
		while (*p == ' ' || *p == '\t')
			p++;
		for (e = p + strlen(p); e > p && strchr(" \t\r", e[-1]); e--)
			;
		*e = '\0';
		if (!*p || *p == '#')
			continue;
		if (parse_line(p, &k, name, line, err))
			return -EINVAL;
		for (i = 0; i < keys->n; i++)
			if (keys->key[i].id == k.id)
				return dard_fail(
					err, -EINVAL,
					"%s:%u: key id %u appears twice", name,
					line, k.id);
		if (keys->n == DARD_KEYS_MAX)
			return dard_fail(err, -EINVAL,
					 "%s:%u: more than %d keys", name, line,
					 DARD_KEYS_MAX);
		keys->key[keys->n++] = k;
	}
	if (!keys->n)
		return dard_fail(err, -EINVAL, "%s: no key in the file", name);
	return 0;
}

const struct dard_key *dard_keys_find(const struct dard_keys *keys, uint32_t id)
{
	unsigned i;

	for (i = 0; i < keys->n; i++)
		if (keys->key[i].id == id)
			return &keys->key[i];
	return NULL;
}

int dard_keys_promote(struct dard_keys *keys)
{
	struct dard_key first = keys->key[0];

	if (keys->n != 2)
		return -EINVAL;
	/* Serial numbers: a second run would let the old key sign again. */
	if ((int32_t)(keys->key[1].id - keys->key[0].id) <= 0)
		return -EALREADY;
	keys->key[0] = keys->key[1];
	keys->key[1] = first;
	return 0;
}

size_t dard_keys_format(const struct dard_keys *keys, char *buf, size_t cap)
{
	size_t off;
	unsigned i, j;
	int n;

	n = snprintf(
		buf, cap,
		"# dard switch protocol keys (Documentation/protocol.md):\n"
		"# the first signs, both are accepted.\n");
	if (n < 0 || (size_t)n >= cap)
		return 0;
	off = n;
	for (i = 0; i < keys->n; i++) {
		n = snprintf(buf + off, cap - off, "%u ", keys->key[i].id);
		if (n < 0 || (size_t)n >= cap - off)
			return 0;
		off += n;
		for (j = 0; j < DARD_KEY_LEN; j++) {
			n = snprintf(buf + off, cap - off, "%02x",
				     keys->key[i].k[j]);
			if (n < 0 || (size_t)n >= cap - off)
				return 0;
			off += n;
		}
		if (off + 1 >= cap)
			return 0;
		buf[off++] = '\n';
		buf[off] = '\0';
	}
	return off;
}
