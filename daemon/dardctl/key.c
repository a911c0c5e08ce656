// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dardctl key: the switch protocol's key file (Documentation/protocol.md). */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sodium.h>

#include "dardctl.h"
#include "err.h"
#include "keyfile.h"

static int usage(FILE *f)
{
	fprintf(f,
		"Usage: dardctl key gen [ FILE ] [ force ]\n"
		"       dardctl key rotate [ FILE ]\n"
		"\n"
		"gen writes a key file with one fresh key from the OS random number\n"
		"generator, mode 0600; it does not replace an existing file unless\n"
		"`force' is given. rotate puts a fresh key first (it signs from now\n"
		"on) and keeps the file's first key second (still accepted), dropping\n"
		"any older one: see the rotation steps in Documentation/operations.md.\n"
		"FILE defaults to -k, else $DARD_KEY, else " DARD_KEY_DEFAULT
		".\n");
	return f == stdout ? CTL_OK : CTL_USAGE;
}

static int key_gen(struct ctl *c, const char *file, int force)
{
	struct dard_keys keys = {.n = 1};
	char err[DARD_ERR_MAX + PATH_MAX];
	int ret;

	dard_key_new(&keys.key[0], NULL);
	ret = dard_keys_save(&keys, file, force, err);
	sodium_memzero(&keys, sizeof(keys));
	if (ret) {
		fprintf(stderr, "%s\n", err);
		return CTL_ERR;
	}
	printf("%s: key 1\n", file);
	return CTL_OK;
}

static int key_rotate(struct ctl *c, const char *file)
{
	struct dard_keys old, keys = {.n = 2};
	char err[DARD_ERR_MAX + PATH_MAX];
	int ret;

	ret = dard_keys_load(&old, file, err);
	if (!ret) {
		dard_key_new(&keys.key[0], &old);
		keys.key[1] = old.key[0];
		ret = dard_keys_save(&keys, file, 1, err);
	}
	if (!ret)
		printf("%s: key %u signs, key %u still accepted\n", file,
		       keys.key[0].id, keys.key[1].id);
	sodium_memzero(&old, sizeof(old));
	sodium_memzero(&keys, sizeof(keys));
	if (ret) {
		fprintf(stderr, "%s\n", err);
		return CTL_ERR;
	}
	return CTL_OK;
}

int do_key(struct ctl *c, int argc, char **argv)
{
	const char *file = NULL;
	int i, force = 0, gen;
	char err[DARD_ERR_MAX];

	if (argc < 1 || !strcmp(argv[0], "help"))
		return usage(argc < 1 ? stderr : stdout);
	gen = !strcmp(argv[0], "gen");
	if (!gen && strcmp(argv[0], "rotate"))
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
	return gen ? key_gen(c, file, force) : key_rotate(c, file);
}
