// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * notify.c against a fake systemd: a datagram socket named by
 * $NOTIFY_SOCKET that the test reads. Readiness with its status, the
 * watchdog's pings at half of WATCHDOG_USEC and the waits they shorten,
 * another process's watchdog, a malformed WATCHDOG_USEC, no socket at
 * all, and a socket that is not there.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <cmocka.h>

#include "err.h"
#include "notify.h"
#include "topo.h"

#define MS 1000000ULL

static char dir[] = "/tmp/dard-notify-XXXXXX";
static char path[sizeof(dir) + 16];

/* The fake systemd's socket, bound at path, and $NOTIFY_SOCKET naming it. */
static int setup(void **state)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX};
	int *fd = malloc(sizeof(*fd));

	assert_non_null(fd);
	strcpy(dir, "/tmp/dard-notify-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/notify", dir);
	strcpy(sun.sun_path, path);
	*fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	assert_true(*fd >= 0);
	assert_int_equal(bind(*fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	setenv("NOTIFY_SOCKET", path, 1);
	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
	*state = fd;
	return 0;
}

static int teardown(void **state)
{
	int *fd = *state;

	close(*fd);
	free(fd);
	unlink(path);
	rmdir(dir);
	unsetenv("NOTIFY_SOCKET");
	unsetenv("WATCHDOG_USEC");
	unsetenv("WATCHDOG_PID");
	return 0;
}

/* The next datagram, or "" when none waits. */
static const char *next(int fd)
{
	static char buf[512];
	ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);

	if (n < 0) {
		assert_int_equal(errno, EAGAIN);
		n = 0;
	}
	buf[n] = 0;
	return buf;
}

static void watchdog(const char *usec, pid_t pid)
{
	char s[16];

	setenv("WATCHDOG_USEC", usec, 1);
	snprintf(s, sizeof(s), "%d", (int)pid);
	setenv("WATCHDOG_PID", s, 1);
}

static void test_ready_status_stopping(void **state)
{
	struct dard_notify n = {0};
	char err[DARD_ERR_MAX] = "";
	int fd = *(int *)*state;

	assert_int_equal(
		dard_notify_ready(&n, 0, err, "%s: %u ports", "core1", 4), 0);
	assert_string_equal(next(fd), "READY=1\nSTATUS=core1: 4 ports");
	/* Without WATCHDOG_USEC no pings, and waits are left as they are. */
	assert_int_equal(dard_notify_watchdog(&n, 0, -1), -1);
	assert_int_equal(dard_notify_watchdog(&n, 5000 * MS, 250), 250);
	assert_string_equal(next(fd), "");
	assert_int_equal(dard_notify_status("mode %s", "controller"), 0);
	assert_string_equal(next(fd), "STATUS=mode controller");
	assert_int_equal(dard_notify_stopping(), 0);
	assert_string_equal(next(fd), "STOPPING=1");
}

static void test_watchdog(void **state)
{
	struct dard_notify n = {0};
	char err[DARD_ERR_MAX] = "";
	int fd = *(int *)*state;
	uint64_t t0 = 1000 * MS;

	/* Nothing before ready, though systemd asks for the watchdog. */
	watchdog("1000000", getpid());
	assert_int_equal(dard_notify_watchdog(&n, t0, -1), -1);
	assert_string_equal(next(fd), "");
	assert_int_equal(dard_notify_ready(&n, t0, err, "up"), 0);
	assert_string_equal(next(fd), "READY=1\nSTATUS=up");
	/* Due at once, then every 500 ms: half of 1 s. */
	assert_int_equal(dard_notify_watchdog(&n, t0, -1), 500);
	assert_string_equal(next(fd), "WATCHDOG=1");
	assert_int_equal(dard_notify_watchdog(&n, t0 + 100 * MS, -1), 400);
	assert_int_equal(dard_notify_watchdog(&n, t0 + 100 * MS, 50), 50);
	assert_int_equal(dard_notify_watchdog(&n, t0 + 499 * MS, 1000), 1);
	assert_string_equal(next(fd), "");
	assert_int_equal(dard_notify_watchdog(&n, t0 + 500 * MS, -1), 500);
	assert_string_equal(next(fd), "WATCHDOG=1");
	/* A loop late by 2 s pings once, and the next is 500 ms on. */
	assert_int_equal(dard_notify_watchdog(&n, t0 + 2500 * MS, -1), 500);
	assert_string_equal(next(fd), "WATCHDOG=1");
	assert_string_equal(next(fd), "");
}

/*
 * A huge WATCHDOG_USEC (systemd's largest finite one) is clamped to a
 * day: pings every 12 h, where usec * 1000 would have wrapped to a
 * small or zero interval.
 */
static void test_watchdog_huge(void **state)
{
	struct dard_notify n = {0};
	char err[DARD_ERR_MAX] = "";
	int fd = *(int *)*state;
	const char *huge[] = {"18446744073709551614", "18446744073709552",
			      "86400000001"};
	unsigned i;

	for (i = 0; i < sizeof(huge) / sizeof(huge[0]); i++) {
		n = (struct dard_notify){0};
		watchdog(huge[i], getpid());
		assert_int_equal(dard_notify_ready(&n, 0, err, "up"), 0);
		assert_string_equal(next(fd), "READY=1\nSTATUS=up");
		assert_int_equal(n.every_ns, 12 * 3600 * 1000 * MS);
		assert_int_equal(dard_notify_watchdog(&n, 0, -1),
				 12 * 3600 * 1000);
		assert_string_equal(next(fd), "WATCHDOG=1");
		assert_int_equal(dard_notify_watchdog(&n, 1000 * MS, -1),
				 12 * 3600 * 1000 - 1000);
		assert_string_equal(next(fd), "");
	}
	/* A day exactly is honoured as it is. */
	watchdog("86400000000", getpid());
	assert_int_equal(dard_notify_ready(&n, 0, err, "up"), 0);
	assert_int_equal(n.every_ns, 12 * 3600 * 1000 * MS);
}

/* WATCHDOG_PID names another process (our parent): not ours to ping. */
static void test_watchdog_other_pid(void **state)
{
	struct dard_notify n = {0};
	char err[DARD_ERR_MAX] = "";
	int fd = *(int *)*state;

	watchdog("1000000", getppid());
	assert_int_equal(dard_notify_ready(&n, 0, err, "up"), 0);
	assert_string_equal(next(fd), "READY=1\nSTATUS=up");
	assert_int_equal(dard_notify_watchdog(&n, 0, -1), -1);
	assert_string_equal(next(fd), "");
}

static void test_watchdog_malformed(void **state)
{
	struct dard_notify n = {0};
	char err[DARD_ERR_MAX] = "";
	int fd = *(int *)*state;

	watchdog("30s", getpid());
	assert_int_equal(dard_notify_ready(&n, 0, err, "up"), -EINVAL);
	assert_non_null(strstr(err, "Invalid WATCHDOG_USEC `30s'"));
	/* Ready all the same; only the pings are off. */
	assert_string_equal(next(fd), "READY=1\nSTATUS=up");
	assert_int_equal(dard_notify_watchdog(&n, 0, -1), -1);
	assert_string_equal(next(fd), "");
}

/* By hand: no $NOTIFY_SOCKET, nothing sent, nothing fails. */
static void test_no_socket(void **state)
{
	struct dard_notify n = {0};
	char err[DARD_ERR_MAX] = "";
	int fd = *(int *)*state;

	unsetenv("NOTIFY_SOCKET");
	watchdog("1000000", getpid());
	assert_int_equal(dard_notify_ready(&n, 0, err, "up"), 0);
	assert_int_equal(dard_notify_watchdog(&n, 0, 100), 100);
	assert_int_equal(dard_notify_status("x"), 0);
	assert_int_equal(dard_notify_stopping(), 0);
	assert_string_equal(next(fd), "");
}

/* $NOTIFY_SOCKET names nothing: an error naming it, for a warning. */
static void test_socket_gone(void **state)
{
	struct dard_notify n = {0};
	char err[DARD_ERR_MAX] = "", gone[sizeof(path) + 8];

	snprintf(gone, sizeof(gone), "%s/gone", dir);
	setenv("NOTIFY_SOCKET", gone, 1);
	assert_true(dard_notify_ready(&n, 0, err, "up") < 0);
	assert_non_null(strstr(err, "Unable to notify systemd at"));
	assert_non_null(strstr(err, gone));
	assert_true(dard_notify_stopping() < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ready_status_stopping,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_watchdog, setup, teardown),
		cmocka_unit_test_setup_teardown(test_watchdog_huge, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_watchdog_other_pid, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_watchdog_malformed, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_no_socket, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_socket_gone, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
