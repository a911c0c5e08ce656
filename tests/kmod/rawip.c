// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * rawip: sends crafted IP-in-IP packets, for the kmod tests' relay probe
 * (tests/kmod/test.sh): an outer header to one of a host's aliases around
 * an inner UDP packet to an ID that is not the host's. A datapath that
 * decapsulated it would relay it on; dard's must drop and count it
 * (drop_not_mine). With -d the outer header carries that DSCP: the forged
 * elephant of tests/kmod/attack.sh. Outer addresses in IPv6 send 4in6:
 * the kernel writes the outer IPv6 header (a raw socket of next header
 * IPIP, DSCP by IPV6_TCLASS). With -l it listens instead, on a raw
 * IP-in-IP socket, and tells the outer DSCPs it saw.
 *
 *   rawip [ -d DSCP ] OUTER_SRC OUTER_DST INNER_SRC INNER_DST [ COUNT ]
 *         (OUTER_SRC and OUTER_DST both IPv4, or both IPv6)
 *   rawip -l [ -s OUTER_SRC ] COUNT SECONDS
 *
 * Sending exits 0 once COUNT (default 10) packets were handed to the
 * kernel. Listening prints "listening", then, once COUNT IP-in-IP packets
 * (from OUTER_SRC only, if given) came or SECONDS passed, "dscp D N" for
 * each outer DSCP D seen N times and "total N"; it exits 0 if COUNT came.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum {
	PAYLOAD_LEN = 32,
	COUNT_MAX = 100000,
	PROBE_PORT = 9, /* discard: nothing should ever answer */
};

struct probe {
	struct iphdr outer;
	struct iphdr inner;
	struct udphdr udp;
	uint8_t payload[PAYLOAD_LEN];
} __attribute__((packed));

static uint16_t csum(const void *p, size_t len)
{
	const uint16_t *w = p;
	uint32_t sum = 0;

	for (; len > 1; len -= 2)
		sum += *w++;
	if (len)
		sum += *(const uint8_t *)w;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static int parse_addr(const char *what, const char *s, uint32_t *a)
{
	struct in_addr in;

	if (inet_pton(AF_INET, s, &in) != 1) {
		fprintf(stderr, "rawip: invalid %s `%s': not an IPv4 address\n",
			what, s);
		return -1;
	}
	*a = in.s_addr;
	return 0;
}

static int parse_num(const char *what, const char *s, long max, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	if (errno || *end || end == s || *v < 0 || *v > max) {
		fprintf(stderr, "rawip: invalid %s `%s': 0-%ld\n", what, s,
			max);
		return -1;
	}
	return 0;
}

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* -l: counts the outer DSCPs of IP-in-IP to this host, from src if set. */
static int listen_ipip(uint32_t src, long count, long seconds)
{
	long seen[64] = {0}, total = 0, end = now_ms() + seconds * 1000, left;
	uint8_t buf[2048];
	struct pollfd pfd = {.events = POLLIN};
	const struct iphdr *ip = (const struct iphdr *)buf;
	ssize_t n;
	int d;

	/* A raw socket of a protocol gets a copy of every packet of it
	 * delivered here, before its handler (dard's, ipip's) takes it. */
	pfd.fd = socket(AF_INET, SOCK_RAW, IPPROTO_IPIP);
	if (pfd.fd < 0) {
		perror("rawip: socket(SOCK_RAW, IPPROTO_IPIP)");
		return 1;
	}
	printf("listening\n");
	fflush(stdout);
	while (total < count && (left = end - now_ms()) > 0) {
		if (poll(&pfd, 1, (int)left) <= 0)
			continue;
		n = recv(pfd.fd, buf, sizeof(buf), 0);
		if (n < (ssize_t)sizeof(*ip) || (src && ip->saddr != src))
			continue;
		seen[ip->tos >> 2]++;
		total++;
	}
	close(pfd.fd);
	for (d = 0; d < 64; d++)
		if (seen[d])
			printf("dscp %d %ld\n", d, seen[d]);
	printf("total %ld\n", total);
	return total < count;
}

static void build(struct probe *p, uint32_t osrc, uint32_t odst, uint32_t isrc,
		  uint32_t idst, uint8_t dscp)
{
	memset(p, 0, sizeof(*p));
	memset(p->payload, 'd', sizeof(p->payload));
	p->inner.version = 4;
	p->inner.ihl = 5;
	p->inner.ttl = 64;
	p->inner.protocol = IPPROTO_UDP;
	p->inner.tot_len = htons(sizeof(*p) - sizeof(p->outer));
	p->inner.saddr = isrc;
	p->inner.daddr = idst;
	p->inner.check = csum(&p->inner, sizeof(p->inner));
	p->udp.source = htons(PROBE_PORT);
	p->udp.dest = htons(PROBE_PORT);
	p->udp.len = htons(sizeof(p->udp) + sizeof(p->payload));
	/* UDP's checksum is optional over IPv4: 0, none. */
	p->outer.version = 4;
	p->outer.ihl = 5;
	p->outer.ttl = 64;
	p->outer.tos = dscp << 2;
	p->outer.protocol = IPPROTO_IPIP;
	p->outer.tot_len = htons(sizeof(*p));
	p->outer.saddr = osrc;
	p->outer.daddr = odst;
	p->outer.check = csum(&p->outer, sizeof(p->outer));
}

/* 4in6: the probe's inner packet under an outer IPv6 pair. */
static int send6(const char *osrc, const char *odst, struct probe *p,
		 long count, int dscp)
{
	struct sockaddr_in6 from = {.sin6_family = AF_INET6};
	struct sockaddr_in6 to = {.sin6_family = AF_INET6};
	int fd, tclass = dscp << 2;
	size_t len = sizeof(*p) - sizeof(p->outer);
	long i;

	if (inet_pton(AF_INET6, osrc, &from.sin6_addr) != 1 ||
	    inet_pton(AF_INET6, odst, &to.sin6_addr) != 1) {
		fprintf(stderr,
			"rawip: invalid outer pair `%s' `%s': both IPv4 or both IPv6\n",
			osrc, odst);
		return 1;
	}
	fd = socket(AF_INET6, SOCK_RAW, IPPROTO_IPIP);
	if (fd < 0) {
		perror("rawip: socket(AF_INET6, SOCK_RAW) (needs CAP_NET_RAW)");
		return 1;
	}
	if (bind(fd, (struct sockaddr *)&from, sizeof(from)) ||
	    setsockopt(fd, IPPROTO_IPV6, IPV6_TCLASS, &tclass,
		       sizeof(tclass))) {
		fprintf(stderr, "rawip: from %s: %s\n", osrc, strerror(errno));
		close(fd);
		return 1;
	}
	for (i = 0; i < count; i++) {
		if (sendto(fd, &p->inner, len, 0, (struct sockaddr *)&to,
			   sizeof(to)) != (ssize_t)len) {
			fprintf(stderr, "rawip: sending probe %ld to %s: %s\n",
				i + 1, odst, strerror(errno));
			close(fd);
			return 1;
		}
	}
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	uint32_t osrc = 0, odst = 0, isrc, idst;
	struct sockaddr_in to = {.sin_family = AF_INET};
	long count = 10, dscp = 0, seconds, i;
	struct probe p;
	int fd, o, listen = 0, v6;

	while ((o = getopt(argc, argv, "d:ls:")) != -1) {
		if (o == 'd' && !parse_num("DSCP", optarg, 63, &dscp))
			continue;
		if (o == 'l') {
			listen = 1;
			continue;
		}
		if (o == 's' && !parse_addr("outer source", optarg, &osrc))
			continue;
		return 2;
	}
	argc -= optind - 1;
	argv += optind - 1;
	if (listen) {
		if (argc != 3) {
			fprintf(stderr, "Usage: rawip -l [ -s OUTER_SRC ] "
					"COUNT SECONDS\n");
			return 2;
		}
		if (parse_num("count", argv[1], COUNT_MAX, &count) ||
		    parse_num("seconds", argv[2], 3600, &seconds))
			return 1;
		return listen_ipip(osrc, count, seconds);
	}
	if (argc < 5 || argc > 6) {
		fprintf(stderr, "Usage: rawip [ -d DSCP ] OUTER_SRC OUTER_DST "
				"INNER_SRC INNER_DST [ COUNT ]\n");
		return 2;
	}
	v6 = strchr(argv[1], ':') || strchr(argv[2], ':');
	if ((!v6 && (parse_addr("outer source", argv[1], &osrc) ||
		     parse_addr("outer destination", argv[2], &odst))) ||
	    parse_addr("inner source", argv[3], &isrc) ||
	    parse_addr("inner destination", argv[4], &idst))
		return 1;
	if (argc == 6 &&
	    (parse_num("count", argv[5], COUNT_MAX, &count) || !count)) {
		fprintf(stderr, "rawip: the count is 1-%d\n", COUNT_MAX);
		return 1;
	}
	build(&p, osrc, odst, isrc, idst, (uint8_t)dscp);
	if (v6)
		return send6(argv[1], argv[2], &p, count, (int)dscp);
	to.sin_addr.s_addr = odst;
	/* IPPROTO_RAW implies IP_HDRINCL: the outer header is ours. */
	fd = socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	if (fd < 0) {
		perror("rawip: socket(SOCK_RAW) (needs CAP_NET_RAW)");
		return 1;
	}
	for (i = 0; i < count; i++) {
		if (sendto(fd, &p, sizeof(p), 0, (struct sockaddr *)&to,
			   sizeof(to)) != (ssize_t)sizeof(p)) {
			fprintf(stderr, "rawip: sending probe %ld to %s: %s\n",
				i + 1, argv[2], strerror(errno));
			close(fd);
			return 1;
		}
	}
	close(fd);
	return 0;
}
