// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The sock_ops program that repaths a TCP flow on a retransmission
 * timeout (bpf/dard_tc.bpf.c, dard_sockops): attached to a cgroup v2
 * with a BPF link pinned beside the maps, so the attachment outlives
 * the process as the TC filters do, and detach removes exactly it.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "dp_rto.h"

/* The first cgroup2 mount, which is its hierarchy's root. */
static int cgroup2_root(char *buf, size_t len)
{
	FILE *f = setmntent("/proc/mounts", "r");
	struct mntent *m;
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while ((m = getmntent(f))) {
		if (!strcmp(m->mnt_type, "cgroup2")) {
			ret = snprintf(buf, len, "%s", m->mnt_dir) >= (int)len
				      ? -ENAMETOOLONG
				      : 0;
			break;
		}
	}
	endmntent(f);
	return ret;
}

static void link_path(char *buf, size_t len, const char *dir)
{
	snprintf(buf, len, "%s/%s", dir, DARD_RTO_LINK);
}

int dard_dp_rto_attach(struct bpf_program *prog, const char *cgroup,
		       const char *dir)
{
	char root[PATH_MAX], path[PATH_MAX + 32];
	struct bpf_link *link;
	int fd, ret;

	if (!cgroup) {
		/* No cgroup v2 at all: TCP repairs itself only through
		 * dardd's liveness, as before. */
		if (cgroup2_root(root, sizeof(root)))
			return 0;
		cgroup = root;
	}
	fd = open(cgroup, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* A link rather than bpf_prog_attach(BPF_F_ALLOW_MULTI): the same
	 * multi-program attachment, released by its pin, not by a lookup of
	 * which program is ours. */
	link = bpf_program__attach_cgroup(prog, fd);
	ret = link ? 0 : -errno;
	close(fd);
	if (ret)
		return ret;
	link_path(path, sizeof(path), dir);
	ret = bpf_link__pin(link, path);
	/* The pin holds the attachment now; without it, this drops it. */
	bpf_link__destroy(link);
	return ret;
}

int dard_dp_rto_detach(const char *dir)
{
	char path[PATH_MAX + 32];

	link_path(path, sizeof(path), dir);
	return unlink(path) && errno != ENOENT ? -errno : 0;
}
