// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for the SHARE decoder, which reads datagrams from the
 * management network in dardd. Input byte 0 picks how the rest is sent:
 * as it is (what anyone without the key can send: all refused before
 * the MAC or by it), or signed with the key first (what a holder of the
 * key could send, so that the fuzzer reaches the checks after the MAC);
 * bit 1 checks the records against a fat-tree's ToR scope. A datagram
 * it accepts must encode back to exactly the same bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>

#include "gen.h"
#include "share.h"

static const struct dard_keys keys = {.n = 1, .key = {{.id = 1, .k = {42}}}};

static const struct dard_share_scope *scope(void)
{
	static struct dard_share_scope sc;
	static struct dard_topo *t;
	char err[DARD_ERR_MAX];

	if (!t) {
		t = dard_gen_spec("fattree:4", 1000, err);
		if (!t || dard_share_scope_init(&sc, t,
						dard_topo_tor(t, t->hosts[0])))
			abort();
	}
	return &sc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct dard_share_msg msg;
	/* Longer than a message may be: those are refused before the MAC. */
	static uint8_t in[2 * DARD_SHARE_MSG_MAX + DARD_SHARE_MAC_LEN],
		out[DARD_SHARE_MSG_MAX];
	const struct dard_share_scope *sc = NULL;
	char err[DARD_ERR_MAX];
	size_t n;

	if (!size || size - 1 > 2 * DARD_SHARE_MSG_MAX)
		return 0;
	memcpy(in, data + 1, size - 1);
	n = size - 1;
	if (data[0] & 1) {
		crypto_auth_hmacsha512256(in + n, in, n, keys.key[0].k);
		n += DARD_SHARE_MAC_LEN;
	}
	if (data[0] & 2)
		sc = scope();
	err[0] = 0;
	if (dard_share_decode(in, n, &keys, sc, &msg, err)) {
		if (!err[0])
			abort(); /* every rejection says why */
		return 0;
	}
	if (!(data[0] & 1))
		abort(); /* nothing unsigned gets through */
	if (n != dard_share_len(msg.type, msg.count) || n > DARD_SHARE_MSG_MAX)
		abort();
	size = n;
	n = dard_share_encode(out, sizeof(out), &keys.key[0], &msg);
	if (n != size || memcmp(out, in, size))
		abort();
	return 0;
}
