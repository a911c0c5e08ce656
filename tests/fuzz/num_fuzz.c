// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for the number parsers every option, argument and
 * file field goes through (daemon/lib/num.h). An integer taken must be
 * digits only and the value a digit-by-digit reading gives, inside the
 * bounds (the first bytes of the input choose them); a decimal taken must
 * be finite and inside its bounds, and seconds fit their nanoseconds.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "num.h"

/* s in decimal, or -ERANGE past 2^64 - 1; -EINVAL if not digits only. */
static int reference(const char *s, uint64_t *v)
{
	int over = 0;

	*v = 0;
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return -EINVAL;
		if (*v > (UINT64_MAX - (*s - '0')) / 10)
			over = 1;
		*v = *v * 10 + (*s - '0');
	}
	return over ? -ERANGE : 0;
}

static void check_u64(const char *s, uint64_t lo, uint64_t hi)
{
	uint64_t v = 42, want;
	int ret = dard_parse_u64(s, lo, hi, &v), ref = reference(s, &want);

	if (ref == -EINVAL) {
		if (ret != -EINVAL || v != 42)
			abort();
	} else if (ref == -ERANGE || want < lo || want > hi) {
		if (ret != -ERANGE || v != 42)
			abort();
	} else if (ret || v != want) {
		abort();
	}
}

static void check_u32(const char *s, uint32_t lo, uint32_t hi)
{
	uint32_t v = 42;
	uint64_t want;
	int ret = dard_parse_u32(s, lo, hi, &v);

	if (!ret && (reference(s, &want) || want != v || v < lo || v > hi))
		abort();
	if (ret && v != 42)
		abort();
}

static void check_double(const char *s, double lo, double hi)
{
	double v = 42;
	uint64_t ns;
	int ret = dard_parse_double(s, lo, hi, &v);

	if (!ret && (!isfinite(v) || v < lo || v > hi || strpbrk(s, "nNiIxX")))
		abort();
	if (ret && ret != -EINVAL && ret != -ERANGE)
		abort();
	ret = dard_parse_seconds(s, 0, 86400, &ns);
	if (!ret && ns > 86400ULL * 1000000000ULL)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t lo, hi;
	char *s;

	if (size < 2 || size > 256)
		return 0;
	/* Bounds from the first two bytes: 0, small, or the type's edge. */
	lo = data[0] < 200 ? data[0] : UINT64_MAX - (255 - data[0]);
	hi = data[1] < 200 ? lo + data[1] : UINT64_MAX - (255 - data[1]);
	s = malloc(size - 1);
	if (!s)
		return 0;
	memcpy(s, data + 2, size - 2);
	s[size - 2] = 0;
	check_u64(s, lo, hi);
	check_u32(s, (uint32_t)lo, hi > UINT32_MAX ? UINT32_MAX : (uint32_t)hi);
	check_double(s, -1e6, 1e6);
	check_double(s, 0, 1);
	free(s);
	return 0;
}
