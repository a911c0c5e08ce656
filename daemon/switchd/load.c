// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Sampling the ports' transmit counters over plain rtnetlink, as
 * routes.c keeps the tables (no libmnl on the switches): one RTM_GETLINK
 * dump a window reads every interface's IFLA_STATS64, which the kernel
 * keeps for every device whatever its driver, with no per-port file to
 * open as /sys/class/net/PORT/statistics would need. tx_bytes counts
 * all that left by the port, the hosts' elephants and mice alike.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "err.h"
#include "load.h"
#include "nl.h"
#include "nlwalk.h"

int sw_load_open(struct sw_load *l, char *err)
{
	memset(l, 0, sizeof(*l));
	l->fd = sw_nl_open(0, err);
	return l->fd < 0 ? l->fd : 0;
}

void sw_load_close(struct sw_load *l)
{
	if (l->fd >= 0)
		close(l->fd);
	l->fd = -1;
}

/* What one dump fills: each port's counter, if its interface is there. */
struct take {
	const struct sw_port *port;
	unsigned nports;
	uint64_t now;
	struct sw_tx *cur;
	uint8_t *found;
};

/* One interface of the dump: its counter, if it is one of our ports. */
static void take_link(const struct nlmsghdr *h, void *arg)
{
	const struct take *tk = arg;
	const struct ifinfomsg *ifi = NLMSG_DATA(h);
	struct rtnl_link_stats64 st;
	const char *name;
	unsigned i;

	if (!dard_nl_link_stats(h, &name, &st))
		return;
	for (i = 0; i < tk->nports; i++)
		if (!strcmp(tk->port[i].ifname, name)) {
			tk->cur[i] = (struct sw_tx){st.tx_bytes, tk->now,
						    (unsigned)ifi->ifi_index};
			tk->found[i] = 1;
		}
}

int sw_load_walk(const void *buf, size_t len, uint32_t seq,
		 const struct sw_port *port, unsigned nports, uint64_t now,
		 struct sw_tx *cur, uint8_t *found)
{
	struct take tk = {port, nports, now, cur, found};

	return dard_nl_walk(buf, len, seq, take_link, &tk);
}

/* Dumps every link, filling cur[] for the ports found: 0 or -errno. */
static int dump(struct sw_load *l, const struct sw_port *port, unsigned nports,
		uint64_t now, struct sw_tx *cur, uint8_t *found)
{
	struct {
		struct nlmsghdr h;
		struct ifinfomsg ifi;
	} q = {.h = {.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg)),
		     .nlmsg_type = RTM_GETLINK,
		     .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		     .nlmsg_seq = ++l->seq},
	       .ifi = {.ifi_family = AF_UNSPEC}};
	struct take tk = {port, nports, now, cur, found};

	return sw_nl_talk(l->fd, &q.h, take_link, &tk);
}

void sw_load_sample(struct sw_load *l, struct sw_port *port, unsigned nports,
		    uint64_t now)
{
	struct sw_tx *cur = calloc(nports ? nports : 1, sizeof(*cur));
	uint8_t *found = calloc(nports ? nports : 1, 1);
	unsigned i;
	int ret = !cur || !found ? -ENOMEM
				 : dump(l, port, nports, now, cur, found);

	if (ret) {
		/* Not measured this window; the last samples stay. */
		l->failed++;
		for (i = 0; i < nports; i++)
			port[i].load_kbps = DARD_LOAD_UNKNOWN;
		dard_log_ratelimited(&l->fail_rl, now, DARD_LOG_WARN,
				     "Unable to read the ports' counters: %s",
				     strerror(-ret));
	} else {
		l->samples++;
		for (i = 0; i < nports; i++) {
			l->gone += !found[i];
			l->resets += sw_load_take(&port[i],
						  found[i] ? &cur[i] : NULL);
		}
	}
	free(cur);
	free(found);
}

void sw_load_log(const struct sw_load *l)
{
	log_info("load: %llu samples, %llu failed, %llu counter resets, "
		 "%llu ports unread",
		 (unsigned long long)l->samples, (unsigned long long)l->failed,
		 (unsigned long long)l->resets, (unsigned long long)l->gone);
}
