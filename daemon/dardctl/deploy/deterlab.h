/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* dardctl deploy deterlab: the files a DeterLab-style testbed needs. */
#ifndef _DARD_DEPLOY_DETERLAB_H
#define _DARD_DEPLOY_DETERLAB_H

#include <stdint.h>

struct ctl;

/* Writes DIR/dard.ns and DIR/setup/; CTL_ERR after printing why. */
int deploy_deterlab(struct ctl *c, const char *dir, uint32_t rate,
		    const char *os, const char *setup_dir);

#endif /* _DARD_DEPLOY_DETERLAB_H */
