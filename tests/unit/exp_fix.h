/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Experiment directories written by the tests of dard-exp report, in a
 * directory of /tmp made per test and removed after it: put() writes
 * one file (its folders made), load() reads and judges the directory
 * as dard-exp report does. Include after <cmocka.h>.
 */
#ifndef _DARD_TEST_EXP_FIX_H
#define _DARD_TEST_EXP_FIX_H

#include <errno.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "dir.h"
#include "exp.h"
#include "figures.h"

struct exp_fix {
	char dir[64];
	struct exp e;
	char err[EXP_ERR_MAX];
};

/* Writes DIR/rel (folders made) from a printf format. */
static inline void put(struct exp_fix *x, const char *rel, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline void put(struct exp_fix *x, const char *rel, const char *fmt, ...)
{
	char path[PATH_MAX], *p;
	va_list ap;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", x->dir, rel);
	for (p = path + strlen(x->dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			fail_msg("mkdir %s: %s", path, strerror(errno));
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f)
		fail_msg("%s: %s", path, strerror(errno));
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

static inline int exp_fix_rm(const char *path, const struct stat *st, int flag,
			     struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static inline int exp_fix_setup(void **state)
{
	struct exp_fix *x = calloc(1, sizeof(*x));

	if (!x)
		return -1;
	strcpy(x->dir, "/tmp/dard-exp-test-XXXXXX");
	if (!mkdtemp(x->dir))
		return -1;
	*state = x;
	return 0;
}

static inline int exp_fix_teardown(void **state)
{
	struct exp_fix *x = *state;

	exp_free(&x->e);
	nftw(x->dir, exp_fix_rm, 16, FTW_DEPTH | FTW_PHYS);
	free(x);
	return 0;
}

/* Reads and computes the directory; its return (err on failure). */
static inline int load(struct exp_fix *x)
{
	int ret;

	exp_free(&x->e);
	x->err[0] = '\0';
	ret = exp_load(&x->e, x->dir, x->err);
	if (!ret)
		ret = exp_figures(&x->e);
	return ret;
}

/* The same, which must succeed. */
static inline void load_ok(struct exp_fix *x)
{
	if (load(x))
		fail_msg("exp_load: %s", x->err);
}

/* A scheduler the test expects in the experiment. */
static inline unsigned sched_of(const struct exp_fix *x, const char *name)
{
	int s = exp_sched_find(&x->e, name);

	if (s < 0)
		fail_msg("no scheduler %s", name);
	return s;
}

/* Whether any reason of v's is of check and has text in it. */
static inline int has_reason(const struct exp_verdict *v, const char *check,
			     const char *text)
{
	unsigned i;

	for (i = 0; i < v->nreasons; i++)
		if (!strcmp(v->reason[i].check, check) &&
		    strstr(v->reason[i].text, text))
			return 1;
	return 0;
}

static inline int has_skip(const struct exp_verdict *v, const char *check,
			   const char *why)
{
	unsigned i;

	for (i = 0; i < v->nskips; i++)
		if (!strcmp(v->skip[i].check, check) &&
		    strstr(v->skip[i].why, why))
			return 1;
	return 0;
}

#define near(a, b, eps)                                                        \
	do {                                                                   \
		double a_ = (a), b_ = (b);                                     \
		if (!(fabs(a_ - b_) <= (eps)))                                 \
			fail_msg("%s = %.9g, expected %.9g", #a, a_, b_);      \
	} while (0)

#endif /* _DARD_TEST_EXP_FIX_H */
