// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * sd_notify(3) for the daemons (notify.h): a thin layer over libsystemd,
 * whose sd_notify() already does nothing without $NOTIFY_SOCKET.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-daemon.h>

#include "err.h"
#include "notify.h"

/* The longest status line we send; systemd shows one line anyway. */
enum { NOTIFY_STATUS_MAX = 256 };

/*
 * The longest watchdog we honour, a day: a larger WATCHDOG_USEC (up to
 * 2^64 - 2) would overflow usec * 1000, and pinging more often than
 * asked is always safe.
 */
#define NOTIFY_WATCHDOG_MAX_USEC (24ULL * 3600 * 1000000)

/* sd_notify returns > 0 when sent, 0 without $NOTIFY_SOCKET. */
static int notify(const char *msg)
{
	int ret = sd_notify(0, msg);

	return ret < 0 ? ret : 0;
}

static int send_status(const char *prefix, const char *fmt, va_list ap)
{
	char msg[NOTIFY_STATUS_MAX + 32];
	int len = snprintf(msg, sizeof(msg), "%sSTATUS=", prefix);

	vsnprintf(msg + len, sizeof(msg) - len, fmt, ap);
	return notify(msg);
}

int dard_notify_ready(struct dard_notify *n, uint64_t now_ns, char *err,
		      const char *fmt, ...)
{
	const char *sock = getenv("NOTIFY_SOCKET");
	uint64_t usec = 0;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = send_status("READY=1\n", fmt, ap);
	va_end(ap);
	if (ret)
		return dard_fail(err, ret,
				 "Unable to notify systemd at `%s': %s",
				 sock ? sock : "", strerror(-ret));
	n->every_ns = 0;
	ret = sd_watchdog_enabled(0, &usec);
	if (ret < 0)
		return dard_fail(err, ret,
				 "Invalid WATCHDOG_USEC `%s' or WATCHDOG_PID "
				 "`%s': no watchdog pings",
				 getenv("WATCHDOG_USEC") ?: "",
				 getenv("WATCHDOG_PID") ?: "");
	/* Twice per interval, as sd_watchdog_enabled(3) recommends. */
	if (ret > 0 && usec) {
		if (usec > NOTIFY_WATCHDOG_MAX_USEC)
			usec = NOTIFY_WATCHDOG_MAX_USEC;
		n->every_ns = usec * 1000 / 2;
		n->next_ns = now_ns;
	}
	return 0;
}

int dard_notify_status(const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = send_status("", fmt, ap);
	va_end(ap);
	return ret;
}

int dard_notify_stopping(void)
{
	return notify("STOPPING=1");
}

int dard_notify_watchdog(struct dard_notify *n, uint64_t now_ns, int timeout_ms)
{
	uint64_t left_ms;

	if (!n->every_ns)
		return timeout_ms;
	if (now_ns >= n->next_ns) {
		/* A failed ping is systemd's to see: it restarts us. */
		notify("WATCHDOG=1");
		n->next_ns = now_ns + n->every_ns;
	}
	left_ms = (n->next_ns - now_ns + 999999) / 1000000;
	if (left_ms > INT_MAX)
		left_ms = INT_MAX;
	if (timeout_ms < 0 || left_ms < (uint64_t)timeout_ms)
		return (int)left_ms;
	return timeout_ms;
}
