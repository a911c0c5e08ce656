// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libbpf's print callback: filter by level, never silence, and hand each
 * line to the program's log (STYLE §6), so that a daemon's libbpf lines
 * carry its prefix, level and journal marker like its own.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>

#include "bpflog.h"
#include "log.h"

static int bpf_verbose;

static int log_level(enum libbpf_print_level level)
{
	switch (level) {
	case LIBBPF_WARN:
		return DARD_LOG_WARN;
	case LIBBPF_INFO:
		return DARD_LOG_INFO;
	default:
		return DARD_LOG_DEBUG;
	}
}

/* One message may be many lines (the verifier's log): one log line each. */
static void log_lines(int level, const char *text)
{
	const char *line = text, *nl;

	while (*line) {
		nl = strchrnul(line, '\n');
		/* A warning (a verifier's rejection) gets through -q. */
		if (level <= DARD_LOG_WARN)
			dard_log_always(level, "%.*s", (int)(nl - line), line);
		else
			dard_log(level, "%.*s", (int)(nl - line), line);
		if (!*nl)
			break;
		line = nl + 1;
	}
}

static int print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char buf[1024], *text = buf;
	va_list again;
	int len;

	if (level == LIBBPF_DEBUG && !bpf_verbose)
		return 0;
	va_copy(again, ap);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	/* A verifier log is longer than any line: the whole of it. */
	if (len >= (int)sizeof(buf)) {
		text = malloc(len + 1);
		if (text)
			vsnprintf(text, len + 1, fmt, again);
		else
			text = buf; /* the start of it, rather than nothing */
	}
	va_end(again);
	if (len < 0)
		return len;
	/*
	 * The kernel's answer to a clsact that is there already, which
	 * libbpf relays as a warning before returning the -EEXIST that
	 * dard_tc_hook_make expects (a restarted daemon's ports): not news.
	 */
	if (level == LIBBPF_WARN && strstr(text, "Exclusivity flag on"))
		level = LIBBPF_DEBUG;
	if (level == LIBBPF_DEBUG && !bpf_verbose) {
		if (text != buf)
			free(text);
		return 0;
	}
	log_lines(log_level(level), text);
	if (text != buf)
		free(text);
	return len;
}

void dard_bpf_log(int verbose)
{
	bpf_verbose = verbose;
	libbpf_set_print(print);
}
