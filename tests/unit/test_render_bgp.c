// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The eBGP fabric dardctl renders (render_bgp.c), checked by what it
 * must agree with rather than line by line: what a switch holds once
 * BGP has converged is what switch ECMP writes as static routes, less
 * the ToR's kernel routes to its own hosts; a neighbour is the far end
 * of a /31 the switch's own batch configures, with that switch's AS; the
 * roots share an AS and every other switch has its own private one; a
 * ToR announces exactly its hosts and is no transit; each FRR daemon's
 * file holds no other daemon's block. On fattree:4, clos:4,4, fattree:8
 * and 3tier, every switch.
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

static const char *const specs[] = {
	"fattree:4",
	"clos:4,4",
	"fattree:8",
	"3tier",
};

/* RFC 6996's four-byte private range. */
enum {
	ASN_PRIVATE_MIN = 4200000000u,
	ASN_PRIVATE_MAX = 4294967294u,
};

#define LOGFILE "/state/frr/sw/frr.log"

typedef void render_fn(FILE *f, const struct dard_topo *t,
		       const struct dard_plan *p, uint32_t node,
		       const char *ip);

static char *render(render_fn *fn, const struct dard_topo *t,
		    const struct dard_plan *p, uint32_t sw)
{
	char *got = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&got, &len);

	assert_non_null(m);
	fn(m, t, p, sw, "");
	assert_int_equal(fclose(m), 0);
	return got;
}

static char *frr(const struct dard_topo *t, const struct dard_plan *p,
		 uint32_t sw, int daemon)
{
	char *got = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&got, &len);

	assert_non_null(m);
	render_frr(m, t, p, sw, daemon, LOGFILE);
	assert_int_equal(fclose(m), 0);
	return got;
}

static unsigned count(const char *s, const char *what)
{
	unsigned n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

static int is_tor(const struct dard_topo *t, uint32_t sw)
{
	return t->node[sw].level + 1 == t->nlevels;
}

/*
 * The far end of each /31 a switch's batch puts on its ports, by port:
 * what a BGP session on that port must name as its neighbour.
 */
static void far_ends(const char *batch, uint32_t *far, unsigned nports)
{
	const char *l;
	char a[24];
	unsigned k;
	uint32_t addr;

	memset(far, 0, (nports + 1) * sizeof(*far));
	for (l = batch; (l = strstr(l, "\naddr add ")); l++) {
		if (sscanf(l, "\naddr add %23[0-9.]/31 dev p%u", a, &k) != 2)
			continue;
		assert_int_equal(dard_addr_parse(a, &addr), 0);
		assert_true(k >= 1 && k <= nports);
		far[k] = addr ^ 1;
	}
}

/* The port whose far end is addr, 0 if none. */
static unsigned port_of(const uint32_t *far, unsigned nports, uint32_t addr)
{
	unsigned k;

	for (k = 1; k <= nports; k++)
		if (far[k] == addr)
			return k;
	return 0;
}

/*
 * The (prefix, next hop) pairs switch ECMP routes by: each next hop of a
 * /32, and each of the default's once for every host without a /32 (the
 * hosts the default stands for).
 */
static long ecmp_pairs(const struct dard_topo *t, const char *ecmp)
{
	long pairs = 0, routes = 0, up = 0, vias;
	const char *l, *eol;
	char line[1024];

	for (l = ecmp; (l = strstr(l, "\nroute add ")); l++) {
		eol = strchr(l + 1, '\n');
		assert_non_null(eol);
		assert_true((size_t)(eol - l) < sizeof(line));
		memcpy(line, l + 1, eol - l - 1);
		line[eol - l - 1] = '\0';
		vias = count(line, " via ");
		assert_true(vias > 0);
		if (!strncmp(line, "route add default ", 18)) {
			assert_int_equal(up, 0);
			up = vias;
			continue;
		}
		assert_non_null(strstr(line, "/32 "));
		pairs += vias;
		routes++;
	}
	return pairs + up * ((long)t->nhosts - routes);
}

/*
 * The ToR's kernel routes to its hosts, each one ECMP also writes: BGP
 * announces them but does not hold them. Returns how many.
 */
static long kernel_routes(const char *bgp, const char *ecmp)
{
	char dst[24], via[24], want[128];
	const char *l;
	unsigned k;
	long n = 0;

	for (l = bgp; (l = strstr(l, "\nroute add ")); l++) {
		assert_int_equal(sscanf(l,
					"\nroute add %23[0-9./] via %23[0-9.] "
					"dev p%u proto static\n",
					dst, via, &k),
				 3);
		snprintf(want, sizeof(want),
			 "\nroute add %s proto static via %s dev p%u\n", dst,
			 via, k);
		if (!strstr(ecmp, want))
			fail_msg("kernel route `%s' not in ECMP's routes",
				 want);
		n++;
	}
	return n;
}

static void expect_on(const char *spec)
{
	struct dard_topo *t;
	struct dard_plan *p;
	uint32_t sw;

	unit_build(spec, NULL, DARD_MODE_AUTO, &t, &p);
	for (sw = 0; sw < t->nnodes; sw++) {
		char *ecmp, *bgp;
		long want;

		if (t->node[sw].is_host)
			continue;
		ecmp = render(render_switch_ecmp, t, p, sw);
		bgp = render(render_switch_bgp, t, p, sw);
		want = ecmp_pairs(t, ecmp) - kernel_routes(bgp, ecmp);
		if (render_bgp_expect(t, sw) != want)
			fail_msg("%s %s: expect %ld, ECMP less kernel %ld",
				 spec, t->node[sw].name,
				 render_bgp_expect(t, sw), want);
		/* Only a ToR has hosts on its ports. */
		if (!is_tor(t, sw))
			assert_null(strstr(bgp, "route add"));
		free(ecmp);
		free(bgp);
	}
	dard_plan_free(p);
	dard_topo_free(t);
}

static void test_expect(void **state)
{
	struct dard_topo *t;
	struct dard_plan *p;
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		expect_on(specs[i]);

	/*
	 * By hand on fattree:4's 16 hosts: a ToR sends the 14 others up
	 * two ports; an aggr its pod's 4 down one port each and 12 up two;
	 * a core all 16 down one port each.
	 */
	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &t, &p);
	assert_int_equal(render_bgp_expect(t, dard_topo_find(t, "tor1_1")), 28);
	assert_int_equal(render_bgp_expect(t, dard_topo_find(t, "aggr1_1")),
			 28);
	assert_int_equal(render_bgp_expect(t, dard_topo_find(t, "core1")), 16);
	dard_plan_free(p);
	dard_topo_free(t);
}

static void asn_on(const char *spec)
{
	struct dard_topo *t;
	struct dard_plan *p;
	uint32_t sw, o, a, roots = 0;
	char want[64];

	unit_build(spec, NULL, DARD_MODE_AUTO, &t, &p);
	for (sw = 0; sw < t->nnodes; sw++) {
		char *bgpd;

		if (t->node[sw].is_host)
			continue;
		a = render_bgp_asn(t, sw);
		assert_true(a >= ASN_PRIVATE_MIN && a <= ASN_PRIVATE_MAX);
		if (!t->node[sw].level) {
			if (!roots)
				roots = a;
			assert_int_equal(a, roots);
		}
		/* A root's AS is no other switch's, nor is any other's. */
		for (o = 0; o < t->nnodes; o++)
			if (o != sw && !t->node[o].is_host &&
			    (t->node[sw].level || t->node[o].level))
				assert_int_not_equal(a, render_bgp_asn(t, o));
		bgpd = frr(t, p, sw, RENDER_FRR_BGPD);
		snprintf(want, sizeof(want), "\nrouter bgp %u\n", a);
		assert_non_null(strstr(bgpd, want));
		assert_int_equal(count(bgpd, "router bgp "), 1);
		free(bgpd);
	}
	assert_int_not_equal(roots, 0);
	dard_plan_free(p);
	dard_topo_free(t);
}

static void test_asn(void **state)
{
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		asn_on(specs[i]);
}

/*
 * One neighbour per switch-to-switch port, at the far end of the /31 on
 * it, with the peer's AS and BFD; on a ToR, OWN out on each uplink and
 * its hosts' IDs as networks; elsewhere neither.
 */
static void bgpd_on(const char *spec)
{
	struct dard_topo *t;
	struct dard_plan *p;
	uint32_t sw, c, addr, far[256], asn;
	char a[24], want[96];
	unsigned k, seen[256], links, hosts;
	const char *l;

	unit_build(spec, NULL, DARD_MODE_AUTO, &t, &p);
	for (sw = 0; sw < t->nnodes; sw++) {
		const struct dard_node *n = &t->node[sw];
		char *batch, *bgpd;

		if (n->is_host)
			continue;
		assert_true(n->nports < 256);
		batch = render(render_switch_bgp, t, p, sw);
		bgpd = frr(t, p, sw, RENDER_FRR_BGPD);
		far_ends(batch, far, n->nports);
		memset(seen, 0, sizeof(seen));
		for (l = bgpd; (l = strstr(l, "\n neighbor ")); l++) {
			if (sscanf(l, "\n neighbor %23[0-9.] remote-as %u", a,
				   &asn) != 2)
				continue;
			assert_int_equal(dard_addr_parse(a, &addr), 0);
			k = port_of(far, n->nports, addr);
			if (!k)
				fail_msg("%s %s: neighbor %s on no port", spec,
					 n->name, a);
			assert_int_equal(seen[k]++, 0);
			c = dard_topo_peer(t, sw, k);
			assert_int_not_equal(c, DARD_NONE);
			assert_false(t->node[c].is_host);
			assert_int_equal(asn, render_bgp_asn(t, c));
			snprintf(want, sizeof(want),
				 "\n neighbor %s bfd profile fabric\n", a);
			assert_non_null(strstr(bgpd, want));
			snprintf(want, sizeof(want),
				 "\n  neighbor %s route-map OWN out\n", a);
			if (is_tor(t, sw) && t->node[c].level < n->level)
				assert_non_null(strstr(bgpd, want));
		}
		links = 0;
		for_each_port(t, sw, k) {
			if (n->port[k - 1] == DARD_NONE)
				continue;
			c = dard_topo_peer(t, sw, k);
			if (c != DARD_NONE && !t->node[c].is_host) {
				assert_int_equal(seen[k], 1);
				links++;
			}
		}
		assert_int_equal(count(bgpd, " remote-as "), links);

		hosts = 0;
		for (k = 0; k < n->ndown; k++) {
			c = dard_topo_peer(t, sw, n->down[k]);
			if (c == DARD_NONE || !t->node[c].is_host)
				continue;
			snprintf(want, sizeof(want), "\n  network %s/32\n",
				 dard_addr_str(t->node[c].id, a));
			assert_non_null(strstr(bgpd, want));
			hosts++;
		}
		assert_int_equal(count(bgpd, "\n  network "), hosts);
		assert_int_equal(!!hosts, is_tor(t, sw));
		if (is_tor(t, sw)) {
			assert_int_equal(count(bgpd, " route-map OWN out\n"),
					 n->nup);
		} else {
			assert_null(strstr(bgpd, "route-map"));
			assert_null(strstr(bgpd, "as-path access-list"));
		}
		free(batch);
		free(bgpd);
	}
	dard_plan_free(p);
	dard_topo_free(t);
}

static void test_bgpd(void **state)
{
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		bgpd_on(specs[i]);
}

/*
 * A daemon reads all of its file, and another daemon's block is no
 * command of its own: zebra and bfdd see no `router bgp', bgpd and zebra
 * no `bfd' block. Each logs to the file it is given.
 */
static void test_split(void **state)
{
	struct dard_topo *t;
	struct dard_plan *p;
	char *conf[RENDER_FRR_N];
	uint32_t sw;
	int d;

	(void)state;
	unit_build("fattree:4", NULL, DARD_MODE_AUTO, &t, &p);
	for (sw = 0; sw < t->nnodes; sw++) {
		if (t->node[sw].is_host)
			continue;
		for (d = 0; d < RENDER_FRR_N; d++) {
			conf[d] = frr(t, p, sw, d);
			assert_non_null(
				strstr(conf[d], "\nlog file " LOGFILE "\n"));
		}
		assert_null(strstr(conf[RENDER_FRR_ZEBRA], "router bgp"));
		assert_null(strstr(conf[RENDER_FRR_BFDD], "router bgp"));
		assert_null(strstr(conf[RENDER_FRR_ZEBRA], "\nbfd\n"));
		assert_null(strstr(conf[RENDER_FRR_BGPD], "\nbfd\n"));
		assert_null(
			strstr(conf[RENDER_FRR_BGPD], "profile fabric\n  "));
		/* RFC 7938's 300 ms both ways, down after three missed. */
		assert_non_null(strstr(conf[RENDER_FRR_BFDD],
				       "\nbfd\n"
				       " profile fabric\n"
				       "  detect-multiplier 3\n"
				       "  receive-interval 300\n"
				       "  transmit-interval 300\n"));
		assert_non_null(strstr(conf[RENDER_FRR_BGPD],
				       "\n  maximum-paths 64\n"));
		assert_non_null(
			strstr(conf[RENDER_FRR_BGPD],
			       "\n bgp bestpath as-path multipath-relax\n"));
		for (d = 0; d < RENDER_FRR_N; d++)
			free(conf[d]);
	}
	assert_string_equal(render_frr_daemons[RENDER_FRR_ZEBRA], "zebra");
	assert_string_equal(render_frr_daemons[RENDER_FRR_BFDD], "bfdd");
	assert_string_equal(render_frr_daemons[RENDER_FRR_BGPD], "bgpd");
	dard_plan_free(p);
	dard_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expect),
		cmocka_unit_test(test_asn),
		cmocka_unit_test(test_bgpd),
		cmocka_unit_test(test_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
