// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Telling watchers at once when a port's link goes down or comes up
 * (notice.h; Documentation/protocol.md, "Watches and notices").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "err.h"
#include "nl.h"
#include "notice.h"
#include "probe.h"

int sw_port_up(const struct sw_agent *a, const struct sw_port *p)
{
	struct ifreq ifr = {0};

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", p->ifname);
	if (ioctl(a->ioctl_sock, SIOCGIFFLAGS, &ifr))
		return 0;
	/* A carrier up whose peer no longer answers: down all the same. */
	return (ifr.ifr_flags & (IFF_UP | IFF_RUNNING)) ==
		       (IFF_UP | IFF_RUNNING) &&
	       !sw_probe_port_down(a, (unsigned)(p - a->port));
}

int sw_notice_open(struct sw_agent *a, char *err)
{
	unsigned i;

	a->watchers = calloc(1, sizeof(*a->watchers));
	a->changed = calloc(a->nports ? a->nports : 1, 1);
	if (!a->watchers || !a->changed ||
	    sw_watchers_init(a->watchers, a->nports)) {
		free(a->watchers);
		free(a->changed);
		a->watchers = NULL;
		a->changed = NULL;
		return dard_fail(err, -ENOMEM, "out of memory");
	}
	a->link_ev = sw_nl_open(RTMGRP_LINK, err);
	if (a->link_ev < 0)
		return a->link_ev;
	for (i = 0; i < a->nports; i++)
		a->port[i].told = a->port[i].up = sw_port_up(a, &a->port[i]);
	return 0;
}

void sw_notice_close(struct sw_agent *a)
{
	if (a->link_ev >= 0)
		close(a->link_ev);
	a->link_ev = -1;
	if (a->watchers)
		sw_watchers_free(a->watchers);
	free(a->watchers);
	free(a->changed);
	a->watchers = NULL;
	a->changed = NULL;
}

void sw_notice_watch(struct sw_agent *a, const struct dard_msg *msg,
		     uint32_t addr, uint16_t port, uint64_t now)
{
	if (!a->watchers)
		return;
	if (sw_watchers_take(a->watchers, a->port, a->nports, msg, addr, port,
			     now, DARD_PROTO_LEASE_US * 1000)) {
		a->watch_full++;
		dard_log_ratelimited(
			&a->unanswered, now, DARD_LOG_WARN,
			"watch of %08x not kept: no room among its %d slots",
			msg->sender, SW_WATCHERS_PROBES);
		return;
	}
	a->watches++;
}

void sw_notice_events(struct sw_agent *a, uint64_t now)
{
	char buf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));

	/* What changed is read from the ports: the events only wake us. */
	while (recv(a->link_ev, buf, sizeof(buf), MSG_DONTWAIT) > 0 ||
	       errno == EINTR || errno == ENOBUFS)
		;
	sw_notify(a, now);
}

static uint64_t wall_us(const struct sw_agent *a)
{
	return a->wall_us ? a->wall_us() : dard_clock_ns(CLOCK_REALTIME) / 1000;
}

/* Slot i's watcher's notice of the changed ports it watches, if any. */
static int tell(struct sw_agent *a, unsigned i, uint64_t now)
{
	const struct sw_watcher *w = &a->watchers->w[i];
	static struct dard_port_state st[DARD_MSG_PORTS_MAX];
	static uint8_t buf[DARD_MSG_MAX];
	const struct dard_key *k = dard_keys_find(a->keys, w->key_id);
	struct sockaddr_in to = {.sin_family = AF_INET,
				 .sin_port = htons(w->port),
				 .sin_addr.s_addr = htonl(w->addr)};
	unsigned n = sw_watcher_notice(a->watchers, i, a->port, a->nports,
				       a->changed, st);
	size_t len;

	/* A key rotated out since the watch: it renews in the new one. */
	if (!n || !k)
		return 0;
	a->notice_seq = dard_proto_next_seq(a->notice_seq, wall_us(a));
	len = dard_proto_notice(buf, sizeof(buf), k, w->sender, a->notice_seq,
				a->mgmt, st, n);
	if (!len)
		return 0;
	if (sendto(a->sock, buf, len, 0, (struct sockaddr *)&to, sizeof(to)) <
	    0) {
		a->send_errors++;
		dard_log_ratelimited(&a->send_failed, now, DARD_LOG_WARN,
				     "notice to %s failed: %s",
				     inet_ntoa(to.sin_addr), strerror(errno));
		return 0;
	}
	a->notice_bytes += len;
	return 1;
}

unsigned sw_notify(struct sw_agent *a, uint64_t now)
{
	unsigned i, sent = 0, nchanged = 0;

	if (!a->watchers)
		return 0;
	for (i = 0; i < a->nports; i++) {
		struct sw_port *p = &a->port[i];

		p->up = sw_port_up(a, p);
		a->changed[i] = p->up != p->told;
		nchanged += a->changed[i];
		if (a->changed[i])
			log_info("port %u (%s): link %s%s", p->num, p->ifname,
				 p->up ? "up" : "down",
				 sw_probe_port_down(a, i)
					 ? " (its peer does not answer echoes)"
					 : "");
		p->told = p->up;
	}
	if (!nchanged)
		return 0;
	for (i = 0; i < SW_WATCHERS_SLOTS; i++)
		if (a->watchers->w[i].until > now)
			sent += tell(a, i, now);
	a->notices += sent;
	log_debug("%u ports changed: %u notices", nchanged, sent);
	return sent;
}
