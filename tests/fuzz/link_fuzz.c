// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for the datapath's reading of the fabric interface's
 * IPv4 GSO and GRO sizes (daemon/dp/dp_link.c, libmnl): what one recv()
 * hands it, each message the answer's reader is given as mnl_cb_run
 * gives it (types from NLMSG_MIN_TYPE up).
 * Beyond not crashing: the reader keeps going or fails, no more.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dp_link.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* recv() fills an aligned buffer; libFuzzer's data is not. */
	static uint32_t in[DARD_RT_BUF / 4];
	const struct nlmsghdr *nlh = (const void *)in;
	struct dard_link_sizes s = {};
	int len = size, ret;

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
		if (nlh->nlmsg_type < NLMSG_MIN_TYPE)
			continue;
		ret = dard_dp_link_sizes_cb(nlh, &s);
		if (ret != MNL_CB_OK && ret != MNL_CB_ERROR)
			abort();
	}
	return 0;
}
