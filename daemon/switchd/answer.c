// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Answering the monitors' queries (Documentation/protocol.md): decode,
 * count each port's elephants, encode the reply.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "answer.h"
#include "clock.h"
#include "err.h"
#include "topo.h"
#include "log.h"

int sw_answer_open(struct sw_agent *a, struct in_addr addr, uint16_t port,
		   char *err)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_addr = addr,
				 .sin_port = htons(port)};
	char name[INET_ADDRSTRLEN];

	a->sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	a->ioctl_sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (a->sock < 0 || a->ioctl_sock < 0 ||
	    bind(a->sock, (struct sockaddr *)&sa, sizeof(sa))) {
		inet_ntop(AF_INET, &addr, name, sizeof(name));
		return dard_fail(err, -errno, "Unable to listen on %s:%u: %s",
				 name, port, strerror(errno));
	}
	return 0;
}

void sw_answer_close(struct sw_agent *a)
{
	if (a->sock >= 0)
		close(a->sock);
	if (a->ioctl_sock >= 0)
		close(a->ioctl_sock);
	a->sock = a->ioctl_sock = -1;
}

static const char *const refusal_names[__SW_REF_MAX] = {
	[SW_REF_PROTO] = "not_v3",	[SW_REF_KEY] = "unknown_key",
	[SW_REF_MAC] = "bad_mac",	[SW_REF_MALFORMED] = "malformed",
	[SW_REF_REPLAY] = "replay",	[SW_REF_BUSY] = "replay_table_full",
	[SW_REF_UNPADDED] = "unpadded",
};

const char *sw_refusal_name(enum sw_refusal r)
{
	return r < __SW_REF_MAX ? refusal_names[r] : "?";
}

/* The reason for a decoder's refusal. */
static enum sw_refusal decode_refusal(int ret)
{
	switch (ret) {
	case -EPROTONOSUPPORT:
		return SW_REF_PROTO;
	case -ENOKEY:
		return SW_REF_KEY;
	case -EKEYREJECTED:
		return SW_REF_MAC;
	default:
		return SW_REF_MALFORMED;
	}
}

/* Anyone can send datagrams: each counted, not each logged. */
static void refuse(struct sw_agent *a, enum sw_refusal r, uint64_t now,
		   const char *from, unsigned port, const char *why)
{
	a->rejected++;
	a->refused[r]++;
	dard_log_ratelimited(&a->rejects, now, DARD_LOG_WARN,
			     "refused a message from %s:%u (%s): %s", from,
			     port, sw_refusal_name(r), why);
}

static int port_up(const struct sw_agent *a, const struct sw_port *p)
{
	struct ifreq ifr = {0};

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", p->ifname);
	if (ioctl(a->ioctl_sock, SIOCGIFFLAGS, &ifr))
		return 0;
	return (ifr.ifr_flags & (IFF_UP | IFF_RUNNING)) ==
	       (IFF_UP | IFF_RUNNING);
}

/*
 * The ports' state: their links at every query, since a dead link must
 * reach the monitors at once (an ioctl per port costs a microsecond), and
 * their elephants at most once per quarter window, since queries from
 * many monitors arrive close together and a count reads the whole table.
 * A failed count leaves no counts to answer from.
 */
static int refresh(struct sw_agent *a, uint64_t now)
{
	unsigned i;
	int ret;

	for (i = 0; i < a->nports; i++)
		a->port[i].up = port_up(a, &a->port[i]);
	if (a->counted_ns && now - a->counted_ns < a->window_ns / 4)
		return 0;
	a->counted_ns = 0;
	ret = a->count ? a->count(a, now)
		       : sw_counter_count(a->counter, a->port, a->nports, now,
					  a->window_ns);
	if (!ret)
		a->counted_ns = now;
	return ret;
}

void sw_answer(struct sw_agent *a)
{
	static struct dard_msg msg;
	static uint8_t buf[DARD_MSG_MAX];
	char err[DARD_ERR_MAX] = "", from[INET_ADDRSTRLEN];
	struct sockaddr_in peer;
	socklen_t plen = sizeof(peer);
	uint64_t now;
	unsigned n;
	ssize_t len;
	size_t out;
	int ret;

	len = recvfrom(a->sock, buf, sizeof(buf), MSG_DONTWAIT,
		       (struct sockaddr *)&peer, &plen);
	if (len < 0)
		return;
	now = sw_now();
	inet_ntop(AF_INET, &peer.sin_addr, from, sizeof(from));
	ret = sw_query_decode(buf, len, a->keys, &msg, err);
	if (ret) {
		refuse(a, decode_refusal(ret), now, from, ntohs(peer.sin_port),
		       err);
		return;
	}
	ret = sw_replay_check(a->replay, msg.key_id, msg.seq, now);
	if (ret) {
		refuse(a, ret == -EBUSY ? SW_REF_BUSY : SW_REF_REPLAY, now,
		       from, ntohs(peer.sin_port),
		       ret == -EBUSY
			       ? "too many queries in 10 s to tell replays"
			       : "query already answered");
		return;
	}
	a->queries++;
	a->query_bytes += len;
	/*
	 * A started (or restarted) agent's counter has seen less than a
	 * window of traffic: its counts would be low, and a low count draws
	 * flows. Silence is what monitors already read as "unknown".
	 */
	if (now < a->ready_ns) {
		a->early++;
		log_debug(
			"query %llu from %s unanswered: counting for %.3g s more",
			(unsigned long long)msg.seq, from,
			(a->ready_ns - now) / 1e9);
		return;
	}
	ret = refresh(a, now);
	if (ret) {
		/* Partial counts would mislead: the querier hears nothing. */
		a->count_errors++;
		dard_log_ratelimited(
			&a->unanswered, now, DARD_LOG_WARN,
			"query %llu from %s unanswered: counting elephants failed: %s",
			(unsigned long long)msg.seq, from, strerror(-ret));
		return;
	}
	/* In the query's key: a querier not yet rotated still hears us. */
	out = sw_reply(a->port, a->nports, &msg,
		       dard_keys_find(a->keys, msg.key_id), buf, sizeof(buf),
		       &n);
	if (!out) {
		refuse(a, SW_REF_UNPADDED, now, from, ntohs(peer.sin_port),
		       "its reply would be longer than it plus 64 bytes: pad it "
		       "(Documentation/protocol.md)");
		return;
	}
	if (sendto(a->sock, buf, out, 0, (struct sockaddr *)&peer, plen) < 0) {
		a->send_errors++;
		dard_log_ratelimited(&a->send_failed, now, DARD_LOG_WARN,
				     "reply to %s failed: %s", from,
				     strerror(errno));
		return;
	}
	a->replies++;
	a->reply_bytes += out;
	log_debug("query %llu from %s: %u ports", (unsigned long long)msg.seq,
		  from, n);
}

void sw_answer_log(const struct sw_agent *a)
{
	uint64_t v[__DARD_SW_STAT_MAX];
	char line[256];
	unsigned i;
	int off = 0, ret;

	log_info(
		"queries %llu, replies %llu, rejected %llu, send errors %llu, count errors %llu, before the first window %llu",
		(unsigned long long)a->queries, (unsigned long long)a->replies,
		(unsigned long long)a->rejected,
		(unsigned long long)a->send_errors,
		(unsigned long long)a->count_errors,
		(unsigned long long)a->early);
	for (i = 0; i < __SW_REF_MAX && off < (int)sizeof(line); i++)
		off += snprintf(line + off, sizeof(line) - off, "%s%s %llu",
				i ? ", " : "", sw_refusal_name(i),
				(unsigned long long)a->refused[i]);
	log_info("refused: %s; bytes in %llu, out %llu", line,
		 (unsigned long long)a->query_bytes,
		 (unsigned long long)a->reply_bytes);
	off = 0;
	if (!a->counter)
		return;
	ret = sw_counter_stats(a->counter, v);
	if (ret) {
		log_warn("Unable to read the counter's stats: %s",
			 strerror(-ret));
		return;
	}
	/* flow_full and truncated are elephants the counter missed. */
	for (i = 0; i < __DARD_SW_STAT_MAX && off < (int)sizeof(line); i++)
		off += snprintf(line + off, sizeof(line) - off, "%s%s %llu",
				i ? ", " : "", sw_stat_name(i),
				(unsigned long long)v[i]);
	log_info("counter: %s", line);
}
