// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The one receiver of authenticated datagrams (receiver.h): where it
 * comes from, then the codec, then the receiver's own checks; every
 * refusal counted by its kind and warned of at most once a second, and
 * a socket drained in bounded batches.
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "cproto.h"
#include "proto.h"
#include "receiver.h"
#include "share.h"

#define __DARD_RX_KIND_NAME(id, name, benign) [DARD_RX_##id] = name,
static const char *const kind_names[__DARD_RX_KINDS] = {
	[DARD_RX_TAKEN] = "taken", DARD_RX_KIND_MAPPER(__DARD_RX_KIND_NAME)};
#undef __DARD_RX_KIND_NAME

#define __DARD_RX_KIND_BENIGN(id, name, benign)                                \
	| ((benign) ? DARD_RX_BIT(id) : 0)
static const unsigned benign_kinds =
	0 DARD_RX_KIND_MAPPER(__DARD_RX_KIND_BENIGN);
#undef __DARD_RX_KIND_BENIGN

_Static_assert(__DARD_RX_KINDS <= 32, "a kind is a bit of an unsigned");
/* One buffer, on the stack, holds a datagram of any protocol. */
_Static_assert((size_t)DARD_CP_MSG_MAX <= (size_t)DARD_MSG_MAX &&
		       (size_t)DARD_SHARE_MSG_MAX <= (size_t)DARD_MSG_MAX,
	       "the switch protocol's messages are the longest");

const char *dard_rx_kind_name(int kind)
{
	return kind >= 0 && kind < __DARD_RX_KINDS ? kind_names[kind] : "?";
}

int dard_rx_kind_of(int err)
{
	switch (err) {
	case -EMSGSIZE:
		return DARD_RX_SIZE;
	case -EPROTONOSUPPORT:
		return DARD_RX_PROTO;
	case -ENOKEY:
		return DARD_RX_KEY;
	case -EKEYREJECTED:
		return DARD_RX_MAC;
	case -ERANGE:
		return DARD_RX_SCOPE;
	case -EACCES:
		return DARD_RX_SENDER;
	case -ESTALE:
		return DARD_RX_TOPO;
	case -EALREADY:
		return DARD_RX_REPLAY;
	case -ETIME:
		return DARD_RX_CLOCK;
	case -EBUSY:
		return DARD_RX_REPLAY_FULL;
	default:
		return DARD_RX_MALFORMED;
	}
}

void dard_rx_init(struct dard_rx *rx, const struct dard_rx_ops *ops, void *arg)
{
	memset(rx, 0, sizeof(*rx));
	rx->ops = ops;
	rx->arg = arg;
}

/* The kind as counted: one the receiver does not tell apart, malformed. */
static int counted_as(const struct dard_rx *rx, int kind)
{
	unsigned kinds = rx->ops->kinds | DARD_RX_BIT(MALFORMED);

	if (kind <= DARD_RX_TAKEN || kind >= __DARD_RX_KINDS ||
	    !(kinds & 1U << kind))
		return DARD_RX_MALFORMED;
	return kind;
}

void dard_rx_refuse(struct dard_rx *rx, int kind, uint32_t addr, uint16_t port,
		    const char *why, uint64_t now)
{
	struct in_addr in = {.s_addr = htonl(addr)};
	char from[INET_ADDRSTRLEN];
	struct dard_ratelimit *rl;

	kind = counted_as(rx, kind);
	rx->n[kind]++;
	inet_ntop(AF_INET, &in, from, sizeof(from));
	/* Counted, but no attack: for -v only. */
	if (benign_kinds & 1U << kind) {
		log_debug("%s %s from %s:%u: %s", kind_names[kind],
			  rx->ops->what, from, port, why);
		return;
	}
	rl = &rx->rl[rx->ops->log_per_kind ? kind : 0];
	dard_log_ratelimited(rl, now, DARD_LOG_WARN,
			     "refused a %s from %s:%u (%s): %s", rx->ops->what,
			     from, port, kind_names[kind], why);
}

int dard_rx_input(struct dard_rx *rx, const void *buf, size_t len,
		  uint32_t addr, uint16_t port, uint64_t now)
{
	const struct dard_rx_ops *ops = rx->ops;
	char why[DARD_RX_WHY_MAX] = "";
	int kind = DARD_RX_TAKEN, ret;

	/* Not from whom we take it: not even worth a MAC's work. */
	if (ops->source)
		kind = ops->source(rx->arg, addr, port, why);
	if (kind == DARD_RX_TAKEN) {
		ret = ops->decode(rx->arg, buf, len, why);
		kind = ret ? dard_rx_kind_of(ret)
			   : ops->take(rx->arg, len, addr, port, now, why);
	}
	if (kind == DARD_RX_TAKEN) {
		rx->n[DARD_RX_TAKEN]++;
		return kind;
	}
	dard_rx_refuse(rx, kind, addr, port, why, now);
	return counted_as(rx, kind);
}

unsigned dard_rx_drain(struct dard_rx *rx, int fd, int *empty)
{
	uint8_t buf[DARD_MSG_MAX + 1];
	size_t cap = rx->ops->max_len && rx->ops->max_len < DARD_MSG_MAX
			     ? rx->ops->max_len + 1
			     : sizeof(buf);
	struct sockaddr_in sa;
	socklen_t salen;
	unsigned n;
	ssize_t len;

	if (empty)
		*empty = 0;
	for (n = 0; n < DARD_RX_DRAIN_MAX; n++) {
		salen = sizeof(sa);
		len = recvfrom(fd, buf, cap, MSG_DONTWAIT,
			       (struct sockaddr *)&sa, &salen);
		if (len < 0) {
			if (empty)
				*empty =
					errno == EAGAIN || errno == EWOULDBLOCK;
			break;
		}
		dard_rx_input(rx, buf, len, ntohl(sa.sin_addr.s_addr),
			      ntohs(sa.sin_port), rx->ops->now());
	}
	return n;
}

uint64_t dard_rx_refused(const struct dard_rx *rx)
{
	uint64_t sum = 0;
	int k;

	for (k = DARD_RX_TAKEN + 1; k < __DARD_RX_KINDS; k++)
		if (!(benign_kinds & 1U << k))
			sum += rx->n[k];
	return sum;
}
