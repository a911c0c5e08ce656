// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A host's side of the controller protocol, for tests/root/controller.sh:
 * what dardd will send, from HOST's management address, and what it
 * would take back.
 *
 *   ctlhost CONFIG KEY HOST DST CONTROLLER MODE
 *
 * It reports one elephant to DST (path 0). MODE is one of:
 *   good    a full report, then the first ASSIGN from CONTROLLER:7472
 *           that authenticates, has sender 0 and our digest (within
 *           15 s, a liveness bound: one comes every round); it prints
 *           "assign algo A epoch E flags F count N path P" and ACKs it
 *   forged  the report with its MAC broken: prints "silent" when
 *           nothing comes back within 2.5 s (a late answer would be
 *           missed: the controller's refused.mac counts the refusal)
 *   replay  the same report twice: only one is taken (see the stats)
 * Exit 0 when the controller did what MODE expects, 1 otherwise.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#include "cfgfile.h"
#include "clock.h"
#include "cproto.h"
#include "keyfile.h"

static struct dard_config cfg;
static struct dard_keys keys;
static struct dard_cp_msg m;
static uint64_t seq;

static int send_msg(int fd, const struct sockaddr_in *to, int forge)
{
	uint8_t buf[DARD_CP_MSG_MAX];
	size_t len;

	m.seq = seq++;
	len = dard_cp_encode(buf, sizeof(buf), &keys.key[0], &m);
	if (!len)
		return -1;
	if (forge)
		buf[len - 1] ^= 1;
	return sendto(fd, buf, len, 0, (const struct sockaddr *)to,
		      sizeof(*to)) < 0
		       ? -1
		       : 0;
}

/* How long a good report waits for its ASSIGN, and a forged one. */
enum { ASSIGN_WAIT_MS = 15000, FORGED_WAIT_MS = 2500 };

/* The first authentic ASSIGN from the controller within ms, or -1. */
static int wait_assign(int fd, const struct sockaddr_in *from_want, int ms,
		       struct dard_cp_msg *a)
{
	uint64_t end = dard_clock_ns(CLOCK_MONOTONIC) + ms * 1000000ULL;
	uint8_t buf[DARD_CP_MSG_MAX];
	char err[DARD_ERR_MAX];

	for (;;) {
		uint64_t now = dard_clock_ns(CLOCK_MONOTONIC);
		struct pollfd p = {.fd = fd, .events = POLLIN};
		struct sockaddr_in from;
		socklen_t flen = sizeof(from);
		ssize_t n;

		if (now >= end || poll(&p, 1, (end - now) / 1000000 + 1) <= 0)
			return -1;
		n = recvfrom(fd, buf, sizeof(buf), 0, (struct sockaddr *)&from,
			     &flen);
		if (n < 0 ||
		    from.sin_addr.s_addr != from_want->sin_addr.s_addr ||
		    from.sin_port != from_want->sin_port)
			continue;
		if (dard_cp_decode(buf, n, &keys, a, err)) {
			fprintf(stderr, "ctlhost: refused: %s\n", err);
			continue;
		}
		if (a->type == DARD_CP_ASSIGN && !a->sender &&
		    a->topo == m.topo)
			return 0;
	}
}

int main(int argc, char **argv)
{
	static struct dard_cp_msg a;
	char err[DARD_ERR_MAX + PATH_MAX];
	struct sockaddr_in me = {.sin_family = AF_INET},
			   ctl = {.sin_family = AF_INET,
				  .sin_port = htons(DARD_CP_PORT)};
	const struct dard_topo *t;
	uint32_t h, d;
	int fd;

	if (argc != 7 || inet_pton(AF_INET, argv[5], &ctl.sin_addr) != 1) {
		fprintf(stderr, "Usage: ctlhost CONFIG KEY HOST DST CONTROLLER "
				"{ good | forged | replay }\n");
		return 2;
	}
	if (dard_config_read(&cfg, argv[1], NULL, 0, err, sizeof(err)) ||
	    dard_crypto_init(err) || dard_keys_load(&keys, argv[2], err)) {
		fprintf(stderr, "ctlhost: %s\n", err);
		return 1;
	}
	t = cfg.topo;
	h = dard_topo_find(t, argv[3]);
	d = dard_topo_find(t, argv[4]);
	if (h == DARD_NONE || d == DARD_NONE) {
		fprintf(stderr, "ctlhost: no such host\n");
		return 1;
	}
	me.sin_addr.s_addr = htonl(t->node[h].mgmt);
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&me, sizeof(me))) {
		perror("ctlhost: bind");
		return 1;
	}
	seq = dard_clock_ns(CLOCK_REALTIME);
	m.type = DARD_CP_REPORT;
	m.flags = DARD_CP_F_FIRST | DARD_CP_F_LAST;
	m.sender = t->node[h].id;
	m.topo = dard_cp_topo_digest(t);
	m.count = 1;
	m.flow[0].key.saddr = htonl(t->node[h].id);
	m.flow[0].key.daddr = htonl(t->node[d].id);
	m.flow[0].key.sport = htons(40000);
	m.flow[0].key.dport = htons(5201);
	m.flow[0].key.proto = IPPROTO_TCP;
	if (!strcmp(argv[6], "forged")) {
		send_msg(fd, &ctl, 1);
		if (!wait_assign(fd, &ctl, FORGED_WAIT_MS, &a)) {
			printf("answered\n");
			return 1;
		}
		printf("silent\n");
		return 0;
	}
	if (!strcmp(argv[6], "replay")) {
		send_msg(fd, &ctl, 0);
		seq--;
		send_msg(fd, &ctl, 0);
		return 0;
	}
	if (send_msg(fd, &ctl, 0) ||
	    wait_assign(fd, &ctl, ASSIGN_WAIT_MS, &a)) {
		printf("no assign\n");
		return 1;
	}
	printf("assign algo %s epoch %llu flags %u count %u path %d\n",
	       dard_cp_algo_name(a.algo), (unsigned long long)a.epoch, a.flags,
	       a.count, a.count ? a.flow[0].path : -1);
	m = (struct dard_cp_msg){.type = DARD_CP_ACK,
				 .sender = m.sender,
				 .topo = m.topo,
				 .epoch = a.epoch};
	return send_msg(fd, &ctl, 0) ? 1 : 0;
}
