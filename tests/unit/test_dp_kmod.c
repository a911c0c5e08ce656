// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The kernel module's backend without the module: the choice of backend,
 * the requests it builds, its reading of the module's replies (built here
 * by hand with libmnl, as the module would send them, and broken on
 * purpose), and the error when the module is not loaded (this host cannot
 * load modules; the guest tests under tests/kmod/ meet the module).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/genetlink.h>
#include <cmocka.h>

#include "dp.h"
#include "dp_kmod.h"

static char buf[DARD_KMSG_MAX];

static void test_kind(void **state)
{
	(void)state;
	assert_int_equal(dard_dp_kind_parse(NULL), DARD_DP_AUTO);
	assert_int_equal(dard_dp_kind_parse("auto"), DARD_DP_AUTO);
	assert_int_equal(dard_dp_kind_parse("bpf"), DARD_DP_BPF);
	assert_int_equal(dard_dp_kind_parse("kmod"), DARD_DP_KMOD);
	assert_int_equal(dard_dp_kind_parse("KMOD"), -EINVAL);
	assert_int_equal(dard_dp_kind_parse(""), -EINVAL);
	assert_int_equal(dard_dp_kind_parse("kmodx"), -EINVAL);
}

static void test_pick(void **state)
{
	static const struct {
		enum dard_dp_kind kind;
		struct dard_dp_seen seen;
		const struct dard_dp_ops *want;
	} rows[] = {
		/* An explicit kind, whatever is there. */
		{DARD_DP_BPF, {1, 0, 1}, &dard_dp_bpf},
		{DARD_DP_KMOD, {0, 1, 0}, &dard_dp_kmod},
		/* auto: what is on the interface first. */
		{DARD_DP_AUTO, {1, 0, 1}, &dard_dp_kmod},
		{DARD_DP_AUTO, {0, 1, 1}, &dard_dp_bpf},
		{DARD_DP_AUTO, {1, 1, 1}, &dard_dp_kmod},
		/* Nothing there: the module if loaded. */
		{DARD_DP_AUTO, {0, 0, 1}, &dard_dp_kmod},
		{DARD_DP_AUTO, {0, 0, 0}, &dard_dp_bpf},
	};
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_ptr_equal(dard_dp_pick(rows[i].kind, &rows[i].seen),
				 rows[i].want);
	/* Not auto: nothing is looked at (no I/O). */
	assert_ptr_equal(dard_dp_choose(DARD_DP_KMOD, "nonexistent0", NULL),
			 &dard_dp_kmod);
}

/* This host has no module: every way in says so, and changes nothing. */
static void test_not_loaded(void **state)
{
	struct dard_dp_opts o;
	struct dard_knl k = {};
	struct dard_dp *dp = NULL;

	(void)state;
	assert_int_equal(dard_knl_open(&k), -ENOPKG);
	assert_null(k.nl);
	assert_int_equal(dard_dp_kmod.open(&dp, "lo", NULL), -ENOPKG);
	dard_dp_opts_init(&o, "lo", NULL);
	assert_int_equal(dard_dp_kmod.attach(&dp, &o), -ENOPKG);
	assert_null(dp);
	o.ifname = "nonexistent0";
	assert_int_equal(dard_dp_kmod.attach(&dp, &o), -ENODEV);
	assert_string_equal(dard_dp_strerror(-ENOPKG),
			    "dard.ko is not loaded (modprobe dard)");
	assert_string_equal(dard_dp_strerror(-ENOENT), strerror(ENOENT));
	/* auto on a host without the module, pins or device: BPF. */
	assert_ptr_equal(dard_dp_choose(DARD_DP_AUTO, "lo", "/nonexistent"),
			 &dard_dp_bpf);
}

struct seen_path {
	uint32_t saddr, daddr;
	int next; /* -1: none */
};

static int path_cb(const struct nlattr *a, void *arg)
{
	struct seen_path *p = arg;

	switch (mnl_attr_get_type(a)) {
	case DARD_PATH_A_SADDR:
		p->saddr = mnl_attr_get_u32(a);
		break;
	case DARD_PATH_A_DADDR:
		p->daddr = mnl_attr_get_u32(a);
		break;
	case DARD_PATH_A_NEXT:
		assert_int_equal(mnl_attr_get_payload_len(a), 1);
		p->next = mnl_attr_get_u8(a);
		break;
	default:
		fail_msg("unexpected path attribute %u", mnl_attr_get_type(a));
	}
	return MNL_CB_OK;
}

static void test_put_dest(void **state)
{
	struct dard_alias_pair p[3] = {
		{htonl(0x0a010101), htonl(0x0a020202)},
		{htonl(0x0a010102), htonl(0x0a020203)},
		{htonl(0x0a010103), htonl(0x0a020204)},
	};
	const uint8_t next[3] = {2, 0, 9}; /* 9: out of range, left out */
	struct nlmsghdr *nlh;
	const struct nlattr *a, *path;
	struct genlmsghdr *g;
	unsigned seen = 0, npaths = 0;

	(void)state;
	nlh = dard_kmsg_new(buf, 0x1234, DARD_CMD_SET_DEST, 0, 7);
	dard_kmsg_put_dev(nlh, 5);
	assert_int_equal(dard_kmsg_put_dest(nlh, 0xac100001, p, 3, next), 0);
	assert_int_equal(nlh->nlmsg_type, 0x1234);
	assert_true(nlh->nlmsg_flags & NLM_F_REQUEST);
	g = mnl_nlmsg_get_payload(nlh);
	assert_int_equal(g->cmd, DARD_CMD_SET_DEST);
	assert_int_equal(g->version, DARD_GENL_VERSION);
	mnl_attr_for_each(a, nlh, GENL_HDRLEN)
	{
		switch (mnl_attr_get_type(a)) {
		case DARD_A_IFINDEX:
			assert_int_equal(mnl_attr_get_u32(a), 5);
			seen |= 1;
			break;
		case DARD_A_DEST:
			/* Network order on the wire. */
			assert_int_equal(mnl_attr_get_u32(a),
					 htonl(0xac100001));
			seen |= 2;
			break;
		case DARD_A_PATHS:
			mnl_attr_for_each_nested(path, a)
			{
				struct seen_path sp = {.next = -1};

				assert_int_equal(mnl_attr_get_type(path),
						 DARD_A_PATH);
				mnl_attr_parse_nested(path, path_cb, &sp);
				assert_int_equal(sp.saddr, p[npaths].saddr);
				assert_int_equal(sp.daddr, p[npaths].daddr);
				assert_int_equal(sp.next, npaths < 2
								  ? next[npaths]
								  : -1);
				npaths++;
			}
			seen |= 4;
			break;
		default:
			fail_msg("unexpected attribute %u",
				 mnl_attr_get_type(a));
		}
	}
	assert_int_equal(seen, 7);
	assert_int_equal(npaths, 3);
	assert_int_equal(dard_kmsg_put_dest(nlh, 1, p, 0, NULL), -ERANGE);
	assert_int_equal(
		dard_kmsg_put_dest(nlh, 1, p, DARD_PATHS_MAX + 1, NULL),
		-ERANGE);
}

/* Every path of the largest destination fits one request. */
static void test_put_dest_max(void **state)
{
	static struct dard_alias_pair p[DARD_PATHS_MAX];
	static uint8_t next[DARD_PATHS_MAX];
	struct nlmsghdr *nlh;

	(void)state;
	nlh = dard_kmsg_new(buf, 0x1234, DARD_CMD_SET_DEST, 0, 7);
	dard_kmsg_put_dev(nlh, 5);
	assert_int_equal(dard_kmsg_put_dest(nlh, 1, p, DARD_PATHS_MAX, next),
			 0);
	assert_true(nlh->nlmsg_len <= DARD_KMSG_MAX);
}

static const struct dard_flow_key key = {
	.saddr = 0x010010ac,
	.daddr = 0x020010ac, /* raw, any order */
	.sport = 0x3930,
	.dport = 0x8913,
	.proto = 6,
};

/* A flow as the module sends it in a dump or an event. */
static void put_flow(struct nlmsghdr *nlh, int with_key, int bad)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, DARD_A_FLOW);

	if (with_key) {
		mnl_attr_put_u32(nlh, DARD_FLOW_A_SADDR, key.saddr);
		mnl_attr_put_u32(nlh, DARD_FLOW_A_DADDR, key.daddr);
	}
	mnl_attr_put_u16(nlh, DARD_FLOW_A_SPORT, key.sport);
	mnl_attr_put_u16(nlh, DARD_FLOW_A_DPORT, key.dport);
	mnl_attr_put_u8(nlh, DARD_FLOW_A_PROTO, key.proto);
	mnl_attr_put_u32(nlh, DARD_FLOW_A_PATH_SADDR, 0x0101010a);
	mnl_attr_put_u32(nlh, DARD_FLOW_A_PATH_DADDR, 0x0202020a);
	mnl_attr_put_u32(nlh, DARD_FLOW_A_PATH_IDX, 3);
	mnl_attr_put_u64(nlh, DARD_FLOW_A_FIRST_NS, 1000);
	mnl_attr_put_u64(nlh, DARD_FLOW_A_LAST_NS, 2000);
	if (bad) /* bytes as a u32: the wrong size */
		mnl_attr_put_u32(nlh, DARD_FLOW_A_BYTES, 1);
	else
		mnl_attr_put_u64(nlh, DARD_FLOW_A_BYTES, 1ULL << 40);
	mnl_attr_put_u64(nlh, DARD_FLOW_A_PACKETS, 77);
	mnl_attr_put_u64(nlh, DARD_FLOW_A_ELEPHANT_NS, 1500);
	mnl_attr_put_u32(nlh, DARD_FLOW_A_MOVES, 2);
	mnl_attr_put_u32(nlh, DARD_FLOW_A_FLAGS,
			 DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED |
				 1U << 30);
	/* A newer module's attribute: skipped. */
	mnl_attr_put_u64(nlh, DARD_FLOW_A_MAX + 1, 5);
	mnl_attr_nest_end(nlh, n);
}

static struct nlmsghdr *reply(uint8_t cmd)
{
	return dard_kmsg_new(buf, 0x1234, cmd, NLM_F_MULTI, 1);
}

static void test_flow(void **state)
{
	struct dard_flow_key k;
	struct dard_flow f;
	struct nlmsghdr *nlh;
	uint32_t ifindex = 99;

	(void)state;
	nlh = reply(DARD_CMD_GET_FLOW);
	mnl_attr_put_u32(nlh, DARD_A_IFINDEX, 4);
	put_flow(nlh, 1, 0);
	assert_int_equal(dard_kmsg_flow(nlh, &k, &f, &ifindex), 0);
	assert_memory_equal(&k, &key, sizeof(k));
	assert_int_equal(ifindex, 4);
	assert_int_equal(f.path.saddr, 0x0101010a);
	assert_int_equal(f.path.daddr, 0x0202020a);
	assert_int_equal(f.path_idx, 3);
	assert_true(f.first_ns == 1000 && f.last_ns == 2000);
	assert_true(f.bytes == 1ULL << 40 && f.packets == 77);
	assert_true(f.elephant_ns == 1500);
	assert_int_equal(f.moves, 2);
	/* Unknown flag bits are dropped. */
	assert_int_equal(f.flags, DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED);
	assert_int_equal(f.txhash, 0);
	assert_int_equal(f.live_gen, DARD_LIVE_GEN_UNCHECKED);

	/* No device named: 0. */
	nlh = reply(DARD_CMD_GET_FLOW);
	put_flow(nlh, 1, 0);
	assert_int_equal(dard_kmsg_flow(nlh, &k, &f, &ifindex), 0);
	assert_int_equal(ifindex, 0);
}

static void test_flow_bad(void **state)
{
	struct dard_flow_key k;
	struct dard_flow f;
	struct nlmsghdr *nlh;
	uint32_t ifindex;

	(void)state;
	/* No key. */
	nlh = reply(DARD_CMD_GET_FLOW);
	put_flow(nlh, 0, 0);
	assert_int_equal(dard_kmsg_flow(nlh, &k, &f, &ifindex), -EINVAL);
	/* A counter of the wrong size. */
	nlh = reply(DARD_CMD_GET_FLOW);
	put_flow(nlh, 1, 1);
	assert_int_equal(dard_kmsg_flow(nlh, &k, &f, &ifindex), -EINVAL);
	/* No DARD_A_FLOW at all. */
	nlh = reply(DARD_CMD_GET_FLOW);
	mnl_attr_put_u32(nlh, DARD_A_IFINDEX, 4);
	assert_int_equal(dard_kmsg_flow(nlh, &k, &f, &ifindex), -EINVAL);
	/* DARD_A_FLOW not nested: a u32. */
	nlh = reply(DARD_CMD_GET_FLOW);
	mnl_attr_put_u32(nlh, DARD_A_FLOW, 4);
	assert_int_equal(dard_kmsg_flow(nlh, &k, &f, &ifindex), -EINVAL);
	/* The ifindex of the wrong size. */
	nlh = reply(DARD_CMD_GET_FLOW);
	mnl_attr_put_u16(nlh, DARD_A_IFINDEX, 4);
	put_flow(nlh, 1, 0);
	assert_int_equal(dard_kmsg_flow(nlh, &k, &f, &ifindex), -EINVAL);
	/* Shorter than its generic netlink header. */
	nlh = reply(DARD_CMD_GET_FLOW);
	nlh->nlmsg_len = MNL_NLMSG_HDRLEN + 2;
	assert_int_equal(dard_kmsg_flow(nlh, &k, &f, &ifindex), -EINVAL);
}

static void test_event(void **state)
{
	struct dard_event ev;
	struct nlmsghdr *nlh;
	uint32_t ifindex;

	(void)state;
	nlh = reply(DARD_CMD_EVENT);
	mnl_attr_put_u32(nlh, DARD_A_EVENT, DARD_EVENT_ELEPHANT);
	mnl_attr_put_u32(nlh, DARD_A_IFINDEX, 9);
	mnl_attr_put_u64(nlh, DARD_A_TIME_NS, 123456789);
	put_flow(nlh, 1, 0);
	assert_int_equal(dard_kmsg_event(nlh, &ev, &ifindex), 0);
	assert_int_equal(ev.type, DARD_EVENT_ELEPHANT);
	assert_int_equal(ifindex, 9);
	assert_memory_equal(&ev.key, &key, sizeof(key));
	assert_int_equal(ev.path.saddr, 0x0101010a);
	assert_true(ev.ts_ns == 123456789 && ev.bytes == 1ULL << 40);

	/* A type we do not know. */
	nlh = reply(DARD_CMD_EVENT);
	mnl_attr_put_u32(nlh, DARD_A_EVENT, 3);
	mnl_attr_put_u32(nlh, DARD_A_IFINDEX, 9);
	put_flow(nlh, 1, 0);
	assert_int_equal(dard_kmsg_event(nlh, &ev, &ifindex), -EINVAL);
	/* No device: whose is it? */
	nlh = reply(DARD_CMD_EVENT);
	mnl_attr_put_u32(nlh, DARD_A_EVENT, DARD_EVENT_END);
	put_flow(nlh, 1, 0);
	assert_int_equal(dard_kmsg_event(nlh, &ev, &ifindex), -EINVAL);
	/* No flow. */
	nlh = reply(DARD_CMD_EVENT);
	mnl_attr_put_u32(nlh, DARD_A_EVENT, DARD_EVENT_END);
	mnl_attr_put_u32(nlh, DARD_A_IFINDEX, 9);
	assert_int_equal(dard_kmsg_event(nlh, &ev, &ifindex), -EINVAL);
}

static void test_device(void **state)
{
	struct dard_kdev kd;
	struct nlmsghdr *nlh;
	struct nlattr *n;
	unsigned i;

	(void)state;
	nlh = reply(DARD_CMD_GET_DEVICE);
	mnl_attr_put_u32(nlh, DARD_A_IFINDEX, 3);
	mnl_attr_put_u32(nlh, DARD_A_ID, htonl(0xac100001));
	mnl_attr_put_u32(nlh, DARD_A_FLOWS, 12);
	mnl_attr_put_u32(nlh, DARD_A_FLOWS_MAX, 65536);
	mnl_attr_put_u8(nlh, DARD_A_ELEPHANT_DSCP, 8);
	n = mnl_attr_nest_start(nlh, DARD_A_STATS);
	/* Counter i is attribute i + 1; all but new_flow (4). */
	for (i = 0; i < __DARD_STAT_MAX; i++)
		if (i != DARD_STAT_NEW_FLOW)
			mnl_attr_put_u64(nlh, i + 1, 100 + i);
	/* A newer module's counter: skipped. */
	mnl_attr_put_u64(nlh, __DARD_STAT_MAX + 1, 42);
	mnl_attr_nest_end(nlh, n);
	assert_int_equal(dard_kmsg_device(nlh, &kd), 0);
	assert_int_equal(kd.ifindex, 3);
	assert_int_equal(kd.id, htonl(0xac100001));
	assert_int_equal(kd.flows, 12);
	assert_int_equal(kd.flows_max, 65536);
	assert_int_equal(kd.elephant_dscp, 8);
	for (i = 0; i < __DARD_STAT_MAX; i++)
		assert_true(kd.stats[i] ==
			    (i == DARD_STAT_NEW_FLOW ? 0 : 100 + i));

	/* A counter as a u32. */
	nlh = reply(DARD_CMD_GET_DEVICE);
	mnl_attr_put_u32(nlh, DARD_A_IFINDEX, 3);
	n = mnl_attr_nest_start(nlh, DARD_A_STATS);
	mnl_attr_put_u32(nlh, 1, 5);
	mnl_attr_nest_end(nlh, n);
	assert_int_equal(dard_kmsg_device(nlh, &kd), -EINVAL);
	/* No device. */
	nlh = reply(DARD_CMD_GET_DEVICE);
	mnl_attr_put_u32(nlh, DARD_A_ID, 1);
	assert_int_equal(dard_kmsg_device(nlh, &kd), -EINVAL);
}

static void put_group(struct nlmsghdr *nlh, unsigned i, const char *name,
		      uint32_t id)
{
	struct nlattr *g = mnl_attr_nest_start(nlh, i);

	mnl_attr_put_u32(nlh, CTRL_ATTR_MCAST_GRP_ID, id);
	mnl_attr_put_strz(nlh, CTRL_ATTR_MCAST_GRP_NAME, name);
	mnl_attr_nest_end(nlh, g);
}

static void test_family(void **state)
{
	struct nlmsghdr *nlh;
	struct nlattr *n;
	uint16_t family;
	uint32_t grp;

	(void)state;
	nlh = dard_kmsg_getfamily(buf, 1);
	assert_int_equal(nlh->nlmsg_type, GENL_ID_CTRL);

	nlh = dard_kmsg_new(buf, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY, 0, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, DARD_GENL_NAME);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x22);
	n = mnl_attr_nest_start(nlh, CTRL_ATTR_MCAST_GROUPS);
	put_group(nlh, 1, "other", 7);
	put_group(nlh, 2, DARD_GENL_MCGRP, 9);
	mnl_attr_nest_end(nlh, n);
	assert_int_equal(dard_kmsg_family(nlh, &family, &grp), 0);
	assert_int_equal(family, 0x22);
	assert_int_equal(grp, 9);

	/* No groups: events cannot be had, the rest works. */
	nlh = dard_kmsg_new(buf, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY, 0, 1);
	mnl_attr_put_u16(nlh, CTRL_ATTR_FAMILY_ID, 0x22);
	assert_int_equal(dard_kmsg_family(nlh, &family, &grp), 0);
	assert_int_equal(grp, 0);
	/* No id. */
	nlh = dard_kmsg_new(buf, GENL_ID_CTRL, CTRL_CMD_NEWFAMILY, 0, 1);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, DARD_GENL_NAME);
	assert_int_equal(dard_kmsg_family(nlh, &family, &grp), -EINVAL);
}

/* An NLMSG_ERROR as the kernel sends it: the request echoed whole or
 * capped to its header, then the reason. */
static struct nlmsghdr *nl_error(int error, int capped, const char *why)
{
	static char req_buf[512];
	struct nlmsghdr *req, *nlh;
	struct nlmsgerr *e;

	req = dard_kmsg_new(req_buf, 0x1234, DARD_CMD_SET_DEVICE, 0, 5);
	mnl_attr_put_u32(req, DARD_A_IFINDEX, 3);
	mnl_attr_put_u8(req, DARD_A_ELEPHANT_DSCP, 99);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_seq = 5;
	e = mnl_nlmsg_put_extra_header(
		nlh, sizeof(*e) + (capped ? 0 : req->nlmsg_len - sizeof(*req)));
	e->error = error;
	memcpy(&e->msg, req, capped ? sizeof(*req) : req->nlmsg_len);
	if (capped)
		nlh->nlmsg_flags |= NLM_F_CAPPED;
	if (why) {
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
		mnl_attr_put_strz(nlh, NLMSGERR_ATTR_MSG, why);
		mnl_attr_put_u32(nlh, NLMSGERR_ATTR_OFFS, 28);
	}
	return nlh;
}

static void test_error(void **state)
{
	char msg[64];

	(void)state;
	assert_int_equal(dard_kmsg_error(nl_error(0, 1, NULL), msg, 64), 0);
	assert_string_equal(msg, "");
	assert_int_equal(dard_kmsg_error(nl_error(-EINVAL, 1, "bad dscp"), msg,
					 sizeof(msg)),
			 -EINVAL);
	assert_string_equal(msg, "bad dscp");
	/* The request echoed whole: the reason is after it. */
	assert_int_equal(dard_kmsg_error(nl_error(-ERANGE, 0, "too big"), msg,
					 sizeof(msg)),
			 -ERANGE);
	assert_string_equal(msg, "too big");
	/* Cut to the buffer, terminated. */
	assert_int_equal(
		dard_kmsg_error(nl_error(-EINVAL, 1, "bad dscp"), msg, 4),
		-EINVAL);
	assert_string_equal(msg, "bad");
	/* No reason given. */
	assert_int_equal(
		dard_kmsg_error(nl_error(-ENODEV, 0, NULL), msg, sizeof(msg)),
		-ENODEV);
	assert_string_equal(msg, "");
	/* Not an errno, or too short to hold one. */
	assert_int_equal(dard_kmsg_error(nl_error(5, 1, NULL), msg, 64),
			 -EBADMSG);
	nl_error(-EINVAL, 1, NULL)->nlmsg_len = MNL_NLMSG_HDRLEN + 2;
	assert_int_equal(dard_kmsg_error((void *)buf, msg, 64), -EBADMSG);
	/* What dardctl prints: the module's words after the errno's. */
	assert_string_equal(dard_dp_strerror(-EINVAL), strerror(EINVAL));
}

static int count_cb(const struct nlmsghdr *nlh, void *arg)
{
	++*(int *)arg;
	return MNL_CB_OK;
}

/*
 * What a recv() of a dump hands the transport: the flows, then
 * NLMSG_DONE, which must end it (a dump that never ends hangs dardctl).
 */
static void test_run(void **state)
{
	static char dump[4096];
	struct nlmsghdr *nlh;
	size_t len = 0;
	int i, n = 0;

	(void)state;
	for (i = 0; i < 2; i++) {
		nlh = reply(DARD_CMD_GET_FLOW);
		put_flow(nlh, 1, 0);
		memcpy(dump + len, nlh, nlh->nlmsg_len);
		len += MNL_ALIGN(nlh->nlmsg_len);
	}
	nlh = mnl_nlmsg_put_header(dump + len);
	nlh->nlmsg_type = NLMSG_DONE;
	nlh->nlmsg_flags = NLM_F_MULTI;
	nlh->nlmsg_seq = 1;
	mnl_nlmsg_put_extra_header(nlh, sizeof(int));
	len += nlh->nlmsg_len;
	assert_int_equal(dard_knl_run(dump, len, 1, 0, count_cb, &n),
			 MNL_CB_STOP);
	assert_int_equal(n, 2);
	/* Without its NLMSG_DONE: more to read. */
	n = 0;
	assert_int_equal(
		dard_knl_run(dump, len - nlh->nlmsg_len, 1, 0, count_cb, &n),
		MNL_CB_OK);
	assert_int_equal(n, 2);
	/* A dump that failed half-way (its device went) says so in its
	 * NLMSG_DONE: the flows read so far are not the whole table. */
	*(int *)mnl_nlmsg_get_payload(nlh) = -ENODEV;
	n = 0;
	errno = 0;
	assert_int_equal(dard_knl_run(dump, len, 1, 0, count_cb, &n),
			 MNL_CB_ERROR);
	assert_int_equal(errno, ENODEV);
	assert_int_equal(n, 2);

	/* An ack ends a request; a refusal fails it with its reason. */
	nlh = nl_error(0, 1, NULL);
	nlh->nlmsg_seq = 1;
	assert_int_equal(dard_knl_run(buf, nlh->nlmsg_len, 1, 0, NULL, NULL),
			 MNL_CB_STOP);
	nlh = nl_error(-EINVAL, 1, "not one of its paths");
	nlh->nlmsg_seq = 1;
	errno = 0;
	assert_int_equal(dard_knl_run(buf, nlh->nlmsg_len, 1, 0, NULL, NULL),
			 MNL_CB_ERROR);
	assert_int_equal(errno, EINVAL);
	assert_string_equal(dard_dp_strerror(-EINVAL),
			    "Invalid argument (not one of its paths)");
	/* Another errno: not the reason of this one. */
	assert_string_equal(dard_dp_strerror(-ENOENT), strerror(ENOENT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kind),
		cmocka_unit_test(test_pick),
		cmocka_unit_test(test_not_loaded),
		cmocka_unit_test(test_put_dest),
		cmocka_unit_test(test_put_dest_max),
		cmocka_unit_test(test_flow),
		cmocka_unit_test(test_flow_bad),
		cmocka_unit_test(test_event),
		cmocka_unit_test(test_device),
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_error),
		cmocka_unit_test(test_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
