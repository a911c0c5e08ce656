// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * nlfuzz: the dard module's generic netlink policy against malformed
 * requests, run inside the qemu guest (tests/kmod/test.sh) on a dard
 * device. Every request it sends carries one fault that the module must
 * refuse: an attribute of the wrong size, a broken or wrongly flagged
 * nest, an unknown attribute, a value out of range, no device or the
 * wrong one, more than DARD_PATHS_MAX paths, a truncated message, an
 * unknown command, a flow or destination that is not there, weights
 * that are not one u16 per path or all 0, a 4in6 layout of the wrong
 * size or one that no plan could give. The rest
 * of each request is drawn at random. A request accepted is a failure;
 * so is a device that stops answering GET_DEVICE or whose settings
 * changed. Prints `nlfuzz: N passed, N failed'; exit 0 only if none
 * failed. With -p it only probes the caller's privilege
 * (tests/kmod/attack.sh): GET_DEVICE must answer, and a well-formed
 * SET_DEVICE that changes nothing (the device's own elephant DSCP) is
 * sent; exit 0 if it was refused with EPERM, 3 if accepted, 1 otherwise.
 *
 *   nlfuzz [ -n ITERATIONS ] [ -s SEED ] [ -v ] DEV
 *   nlfuzz -p DEV
 *
 * Self-contained over libmnl (no dard library): it tests the module, not
 * the daemon's backend.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <linux/dard.h>
#include <linux/genetlink.h>
#include <libmnl/libmnl.h>

enum { BUF = 16384, CHECK_EVERY = 64 };

struct fuzz {
	struct mnl_socket *nl;
	uint16_t family;
	uint32_t ifindex, seq, portid;
	uint64_t rng;
	unsigned passed, failed;
	int verbose;
	char what[160]; /* the fault of the request being built */
};

/* xorshift64*: a seed repeats a run. */
static uint32_t rnd(struct fuzz *f, uint32_t n)
{
	f->rng ^= f->rng >> 12;
	f->rng ^= f->rng << 25;
	f->rng ^= f->rng >> 27;
	return n ? (uint32_t)((f->rng * 0x2545f4914f6cdd1dULL) >> 32) % n : 0;
}

#define SAY(f, ...) snprintf((f)->what, sizeof((f)->what), __VA_ARGS__)

static struct nlmsghdr *msg(struct fuzz *f, char *buf, uint16_t type,
			    uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++f->seq;
	g->cmd = cmd;
	g->version = type == GENL_ID_CTRL ? 1 : DARD_GENL_VERSION;
	return nlh;
}

/*
 * What the kernel answered to nlh: 0 accepted, -errno refused, -ETIME
 * no answer. A dump that ran is accepted; one refused at its start ends
 * in an error, or in NLMSG_DONE carrying it.
 */
static int ask(struct fuzz *f, struct nlmsghdr *nlh, mnl_cb_t cb, void *arg)
{
	static char buf[BUF * 2];
	int dump = (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
	ssize_t n;

	if (!dump)
		nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(f->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		const struct nlmsghdr *m = (void *)buf;
		int len;

		n = mnl_socket_recvfrom(f->nl, buf, sizeof(buf));
		if (n < 0)
			return errno == EAGAIN ? -ETIME : -errno;
		len = n;
		for (; mnl_nlmsg_ok(m, len); m = mnl_nlmsg_next(m, &len)) {
			if (m->nlmsg_seq != nlh->nlmsg_seq)
				continue; /* an earlier request's */
			if (m->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e =
					mnl_nlmsg_get_payload(m);

				return e->error;
			}
			if (m->nlmsg_type == NLMSG_DONE) {
				const int *e = mnl_nlmsg_get_payload(m);

				return m->nlmsg_len >= MNL_NLMSG_HDRLEN + 4 ? *e
									    : 0;
			}
			if (cb)
				cb(m, arg);
		}
	}
}

static int family_attr(const struct nlattr *a, void *arg)
{
	if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
	    mnl_attr_validate(a, MNL_TYPE_U16) == 0)
		*(uint16_t *)arg = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *arg)
{
	return mnl_attr_parse(nlh, GENL_HDRLEN, family_attr, arg);
}

/* The settings a refused request must leave as they were. */
struct dev {
	uint32_t id, flows_max, dests, alias_seen;
	uint64_t age, bytes;
	uint8_t dscp;
	int answered;
};

static int dev_attr(const struct nlattr *a, void *arg)
{
	struct dev *d = arg;

	switch (mnl_attr_get_type(a)) {
	case DARD_A_ID:
		d->id = mnl_attr_get_u32(a);
		break;
	case DARD_A_FLOWS_MAX:
		d->flows_max = mnl_attr_get_u32(a);
		break;
	case DARD_A_DESTS:
		d->dests = mnl_attr_get_u32(a);
		break;
	case DARD_A_ELEPHANT_AGE_NS:
		d->age = mnl_attr_get_u64(a);
		break;
	case DARD_A_ELEPHANT_BYTES:
		d->bytes = mnl_attr_get_u64(a);
		break;
	case DARD_A_ELEPHANT_DSCP:
		d->dscp = mnl_attr_get_u8(a);
		break;
	}
	return MNL_CB_OK;
}

static int dev_cb(const struct nlmsghdr *nlh, void *arg)
{
	((struct dev *)arg)->answered = 1;
	return mnl_attr_parse(nlh, GENL_HDRLEN, dev_attr, arg);
}

static int get_device(struct fuzz *f, struct dev *d)
{
	char buf[256];
	struct nlmsghdr *nlh = msg(f, buf, f->family, DARD_CMD_GET_DEVICE, 0);

	memset(d, 0, sizeof(*d));
	mnl_attr_put_u32(nlh, DARD_A_IFINDEX, f->ifindex);
	return ask(f, nlh, dev_cb, d);
}

/* One attribute of a known size, to be sent at another size. */
static const struct sized {
	uint16_t type;
	uint16_t len;
	const char *name;
} sized[] = {
	{DARD_A_IFINDEX, 4, "ifindex"},
	{DARD_A_ID, 4, "id"},
	{DARD_A_ALIAS, 4, "alias"},
	{DARD_A_FLAGS, 4, "flags"},
	{DARD_A_ELEPHANT_AGE_NS, 8, "elephant_age_ns"},
	{DARD_A_ELEPHANT_BYTES, 8, "elephant_bytes"},
	{DARD_A_ELEPHANT_DSCP, 1, "elephant_dscp"},
	{DARD_A_FLOWS_MAX, 4, "flows_max"},
	{DARD_A_DEST, 4, "dest"},
};

static const uint8_t cmds[] = {
	DARD_CMD_GET_DEVICE, DARD_CMD_SET_DEVICE,  DARD_CMD_SET_DEST,
	DARD_CMD_SET_DEAD,   DARD_CMD_GET_FLOW,	   DARD_CMD_MOVE_FLOW,
	DARD_CMD_DEL_FLOW,   DARD_CMD_SET_WEIGHTS, DARD_CMD_GET_WEIGHTS,
};

static uint8_t any_cmd(struct fuzz *f, uint16_t *flags)
{
	uint8_t cmd = cmds[rnd(f, sizeof(cmds))];

	*flags = cmd == DARD_CMD_GET_FLOW ? NLM_F_DUMP : 0;
	return cmd;
}

static void put_random(struct fuzz *f, struct nlmsghdr *nlh, uint16_t type,
		       uint16_t len)
{
	char v[64];
	unsigned i;

	for (i = 0; i < len && i < sizeof(v); i++)
		v[i] = rnd(f, 256);
	mnl_attr_put(nlh, type, len, v);
}

static void put_dev(struct fuzz *f, struct nlmsghdr *nlh)
{
	mnl_attr_put_u32(nlh, DARD_A_IFINDEX, f->ifindex);
}

/* A path as it should be, but for what bad (0: nothing) makes wrong. */
static void put_path(struct fuzz *f, struct nlmsghdr *nlh, int bad)
{
	struct nlattr *p = mnl_attr_nest_start(nlh, DARD_A_PATH);

	if (bad != 1)
		mnl_attr_put_u32(nlh, DARD_PATH_A_SADDR,
				 htonl(0x0a000000 | rnd(f, 1 << 24)));
	if (bad == 2)
		mnl_attr_put_u16(nlh, DARD_PATH_A_DADDR, 7);
	else
		mnl_attr_put_u32(nlh, DARD_PATH_A_DADDR, htonl(0x0a000001));
	if (bad == 3)
		put_random(f, nlh, DARD_PATH_A_MAX + 1 + rnd(f, 100), 4);
	mnl_attr_nest_end(nlh, p);
}

static void put_key(struct fuzz *f, struct nlmsghdr *nlh, int bad)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, DARD_A_FLOW);

	/* 198.51.100.0/24 (TEST-NET-2): no flow of the test's is there. */
	if (bad != 1)
		mnl_attr_put_u32(nlh, DARD_FLOW_A_SADDR,
				 htonl(0xc6336400 | rnd(f, 256)));
	mnl_attr_put_u32(nlh, DARD_FLOW_A_DADDR,
			 htonl(0xc6336400 | rnd(f, 256)));
	mnl_attr_put_u16(nlh, DARD_FLOW_A_SPORT, rnd(f, 65536));
	mnl_attr_put_u16(nlh, DARD_FLOW_A_DPORT, rnd(f, 65536));
	if (bad == 2)
		mnl_attr_put_u32(nlh, DARD_FLOW_A_PROTO, 6);
	else
		mnl_attr_put_u8(nlh, DARD_FLOW_A_PROTO, 6);
	if (bad == 3)
		put_random(f, nlh, DARD_FLOW_A_MAX + 1 + rnd(f, 100), 8);
	mnl_attr_nest_end(nlh, n);
}

/* An attribute of the wrong size, to any command. */
static struct nlmsghdr *bad_size(struct fuzz *f, char *buf)
{
	static const uint16_t lens[] = {0, 1, 2, 3, 5, 6, 8, 12, 16};
	const struct sized *s = &sized[rnd(f, sizeof(sized) / sizeof(*s))];
	uint16_t flags, len;
	uint8_t cmd = any_cmd(f, &flags);
	struct nlmsghdr *nlh = msg(f, buf, f->family, cmd, flags);

	do
		len = lens[rnd(f, sizeof(lens) / sizeof(*lens))];
	while (len == s->len);
	if (s->type != DARD_A_IFINDEX)
		put_dev(f, nlh);
	put_random(f, nlh, s->type, len);
	SAY(f, "cmd %u: %s of %u bytes, not %u", cmd, s->name, len, s->len);
	return nlh;
}

/* Nests: too short, wrongly flagged, with a broken or wrong inside. */
static struct nlmsghdr *bad_nest(struct fuzz *f, char *buf)
{
	struct nlmsghdr *nlh;
	struct nlattr *n;
	unsigned how = rnd(f, 7);

	if (how < 3) {
		nlh = msg(f, buf, f->family, DARD_CMD_SET_DEST, 0);
		put_dev(f, nlh);
		mnl_attr_put_u32(nlh, DARD_A_DEST, htonl(0xac100063));
	} else {
		nlh = msg(f, buf, f->family,
			  rnd(f, 2) ? DARD_CMD_MOVE_FLOW : DARD_CMD_DEL_FLOW,
			  0);
		put_dev(f, nlh);
	}
	switch (how) {
	case 0: /* paths of 1-3 bytes: shorter than an attribute */
		put_random(f, nlh, DARD_A_PATHS | NLA_F_NESTED, 1 + rnd(f, 3));
		SAY(f, "paths: a nest shorter than an attribute header");
		break;
	case 1: /* paths without NLA_F_NESTED */
		n = mnl_attr_nest_start(nlh, DARD_A_PATHS);
		put_path(f, nlh, 0);
		mnl_attr_nest_end(nlh, n);
		n->nla_type &= ~NLA_F_NESTED;
		SAY(f, "paths: nested without NLA_F_NESTED");
		break;
	case 2: /* a path whose inside is wrong */
		n = mnl_attr_nest_start(nlh, DARD_A_PATHS);
		put_path(f, nlh, 2 + rnd(f, 2));
		mnl_attr_nest_end(nlh, n);
		SAY(f, "paths: a path with a 2-byte daddr or an unknown "
		       "attribute");
		break;
	case 3: /* the flow as a u32 */
		mnl_attr_put_u32(nlh, DARD_A_FLOW, rnd(f, 0xffffffff));
		SAY(f, "flow: a u32, not a nest");
		break;
	case 4: /* NLA_F_NESTED on a plain attribute */
		mnl_attr_put_u32(nlh, DARD_A_ID | NLA_F_NESTED, 0);
		put_key(f, nlh, 0);
		SAY(f, "id flagged NLA_F_NESTED");
		break;
	case 5: /* a key whose proto is a u32, or with an unknown one */
		put_key(f, nlh, 2 + rnd(f, 2));
		SAY(f, "flow: proto as a u32, or an unknown attribute");
		break;
	default: /* a nest that ends inside its last attribute */
		n = mnl_attr_nest_start(nlh, DARD_A_FLOW);
		mnl_attr_put_u32(nlh, DARD_FLOW_A_SADDR, 1);
		mnl_attr_nest_end(nlh, n);
		n->nla_len -= 2;
		SAY(f, "flow: a nest cut inside its attribute");
		break;
	}
	return nlh;
}

/* Unknown attribute types, at the top or as type 0. */
static struct nlmsghdr *unknown(struct fuzz *f, char *buf)
{
	uint16_t flags, type;
	uint8_t cmd = any_cmd(f, &flags);
	struct nlmsghdr *nlh = msg(f, buf, f->family, cmd, flags);

	type = rnd(f, 4) ? DARD_A_MAX + 1 + rnd(f, NLA_TYPE_MASK - DARD_A_MAX)
			 : 0;
	put_dev(f, nlh);
	put_random(f, nlh, type, 4 * rnd(f, 4));
	SAY(f, "cmd %u: unknown attribute type %u", cmd, type);
	return nlh;
}

/* Values the types allow and the contract does not. */
static struct nlmsghdr *out_of_range(struct fuzz *f, char *buf)
{
	struct nlmsghdr *nlh = msg(f, buf, f->family, DARD_CMD_SET_DEVICE, 0);
	uint32_t v;

	put_dev(f, nlh);
	switch (rnd(f, 5)) {
	case 0:
		v = 64 + rnd(f, DARD_DSCP_INHERIT - 64);
		mnl_attr_put_u8(nlh, DARD_A_ELEPHANT_DSCP, v);
		SAY(f, "elephant_dscp %u", v);
		break;
	case 1:
		v = (1U << (1 + rnd(f, 31))) | rnd(f, 2);
		mnl_attr_put_u32(nlh, DARD_A_FLAGS, v);
		SAY(f, "flags %#x: unknown bits", v);
		break;
	case 2:
		v = rnd(f, 2) ? 0 : DARD_FLOWS_MAX * 16 + 1 + rnd(f, 1 << 30);
		mnl_attr_put_u32(nlh, DARD_A_FLOWS_MAX, v);
		SAY(f, "flows_max %u", v);
		break;
	case 3:
		nlh = msg(f, buf, f->family, DARD_CMD_SET_DEAD, 0);
		put_dev(f, nlh);
		mnl_attr_put_u32(nlh, DARD_A_DEST, htonl(0xac100063));
		v = 8 * rnd(f, DARD_PATHS_MAX / 64);
		put_random(f, nlh, DARD_A_DEAD, v);
		SAY(f, "dead of %u bytes, not %u", v, DARD_PATHS_MAX / 8);
		break;
	default:
		nlh = msg(f, buf, f->family, DARD_CMD_SET_DEST, 0);
		put_dev(f, nlh);
		mnl_attr_put_u32(nlh, DARD_A_DEST, htonl(0xac100063));
		{
			struct nlattr *n =
				mnl_attr_nest_start(nlh, DARD_A_PATHS);

			put_path(f, nlh, 1);
			mnl_attr_nest_end(nlh, n);
		}
		SAY(f, "a path without its source alias");
	}
	return nlh;
}

/* No device, a device that is not there, one that is not a dard one. */
static struct nlmsghdr *no_dev(struct fuzz *f, char *buf)
{
	uint16_t flags;
	uint8_t cmd = any_cmd(f, &flags);
	struct nlmsghdr *nlh = msg(f, buf, f->family, cmd, flags);

	switch (rnd(f, 4)) {
	case 0:
		SAY(f, "cmd %u: no device", cmd);
		break;
	case 1:
		mnl_attr_put_u32(nlh, DARD_A_IFINDEX, 1);
		SAY(f, "cmd %u: ifindex 1 (lo, no dard device)", cmd);
		break;
	case 2:
		mnl_attr_put_u32(nlh, DARD_A_IFINDEX, 100000 + rnd(f, 1 << 30));
		SAY(f, "cmd %u: an ifindex nobody has", cmd);
		break;
	default:
		mnl_attr_put_strz(nlh, DARD_A_IFNAME,
				  rnd(f, 2) ? "lo" : "nlfuzz-none");
		SAY(f, "cmd %u: ifname of no dard device", cmd);
	}
	if (cmd == DARD_CMD_MOVE_FLOW || cmd == DARD_CMD_DEL_FLOW)
		put_key(f, nlh, 0);
	return nlh;
}

/* More paths than DARD_PATHS_MAX, or none. */
static struct nlmsghdr *too_many(struct fuzz *f, char *buf)
{
	struct nlmsghdr *nlh = msg(f, buf, f->family, DARD_CMD_SET_DEST, 0);
	unsigned i, n = rnd(f, 4) ? DARD_PATHS_MAX + 1 + rnd(f, 8) : 0;
	struct nlattr *all;

	put_dev(f, nlh);
	mnl_attr_put_u32(nlh, DARD_A_DEST, htonl(0xac100063));
	all = mnl_attr_nest_start(nlh, DARD_A_PATHS);
	for (i = 0; i < n; i++)
		put_path(f, nlh, 0);
	mnl_attr_nest_end(nlh, all);
	SAY(f, "%u paths", n);
	return nlh;
}

/* The message itself broken: an attribute past its end, or too short. */
static struct nlmsghdr *truncated(struct fuzz *f, char *buf)
{
	uint16_t flags;
	uint8_t cmd = any_cmd(f, &flags);
	struct nlmsghdr *nlh = msg(f, buf, f->family, cmd, flags);
	struct nlattr *a;

	put_dev(f, nlh);
	a = mnl_nlmsg_get_payload_tail(nlh);
	mnl_attr_put_u32(nlh, DARD_A_ID, 0);
	if (rnd(f, 2)) {
		a->nla_len = 8 + 4 * (1 + rnd(f, 16)); /* past the end */
		SAY(f, "cmd %u: an attribute longer than the message", cmd);
	} else {
		a->nla_len = rnd(f, 4); /* shorter than its header */
		SAY(f, "cmd %u: an attribute of length %u", cmd, a->nla_len);
	}
	return nlh;
}

/* Commands userspace has no business sending. */
static struct nlmsghdr *bad_cmd(struct fuzz *f, char *buf)
{
	static const uint8_t bad[] = {DARD_CMD_UNSPEC, DARD_CMD_EVENT,
				      __DARD_CMD_MAX, 200, 255};
	uint8_t cmd = bad[rnd(f, sizeof(bad))];
	struct nlmsghdr *nlh = msg(f, buf, f->family, cmd, 0);

	put_dev(f, nlh);
	SAY(f, "command %u", cmd);
	return nlh;
}

/* Well formed, about what is not there. */
static struct nlmsghdr *not_there(struct fuzz *f, char *buf)
{
	struct nlmsghdr *nlh;

	switch (rnd(f, 3)) {
	case 0:
		nlh = msg(f, buf, f->family, DARD_CMD_MOVE_FLOW, 0);
		put_dev(f, nlh);
		put_key(f, nlh, 0);
		SAY(f, "move of a flow that is not there");
		break;
	case 1:
		nlh = msg(f, buf, f->family, DARD_CMD_SET_DEAD, 0);
		put_dev(f, nlh);
		/* 203.0.113.0/24 (TEST-NET-3): no destination of the test. */
		mnl_attr_put_u32(nlh, DARD_A_DEST,
				 htonl(0xcb007100 | rnd(f, 256)));
		put_random(f, nlh, DARD_A_DEAD, DARD_PATHS_MAX / 8);
		SAY(f, "dead bits of a destination that is not there");
		break;
	default:
		nlh = msg(f, buf, f->family,
			  rnd(f, 2) ? DARD_CMD_MOVE_FLOW : DARD_CMD_DEL_FLOW,
			  0);
		put_dev(f, nlh);
		put_key(f, nlh, 1);
		SAY(f, "a flow without its source");
	}
	return nlh;
}

/* Weights: not whole u16s, none, too many, all 0, or of no destination. */
static struct nlmsghdr *bad_weights(struct fuzz *f, char *buf)
{
	uint16_t w[DARD_PATHS_MAX + 8] = {0};
	struct nlmsghdr *nlh = msg(f, buf, f->family, DARD_CMD_SET_WEIGHTS, 0);
	unsigned n = 1 + rnd(f, 16), i;

	put_dev(f, nlh);
	mnl_attr_put_u32(nlh, DARD_A_DEST, htonl(0xcb007100 | rnd(f, 256)));
	switch (rnd(f, 6)) {
	case 0:
		mnl_attr_put(nlh, DARD_A_WEIGHTS, 2 * n - 1, w);
		SAY(f, "weights of %u bytes: not whole u16s", 2 * n - 1);
		break;
	case 1:
		mnl_attr_put(nlh, DARD_A_WEIGHTS, 0, w);
		SAY(f, "weights of 0 bytes");
		break;
	case 2:
		n = DARD_PATHS_MAX + 1 + rnd(f, 8);
		mnl_attr_put(nlh, DARD_A_WEIGHTS, 2 * n, w);
		SAY(f, "%u weights, over DARD_PATHS_MAX", n);
		break;
	case 3:
		mnl_attr_put(nlh, DARD_A_WEIGHTS, 2 * n, w);
		SAY(f, "%u weights, all 0", n);
		break;
	case 4:
		for (i = 0; i < n; i++)
			w[i] = rnd(f, 1000);
		w[0] = 1;
		mnl_attr_put(nlh, DARD_A_WEIGHTS, 2 * n, w);
		SAY(f, "weights of a destination that is not there");
		break;
	default:
		nlh = msg(f, buf, f->family, DARD_CMD_GET_WEIGHTS, 0);
		put_dev(f, nlh);
		if (rnd(f, 2)) {
			mnl_attr_put_u32(nlh, DARD_A_DEST,
					 htonl(0xcb007100 | rnd(f, 256)));
			SAY(f, "get weights of a destination not there");
		} else {
			SAY(f, "get weights without a destination");
		}
	}
	return nlh;
}

/* 4in6's layout: the wrong size, or one dard_layout6_valid refuses. */
static struct nlmsghdr *bad_layout(struct fuzz *f, char *buf)
{
	struct nlmsghdr *nlh = msg(f, buf, f->family, DARD_CMD_SET_DEVICE, 0);
	struct dard_layout6 l = {.outer6 = 1, .nfields = 2};
	unsigned k = rnd(f, DARD_LAYOUT_FIELDS), len = sizeof(l);

	put_dev(f, nlh);
	/* A good one first: 8 bits at 0 and 8 at 8, both families. */
	l.width4[0] = l.width6[0] = l.width4[1] = l.width6[1] = 8;
	l.shift4[1] = l.shift6[1] = 8;
	switch (rnd(f, 7)) {
	case 0:
		len = rnd(f, 2) ? rnd(f, sizeof(l)) : sizeof(l) + 1 + rnd(f, 8);
		SAY(f, "a layout of %u bytes", len);
		break;
	case 1:
		l.outer6 = 2 + rnd(f, 1000);
		SAY(f, "a layout with outer6 %u", l.outer6);
		break;
	case 2:
		l.nfields = DARD_LAYOUT_FIELDS + 1 + rnd(f, 100);
		SAY(f, "a layout of %u fields", l.nfields);
		break;
	case 3:
		l.width4[k % 2] = rnd(f, 2) ? 0 : 33 + rnd(f, 200);
		SAY(f, "a layout with an IPv4 field of %u bits",
		    l.width4[k % 2]);
		break;
	case 4:
		l.shift6[1] = 121 + rnd(f, 100);
		SAY(f, "a layout with a field past bit 128 (at %u)",
		    l.shift6[1]);
		break;
	case 5:
		l.width6[0] = 7;
		SAY(f, "a layout with a field narrower in IPv6");
		break;
	default:
		l.shift6[1] = rnd(f, 8);
		SAY(f, "a layout with two fields over one bit");
	}
	mnl_attr_put(nlh, DARD_A_LAYOUT6, len, &l);
	return nlh;
}

static struct nlmsghdr *(*const faults[])(struct fuzz *, char *) = {
	bad_size,  bad_nest, unknown,	out_of_range, no_dev,	  too_many,
	truncated, bad_cmd,  not_there, bad_weights,  bad_layout,
};

static void result(struct fuzz *f, int ok, const char *fmt, const char *arg)
{
	if (ok) {
		f->passed++;
		return;
	}
	f->failed++;
	printf("nlfuzz: FAIL ");
	printf(fmt, arg);
	printf("\n");
}

/* The device answers, with the settings it had before. */
static void check_device(struct fuzz *f, const struct dev *before)
{
	struct dev now;
	int ret = get_device(f, &now);

	if (ret || !now.answered) {
		result(f, 0, "GET_DEVICE: %s",
		       ret ? strerror(-ret) : "no answer");
		return;
	}
	now.answered = before->answered;
	result(f, !memcmp(&now, before, sizeof(now)), "%s",
	       "the device's settings changed under refused requests");
}

/* -p: whether this caller may change DEV; dev is what GET_DEVICE said. */
static int probe(struct fuzz *f, const struct dev *dev)
{
	char buf[256];
	struct nlmsghdr *nlh = msg(f, buf, f->family, DARD_CMD_SET_DEVICE, 0);
	int ret;

	mnl_attr_put_u32(nlh, DARD_A_IFINDEX, f->ifindex);
	mnl_attr_put_u8(nlh, DARD_A_ELEPHANT_DSCP, dev->dscp);
	ret = ask(f, nlh, NULL, NULL);
	printf("nlfuzz: GET_DEVICE answered; SET_DEVICE: %s\n",
	       ret ? strerror(-ret) : "accepted");
	return ret == -EPERM ? 0 : ret ? 1 : 3;
}

static int usage(FILE *out)
{
	fprintf(out, "Usage: nlfuzz [ -n ITERATIONS ] [ -s SEED ] [ -v ] DEV\n"
		     "       nlfuzz -p DEV\n"
		     "Sends DEV's dard module ITERATIONS (default 2000) "
		     "malformed requests;\n"
		     "every one must be refused. -p: whether SET_DEVICE is "
		     "refused (EPERM).\n");
	return out == stdout ? 0 : 2;
}

static int setup(struct fuzz *f, const char *dev)
{
	struct timeval tv = {.tv_sec = 2};
	char buf[256];
	struct nlmsghdr *nlh;
	int ret;

	f->ifindex = if_nametoindex(dev);
	if (!f->ifindex) {
		fprintf(stderr, "nlfuzz: no device %s\n", dev);
		return -1;
	}
	f->nl = mnl_socket_open(NETLINK_GENERIC);
	if (!f->nl || mnl_socket_bind(f->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("nlfuzz: generic netlink");
		return -1;
	}
	setsockopt(mnl_socket_get_fd(f->nl), SOL_SOCKET, SO_RCVTIMEO, &tv,
		   sizeof(tv));
	nlh = msg(f, buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, DARD_GENL_NAME);
	ret = ask(f, nlh, family_cb, &f->family);
	if (ret || !f->family) {
		fprintf(stderr, "nlfuzz: no family %s: %s\n", DARD_GENL_NAME,
			ret ? strerror(-ret) : "no id");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static char buf[BUF];
	struct fuzz f = {0};
	unsigned long n = 2000, i;
	struct dev before;
	int opt, ret, priv = 0;

	f.rng = time(NULL);
	while ((opt = getopt(argc, argv, "n:ps:vh")) != -1) {
		if (opt == 'p')
			priv = 1;
		else if (opt == 'n')
			n = strtoul(optarg, NULL, 10);
		else if (opt == 's')
			f.rng = strtoull(optarg, NULL, 10);
		else if (opt == 'v')
			f.verbose = 1;
		else
			return usage(opt == 'h' ? stdout : stderr);
	}
	if (optind != argc - 1)
		return usage(stderr);
	f.rng |= 1; /* xorshift never leaves 0 */
	printf("nlfuzz: seed %llu\n", (unsigned long long)f.rng);
	if (setup(&f, argv[optind]))
		return 1;
	ret = get_device(&f, &before);
	if (ret || !before.answered) {
		fprintf(stderr, "nlfuzz: %s is no dard device: %s\n",
			argv[optind], ret ? strerror(-ret) : "no answer");
		return 1;
	}
	if (priv)
		return probe(&f, &before);
	for (i = 0; i < n; i++) {
		struct nlmsghdr *nlh =
			faults[rnd(&f, sizeof(faults) / sizeof(*faults))](&f,
									  buf);

		ret = ask(&f, nlh, NULL, NULL);
		if (f.verbose)
			printf("nlfuzz: %s: %s\n", f.what,
			       ret ? strerror(-ret) : "accepted");
		if (ret == -ETIME)
			result(&f, 0, "%s: no answer", f.what);
		else
			result(&f, ret < 0, "%s: accepted", f.what);
		if ((i + 1) % CHECK_EVERY == 0)
			check_device(&f, &before);
	}
	check_device(&f, &before);
	printf("nlfuzz: %u passed, %u failed\n", f.passed, f.failed);
	mnl_socket_close(f.nl);
	return f.failed ? 1 : 0;
}
