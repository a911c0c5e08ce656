/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* dardctl deploy deterlab: the files a DeterLab-style testbed needs. */
#ifndef _DARD_DEPLOY_DETERLAB_H
#define _DARD_DEPLOY_DETERLAB_H

#include <stdint.h>
#include <stdio.h>

struct ctl;
struct dard_topo;
struct dard_plan;

/*
 * Where a node's set-up script finds its files (shell words; $here is
 * the script's directory) and what its comment says of them.
 */
struct setup_layout {
	const char *by; /* the deploy back-end that wrote it */
	const char *conf, *conf_doc;
	const char *key, *key_doc;
	const char *key_install; /* lines run before anything else, or "" */
};

/* Writes DIR/dard.ns and DIR/setup/; CTL_ERR after printing why. */
int deploy_deterlab(struct ctl *c, const char *dir, uint32_t rate,
		    const char *os, const char *setup_dir);

/*
 * Node n's set-up script (interfaces claimed by address, tables,
 * addresses, limits at rate Mbit/s unless 0, its daemon started).
 */
void deploy_write_setup(FILE *f, const struct dard_topo *t,
			const struct dard_plan *p, uint32_t n, uint32_t rate,
			const struct setup_layout *l);

/* SUB/dard.conf, the host configuration; -1 after printing why. */
int deploy_write_config(const struct dard_topo *t, const struct dard_plan *p,
			const char *sub);

#endif /* _DARD_DEPLOY_DETERLAB_H */
