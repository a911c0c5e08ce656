/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The files deploy writes: one place that creates directories, opens,
 * and closes with every error checked, each failure reported once on
 * stderr with the path that failed.
 */
#ifndef _DARD_DEPLOY_OUT_H
#define _DARD_DEPLOY_OUT_H

#include <stdio.h>

struct out {
	FILE *f;
	char path[4096];
};

/* mkdir DIR (an existing one is fine); -1 after printing why. */
int out_mkdir(const char *dir);
/*
 * Opens DIR/NAME (truncating), chmod'ed to mode unless 0; -1 after
 * printing why. Write to o->f, then out_close().
 */
int out_open(struct out *o, const char *dir, const char *name, int mode);
/* Closes o->f; -1 after printing why if any write or the close failed. */
int out_close(struct out *o);

#endif /* _DARD_DEPLOY_OUT_H */
