/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The authenticated frame the switch (proto.h), controller (cproto.h)
 * and share (share.h) protocols have in common: a header that starts
 * with a 16-bit magic and an 8-bit version and carries a 32-bit key id,
 * then a body, then an HMAC-SHA-512-256 over all that comes before it
 * (libsodium; Documentation/protocol.md). What is checked before the MAC
 * and the MAC itself are checked here, once for all three, so that a
 * receiver reads nothing of a frame before it is authentic.
 */
#ifndef _DARD_FRAME_H
#define _DARD_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "key.h"

enum {
	DARD_FRAME_MAC_LEN = 32,
};

/* One protocol's frame, and how its refusals name it. */
struct dard_frame {
	uint16_t magic;
	uint8_t version;
	size_t hdr_len;	  /* the header, before the body */
	size_t key_at;	  /* byte offset of the key id in the header */
	size_t max_len;	  /* longer is refused before the MAC; 0: no bound */
	const char *name; /* "not a NAME (magic ...)" */
	const char *version_name; /* "VERSION_NAME 3 at byte 2 ..." */
	const char *version_note; /* after "(this is version N" */
	const char *max_name;	  /* "longer than the N MAX_NAME may take" */
};

/* Writes the MAC over p's first len bytes right after them. */
void dard_frame_sign(uint8_t *p, size_t len, const struct dard_key *k);

/*
 * 0 when p's len bytes are a frame of f signed with one of keys; else a
 * negative errno, the reason and byte in err: -EMSGSIZE (over max_len),
 * -EPROTONOSUPPORT (magic, version), -EBADMSG (shorter than the header
 * and MAC), -ENOKEY (key id), -EKEYREJECTED (MAC).
 */
int dard_frame_check(const struct dard_frame *f, const uint8_t *p, size_t len,
		     const struct dard_keys *keys, char *err);

#endif /* _DARD_FRAME_H */
