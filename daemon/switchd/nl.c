// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dard-switchd's rtnetlink socket and exchanges (nl.h). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "err.h"
#include "nl.h"
#include "nlwalk.h"

int sw_nl_open(unsigned groups, char *err)
{
	struct sockaddr_nl sa = {.nl_family = AF_NETLINK, .nl_groups = groups};
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);

	if (fd < 0)
		return dard_fail(err, -errno, "Unable to open rtnetlink: %s",
				 strerror(errno));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int ret = -errno;

		close(fd);
		return dard_fail(err, ret, "Unable to bind rtnetlink: %s",
				 strerror(-ret));
	}
	return fd;
}

int sw_nl_talk(int fd, const struct nlmsghdr *h,
	       void (*each)(const struct nlmsghdr *m, void *arg), void *arg)
{
	/* A dump's datagrams are up to a page or two; one thread. */
	static char buf[32768] __attribute__((aligned(NLMSG_ALIGNTO)));
	ssize_t len;
	int ret;

	if (send(fd, h, h->nlmsg_len, 0) < 0)
		return -errno;
	for (;;) {
		len = recv(fd, buf, sizeof(buf), 0);
		/* SIGUSR1 has no SA_RESTART: the answer is still to come. */
		if (len < 0 && errno == EINTR)
			continue;
		if (len < 0)
			return -errno;
		ret = dard_nl_walk(buf, len, h->nlmsg_seq, each, arg);
		if (ret <= 0)
			return ret;
	}
}
