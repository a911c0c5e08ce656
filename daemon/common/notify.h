/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What a daemon tells systemd (sd_notify(3), libsystemd): that it serves
 * (READY=1 with a STATUS= line), that its event loop still turns
 * (WATCHDOG=1), that it stops (STOPPING=1). Every call is a no-op
 * without $NOTIFY_SOCKET, so a daemon started by hand or by a script runs
 * the same. Helpers return 0 or a negative errno and never print.
 */
#ifndef _DARD_NOTIFY_H
#define _DARD_NOTIFY_H

#include <stdint.h>

/* The watchdog's pings; zeroed, it pings nothing until ready. */
struct dard_notify {
	uint64_t every_ns; /* half of $WATCHDOG_USEC; 0: no watchdog */
	uint64_t next_ns;  /* the next ping is due, on the caller's clock */
};

/*
 * READY=1 and STATUS=fmt: call it once the daemon serves, never before.
 * It also arms the watchdog when systemd asks for one (WATCHDOG_USEC,
 * for this pid); the first ping is due at once. A malformed
 * $WATCHDOG_USEC leaves the watchdog off and is the error returned,
 * after the readiness has been sent.
 */
int dard_notify_ready(struct dard_notify *n, uint64_t now_ns, char *err,
		      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* STATUS=fmt: what `systemctl status' shows under the unit. */
int dard_notify_status(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* STOPPING=1: the daemon leaves its loop (SIGTERM, SIGINT). */
int dard_notify_stopping(void);

/*
 * Called by the event loop before each wait, never from a thread or a
 * timer of its own: a loop stuck in a handler stops the pings and
 * systemd restarts the daemon. Pings WATCHDOG=1 when due and returns
 * timeout_ms (poll(2)'s, -1 forever) shortened to wake for the next.
 */
int dard_notify_watchdog(struct dard_notify *n, uint64_t now_ns,
			 int timeout_ms);

#endif /* _DARD_NOTIFY_H */
