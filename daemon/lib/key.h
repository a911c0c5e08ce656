/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The deployment's shared keys for the switch protocol (proto.h), and the
 * key file's text format (Documentation/protocol.md, "Key file"):
 *
 *   # comment
 *   ID HEX
 *
 * one key a line: ID a decimal 1..4294967295, HEX 64 hex digits (32
 * bytes). At most two keys: the first signs what we send, both are
 * accepted, so that a rotation overlaps. Pure: parsing only.
 */
#ifndef _DARD_KEY_H
#define _DARD_KEY_H

#include <stddef.h>
#include <stdint.h>

enum {
	DARD_KEY_LEN = 32,
	DARD_KEYS_MAX = 2,
	DARD_KEY_FILE_MAX = 4096, /* bytes: two keys and comments */
};

struct dard_key {
	uint32_t id;
	uint8_t k[DARD_KEY_LEN];
};

struct dard_keys {
	unsigned n;			    /* 0: none loaded */
	struct dard_key key[DARD_KEYS_MAX]; /* key[0] signs */
};

/*
 * Parses len bytes of text from file name into *keys. Returns 0, or
 * -EINVAL with err (DARD_ERR_MAX) naming the file, the line and what was
 * wrong, never quoting the line (its words may be key digits), and *keys
 * zeroed. Its own copies of the text are wiped before it returns.
 */
int dard_keys_parse(struct dard_keys *keys, const char *text, size_t len,
		    const char *name, char *err);
/* The key with this id, or NULL. */
const struct dard_key *dard_keys_find(const struct dard_keys *keys,
				      uint32_t id);
/*
 * Swaps the two keys: the second, newer one signs from now on and the
 * first is still accepted. -EINVAL if there is only one, -EALREADY if
 * the first is the newer (by their ids as serial numbers: promoted).
 */
int dard_keys_promote(struct dard_keys *keys);
/*
 * Writes keys in the file format into buf (cap bytes); its length, or 0
 * with buf wiped when it does not fit. The caller wipes buf after use.
 */
size_t dard_keys_format(const struct dard_keys *keys, char *buf, size_t cap);

#endif /* _DARD_KEY_H */
