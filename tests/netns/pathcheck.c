// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-pathcheck: on a namespace testbed (scripts/testbed), send one UDP
 * packet along every path between every ordered pair of ToRs, with the
 * path's alias pair as source and destination, and check that it arrives
 * and that exactly the path's switches forwarded it, once each. The
 * switches' IP ForwDatagrams counters (/proc/net/snmp, per namespace) say
 * who forwarded. Then send on alias pairs that name no path, and to
 * addresses inside switches' prefixes that are no alias, and check they
 * are not delivered and do not loop.
 *
 *   dard-pathcheck CONFIG PREFIX
 *
 * Prints one line per failure and "N passed, N failed"; exits 1 on failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "cfgfile.h"
#include "num.h"
#include "path.h"

/*
 * How long a datagram may take to arrive (a liveness bound: only a
 * failure waits it out), and how long one that must not arrive is given
 * before the switches' counters are read; they are then read again
 * every STABLE_MS until they stop moving (within SETTLE_MS), so that a
 * late packet, on a busy machine, is charged to its own check.
 */
enum {
	PORT = 47000,
	WAIT_MS = 20000,
	LOST_WAIT_MS = 300,
	STABLE_MS = 100,
	SETTLE_MS = 10000,
};

struct check {
	struct dard_config cfg;
	struct dard_pathctx *pc;
	int *nsfd;		  /* per node */
	uint64_t *before, *after; /* ForwDatagrams per node */
	unsigned passed, failed;
	unsigned seq;
};

static void die(const char *what)
{
	perror(what);
	exit(2);
}

static void enter(struct check *c, uint32_t node)
{
	if (setns(c->nsfd[node], CLONE_NEWNET))
		die("setns");
}

/* IP ForwDatagrams of the current namespace. */
static uint64_t forwarded(void)
{
	char head[1024], vals[1024];
	uint64_t v = 0;
	char *h, *x, *hs, *vs;
	int col = 0, want = -1;
	FILE *f = fopen("/proc/net/snmp", "r");

	if (!f)
		die("/proc/net/snmp");
	if (!fgets(head, sizeof(head), f) || !fgets(vals, sizeof(vals), f))
		die("/proc/net/snmp: short read");
	fclose(f);
	for (h = strtok_r(head, " \n", &hs); h;
	     h = strtok_r(NULL, " \n", &hs), col++)
		if (!strcmp(h, "ForwDatagrams"))
			want = col;
	if (want < 0)
		die("no ForwDatagrams");
	col = 0;
	for (x = strtok_r(vals, " \n", &vs); x;
	     x = strtok_r(NULL, " \n", &vs), col++)
		if (col == want && dard_parse_u64(x, 0, UINT64_MAX, &v))
			die("/proc/net/snmp: ForwDatagrams is not a number");
	return v;
}

static void snapshot(struct check *c, uint64_t *out)
{
	const struct dard_topo *t = c->cfg.topo;
	uint32_t i;

	for (i = 0; i < t->nnodes; i++) {
		if (t->node[i].is_host)
			continue;
		enter(c, i);
		out[i] = forwarded();
	}
}

static int udp_socket(struct check *c, uint32_t node, uint32_t addr,
		      uint16_t port)
{
	struct sockaddr_in sa = {.sin_family = AF_INET};
	int one = 1, fd;

	enter(c, node);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	/* Lost checks listen on addresses that are nobody's. */
	setsockopt(fd, IPPROTO_IP, IP_FREEBIND, &one, sizeof(one));
	sa.sin_addr.s_addr = htonl(addr);
	sa.sin_port = htons(port);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)))
		die("bind");
	return fd;
}

/* Sends one datagram from saddr on src to daddr on dst; 1 if it arrived. */
static int send_one(struct check *c, uint32_t src, uint32_t dst, uint32_t saddr,
		    uint32_t daddr, int wait_ms)
{
	struct sockaddr_in to = {.sin_family = AF_INET};
	struct sockaddr_in from;
	socklen_t fl = sizeof(from);
	char msg[64], buf[64];
	struct pollfd p;
	int rx, tx, got = 0;
	ssize_t n;

	rx = udp_socket(c, dst, daddr, PORT);
	tx = udp_socket(c, src, saddr, 0);
	snprintf(msg, sizeof(msg), "dard pathcheck %u", ++c->seq);
	to.sin_addr.s_addr = htonl(daddr);
	to.sin_port = htons(PORT);
	if (sendto(tx, msg, strlen(msg), 0, (struct sockaddr *)&to,
		   sizeof(to)) < 0)
		die("sendto");
	p.fd = rx;
	p.events = POLLIN;
	while (poll(&p, 1, wait_ms) > 0) {
		n = recvfrom(rx, buf, sizeof(buf) - 1, 0,
			     (struct sockaddr *)&from, &fl);
		if (n < 0)
			break;
		buf[n] = '\0';
		/* Stale datagrams of earlier checks are skipped. */
		if (!strcmp(buf, msg) && from.sin_addr.s_addr == htonl(saddr)) {
			got = 1;
			break;
		}
	}
	close(rx);
	close(tx);
	return got;
}

static int check_path(const struct dard_path *p, void *arg)
{
	struct check *c = arg;
	const struct dard_topo *t = c->cfg.topo;
	char sa[24], da[24], why[256] = "";
	uint32_t i;
	unsigned k;

	snapshot(c, c->before);
	if (!send_one(c, p->src, p->dst, p->saddr, p->daddr, WAIT_MS)) {
		snprintf(why, sizeof(why), "not delivered");
	} else {
		snapshot(c, c->after);
		for (i = 0; i < t->nnodes && !why[0]; i++) {
			uint64_t d = c->after[i] - c->before[i];
			int on = 0;

			if (t->node[i].is_host)
				continue;
			for (k = 0; k < p->nsw; k++)
				on |= p->sw[k] == i;
			if (on && d != 1)
				snprintf(why, sizeof(why),
					 "%s forwarded it %llu times, not once",
					 t->node[i].name,
					 (unsigned long long)d);
			else if (!on && d)
				snprintf(
					why, sizeof(why),
					"%s, not on the path, forwarded %llu packets",
					t->node[i].name, (unsigned long long)d);
		}
	}
	if (!why[0]) {
		c->passed++;
		return 0;
	}
	c->failed++;
	printf("FAIL %s -> %s (%s -> %s via", dard_addr_str(p->saddr, sa),
	       dard_addr_str(p->daddr, da), t->node[p->src].name,
	       t->node[p->dst].name);
	for (k = 0; k < p->nsw; k++)
		printf(" %s", t->node[p->sw[k]].name);
	printf("): %s\n", why);
	return 0;
}

/*
 * c->after, once the switches' counters have stopped moving: two
 * snapshots STABLE_MS apart agree (or SETTLE_MS have passed).
 */
static void settle(struct check *c)
{
	const struct dard_topo *t = c->cfg.topo;
	uint64_t *prev = calloc(t->nnodes, sizeof(*prev));
	int waited;

	if (!prev)
		die("calloc");
	snapshot(c, c->after);
	for (waited = 0; waited < SETTLE_MS; waited += STABLE_MS) {
		memcpy(prev, c->after, t->nnodes * sizeof(*prev));
		poll(NULL, 0, STABLE_MS);
		snapshot(c, c->after);
		if (!memcmp(prev, c->after, t->nnodes * sizeof(*prev)))
			break;
	}
	free(prev);
}

/*
 * Sends a datagram that must not arrive and checks it was dropped, not
 * looped until its TTL ran out: it may climb to the root and come down
 * the far side, and an ICMP error may retrace that, no more.
 */
static void check_lost(struct check *c, uint32_t h1, uint32_t h2, uint32_t s,
		       uint32_t d, const char *what)
{
	const struct dard_topo *t = c->cfg.topo;
	uint64_t total = 0, bound = 2 * (2 * t->nlevels - 1);
	char sa[24], da[24];
	uint32_t n;

	snapshot(c, c->before);
	if (send_one(c, h1, h2, s, d, LOST_WAIT_MS)) {
		printf("FAIL %s -> %s %s but was delivered\n",
		       dard_addr_str(s, sa), dard_addr_str(d, da), what);
		c->failed++;
		return;
	}
	settle(c);
	for (n = 0; n < t->nnodes; n++)
		if (!t->node[n].is_host)
			total += c->after[n] - c->before[n];
	if (total > bound) {
		printf("FAIL %s -> %s %s but was forwarded %llu times, more than %llu (a loop)\n",
		       dard_addr_str(s, sa), dard_addr_str(d, da), what,
		       (unsigned long long)total, (unsigned long long)bound);
		c->failed++;
		return;
	}
	c->passed++;
}

/* A pair of aliases naming no path must vanish at the root. */
static void check_no_path(struct check *c, uint32_t h1, uint32_t h2)
{
	const struct dard_topo *t = c->cfg.topo;
	uint32_t i, j, n1 = dard_plan_naliases(t, h1);
	uint32_t n2 = dard_plan_naliases(t, h2);
	struct dard_path p;

	for (i = 0; i < n1; i++) {
		for (j = 0; j < n2; j++) {
			uint32_t s = dard_plan_alias(t, c->cfg.plan, h1, i);
			uint32_t d = dard_plan_alias(t, c->cfg.plan, h2, j);

			if (dard_path_decode(c->pc, s, d, &p, NULL) != -ENOENT)
				continue;
			check_lost(c, h1, h2, s, d, "names no path");
			return;
		}
	}
}

/*
 * Addresses inside a switch's prefix that no subtree below owns (a bad
 * port field, or host field 0 or 1, the ToR's own) must be dropped by that
 * switch: one per level, below each switch of h2's first alias's chain.
 */
static void check_non_aliases(struct check *c, uint32_t h1, uint32_t h2)
{
	const struct dard_topo *t = c->cfg.topo;
	const struct dard_plan *p = c->cfg.plan;
	uint32_t s = dard_plan_alias(t, p, h1, 0);
	uint32_t d0 = dard_plan_alias(t, p, h2, 0);
	uint32_t chain[DARD_LEVEL_MAX + 1];
	unsigned f, k;

	for (f = 1; f <= t->nlevels; f++) {
		uint32_t max = (1u << p->width[f]) - 1;
		uint32_t vals[3] = {0, 1, max};

		if (!p->width[f])
			continue;
		for (k = 0; k < 3; k++) {
			uint32_t d = (d0 & ~(max << p->shift[f])) |
				     vals[k] << p->shift[f];

			if (dard_plan_decode(t, p, d, chain, NULL) != DARD_NONE)
				continue;
			check_lost(c, h1, h2, s, d, "is no alias");
			break;
		}
	}
}

static uint32_t first_host(const struct dard_topo *t, uint32_t tor,
			   unsigned which)
{
	const struct dard_node *n = &t->node[tor];

	if (which >= n->ndown)
		return DARD_NONE;
	return dard_topo_peer(t, tor, n->down[which]);
}

int main(int argc, char **argv)
{
	struct check c = {0};
	const struct dard_topo *t;
	uint32_t i, j, nlost = 0;
	char path[512], err[DARD_ERR_MAX + 4096];

	if (argc != 3) {
		fprintf(stderr, "Usage: dard-pathcheck CONFIG PREFIX\n");
		return 2;
	}
	if (dard_config_read(&c.cfg, argv[1], NULL, 0, err, sizeof(err))) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	t = c.cfg.topo;
	c.pc = dard_pathctx_new(t, c.cfg.plan);
	c.nsfd = calloc(t->nnodes, sizeof(*c.nsfd));
	c.before = calloc(t->nnodes, sizeof(*c.before));
	c.after = calloc(t->nnodes, sizeof(*c.after));
	if (!c.pc || !c.nsfd || !c.before || !c.after)
		die("calloc");
	for (i = 0; i < t->nnodes; i++) {
		snprintf(path, sizeof(path), "/run/netns/%s-%s", argv[2],
			 t->node[i].name);
		c.nsfd[i] = open(path, O_RDONLY | O_CLOEXEC);
		if (c.nsfd[i] < 0)
			die(path);
	}
	/* Every ordered pair of ToRs, and two hosts under one ToR. */
	for (i = 0; i < t->nnodes; i++) {
		if (t->node[i].is_host || t->node[i].level != t->nlevels - 1)
			continue;
		for (j = 0; j < t->nnodes; j++) {
			uint32_t h1 = first_host(t, i, 0);
			uint32_t h2 = first_host(t, j, i == j);

			if (t->node[j].is_host ||
			    t->node[j].level != t->nlevels - 1 ||
			    h2 == DARD_NONE)
				continue;
			if (dard_path_foreach(c.pc, h1, h2, check_path, &c) <=
			    0) {
				printf("FAIL no path from %s to %s\n",
				       t->node[h1].name, t->node[h2].name);
				c.failed++;
			}
			/* A few pairs suffice for what must not arrive. */
			if (i != j && nlost++ < 4) {
				check_no_path(&c, h1, h2);
				check_non_aliases(&c, h1, h2);
			}
		}
	}
	printf("%s: %u paths and no-path pairs checked\n", t->name,
	       c.passed + c.failed);
	printf("%u passed, %u failed\n", c.passed, c.failed);
	return c.failed ? 1 : 0;
}
