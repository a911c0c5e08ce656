// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kernel module's datapath behind struct dard_dp_ops: a dard device
 * (rtnl link kind DARD_LINK_KIND, dp_kmod_link.c) configured over the
 * generic netlink family DARD_GENL_NAME (dp_kmod_nl.c, messages in
 * dp_kmod_msg.c). State lives in the device, so forwarding outlives the
 * process, as with the BPF backend's pins; a dard device is found by its
 * own name or by its uplink's.
 *
 * What does not apply: pin_root (nothing is pinned), max_dests (the
 * module sizes its table itself) and cgroup (the module has no sock_ops
 * program: a TCP flow changes path on a new socket hash, which the kernel
 * draws on a retransmission timeout, not by a callback).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <net/if.h>

#include "addr6.h"
#include "dp.h"
#include "dp_kmod.h"

struct dard_dp {
	struct dard_knl k;
	struct dard_klink dev;
	struct mnl_socket *ev; /* joined to DARD_GENL_MCGRP on first use */
	dard_dp_event_cb cb;
	void *cb_arg;
	int handled, cb_ret;
};

/* The module's reason where it gave one: `Invalid argument (not one of
 * the destination's paths)'. */
const char *dard_dp_strerror(int err)
{
	static char buf[256];
	const char *why = dard_knl_reason(err);

	if (err == -ENOPKG)
		return "dard.ko is not loaded (modprobe dard)";
	if (!why)
		return strerror(-err);
	snprintf(buf, sizeof(buf), "%s (%s)", strerror(-err), why);
	return buf;
}

static void kmod_close(struct dard_dp *dp)
{
	if (!dp)
		return;
	if (dp->ev)
		mnl_socket_close(dp->ev);
	dard_knl_close(&dp->k);
	free(dp);
}

static struct nlmsghdr *req(struct dard_dp *dp, char *buf, uint8_t cmd,
			    uint16_t flags)
{
	struct nlmsghdr *nlh = dard_kmsg_new(buf, dp->k.family, cmd, flags, 0);

	dard_kmsg_put_dev(nlh, dp->dev.ifindex);
	return nlh;
}

static int device_cb(const struct nlmsghdr *nlh, void *arg)
{
	if (dard_kmsg_device(nlh, arg)) {
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

static int get_device(struct dard_dp *dp, struct dard_kdev *kd)
{
	char buf[256];

	memset(kd, 0, sizeof(*kd));
	return dard_knl_talk(&dp->k, req(dp, buf, DARD_CMD_GET_DEVICE, 0),
			     device_cb, kd);
}

/* The family first: without the module no device can be a dard one. */
static int dp_new(struct dard_dp **out, const char *ifname,
		  struct dard_klink *dev)
{
	struct dard_dp *dp = calloc(1, sizeof(*dp));
	int ret;

	if (!dp)
		return -ENOMEM;
	ret = dard_knl_open(&dp->k);
	if (!ret)
		ret = dard_klink_find(ifname, dev);
	if (ret) {
		kmod_close(dp);
		return ret;
	}
	dp->dev = *dev;
	*out = dp;
	return 0;
}

/* A device that has no ID yet is not attached: -ENOENT, as no pins. */
static int kmod_open(struct dard_dp **out, const char *ifname,
		     const char *pin_root)
{
	struct dard_klink dev;
	struct dard_kdev kd;
	struct dard_dp *dp;
	int ret = dp_new(&dp, ifname, &dev);

	if (ret)
		return ret;
	ret = get_device(dp, &kd);
	if (!ret && !kd.id)
		ret = -ENOENT;
	if (ret) {
		kmod_close(dp);
		return ret;
	}
	*out = dp;
	return 0;
}

static int set_device(struct dard_dp *dp, const struct dard_dp_opts *o)
{
	char buf[512];
	struct nlmsghdr *nlh = req(dp, buf, DARD_CMD_SET_DEVICE, 0);
	struct dard_layout6 l6 = {}; /* outer6 0: IP-in-IP */

	mnl_attr_put_u32(nlh, DARD_A_ID, htonl(o->my_id));
	mnl_attr_put_u64(nlh, DARD_A_ELEPHANT_AGE_NS, o->elephant_age_ns);
	mnl_attr_put_u64(nlh, DARD_A_ELEPHANT_BYTES,
			 dard_dp_elephant_bytes(o, NULL, 0));
	mnl_attr_put_u8(nlh, DARD_A_ELEPHANT_DSCP,
			o->elephant_dscp < 0 ? DARD_DSCP_INHERIT
					     : o->elephant_dscp);
	/* A device made by hand may hold aliases of another plan, or
	 * another outer header: both are set, 4in6's layout or none. */
	mnl_attr_put_u32(nlh, DARD_A_FLAGS, DARD_DEV_F_REPLACE_ALIASES);
	if (o->outer6)
		dard_plan_layout6(&l6, o->outer6);
	mnl_attr_put(nlh, DARD_A_LAYOUT6, sizeof(l6), &l6);
	return dard_knl_talk(&dp->k, nlh, NULL, NULL);
}

/*
 * Makes the device (or takes the one already on the uplink, made by hand
 * with `ip link add'), sets it, brings it up and points the ID route at
 * it. A device we made is deleted again on failure; one we took is left.
 */
static int kmod_attach(struct dard_dp **out, const struct dard_dp_opts *o)
{
	/* The kernel takes the first free: dard0 but where the uplink is
	 * dard0 itself (dardctl deploy deterlab names it so). */
	const char *name = o->kmod_dev ? o->kmod_dev : "dard%d";
	uint32_t uplink = if_nametoindex(o->ifname);
	struct dard_klink dev;
	struct dard_kdev kd;
	struct dard_dp *dp;
	int ret, made = 0;

	if (!uplink)
		return -ENODEV;
	ret = dp_new(&dp, o->ifname, &dev);
	if (ret == -ENOENT) {
		ret = dard_klink_create(name, uplink, o->elephant_age_ns,
					dard_dp_elephant_bytes(o, NULL, 0),
					o->elephant_dscp < 0
						? DARD_DSCP_INHERIT
						: o->elephant_dscp);
		made = !ret;
		if (!ret)
			ret = dp_new(&dp, o->ifname, &dev);
	}
	if (ret)
		goto err;
	ret = get_device(dp, &kd);
	if (!ret && kd.id)
		ret = -EEXIST; /* attached already: detach first */
	if (!ret)
		ret = set_device(dp, o);
	if (!ret)
		ret = dard_klink_up(dp->dev.ifindex);
	if (!ret && o->id_plen)
		ret = dard_klink_route(&dp->dev, o->id_net, o->id_plen,
				       o->my_id);
	if (ret)
		goto err_dp;
	*out = dp;
	return 0;

err_dp:
	if (made) {
		dard_klink_del(dp->dev.ifindex);
		dard_klink_unpark(dp->dev.link);
	}
	kmod_close(dp);
err:
	return ret;
}

static int kmod_set_dest(struct dard_dp *dp, uint32_t id,
			 const struct dard_alias_pair *paths, unsigned n,
			 const uint8_t *next)
{
	char buf[DARD_KMSG_MAX];
	struct nlmsghdr *nlh = req(dp, buf, DARD_CMD_SET_DEST, 0);
	int ret = dard_kmsg_put_dest(nlh, id, paths, n, next);

	return ret ? ret : dard_knl_talk(&dp->k, nlh, NULL, NULL);
}

static int kmod_set_dead(struct dard_dp *dp, uint32_t id, const uint64_t *dead)
{
	char buf[512];
	struct nlmsghdr *nlh = req(dp, buf, DARD_CMD_SET_DEAD, 0);

	mnl_attr_put_u32(nlh, DARD_A_DEST, htonl(id));
	mnl_attr_put(nlh, DARD_A_DEAD, DARD_PATHS_MAX / 8, dead);
	return dard_knl_talk(&dp->k, nlh, NULL, NULL);
}

/* The module builds the slot table itself (kmod/wcmp.c). */
static int kmod_set_weights(struct dard_dp *dp, uint32_t id, const uint16_t *w,
			    unsigned n)
{
	char buf[DARD_KMSG_MAX];
	struct nlmsghdr *nlh = req(dp, buf, DARD_CMD_SET_WEIGHTS, 0);

	if (w && n > DARD_PATHS_MAX)
		return -EINVAL;
	mnl_attr_put_u32(nlh, DARD_A_DEST, htonl(id));
	if (w && n)
		mnl_attr_put(nlh, DARD_A_WEIGHTS, n * sizeof(*w), w);
	return dard_knl_talk(&dp->k, nlh, NULL, NULL);
}

struct weights {
	uint16_t *slots;
	unsigned *n;
	int weighted;
};

static int weights_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct weights *w = arg;

	w->weighted = dard_kmsg_weights(nlh, w->slots, w->n);
	if (w->weighted < 0) {
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	return MNL_CB_OK;
}

static int kmod_weights(struct dard_dp *dp, uint32_t id, uint16_t *slots,
			unsigned *n)
{
	char buf[256];
	struct nlmsghdr *nlh = req(dp, buf, DARD_CMD_GET_WEIGHTS, 0);
	struct weights w = {.slots = slots, .n = n, .weighted = -EPROTO};
	int ret;

	mnl_attr_put_u32(nlh, DARD_A_DEST, htonl(id));
	ret = dard_knl_talk(&dp->k, nlh, weights_cb, &w);
	return ret ? ret : w.weighted;
}

static int kmod_add_alias(struct dard_dp *dp, uint32_t alias)
{
	char buf[256];
	struct nlmsghdr *nlh = req(dp, buf, DARD_CMD_SET_DEVICE, 0);

	mnl_attr_put_u32(nlh, DARD_A_ALIAS, htonl(alias));
	return dard_knl_talk(&dp->k, nlh, NULL, NULL);
}

static int kmod_move(struct dard_dp *dp, const struct dard_flow_key *key,
		     const struct dard_alias_pair *path)
{
	char buf[512];
	struct nlmsghdr *nlh = req(dp, buf, DARD_CMD_MOVE_FLOW, 0);

	dard_kmsg_put_flow(nlh, key, path);
	return dard_knl_talk(&dp->k, nlh, NULL, NULL);
}

/* A dump, held whole: callbacks may then ask the module themselves. */
struct dump {
	struct dard_flow_key *key;
	struct dard_flow *flow;
	size_t n, cap;
};

static int dump_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct dump *d = arg;
	uint32_t ifindex;

	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 256;
		void *k = realloc(d->key, cap * sizeof(*d->key));
		void *f = k ? realloc(d->flow, cap * sizeof(*d->flow)) : NULL;

		if (k)
			d->key = k;
		if (f)
			d->flow = f;
		if (!k || !f) {
			errno = ENOMEM;
			return MNL_CB_ERROR;
		}
		d->cap = cap;
	}
	if (dard_kmsg_flow(nlh, &d->key[d->n], &d->flow[d->n], &ifindex)) {
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	d->n++;
	return MNL_CB_OK;
}

static int dump(struct dard_dp *dp, struct dump *d)
{
	char buf[256];

	memset(d, 0, sizeof(*d));
	return dard_knl_talk(&dp->k,
			     req(dp, buf, DARD_CMD_GET_FLOW, NLM_F_DUMP),
			     dump_cb, d);
}

static void dump_free(struct dump *d)
{
	free(d->key);
	free(d->flow);
}

static int kmod_flows(struct dard_dp *dp, dard_dp_flow_cb cb, void *arg)
{
	struct dump d;
	size_t i;
	int ret = dump(dp, &d);

	for (i = 0; i < d.n && !ret; i++)
		ret = cb(&d.key[i], &d.flow[i], arg);
	dump_free(&d);
	return ret;
}

/*
 * As the BPF backend: idle flows deleted one by one (a packet between
 * the dump and the delete keeps a flow we then forget: it starts again
 * as a new one), each reported as ended unless its end was reported.
 */
static int kmod_sweep(struct dard_dp *dp, uint64_t idle_ns, dard_dp_event_cb cb,
		      void *arg)
{
	uint64_t now = dard_coarse_ns();
	char buf[512];
	struct dump d;
	size_t i;
	int n = 0, ret = dump(dp, &d);

	for (i = 0; i < d.n && !ret; i++) {
		const struct dard_flow *f = &d.flow[i];
		struct dard_event ev = {
			.type = DARD_EVENT_END,
			.key = d.key[i],
			.path = f->path,
			.ts_ns = now,
			.bytes = f->bytes,
		};
		struct nlmsghdr *nlh;

		if (f->last_ns >= now || now - f->last_ns < idle_ns)
			continue;
		nlh = req(dp, buf, DARD_CMD_DEL_FLOW, 0);
		dard_kmsg_put_flow(nlh, &d.key[i], NULL);
		if (dard_knl_talk(&dp->k, nlh, NULL, NULL))
			continue; /* gone already, or busy: the next sweep */
		n++;
		if (cb && !(f->flags & DARD_FLOW_F_END_REPORTED))
			cb(&ev, arg);
	}
	dump_free(&d);
	return ret < 0 ? ret : n;
}

static int event_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct dard_dp *dp = arg;
	struct dard_event ev;
	uint32_t ifindex;

	/* Another device's, or a message we cannot read: not ours. */
	if (dard_kmsg_event(nlh, &ev, &ifindex) || ifindex != dp->dev.ifindex ||
	    dp->cb_ret)
		return MNL_CB_OK;
	dp->handled++;
	dp->cb_ret = dp->cb(&ev, dp->cb_arg);
	return MNL_CB_OK;
}

static int events(struct dard_dp *dp, dard_dp_event_cb cb, void *arg)
{
	int ret = 0;

	if (!dp->ev)
		ret = dard_knl_events(&dp->k, &dp->ev);
	dp->cb = cb;
	dp->cb_arg = arg;
	return ret;
}

/*
 * Reads what waits. An overrun (ENOBUFS) lost events: the walk of the
 * flow table (dardd's sweep) finds the elephants again, so it is not an
 * error here.
 */
static int drain(struct dard_dp *dp)
{
	char buf[DARD_KMSG_MAX];
	ssize_t n;

	for (;;) {
		n = mnl_socket_recvfrom(dp->ev, buf, sizeof(buf));
		if (n < 0 && errno == ENOBUFS)
			continue;
		if (n < 0)
			return errno == EAGAIN ? 0 : -errno;
		/* Multicasts carry no sequence or port to check. */
		mnl_cb_run(buf, n, 0, 0, event_cb, dp);
		if (dp->cb_ret)
			return 0;
	}
}

static int kmod_poll(struct dard_dp *dp, dard_dp_event_cb cb, void *arg,
		     int timeout_ms)
{
	struct pollfd p;
	int ret = events(dp, cb, arg);

	if (ret)
		return ret;
	p.fd = mnl_socket_get_fd(dp->ev);
	p.events = POLLIN;
	if (timeout_ms && poll(&p, 1, timeout_ms) < 0)
		return errno == EINTR ? 0 : -errno;
	dp->handled = 0;
	dp->cb_ret = 0;
	ret = drain(dp);
	if (ret)
		return ret;
	return dp->cb_ret < 0 ? dp->cb_ret : dp->handled;
}

static int kmod_event_fd(struct dard_dp *dp, dard_dp_event_cb cb, void *arg)
{
	int ret = events(dp, cb, arg);

	return ret ? ret : mnl_socket_get_fd(dp->ev);
}

static int kmod_stats(struct dard_dp *dp, uint64_t *out)
{
	struct dard_kdev kd;
	int ret = get_device(dp, &kd);

	memcpy(out, kd.stats, sizeof(kd.stats));
	return ret;
}

/* The device goes, taking its routes; the uplink's ID route comes back. */
static int kmod_detach(struct dard_dp *dp)
{
	int ret = dard_klink_del(dp->dev.ifindex);

	/* Deleted by hand already: the uplink's route is still parked. */
	if ((!ret || ret == -ENODEV) && dp->dev.link)
		ret = dard_klink_unpark(dp->dev.link);
	return ret;
}

const struct dard_dp_ops dard_dp_kmod = {
	.name = "kmod",
	.attach = kmod_attach,
	.open = kmod_open,
	.set_dest = kmod_set_dest,
	.set_dead = kmod_set_dead,
	.set_weights = kmod_set_weights,
	.weights = kmod_weights,
	.add_alias = kmod_add_alias,
	.move = kmod_move,
	.flows = kmod_flows,
	.sweep = kmod_sweep,
	.poll = kmod_poll,
	.event_fd = kmod_event_fd,
	.stats = kmod_stats,
	.detach = kmod_detach,
	.close = kmod_close,
};
