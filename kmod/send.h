/* SPDX-License-Identifier: GPL-2.0 */
/* Transmit: inner IPv4 to an ID, out as IP-in-IP on the flow's path. */
#ifndef _DARD_SEND_H
#define _DARD_SEND_H

#include <linux/netdevice.h>

netdev_tx_t dard_xmit(struct sk_buff *skb, struct net_device *dev);

#endif /* _DARD_SEND_H */
