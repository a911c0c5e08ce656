// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's one event loop: epoll over a timer (queries, rounds and walks
 * when they are due), the query, controller and share sockets, the
 * control socket and the datapath's event descriptor, until SIGINT or
 * SIGTERM.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>

#include "clock.h"
#include "dardd_priv.h"
#include "controller.h"
#include "ctl.h"
#include "flows.h"
#include "io.h"
#include "loop.h"
#include "monitors.h"
#include "opts.h"
#include "query.h"
#include "schedule.h"
#include "sharing.h"
#include "log.h"

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The timer's work: queries, rounds and walks that are due. */
static void loop_tick(struct dardd *d, uint64_t now)
{
	struct mon *mon;

	if (now >= d->next_query_ns) {
		/* On the interval's grid, unless a whole one was missed. */
		d->next_query_ns += d->o.query_ns;
		if (d->next_query_ns <= now)
			d->next_query_ns = now + d->o.query_ns;
		query_send(d, now);
	}
	for (mon = d->mons; mon; mon = mon->next)
		if (now >= mon->next_round_ns)
			schedule(d, mon, now);
	schedule_pvlb(d, now);
	if (now >= d->next_sweep_ns) {
		d->next_sweep_ns = now + d->o.sweep_ns;
		flows_sweep(d, now);
	}
	controller_tick(d, now);
}

static void on_timer(struct dardd *d)
{
	uint64_t now = dardd_now_ns(), expirations;

	if (read(d->tfd, &expirations, sizeof(expirations)) < 0 &&
	    errno != EAGAIN)
		log_warn("timerfd: %s", strerror(errno));
	loop_tick(d, now);
}

/* Ticks fine enough for the query interval, at most 4 per second. */
static uint64_t tick_ns(const struct dardd_opts *o)
{
	uint64_t tick = o->query_ns / 4;

	if (o->schedule_ns / 4 < tick)
		tick = o->schedule_ns / 4;
	if (o->controller && o->cp_report_ns / 4 < tick)
		tick = o->cp_report_ns / 4;
	if (tick > 250000000ULL)
		tick = 250000000ULL;
	if (tick < 10000000ULL)
		tick = 10000000ULL;
	return tick;
}

static int add_fd(struct dardd *d, int fd)
{
	struct epoll_event ev = {.events = EPOLLIN, .data.fd = fd};

	return epoll_ctl(d->epfd, EPOLL_CTL_ADD, fd, &ev);
}

/* The sockets that are open (io.h): the query socket always. */
static int add_socks(struct dardd *d)
{
	int s;

	for (s = 0; s < __DARDD_SOCKS; s++)
		if (d->io.fd[s] >= 0 && add_fd(d, d->io.fd[s]))
			return -1;
	return 0;
}

/* The loop over the sockets query_open, controller_open, ctl_init opened. */
int loop_init(struct dardd *d)
{
	struct sigaction sig = {.sa_handler = on_signal};
	struct itimerspec its = {0};
	uint64_t tick = tick_ns(&d->o);
	int efd;

	d->tfd = -1;
	d->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (d->epfd < 0) {
		log_err("Unable to set up the event loop: %s", strerror(errno));
		return -1;
	}
	efd = d->ops->event_fd(d->dp, flows_on_event, d);
	if (efd < 0) {
		log_err("Unable to read the datapath's events: %s",
			strerror(-efd));
		return -1;
	}
	its.it_interval.tv_sec = tick / 1000000000ULL;
	its.it_interval.tv_nsec = tick % 1000000000ULL;
	its.it_value = its.it_interval;
	d->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (d->tfd < 0 || timerfd_settime(d->tfd, 0, &its, NULL) ||
	    add_fd(d, d->tfd) || add_fd(d, d->ctl) || add_fd(d, efd) ||
	    add_socks(d)) {
		log_err("Unable to set up the event loop: %s", strerror(errno));
		return -1;
	}
	sigaction(SIGINT, &sig, NULL);
	sigaction(SIGTERM, &sig, NULL);
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

void loop_fini(struct dardd *d)
{
	if (d->tfd >= 0)
		close(d->tfd);
	if (d->epfd >= 0)
		close(d->epfd);
	d->tfd = d->epfd = -1;
}

void loop_run(struct dardd *d)
{
	while (!stop) {
		struct epoll_event evs[8];
		int i, n = epoll_wait(d->epfd, evs, 8,
				      dard_notify_watchdog(&d->notify,
							   dardd_now_ns(), -1));

		for (i = 0; i < n; i++) {
			int fd = evs[i].data.fd;

			if (fd == d->tfd)
				on_timer(d);
			else if (fd == d->io.fd[DARDD_SOCK_QUERY])
				query_receive(d);
			else if (fd == d->io.fd[DARDD_SOCK_CONTROLLER])
				controller_receive(d);
			else if (fd == d->io.fd[DARDD_SOCK_SHARE])
				share_receive(d);
			else if (fd == d->ctl)
				ctl_accept(d);
			else
				d->ops->poll(d->dp, flows_on_event, d, 0);
		}
		/* Elephants that began or ended: one report for the batch. */
		controller_flush(d);
	}
}
