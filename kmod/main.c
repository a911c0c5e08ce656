// SPDX-License-Identifier: GPL-2.0
/*
 * dard.ko: a multipath IP-in-IP netdevice configured over generic netlink,
 * the kernel's alternative to the BPF datapath (Documentation/kmod.md).
 * This file only wires the parts up, in order, and down in reverse.
 */
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <net/genetlink.h>
#include <net/rtnetlink.h>
#include "device.h"
#include "netlink.h"
#include "receive.h"
#include "selftest.h"

static int __init dard_mod_init(void)
{
	int ret;

	/* If asked, before anything registers: a failure loads nothing. */
	ret = dard_selftest_init();
	if (ret < 0)
		return ret;
	/* The family first: a device's events go out through it. */
	ret = dard_netlink_init();
	if (ret < 0)
		return ret;
	ret = dard_device_init();
	if (ret < 0)
		goto err_netlink;
	ret = dard_receive_init();
	if (ret < 0)
		goto err_device;
	pr_info("DARD multipath IP-in-IP datapath loaded\n");
	return 0;

err_device:
	dard_device_uninit();
err_netlink:
	dard_netlink_uninit();
	return ret;
}

static void __exit dard_mod_exit(void)
{
	dard_receive_uninit();
	dard_device_uninit();
	dard_netlink_uninit();
	/* Every kfree_rcu of a flow, path list or alias set has run. */
	rcu_barrier();
}

module_init(dard_mod_init);
module_exit(dard_mod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("DARD multipath IP-in-IP datapath");
MODULE_AUTHOR("the dard project");
/*
 * No MODULE_ALIAS_RTNL_LINK or MODULE_ALIAS_GENL_FAMILY: the kernel would
 * load us for anyone, rtnetlink for the root of any user namespace
 * (`unshare -Urn ip link add d0 type dard`) and generic netlink for any
 * user who asks for the family by name. modprobe dard, or the units, load
 * it (Documentation/kmod.md, "Permissions").
 */
