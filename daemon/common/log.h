/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The daemons' log: one line per message on stderr, which systemd's
 * journal takes as it is, with the level as a syslog "<N>" prefix when
 * stderr is the journal ($JOURNAL_STREAM) and as a word otherwise.
 */
#ifndef _DARD_LOG_H
#define _DARD_LOG_H

#include <stdint.h>

enum dard_log_level {
	DARD_LOG_ERR = 3,
	DARD_LOG_WARN = 4,
	DARD_LOG_INFO = 6,
	DARD_LOG_DEBUG = 7,
};

/*
 * Lines become "prog: level: text"; messages above level are dropped.
 * Until it is called, a program that only passes on what its libraries
 * say (dardctl, libbpf's lines through bpflog.h) prints every line as it
 * is, which is how a CLI's stderr reads.
 */
void dard_log_init(const char *prog, int level);
void dard_log(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * At level, whatever the level set: for what must reach the operator
 * even under -q (libbpf's warnings, the verifier's rejections among
 * them).
 */
void dard_log_always(int level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define log_err(...) dard_log(DARD_LOG_ERR, __VA_ARGS__)
#define log_warn(...) dard_log(DARD_LOG_WARN, __VA_ARGS__)
#define log_info(...) dard_log(DARD_LOG_INFO, __VA_ARGS__)
#define log_debug(...) dard_log(DARD_LOG_DEBUG, __VA_ARGS__)

/*
 * A message that anyone on the network can cause once per datagram: the
 * first is logged, then at most one per DARD_RATELIMIT_NS, saying how
 * many were dropped since. Zeroed, a limiter is ready.
 */
#define DARD_RATELIMIT_NS 1000000000ULL
struct dard_ratelimit {
	uint64_t said_ns;    /* when a line last went out */
	uint64_t suppressed; /* lines dropped since */
	int said;	     /* whether one went out yet */
};

/*
 * Whether a line may go out at now (ns, any monotonic clock); if so,
 * *suppressed is how many were dropped before it.
 */
int dard_ratelimit(struct dard_ratelimit *rl, uint64_t now,
		   uint64_t *suppressed);
void dard_log_ratelimited(struct dard_ratelimit *rl, uint64_t now, int level,
			  const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif /* _DARD_LOG_H */
