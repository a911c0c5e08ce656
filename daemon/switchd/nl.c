// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dard-switchd's rtnetlink socket and exchanges (nl.h). */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "err.h"
#include "nl.h"

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

/* An error or ack's errno: 0, or one the kernel could have meant. */
static int error_of(const struct nlmsghdr *m)
{
	int error;

	if (m->nlmsg_len < NLMSG_LENGTH(sizeof(error)))
		return -EBADMSG;
	memcpy(&error, NLMSG_DATA(m), sizeof(error));
	return error > 0 || error < -4095 ? -EBADMSG : error;
}

int sw_nl_walk(const void *buf, size_t len, uint32_t seq,
	       void (*each)(const struct nlmsghdr *m, void *arg), void *arg)
{
	const struct nlmsghdr *m = buf;
	ssize_t left = len;

	for (; NLMSG_OK(m, left); m = NLMSG_NEXT(m, left)) {
		if (m->nlmsg_seq != seq)
			continue;
		if (m->nlmsg_type == NLMSG_ERROR)
			return error_of(m);
		if (m->nlmsg_type == NLMSG_DONE)
			return 0;
		if (each)
			each(m, arg);
	}
	return 1;
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
		ret = sw_nl_walk(buf, len, h->nlmsg_seq, each, arg);
		if (ret <= 0)
			return ret;
	}
}
