// SPDX-License-Identifier: GPL-2.0 OR MIT
/* A flow file, parsed strictly (flowfile.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "flowfile.h"
#include "num.h"

/* The columns a header names; those from COL_ID on may be left out. */
enum col { COL_START, COL_SRC, COL_DST, COL_BYTES, COL_ID, NCOLS };

static const char *const col_name[NCOLS] = {"start", "src", "dst", "bytes",
					    "id"};

/* A flow as read, and its row, which orders flows that start together. */
struct row {
	struct dard_tflow f;
	uint64_t id;
	size_t seq;
};

/* What the header says: each column's field (-1: none), and how many. */
struct header {
	long pos[NCOLS];
	size_t nfields;
};

/* A field of a line: s[0..n), blanks trimmed. */
struct field {
	const char *s;
	size_t n;
};

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * The field of s[0..n) from *at to the next comma, trimmed; *at moves
 * past that comma, or to n + 1 after the last field.
 */
static struct field next_field(const char *s, size_t n, size_t *at)
{
	const char *comma = memchr(s + *at, ',', n - *at);
	size_t end = comma ? (size_t)(comma - s) : n;
	struct field f = {s + *at, end - *at};

	while (f.n && blank(f.s[0])) {
		f.s++;
		f.n--;
	}
	while (f.n && blank(f.s[f.n - 1]))
		f.n--;
	*at = end + 1;
	return f;
}

static int is_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!blank(s[i]))
			return 0;
	return 1;
}

/* The header line: where each column is, or -EINVAL with err set. */
static int header(const char *s, size_t n, struct header *h, char *err)
{
	size_t at = 0;
	unsigned c;

	for (c = 0; c < NCOLS; c++)
		h->pos[c] = -1;
	for (h->nfields = 0; at <= n; h->nfields++) {
		struct field f = next_field(s, n, &at);

		for (c = 0; c < NCOLS; c++) {
			if (f.n != strlen(col_name[c]) ||
			    memcmp(f.s, col_name[c], f.n))
				continue;
			if (h->pos[c] >= 0)
				return dard_fail(err, -EINVAL,
						 "a second `%s' column",
						 col_name[c]);
			h->pos[c] = h->nfields;
		}
	}
	for (c = 0; c < COL_ID; c++)
		if (h->pos[c] < 0)
			return dard_fail(
				err, -EINVAL,
				"no `%s' column (a header names start, src, dst and bytes)",
				col_name[c]);
	return 0;
}

/* A host of t named by f, or DARD_NONE. */
static uint32_t host(const struct dard_topo *t, struct field f)
{
	char name[DARD_NAME_MAX];
	uint32_t v;

	if (f.n >= sizeof(name))
		return DARD_NONE;
	memcpy(name, f.s, f.n);
	name[f.n] = 0;
	v = dard_topo_find(t, name);
	return v != DARD_NONE && t->node[v].is_host ? v : DARD_NONE;
}

/* A number field, NUL-terminated for num.h in buf (a line's size). */
static const char *cstr(struct field f, char *buf)
{
	memcpy(buf, f.s, f.n);
	buf[f.n] = 0;
	return buf;
}

/* One flow's line: 0, or -errno with err set. */
static int flow(const struct dard_topo *t, const char *s, size_t n,
		const struct header *h, struct row *r, char *err)
{
	struct field f[NCOLS] = {{NULL, 0}};
	char buf[DARD_FLOWS_LINE_MAX + 1];
	size_t at = 0, k;
	unsigned c;
	int ret;

	for (k = 0; at <= n; k++) {
		struct field x = next_field(s, n, &at);

		for (c = 0; c < NCOLS; c++)
			if (h->pos[c] == (long)k)
				f[c] = x;
	}
	if (k != h->nfields)
		return dard_fail(err, -EINVAL,
				 "%zu fields where the header has %zu", k,
				 h->nfields);
	ret = dard_parse_double(cstr(f[COL_START], buf), 0, 1e9, &r->f.start);
	if (ret)
		return dard_num_fail(err, ret, "start", buf,
				     "seconds from 0 to 10^9");
	ret = dard_parse_u64(cstr(f[COL_BYTES], buf), 1, 1000000000000000ULL,
			     &r->f.bytes);
	if (ret)
		return dard_num_fail(err, ret, "bytes", buf,
				     "a whole number from 1 to 10^15");
	if (h->pos[COL_ID] >= 0) {
		ret = dard_parse_u64(cstr(f[COL_ID], buf), 0, UINT64_MAX,
				     &r->id);
		if (ret)
			return dard_num_fail(err, ret, "id", buf,
					     "a whole number");
	}
	r->f.src = host(t, f[COL_SRC]);
	r->f.dst = host(t, f[COL_DST]);
	if (r->f.src == DARD_NONE || r->f.dst == DARD_NONE) {
		struct field bad = f[r->f.src == DARD_NONE ? COL_SRC : COL_DST];

		return dard_fail(err, -EINVAL, "`%.*s' is no host of %s",
				 (int)bad.n, bad.s, dard_topo_label(t));
	}
	if (r->f.src == r->f.dst)
		return dard_fail(err, -EINVAL, "%.*s sends to itself",
				 (int)f[COL_SRC].n, f[COL_SRC].s);
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct row *x = a, *y = b;

	if (x->f.start != y->f.start)
		return x->f.start < y->f.start ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The rows, sorted, into the caller's two arrays: 0 or -ENOMEM. */
static int split(struct row *r, size_t n, struct dard_tflow **out,
		 uint64_t **ids, char *err)
{
	struct dard_tflow *f;
	uint64_t *id;
	size_t i;

	for (i = 1; i < n && by_start(&r[i - 1], &r[i]) < 0; i++)
		;
	if (i < n)
		qsort(r, n, sizeof(*r), by_start);
	f = malloc(n * sizeof(*f));
	id = malloc(n * sizeof(*id));
	if (!f || !id) {
		free(f);
		free(id);
		return dard_fail(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < n; i++) {
		f[i] = r[i].f;
		id[i] = r[i].id;
	}
	*out = f;
	*ids = id;
	return 0;
}

long dard_flows_parse(const struct dard_topo *t, const char *text, size_t len,
		      struct dard_tflow **out, uint64_t **ids, unsigned *line,
		      char *err)
{
	struct header h = {.nfields = 0};
	struct row *r = NULL;
	size_t off = 0, n = 0, cap = 0;
	unsigned hline = 0;
	int ret = 0;

	*line = 0;
	if (len > DARD_FLOWS_MAX)
		return dard_fail(err, -EFBIG, "larger than %u MiB",
				 DARD_FLOWS_MAX >> 20);
	while (off < len) {
		const char *s = text + off, *nl = memchr(s, '\n', len - off);
		size_t ln = nl ? (size_t)(nl - s) : len - off;

		off += ln + 1;
		++*line;
		if (ln > DARD_FLOWS_LINE_MAX) {
			ret = dard_fail(err, -E2BIG, "longer than %d bytes",
					DARD_FLOWS_LINE_MAX);
			goto err;
		}
		/* Not text: a NUL would end a name early. */
		if (memchr(s, '\0', ln)) {
			ret = dard_fail(err, -EINVAL, "a NUL byte");
			goto err;
		}
		if (ln && s[ln - 1] == '\r')
			ln--;
		if (is_blank(s, ln))
			continue;
		if (!hline) {
			ret = header(s, ln, &h, err);
			if (ret)
				goto err;
			hline = *line;
			continue;
		}
		if (n == cap) {
			void *p = realloc(r, (cap ? 2 * cap : 64) * sizeof(*r));

			if (!p) {
				/* Not the line's fault. */
				*line = 0;
				ret = dard_fail(err, -ENOMEM, "out of memory");
				goto err;
			}
			r = p;
			cap = cap ? 2 * cap : 64;
		}
		r[n].seq = n;
		r[n].id = n;
		ret = flow(t, s, ln, &h, &r[n], err);
		if (ret)
			goto err;
		n++;
	}
	if (!n) {
		*line = hline ? hline : 1;
		ret = dard_fail(err, -EINVAL, "%s",
				hline ? "no flow after the header"
				      : "no header: an empty file");
		goto err;
	}
	*line = 0;
	ret = split(r, n, out, ids, err);
	free(r);
	return ret ? ret : (long)n;
err:
	free(r);
	return ret;
}
