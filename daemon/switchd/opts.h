/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* dard-switchd's command line. */
#ifndef _DARD_SWITCHD_OPTS_H
#define _DARD_SWITCHD_OPTS_H

#include <stdint.h>
#include <stdio.h>
#include <netinet/in.h>

struct switchd_opts {
	const char *config;    /* NULL: $DARD_CONFIG or the default */
	const char *key;       /* NULL: $DARD_KEY or the default */
	const char *sw;	       /* the switch's name in the file */
	struct in_addr listen; /* if has_listen, else the management one */
	int has_listen;
	uint32_t port;		/* UDP */
	uint64_t window_ns;	/* count elephants seen this recently */
	uint32_t dscp;		/* the hosts' elephant mark */
	double min_share;	/* a counted flow's bytes over a window, as
				 * a share of its port's; 0: any */
	const char *ifname_fmt; /* port N's interface: one %u */
	int level;		/* enum dard_log_level */
	uint64_t reconcile_ns;	/* check the tables this often */
	int no_tables;		/* leave forwarding alone */
	uint64_t probe_ns;	/* echo each switch peer this often; 0: not */
};

/*
 * Parses argv into o (defaults first): DARD_OPTS_RUN (stdopts.h) to run,
 * else the exit status, with what to say (if getopt has not) in err
 * (DARD_ERR_MAX).
 */
int switchd_opts_parse(int argc, char **argv, struct switchd_opts *o,
		       char *err);
void switchd_usage(FILE *f);

#endif /* _DARD_SWITCHD_OPTS_H */
