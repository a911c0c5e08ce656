/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The control socket (ctl.c): dardctl's questions, and sched set.
 */
#ifndef _DARD_DARDD_CTL_H
#define _DARD_DARDD_CTL_H

struct dardd;
struct json_object;

/* ctl.c: the control socket, answering dardctl. */
int ctl_init(struct dardd *d);
void ctl_fini(struct dardd *d);
void ctl_accept(struct dardd *d);
/* The answer to one command that reads, or NULL for an unknown one. */
struct json_object *ctl_answer(struct dardd *d, const char *cmd);
/*
 * The answer to a command line (words, dard_ctl_line's), doing what it
 * says; NULL with the refusal (enum dard_ctl_refusal) in *why.
 */
struct json_object *ctl_command(struct dardd *d, const char *line, int *why);

#endif /* _DARD_DARDD_CTL_H */
