// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for dard-switchd's reading of rtnetlink
 * (daemon/switchd/nl.c, load.c): what one recv() hands it, a datagram of
 * the RTM_GETLINK dump whose IFLA_STATS64 tx_bytes are the ports' load,
 * or an ack or error to a route or rule added (routes.c reads no more).
 * Beyond not crashing: the walk ends on an errno, 0, or more to come; a
 * port is found only with a sample at the time given.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "nl.h"

/* The dump's sequence number; the seeds carry it. */
enum { SEQ = 7, NPORTS = 3 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* recv() fills an aligned buffer; libFuzzer's data is not. */
	static uint32_t in[32768 / 4];
	static const struct sw_port port[NPORTS] = {
		{.num = 1, .ifindex = 2, .ifname = "eth1"},
		{.num = 2, .ifindex = 3, .ifname = "eth2"},
		{.num = 3, .ifindex = 9, .ifname = "sw1-eth3"},
	};
	struct sw_tx cur[NPORTS] = {};
	uint8_t found[NPORTS] = {};
	unsigned i;
	int ret;

	if (size > sizeof(in))
		return 0;
	memcpy(in, data, size);
	ret = sw_load_walk(in, size, SEQ, port, NPORTS, 1000, cur, found);
	if (ret > 1 || ret < -4095)
		abort();
	for (i = 0; i < NPORTS; i++)
		if (found[i] > 1 || (found[i] && cur[i].ns != 1000))
			abort();
	return 0;
}
