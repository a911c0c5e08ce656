// SPDX-License-Identifier: GPL-2.0 OR MIT
/* --run --flows: a flow file (flowfile.h), and reading any file whole. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flowfile.h"
#include "readall.h"
#include "sim.h"

int sim_read_file(const char *path, size_t max, char **text, size_t *len,
		  char *err, size_t errlen)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "Unable to open `%s': %s", path,
			 strerror(errno));
		return -1;
	}
	ret = dard_read_all(fd, max, text, len);
	close(fd);
	if (ret == -EFBIG)
		snprintf(err, errlen,
			 "Unable to read `%s': larger than %zu MiB", path,
			 max >> 20);
	else if (ret)
		snprintf(err, errlen, "Unable to read `%s': %s", path,
			 strerror(-ret));
	return ret ? -1 : 0;
}

long sim_flows(const struct dard_topo *t, const char *path,
	       struct dard_tflow **out, uint64_t **ids, char *err,
	       size_t errlen)
{
	char e[DARD_ERR_MAX], *text;
	unsigned line;
	size_t len;
	long n;

	if (sim_read_file(path, DARD_FLOWS_MAX, &text, &len, err, errlen))
		return -1;
	n = dard_flows_parse(t, text, len, out, ids, &line, e);
	free(text);
	if (n < 0 && line)
		snprintf(err, errlen, "%s:%u: %s", path, line, e);
	else if (n < 0)
		snprintf(err, errlen, "%s: %s", path, e);
	return n < 0 ? -1 : n;
}
