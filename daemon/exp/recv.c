// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-exp recv: dard-exp send's other end. Each connection, one at a
 * time, is read to its end and answered with the count of the bytes
 * read, so that the sender's clock stops when this side has them all.
 * Nothing waits forever: --timeout ends it when no connection comes or
 * one goes silent, so a receiver whose sender never came does not
 * outlive its experiment.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "csv.h"
#include "opts.h"
#include "recv.h"
#include "stdopts.h"
#include "xfer.h"

/* One read; a large one keeps a fast sender's cost down. */
enum { RECV_BUF = 256 * 1024, RECV_BACKLOG = 64 };

struct receiver {
	const struct exp_recv_args *a;
	int lfd;
	char *buf;
	char where[EXP_XFER_ADDR_STR];
};

/* fd ready for events within s seconds: 1, 0 when not, or -errno. */
static int await(int fd, short events, double s)
{
	struct pollfd p = {.fd = fd, .events = events};
	struct timespec ts = {.tv_sec = (time_t)s};
	int ret;

	ts.tv_nsec = (long)((s - ts.tv_sec) * 1e9);
	ret = ppoll(&p, 1, &ts, NULL);
	if (ret < 0)
		return errno == EINTR ? 1 : -errno;
	return ret > 0;
}

static int listen_on(struct receiver *r, char *err)
{
	const struct exp_recv_args *a = r->a;
	int one = 1;

	exp_xfer_addr_str((const struct sockaddr *)&a->addr, r->where,
			  sizeof(r->where));
	r->lfd = socket(a->addr.ss_family,
			SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (r->lfd < 0)
		return exp_fail(err, -errno, "socket: %s", strerror(errno));
	/* A receiver run again on its port while the last one's linger. */
	if (setsockopt(r->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)))
		return exp_fail(err, -errno, "SO_REUSEADDR: %s",
				strerror(errno));
	if (bind(r->lfd, (const struct sockaddr *)&a->addr, a->addr_len))
		return exp_fail(err, -errno, "Unable to bind to %s: %s",
				r->where, strerror(errno));
	if (listen(r->lfd, RECV_BACKLOG))
		return exp_fail(err, -errno, "Unable to listen on %s: %s",
				r->where, strerror(errno));
	return 0;
}

/*
 * Into the background, detached from the terminal, as iperf3 -s -D.
 * The socket listens already, so a connection made once the command
 * has returned is queued for the child: no readiness race. 1 in the
 * parent, 0 in the child, or -errno.
 */
static int detach(char *err)
{
	pid_t pid = fork();
	int fd;

	if (pid < 0)
		return exp_fail(err, -errno, "fork: %s", strerror(errno));
	if (pid > 0)
		return 1;
	if (setsid() < 0)
		return exp_fail(err, -errno, "setsid: %s", strerror(errno));
	fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd < 0 || dup2(fd, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
		return exp_fail(err, -errno, "/dev/null: %s", strerror(errno));
	if (fd > 2)
		close(fd);
	if (chdir("/"))
		return exp_fail(err, -errno, "chdir /: %s", strerror(errno));
	return 0;
}

/* The count back, 8 bytes, once the sender's end was read. */
static int answer(struct receiver *r, int fd, const char *peer, uint64_t count,
		  char *err)
{
	uint8_t c[EXP_XFER_COUNT_LEN];
	size_t off = 0;
	ssize_t n;
	int ret;

	exp_xfer_count_put(c, count);
	while (off < sizeof(c)) {
		n = send(fd, c + off, sizeof(c) - off, MSG_NOSIGNAL);
		if (n > 0) {
			off += n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN)
			return exp_fail(err, -errno,
					"%s: unable to send its count: %s",
					peer, strerror(errno));
		ret = await(fd, POLLOUT, r->a->timeout);
		if (ret < 0)
			return exp_fail(err, ret, "poll: %s", strerror(-ret));
		if (!ret)
			return exp_fail(err, -ETIMEDOUT,
					"%s: its count not sent in %g s", peer,
					r->a->timeout);
	}
	return 0;
}

/* One connection read to its end and answered: 0 or -errno. */
static int serve(struct receiver *r, int fd, const char *peer, char *err)
{
	uint64_t count = 0;
	ssize_t n;
	int ret;

	for (;;) {
		n = recv(fd, r->buf, RECV_BUF, 0);
		if (n > 0) {
			count += n;
			continue;
		}
		if (!n)
			break;
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			return exp_fail(err, -errno,
					"%s: the connection failed after %llu "
					"bytes: %s",
					peer, (unsigned long long)count,
					strerror(errno));
		ret = await(fd, POLLIN, r->a->timeout);
		if (ret < 0)
			return exp_fail(err, ret, "poll: %s", strerror(-ret));
		if (!ret)
			return exp_fail(err, -ETIMEDOUT,
					"%s: nothing in %g s after %llu bytes",
					peer, r->a->timeout,
					(unsigned long long)count);
	}
	return answer(r, fd, peer, count, err);
}

/*
 * Connections one after the other: a silent one, or none within the
 * timeout, ends it (1); a failed one too with --once, else it is said
 * and the next one served.
 */
static int run(struct receiver *r, char *err)
{
	struct sockaddr_storage from;
	socklen_t len;
	char peer[EXP_XFER_ADDR_STR];
	int fd, ret;

	for (;;) {
		ret = await(r->lfd, POLLIN, r->a->timeout);
		if (ret < 0)
			return exp_fail(err, ret, "poll: %s", strerror(-ret));
		if (!ret)
			return exp_fail(err, -ETIMEDOUT,
					"no connection to %s in %g s", r->where,
					r->a->timeout);
		len = sizeof(from);
		fd = accept4(r->lfd, (struct sockaddr *)&from, &len,
			     SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0 && (errno == EAGAIN || errno == EINTR ||
			       errno == ECONNABORTED))
			continue;
		if (fd < 0)
			return exp_fail(err, -errno, "accept: %s",
					strerror(errno));
		exp_xfer_addr_str((struct sockaddr *)&from, peer, sizeof(peer));
		ret = serve(r, fd, peer, err);
		close(fd);
		if (ret && (r->a->once || ret == -ETIMEDOUT))
			return ret;
		if (ret)
			fprintf(stderr, "dard-exp: recv: %s\n", err);
		if (r->a->once)
			return 0;
	}
}

int exp_recv_cmd(int argc, char **argv, void (*usage)(FILE *))
{
	struct exp_recv_args a;
	struct receiver r = {.a = &a, .lfd = -1};
	char err[EXP_ERR_MAX];
	int ret;

	ret = exp_recv_opts(argc, argv, &a, usage, err);
	if (ret != DARD_OPTS_RUN) {
		if (err[0])
			fprintf(stderr, "dard-exp: %s\n", err);
		return ret;
	}
	r.buf = malloc(RECV_BUF);
	ret = r.buf ? 0 : exp_fail(err, -ENOMEM, "out of memory");
	if (!ret)
		ret = listen_on(&r, err);
	if (!ret && a.daemon)
		ret = detach(err);
	if (!ret)
		ret = run(&r, err);
	free(r.buf);
	if (r.lfd >= 0)
		close(r.lfd);
	if (ret < 0) {
		fprintf(stderr, "dard-exp: recv: %s\n", err);
		return 1;
	}
	return 0;
}
