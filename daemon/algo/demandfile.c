// SPDX-License-Identifier: GPL-2.0 OR MIT
/* A demand file, parsed strictly (demandfile.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "demandfile.h"
#include "err.h"

/* The next blank-separated word of s[0..n) from *at: its length, 0 at the end.
 */
static size_t word(const char *s, size_t n, size_t *at, const char **w)
{
	size_t i = *at, start;

	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
		i++;
	start = i;
	while (i < n && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
		i++;
	*w = s + start;
	*at = i;
	return i - start;
}

/* A host of t named by w[0..n), or DARD_NONE. */
static uint32_t host(const struct dard_topo *t, const char *w, size_t n)
{
	char name[DARD_NAME_MAX];
	uint32_t v;

	if (n >= sizeof(name))
		return DARD_NONE;
	memcpy(name, w, n);
	name[n] = 0;
	v = dard_topo_find(t, name);
	return v != DARD_NONE && t->node[v].is_host ? v : DARD_NONE;
}

/* One line, its comment cut: 0 if blank, 1 with a flow, or -errno. */
static int one(const struct dard_topo *t, const char *s, size_t n,
	       struct dard_demand *f, char *err)
{
	const char *a, *b, *x;
	size_t at = 0, na, nb;

	na = word(s, n, &at, &a);
	if (!na)
		return 0;
	nb = word(s, n, &at, &b);
	if (!nb || word(s, n, &at, &x))
		return dard_fail(err, -EINVAL, "expected `SRC DST'");
	f->src = host(t, a, na);
	f->dst = host(t, b, nb);
	if (f->src == DARD_NONE || f->dst == DARD_NONE)
		return dard_fail(err, -EINVAL, "`%.*s' is no host of %s",
				 (int)(f->src == DARD_NONE ? na : nb),
				 f->src == DARD_NONE ? a : b,
				 dard_topo_label(t));
	if (f->src == f->dst)
		return dard_fail(err, -EINVAL, "%.*s sends to itself", (int)na,
				 a);
	return 1;
}

long dard_demand_parse(const struct dard_topo *t, const char *text, size_t len,
		       struct dard_demand **out, unsigned *line, char *err)
{
	struct dard_demand *d = NULL, f;
	size_t off = 0, n = 0, cap = 0;
	int ret = 0;

	*line = 0;
	if (len > DARD_DEMAND_MAX)
		return dard_fail(err, -EFBIG, "larger than %u MiB",
				 DARD_DEMAND_MAX >> 20);
	while (off < len) {
		const char *s = text + off, *nl = memchr(s, '\n', len - off);
		size_t ln = nl ? (size_t)(nl - s) : len - off;
		const char *hash = memchr(s, '#', ln);

		off += ln + 1;
		++*line;
		if (ln > DARD_DEMAND_LINE_MAX) {
			ret = dard_fail(err, -E2BIG, "longer than %d bytes",
					DARD_DEMAND_LINE_MAX);
			goto err;
		}
		/* Not text: a NUL would end a name early. */
		if (memchr(s, '\0', ln)) {
			ret = dard_fail(err, -EINVAL, "a NUL byte");
			goto err;
		}
		ret = one(t, s, hash ? (size_t)(hash - s) : ln, &f, err);
		if (ret < 0)
			goto err;
		if (!ret)
			continue;
		if (n == cap) {
			void *p = realloc(d, (cap ? 2 * cap : 64) * sizeof(*d));

			if (!p) {
				ret = dard_fail(err, -ENOMEM, "out of memory");
				goto err;
			}
			d = p;
			cap = cap ? 2 * cap : 64;
		}
		d[n++] = f;
	}
	*line = 0;
	*out = d;
	return n;
err:
	free(d);
	return ret;
}
