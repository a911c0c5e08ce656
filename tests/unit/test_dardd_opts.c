// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dardd's command line: defaults, every number through num.h (finite,
 * in range, no trailing text), delta as Mbit/s or a percentage.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <getopt.h>
#include <unistd.h>
#include <cmocka.h>

#include "dardd_priv.h"
#include "dp.h"
#include "log.h"
#include "proto.h"
#include "stdopts.h"

/* Parses argv (NULL-terminated); returns what dardd_opts_parse does. */
static int parse(struct dardd_opts *o, char *err, const char **args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = (char *)"dardd";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	optind = 0; /* getopt starts over */
	opterr = 0; /* and says nothing of --bogus */
	return dardd_opts_parse(o, argc, argv, err);
}

#define PARSE(o, err, ...) parse(o, err, (const char *[]){__VA_ARGS__, NULL})

static void test_defaults(void **state)
{
	struct dardd_opts o;
	char err[DARD_ERR_MAX];

	(void)state;
	assert_int_equal(PARSE(&o, err, "e1_1"), DARD_OPTS_RUN);
	assert_string_equal(o.host, "e1_1");
	assert_string_equal(o.ifname, "eth0");
	assert_null(o.config);
	assert_true(o.query_ns == 1000000000ULL);
	/* The fast mode's (sched.h). */
	assert_int_equal(o.mode, DARD_SCHED_FAST);
	assert_true(o.schedule_ns == 1000000000ULL);
	assert_true(o.idle_ns == 10000000000ULL);
	assert_true(o.age_ns == 1000000000ULL);
	assert_true(o.max_age_ns == 3000000000ULL);
	assert_true(o.sweep_ns == 1000000000ULL);
	/* 1% of the paths' bandwidth: moves at any link rate. */
	assert_true(o.delta == 0.01);
	assert_int_equal(o.delta_is_frac, 1);
	assert_int_equal(o.switch_port, DARD_PROTO_PORT);
	assert_int_equal(o.log_level, DARD_LOG_INFO);
}

static void test_values(void **state)
{
	struct dardd_opts o;
	char err[DARD_ERR_MAX];

	(void)state;
	assert_int_equal(PARSE(&o, err, "-c", "/x.conf", "-i", "fab0",
			       "--query-interval", "0.1", "-S", "2", "--idle",
			       "2", "-p", "9000", "-v", "h"),
			 DARD_OPTS_RUN);
	assert_string_equal(o.config, "/x.conf");
	assert_string_equal(o.ifname, "fab0");
	assert_true(o.query_ns == 100000000ULL);
	assert_true(o.max_age_ns == 300000000ULL);
	assert_true(o.schedule_ns == 2000000000ULL);
	/* A quarter of the idle time, under a second. */
	assert_true(o.sweep_ns == 500000000ULL);
	assert_int_equal(o.switch_port, 9000);
	assert_int_equal(o.log_level, DARD_LOG_DEBUG);
	/* delta: the last one wins, whichever kind. */
	assert_int_equal(PARSE(&o, err, "-d", "25%", "h"), DARD_OPTS_RUN);
	assert_int_equal(o.delta_is_frac, 1);
	assert_true(o.delta == 0.25);
	assert_int_equal(PARSE(&o, err, "-d", "25%", "-d", "2.5", "h"),
			 DARD_OPTS_RUN);
	assert_int_equal(o.delta_is_frac, 0);
	assert_true(o.delta == 2.5);
	assert_int_equal(PARSE(&o, err, "-d", "0", "h"), DARD_OPTS_RUN);
	assert_true(o.delta == 0);
	assert_int_equal(PARSE(&o, err, "-d", "100%", "h"), DARD_OPTS_RUN);
	assert_int_equal(o.delta_is_frac, 1);
	assert_true(o.delta == 1);
	/* The paper's mode: its age and rounds, the same queries. */
	assert_int_equal(PARSE(&o, err, "--sched-mode", "paper", "h"),
			 DARD_OPTS_RUN);
	assert_int_equal(o.mode, DARD_SCHED_PAPER);
	assert_true(o.schedule_ns == 5000000000ULL);
	assert_true(o.age_ns == 10000000000ULL);
	assert_true(o.query_ns == 1000000000ULL);
	/* The paper's absolute 10 Mbit/s. */
	assert_true(o.delta == 10);
	assert_int_equal(o.delta_is_frac, 0);
	/* An explicit value wins over the mode, before or after it. */
	assert_int_equal(
		PARSE(&o, err, "-S", "2", "-M", "paper", "-e", "3", "h"),
		DARD_OPTS_RUN);
	assert_true(o.schedule_ns == 2000000000ULL);
	assert_true(o.age_ns == 3000000000ULL);
	/* Queries and delta too; -d 0 is a delta given, not one unset. */
	assert_int_equal(
		PARSE(&o, err, "-Q", "0.5", "-d", "0", "-M", "paper", "h"),
		DARD_OPTS_RUN);
	assert_true(o.query_ns == 500000000ULL);
	assert_true(o.delta == 0);
	assert_int_equal(PARSE(&o, err, "-M", "paper", "-M", "fast", "h"),
			 DARD_OPTS_RUN);
	assert_int_equal(o.mode, DARD_SCHED_FAST);
	assert_true(o.schedule_ns == 1000000000ULL);
	/* Quiet monitors: the mode's, unless given; 0 is given. */
	assert_true(o.sched.quiet == 0.9 && o.sched.sleep == 3);
	assert_true(o.sched.hold == 8);
	assert_int_equal(PARSE(&o, err, "--quiet-at", "0", "--quiet-sleep",
			       "0.5", "-M", "fast", "h"),
			 DARD_OPTS_RUN);
	assert_true(o.sched.quiet == 0 && o.sched.sleep == 0.5);
	assert_int_equal(PARSE(&o, err, "-M", "paper", "h"), DARD_OPTS_RUN);
	assert_true(o.sched.quiet == 0 && o.sched.sleep == 0);
	assert_true(o.sched.hold == 0);
	assert_int_equal(
		PARSE(&o, err, "-M", "paper", "--quiet-at", "0.8", "h"),
		DARD_OPTS_RUN);
	assert_true(o.sched.quiet == 0.8 && o.sched.sleep == 0);
	/* Busy links: the mode's, unless given. */
	assert_true(o.sched.busy == 0);
	assert_int_equal(PARSE(&o, err, "h"), DARD_OPTS_RUN);
	assert_true(o.sched.busy == 0.9);
	assert_int_equal(
		PARSE(&o, err, "--busy-at", "0.75", "-M", "paper", "h"),
		DARD_OPTS_RUN);
	assert_true(o.sched.busy == 0.75 && o.sched.quiet == 0);
	assert_int_equal(PARSE(&o, err, "--busy-at", "0", "h"), DARD_OPTS_RUN);
	assert_true(o.sched.busy == 0 && o.sched.quiet == 0.9);
	/* The watch: every 20 s in the fast mode, none in the paper's. */
	assert_int_equal(PARSE(&o, err, "h"), DARD_OPTS_RUN);
	assert_true(o.sched.watch == 20);
	assert_int_equal(PARSE(&o, err, "-M", "paper", "h"), DARD_OPTS_RUN);
	assert_true(o.sched.watch == 0);
	assert_int_equal(PARSE(&o, err, "--watch-interval", "20", "h"),
			 DARD_OPTS_RUN);
	assert_true(o.sched.watch == 20);
	/* Queries slower than a third of the lease: the watch must go. */
	assert_int_equal(PARSE(&o, err, "-Q", "21", "h"), 2);
	assert_non_null(strstr(err, "lets the watch lapse"));
	assert_int_equal(
		PARSE(&o, err, "-Q", "21", "--watch-interval", "0", "h"),
		DARD_OPTS_RUN);
	assert_int_equal(PARSE(&o, err, "-Q", "21", "-M", "paper", "h"),
			 DARD_OPTS_RUN);
}

/*
 * Bad values: exit status 2, and dardd does not run; nothing is printed,
 * err names the option and the value for main to print.
 */
static void test_bad(void **state)
{
	static const char *bad[][3] = {
		{"-Q", "-1", "--query-interval"},
		{"-Q", "0", "--query-interval"},
		{"-Q", "nan", "--query-interval"},
		{"-Q", "inf", "--query-interval"},
		{"-S", "1e20", "--schedule-interval"},
		{"-I", "86401", "--idle"},
		{"-e", "1s", "--elephant-age"},
		{"-Q", "", "--query-interval"},
		{"-d", "5x", "--delta"},
		{"-d", "150%", "--delta"},
		{"-d", "inf", "--delta"},
		{"-d", "-1", "--delta"},
		{"-d", "%", "--delta"},
		{"-d", "1e300", "--delta"},
		{"-d", "10%%", "--delta"},
		{"-p", "0", "--switch-port"},
		{"-p", "65536", "--switch-port"},
		{"-p", "4294967297", "--switch-port"},
		{"-p", "-1", "--switch-port"},
		{"-p", "80x", "--switch-port"},
		{"-M", "Paper", "--sched-mode"},
		{"-M", "", "--sched-mode"},
		{"--sched-mode", "improved", "--sched-mode"},
		{"--quiet-at", "1.5", "--quiet-at"},
		{"--quiet-at", "-0.1", "--quiet-at"},
		{"--quiet-at", "nan", "--quiet-at"},
		{"--quiet-sleep", "inf", "--quiet-sleep"},
		{"--busy-at", "1.01", "--busy-at"},
		{"--busy-at", "-1", "--busy-at"},
		{"--busy-at", "nan", "--busy-at"},
		{"--quiet-sleep", "-1", "--quiet-sleep"},
		{"--quiet-sleep", "3s", "--quiet-sleep"},
		/* Past a third of the agents' 60 s lease on a watch. */
		{"--watch-interval", "20.5", "--watch-interval"},
		{"--watch-interval", "-1", "--watch-interval"},
	};
	struct dardd_opts o;
	char err[DARD_ERR_MAX], want[DARD_ERR_MAX];
	unsigned i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (PARSE(&o, err, bad[i][0], bad[i][1], "h") != 2)
			fail_msg("%s `%s' was taken", bad[i][0], bad[i][1]);
		snprintf(want, sizeof(want), "Invalid %s `%s': ", bad[i][2],
			 bad[i][1]);
		if (strncmp(err, want, strlen(want)))
			fail_msg("%s `%s': `%s'", bad[i][0], bad[i][1], err);
	}
	assert_int_equal(PARSE(&o, err, "-Q", "x", "h"), 2);
	assert_string_equal(
		err,
		"Invalid --query-interval `x': not a number, expected seconds from 0.001 to 86400");
	/* No host, two hosts. */
	assert_int_equal(parse(&o, err, (const char *[]){NULL}), 2);
	assert_non_null(strstr(err, "which HOST?"));
	assert_int_equal(PARSE(&o, err, "a", "b"), 2);
	assert_non_null(strstr(err, "one HOST only"));
}

/* What getopt refuses, and --help, print the usage: quiet here. */
static void test_usage(void **state)
{
	struct dardd_opts o;
	char err[DARD_ERR_MAX];
	int out = dup(1), fd2 = dup(2), null = open("/dev/null", O_WRONLY);
	int bogus, help, version;

	(void)state;
	assert_true(out >= 0 && fd2 >= 0 && null >= 0);
	dup2(null, 1);
	dup2(null, 2);
	bogus = PARSE(&o, err, "--bogus", "a");
	help = PARSE(&o, err, "--help");
	version = PARSE(&o, err, "-V");
	fflush(stdout);
	dup2(out, 1);
	dup2(fd2, 2);
	close(out);
	close(fd2);
	close(null);
	assert_int_equal(bogus, 2);
	assert_int_equal(help, 0);
	assert_int_equal(version, 0);
	/* -q, then -v: the last one wins. */
	assert_int_equal(PARSE(&o, err, "-v", "-q", "h"), DARD_OPTS_RUN);
	assert_int_equal(o.log_level, DARD_LOG_ERR);
}

/* --datapath and $DARD_DATAPATH: the option wins, a bad one is named. */
static void test_datapath(void **state)
{
	struct dardd_opts o;
	char err[DARD_ERR_MAX];

	(void)state;
	unsetenv("DARD_DATAPATH");
	assert_int_equal(PARSE(&o, err, "h"), DARD_OPTS_RUN);
	assert_int_equal(o.dp_kind, DARD_DP_AUTO);
	assert_int_equal(PARSE(&o, err, "--datapath", "kmod", "h"),
			 DARD_OPTS_RUN);
	assert_int_equal(o.dp_kind, DARD_DP_KMOD);
	assert_int_equal(PARSE(&o, err, "-D", "bpf", "h"), DARD_OPTS_RUN);
	assert_int_equal(o.dp_kind, DARD_DP_BPF);
	assert_int_equal(PARSE(&o, err, "-D", "ebpf", "h"), 2);
	assert_string_equal(
		err, "Invalid --datapath `ebpf': expected auto, bpf or kmod");
	setenv("DARD_DATAPATH", "kmod", 1);
	assert_int_equal(PARSE(&o, err, "h"), DARD_OPTS_RUN);
	assert_int_equal(o.dp_kind, DARD_DP_KMOD);
	assert_int_equal(PARSE(&o, err, "-D", "auto", "h"), DARD_OPTS_RUN);
	assert_int_equal(o.dp_kind, DARD_DP_AUTO);
	setenv("DARD_DATAPATH", "", 1);
	assert_int_equal(PARSE(&o, err, "h"), 2);
	assert_string_equal(
		err, "Invalid DARD_DATAPATH `': expected auto, bpf or kmod");
	unsetenv("DARD_DATAPATH");
}

/* --controller and $DARD_CONTROLLER, its timeout and report interval. */
static void test_controller(void **state)
{
	struct dardd_opts o;
	char err[DARD_ERR_MAX];

	(void)state;
	unsetenv("DARD_CONTROLLER");
	assert_int_equal(PARSE(&o, err, "h"), DARD_OPTS_RUN);
	assert_int_equal(o.controller, 0);
	assert_true(o.cp_timeout_ns == 3000000000ULL);
	assert_true(o.cp_report_ns == 1000000000ULL);
	assert_int_equal(PARSE(&o, err, "--controller", "10.100.0.99",
			       "--controller-timeout", "0.5",
			       "--controller-report", "0.25", "h"),
			 DARD_OPTS_RUN);
	assert_int_equal(o.controller, 0x0a640063);
	assert_true(o.cp_timeout_ns == 500000000ULL);
	assert_true(o.cp_report_ns == 250000000ULL);
	/* The environment, and the option over it; none or empty: none. */
	setenv("DARD_CONTROLLER", "10.1.2.3", 1);
	assert_int_equal(PARSE(&o, err, "h"), DARD_OPTS_RUN);
	assert_int_equal(o.controller, 0x0a010203);
	assert_int_equal(PARSE(&o, err, "--controller", "none", "h"),
			 DARD_OPTS_RUN);
	assert_int_equal(o.controller, 0);
	setenv("DARD_CONTROLLER", "", 1);
	assert_int_equal(PARSE(&o, err, "h"), DARD_OPTS_RUN);
	assert_int_equal(o.controller, 0);
	setenv("DARD_CONTROLLER", "ctl.example", 1);
	assert_int_equal(PARSE(&o, err, "h"), 2);
	assert_string_equal(
		err,
		"Invalid DARD_CONTROLLER `ctl.example': expected an IPv4 address or none");
	unsetenv("DARD_CONTROLLER");
	assert_int_equal(PARSE(&o, err, "--controller", "10.0.0.256", "h"), 2);
	assert_int_equal(PARSE(&o, err, "--controller", "0.0.0.0", "h"), 2);
	assert_int_equal(PARSE(&o, err, "--controller", "255.255.255.255", "h"),
			 2);
	assert_int_equal(PARSE(&o, err, "--controller-timeout", "0", "h"), 2);
	assert_string_equal(
		err,
		"Invalid --controller-timeout `0': out of range, expected seconds from 0.001 to 86400");
	assert_int_equal(PARSE(&o, err, "--controller-report", "x", "h"), 2);
}

/* The fixture's dardd is the one without options. */
static void test_defaults_shared(void **state)
{
	struct dardd_opts o, d;
	char err[DARD_ERR_MAX];

	(void)state;
	assert_int_equal(PARSE(&o, err, "h"), DARD_OPTS_RUN);
	dardd_opts_defaults(&d);
	assert_true(d.query_ns == o.query_ns && d.max_age_ns == o.max_age_ns);
	assert_true(d.sweep_ns == o.sweep_ns && d.idle_ns == o.idle_ns);
	assert_true(d.delta == o.delta && d.switch_port == o.switch_port);
	assert_null(d.host);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_usage),
		cmocka_unit_test(test_defaults_shared),
		cmocka_unit_test(test_datapath),
		cmocka_unit_test(test_controller),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
