// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The iproute2 commands dardctl's renderers write for fattree:4, line by
 * line: a host and switches of each level, under dard's routing (aliases,
 * downhill table, uphill tables by source prefix) and under ECMP. The
 * expected text follows the DARD paper's Table 2 for aggr1_1 (downhill
 * 10.4.16.64/26 and 10.4.16.128/26 per pod port, uphill 10.4.0.0/14 to
 * core1 on port 3) and the /31 link plan (each next hop is the far end
 * of the link the route leaves by).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render.h"
#include "unit.h"

typedef void render_fn(FILE *f, const struct dard_topo *t,
		       const struct dard_plan *p, uint32_t node,
		       const char *ip);

struct fixture {
	struct dard_topo *t;
	struct dard_plan *p;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &f->t, &f->p);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	dard_plan_free(f->p);
	dard_topo_free(f->t);
	free(f);
	return 0;
}

static uint32_t node(const struct fixture *f, const char *name)
{
	uint32_t n = dard_topo_find(f->t, name);

	if (n == DARD_NONE)
		fail_msg("no node `%s' in fattree:4", name);
	return n;
}

/* What fn writes for the node, compared as a whole (cmocka shows both). */
static void check(const struct fixture *f, render_fn *fn, const char *name,
		  const char *ip, const char *want)
{
	char *got = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&got, &len);

	assert_non_null(m);
	fn(m, f->t, f->p, node(f, name), ip);
	assert_int_equal(fclose(m), 0);
	assert_string_equal(got, want);
	free(got);
}

static void test_host_dard(void **state)
{
	/* The ip prefix reaches every command. */
	check(*state, render_host, "e1_1", "ip ",
	      "# e1_1: ID on lo, aliases on eth0, everything via the ToR\n"
	      "ip link set dev lo up\n"
	      "ip addr add 172.20.0.65/31 dev eth0\n"
	      "ip link set dev eth0 up\n"
	      "ip addr add 10.4.16.66/32 dev eth0\n"
	      "ip addr add 10.8.16.66/32 dev eth0\n"
	      "ip addr add 10.12.16.66/32 dev eth0\n"
	      "ip addr add 10.16.16.66/32 dev eth0\n"
	      "ip addr add 172.16.0.1/32 dev lo\n"
	      "ip route add default via 172.20.0.64 dev eth0\n"
	      "ip route add 172.16.0.0/16 via 172.20.0.64 dev eth0 src "
	      "172.16.0.1 mtu 1480 advmss 1440\n");
}

static void test_tor_dard(void **state)
{
	check(*state, render_switch, "tor1_1", "",
	      "# tor1_1 (tor): downhill table 100 on the destination first,\n"
	      "# then uphill tables 1000+PORT chosen by source prefix\n"
	      "link set dev lo up\n"
	      "addr add 172.20.0.64/31 dev p1\n"
	      "link set dev p1 up\n"
	      "addr add 172.20.0.66/31 dev p2\n"
	      "link set dev p2 up\n"
	      "addr add 172.20.0.33/31 dev p3\n"
	      "link set dev p3 up\n"
	      "addr add 172.20.0.37/31 dev p4\n"
	      "link set dev p4 up\n"
	      "route add 10.4.16.66/32 via 172.20.0.65 dev p1 table 100 proto static\n"
	      "route add 10.4.16.67/32 via 172.20.0.67 dev p2 table 100 proto static\n"
	      "route add 10.8.16.66/32 via 172.20.0.65 dev p1 table 100 proto static\n"
	      "route add 10.8.16.67/32 via 172.20.0.67 dev p2 table 100 proto static\n"
	      "route add 10.12.16.66/32 via 172.20.0.65 dev p1 table 100 proto static\n"
	      "route add 10.12.16.67/32 via 172.20.0.67 dev p2 table 100 proto static\n"
	      "route add 10.16.16.66/32 via 172.20.0.65 dev p1 table 100 proto static\n"
	      "route add 10.16.16.67/32 via 172.20.0.67 dev p2 table 100 proto static\n"
	      "route add unreachable 10.4.16.64/26 table 100 proto static\n"
	      "route add unreachable 10.8.16.64/26 table 100 proto static\n"
	      "route add unreachable 10.12.16.64/26 table 100 proto static\n"
	      "route add unreachable 10.16.16.64/26 table 100 proto static\n"
	      "rule add pref 100 lookup 100\n"
	      "route add default via 172.20.0.32 dev p3 table 1003 proto static\n"
	      "route add default via 172.20.0.36 dev p4 table 1004 proto static\n"
	      "rule add pref 200 from 10.4.16.0/20 lookup 1003\n"
	      "rule add pref 200 from 10.8.16.0/20 lookup 1003\n"
	      "rule add pref 200 from 10.12.16.0/20 lookup 1004\n"
	      "rule add pref 200 from 10.16.16.0/20 lookup 1004\n");
}

static void test_aggr_dard(void **state)
{
	check(*state, render_switch, "aggr1_1", "",
	      "# aggr1_1 (aggr): downhill table 100 on the destination first,\n"
	      "# then uphill tables 1000+PORT chosen by source prefix\n"
	      "link set dev lo up\n"
	      "addr add 172.20.0.32/31 dev p1\n"
	      "link set dev p1 up\n"
	      "addr add 172.20.0.34/31 dev p2\n"
	      "link set dev p2 up\n"
	      "addr add 172.20.0.1/31 dev p3\n"
	      "link set dev p3 up\n"
	      "addr add 172.20.0.9/31 dev p4\n"
	      "link set dev p4 up\n"
	      "route add 10.4.16.64/26 via 172.20.0.33 dev p1 table 100 proto static\n"
	      "route add 10.4.16.128/26 via 172.20.0.35 dev p2 table 100 proto static\n"
	      "route add 10.8.16.64/26 via 172.20.0.33 dev p1 table 100 proto static\n"
	      "route add 10.8.16.128/26 via 172.20.0.35 dev p2 table 100 proto static\n"
	      "route add unreachable 10.4.16.0/20 table 100 proto static\n"
	      "route add unreachable 10.8.16.0/20 table 100 proto static\n"
	      "rule add pref 100 lookup 100\n"
	      "route add default via 172.20.0.0 dev p3 table 1003 proto static\n"
	      "route add default via 172.20.0.8 dev p4 table 1004 proto static\n"
	      "rule add pref 200 from 10.4.0.0/14 lookup 1003\n"
	      "rule add pref 200 from 10.8.0.0/14 lookup 1004\n");
}

static void test_core_dard(void **state)
{
	/* The top has no up ports: no uphill tables, no rules from. */
	check(*state, render_switch, "core1", "",
	      "# core1 (core): downhill table 100 on the destination first,\n"
	      "# then uphill tables 1000+PORT chosen by source prefix\n"
	      "link set dev lo up\n"
	      "addr add 172.20.0.0/31 dev p1\n"
	      "link set dev p1 up\n"
	      "addr add 172.20.0.2/31 dev p2\n"
	      "link set dev p2 up\n"
	      "addr add 172.20.0.4/31 dev p3\n"
	      "link set dev p3 up\n"
	      "addr add 172.20.0.6/31 dev p4\n"
	      "link set dev p4 up\n"
	      "route add 10.4.16.0/20 via 172.20.0.1 dev p1 table 100 proto static\n"
	      "route add 10.4.32.0/20 via 172.20.0.3 dev p2 table 100 proto static\n"
	      "route add 10.4.48.0/20 via 172.20.0.5 dev p3 table 100 proto static\n"
	      "route add 10.4.64.0/20 via 172.20.0.7 dev p4 table 100 proto static\n"
	      "route add unreachable 10.4.0.0/14 table 100 proto static\n"
	      "rule add pref 100 lookup 100\n");
}

static void test_host_ecmp(void **state)
{
	/* No aliases, no room for an outer header: nothing is wrapped. */
	check(*state, render_host_ecmp, "e1_1", "",
	      "# e1_1: ID on lo, everything via the ToR, unwrapped\n"
	      "link set dev lo up\n"
	      "addr add 172.20.0.65/31 dev eth0\n"
	      "link set dev eth0 up\n"
	      "addr add 172.16.0.1/32 dev lo\n"
	      "route add default via 172.20.0.64 dev eth0\n"
	      "route add 172.16.0.0/16 via 172.20.0.64 dev eth0 src 172.16.0.1\n");
}

static void test_tor_ecmp(void **state)
{
	check(*state, render_switch_ecmp, "tor1_1", "",
	      "# tor1_1 (tor): ECMP on the destination ID, down where the host\n"
	      "# is below, else over every up port\n"
	      "link set dev lo up\n"
	      "addr add 172.20.0.64/31 dev p1\n"
	      "link set dev p1 up\n"
	      "addr add 172.20.0.66/31 dev p2\n"
	      "link set dev p2 up\n"
	      "addr add 172.20.0.33/31 dev p3\n"
	      "link set dev p3 up\n"
	      "addr add 172.20.0.37/31 dev p4\n"
	      "link set dev p4 up\n"
	      "route add 172.16.0.1/32 proto static via 172.20.0.65 dev p1\n"
	      "route add 172.16.0.2/32 proto static via 172.20.0.67 dev p2\n"
	      "route add default proto static nexthop via 172.20.0.32 dev p3 "
	      "nexthop via 172.20.0.36 dev p4\n");
}

static void test_aggr_ecmp(void **state)
{
	check(*state, render_switch_ecmp, "aggr1_1", "ip ",
	      "# aggr1_1 (aggr): ECMP on the destination ID, down where the host\n"
	      "# is below, else over every up port\n"
	      "ip link set dev lo up\n"
	      "ip addr add 172.20.0.32/31 dev p1\n"
	      "ip link set dev p1 up\n"
	      "ip addr add 172.20.0.34/31 dev p2\n"
	      "ip link set dev p2 up\n"
	      "ip addr add 172.20.0.1/31 dev p3\n"
	      "ip link set dev p3 up\n"
	      "ip addr add 172.20.0.9/31 dev p4\n"
	      "ip link set dev p4 up\n"
	      "ip route add 172.16.0.1/32 proto static via 172.20.0.33 dev p1\n"
	      "ip route add 172.16.0.2/32 proto static via 172.20.0.33 dev p1\n"
	      "ip route add 172.16.0.3/32 proto static via 172.20.0.35 dev p2\n"
	      "ip route add 172.16.0.4/32 proto static via 172.20.0.35 dev p2\n"
	      "ip route add default proto static nexthop via 172.20.0.0 dev p3 "
	      "nexthop via 172.20.0.8 dev p4\n");
}

static void test_core_ecmp(void **state)
{
	struct fixture *f = *state;
	char *got = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&got, &len);
	char want[96];
	unsigned h;

	/* Every host down its pod's port, single next hops, no default. */
	assert_non_null(m);
	render_switch_ecmp(m, f->t, f->p, node(f, "core1"), "");
	assert_int_equal(fclose(m), 0);
	for (h = 1; h <= 16; h++) {
		snprintf(want, sizeof(want),
			 "\nroute add 172.16.0.%u/32 proto static via "
			 "172.20.0.%u dev p%u\n",
			 h, 2 * ((h - 1) / 4) + 1, (h - 1) / 4 + 1);
		assert_non_null(strstr(got, want));
	}
	assert_null(strstr(got, "default"));
	assert_null(strstr(got, "nexthop"));
	free(got);
}

/* The other renderers share the host and switch signature through these. */
static void sysctl_fn(FILE *f, const struct dard_topo *t,
		      const struct dard_plan *p, uint32_t n, const char *ip)
{
	render_sysctl(f, t, p, n);
}

static void tc_100(FILE *f, const struct dard_topo *t,
		   const struct dard_plan *p, uint32_t n, const char *ip)
{
	render_tc(f, t, n, 100);
}

static void tc_10(FILE *f, const struct dard_topo *t, const struct dard_plan *p,
		  uint32_t n, const char *ip)
{
	render_tc(f, t, n, 10);
}

static void tc_1000(FILE *f, const struct dard_topo *t,
		    const struct dard_plan *p, uint32_t n, const char *ip)
{
	render_tc(f, t, n, 1000);
}

static void tc_0(FILE *f, const struct dard_topo *t, const struct dard_plan *p,
		 uint32_t n, const char *ip)
{
	render_tc(f, t, n, 0);
}

static void test_sysctl(void **state)
{
	check(*state, sysctl_fn, "e1_1", "",
	      "net.ipv4.ip_forward = 0\n"
	      "net.ipv4.conf.all.rp_filter = 0\n"
	      "net.ipv4.conf.default.rp_filter = 0\n"
	      "net.ipv4.conf.all.send_redirects = 0\n"
	      "net.ipv4.conf.default.send_redirects = 0\n"
	      "net.ipv6.conf.all.disable_ipv6 = 1\n"
	      "net.ipv6.conf.default.disable_ipv6 = 1\n"
	      "net.ipv4.conf.eth0.rp_filter = 0\n");
	check(*state, sysctl_fn, "core1", "",
	      "net.ipv4.ip_forward = 1\n"
	      "net.ipv4.conf.all.rp_filter = 0\n"
	      "net.ipv4.conf.default.rp_filter = 0\n"
	      "net.ipv4.conf.all.send_redirects = 0\n"
	      "net.ipv4.conf.default.send_redirects = 0\n"
	      "net.ipv6.conf.all.disable_ipv6 = 1\n"
	      "net.ipv6.conf.default.disable_ipv6 = 1\n"
	      "net.ipv4.conf.p1.rp_filter = 0\n"
	      "net.ipv4.conf.p2.rp_filter = 0\n"
	      "net.ipv4.conf.p3.rp_filter = 0\n"
	      "net.ipv4.conf.p4.rp_filter = 0\n");
}

static void test_tc(void **state)
{
	/*
	 * Burst: 2 ms of the rate, but never under a whole GSO packet
	 * (RENDER_TBF_MIN_BURST), which tbf would cut into frames.
	 */
	check(*state, tc_1000, "e1_1", "",
	      "qdisc add dev eth0 root tbf rate 1000mbit burst 250000 latency 20ms\n");
	check(*state, tc_100, "e1_1", "",
	      "qdisc add dev eth0 root tbf rate 100mbit burst 80000 latency 20ms\n");
	check(*state, tc_10, "aggr1_1", "",
	      "qdisc add dev p1 root tbf rate 10mbit burst 80000 latency 20ms\n"
	      "qdisc add dev p2 root tbf rate 10mbit burst 80000 latency 20ms\n"
	      "qdisc add dev p3 root tbf rate 10mbit burst 80000 latency 20ms\n"
	      "qdisc add dev p4 root tbf rate 10mbit burst 80000 latency 20ms\n");
	/* Zero: unlimited, no qdisc at all. */
	check(*state, tc_0, "aggr1_1", "", "");
}

/*
 * A link whose capacity is below the rate (testbed --degrade writes it
 * into dard.conf) runs at its capacity, at both ends; the others at the
 * rate.
 */
static void test_tc_degraded(void **state)
{
	struct fixture *f = *state;
	struct dard_link *l = (struct dard_link *)dard_topo_port_link(
		f->t, node(f, "aggr1_1"), 3);
	uint32_t was = l->mbps;

	l->mbps = 25;
	check(f, tc_100, "aggr1_1", "",
	      "qdisc add dev p1 root tbf rate 100mbit burst 80000 latency 20ms\n"
	      "qdisc add dev p2 root tbf rate 100mbit burst 80000 latency 20ms\n"
	      "qdisc add dev p3 root tbf rate 25mbit burst 80000 latency 20ms\n"
	      "qdisc add dev p4 root tbf rate 100mbit burst 80000 latency 20ms\n");
	check(f, tc_10, "aggr1_1", "",
	      "qdisc add dev p1 root tbf rate 10mbit burst 80000 latency 20ms\n"
	      "qdisc add dev p2 root tbf rate 10mbit burst 80000 latency 20ms\n"
	      "qdisc add dev p3 root tbf rate 10mbit burst 80000 latency 20ms\n"
	      "qdisc add dev p4 root tbf rate 10mbit burst 80000 latency 20ms\n");
	l->mbps = was;
}

static void test_ifname(void **state)
{
	struct fixture *f = *state;
	char b[16];

	assert_string_equal(render_ifname(f->t, node(f, "e1_1"), 1, b), "eth0");
	assert_string_equal(render_ifname(f->t, node(f, "aggr1_1"), 3, b),
			    "p3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_host_dard),
		cmocka_unit_test(test_tor_dard),
		cmocka_unit_test(test_aggr_dard),
		cmocka_unit_test(test_core_dard),
		cmocka_unit_test(test_host_ecmp),
		cmocka_unit_test(test_tor_ecmp),
		cmocka_unit_test(test_aggr_ecmp),
		cmocka_unit_test(test_core_ecmp),
		cmocka_unit_test(test_sysctl),
		cmocka_unit_test(test_tc),
		cmocka_unit_test(test_tc_degraded),
		cmocka_unit_test(test_ifname),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
