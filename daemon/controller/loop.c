// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-controller's sockets and its one event loop: epoll over a timer
 * (rounds and switch queries when due), the hosts' UDP socket, the
 * switch queries' socket and the control socket, until SIGINT or SIGTERM.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/timerfd.h>

#include "clock.h"
#include "ctlr.h"
#include "err.h"
#include "proto.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

uint64_t ctlr_now_ns(void)
{
	return dard_clock_ns(CLOCK_MONOTONIC);
}

static ssize_t xmit_udp(int fd, const void *buf, size_t len, uint32_t addr,
			uint16_t port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(addr)};

	return sendto(fd, buf, len, 0, (struct sockaddr *)&sa, sizeof(sa));
}

static ssize_t xmit_host(struct ctlr *c, const void *buf, size_t len,
			 uint32_t addr, uint16_t port)
{
	return xmit_udp(c->udp, buf, len, addr, port);
}

static ssize_t xmit_switch(struct ctlr *c, const void *buf, size_t len,
			   uint32_t addr, uint16_t port)
{
	return xmit_udp(c->swudp, buf, len, addr, port);
}

static int udp_open(uint32_t addr, uint16_t port, char *err)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(addr)};
	/*
	 * Blocking for sends: a round pushes a datagram to every host at
	 * once (8,192 on fattree:32), more than a send buffer holds, and
	 * waiting for room beats dropping; receives never wait
	 * (MSG_DONTWAIT). A larger buffer, where allowed, waits less. But
	 * never more than 100 ms a send: a send that cannot go is counted
	 * (send_errors) and the loop moves on, rounds and receives alike.
	 */
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), buf = 4 << 20;
	struct timeval tmo = {.tv_usec = 100000};

	if (fd >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &buf, sizeof(buf));
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tmo, sizeof(tmo));
	}
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		return fd;
	dard_fail(err, -errno, "Unable to listen on %s:%u: %s",
		  inet_ntoa(sa.sin_addr), port, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

static int add_fd(struct ctlr *c, int fd)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};

	return epoll_ctl(c->epfd, EPOLL_CTL_ADD, fd, &ev);
}

int loop_open(struct ctlr *c, char *err)
{
	struct sigaction sig = {.sa_handler = on_signal};
	uint64_t tick = c->o.interval_ns < c->o.query_ns ? c->o.interval_ns
							 : c->o.query_ns;
	struct itimerspec its = {0};

	c->xmit = xmit_host;
	c->xmit_switch = xmit_switch;
	c->udp = udp_open(c->o.listen, c->o.port, err);
	if (c->udp < 0)
		return -1;
	/* Replies come back to the query's source: any free port. */
	c->swudp = udp_open(c->o.listen, 0, err);
	if (c->swudp < 0)
		return -1;
	tick /= 4;
	tick = tick > 250000000ULL ? 250000000ULL : tick;
	tick = tick < 1000000ULL ? 1000000ULL : tick;
	its.it_interval.tv_sec = tick / 1000000000ULL;
	its.it_interval.tv_nsec = tick % 1000000000ULL;
	its.it_value = its.it_interval;
	c->epfd = epoll_create1(EPOLL_CLOEXEC);
	c->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (c->epfd < 0 || c->tfd < 0 ||
	    timerfd_settime(c->tfd, 0, &its, NULL) || add_fd(c, c->tfd) ||
	    add_fd(c, c->udp) || add_fd(c, c->swudp) || add_fd(c, c->ctl))
		return dard_fail(err, -errno,
				 "Unable to set up the event loop: %s",
				 strerror(errno));
	sigaction(SIGINT, &sig, NULL);
	sigaction(SIGTERM, &sig, NULL);
	signal(SIGPIPE, SIG_IGN);
	c->next_round_ns = c->next_query_ns = ctlr_now_ns();
	return 0;
}

void loop_close(struct ctlr *c)
{
	int *fds[] = {&c->tfd, &c->epfd, &c->udp, &c->swudp};
	unsigned i;

	for (i = 0; i < sizeof(fds) / sizeof(fds[0]); i++) {
		if (*fds[i] >= 0)
			close(*fds[i]);
		*fds[i] = -1;
	}
}

/* On the interval's grid, unless a whole one was missed. */
static int due(uint64_t *next, uint64_t every, uint64_t now)
{
	if (now < *next)
		return 0;
	*next += every;
	if (*next <= now)
		*next = now + every;
	return 1;
}

/* The datagrams waiting on fd, to the receiver of its kind. */
static void drain(struct ctlr *c, int fd)
{
	uint64_t start = ctlr_now_ns();
	int empty;

	if (fd != c->udp) {
		dard_rx_drain(&c->srx, fd, NULL);
		return;
	}
	dard_rx_drain(&c->hrx, fd, &empty);
	/* Everything sent before start is taken. */
	if (empty)
		c->drained_ns = start;
}

static void on_timer(struct ctlr *c)
{
	uint64_t now = ctlr_now_ns(), exp;

	if (read(c->tfd, &exp, sizeof(exp)) < 0 && errno != EAGAIN)
		log_warn("timerfd: %s", strerror(errno));
	if (c->nsw && due(&c->next_query_ns, c->o.query_ns, now))
		links_query(c, now);
	if (due(&c->next_round_ns, c->o.interval_ns, now)) {
		/* Reports that waited out a stall count before expiry. */
		drain(c, c->udp);
		ctlr_round(c, now);
	}
}

void loop_run(struct ctlr *c)
{
	while (!stop) {
		struct epoll_event evs[8];
		int i, n = epoll_wait(c->epfd, evs, 8,
				      dard_notify_watchdog(&c->notify,
							   ctlr_now_ns(), -1));

		for (i = 0; i < n; i++) {
			int fd = evs[i].data.fd;

			if (fd == c->tfd)
				on_timer(c);
			else if (fd == c->ctl)
				control_accept(c);
			else
				drain(c, fd);
		}
	}
}
