// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-exp send: one transfer, timed until the receiver has every byte.
 * iperf3 -n's clock stops when the client has written the last byte
 * into its socket, so what is still in the socket's buffer and in
 * flight is never timed; the model (dard-sim) times the whole transfer.
 * Here the clock runs from the connect() call until the receiver's
 * count of the bytes it read (recv.c) arrives, after it read the end.
 *
 * One non-blocking socket and one wait (wait_for) for every step, which
 * also closes an interval on each tick and ends the transfer at its
 * deadline.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <linux/tcp.h>

#include "csv.h"
#include "opts.h"
#include "send.h"
#include "stdopts.h"
#include "xfer.h"

/* One write: iperf3's default length for TCP. */
enum { SEND_BUF = 128 * 1024 };

struct sender {
	const struct exp_send_args *a;
	struct exp_xfer x;
	int fd;
	char *buf;
	double t0, deadline, next; /* CLOCK_MONOTONIC; next: the next tick */
	uint64_t base;		   /* tcpi_bytes_acked once connected */
	int connected;
	char peer[EXP_XFER_ADDR_STR];
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The data bytes the receiver acknowledged: tcpi_bytes_acked counts the
 * SYN's (and the FIN's) sequence number too, so it is taken from the
 * count at the connection's start; exp_xfer_mark leaves the FIN out.
 */
static uint64_t acked(struct sender *s, struct tcp_info *ti)
{
	socklen_t len = sizeof(*ti);

	memset(ti, 0, sizeof(*ti));
	if (!s->connected || getsockopt(s->fd, IPPROTO_TCP, TCP_INFO, ti, &len))
		return 0;
	return ti->tcpi_bytes_acked > s->base ? ti->tcpi_bytes_acked - s->base
					      : 0;
}

/* Closes the intervals whose ticks have passed, at t. */
static int tick(struct sender *s, double t, char *err)
{
	struct tcp_info ti;
	unsigned long k;

	if (t < s->next)
		return 0;
	if (exp_xfer_mark(&s->x, t - s->t0, acked(s, &ti)))
		return exp_fail(err, -ENOMEM, "out of memory");
	/* On the grid from the connect; a late wake skips ticks. */
	k = (unsigned long)((t - s->t0) / s->a->interval) + 1;
	s->next = s->t0 + k * s->a->interval;
	return 0;
}

/* The ticks passed and the deadline: 0, -ETIMEDOUT or -ENOMEM. */
static int check(struct sender *s, double t, char *err)
{
	int ret = tick(s, t, err);

	if (ret)
		return ret;
	return t >= s->deadline ? -ETIMEDOUT : 0;
}

/*
 * Waits until the socket is ready for events (or has an error for the
 * next call to find), closing intervals on the way: 0, -ETIMEDOUT at
 * the deadline, or -ENOMEM.
 */
static int wait_for(struct sender *s, short events, char *err)
{
	struct pollfd p = {.fd = s->fd, .events = events};
	struct timespec ts;
	double t, until;
	int ret;

	for (;;) {
		t = now();
		ret = check(s, t, err);
		if (ret)
			return ret;
		until = s->next < s->deadline ? s->next : s->deadline;
		ts.tv_sec = (time_t)(until - t);
		ts.tv_nsec = (long)((until - t - ts.tv_sec) * 1e9);
		ret = ppoll(&p, 1, &ts, NULL);
		if (ret < 0 && errno != EINTR)
			return exp_fail(err, -errno, "poll: %s",
					strerror(errno));
		if (ret > 0)
			return 0;
	}
}

/* The message of a timeout, in the JSON's error. */
static int timed_out(struct sender *s, const char *what, char *err)
{
	return exp_fail(err, -ETIMEDOUT,
			"timeout after %g s %s: %llu of %llu bytes written, "
			"%llu acknowledged",
			s->a->timeout, what, (unsigned long long)s->x.written,
			(unsigned long long)s->x.bytes,
			(unsigned long long)s->x.acked);
}

/* A socket bound as asked, its congestion control set. */
static int open_socket(struct sender *s, char *err)
{
	const struct exp_send_args *a = s->a;
	char where[EXP_XFER_ADDR_STR];
	int one = 1;

	s->fd = socket(a->dst.ss_family,
		       SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (s->fd < 0)
		return exp_fail(err, -errno, "socket: %s", strerror(errno));
	/* A fixed client port is reused at once, run after run. */
	if (setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
		return exp_fail(err, -errno, "SO_REUSEADDR: %s",
				strerror(errno));
	if (a->congestion && setsockopt(s->fd, IPPROTO_TCP, TCP_CONGESTION,
					a->congestion, strlen(a->congestion)))
		return exp_fail(err, -errno,
				"congestion control `%s' is not available: %s",
				a->congestion,
				errno == ENOENT ? "the kernel has no such "
						  "algorithm"
						: strerror(errno));
	if (a->src_len &&
	    bind(s->fd, (const struct sockaddr *)&a->src, a->src_len)) {
		exp_xfer_addr_str((const struct sockaddr *)&a->src, where,
				  sizeof(where));
		return exp_fail(err, -errno, "Unable to bind to %s: %s", where,
				strerror(errno));
	}
	return 0;
}

/* The clock starts at the connect() call. */
static int do_connect(struct sender *s, char *err)
{
	const struct exp_send_args *a = s->a;
	struct tcp_info ti;
	socklen_t len = sizeof(int);
	int ret, soerr = 0;

	s->t0 = now();
	s->x.timesecs = time(NULL);
	s->next = s->t0 + a->interval;
	s->deadline = s->t0 + a->timeout;
	if (connect(s->fd, (const struct sockaddr *)&a->dst, a->dst_len) &&
	    errno != EINPROGRESS)
		return exp_fail(err, -errno, "unable to connect to %s: %s",
				s->peer, strerror(errno));
	ret = wait_for(s, POLLOUT, err);
	if (ret == -ETIMEDOUT)
		return exp_fail(err, ret,
				"unable to connect to %s: "
				"timeout after %g s",
				s->peer, a->timeout);
	if (ret)
		return ret;
	if (getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &soerr, &len))
		soerr = errno;
	if (soerr)
		return exp_fail(err, -soerr, "unable to connect to %s: %s",
				s->peer, strerror(soerr));
	s->connected = 1;
	acked(s, &ti);
	s->base = ti.tcpi_bytes_acked;
	return 0;
}

/* N bytes from the one buffer, then the write side shut. */
static int send_all(struct sender *s, char *err)
{
	uint64_t left;
	ssize_t n;
	int ret;

	while (s->x.written < s->x.bytes) {
		left = s->x.bytes - s->x.written;
		n = send(s->fd, s->buf, left < SEND_BUF ? left : SEND_BUF,
			 MSG_NOSIGNAL);
		if (n > 0) {
			s->x.written += n;
			/* A socket never full still ticks and times out. */
			ret = check(s, now(), err);
			if (ret == -ETIMEDOUT)
				return timed_out(s, "writing", err);
			if (ret)
				return ret;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN)
			return exp_fail(err, -errno,
					"the connection failed after %llu of "
					"%llu bytes written: %s",
					(unsigned long long)s->x.written,
					(unsigned long long)s->x.bytes,
					strerror(errno));
		ret = wait_for(s, POLLOUT, err);
		if (ret == -ETIMEDOUT)
			return timed_out(s, "writing", err);
		if (ret)
			return ret;
	}
	if (shutdown(s->fd, SHUT_WR))
		return exp_fail(err, -errno, "shutdown: %s", strerror(errno));
	return 0;
}

/* The receiver's count, once it has read the end. */
static int read_count(struct sender *s, char *err)
{
	uint8_t c[EXP_XFER_COUNT_LEN];
	size_t got = 0;
	ssize_t n;
	int ret;

	while (got < sizeof(c)) {
		n = recv(s->fd, c + got, sizeof(c) - got, 0);
		if (n > 0) {
			got += n;
			continue;
		}
		if (!n)
			return exp_fail(err, -EPIPE,
					"the receiver closed without its "
					"count (%zu of %zu bytes)",
					got, sizeof(c));
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return exp_fail(err, -errno,
					"the connection failed waiting for "
					"the receiver's count: %s",
					strerror(errno));
		ret = wait_for(s, POLLIN, err);
		if (ret == -ETIMEDOUT)
			return timed_out(s, "waiting for the count", err);
		if (ret)
			return ret;
	}
	s->x.count = exp_xfer_count_get(c);
	s->x.have_count = 1;
	return 0;
}

/* The end, at the count or at a failure: the last, partial interval. */
static int finish(struct sender *s, char *err)
{
	struct tcp_info ti;
	socklen_t len = sizeof(s->x.congestion) - 1;
	double t = now();

	if (!s->t0)
		return 0;
	s->x.seconds = t - s->t0;
	if (exp_xfer_mark(&s->x, s->x.seconds, acked(s, &ti)))
		return exp_fail(err, -ENOMEM, "out of memory");
	s->x.retransmits = ti.tcpi_total_retrans;
	if (getsockopt(s->fd, IPPROTO_TCP, TCP_CONGESTION, s->x.congestion,
		       &len))
		s->x.congestion[0] = '\0';
	return 0;
}

static int transfer(struct sender *s, char *err)
{
	int ret;

	s->buf = malloc(SEND_BUF);
	if (!s->buf)
		return exp_fail(err, -ENOMEM, "out of memory");
	/* A pattern, not zeros: nothing on the way can shrink it. */
	for (ret = 0; ret < SEND_BUF; ret++)
		s->buf[ret] = (char)(ret * 131 + 7);
	ret = open_socket(s, err);
	if (!ret)
		ret = do_connect(s, err);
	if (!ret)
		ret = send_all(s, err);
	if (!ret)
		ret = read_count(s, err);
	if (!ret && s->x.count != s->x.bytes)
		ret = exp_fail(err, -EIO,
			       "short count: the receiver read %llu of %llu "
			       "bytes",
			       (unsigned long long)s->x.count,
			       (unsigned long long)s->x.bytes);
	return ret;
}

int exp_send_cmd(int argc, char **argv, void (*usage)(FILE *))
{
	struct exp_send_args a;
	struct sender s = {.a = &a, .fd = -1};
	char err[EXP_ERR_MAX], ferr[EXP_ERR_MAX], *json;
	int ret;

	ret = exp_send_opts(argc, argv, &a, usage, err);
	if (ret != DARD_OPTS_RUN) {
		if (err[0])
			fprintf(stderr, "dard-exp: %s\n", err);
		return ret;
	}
	s.x.host = a.to;
	s.x.port = a.port;
	s.x.bytes = a.bytes;
	exp_xfer_addr_str((const struct sockaddr *)&a.dst, s.peer,
			  sizeof(s.peer));
	ret = transfer(&s, err);
	if (finish(&s, ferr) && !ret)
		ret = exp_fail(err, -ENOMEM, "%s", ferr);
	if (ret)
		s.x.error = err;
	json = exp_xfer_json(&s.x);
	if (json)
		fputs(json, stdout);
	if (fflush(stdout) && !ret)
		ret = exp_fail(err, -EIO, "Unable to write the report: %s",
			       strerror(errno));
	if (!json && !ret)
		ret = exp_fail(err, -ENOMEM, "out of memory");
	free(json);
	exp_xfer_free(&s.x);
	free(s.buf);
	if (s.fd >= 0)
		close(s.fd);
	if (ret) {
		fprintf(stderr, "dard-exp: send: %s\n", err);
		return 1;
	}
	return 0;
}
