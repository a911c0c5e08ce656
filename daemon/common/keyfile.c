// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The key file on disk: a secret, so it is read only when nobody but its
 * owner can read or change it, and written mode 0600 from the start.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sodium.h>
#include <sys/stat.h>

#include "err.h"
#include "keyfile.h"

const char *dard_key_path(const char *arg)
{
	if (!arg)
		arg = getenv("DARD_KEY");
	return arg && *arg ? arg : DARD_KEY_DEFAULT;
}

int dard_crypto_init(char *err)
{
	if (sodium_init() < 0)
		return dard_fail(err, -EIO, "Unable to start libsodium");
	return 0;
}

/* Whether st may hold a secret for us. */
static int check_mode(const struct stat *st, const char *path, char *err)
{
	if (!S_ISREG(st->st_mode))
		return dard_fail(err, -EINVAL, "%s: not a regular file", path);
	if (st->st_mode & 077)
		return dard_fail(
			err, -EPERM,
			"%s: mode %04o lets group or others at the key: chmod 600 it",
			path, (unsigned)(st->st_mode & 07777));
	if (geteuid() == 0 && st->st_uid != 0)
		return dard_fail(
			err, -EPERM,
			"%s: owned by uid %u, not root: chown root it or use another key file",
			path, (unsigned)st->st_uid);
	return 0;
}

/*
 * The file's text into buf (cap bytes, one more than a file may hold, so
 * that a longer one is told): read here rather than by dard_read_all,
 * whose heap buffer would be freed unwiped on an error.
 */
static ssize_t read_text(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	ssize_t r;

	while (n < cap) {
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			break;
		n += r;
	}
	return n;
}

int dard_keys_load(struct dard_keys *keys, const char *path, char *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	char text[DARD_KEY_FILE_MAX + 1];
	struct stat st;
	ssize_t len;
	int ret;

	memset(keys, 0, sizeof(*keys));
	if (fd < 0)
		return dard_fail(err, -errno,
				 "Unable to open the key file `%s': %s", path,
				 strerror(errno));
	if (fstat(fd, &st)) {
		ret = dard_fail(err, -errno, "Unable to stat `%s': %s", path,
				strerror(errno));
		close(fd);
		return ret;
	}
	ret = check_mode(&st, path, err);
	if (ret) {
		close(fd);
		return ret;
	}
	len = read_text(fd, text, sizeof(text));
	close(fd);
	if (len > DARD_KEY_FILE_MAX)
		ret = dard_fail(err, -EFBIG, "%s: longer than %d bytes", path,
				DARD_KEY_FILE_MAX);
	else if (len < 0)
		ret = dard_fail(err, (int)len, "Unable to read `%s': %s", path,
				strerror(-len));
	else
		ret = dard_keys_parse(keys, text, len, path, err);
	sodium_memzero(text, sizeof(text));
	return ret;
}

/*
 * sodium_malloc rather than a static or a field: its pages are marked
 * MADV_DONTDUMP and locked (sodium_mlock) at the machine's page size, with
 * guard pages around, where a page-aligned array would need the page size
 * at build time and a copy in .bss or a struct would be in every core
 * dump. Where RLIMIT_MEMLOCK refuses the lock (no CAP_IPC_LOCK), the
 * pages are still left out of dumps; only swap could then see them.
 */
struct dard_keys *dard_keys_alloc(void)
{
	struct dard_keys *keys;

	if (sodium_init() < 0)
		return NULL;
	keys = sodium_malloc(sizeof(*keys));
	if (keys)
		memset(keys, 0, sizeof(*keys));
	return keys;
}

void dard_keys_free(struct dard_keys *keys)
{
	if (!keys)
		return;
	sodium_memzero(keys, sizeof(*keys));
	sodium_free(keys);
}

int dard_keys_open(struct dard_keys **keys, const char *path, char *err)
{
	struct dard_keys *k = dard_keys_alloc();
	int ret;

	*keys = NULL;
	if (!k)
		return dard_fail(err, -ENOMEM,
				 "out of memory for the key file `%s'", path);
	ret = dard_keys_load(k, path, err);
	if (ret) {
		dard_keys_free(k);
		return ret;
	}
	*keys = k;
	return 0;
}

void dard_key_new(struct dard_key *k)
{
	k->id = 1;
	randombytes_buf(k->k, sizeof(k->k));
}

void dard_keys_rotate(struct dard_keys *keys)
{
	struct dard_key fresh;

	dard_key_new(&fresh);
	/*
	 * One past the signing key's, as serial numbers (RFC 1982), so that
	 * promote can tell which is newer across 4294967295; not the id of
	 * the key it replaces, which other nodes may still hold.
	 */
	fresh.id = keys->key[0].id + 1;
	if (keys->n == 2 && fresh.id == keys->key[1].id)
		fresh.id++;
	if (!fresh.id) /* past 4294967295: start again */
		fresh.id = 1;
	keys->key[1] = fresh;
	keys->n = 2;
	sodium_memzero(&fresh, sizeof(fresh));
}

int dard_keys_save(const struct dard_keys *keys, const char *path, int force,
		   char *err)
{
	char text[DARD_KEY_FILE_MAX], tmp[4096];
	size_t len = dard_keys_format(keys, text, sizeof(text));
	int fd, ret = 0;

	if (!force && !access(path, F_OK))
		return dard_fail(err, -EEXIST,
				 "%s exists: give `force' to replace it", path);
	if (snprintf(tmp, sizeof(tmp), "%s.tmpXXXXXX", path) >=
	    (int)sizeof(tmp))
		return dard_fail(err, -ENAMETOOLONG, "%s: name too long", path);
	fd = mkstemp(tmp); /* mode 0600 */
	if (fd < 0)
		return dard_fail(err, -errno, "Unable to create `%s': %s", tmp,
				 strerror(errno));
	if (fchmod(fd, 0600) || write(fd, text, len) != (ssize_t)len ||
	    fsync(fd))
		ret = dard_fail(err, -errno, "Unable to write `%s': %s", tmp,
				strerror(errno));
	if (close(fd) && !ret)
		ret = dard_fail(err, -errno, "Unable to write `%s': %s", tmp,
				strerror(errno));
	/* Without force, link fails if path appeared since access. */
	if (!ret && (force ? rename(tmp, path) : link(tmp, path)))
		ret = dard_fail(err, -errno, "Unable to write `%s': %s", path,
				strerror(errno));
	if (ret || !force)
		unlink(tmp);
	sodium_memzero(text, sizeof(text));
	return ret;
}
