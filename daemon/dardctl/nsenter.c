// SPDX-License-Identifier: GPL-2.0 OR MIT
/* -n NAME: run in a named network namespace (nsenter.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ctl.h"
#include "nsenter.h"

int ctl_netns_enter(const char *name)
{
	char path[PATH_MAX];
	int fd, ret;

	/* A name as ip netns add takes it, so that it stays in the dir. */
	if (!*name || strchr(name, '/') || !strcmp(name, ".") ||
	    !strcmp(name, "..") ||
	    snprintf(path, sizeof(path), CTL_NETNS_DIR "/%s", name) >=
		    (int)sizeof(path)) {
		fprintf(stderr,
			"Invalid network namespace `%s': expected a name in " CTL_NETNS_DIR
			", as ip netns list shows\n",
			name);
		return CTL_USAGE;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr,
			"Unable to enter network namespace `%s' (%s): %s\n",
			name, path, strerror(errno));
		return CTL_ERR;
	}
	/*
	 * The network namespace alone: every socket, netlink request,
	 * interface and TC hook from here on is its, while files (the
	 * configuration, the key, bpffs and the pins under it) stay ours.
	 */
	ret = setns(fd, CLONE_NEWNET);
	if (ret)
		fprintf(stderr, "Unable to enter network namespace `%s': %s\n",
			name, strerror(errno));
	close(fd);
	return ret ? CTL_ERR : CTL_OK;
}
