# SPDX-License-Identifier: GPL-2.0 OR MIT
#
# What the tests' Python peers of dard's protocols share: the key file's
# signing key (its first, as daemon/lib/key.c reads it) and the MAC every
# protocol puts on a message, HMAC-SHA-512 cut to 32 bytes
# (HMAC-SHA-512-256's value; protocol.md, "Authentication").
import hashlib
import hmac

MAC_LEN = 32


def load_key(path):
    """The key file's first key, the one that signs: (id, key bytes)."""
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                kid, hexkey = line.split()[:2]
                return int(kid), bytes.fromhex(hexkey)
    raise SystemExit(f'{path}: no key')


def mac(key, msg):
    """msg's MAC under key."""
    return hmac.new(key, msg, hashlib.sha512).digest()[:MAC_LEN]
