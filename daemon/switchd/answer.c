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
#include <sys/socket.h>

#include "answer.h"
#include "clock.h"
#include "err.h"
#include "topo.h"
#include "log.h"
#include "notice.h"

static const struct dard_rx_ops query_ops;

int sw_answer_open(struct sw_agent *a, struct in_addr addr, uint16_t port,
		   char *err)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_addr = addr,
				 .sin_port = htons(port)};
	char name[INET_ADDRSTRLEN];

	dard_rx_init(&a->rx, &query_ops, a);
	a->mgmt = ntohl(addr.s_addr);
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
		a->port[i].up = sw_port_up(a, &a->port[i]);
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

/* The query being answered: 16 KiB, kept off the stack. */
static struct dard_msg query;

static int query_decode(void *arg, const uint8_t *buf, size_t len, char *err)
{
	struct sw_agent *a = arg;

	return sw_query_decode(buf, len, a->keys, &query, err);
}

static uint64_t wall_us(void)
{
	return dard_clock_ns(CLOCK_REALTIME) / 1000;
}

/* An authentic query from addr:port: answered, if we can. */
static int query_take(void *arg, size_t len, uint32_t addr, uint16_t port,
		      uint64_t now, char *why)
{
	static uint8_t buf[DARD_MSG_MAX];
	struct sw_agent *a = arg;
	struct sockaddr_in peer = {.sin_family = AF_INET,
				   .sin_port = htons(port),
				   .sin_addr.s_addr = htonl(addr)};
	char from[INET_ADDRSTRLEN];
	unsigned n;
	size_t out;
	int ret;

	/* A watch names us, under its MAC: not one replayed from another. */
	if (query.type == DARD_MSG_WATCH && query.agent != a->mgmt) {
		strcpy(why, "a watch for another agent");
		return DARD_RX_MALFORMED;
	}
	ret = sw_replay_check(a->replay, query.sender, query.seq,
			      a->wall_us ? a->wall_us() : wall_us(), why);
	if (ret)
		return dard_rx_kind_of(ret);
	a->queries++;
	a->query_bytes += len;
	inet_ntop(AF_INET, &peer.sin_addr, from, sizeof(from));
	/*
	 * A watch is kept though we cannot answer yet (counting): its
	 * sender, started with us, hears of a link's fall from then on. Not
	 * an unpadded one: no notice may be longer than its watch.
	 */
	if (query.type == DARD_MSG_WATCH &&
	    sw_padded(a->port, a->nports, &query))
		sw_notice_watch(a, &query, addr, port, now);
	/*
	 * A started (or restarted) agent's counter has seen less than a
	 * window of traffic: its counts would be low, and a low count draws
	 * flows. Silence is what monitors already read as "unknown".
	 */
	if (now < a->ready_ns) {
		a->early++;
		log_debug(
			"query %llu from %s unanswered: counting for %.3g s more",
			(unsigned long long)query.seq, from,
			(a->ready_ns - now) / 1e9);
		return DARD_RX_TAKEN;
	}
	ret = refresh(a, now);
	if (ret) {
		/* Partial counts would mislead: the querier hears nothing. */
		a->count_errors++;
		dard_log_ratelimited(
			&a->unanswered, now, DARD_LOG_WARN,
			"query %llu from %s unanswered: counting elephants failed: %s",
			(unsigned long long)query.seq, from, strerror(-ret));
		return DARD_RX_TAKEN;
	}
	/* In the query's key: a querier not yet rotated still hears us. */
	out = sw_reply(a->port, a->nports, &query,
		       dard_keys_find(a->keys, query.key_id), buf, sizeof(buf),
		       &n);
	if (!out) {
		strcpy(why, "its reply would be longer than it plus 64 bytes: "
			    "pad it (Documentation/protocol.md)");
		return DARD_RX_UNPADDED;
	}
	if (sendto(a->sock, buf, out, 0, (struct sockaddr *)&peer,
		   sizeof(peer)) < 0) {
		a->send_errors++;
		dard_log_ratelimited(&a->send_failed, now, DARD_LOG_WARN,
				     "reply to %s failed: %s", from,
				     strerror(errno));
		return DARD_RX_TAKEN;
	}
	a->replies++;
	a->reply_bytes += out;
	log_debug("query %llu from %s: %u ports", (unsigned long long)query.seq,
		  from, n);
	return DARD_RX_TAKEN;
}

/* Anyone may ask: the MAC and the senders' windows say who is answered. */
static const struct dard_rx_ops query_ops = {
	.what = "message",
	.max_len = DARD_MSG_MAX,
	.kinds = DARD_RX_KINDS_OF(SW_REFUSALS),
	.decode = query_decode,
	.take = query_take,
	.now = sw_now,
};

void sw_answer(struct sw_agent *a)
{
	dard_rx_drain(&a->rx, a->sock, NULL);
}

/* A line of the log's counts: "name value" after "name value, ". */
struct stat_line {
	char s[512];
	size_t off;
	const char *sep;
};

static void stat_put(struct stat_line *l, const char *name, uint64_t v)
{
	if (l->off < sizeof(l->s))
		l->off += snprintf(l->s + l->off, sizeof(l->s) - l->off,
				   "%s%s %llu", l->sep, name,
				   (unsigned long long)v);
	l->sep = ", ";
}

/* "name: " before a list of counts, then "; " after it. */
static void stat_head(struct stat_line *l, const char *name)
{
	if (l->off < sizeof(l->s))
		l->off += snprintf(l->s + l->off, sizeof(l->s) - l->off,
				   "%s%s: ", l->sep, name);
	l->sep = "";
}

static void stat_flush(struct stat_line *l)
{
	log_info("%s", l->s);
	l->off = 0;
	l->s[0] = '\0';
	l->sep = "";
}

/* SW_STATS (answer.h), in its order. */
#define STAT_C(name, text) stat_put(&l, text, a->name);
#define STAT_T(text) stat_put(&l, text, dard_rx_refused(&a->rx));
#define STAT_KIND(id, text) stat_put(&l, text, a->rx.n[DARD_RX_##id]);
#define STAT_L(text, LIST)                                                     \
	stat_head(&l, text);                                                   \
	LIST(STAT_KIND)                                                        \
	l.sep = "; ";
#define STAT_NL() stat_flush(&l);

void sw_answer_log(const struct sw_agent *a)
{
	struct stat_line l = {.sep = ""};
	uint64_t v[__DARD_SW_STAT_MAX];
	unsigned i;
	int ret;

	SW_STATS(STAT_C, STAT_T, STAT_L, STAT_NL)
	stat_flush(&l);
	if (a->replay)
		log_info(
			"replay windows: %u senders live, %u slots, %llu sweeps",
			sw_replay_live(a->replay,
				       a->wall_us ? a->wall_us() : wall_us()),
			a->replay->nslots,
			(unsigned long long)a->replay->sweeps);
	if (!a->counter)
		return;
	ret = sw_counter_stats(a->counter, v);
	if (ret) {
		log_warn("Unable to read the counter's stats: %s",
			 strerror(-ret));
		return;
	}
	/* flow_full and truncated are elephants the counter missed. */
	for (i = 0; i < __DARD_SW_STAT_MAX; i++)
		stat_put(&l, sw_stat_name(i), v[i]);
	log_info("counter: %s", l.s);
}

#undef STAT_C
#undef STAT_T
#undef STAT_KIND
#undef STAT_L
#undef STAT_NL
