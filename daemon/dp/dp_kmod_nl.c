// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The generic netlink socket to the kernel module's family: resolving
 * DARD_GENL_NAME and its multicast group through the controller, one
 * request at a time with its ack, and a second socket for the events.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "dp_kmod.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

/* The module's reason (extack) for the last request it refused. */
static struct {
	int err;
	char msg[160];
} refusal;

const char *dard_knl_reason(int err)
{
	return err && err == refusal.err && refusal.msg[0] ? refusal.msg : NULL;
}

/* NLMSG_ERROR: an ack (stop), or a refusal, its reason kept. */
static int error_cb(const struct nlmsghdr *nlh, void *arg)
{
	int err = dard_kmsg_error(nlh, refusal.msg, sizeof(refusal.msg));

	if (!err)
		return MNL_CB_STOP;
	refusal.err = err;
	errno = -err;
	return MNL_CB_ERROR;
}

/*
 * NLMSG_DONE: a dump's end, which carries the dump's error if it failed
 * (the device went, say): libmnl's default would stop there and take the
 * half-read table for the whole.
 */
static int done_cb(const struct nlmsghdr *nlh, void *arg)
{
	int err;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(err))
		return MNL_CB_STOP;
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	if (err >= 0)
		return MNL_CB_STOP;
	refusal.err = err;
	refusal.msg[0] = '\0';
	errno = -err;
	return MNL_CB_ERROR;
}

/*
 * Control messages below the table's length are ours alone: libmnl's
 * default (NLMSG_OVERRUN fails) serves the types above it.
 */
static mnl_cb_t ctl_cb[NLMSG_DONE + 1] = {
	[NLMSG_ERROR] = error_cb,
	[NLMSG_DONE] = done_cb,
};

int dard_knl_run(const void *buf, size_t n, uint32_t seq, unsigned portid,
		 mnl_cb_t cb, void *arg)
{
	return mnl_cb_run2(buf, n, seq, portid, cb, arg, ctl_cb,
			   NLMSG_DONE + 1);
}

static int sock_open(struct mnl_socket **out)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_GENERIC);
	int ret, one = 1;

	if (!nl)
		return -errno;
	/* The reasons with the refusals; a kernel without them refuses
	 * all the same. */
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		ret = -errno;
		mnl_socket_close(nl);
		return ret;
	}
	*out = nl;
	return 0;
}

/*
 * A request that failed half-way may leave the rest of its answer queued
 * (a dump's further parts, an ack after a reply we refused), which the
 * next request would read as its own and fail on: a fresh socket starts
 * clean. Returns the request's error.
 */
static int knl_reset(struct dard_knl *k, int err)
{
	mnl_socket_close(k->nl);
	k->nl = NULL;
	if (!sock_open(&k->nl))
		k->portid = mnl_socket_get_portid(k->nl);
	return err;
}

int dard_knl_talk(struct dard_knl *k, struct nlmsghdr *nlh, mnl_cb_t cb,
		  void *arg)
{
	/* A GET_DEVICE reply grows by 8 bytes an alias, up to 4096 of them:
	 * more than a page of dump. */
	static char buf[DARD_KRECV_MAX];
	ssize_t n;
	int ret;

	if (!k->nl)
		return -ENOTCONN;
	/* A dump ends with NLMSG_DONE and no ack after it. */
	/* Both bits: NLM_F_EXCL and NLM_F_REPLACE share them. */
	if ((nlh->nlmsg_flags & NLM_F_DUMP) != NLM_F_DUMP)
		nlh->nlmsg_flags |= NLM_F_ACK;
	nlh->nlmsg_seq = ++k->seq;
	if (mnl_socket_sendto(k->nl, nlh, nlh->nlmsg_len) < 0)
		return knl_reset(k, -errno);
	do {
		n = mnl_socket_recvfrom(k->nl, buf, sizeof(buf));
		if (n < 0)
			return knl_reset(k, -errno);
		errno = 0;
		ret = dard_knl_run(buf, n, nlh->nlmsg_seq, k->portid, cb, arg);
	} while (ret > 0);
	/* mnl_cb_run sets errno to the kernel's error; our cb's is EINVAL. */
	if (ret < 0)
		return knl_reset(k, errno ? -errno : -EPROTO);
	return 0;
}

static int family_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct dard_knl *k = arg;

	if (dard_kmsg_family(nlh, &k->family, &k->mcgrp)) {
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

int dard_knl_open(struct dard_knl *k)
{
	char buf[256];
	int ret;

	k->seq = time(NULL);
	k->family = 0;
	ret = sock_open(&k->nl);
	if (ret)
		return ret;
	k->portid = mnl_socket_get_portid(k->nl);
	ret = dard_knl_talk(k, dard_kmsg_getfamily(buf, 0), family_cb, k);
	/* The controller answers ENOENT for a family nobody registered. */
	if (ret == -ENOENT || (!ret && !k->family))
		ret = -ENOPKG;
	if (ret)
		dard_knl_close(k);
	return ret;
}

void dard_knl_close(struct dard_knl *k)
{
	if (k->nl)
		mnl_socket_close(k->nl);
	k->nl = NULL;
}

int dard_knl_events(const struct dard_knl *k, struct mnl_socket **out)
{
	struct mnl_socket *nl;
	int grp = k->mcgrp, big = 1 << 20, ret, fd;

	if (!k->mcgrp)
		return -ENOENT;
	ret = sock_open(&nl);
	if (ret)
		return ret;
	fd = mnl_socket_get_fd(nl);
	/* Room for a burst: an overrun loses events (dardd's walk finds the
	 * elephants again, dp_kmod.c). Best effort: the default may do. */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	if (mnl_socket_setsockopt(nl, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp)) < 0 ||
	    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0) {
		ret = -errno;
		mnl_socket_close(nl);
		return ret;
	}
	*out = nl;
	return 0;
}
