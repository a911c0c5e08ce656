/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Reading an experiment directory (Documentation/experiments.md,
 * "Fidelity, statistics and the model") into struct exp: meta, the
 * topology, each run's results and model, then each scheduler's and
 * the calibration's fidelity (samples.c, flows.c). A file that is not
 * there leaves what needs it not judged, with a note; a bad one is
 * refused.
 */
#ifndef _DARD_EXP_DIR_H
#define _DARD_EXP_DIR_H

#include <stddef.h>

#include "exp.h"

/*
 * Reads and judges DIR into e: 0, or a negative errno with err
 * (EXP_ERR_MAX) set, "FILE:LINE: why" for a bad line.
 */
int exp_load(struct exp *e, const char *dir, char *err);
void exp_free(struct exp *e);

/*
 * Reads path whole into *buf (NUL-terminated; free it): 0, -ENOENT when
 * it is not there (err untouched), or a negative errno with err set.
 */
int exp_file(const char *path, char **buf, size_t *len, char *err);

/*
 * Reads the CSV file at path (csv.h's exp_csv_read): 0, -ENOENT when it
 * is not there, or a negative errno with err set.
 */
int exp_csv_file(struct exp_csv *c, const char *path, const char *const *cols,
		 unsigned ncols, int header, char *err);

/* dir/name into out (PATH_MAX): 0, or -ENAMETOOLONG with err set. */
int exp_path(char *out, const char *dir, const char *name, char *err);

#endif /* _DARD_EXP_DIR_H */
