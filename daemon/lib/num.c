// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Strict number parsing (num.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "num.h"

int dard_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	/* strtoull takes blanks, signs and "-1" as 2^64 - 1: not here. */
	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return -EINVAL;
	if (errno == ERANGE || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int dard_parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *out)
{
	uint64_t v;
	int ret;

	ret = dard_parse_u64(s, min, max, &v);
	if (ret)
		return ret;
	*out = (uint32_t)v;
	return 0;
}

int dard_parse_double(const char *s, double min, double max, double *out)
{
	const char *p;
	double v;
	char *end;

	if (!s || !*s)
		return -EINVAL;
	/* Plain decimals: strtod also reads nan, inf and hex floats. */
	p = s + (*s == '-' || *s == '+');
	if (!isdigit((unsigned char)*p) && *p != '.')
		return -EINVAL;
	if (strpbrk(p, "xXnNiI"))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (*end || end == s)
		return -EINVAL;
	if (errno == ERANGE || !isfinite(v) || v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int dard_parse_seconds(const char *s, double min_s, double max_s, uint64_t *ns)
{
	double v;
	int ret;

	/* 1.8e10 s is as far as a uint64_t of ns reaches. */
	if (min_s < 0 || max_s > 1.8e10)
		return -ERANGE;
	ret = dard_parse_double(s, min_s, max_s, &v);
	if (ret)
		return ret;
	*ns = (uint64_t)llround(v * 1e9);
	return 0;
}

const char *dard_num_strerror(int ret)
{
	switch (ret) {
	case 0:
		return "success";
	case -ERANGE:
		return "out of range";
	default:
		return "not a number";
	}
}

int dard_num_fail(char *err, int ret, const char *what, const char *arg,
		  const char *want)
{
	return dard_fail(err, ret, "Invalid %s `%s': %s%s%s", what, arg,
			 dard_num_strerror(ret), want ? ", expected " : "",
			 want ? want : "");
}
