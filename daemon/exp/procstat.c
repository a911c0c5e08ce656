// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The idle share from /proc/stat (procstat.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "procstat.h"

enum { USER, NICE, SYSTEM, IDLE, IOWAIT, IRQ, SOFTIRQ, STEAL, NFIELDS };

int exp_cpu_parse(const char *text, struct exp_cpu *c)
{
	uint64_t v[NFIELDS] = {0};
	const char *p = text;
	char *end;
	unsigned i;

	/* The aggregate line, not cpu0's: "cpu" and blanks. */
	while (p && strncmp(p, "cpu ", 4)) {
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	if (!p)
		return -EINVAL;
	p += 4;
	for (i = 0; i < NFIELDS; i++) {
		p += strspn(p, " ");
		if (*p < '0' || *p > '9')
			break;
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		p = end;
	}
	/* user nice system idle: the fields of every kernel. */
	if (i < IOWAIT)
		return -EINVAL;
	c->idle = v[IDLE] + v[IOWAIT];
	c->total = 0;
	for (i = 0; i < NFIELDS; i++)
		c->total += v[i];
	return 0;
}

double exp_cpu_idle(const struct exp_cpu *a, const struct exp_cpu *b)
{
	double total, idle;

	if (b->total <= a->total)
		return NAN;
	total = b->total - a->total;
	/* iowait may go back on a CPU that went idle: held to 0..1. */
	idle = (double)b->idle - (double)a->idle;
	return fmin(1, fmax(0, idle / total));
}
