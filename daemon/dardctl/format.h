/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Output forms the objects share: the format keyword, a flow's ends. */
#ifndef _DARD_FORMAT_H
#define _DARD_FORMAT_H

struct ctl;
struct dard_flow_key;

/*
 * `format json' turns JSON on as -j does; text_only (ip, csv) is a format
 * JSON cannot carry. CTL_OK, or CTL_USAGE after printing why.
 */
int ctl_format(struct ctl *c, const char *format, const char *text_only);
/* A flow's ends, ` SRC:SPORT DST:DPORT' or src/sport/dst/dport in JSON. */
void ctl_print_ends(const struct dard_flow_key *k);

#endif /* _DARD_FORMAT_H */
