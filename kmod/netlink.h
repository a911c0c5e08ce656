/* SPDX-License-Identifier: GPL-2.0 */
/* The generic netlink family DARD_GENL_NAME. */
#ifndef _DARD_NETLINK_H
#define _DARD_NETLINK_H

#include "flows.h"

int dard_netlink_init(void);
void dard_netlink_uninit(void);
/* Multicasts one event about f; 0 once delivered to a listener. */
int dard_netlink_event(struct dard_dev *dd, const struct dard_kflow *f,
		       u32 type, u64 now, gfp_t gfp);

#endif /* _DARD_NETLINK_H */
