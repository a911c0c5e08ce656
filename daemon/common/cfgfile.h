/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Reading the host configuration file from disk (libdard parses it). */
#ifndef _DARD_CFGFILE_H
#define _DARD_CFGFILE_H

#include "config.h"

#define DARD_CONFIG_DEFAULT "/etc/dard/dard.conf"

/* The file to read: arg if given, else $DARD_CONFIG, else the default. */
const char *dard_config_path(const char *arg);

/*
 * Reads and parses path into cfg. On failure returns a negative errno and
 * writes "PATH:LINE: what" or "PATH: what" into err (DARD_ERR_MAX + 64).
 */
int dard_config_read(struct dard_config *cfg, const char *path,
		     const struct dard_plan_opts *over, unsigned mask,
		     char *err, size_t errlen);

#endif /* _DARD_CFGFILE_H */
