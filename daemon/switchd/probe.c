// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dard-switchd's link probes (probe.h): ICMP echoes to each peer. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sodium.h>
#include <netinet/icmp6.h>
#include <netinet/ip_icmp.h>
#include <net/if.h>
#include <sys/socket.h>

#include "addr6.h"
#include "be.h"
#include "err.h"
#include "notice.h"
#include "probe.h"
#include "table.h"

/*
 * linux/icmp.h's raw socket filter (SOL_RAW): a bit per ICMP type, set
 * to drop it. Not included: its linux/if.h clashes with net/if.h.
 */
#define SW_ICMP_FILTER 1

/* RFC 1071's sum over len bytes, folded and complemented. */
static uint16_t csum(const uint8_t *p, size_t len)
{
	uint32_t sum = 0;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += dard_get16(p + i);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

void sw_probe_echo(uint8_t *buf, uint16_t id, uint16_t seq,
		   const uint8_t *nonce)
{
	memset(buf, 0, SW_PROBE_LEN);
	buf[0] = ICMP_ECHO;
	dard_put16(buf + 4, id);
	dard_put16(buf + 6, seq);
	memcpy(buf + 8, nonce, SW_PROBE_NONCE);
	dard_put16(buf + 2, csum(buf, SW_PROBE_LEN));
}

int sw_probe_answer(const uint8_t *pkt, size_t len, uint32_t peer, uint16_t id,
		    const uint8_t *nonce)
{
	size_t ihl;
	const uint8_t *icmp;

	if (len < 20 || pkt[0] >> 4 != 4)
		return 0;
	ihl = (size_t)(pkt[0] & 0xf) * 4;
	if (ihl < 20 || len < ihl + SW_PROBE_LEN ||
	    dard_get32(pkt + 12) != peer || pkt[9] != IPPROTO_ICMP)
		return 0;
	icmp = pkt + ihl;
	return icmp[0] == ICMP_ECHOREPLY && !icmp[1] &&
	       dard_get16(icmp + 4) == id &&
	       !memcmp(icmp + 8, nonce, SW_PROBE_NONCE) &&
	       !csum(icmp, len - ihl);
}

int sw_probe_answer6(const uint8_t *pkt, size_t len,
		     const struct in6_addr *from, const struct in6_addr *peer,
		     uint16_t id, const uint8_t *nonce)
{
	return len >= SW_PROBE_LEN && !memcmp(from, peer, sizeof(*peer)) &&
	       pkt[0] == ICMP6_ECHO_REPLY && !pkt[1] &&
	       dard_get16(pkt + 4) == id &&
	       !memcmp(pkt + 8, nonce, SW_PROBE_NONCE);
}

/*
 * Port i's raw socket, bound to its interface, echo replies only: ICMP,
 * or ICMPv6 (v6), whose checksum the kernel computes and checks.
 */
static int probe_socket(const struct sw_port *p, int v6, char *err)
{
	uint32_t only = ~(1U << ICMP_ECHOREPLY);
	struct icmp6_filter only6;
	int fd = socket(v6 ? AF_INET6 : AF_INET,
			SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
			v6 ? IPPROTO_ICMPV6 : IPPROTO_ICMP);

	ICMP6_FILTER_SETBLOCKALL(&only6);
	ICMP6_FILTER_SETPASS(ICMP6_ECHO_REPLY, &only6);
	if (fd < 0)
		return dard_fail(err, -errno,
				 "Unable to open an ICMP%s socket: %s",
				 v6 ? "v6" : "", strerror(errno));
	if (setsockopt(fd, SOL_SOCKET, SO_BINDTODEVICE, p->ifname,
		       strlen(p->ifname) + 1) ||
	    (v6 ? setsockopt(fd, IPPROTO_ICMPV6, ICMP6_FILTER, &only6,
			     sizeof(only6))
		: setsockopt(fd, SOL_RAW, SW_ICMP_FILTER, &only,
			     sizeof(only)))) {
		int ret = -errno;

		close(fd);
		return dard_fail(err, ret, "port %u (%s): Unable to probe: %s",
				 p->num, p->ifname, strerror(-ret));
	}
	return fd;
}

int sw_probe_open(struct sw_agent *a, const struct dard_topo *t,
		  const struct dard_plan *p, uint32_t sw, uint64_t every_ns,
		  char *err)
{
	unsigned i;

	a->probe_ns = every_ns;
	if (!every_ns)
		return 0;
	a->probe = calloc(a->nports ? a->nports : 1, sizeof(*a->probe));
	if (!a->probe)
		return dard_fail(err, -ENOMEM, "out of memory");
	randombytes_buf(a->probe_nonce, sizeof(a->probe_nonce));
	randombytes_buf(&a->probe_id, sizeof(a->probe_id));
	/* None open yet: a failure below closes only what it opened. */
	for (i = 0; i < a->nports; i++)
		a->probe[i].fd = -1;
	for (i = 0; i < a->nports; i++) {
		struct sw_probe *pr = &a->probe[i];
		uint32_t peer = dard_topo_peer(t, sw, a->port[i].num);

		/* A host runs no agent of ours, and its link is its own. */
		if (peer == DARD_NONE || t->node[peer].is_host)
			continue;
		pr->v6 = p->opts.family == DARD_FAMILY_IPV6;
		pr->fd = probe_socket(&a->port[i], pr->v6, err);
		if (pr->fd < 0)
			return pr->fd;
		pr->peer = dard_sw_peer_addr(t, p, sw, a->port[i].num);
		if (pr->v6) {
			dard_sw_peer_ll6(t, sw, a->port[i].num, &pr->peer6);
			pr->ifindex = if_nametoindex(a->port[i].ifname);
		}
	}
	return 0;
}

void sw_probe_close(struct sw_agent *a)
{
	unsigned i;

	for (i = 0; a->probe && i < a->nports; i++)
		if (a->probe[i].fd >= 0)
			close(a->probe[i].fd);
	free(a->probe);
	a->probe = NULL;
}

/*
 * The answers waiting on port i's socket, SW_PROBE_DRAIN at most: a flood
 * of forged ones must not hold the agent here.
 */
static void take(struct sw_agent *a, unsigned i)
{
	struct sw_probe *pr = &a->probe[i];
	uint8_t buf[256];
	unsigned k;
	ssize_t n;

	for (k = 0; k < SW_PROBE_DRAIN; k++) {
		struct sockaddr_in6 from = {0};
		socklen_t flen = sizeof(from);

		n = recvfrom(pr->fd, buf, sizeof(buf), 0,
			     (struct sockaddr *)&from, &flen);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (pr->v6 ? sw_probe_answer6(buf, (size_t)n, &from.sin6_addr,
					      &pr->peer6, a->probe_id,
					      a->probe_nonce)
			   : sw_probe_answer(buf, (size_t)n, pr->peer,
					     a->probe_id, a->probe_nonce)) {
			pr->answered = 1;
			a->probe_answers++;
		}
	}
}

void sw_probe_tick(struct sw_agent *a, uint64_t now)
{
	uint8_t echo[SW_PROBE_LEN];
	unsigned i;

	if (!a->probe)
		return;
	a->probe_seq++;
	for (i = 0; i < a->nports; i++) {
		struct sw_probe *pr = &a->probe[i];
		struct sockaddr_in to = {.sin_family = AF_INET,
					 .sin_addr.s_addr = htonl(pr->peer)};
		struct sockaddr_in6 to6 = {.sin6_family = AF_INET6,
					   .sin6_addr = pr->peer6,
					   .sin6_scope_id = pr->ifindex};

		if (pr->fd < 0)
			continue;
		take(a, i);
		sw_probe_judge(pr);
		sw_probe_echo(echo, a->probe_id, a->probe_seq, a->probe_nonce);
		if (pr->v6) {
			/* ICMPv6's echo; the kernel sums it. */
			echo[0] = ICMP6_ECHO_REQUEST;
			echo[2] = echo[3] = 0;
		}
		/* Unreachable while the carrier is down: nothing to judge. */
		pr->sent =
			(pr->v6 ? sendto(pr->fd, echo, sizeof(echo), 0,
					 (struct sockaddr *)&to6, sizeof(to6))
				: sendto(pr->fd, echo, sizeof(echo), 0,
					 (struct sockaddr *)&to, sizeof(to))) ==
			sizeof(echo);
		a->probes += pr->sent;
	}
	sw_notify(a, now);
}
