/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-switchd's notices (proto.h): the kernel's link events heard, the
 * ports looked at, and each watcher whose watched ports changed told at
 * once, in one datagram (watchers.h keeps who watches what).
 */
#ifndef _DARD_SWITCHD_NOTICE_H
#define _DARD_SWITCHD_NOTICE_H

#include <stdint.h>

#include "answer.h"

/* Whether port p's link is up and running (an ioctl). */
int sw_port_up(const struct sw_agent *a, const struct sw_port *p);
/*
 * The watchers' table and an rtnetlink socket for link events; the ports'
 * links as they are now, what a notice compares with. err (DARD_ERR_MAX).
 */
int sw_notice_open(struct sw_agent *a, char *err);
void sw_notice_close(struct sw_agent *a);
/*
 * Keeps the watch msg, authentic and fresh, from addr:port: before it is
 * answered, and though it is not (the agent still counting).
 */
void sw_notice_watch(struct sw_agent *a, const struct dard_msg *msg,
		     uint32_t addr, uint16_t port, uint64_t now);
/* Reads the link events waiting, then sw_notify(). */
void sw_notice_events(struct sw_agent *a, uint64_t now);
/*
 * Looks at every port's link; if any changed since the last look, sends
 * each live watcher of a changed port a notice of its changed ports.
 * Returns the notices sent.
 */
unsigned sw_notify(struct sw_agent *a, uint64_t now);

#endif /* _DARD_SWITCHD_NOTICE_H */
