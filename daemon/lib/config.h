/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The host configuration file: one per deployment, kept by every host
 * (DARD paper, section 3.1). A topology file is the same format with the
 * optional parts left out. Line-based; '#' starts a comment:
 *
 *   topology NAME                      free-form label
 *   capacity MBIT                      default link capacity
 *   levels LEVEL...                    switch levels, roots first
 *   base PREFIX                        alias space (default 10.0.0.0/8)
 *   mode auto|paper|compact            alias field layout
 *   ids PREFIX                         host IDs (default 172.16.0.0/16)
 *   linknet PREFIX                     /31 per link (172.20.0.0/14)
 *   mgmtnet PREFIX                     management LAN (172.24.0.0/16)
 *   family ipv4|ipv6|dual              address families (default ipv4)
 *   base6 PREFIX                       IPv6 alias space (fd00:da::/48)
 *   ids6 PREFIX                        IPv6 host IDs (fd00:da:1::/64)
 *   outer auto|ipv4|ipv6               ID traffic's outer header
 *   switch NAME LEVEL [mgmt ADDR]
 *   host NAME [id ADDR] [mgmt ADDR]
 *   link UPPER:PORT LOWER[:PORT] [capacity MBIT]
 *   alias HOST ADDR...                 checked against the plan
 *
 * Names are declared before links use them. Pure: parses a buffer and
 * renders into a dard_buf.
 */
#ifndef _DARD_CONFIG_H
#define _DARD_CONFIG_H

#include <stddef.h>

#include "addr.h"
#include "buf.h"
#include "topo.h"

struct dard_config {
	struct dard_topo *topo;
	struct dard_plan *plan;
	struct dard_plan_opts opts;
};

/* Which of the file's address options an override replaces. */
enum dard_opt_flags {
	DARD_OPT_BASE = 1U << 0,
	DARD_OPT_MODE = 1U << 1,
	DARD_OPT_IDS = 1U << 2,
	DARD_OPT_LINKS = 1U << 3,
	DARD_OPT_MGMT = 1U << 4,
	DARD_OPT_FAMILY = 1U << 5,
	DARD_OPT_BASE6 = 1U << 6,
	DARD_OPT_IDS6 = 1U << 7,
	DARD_OPT_OUTER = 1U << 8,
};

/*
 * Parses text and builds the topology and plan; the options in over named
 * by mask replace the file's. Returns 0, or a negative errno with the
 * message in err (DARD_ERR_MAX) and its line in *err_line (0: the whole
 * file); either may be NULL.
 */
int dard_config_parse(struct dard_config *cfg, const char *text, size_t len,
		      const struct dard_plan_opts *over, unsigned mask,
		      unsigned *err_line, char *err);
/* Copies the options named by mask from src to dst. */
void dard_plan_opts_apply(struct dard_plan_opts *dst,
			  const struct dard_plan_opts *src, unsigned mask);
void dard_config_free(struct dard_config *cfg);

enum dard_config_flags {
	DARD_CONFIG_F_PLAN = 1U << 0,	 /* address options, IDs, mgmt */
	DARD_CONFIG_F_ALIASES = 1U << 1, /* alias lines */
};

void dard_config_write(const struct dard_topo *t, const struct dard_plan *p,
		       unsigned flags, struct dard_buf *b);

#endif /* _DARD_CONFIG_H */
