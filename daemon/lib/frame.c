// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The authenticated frame of dard's three protocols (frame.h):
 * crypto_auth_hmacsha512256 signs, crypto_verify_32 compares in constant
 * time.
 */
#include <errno.h>
#include <sodium.h>

#include "be.h"
#include "err.h"
#include "frame.h"

void dard_frame_sign(uint8_t *p, size_t len, const struct dard_key *k)
{
	crypto_auth_hmacsha512256(p + len, p, len, k->k);
}

int dard_frame_check(const struct dard_frame *f, const uint8_t *p, size_t len,
		     const struct dard_keys *keys, char *err)
{
	uint8_t mac[DARD_FRAME_MAC_LEN];
	const struct dard_key *k;

	if (f->max_len && len > f->max_len)
		return dard_fail(err, -EMSGSIZE,
				 "datagram of %zu bytes is longer than the %zu "
				 "%s may take",
				 len, f->max_len, f->max_name);
	if (len < 2 || dard_get16(p) != f->magic)
		return dard_fail(
			err, -EPROTONOSUPPORT,
			"not a %s (magic 0x%04x at byte 0, want 0x%04x)",
			f->name, len < 2 ? 0 : dard_get16(p), f->magic);
	if (len < 3 || p[2] != f->version)
		return dard_fail(err, -EPROTONOSUPPORT,
				 "%s %u at byte 2 is not supported (this is "
				 "version %u%s)",
				 f->version_name, len < 3 ? 0 : p[2],
				 f->version, f->version_note);
	if (len < f->hdr_len + DARD_FRAME_MAC_LEN)
		return dard_fail(err, -EBADMSG,
				 "message of %zu bytes is shorter than the "
				 "%zu-byte header and %d-byte MAC",
				 len, f->hdr_len, DARD_FRAME_MAC_LEN);
	k = dard_keys_find(keys, dard_get32(p + f->key_at));
	if (!k)
		return dard_fail(err, -ENOKEY, "unknown key id %u at byte %zu",
				 dard_get32(p + f->key_at), f->key_at);
	crypto_auth_hmacsha512256(mac, p, len - DARD_FRAME_MAC_LEN, k->k);
	if (crypto_verify_32(mac, p + len - DARD_FRAME_MAC_LEN))
		return dard_fail(err, -EKEYREJECTED,
				 "bad MAC at byte %zu (key id %u)",
				 len - DARD_FRAME_MAC_LEN, k->id);
	return 0;
}
