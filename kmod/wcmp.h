/* SPDX-License-Identifier: GPL-2.0 */
/* A destination's path weights for new flows: its WCMP slot table. */
#ifndef _DARD_WCMP_H
#define _DARD_WCMP_H

#include "device.h"

/* Weights w of the destination's n paths (w NULL: even again), as
 * DARD_CMD_SET_WEIGHTS; -ENOENT, or -EINVAL with the reason in extack. */
int dard_dest_set_weights(struct dard_dev *dd, __be32 id, const u16 *w, u32 n,
			  struct netlink_ext_ack *extack);
/* Each of a weighted destination's paths' slots into count (*n of them);
 * 1 if weighted, 0 if even, -ENOENT. Under the RTNL. */
int dard_dest_weights(struct dard_dev *dd, __be32 id, u16 *count, u32 *n);

#endif /* _DARD_WCMP_H */
