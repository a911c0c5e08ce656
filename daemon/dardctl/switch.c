// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dardctl switch: a switch's downhill and uphill tables. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <limits.h>
#include <sodium.h>

#include "ctl.h"
#include "args.h"
#include "load.h"
#include "format.h"
#include "addr6.h"
#include "objects.h"
#include "objopts.h"
#include "keyfile.h"
#include "proto.h"
#include "receiver.h"
#include "clock.h"
#include "table.h"
#include "print.h"
#include "render.h"

static int usage(FILE *f)
{
	fprintf(f,
		"Usage: dardctl switch tables SWITCH [ format { text | ip | json } ]\n"
		"                                    [ TOPO_OPTS ]\n"
		"       dardctl switch query SWITCH [ port N ]... [ at ADDR[:PORT] ]\n"
		"                                   [ timeout MS ] [ TOPO_OPTS ] [ -k FILE ]\n");
	ctl_opts_usage(f, "Where: ", CTL_OPTS_TOPO);
	fprintf(f,
		"\n"
		"tables:\n"
		"The downhill table (prefixes allocated below, by down port; looked up\n"
		"first, on the destination) and the uphill table (prefixes allocated\n"
		"from above, by up port; looked up on the source when the downhill\n"
		"table has no match), as in Table 2 of the DARD paper.\n"
		"format ip prints the iproute2 commands that install them on a Linux\n"
		"router whose port N is interface pN; format json equals -j.\n"
		"\n"
		"query: asks the switch's dard-switchd (Documentation/protocol.md) for\n"
		"the state of the given exit ports, or of all, and prints each port's\n"
		"neighbour, whether it is up, its bandwidth, the elephant flows\n"
		"leaving by it and its load in Mbit/s (`-': not measured); ports the\n"
		"switch does not have are left out. The query\n"
		"is signed with the key file's first key (-k) and goes to the switch's\n"
		"management address and UDP port 7471 unless `at' says otherwise; the\n"
		"answer is awaited for timeout ms (default 1000).\n");
	return f == stdout ? CTL_OK : CTL_USAGE;
}

static void print_table(struct ctl *c, uint32_t sw, const char *key,
			const struct dard_route *r, uint32_t n)
{
	const struct dard_topo *t = c->cfg.topo;
	const struct dard_plan *p = c->cfg.plan;
	int has4 = dard_family_has4(p->opts.family);
	int has6 = dard_family_has6(p->opts.family);
	char b[DARD_PREFIX6_STRLEN];
	struct dard_prefix6 pre;
	uint32_t i;

	if (has4 && has6)
		print_text("%s table\n%-20s %-5s %-10s %s\n", key, "prefix",
			   "port", "to", "prefix6");
	else
		print_text("%s table\n%-*s %-5s %s\n", key, has4 ? 20 : 28,
			   has4 ? "prefix" : "prefix6", "port", "to");
	open_json_array(PRINT_JSON, key);
	for (i = 0; i < n; i++) {
		open_json_object(NULL);
		dard_table_prefix6(p, r[i].prefix, r[i].len, r[i].field, &pre);
		if (has4)
			print_string(PRINT_ANY, "prefix", "%-20s",
				     dard_prefix_str(r[i].prefix, r[i].len, b));
		else
			print_string(PRINT_ANY, "prefix6", "%-28s",
				     dard_prefix6_str(&pre.addr, pre.len, b));
		print_uint(PRINT_ANY, "port", " %-5llu", r[i].port);
		print_string(PRINT_ANY, "to", has4 && has6 ? " %-10s" : " %s",
			     t->node[dard_topo_peer(t, sw, r[i].port)].name);
		if (has4 && has6)
			print_string(PRINT_ANY, "prefix6", " %s",
				     dard_prefix6_str(&pre.addr, pre.len, b));
		print_nl();
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

static int switch_tables(struct ctl *c, uint32_t sw, const char *format)
{
	const struct dard_topo *t = c->cfg.topo;
	struct dard_route *r;
	uint32_t n, m;

	if (!strcmp(format, "ip")) {
		render_switch(stdout, t, c->cfg.plan, sw, "ip ");
		if (dard_family_has6(c->cfg.plan->opts.family))
			render_switch6(stdout, t, c->cfg.plan, sw, "ip -6 ");
		return CTL_OK;
	}
	n = dard_table_downhill_size(t, sw);
	m = dard_table_uphill_size(t, sw);
	r = calloc((n > m ? n : m) + 1, sizeof(*r));
	if (!r) {
		fprintf(stderr, "Out of memory\n");
		return CTL_ERR;
	}
	open_json_object(NULL);
	print_string(PRINT_ANY, "name", "%s", t->node[sw].name);
	print_string(PRINT_ANY, "level", " (%s)\n",
		     t->level_name[t->node[sw].level]);
	n = dard_table_downhill(t, c->cfg.plan, sw, r);
	print_table(c, sw, "downhill", r, n);
	if (t->node[sw].level) {
		m = dard_table_uphill(t, c->cfg.plan, sw, r);
		print_text("\n");
		print_table(c, sw, "uphill", r, m);
	}
	close_json_object();
	free(r);
	return CTL_OK;
}

/*
 * The switch's answer, taken by the one receiver (receiver.h) as the
 * daemons take theirs: decoded, then a reply to our query, or refused by
 * kind with its reason on stderr. A datagram that decodes but answers
 * another query is passed over; one that does not decode ends the wait.
 */
struct answer {
	const struct dard_keys *keys;
	struct dard_msg *msg;
	uint32_t sender;
	uint64_t seq;
	int decoded;
};

static int answer_decode(void *arg, const uint8_t *buf, size_t len, char *err)
{
	struct answer *a = arg;
	int ret = dard_proto_decode(buf, len, a->keys, a->msg, err);

	a->decoded = !ret;
	return ret;
}

static int answer_take(void *arg, size_t len, uint32_t addr, uint16_t port,
		       uint64_t now, char *why)
{
	struct answer *a = arg;

	(void)len;
	(void)addr;
	(void)port;
	(void)now;
	if (a->msg->type != DARD_MSG_REPLY) {
		strcpy(why, "not a reply");
		return DARD_RX_MALFORMED;
	}
	if (a->msg->sender != a->sender || a->msg->seq != a->seq) {
		strcpy(why, "answers another query");
		return DARD_RX_SEQ;
	}
	return DARD_RX_TAKEN;
}

static uint64_t answer_now(void)
{
	return dard_clock_ns(CLOCK_MONOTONIC);
}

static const struct dard_rx_ops answer_ops = {
	.what = "reply",
	.max_len = DARD_MSG_MAX,
	.kinds = DARD_RX_BIT(SIZE) | DARD_RX_BIT(PROTO) | DARD_RX_BIT(KEY) |
		 DARD_RX_BIT(MAC) | DARD_RX_BIT(MALFORMED) | DARD_RX_BIT(SEQ),
	.log_per_kind = 1,
	.decode = answer_decode,
	.take = answer_take,
	.now = answer_now,
};

/* Waits for the answer of a's query on fd, connected to sa: 0, or -1
 * with the reason said. */
static int await_answer(int fd, const struct sockaddr_in *sa, const char *name,
			struct answer *a, int timeout_ms)
{
	static uint8_t buf[DARD_MSG_MAX + 1];
	static struct dard_rx rx;
	ssize_t len;

	dard_rx_init(&rx, &answer_ops, a);
	for (;;) {
		struct pollfd pfd = {.fd = fd, .events = POLLIN};

		if (poll(&pfd, 1, timeout_ms) <= 0) {
			fprintf(stderr,
				"No answer from %s at %s:%u within %d ms\n",
				name, inet_ntoa(sa->sin_addr),
				ntohs(sa->sin_port), timeout_ms);
			return -1;
		}
		len = recv(fd, buf, sizeof(buf), 0);
		if (len < 0) {
			fprintf(stderr, "No answer from %s: %s\n", name,
				strerror(errno));
			return -1;
		}
		a->decoded = 0;
		if (dard_rx_input(&rx, buf, len, ntohl(sa->sin_addr.s_addr),
				  ntohs(sa->sin_port),
				  answer_now()) == DARD_RX_TAKEN)
			return 0;
		/* Refused, the reason said: not a reply at all ends it. */
		if (!a->decoded)
			return -1;
	}
}

static int switch_query(struct ctl *c, uint32_t sw, const uint16_t *ports,
			unsigned n, const char *at, int timeout_ms)
{
	const struct dard_topo *t = c->cfg.topo;
	static struct dard_msg msg;
	static uint8_t buf[DARD_MSG_MAX];
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons(DARD_PROTO_PORT)};
	char err[DARD_ERR_MAX + PATH_MAX], host[64] = "";
	static struct dard_keys keys;
	struct answer a;
	uint32_t sender = 0;
	uint64_t seq;
	unsigned i;
	ssize_t len;
	int fd, ret = CTL_ERR;

	sa.sin_addr.s_addr = htonl(t->node[sw].mgmt);
	if (at) {
		char *colon;
		uint32_t port = DARD_PROTO_PORT;

		snprintf(host, sizeof(host), "%s", at);
		colon = strchr(host, ':');
		if (colon) {
			*colon = 0;
			if (ctl_parse_u32("port", colon + 1, 1, 65535, &port))
				return CTL_USAGE;
		}
		if (inet_pton(AF_INET, host, &sa.sin_addr) != 1) {
			fprintf(stderr,
				"Invalid address `%s': expected ADDR[:PORT]\n",
				at);
			return CTL_USAGE;
		}
		sa.sin_port = htons(port);
	}
	if (!sa.sin_addr.s_addr) {
		fprintf(stderr,
			"%s has no management address: give `at ADDR'\n",
			t->node[sw].name);
		return CTL_ERR;
	}
	if (dard_crypto_init(err) ||
	    dard_keys_load(&keys, dard_key_path(c->key_arg), err)) {
		fprintf(stderr, "%s\n", err);
		return CTL_ERR;
	}
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror("Unable to reach the switch");
		goto out;
	}
	/*
	 * A sender of this run's own, never 0 nor the controller's, and our
	 * clock in µs: the agent's window takes it once (proto.h).
	 */
	while (!sender || sender == DARD_PROTO_SENDER_CONTROLLER)
		sender = randombytes_random();
	seq = dard_proto_next_seq(0, dard_clock_ns(CLOCK_REALTIME) / 1000);
	a = (struct answer){
		.keys = &keys, .msg = &msg, .sender = sender, .seq = seq};
	len = dard_proto_query(
		buf, sizeof(buf), &keys.key[0], sender, seq, ports, n,
		dard_proto_query_len(n ? n : DARD_MSG_PORTS_MAX));
	if (send(fd, buf, len, 0) < 0) {
		fprintf(stderr, "Unable to query %s at %s: %s\n",
			t->node[sw].name, inet_ntoa(sa.sin_addr),
			strerror(errno));
		goto out;
	}
	if (await_answer(fd, &sa, t->node[sw].name, &a, timeout_ms))
		goto out;
	open_json_object(NULL);
	print_string(PRINT_ANY, "name", "%s", t->node[sw].name);
	print_string(PRINT_ANY, "at", " at %s\n", inet_ntoa(sa.sin_addr));
	print_text("%-5s %-12s %-4s %10s %9s %12s\n", "port", "to", "up",
		   "Mbit/s", "elephants", "load Mbit/s");
	open_json_array(PRINT_JSON, "ports");
	for (i = 0; i < msg.count; i++) {
		const struct dard_port_state *st = &msg.state[i];
		uint32_t peer = st->port <= t->node[sw].nports
					? dard_topo_peer(t, sw, st->port)
					: DARD_NONE;

		open_json_object(NULL);
		print_uint(PRINT_ANY, "port", "%-5llu", st->port);
		print_string(PRINT_ANY, "to", " %-12s",
			     peer == DARD_NONE ? "-" : t->node[peer].name);
		print_bool(PRINT_ANY, "up", " %-4s",
			   st->flags & DARD_PORT_F_UP);
		print_uint(PRINT_ANY, "mbps", " %10llu", st->mbps);
		print_uint(PRINT_ANY, "elephants", " %9llu", st->elephants);
		/* Not measured is no figure at all: null, `-'. */
		if (st->load_kbps == DARD_LOAD_UNKNOWN) {
			print_json_value("load", NULL);
			print_text(" %12s\n", "-");
		} else {
			print_float(PRINT_ANY, "load", " %12.3f\n",
				    st->load_kbps / 1000.0);
		}
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	close_json_object();
	ret = CTL_OK;
out:
	if (fd >= 0)
		close(fd);
	return ret;
}

static int do_query(struct ctl *c, int argc, char **argv)
{
	static uint16_t ports[DARD_MSG_PORTS_MAX];
	const char *at = NULL;
	unsigned n = 0;
	uint32_t timeout = 1000, sw, p;
	int i;

	if (argc < 2) {
		fprintf(stderr, "switch query: which switch?\n");
		return usage(stderr);
	}
	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "port") && i + 1 < argc) {
			if (ctl_parse_u32("port", argv[++i], 1, 65535, &p))
				return CTL_USAGE;
			if (n == DARD_MSG_PORTS_MAX) {
				fprintf(stderr,
					"Too many ports: at most %u in a query\n",
					DARD_MSG_PORTS_MAX);
				return CTL_USAGE;
			}
			for (unsigned j = 0; j < n; j++)
				if (ports[j] == p) {
					fprintf(stderr, "Port %u given twice\n",
						p);
					return CTL_USAGE;
				}
			ports[n++] = p;
		} else if (!strcmp(argv[i], "at") && i + 1 < argc) {
			at = argv[++i];
		} else if (!strcmp(argv[i], "timeout") && i + 1 < argc) {
			/* Milliseconds, ten minutes at most. */
			if (ctl_parse_u32("timeout", argv[++i], 1, 600000,
					  &timeout))
				return CTL_USAGE;
		} else {
			fprintf(stderr, "switch query: unexpected `%s'\n",
				argv[i]);
			return usage(stderr);
		}
	}
	if (ctl_load(c))
		return CTL_ERR;
	sw = ctl_node(c, argv[1], 0);
	if (sw == DARD_NONE)
		return CTL_ERR;
	return switch_query(c, sw, ports, n, at, (int)timeout);
}

int do_switch(struct ctl *c, int argc, char **argv)
{
	const char *format = "text";
	uint32_t sw;
	int i;

	if (argc < 1)
		return usage(stderr);
	if (ctl_wants_help(argc, argv))
		return usage(stdout);
	if (!strcmp(argv[0], "query"))
		return do_query(c, argc, argv);
	if (strcmp(argv[0], "tables"))
		return ctl_unknown("switch", argv[0]);
	if (argc < 2) {
		fprintf(stderr, "switch tables: which switch?\n");
		return usage(stderr);
	}
	for (i = 2; i < argc; i++) {
		if ((!strcmp(argv[i], "format") ||
		     !strcmp(argv[i], "--format")) &&
		    i + 1 < argc) {
			format = argv[++i];
			if (strcmp(format, "text") && strcmp(format, "ip") &&
			    strcmp(format, "json")) {
				fprintf(stderr,
					"Invalid format `%s': expected text, ip or json\n",
					format);
				return CTL_USAGE;
			}
		} else {
			fprintf(stderr, "switch tables: unexpected `%s'\n",
				argv[i]);
			return usage(stderr);
		}
	}
	if (ctl_format(c, format, "ip"))
		return CTL_USAGE;
	if (ctl_load(c))
		return CTL_ERR;
	sw = ctl_node(c, argv[1], 0);
	if (sw == DARD_NONE)
		return CTL_ERR;
	return switch_tables(c, sw, format);
}
