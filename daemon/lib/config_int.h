/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * What config.c's parser shares with config_alias.c, which checks the
 * alias lines: the parser's state and its error report. Private to the
 * two; config.h is the interface.
 */
#ifndef _DARD_CONFIG_INT_H
#define _DARD_CONFIG_INT_H

#include <stddef.h>
#include <stdint.h>
#include <netinet/in.h>

#include "config.h"

enum { MAX_TOKENS = 4096, LINE_MAX_LEN = 65536 };

/*
 * An address of an alias line, checked once the plan exists. Twelve
 * bytes: a file may list millions. An IPv6 alias's addr is its index in
 * parser.addr6 until check_aliases() turns it into its IPv4 form.
 */
struct alias_entry {
	uint32_t host;
	uint32_t addr;
	unsigned line : 31;
	unsigned v6 : 1;
};

struct parser {
	struct dard_config *cfg;
	char *err;	    /* the caller's, DARD_ERR_MAX */
	unsigned *err_line; /* the caller's */
	unsigned line;
	char *tok[MAX_TOKENS];
	unsigned ntok;
	uint32_t capacity;
	int have_links;
	unsigned seen;	     /* single-valued keywords given, by bit */
	unsigned *node_line; /* declaring line per node */
	size_t node_line_cap;
	struct alias_entry *aliases;
	size_t naliases, aliases_cap;
	struct in6_addr *addr6; /* the IPv6 alias lines' addresses */
	size_t naddr6, addr6_cap;
	int converted; /* every alias entry's addr is IPv4 now */
};

/* The message into ps->err, the line into ps->err_line; returns ret. */
int cfg_perr(struct parser *ps, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "alias HOST ADDR...", and the check of every alias line once planned. */
int cfg_do_alias(struct parser *ps);
int cfg_check_aliases(struct parser *ps);

#endif /* _DARD_CONFIG_INT_H */
