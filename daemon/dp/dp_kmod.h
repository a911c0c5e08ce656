/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The kernel module's backend (dp_kmod.c) and its parts: the generic
 * netlink messages of <linux/dard.h>'s family, built and read without I/O
 * (dp_kmod_msg.c, so that tests and the fuzzer reach them), the genl
 * transport (dp_kmod_nl.c) and the rtnetlink steps on the dard device
 * (dp_kmod_link.c). Every function returns 0 or -errno and never prints.
 */
#ifndef _DARD_DP_KMOD_H
#define _DARD_DP_KMOD_H

#include <stddef.h>
#include <stdint.h>
#include <linux/dard.h>
#include <libmnl/libmnl.h>

/* Room for a SET_DEST of DARD_PATHS_MAX paths (28 bytes each). */
enum { DARD_KMSG_MAX = 16384 };
/* What one read of the module's answers may bring (dp_kmod_nl.c). */
enum { DARD_KRECV_MAX = 65536 };

/* A priority no rendered route uses: the uplink's ID route waits there
 * while the dard device's takes its place (dp_kmod_link.c). */
enum { DARD_KMOD_PARKED_METRIC = 0xdad };

/* What GET_DEVICE answers. */
struct dard_kdev {
	uint32_t ifindex;
	__be32 id;
	uint32_t flows, flows_max, dests, live_gen;
	uint64_t elephant_age_ns, elephant_bytes;
	uint8_t elephant_dscp;
	uint64_t stats[__DARD_STAT_MAX]; /* 0 for those it did not send */
};

/* dp_kmod_msg.c: requests into buf (DARD_KMSG_MAX bytes). */
struct nlmsghdr *dard_kmsg_new(char *buf, uint16_t family, uint8_t cmd,
			       uint16_t flags, uint32_t seq);
void dard_kmsg_put_dev(struct nlmsghdr *nlh, uint32_t ifindex);
/* SET_DEST's attributes; -ERANGE: n is 0 or over DARD_PATHS_MAX. */
int dard_kmsg_put_dest(struct nlmsghdr *nlh, uint32_t id,
		       const struct dard_alias_pair *paths, unsigned n,
		       const uint8_t *next);
/* DARD_A_FLOW with the key, and the pair when path is not NULL. */
void dard_kmsg_put_flow(struct nlmsghdr *nlh, const struct dard_flow_key *key,
			const struct dard_alias_pair *path);
/* CTRL_CMD_GETFAMILY for DARD_GENL_NAME. */
struct nlmsghdr *dard_kmsg_getfamily(char *buf, uint32_t seq);

/*
 * Replies: -EINVAL for a message too short, an attribute of the wrong
 * size, or a required one missing (the flow's key, the event's type).
 */
int dard_kmsg_family(const struct nlmsghdr *nlh, uint16_t *family,
		     uint32_t *mcgrp);
int dard_kmsg_flow_nest(const struct nlattr *nest, struct dard_flow_key *key,
			struct dard_flow *flow);
/* A GET_FLOW dump message; *ifindex 0 when it names no device. */
int dard_kmsg_flow(const struct nlmsghdr *nlh, struct dard_flow_key *key,
		   struct dard_flow *flow, uint32_t *ifindex);
/* A DARD_CMD_EVENT multicast; *ifindex: the device it came from. */
int dard_kmsg_event(const struct nlmsghdr *nlh, struct dard_event *ev,
		    uint32_t *ifindex);
int dard_kmsg_device(const struct nlmsghdr *nlh, struct dard_kdev *dev);
/* A GET_WEIGHTS reply: 1 with *n paths' slots (up to DARD_PATHS_MAX)
 * if it has DARD_A_WEIGHTS, 0 if not (even). */
int dard_kmsg_weights(const struct nlmsghdr *nlh, uint16_t *slots, unsigned *n);
/*
 * NLMSG_ERROR: 0 for an ack, else the kernel's -errno with its reason
 * (extack's NLMSGERR_ATTR_MSG) in msg, or "" (-EBADMSG: malformed).
 */
int dard_kmsg_error(const struct nlmsghdr *nlh, char *msg, size_t len);

/* dp_kmod_nl.c: a genl socket to the family. */
struct dard_knl {
	struct mnl_socket *nl;
	uint16_t family;
	uint32_t mcgrp;
	uint32_t seq;
	unsigned portid;
};

/* -ENOPKG: no family DARD_GENL_NAME (dard.ko is not loaded). */
int dard_knl_open(struct dard_knl *k);
void dard_knl_close(struct dard_knl *k);
/*
 * Sends nlh (NLM_F_ACK added but to dumps) and runs cb over what comes
 * before the ack or NLMSG_DONE; nothing may use k from within cb.
 */
int dard_knl_talk(struct dard_knl *k, struct nlmsghdr *nlh, mnl_cb_t cb,
		  void *arg);
/*
 * mnl_cb_run with our NLMSG_ERROR handler (the refusal's reason kept):
 * MNL_CB_STOP at the ack or NLMSG_DONE, MNL_CB_ERROR with errno set.
 */
int dard_knl_run(const void *buf, size_t n, uint32_t seq, unsigned portid,
		 mnl_cb_t cb, void *arg);
/* The module's words for err, the last refusal, if it said any; or NULL. */
const char *dard_knl_reason(int err);
/* A socket joined to the family's multicast group, non-blocking. */
int dard_knl_events(const struct dard_knl *k, struct mnl_socket **out);

/* dp_kmod_link.c: rtnetlink. */
struct dard_klink {
	uint32_t ifindex; /* the dard device */
	uint32_t link;	  /* its uplink (IFLA_LINK), or 0 */
	char name[16];
};

/* The dard device named ifname, or the one whose uplink it is; -ENOENT. */
int dard_klink_find(const char *ifname, struct dard_klink *dev);
/* `ip link add NAME link UPLINK type dard' with the elephant settings. */
int dard_klink_create(const char *name, uint32_t uplink, uint64_t age_ns,
		      uint64_t bytes, uint8_t dscp);
int dard_klink_up(uint32_t ifindex);
int dard_klink_del(uint32_t ifindex);
/*
 * Points id_net/plen at the device (src id), parking the uplink's route
 * to it at DARD_KMOD_PARKED_METRIC; unpark puts parked routes back.
 */
int dard_klink_route(const struct dard_klink *dev, uint32_t id_net,
		     unsigned plen, uint32_t id);
int dard_klink_unpark(uint32_t uplink);

#endif /* _DARD_DP_KMOD_H */
