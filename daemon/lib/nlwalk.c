// SPDX-License-Identifier: GPL-2.0 OR MIT
/* The walk of one netlink datagram (nlwalk.h). */
#include <errno.h>
#include <string.h>
#include <sys/types.h>

#include "nlwalk.h"

/* An error or ack's errno: 0, or one the kernel could have meant. */
static int error_of(const struct nlmsghdr *m)
{
	int error;

	if (m->nlmsg_len < NLMSG_LENGTH(sizeof(error)))
		return -EBADMSG;
	memcpy(&error, NLMSG_DATA(m), sizeof(error));
	return error > 0 || error < -4095 ? -EBADMSG : error;
}

int dard_nl_walk(const void *buf, size_t len, uint32_t seq,
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
