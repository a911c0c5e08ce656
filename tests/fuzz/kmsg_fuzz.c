// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for the kmod backend's reading of the module's
 * generic netlink replies (daemon/dp/dp_kmod_msg.c): what one recv()
 * hands it, a run of messages, each given to every reader (flow dump,
 * event, device, weights, the controller's family reply, an error's
 * reason).
 * Beyond not crashing: a flow taken has only known flag bits, an event a
 * known type, the key and path written back as a request read back the
 * same, and an error is an errno with a terminated reason.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dp_kmod.h"

static void check_flow(const struct dard_flow_key *k, const struct dard_flow *f)
{
	static char out[DARD_KMSG_MAX];
	struct dard_flow_key k2;
	struct dard_flow f2;
	struct nlmsghdr *nlh;
	uint32_t ifindex;

	if (f->flags & ~__DARD_FLOW_F_ALL)
		abort();
	nlh = dard_kmsg_new(out, 0x20, DARD_CMD_GET_FLOW, 0, 1);
	dard_kmsg_put_flow(nlh, k, &f->path);
	if (dard_kmsg_flow(nlh, &k2, &f2, &ifindex) || ifindex ||
	    memcmp(k, &k2, sizeof(k2)) ||
	    memcmp(&f->path, &f2.path, sizeof(f2.path)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* recv() fills an aligned buffer; libFuzzer's data is not. */
	static uint32_t in[DARD_KMSG_MAX / 4];
	const struct nlmsghdr *nlh = (const void *)in;
	int len = size;
	struct dard_flow_key k;
	struct dard_flow f;
	struct dard_event ev;
	struct dard_kdev kd;
	uint32_t ifindex, grp;
	uint16_t family, slots[DARD_PATHS_MAX];
	unsigned n;
	char why[64];
	int ret;

	if (size > sizeof(in))
		return 0;
	memcpy(in, data, size);
	/*
	 * As mnl_cb_run walks what recv() returned, but for lengths of 2 GiB
	 * and more, which mnl_nlmsg_ok takes (it compares them as int) and
	 * the kernel cannot send.
	 */
	for (; mnl_nlmsg_ok(nlh, len) && nlh->nlmsg_len <= (uint32_t)len;
	     nlh = mnl_nlmsg_next(nlh, &len)) {
		if (!dard_kmsg_flow(nlh, &k, &f, &ifindex))
			check_flow(&k, &f);
		if (!dard_kmsg_event(nlh, &ev, &ifindex) &&
		    ev.type != DARD_EVENT_ELEPHANT && ev.type != DARD_EVENT_END)
			abort();
		dard_kmsg_device(nlh, &kd);
		/* Weights: a whole number of them, one path at least. */
		ret = dard_kmsg_weights(nlh, slots, &n);
		if (ret > 1 || (ret == 1 && (!n || n > DARD_PATHS_MAX)))
			abort();
		/* An errno or -EBADMSG, and a string. */
		ret = dard_kmsg_error(nlh, why, sizeof(why));
		if (ret > 0 || ret < -4095 || !memchr(why, 0, sizeof(why)))
			abort();
		dard_kmsg_family(nlh, &family, &grp);
	}
	return 0;
}
