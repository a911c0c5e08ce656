// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for the switch query protocol's decoder, which reads
 * datagrams from the network. Input byte 0 picks how the rest is sent:
 * as it is (what anyone without the key can send: all refused before the
 * MAC or by it), or signed with the key first (what a holder of the key
 * could send, so that the fuzzer reaches the checks after the MAC).
 * Beyond not crashing, a datagram it accepts must encode back to exactly
 * the same bytes, padding included.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>

#include "proto.h"
#include "topo.h"

static const struct dard_keys keys = {.n = 1, .key = {{.id = 1, .k = {42}}}};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dard_msg msg;
	static uint8_t in[DARD_MSG_MAX + DARD_MAC_LEN], out[DARD_MSG_MAX];
	char err[DARD_ERR_MAX];
	size_t n;

	if (!size || size - 1 > DARD_MSG_MAX)
		return 0;
	memcpy(in, data + 1, size - 1);
	n = size - 1;
	if (data[0] & 1) {
		crypto_auth_hmacsha512256(in + n, in, n, keys.key[0].k);
		n += DARD_MAC_LEN;
	}
	if (dard_proto_decode(in, n, &keys, &msg, err)) {
		if (!err[0])
			abort(); /* every rejection says why */
		return 0;
	}
	if (!(data[0] & 1))
		abort(); /* nothing unsigned gets through */
	size = n;
	/* Every type encodes back to the same bytes. */
	switch (msg.type) {
	case DARD_MSG_QUERY:
		n = dard_proto_query(out, sizeof(out), &keys.key[0], msg.sender,
				     msg.seq, msg.ports, msg.count, msg.len);
		break;
	case DARD_MSG_WATCH:
		n = dard_proto_watch(out, sizeof(out), &keys.key[0], msg.sender,
				     msg.seq, msg.agent, msg.ports, msg.count,
				     msg.len);
		break;
	case DARD_MSG_REPLY:
		n = dard_proto_reply(out, sizeof(out), &keys.key[0], msg.sender,
				     msg.seq, msg.state, msg.count);
		break;
	case DARD_MSG_NOTICE:
		n = dard_proto_notice(out, sizeof(out), &keys.key[0],
				      msg.sender, msg.seq, msg.agent, msg.state,
				      msg.count);
		break;
	default:
		abort(); /* the decoder takes no other type */
	}
	if (n != size || memcmp(out, in, size))
		abort();
	return 0;
}
