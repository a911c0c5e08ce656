// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-switchd: a switch's state-query agent (paper, section 2.4.2). It
 * counts the elephant flows leaving each port with a BPF program on the
 * port's TC egress hook (bpf/dard_switch.bpf.c) and answers monitors'
 * queries (Documentation/protocol.md) over UDP on the management network
 * with each port's bandwidth and elephant count. It never touches the
 * switch's forwarding.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/dard.h>

#include "cfgfile.h"
#include "dard_switch.skel.h"
#include "proto.h"
#include "dp.h"
#include "log.h"

#ifndef DARD_VERSION
#define DARD_VERSION "unknown"
#endif

enum { TC_HANDLE = 0xda5d, TC_PRIORITY = 1 };

struct port {
	unsigned num;
	unsigned ifindex;
	char ifname[IF_NAMESIZE];
	uint32_t mbps;
	uint32_t elephants; /* at the last count */
	int hook_created;
	int attached;
};

struct agent {
	struct dard_config cfg;
	uint32_t sw;
	struct port *port;
	unsigned nports;
	struct dard_switch *skel;
	int sock, ioctl_sock;
	uint64_t window_ns;
	uint64_t counted_ns;
	/* What it did, logged at exit and on SIGUSR1. */
	uint64_t queries, replies, rejected, send_errors;
};

static volatile sig_atomic_t stop, dump;

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		dump = 1;
	else
		stop = 1;
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dard-switchd [OPTIONS] SWITCH\n"
		"\n"
		"The state-query agent of switch SWITCH of a dard fabric. It\n"
		"counts the elephant flows leaving each of the switch's ports\n"
		"(IP-in-IP packets whose outer DSCP is the hosts' elephant mark,\n"
		"seen within the last --window seconds) with a BPF program on\n"
		"each port's TC egress hook, and answers the hosts' monitors\n"
		"over UDP with every asked port's bandwidth (the link capacity\n"
		"in the configuration file) and elephant count. It runs in the\n"
		"switch's network namespace, in the foreground, and logs to\n"
		"stderr; SIGUSR1 logs its counters, SIGINT and SIGTERM detach\n"
		"the programs and stop it. Forwarding is never touched.\n"
		"\n"
		"Options:\n"
		"  -c, --config FILE     the host configuration file (default\n"
		"                        $DARD_CONFIG, else " DARD_CONFIG_DEFAULT
		")\n"
		"  -l, --listen ADDR     answer on ADDR (default: the switch's\n"
		"                        management address in the file)\n"
		"  -p, --port N          UDP port (default %d)\n"
		"  -w, --window SECONDS  count elephants seen this recently\n"
		"                        (default 1; up to 3600)\n"
		"  -d, --elephant-dscp N the hosts' elephant mark, 0-63 (default 8)\n"
		"  -i, --ifname FORMAT   the name of port N's interface, a printf\n"
		"                        format of the number (default p%%u)\n"
		"  -v, --verbose         log every query\n"
		"  -q, --quiet           log errors only\n"
		"  -V, --version         print the version\n"
		"  -h, --help            print this help\n"
		"\n"
		"Exit status: 0 stopped by a signal, 1 error, 2 bad usage.\n",
		DARD_PROTO_PORT);
}

static int port_up(struct agent *a, const struct port *p)
{
	struct ifreq ifr = {0};

	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", p->ifname);
	if (ioctl(a->ioctl_sock, SIOCGIFFLAGS, &ifr))
		return 0;
	return (ifr.ifr_flags & (IFF_UP | IFF_RUNNING)) ==
	       (IFF_UP | IFF_RUNNING);
}

static void detach(struct agent *a)
{
	unsigned i;

	for (i = 0; i < a->nports; i++) {
		struct port *p = &a->port[i];
		LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = p->ifindex,
			    .attach_point = BPF_TC_EGRESS);
		LIBBPF_OPTS(bpf_tc_opts, opts, .handle = TC_HANDLE,
			    .priority = TC_PRIORITY);

		if (p->attached)
			bpf_tc_detach(&hook, &opts);
		if (p->hook_created) {
			hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
			bpf_tc_hook_destroy(&hook);
		}
		p->attached = p->hook_created = 0;
	}
}

static int attach(struct agent *a, int dscp)
{
	unsigned i;
	int ret;

	a->skel = dard_switch__open();
	if (!a->skel) {
		log_err("Unable to open the BPF object: %s", strerror(errno));
		return -1;
	}
	a->skel->rodata->elephant_dscp = dscp;
	ret = dard_switch__load(a->skel);
	if (ret) {
		log_err("Unable to load the BPF object: %s", strerror(-ret));
		return -1;
	}
	for (i = 0; i < a->nports; i++) {
		struct port *p = &a->port[i];
		LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = p->ifindex,
			    .attach_point = BPF_TC_EGRESS);
		LIBBPF_OPTS(bpf_tc_opts, opts, .handle = TC_HANDLE,
			    .priority = TC_PRIORITY,
			    /* A crashed agent's filter: replaced, not in the
			       way. */
			    .flags = BPF_TC_F_REPLACE,
			    .prog_fd = bpf_program__fd(
				    a->skel->progs.dard_sw_egress));

		ret = bpf_tc_hook_create(&hook);
		if (ret && ret != -EEXIST) {
			log_err("Unable to create the clsact hook on %s: %s",
				p->ifname, strerror(-ret));
			return -1;
		}
		p->hook_created = !ret;
		ret = bpf_tc_attach(&hook, &opts);
		if (ret) {
			log_err("Unable to attach to %s egress: %s", p->ifname,
				strerror(-ret));
			return -1;
		}
		p->attached = 1;
	}
	return 0;
}

/*
 * Counts each port's elephants seen within the window, reading the table
 * in batches, and forgets entries long gone. At most once per quarter
 * window: queries from many monitors arrive close together.
 */
static void count(struct agent *a)
{
	enum { BATCH = 512 };
	static struct dard_sw_key keys[BATCH];
	static uint64_t seen[BATCH];
	int fd = bpf_map__fd(a->skel->maps.dard_sw_flows);
	uint64_t now = dard_coarse_ns(), in = 0, out;
	void *cursor = NULL;
	unsigned i, k;
	int ret;

	if (a->counted_ns && now - a->counted_ns < a->window_ns / 4)
		return;
	a->counted_ns = now;
	for (i = 0; i < a->nports; i++)
		a->port[i].elephants = 0;
	do {
		__u32 n = BATCH;

		ret = bpf_map_lookup_batch(fd, cursor, &out, keys, seen, &n,
					   NULL);
		if (ret && ret != -ENOENT)
			break;
		for (k = 0; k < n; k++) {
			/* Seen after now (another CPU's clock): fresh. */
			uint64_t age = now > seen[k] ? now - seen[k] : 0;

			/* Long gone: forget it. */
			if (age > 8 * a->window_ns) {
				bpf_map_delete_elem(fd, &keys[k]);
				continue;
			}
			if (age > a->window_ns)
				continue;
			for (i = 0; i < a->nports; i++)
				if (a->port[i].ifindex == keys[k].ifindex)
					a->port[i].elephants++;
		}
		in = out;
		cursor = &in;
	} while (!ret);
}

static struct port *find_port(struct agent *a, unsigned num)
{
	unsigned i;

	for (i = 0; i < a->nports; i++)
		if (a->port[i].num == num)
			return &a->port[i];
	return NULL;
}

static void answer(struct agent *a)
{
	static struct dard_msg msg;
	static struct dard_port_state st[DARD_MSG_PORTS_MAX];
	static uint8_t buf[DARD_MSG_MAX];
	char err[DARD_ERR_MAX] = "", from[INET_ADDRSTRLEN];
	struct sockaddr_in peer;
	socklen_t plen = sizeof(peer);
	unsigned i, n = 0;
	ssize_t len;
	size_t out;

	len = recvfrom(a->sock, buf, sizeof(buf), MSG_DONTWAIT,
		       (struct sockaddr *)&peer, &plen);
	if (len < 0)
		return;
	inet_ntop(AF_INET, &peer.sin_addr, from, sizeof(from));
	if (dard_proto_decode(buf, len, &msg, err) ||
	    msg.type != DARD_MSG_QUERY) {
		a->rejected++;
		log_warn("rejected a message from %s:%u: %s", from,
			 ntohs(peer.sin_port),
			 msg.type == DARD_MSG_QUERY || err[0] ? err
							      : "not a query");
		return;
	}
	a->queries++;
	count(a);
	/* Every port, as many as one reply carries (1024). */
	if (!msg.count)
		for (i = 0; i < a->nports && msg.count < DARD_MSG_PORTS_MAX;
		     i++)
			msg.ports[msg.count++] = a->port[i].num;
	for (i = 0; i < msg.count; i++) {
		const struct port *p = find_port(a, msg.ports[i]);

		st[n].port = msg.ports[i];
		st[n].flags = p && port_up(a, p) ? DARD_PORT_F_UP : 0;
		st[n].mbps = p ? p->mbps : 0;
		st[n].elephants = p ? p->elephants : 0;
		n++;
	}
	out = dard_proto_reply(buf, sizeof(buf), msg.seq, st, n);
	if (sendto(a->sock, buf, out, 0, (struct sockaddr *)&peer, plen) < 0) {
		a->send_errors++;
		log_warn("reply to %s failed: %s", from, strerror(errno));
		return;
	}
	a->replies++;
	log_debug("query %u from %s: %u ports", msg.seq, from, n);
}

static void log_counters(struct agent *a)
{
	log_info("queries %llu, replies %llu, rejected %llu, send errors %llu",
		 (unsigned long long)a->queries, (unsigned long long)a->replies,
		 (unsigned long long)a->rejected,
		 (unsigned long long)a->send_errors);
}

static int parse_uint(const char *s, unsigned long max, unsigned long *out)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno || end == s || *end || *s == '-' || *out > max ? -1 : 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"config", required_argument, NULL, 'c'},
		{"listen", required_argument, NULL, 'l'},
		{"port", required_argument, NULL, 'p'},
		{"window", required_argument, NULL, 'w'},
		{"elephant-dscp", required_argument, NULL, 'd'},
		{"ifname", required_argument, NULL, 'i'},
		{"verbose", no_argument, NULL, 'v'},
		{"quiet", no_argument, NULL, 'q'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	const char *config = NULL, *listen_arg = NULL;
	const char *ifname_fmt = "p%u";
	char err[DARD_ERR_MAX + PATH_MAX], addr[INET_ADDRSTRLEN];
	struct sockaddr_in sa = {.sin_family = AF_INET};
	unsigned long port = DARD_PROTO_PORT, dscp = 8;
	int opt, level = DARD_LOG_INFO;
	double window = 1;
	struct agent a = {.sock = -1, .ioctl_sock = -1};
	struct sigaction sig = {.sa_handler = on_signal};
	unsigned k;
	char *end;

	while ((opt = getopt_long(argc, argv, "c:l:p:w:d:i:vqVh", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'c':
			config = optarg;
			break;
		case 'l':
			listen_arg = optarg;
			break;
		case 'p':
			if (parse_uint(optarg, 65535, &port) || !port) {
				fprintf(stderr,
					"dard-switchd: --port needs 1-65535, not `%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'w':
			window = strtod(optarg, &end);
			if (end == optarg || *end || !(window > 0) ||
			    window > 3600) {
				fprintf(stderr,
					"dard-switchd: --window needs seconds in (0, 3600], not `%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'd':
			if (parse_uint(optarg, 63, &dscp)) {
				fprintf(stderr,
					"dard-switchd: --elephant-dscp needs 0-63, not `%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'i':
			/* One %u and nothing else that printf would expand. */
			end = strchr(optarg, '%');
			if (!end || strncmp(end, "%u", 2) ||
			    strchr(end + 2, '%')) {
				fprintf(stderr,
					"dard-switchd: --ifname needs one %%u for the port number, not `%s'\n",
					optarg);
				return 2;
			}
			ifname_fmt = optarg;
			break;
		case 'v':
			level = DARD_LOG_DEBUG;
			break;
		case 'q':
			level = DARD_LOG_ERR;
			break;
		case 'V':
			printf("dard-switchd %s\n", DARD_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "dard-switchd: %s\n",
			optind < argc ? "one SWITCH only" : "which SWITCH?");
		usage(stderr);
		return 2;
	}
	dard_log_init("dard-switchd", level);
	a.window_ns = window * 1e9;
	config = dard_config_path(config);
	if (dard_config_read(&a.cfg, config, NULL, 0, err, sizeof(err))) {
		log_err("%s", err);
		return 1;
	}
	a.sw = dard_topo_find(a.cfg.topo, argv[optind]);
	if (a.sw == DARD_NONE || a.cfg.topo->node[a.sw].is_host) {
		log_err("%s: no switch `%s' in %s", config, argv[optind],
			dard_topo_label(a.cfg.topo));
		return 1;
	}
	a.port = calloc(a.cfg.topo->node[a.sw].nports, sizeof(*a.port));
	if (!a.port)
		return 1;
	for_each_port(a.cfg.topo, a.sw, k) {
		const struct dard_link *l =
			dard_topo_port_link(a.cfg.topo, a.sw, k);
		struct port *p = &a.port[a.nports];

		if (!l)
			continue;
		p->num = k;
		p->mbps = l->mbps;
		snprintf(p->ifname, sizeof(p->ifname), ifname_fmt, k);
		p->ifindex = if_nametoindex(p->ifname);
		if (!p->ifindex) {
			log_err("port %u of %s: no interface `%s' here (--ifname sets the names)",
				k, argv[optind], p->ifname);
			return 1;
		}
		a.nports++;
	}
	if (listen_arg) {
		if (inet_pton(AF_INET, listen_arg, &sa.sin_addr) != 1) {
			fprintf(stderr,
				"dard-switchd: --listen needs an IPv4 address, not `%s'\n",
				listen_arg);
			return 2;
		}
	} else {
		sa.sin_addr.s_addr = htonl(a.cfg.topo->node[a.sw].mgmt);
		if (!sa.sin_addr.s_addr) {
			log_err("%s has no management address in %s: give --listen",
				argv[optind], config);
			return 1;
		}
	}
	sa.sin_port = htons(port);
	a.sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	a.ioctl_sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	inet_ntop(AF_INET, &sa.sin_addr, addr, sizeof(addr));
	if (a.sock < 0 || a.ioctl_sock < 0 ||
	    bind(a.sock, (struct sockaddr *)&sa, sizeof(sa))) {
		log_err("Unable to listen on %s:%lu: %s", addr, port,
			strerror(errno));
		return 1;
	}
	sigaction(SIGINT, &sig, NULL);
	sigaction(SIGTERM, &sig, NULL);
	sigaction(SIGUSR1, &sig, NULL);
	libbpf_set_print(NULL);
	if (attach(&a, dscp)) {
		detach(&a);
		dard_switch__destroy(a.skel);
		return 1;
	}
	log_info(
		"%s: %u ports, answering on %s:%lu, window %.3g s, elephant DSCP %lu",
		argv[optind], a.nports, addr, port, window, dscp);
	while (!stop) {
		struct pollfd pfd = {.fd = a.sock, .events = POLLIN};

		if (dump) {
			dump = 0;
			log_counters(&a);
		}
		if (poll(&pfd, 1, -1) > 0 && (pfd.revents & POLLIN))
			answer(&a);
	}
	detach(&a);
	dard_switch__destroy(a.skel);
	log_counters(&a);
	return 0;
}
