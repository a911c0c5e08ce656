/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-exp's options, one parser per command: each returns
 * DARD_OPTS_RUN (stdopts.h) with its struct filled, or the exit status
 * (0 after --help or --version, 2 for bad usage) with what to say, if
 * getopt has not, in err (DARD_ERR_MAX). usage prints the whole help.
 */
#ifndef _DARD_EXP_OPTS_H
#define _DARD_EXP_OPTS_H

#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

/* Where the testbeds keep their state, as scripts/testbed's. */
#define EXP_TESTBED_DIR "/run/dard/testbed"

struct exp_sample_args {
	const char *prefix, *out;
	const char *state; /* --state, $DARD_TESTBED_DIR or the default */
	double interval;   /* s */
};

struct exp_report_args {
	const char *dir;
	const char *json; /* NULL: DIR/summary.json */
};

/* send: the addresses parsed (numeric only), the port in them. */
struct exp_send_args {
	const char *to; /* as given, for the report */
	struct sockaddr_storage dst, src;
	socklen_t dst_len, src_len; /* src_len 0: no --from or --cport */
	unsigned port, cport;	    /* cport 0: the kernel's choice */
	uint64_t bytes;
	double interval, timeout; /* s */
	const char *congestion;	  /* NULL: the system's default */
};

struct exp_recv_args {
	const char *bind;
	struct sockaddr_storage addr;
	socklen_t addr_len;
	unsigned port;
	int once, daemon;
	double timeout; /* s */
};

int exp_sample_opts(int argc, char **argv, struct exp_sample_args *a,
		    void (*usage)(FILE *), char *err);
int exp_report_opts(int argc, char **argv, struct exp_report_args *a,
		    void (*usage)(FILE *), char *err);
int exp_send_opts(int argc, char **argv, struct exp_send_args *a,
		  void (*usage)(FILE *), char *err);
int exp_recv_opts(int argc, char **argv, struct exp_recv_args *a,
		  void (*usage)(FILE *), char *err);

/* The commands' descriptions and options, for the program's --help. */
void exp_opts_help(FILE *f);

#endif /* _DARD_EXP_OPTS_H */
