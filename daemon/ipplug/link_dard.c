// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * An iproute2 link plugin for the dard device: `ip` dlopens
 * $IP_LIB_DIR/link_dard.so (default /usr/lib/ip/link_dard.so) for a kind
 * it does not know and calls the table `dard_link_util' there, so that
 *
 *   ip link add dard0 link eth0 type dard elephant-age 10 elephant-dscp 8
 *   ip -d link show dard0        (and ip -j -d link show dard0)
 *
 * parse and print IFLA_DARD_* (kmod/uapi/linux/dard.h).
 *
 * iproute2 keeps the table's type (struct link_util) in a private header
 * of its own tree, not installed by any package. We copy none of its code:
 * struct ip_link_util below is our own declaration of the same ABI, the
 * layout that `ip' 6.1 (Debian 12) reads (a next pointer, the kind, the
 * highest attribute, then the callbacks, of which we fill three). Values
 * are printed through print_uint_name_value, print_string_name_value and
 * is_json_context, which `ip' exports (linked -export-dynamic) and which
 * honour -j; loaded anywhere else the plugin falls back to plain text. Numbers
 * parse with libdard's num.h, as dardctl's do.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/dard.h>

#include "err.h"
#include "num.h"
#include "topo.h"

struct ip_link_util {
	struct ip_link_util *next;
	const char *id;
	int maxattr;
	int (*parse_opt)(struct ip_link_util *lu, int argc, char **argv,
			 struct nlmsghdr *n);
	void (*print_opt)(struct ip_link_util *lu, FILE *f,
			  struct rtattr *tb[]);
	void (*print_xstats)(struct ip_link_util *lu, FILE *f,
			     struct rtattr *xstats);
	void (*print_help)(struct ip_link_util *lu, int argc, char **argv,
			   FILE *f);
	void *parse_ifla_xstats;
	void *print_ifla_xstats;
};

/* ip's own printers: text or JSON as `ip -j' says. print_uint_name_value
 * takes an unsigned int; 64-bit values go through print_color_u64, whose
 * output type PRINT_ANY is 4 and colour COLOR_NONE 6 in iproute2 6.1. */
void print_uint_name_value(const char *name, unsigned int value)
	__attribute__((weak));
void print_color_u64(int type, int color, const char *key, const char *fmt,
		     uint64_t value) __attribute__((weak));
enum { IP_PRINT_ANY = 4, IP_COLOR_NONE = 6 };
void print_string_name_value(const char *name, const char *value)
	__attribute__((weak));
/* ip's printers leave the space between pairs to the caller in text. */
_Bool is_json_context(void) __attribute__((weak));

static void space(FILE *f)
{
	if (!is_json_context || !is_json_context())
		fputc(' ', f);
}

/* Appended as ip's own addattr would: its request buffer has room for
 * far more than our 24 bytes of options. */
static void put(struct nlmsghdr *n, uint16_t type, const void *v, size_t len)
{
	struct rtattr *rta = (void *)((char *)n + NLMSG_ALIGN(n->nlmsg_len));

	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	memcpy(RTA_DATA(rta), v, len);
	n->nlmsg_len = NLMSG_ALIGN(n->nlmsg_len) + RTA_ALIGN(rta->rta_len);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ... dard [ elephant-age SECONDS ] [ elephant-bytes BYTES ]\n"
		"                [ elephant-dscp { DSCP | inherit } ]\n"
		"Where: SECONDS a decimal up to 86400 (a flow's age before it is an\n"
		"               elephant), BYTES the payload it carried by then\n"
		"               (TCP or UDP data; at least one byte), DSCP 0-63\n"
		"               (the elephants' outer mark; inherit: the inner one)\n"
		"The ID, aliases and paths are set over generic netlink (dardctl dp\n"
		"attach --datapath kmod).\n");
}

static int bad(const char *what, const char *arg, int ret, const char *want)
{
	char err[DARD_ERR_MAX];

	dard_num_fail(err, ret, what, arg, want);
	fprintf(stderr, "%s\n", err);
	return -1;
}

static int parse_opt(struct ip_link_util *lu, int argc, char **argv,
		     struct nlmsghdr *n)
{
	uint64_t v;
	uint32_t dscp;
	uint8_t u8;
	int ret;

	for (; argc > 0; argc--, argv++) {
		const char *kw = argv[0];

		if (!strcmp(kw, "help")) {
			usage(stdout);
			return -1;
		}
		if (argc < 2) {
			fprintf(stderr, "dard: `%s' needs a value\n", kw);
			return -1;
		}
		argc--, argv++;
		if (!strcmp(kw, "elephant-age")) {
			ret = dard_parse_seconds(argv[0], 0, 86400, &v);
			if (ret)
				return bad(kw, argv[0], ret,
					   "seconds from 0 to 86400");
			put(n, IFLA_DARD_ELEPHANT_AGE_NS, &v, sizeof(v));
		} else if (!strcmp(kw, "elephant-bytes")) {
			ret = dard_parse_u64(argv[0], 0, UINT64_MAX, &v);
			if (ret)
				return bad(kw, argv[0], ret, NULL);
			put(n, IFLA_DARD_ELEPHANT_BYTES, &v, sizeof(v));
		} else if (!strcmp(kw, "elephant-dscp")) {
			if (!strcmp(argv[0], "inherit")) {
				dscp = DARD_DSCP_INHERIT;
			} else {
				ret = dard_parse_u32(argv[0], 0, 63, &dscp);
				if (ret)
					return bad(kw, argv[0], ret,
						   "0-63 or inherit");
			}
			u8 = dscp;
			put(n, IFLA_DARD_ELEPHANT_DSCP, &u8, 1);
		} else {
			fprintf(stderr, "dard: unknown option `%s'\n", kw);
			usage(stderr);
			return -1;
		}
	}
	return 0;
}

static void show_uint(FILE *f, const char *name, uint32_t v)
{
	if (print_uint_name_value)
		print_uint_name_value(name, v);
	else
		fprintf(f, "%s %u", name, v);
	space(f);
}

static void show_u64(FILE *f, const char *name, uint64_t v)
{
	char fmt[64];

	snprintf(fmt, sizeof(fmt), "%s %%llu", name);
	if (print_color_u64)
		print_color_u64(IP_PRINT_ANY, IP_COLOR_NONE, name, fmt, v);
	else
		fprintf(f, fmt, (unsigned long long)v);
	space(f);
}

static void show_string(FILE *f, const char *name, const char *v)
{
	if (print_string_name_value)
		print_string_name_value(name, v);
	else
		fprintf(f, "%s %s", name, v);
	space(f);
}

/* An attribute of exactly len bytes, or NULL: the kernel's, but checked. */
static const void *get(struct rtattr *tb[], int type, size_t len)
{
	return tb[type] && RTA_PAYLOAD(tb[type]) == len ? RTA_DATA(tb[type])
							: NULL;
}

static void print_opt(struct ip_link_util *lu, FILE *f, struct rtattr *tb[])
{
	static const struct {
		int type;
		const char *name;
	} counts[] = {
		{IFLA_DARD_FLOWS, "flows"},
		{IFLA_DARD_FLOWS_MAX, "flows_max"},
		{IFLA_DARD_DESTS, "dests"},
		{IFLA_DARD_ALIASES, "aliases"},
	};
	char addr[INET_ADDRSTRLEN], num[8];
	const uint64_t *u64;
	const uint32_t *u32;
	const uint8_t *u8;
	unsigned i;

	if (!tb)
		return;
	u32 = get(tb, IFLA_DARD_ID, 4);
	if (u32)
		show_string(f, "id",
			    inet_ntop(AF_INET, u32, addr, sizeof(addr)));
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		u32 = get(tb, counts[i].type, 4);
		if (u32)
			show_uint(f, counts[i].name, *u32);
	}
	u64 = get(tb, IFLA_DARD_ELEPHANT_AGE_NS, 8);
	if (u64)
		show_u64(f, "elephant_age_ns", *u64);
	u64 = get(tb, IFLA_DARD_ELEPHANT_BYTES, 8);
	if (u64)
		show_u64(f, "elephant_bytes", *u64);
	u8 = get(tb, IFLA_DARD_ELEPHANT_DSCP, 1);
	if (u8) {
		snprintf(num, sizeof(num), "%u", *u8);
		show_string(f, "elephant_dscp",
			    *u8 == DARD_DSCP_INHERIT ? "inherit" : num);
	}
}

static void print_help(struct ip_link_util *lu, int argc, char **argv, FILE *f)
{
	usage(f);
}

struct ip_link_util dard_link_util = {
	.id = DARD_LINK_KIND,
	.maxattr = IFLA_DARD_MAX,
	.parse_opt = parse_opt,
	.print_opt = print_opt,
	.print_help = print_help,
};
