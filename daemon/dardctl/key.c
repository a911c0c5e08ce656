// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dardctl key: the switch protocol's key file (Documentation/protocol.md). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "ctl.h"
#include "args.h"
#include "objects.h"
#include "err.h"
#include "keyfile.h"

static int usage(FILE *f)
{
	fprintf(f,
		"Usage: dardctl key gen [ FILE ] [ force ]\n"
		"       dardctl key rotate [ FILE ]\n"
		"       dardctl key promote [ FILE ]\n"
		"\n"
		"gen writes a key file with one fresh key from the OS random number\n"
		"generator, mode 0600; it does not replace an existing file unless\n"
		"`force' is given.\n"
		"\n"
		"rotate keeps the file's first key first (it still signs) and puts a\n"
		"fresh key second (accepted only), dropping any other. promote swaps\n"
		"the two, so that the fresh key signs and the old one is still\n"
		"accepted; it refuses a file with one key or whose newer key\n"
		"already signs, so that a retry cannot put the old key back. Every\n"
		"node must hold the rotated file before any holds the promoted one:\n"
		"hosts and the controller sign what they send with their file's\n"
		"first key. See the rotation steps in Documentation/operations.md.\n"
		"\n"
		"FILE defaults to -k FILE's (after key, or before it), else\n"
		"$DARD_KEY, else " DARD_KEY_DEFAULT ".\n");
	return f == stdout ? CTL_OK : CTL_USAGE;
}

/*
 * Each keeps its keys where dardd keeps its own (dard_keys_alloc: out of
 * core dumps) and prints only ids and the file's name: an error never
 * quotes the file (dard_keys_load).
 */
static int key_gen(struct ctl *c, const char *file, int force)
{
	struct dard_keys *keys = dard_keys_alloc();
	char err[DARD_ERR_MAX + PATH_MAX];
	int ret;

	if (!keys) {
		fprintf(stderr, "out of memory\n");
		return CTL_ERR;
	}
	keys->n = 1;
	dard_key_new(&keys->key[0]);
	ret = dard_keys_save(keys, file, force, err);
	dard_keys_free(keys);
	if (ret) {
		fprintf(stderr, "%s\n", err);
		return CTL_ERR;
	}
	printf("%s: key 1\n", file);
	return CTL_OK;
}

/* rotate, or promote: the two steps of a key change (operations.md). */
static int key_change(struct ctl *c, const char *file, int promote)
{
	char err[DARD_ERR_MAX + PATH_MAX];
	struct dard_keys *keys;
	int ret;

	ret = dard_keys_open(&keys, file, err);
	if (ret)
		goto out;
	if (!promote)
		dard_keys_rotate(keys);
	else
		ret = dard_keys_promote(keys);
	if (ret == -EINVAL)
		dard_fail(
			err, ret,
			"nothing to promote: %s has one key; `key rotate' first",
			file);
	else if (ret == -EALREADY)
		dard_fail(
			err, ret,
			"nothing to promote: %s's newer key, %u, already signs",
			file, keys->key[0].id);
	if (ret)
		goto out;
	ret = dard_keys_save(keys, file, 1, err);
	if (ret)
		goto out;
	if (promote)
		printf("%s: key %u signs, key %u still accepted\n", file,
		       keys->key[0].id, keys->key[1].id);
	else
		printf("%s: key %u signs, key %u accepted (promote it once "
		       "every node has this file)\n",
		       file, keys->key[0].id, keys->key[1].id);
out:
	dard_keys_free(keys);
	if (ret) {
		fprintf(stderr, "%s\n", err);
		return CTL_ERR;
	}
	return CTL_OK;
}

int do_key(struct ctl *c, int argc, char **argv)
{
	const char *file = NULL;
	int i, force = 0, gen, promote;
	char err[DARD_ERR_MAX];

	if (argc < 1 || !strcmp(argv[0], "help"))
		return usage(argc < 1 ? stderr : stdout);
	gen = !strcmp(argv[0], "gen");
	promote = !strcmp(argv[0], "promote");
	if (!gen && !promote && strcmp(argv[0], "rotate"))
		return ctl_unknown("key", argv[0]);
	for (i = 1; i < argc; i++) {
		if (gen && !strcmp(argv[i], "force") && !force) {
			force = 1;
		} else if (!file) {
			file = argv[i];
		} else {
			fprintf(stderr, "key %s: unexpected `%s'\n", argv[0],
				argv[i]);
			return usage(stderr);
		}
	}
	if (dard_crypto_init(err)) {
		fprintf(stderr, "%s\n", err);
		return CTL_ERR;
	}
	if (!file)
		file = dard_key_path(c->key_arg);
	return gen ? key_gen(c, file, force) : key_change(c, file, promote);
}
