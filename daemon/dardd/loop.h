/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The event loop (loop.c): on top, calling every part.
 */
#ifndef _DARD_DARDD_LOOP_H
#define _DARD_DARDD_LOOP_H

struct dardd;

/* loop.c: the epoll loop over timer, query, control and event sockets. */
int loop_init(struct dardd *d);
void loop_fini(struct dardd *d);
void loop_run(struct dardd *d);

#endif /* _DARD_DARDD_LOOP_H */
