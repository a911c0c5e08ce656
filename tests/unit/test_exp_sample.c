// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-exp sample's pure parts: the idle share from two /proc/stat
 * readings, and the walk of link and qdisc dumps on crafted rtnetlink
 * datagrams (each interface's IFLA_STATS64, its root qdisc's
 * TCA_STATS2 queue statistics or the old TCA_STATS, what is not ours or
 * too short left out, the dump's end and the kernel's error).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <linux/gen_stats.h>
#include <linux/if_link.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>

#include "nlstats.h"
#include "procstat.h"

static void test_idle(void **state)
{
	struct exp_cpu a, b, g;

	(void)state;
	/* The aggregate line, not cpu0's; guest (70) is in user already. */
	assert_int_equal(exp_cpu_parse("cpu  100 0 50 800 50 0 0 0 70 0\n"
				       "cpu0 50 0 25 400 25 0 0 0 35 0\n",
				       &a),
			 0);
	assert_int_equal(a.total, 1000);
	assert_int_equal(a.idle, 850);
	assert_int_equal(exp_cpu_parse("intr 5\ncpu  150 0 100 1100 100 0 0 0 "
				       "70 0\ncpu0 1 1 1 1\n",
				       &b),
			 0);
	/* 450 ticks, 350 of them idle or waiting. */
	assert_true(fabs(exp_cpu_idle(&a, &b) - 350.0 / 450) < 1e-12);
	assert_true(isnan(exp_cpu_idle(&a, &a)));
	assert_true(isnan(exp_cpu_idle(&b, &a)));
	/* iowait going back is held to the range. */
	g = b;
	g.idle = 0;
	g.total = a.total + 10;
	assert_true(exp_cpu_idle(&a, &g) == 0);
	/* An old kernel's four fields; none, or cpu0's alone. */
	assert_int_equal(exp_cpu_parse("cpu  1 2 3 4\n", &g), 0);
	assert_int_equal(g.total, 10);
	assert_int_equal(g.idle, 4);
	assert_int_equal(exp_cpu_parse("cpu0 1 2 3 4 5\n", &g), -EINVAL);
	assert_int_equal(exp_cpu_parse("cpu  1 2 3\n", &g), -EINVAL);
	assert_int_equal(exp_cpu_parse("", &g), -EINVAL);
}

/* A datagram being built: messages, each with its attributes. */
struct dgram {
	uint32_t buf[1024];
	size_t len;
	struct nlmsghdr *m;
};

static void *at(struct dgram *d, size_t off)
{
	return (char *)d->buf + off;
}

static void msg(struct dgram *d, uint16_t type, uint32_t seq, const void *hdr,
		size_t hlen)
{
	d->m = at(d, d->len);
	memset(d->m, 0, NLMSG_SPACE(hlen));
	d->m->nlmsg_type = type;
	d->m->nlmsg_seq = seq;
	d->m->nlmsg_len = NLMSG_LENGTH(hlen);
	memcpy(NLMSG_DATA(d->m), hdr, hlen);
	d->len += NLMSG_SPACE(hlen);
}

/* An attribute at the message's end; its offset, for nesting. */
static size_t attr(struct dgram *d, uint16_t type, const void *data, size_t len)
{
	size_t off = d->len;
	struct rtattr *a = at(d, off);

	a->rta_type = type;
	a->rta_len = RTA_LENGTH(len);
	memset(RTA_DATA(a), 0, RTA_ALIGN(len));
	if (data)
		memcpy(RTA_DATA(a), data, len);
	d->len += RTA_SPACE(len);
	d->m->nlmsg_len = d->len - ((char *)d->m - (char *)d->buf);
	return off;
}

/* Closes a nest opened by attr(d, type, NULL, 0) at off. */
static void nest_end(struct dgram *d, size_t off)
{
	struct rtattr *a = at(d, off);

	a->rta_len = d->len - off;
}

static void link_msg(struct dgram *d, uint32_t seq, int ifindex,
		     const char *name, size_t name_len, uint64_t tx_bytes,
		     uint64_t tx_packets, size_t stats_len)
{
	struct ifinfomsg ifi = {.ifi_family = AF_UNSPEC, .ifi_index = ifindex};
	struct rtnl_link_stats64 st = {
		.tx_bytes = tx_bytes, .tx_packets = tx_packets, .rx_bytes = 77};

	msg(d, RTM_NEWLINK, seq, &ifi, sizeof(ifi));
	attr(d, IFLA_IFNAME, name, name_len);
	attr(d, IFLA_STATS64, &st, stats_len);
}

static void qdisc_msg(struct dgram *d, int ifindex, uint32_t parent,
		      uint32_t drops, uint32_t backlog)
{
	struct tcmsg tc = {.tcm_family = AF_UNSPEC,
			   .tcm_ifindex = ifindex,
			   .tcm_parent = parent};
	struct gnet_stats_basic basic = {.bytes = 5, .packets = 1};
	struct gnet_stats_queue q = {.backlog = backlog, .drops = drops};
	size_t nest;

	msg(d, RTM_NEWQDISC, 7, &tc, sizeof(tc));
	attr(d, TCA_KIND, "tbf", 4);
	nest = attr(d, TCA_STATS2, NULL, 0);
	attr(d, TCA_STATS_BASIC, &basic, sizeof(basic));
	attr(d, TCA_STATS_QUEUE, &q, sizeof(q));
	nest_end(d, nest);
}

static const struct exp_ifstat *find_if(const struct exp_ifstats *s,
					int ifindex)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->v[i].ifindex == ifindex)
			return &s->v[i];
	return NULL;
}

static void test_walk(void **state)
{
	struct exp_ifstats s = {0};
	const struct exp_ifstat *p;
	struct dgram d = {.len = 0};
	struct tcmsg tc = {.tcm_ifindex = 1, .tcm_parent = TC_H_ROOT};
	struct tc_stats old = {.drops = 3, .backlog = 4};
	int error = -EPERM;

	(void)state;
	/* The link dump: p1, lo; a short stats, an unterminated name and
	 * another request's answer are left out. */
	link_msg(&d, 7, 2, "p1", 3, 1000, 10, sizeof(struct rtnl_link_stats64));
	link_msg(&d, 7, 1, "lo", 3, 5, 1, sizeof(struct rtnl_link_stats64));
	link_msg(&d, 7, 3, "p2", 3, 1, 1, 24);
	link_msg(&d, 7, 4, "p3xx", 4, 1, 1, sizeof(struct rtnl_link_stats64));
	link_msg(&d, 8, 5, "p4", 3, 1, 1, sizeof(struct rtnl_link_stats64));
	assert_int_equal(exp_nl_walk(d.buf, d.len, 7, &s), 1);
	assert_int_equal(s.n, 2);
	p = find_if(&s, 2);
	assert_non_null(p);
	assert_string_equal(p->name, "p1");
	assert_true(p->have_link && !p->have_qdisc);
	assert_int_equal(p->tx_bytes, 1000);
	assert_int_equal(p->tx_packets, 10);
	/* The qdisc dump: p1's root tbf, its child left out; lo's root
	 * with the old struct only; ifindex 9, no link of it; the end. */
	d.len = 0;
	qdisc_msg(&d, 2, TC_H_ROOT, 7, 300);
	qdisc_msg(&d, 2, 0x10001, 99, 99);
	msg(&d, RTM_NEWQDISC, 7, &tc, sizeof(tc));
	attr(&d, TCA_STATS, &old, sizeof(old));
	qdisc_msg(&d, 9, TC_H_ROOT, 1, 1);
	msg(&d, NLMSG_DONE, 7, &error, sizeof(error));
	assert_int_equal(exp_nl_walk(d.buf, d.len, 7, &s), 0);
	p = find_if(&s, 2);
	assert_true(p->have_link && p->have_qdisc);
	assert_int_equal(p->drops, 7);
	assert_int_equal(p->backlog, 300);
	p = find_if(&s, 1);
	assert_int_equal(p->drops, 3);
	assert_int_equal(p->backlog, 4);
	p = find_if(&s, 9);
	assert_true(p && !p->have_link && p->have_qdisc);
	/* The kernel's refusal, and a datagram cut short. */
	d.len = 0;
	msg(&d, NLMSG_ERROR, 7, &error, sizeof(error));
	assert_int_equal(exp_nl_walk(d.buf, d.len, 7, &s), -EPERM);
	d.len = 0;
	link_msg(&d, 7, 6, "p6", 3, 1, 1, sizeof(struct rtnl_link_stats64));
	assert_int_equal(exp_nl_walk(d.buf, d.len - 4, 7, &s), 1);
	assert_null(find_if(&s, 6));
	exp_ifstats_reset(&s);
	assert_int_equal(s.n, 0);
	exp_ifstats_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle),
		cmocka_unit_test(test_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
