/* SPDX-License-Identifier: GPL-2.0 */
/* What the family's two files, netlink.c and netlink_flow.c, share. */
#ifndef _DARD_NETLINK_FLOW_H
#define _DARD_NETLINK_FLOW_H

#include <net/genetlink.h>
#include "device.h"

enum { DARD_MCGRP_EVENTS };

extern struct genl_family dard_family;

/* Every command's policy begins with the device's name. */
#define DEV_NAME_POLICY                                                        \
	[DARD_A_IFINDEX] = {.type = NLA_U32}, [DARD_A_IFNAME] = {              \
						      .type = NLA_NUL_STRING,  \
						      .len = IFNAMSIZ - 1}

/* The dard device attrs name in net; the caller holds the RTNL. */
struct dard_dev *dard_netlink_lookup(struct net *net, struct nlattr **attrs,
				     struct netlink_ext_ack *extack);

/* -EINVAL, the attribute's type and a message if the request lacks it. */
#define need(info, attr)                                                       \
	({                                                                     \
		int __r = 0;                                                   \
		if (GENL_REQ_ATTR_CHECK(info, attr)) {                         \
			NL_SET_ERR_MSG((info)->extack, #attr " needed");       \
			__r = -EINVAL;                                         \
		}                                                              \
		__r;                                                           \
	})

/* MOVE_FLOW's and DEL_FLOW's policy, and their handlers. */
extern const struct nla_policy dard_flow_op_policy[DARD_A_FLOW + 1];
int dard_netlink_move_flow(struct sk_buff *skb, struct genl_info *info);
int dard_netlink_del_flow(struct sk_buff *skb, struct genl_info *info);
/* The GET_FLOW dump. */
int dard_netlink_dump_flows(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _DARD_NETLINK_FLOW_H */
