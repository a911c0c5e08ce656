// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The files deploy writes (out.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "out.h"

int out_mkdir(const char *dir)
{
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "Unable to create `%s': %s\n", dir,
			strerror(errno));
		return -1;
	}
	return 0;
}

int out_open(struct out *o, const char *dir, const char *name, int mode)
{
	int n = snprintf(o->path, sizeof(o->path), "%s/%s", dir, name);

	o->f = NULL;
	if (n < 0 || (size_t)n >= sizeof(o->path)) {
		fprintf(stderr, "Unable to create `%s/%s': %s\n", dir, name,
			strerror(ENAMETOOLONG));
		return -1;
	}
	o->f = fopen(o->path, "w");
	if (!o->f) {
		fprintf(stderr, "Unable to create `%s': %s\n", o->path,
			strerror(errno));
		return -1;
	}
	if (mode && fchmod(fileno(o->f), mode)) {
		fprintf(stderr, "Unable to chmod `%s': %s\n", o->path,
			strerror(errno));
		fclose(o->f);
		o->f = NULL;
		return -1;
	}
	return 0;
}

int out_close(struct out *o)
{
	/* A failed write leaves its errno; fclose's own failure its own. */
	int err = ferror(o->f) ? (errno ? errno : EIO) : 0;

	if (fclose(o->f) && !err)
		err = errno;
	o->f = NULL;
	if (err) {
		fprintf(stderr, "Unable to write `%s': %s\n", o->path,
			strerror(err));
		return -1;
	}
	return 0;
}
