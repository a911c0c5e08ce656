// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The key file's format (key.h): parsed and written, no I/O. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sodium.h>

#include "err.h"
#include "key.h"
#include "num.h"

/*
 * The text is read a byte at a time, never through libc's string
 * functions (memchr, memcpy, strlen, strtok), and a key is never copied
 * whole: both move 16 or 32 bytes at once through vector registers,
 * which the next lazy PLT binding (_dl_runtime_resolve_xsavec) or signal
 * frame saves on the stack, where no wipe reaches. A core dump of
 * dard-controller showed the key there (tests/root/keyleak.sh). A key's
 * bytes are written, one at a time, where they stay.
 */

/* A word of a line: where it starts, its length. */
struct word {
	const char *p;
	size_t n;
};

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

/*
 * Up to three words of s (n bytes, no newline) into w, split at blanks,
 * trailing carriage returns ignored; how many (three: three or more).
 */
static unsigned split(const char *s, size_t n, struct word *w)
{
	unsigned nw = 0;
	size_t i = 0;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	while (nw < 3) {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == n)
			break;
		w[nw].p = s + i;
		while (i < n && s[i] != ' ' && s[i] != '\t')
			i++;
		w[nw].n = s + i - w[nw].p;
		nw++;
	}
	return nw;
}

/* A decimal from 1 to UINT32_MAX, as dard_parse_u32 takes one. */
static int parse_id(const struct word *w, uint32_t *id)
{
	uint64_t v = 0;
	size_t i;

	if (!w->n)
		return -EINVAL;
	for (i = 0; i < w->n; i++) {
		if (w->p[i] < '0' || w->p[i] > '9')
			return -EINVAL;
		v = v * 10 + (w->p[i] - '0');
		if (v > UINT32_MAX) /* held there: no overflow */
			v = UINT32_MAX + 1ULL;
	}
	if (!v || v > UINT32_MAX)
		return -ERANGE;
	*id = v;
	return 0;
}

/*
 * One line (n bytes, no newline) into the next slot of keys; nothing for
 * a blank or comment line. No message quotes a word of the line: any of
 * them may be key digits (a bare key, the columns swapped, two keys on a
 * line), and the message goes to the journal. A word is named by its
 * place and length only.
 */
static int take_line(struct dard_keys *keys, const char *s, size_t n,
		     const char *name, unsigned line, char *err)
{
	struct word w[3];
	unsigned nw = split(s, n, w), i;
	struct dard_key *k;
	uint32_t id;
	int ret;

	if (!nw || w[0].p[0] == '#')
		return 0;
	if (nw == 1)
		return dard_fail(err, -EINVAL,
				 "%s:%u: one word, of %zu characters, is not "
				 "`ID HEX' (a key id and %d hex digits)",
				 name, line, w[0].n, 2 * DARD_KEY_LEN);
	if (nw == 3)
		return dard_fail(
			err, -EINVAL,
			"%s:%u: a third word, of %zu characters, after "
			"`ID HEX'",
			name, line, w[2].n);
	ret = parse_id(&w[0], &id);
	if (ret)
		return dard_fail(err, -EINVAL,
				 "%s:%u: the key id, of %zu characters, is %s: "
				 "expected 1 to %u",
				 name, line, w[0].n, dard_num_strerror(ret),
				 UINT32_MAX);
	if (w[1].n != 2 * DARD_KEY_LEN)
		return dard_fail(err, -EINVAL,
				 "%s:%u: key %u has %zu hex digits, want %d",
				 name, line, id, w[1].n, 2 * DARD_KEY_LEN);
	for (i = 0; i < keys->n; i++)
		if (keys->key[i].id == id)
			return dard_fail(err, -EINVAL,
					 "%s:%u: key id %u appears twice", name,
					 line, id);
	if (keys->n == DARD_KEYS_MAX)
		return dard_fail(err, -EINVAL, "%s:%u: more than %d keys", name,
				 line, DARD_KEYS_MAX);
	k = &keys->key[keys->n];
	for (i = 0; i < DARD_KEY_LEN; i++) {
		const char *h = w[1].p + 2 * i;
		int hi = hexval(h[0]), lo = hexval(h[1]);

		/* The one character named is no hex digit: no key's. */
		if (hi < 0 || lo < 0)
			return dard_fail(
				err, -EINVAL,
				"%s:%u: key %u: `%c' at digit %u is not hex",
				name, line, id, hi < 0 ? h[0] : h[1],
				hi < 0 ? 2 * i + 1 : 2 * i + 2);
		k->k[i] = hi << 4 | lo;
	}
	k->id = id;
	keys->n++;
	return 0;
}

int dard_keys_parse(struct dard_keys *keys, const char *text, size_t len,
		    const char *name, char *err)
{
	unsigned line = 0;
	size_t off = 0;
	int ret = 0;

	memset(keys, 0, sizeof(*keys));
	while (!ret && off < len) {
		size_t n = 0;
		int nul = 0;

		while (off + n < len && text[off + n] != '\n')
			nul |= !text[off + n++];
		line++;
		if (n > 255)
			ret = dard_fail(err, -EINVAL,
					"%s:%u: line longer than 255 bytes",
					name, line);
		else if (nul)
			ret = dard_fail(err, -EINVAL, "%s:%u: a NUL byte", name,
					line);
		else
			ret = take_line(keys, text + off, n, name, line, err);
		off += n + 1;
	}
	if (!ret && !keys->n)
		ret = dard_fail(err, -EINVAL, "%s: no key in the file", name);
	/* Refused: no key of the file's first lines is left behind. */
	if (ret)
		sodium_memzero(keys, sizeof(*keys));
	return ret;
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
	sodium_memzero(&first, sizeof(first));
	return 0;
}

size_t dard_keys_format(const struct dard_keys *keys, char *buf, size_t cap)
{
	size_t off;
	unsigned i;
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
		/* Room for the digits, the newline and the NUL. */
		if (n < 0 || (size_t)n + 2 * DARD_KEY_LEN + 2 > cap - off)
			goto full;
		off += n;
		/* Not printf's "%02x": its scratch would hold the digits. */
		sodium_bin2hex(buf + off, cap - off, keys->key[i].k,
			       DARD_KEY_LEN);
		off += 2 * DARD_KEY_LEN;
		buf[off++] = '\n';
		buf[off] = '\0';
	}
	return off;
full:
	sodium_memzero(buf, cap);
	return 0;
}
