// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for the switch query protocol's decoder, which reads
 * datagrams from the network. Beyond not crashing, a datagram it accepts
 * must encode back to exactly the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"
#include "topo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dard_msg msg;
	static uint8_t out[DARD_MSG_MAX];
	char err[DARD_ERR_MAX];
	size_t n;

	if (dard_proto_decode(data, size, &msg, err)) {
		if (!err[0])
			abort(); /* every rejection says why */
		return 0;
	}
	n = msg.type == DARD_MSG_QUERY
		    ? dard_proto_query(out, sizeof(out), msg.seq, msg.ports,
				       msg.count)
		    : dard_proto_reply(out, sizeof(out), msg.seq, msg.state,
				       msg.count);
	if (n != size || memcmp(out, data, size))
		abort();
	return 0;
}
