/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Reading and writing the key file (key.h) on disk; keys from the OS RNG. */
#ifndef _DARD_KEYFILE_H
#define _DARD_KEYFILE_H

#include "key.h"

#define DARD_KEY_DEFAULT "/etc/dard/dard.key"

/* The key file to use: arg if given, else $DARD_KEY, else the default. */
const char *dard_key_path(const char *arg);

/*
 * Starts libsodium (its RNG and primitives) once; -EIO if it cannot.
 * Every program calls it before it makes or checks a MAC.
 */
int dard_crypto_init(char *err);

/*
 * Reads path into keys. Refuses, with err (DARD_ERR_MAX + PATH_MAX)
 * naming the file and why: a file group or others may read or write, one
 * not owned by root when we run as root, not a regular file, longer than
 * DARD_KEY_FILE_MAX, or anything dard_keys_parse refuses. No message
 * quotes the file's text, and every copy of it is wiped; keys is zeroed
 * on a refusal.
 */
int dard_keys_load(struct dard_keys *keys, const char *path, char *err);

/*
 * Room for keys that a program holds for its life: zeroed, left out of
 * core dumps and, where the memlock limit allows, kept from swap
 * (keyfile.c says why sodium_malloc). Starts libsodium; NULL when out of
 * memory. dard_keys_free wipes and frees it (NULL: nothing).
 */
struct dard_keys *dard_keys_alloc(void);
void dard_keys_free(struct dard_keys *keys);

/*
 * dard_keys_alloc, then dard_keys_load from path into it: *keys, or NULL
 * and an error as dard_keys_load's (or -ENOMEM).
 */
int dard_keys_open(struct dard_keys **keys, const char *path, char *err);

/* A fresh key from the OS RNG, id 1. */
void dard_key_new(struct dard_key *k);

/*
 * Keeps the first key first (it still signs) and puts a fresh one second
 * (accepted only), its id one past the first's (skipping the one it
 * replaces, and 0), dropping any other: every node must accept a key
 * before any node signs with it (dard_keys_promote, later).
 */
void dard_keys_rotate(struct dard_keys *keys);

/*
 * Writes keys to path, mode 0600, through a temporary file renamed over
 * it; an existing path is replaced only with force. err as above.
 */
int dard_keys_save(const struct dard_keys *keys, const char *path, int force,
		   char *err);

#endif /* _DARD_KEYFILE_H */
