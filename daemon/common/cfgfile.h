/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Reading the host configuration file from disk (libdard parses it). */
#ifndef _DARD_CFGFILE_H
#define _DARD_CFGFILE_H

#include "config.h"

#define DARD_CONFIG_DEFAULT "/etc/dard/dard.conf"
/*
 * The largest configuration file read: a k=48 fat tree's, every alias of
 * its 27,648 hosts listed, is 212 MiB; a stream without end (-t
 * /dev/zero) is refused instead of read until memory runs out.
 */
enum { DARD_CONFIG_MAX = 256 << 20 };

/* The file to read: arg if given, else $DARD_CONFIG, else the default. */
const char *dard_config_path(const char *arg);

/*
 * Reads and parses path into cfg. On failure returns a negative errno and
 * writes "PATH:LINE: what", "PATH: what" or "Unable to open/read `PATH':
 * why" into err (DARD_ERR_MAX + 64); -EFBIG past DARD_CONFIG_MAX bytes.
 */
int dard_config_read(struct dard_config *cfg, const char *path,
		     const struct dard_plan_opts *over, unsigned mask,
		     char *err, size_t errlen);

/* How dard_topo_load builds what it loads. */
struct dard_load_opts {
	uint32_t mbps;			   /* a generated tree's links */
	const struct dard_plan_opts *over; /* NULL: the defaults */
	unsigned mask; /* which of *over the user chose (DARD_OPT_*) */
	/* A generated tree too big for the default base gets a wider one. */
	int wide_base;
};

/*
 * The one topology loader of dardctl and dard-sim: spec is a generator
 * spec (fattree:P, clos:DI,DA[,HOSTS], 3tier[:PODS]; dard_gen_is_spec) or
 * a configuration file, which dard_config_read reads with over and mask.
 *
 * The base prefix: a file's own unless mask has DARD_OPT_BASE, then
 * over's. A generated tree is addressed with *over (or the defaults),
 * base 10.0.0.0/8 unless chosen; with wide_base, a tree of more than
 * 8192 hosts whose base nobody chose gets 16.0.0.0/4 instead, as 10/8
 * has too few alias bits for it. dard-sim sets wide_base and runs any
 * tree; dardctl does not, so that a base too small is reported and
 * --base chooses (the two programs' results before they shared this).
 *
 * Returns 0, or a negative errno with err (errlen bytes, DARD_ERR_MAX +
 * PATH_MAX is enough) set to "Invalid topology: ...", "Unable to address
 * SPEC: ..." or dard_config_read's message, and nothing in cfg to free.
 */
int dard_topo_load(struct dard_config *cfg, const char *spec,
		   const struct dard_load_opts *o, char *err, size_t errlen);

#endif /* _DARD_CFGFILE_H */
