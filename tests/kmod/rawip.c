// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * rawip: sends crafted IP-in-IP packets, for the kmod tests' relay probe
 * (tests/kmod/test.sh): an outer header to one of a host's aliases around
 * an inner UDP packet to an ID that is not the host's. A datapath that
 * decapsulated it would relay it on; dard's must drop and count it
 * (drop_not_mine).
 *
 *   rawip OUTER_SRC OUTER_DST INNER_SRC INNER_DST [ COUNT ]
 *
 * Exits 0 once COUNT (default 10) packets were handed to the kernel.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/udp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
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

static void build(struct probe *p, uint32_t osrc, uint32_t odst, uint32_t isrc,
		  uint32_t idst)
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
	p->outer.protocol = IPPROTO_IPIP;
	p->outer.tot_len = htons(sizeof(*p));
	p->outer.saddr = osrc;
	p->outer.daddr = odst;
	p->outer.check = csum(&p->outer, sizeof(p->outer));
}

int main(int argc, char **argv)
{
	uint32_t osrc, odst, isrc, idst;
	struct sockaddr_in to = {.sin_family = AF_INET};
	struct probe p;
	long count = 10, i;
	char *end;
	int fd;

	if (argc < 5 || argc > 6) {
		fprintf(stderr, "Usage: rawip OUTER_SRC OUTER_DST INNER_SRC "
				"INNER_DST [ COUNT ]\n");
		return 2;
	}
	if (parse_addr("outer source", argv[1], &osrc) ||
	    parse_addr("outer destination", argv[2], &odst) ||
	    parse_addr("inner source", argv[3], &isrc) ||
	    parse_addr("inner destination", argv[4], &idst))
		return 1;
	if (argc == 6) {
		errno = 0;
		count = strtol(argv[5], &end, 10);
		if (errno || *end || end == argv[5] || count < 1 ||
		    count > COUNT_MAX) {
			fprintf(stderr, "rawip: invalid count `%s': 1-%d\n",
				argv[5], COUNT_MAX);
			return 1;
		}
	}
	build(&p, osrc, odst, isrc, idst);
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
