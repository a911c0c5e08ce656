// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The daemons' log on stderr. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"

/* NULL until dard_log_init: lines as they are, none dropped. */
static const char *log_prog;
static int log_level = DARD_LOG_DEBUG, log_journal;

void dard_log_init(const char *prog, int level)
{
	log_prog = prog;
	log_level = level;
	log_journal = getenv("JOURNAL_STREAM") != NULL;
}

static void vlog(int level, const char *fmt, va_list ap)
{
	static const char *const words[8] = {
		[DARD_LOG_ERR] = "error",
		[DARD_LOG_WARN] = "warning",
		[DARD_LOG_INFO] = "info",
		[DARD_LOG_DEBUG] = "debug",
	};
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	if (log_journal)
		fprintf(stderr, "<%d>%s\n", level, line);
	else if (!log_prog)
		fprintf(stderr, "%s\n", line);
	else
		fprintf(stderr, "%s: %s: %s\n", log_prog,
			words[level & 7] ? words[level & 7] : "log", line);
}

void dard_log(int level, const char *fmt, ...)
{
	va_list ap;

	if (level > log_level)
		return;
	va_start(ap, fmt);
	vlog(level, fmt, ap);
	va_end(ap);
}

void dard_log_always(int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(level, fmt, ap);
	va_end(ap);
}

int dard_ratelimit(struct dard_ratelimit *rl, uint64_t now,
		   uint64_t *suppressed)
{
	if (rl->said && now - rl->said_ns < DARD_RATELIMIT_NS) {
		rl->suppressed++;
		return 0;
	}
	*suppressed = rl->suppressed;
	rl->said = 1;
	rl->said_ns = now;
	rl->suppressed = 0;
	return 1;
}

void dard_log_ratelimited(struct dard_ratelimit *rl, uint64_t now, int level,
			  const char *fmt, ...)
{
	uint64_t suppressed;
	char line[1024];
	va_list ap;

	if (level > log_level || !dard_ratelimit(rl, now, &suppressed))
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (suppressed)
		dard_log(level, "%s (%llu more like it suppressed)", line,
			 (unsigned long long)suppressed);
	else
		dard_log(level, "%s", line);
}
