// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-exp send and recv's pure parts: the receiver's count on the
 * wire, numeric addresses, the record of intervals (a FIN's byte left
 * out, never backwards, a final mark on a tick kept), the JSON in
 * iperf3 -J's shape read back through json-c, and both commands'
 * options (defaults, ranges, addresses, refusals with their messages).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <getopt.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <cmocka.h>
#include <json-c/json.h>

#include "csv.h"
#include "opts.h"
#include "stdopts.h"
#include "xfer.h"

static void test_count(void **state)
{
	uint8_t b[EXP_XFER_COUNT_LEN + 1] = {0};
	const uint8_t want[] = {1, 2, 3, 4, 5, 6, 7, 8, 0xee};

	(void)state;
	b[8] = 0xee;
	exp_xfer_count_put(b, 0x0102030405060708ULL);
	assert_memory_equal(b, want, sizeof(want));
	assert_true(exp_xfer_count_get(b) == 0x0102030405060708ULL);
	/* 2^40, the most send sends: its fifth byte from the end. */
	exp_xfer_count_put(b, EXP_XFER_BYTES_MAX);
	assert_memory_equal(b, ((const uint8_t[]){0, 0, 1, 0, 0, 0, 0, 0}), 8);
	exp_xfer_count_put(b, UINT64_MAX);
	assert_true(exp_xfer_count_get(b) == UINT64_MAX);
	exp_xfer_count_put(b, 0);
	assert_true(exp_xfer_count_get(b) == 0);
}

static void test_addr(void **state)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char s[EXP_XFER_ADDR_STR];

	(void)state;
	assert_int_equal(exp_xfer_addr("10.9.0.2", 5201, &ss, &len), 0);
	assert_int_equal(ss.ss_family, AF_INET);
	assert_int_equal(len, sizeof(struct sockaddr_in));
	assert_int_equal(ntohs(((struct sockaddr_in *)&ss)->sin_port), 5201);
	exp_xfer_addr_str((struct sockaddr *)&ss, s, sizeof(s));
	assert_string_equal(s, "10.9.0.2:5201");
	assert_int_equal(exp_xfer_addr("fd00::1", 1, &ss, &len), 0);
	assert_int_equal(ss.ss_family, AF_INET6);
	assert_int_equal(len, sizeof(struct sockaddr_in6));
	exp_xfer_addr_str((struct sockaddr *)&ss, s, sizeof(s));
	assert_string_equal(s, "[fd00::1]:1");
	/* Numbers only: nothing to resolve. */
	assert_int_equal(exp_xfer_addr("localhost", 1, &ss, &len), -EINVAL);
	assert_int_equal(exp_xfer_addr("10.9.0", 1, &ss, &len), -EINVAL);
	assert_int_equal(exp_xfer_addr("10.9.0.2:80", 1, &ss, &len), -EINVAL);
	assert_int_equal(exp_xfer_addr("", 1, &ss, &len), -EINVAL);
	assert_int_equal(exp_xfer_addr("10.9.0.2", 65536, &ss, &len), -EINVAL);
}

static void test_mark(void **state)
{
	struct exp_xfer x = {.bytes = 1000};
	size_t i;

	(void)state;
	assert_int_equal(exp_xfer_mark(&x, 1.0, 300), 0);
	/* A count read back lower (it never is) adds nothing. */
	assert_int_equal(exp_xfer_mark(&x, 2.0, 250), 0);
	/* The FIN's sequence number is no data: 1001 counts 1000. */
	assert_int_equal(exp_xfer_mark(&x, 2.5, 1001), 0);
	assert_int_equal(x.niv, 3);
	assert_true(x.iv[0].start == 0 && x.iv[0].end == 1.0);
	assert_true(x.iv[0].bytes == 300);
	assert_true(x.iv[1].start == 1.0 && x.iv[1].end == 2.0);
	assert_true(x.iv[1].bytes == 0);
	assert_true(x.iv[2].start == 2.0 && x.iv[2].end == 2.5);
	assert_true(x.iv[2].bytes == 700);
	assert_true(x.acked == 1000);
	exp_xfer_free(&x);

	/* A final mark on the last tick's time joins that interval. */
	x = (struct exp_xfer){.bytes = 1000};
	assert_int_equal(exp_xfer_mark(&x, 1.0, 400), 0);
	assert_int_equal(exp_xfer_mark(&x, 1.0, 1000), 0);
	assert_int_equal(x.niv, 1);
	assert_true(x.iv[0].bytes == 1000);
	exp_xfer_free(&x);

	/* Many ticks: the array grows, the bytes add up to N. */
	x = (struct exp_xfer){.bytes = 1000000};
	for (i = 1; i <= 1000; i++)
		assert_int_equal(exp_xfer_mark(&x, i * 0.1, i * 1000), 0);
	assert_int_equal(x.niv, 1000);
	for (i = 0; i < x.niv; i++)
		assert_true(x.iv[i].bytes == 1000);
	exp_xfer_free(&x);
	assert_null(x.iv);
}

static struct json_object *get(struct json_object *o, const char *path)
{
	char key[64];
	const char *dot;
	size_t n;

	while (o && *path) {
		dot = strchr(path, '.');
		n = dot ? (size_t)(dot - path) : strlen(path);
		snprintf(key, sizeof(key), "%.*s", (int)n, path);
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path += n + !!dot;
	}
	return o;
}

static double num(struct json_object *doc, const char *path)
{
	struct json_object *o = get(doc, path);

	assert_non_null(o);
	assert_true(json_object_is_type(o, json_type_double) ||
		    json_object_is_type(o, json_type_int));
	return json_object_get_double(o);
}

static const char *str(struct json_object *doc, const char *path)
{
	struct json_object *o = get(doc, path);

	assert_non_null(o);
	assert_true(json_object_is_type(o, json_type_string));
	return json_object_get_string(o);
}

static struct json_object *parse(const struct exp_xfer *x)
{
	char *text = exp_xfer_json(x);
	struct json_object *doc;

	assert_non_null(text);
	doc = json_tokener_parse(text);
	assert_non_null(doc);
	free(text);
	return doc;
}

static void test_json(void **state)
{
	struct exp_xfer x = {.host = "10.9.0.2",
			     .port = 5201,
			     .timesecs = 1700000000,
			     .bytes = 3000000,
			     .written = 3000000,
			     .count = 3000000,
			     .have_count = 1,
			     .seconds = 2.5,
			     .retransmits = 4,
			     .congestion = "cubic"};
	struct json_object *doc, *iv, *sum;

	(void)state;
	assert_int_equal(exp_xfer_mark(&x, 1.0, 1250001), 0);
	assert_int_equal(exp_xfer_mark(&x, 2.0, 2500001), 0);
	assert_int_equal(exp_xfer_mark(&x, 2.5, 3000002), 0);
	doc = parse(&x);
	assert_string_equal(str(doc, "start.connecting_to.host"), "10.9.0.2");
	assert_true(num(doc, "start.connecting_to.port") == 5201);
	assert_true(num(doc, "start.timestamp.timesecs") == 1700000000);
	assert_true(num(doc, "start.test_start.bytes") == 3000000);
	iv = get(doc, "intervals");
	assert_true(json_object_is_type(iv, json_type_array));
	assert_int_equal(json_object_array_length(iv), 3);
	sum = get(json_object_array_get_idx(iv, 0), "sum");
	assert_true(num(sum, "start") == 0 && num(sum, "end") == 1);
	assert_true(num(sum, "seconds") == 1);
	assert_true(num(sum, "bytes") == 1250001);
	assert_true(num(sum, "bits_per_second") == 10000008);
	sum = get(json_object_array_get_idx(iv, 2), "sum");
	assert_true(num(sum, "start") == 2 && num(sum, "end") == 2.5);
	assert_true(num(sum, "bytes") == 499999);
	assert_true(num(sum, "bits_per_second") == 7999984);
	assert_true(num(doc, "end.sum_sent.bytes") == 3000000);
	assert_true(num(doc, "end.sum_sent.seconds") == 2.5);
	assert_true(num(doc, "end.sum_sent.retransmits") == 4);
	assert_true(num(doc, "end.sum_received.bytes") == 3000000);
	assert_true(num(doc, "end.sum_received.seconds") == 2.5);
	assert_true(num(doc, "end.sum_received.bits_per_second") == 9600000);
	assert_string_equal(str(doc, "end.sender_tcp_congestion"), "cubic");
	assert_null(get(doc, "error"));
	json_object_put(doc);

	/* A failure: no count, an error JSON must quote. */
	x.have_count = 0;
	x.congestion[0] = '\0';
	x.error = "a \"quoted\" \\ and\na line\x01";
	doc = parse(&x);
	assert_true(num(doc, "end.sum_received.bytes") == 0);
	assert_true(num(doc, "end.sum_sent.bytes") == 3000000);
	assert_null(get(doc, "end.sender_tcp_congestion"));
	assert_string_equal(str(doc, "error"), x.error);
	json_object_put(doc);
	exp_xfer_free(&x);

	/* Refused before a connection: no interval, no time. */
	x = (struct exp_xfer){.host = "::1",
			      .port = 1,
			      .bytes = 5,
			      .error = "unable to connect"};
	doc = parse(&x);
	assert_int_equal(json_object_array_length(get(doc, "intervals")), 0);
	assert_true(num(doc, "end.sum_sent.bits_per_second") == 0);
	assert_string_equal(str(doc, "error"), "unable to connect");
	json_object_put(doc);
}

static void no_usage(FILE *f)
{
	(void)f;
}

/* argv from a NULL-terminated list, "dard-exp send" first. */
static int run(int (*fn)(int, char **, void *, void (*)(FILE *), char *),
	       void *a, char *err, const char **args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = (char *)"dard-exp cmd";
	while (*args)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	opterr = 0;
	return fn(argc, argv, a, no_usage, err);
}

static int send_fn(int argc, char **argv, void *a, void (*u)(FILE *), char *err)
{
	return exp_send_opts(argc, argv, a, u, err);
}

static int recv_fn(int argc, char **argv, void *a, void (*u)(FILE *), char *err)
{
	return exp_recv_opts(argc, argv, a, u, err);
}

#define SEND(a, err, ...)                                                      \
	run(send_fn, a, err, (const char *[]){__VA_ARGS__, NULL})
#define RECV(a, err, ...)                                                      \
	run(recv_fn, a, err, (const char *[]){__VA_ARGS__, NULL})

static void test_send_opts(void **state)
{
	struct exp_send_args a;
	char err[EXP_ERR_MAX];
	struct sockaddr_in *src = (struct sockaddr_in *)&a.src;

	(void)state;
	assert_int_equal(SEND(&a, err, "--to", "10.9.0.2", "--port", "5201",
			      "--bytes", "3000000"),
			 DARD_OPTS_RUN);
	assert_string_equal(a.to, "10.9.0.2");
	assert_int_equal(a.port, 5201);
	assert_true(a.bytes == 3000000);
	assert_true(a.interval == 1 && a.timeout == 600);
	assert_null(a.congestion);
	assert_int_equal(a.src_len, 0);
	assert_int_equal(a.dst.ss_family, AF_INET);

	assert_int_equal(SEND(&a, err, "--to", "10.9.0.2", "--port", "5201",
			      "--bytes", "1099511627776", "--from", "10.9.0.1",
			      "--cport", "30001", "--interval", "0.1",
			      "--congestion", "reno", "--timeout", "5"),
			 DARD_OPTS_RUN);
	assert_true(a.bytes == EXP_XFER_BYTES_MAX);
	assert_int_equal(a.src_len, sizeof(struct sockaddr_in));
	assert_int_equal(ntohs(src->sin_port), 30001);
	assert_int_equal(ntohl(src->sin_addr.s_addr), 0x0a090001);
	assert_true(a.interval == 0.1 && a.timeout == 5);
	assert_string_equal(a.congestion, "reno");

	/* --cport alone: from any address of --to's family. */
	assert_int_equal(SEND(&a, err, "--to", "fd00::2", "--port", "1",
			      "--bytes", "1", "--cport", "40000"),
			 DARD_OPTS_RUN);
	assert_int_equal(a.src.ss_family, AF_INET6);
	assert_int_equal(a.src_len, sizeof(struct sockaddr_in6));

	assert_int_equal(SEND(&a, err, "--to", "10.9.0.2", "--port", "1"), 2);
	assert_string_equal(err, "send: give --to, --port and --bytes "
				 "(try --help)");
	assert_int_equal(SEND(&a, err, "--to", "10.9.0.2", "--port", "1",
			      "--bytes", "1", "extra"),
			 2);
	assert_string_equal(err, "send: unexpected arguments (try --help)");
	assert_int_equal(SEND(&a, err, "--to", "10.9.0.2", "--port", "1",
			      "--bytes", "1099511627777"),
			 2);
	assert_string_equal(err, "Invalid --bytes `1099511627777': out of "
				 "range, expected bytes from 1 to 2^40");
	assert_int_equal(SEND(&a, err, "--bytes", "0"), 2);
	assert_int_equal(SEND(&a, err, "--bytes", "1M"), 2);
	assert_string_equal(err, "Invalid --bytes `1M': not a number, "
				 "expected bytes from 1 to 2^40");
	assert_int_equal(SEND(&a, err, "--port", "65536"), 2);
	assert_string_equal(err, "Invalid --port `65536': out of range, "
				 "expected a port from 1 to 65535");
	assert_int_equal(SEND(&a, err, "--cport", "0"), 2);
	assert_int_equal(SEND(&a, err, "--interval", "0.05"), 2);
	assert_string_equal(err, "Invalid --interval `0.05': out of range, "
				 "expected seconds from 0.1 to 60");
	assert_int_equal(SEND(&a, err, "--timeout", "nan"), 2);
	assert_string_equal(err, "Invalid --timeout `nan': not a number, "
				 "expected seconds from 0.1 to 86400");
	assert_int_equal(SEND(&a, err, "--congestion", "a-name-too-long-x"), 2);
	assert_string_equal(err, "Invalid --congestion `a-name-too-long-x': "
				 "expected an algorithm's name of 1 to 15 "
				 "characters");
	assert_int_equal(SEND(&a, err, "--congestion", ""), 2);
	assert_int_equal(
		SEND(&a, err, "--to", "h1", "--port", "1", "--bytes", "1"), 2);
	assert_string_equal(err, "Invalid --to `h1': expected an IPv4 or "
				 "IPv6 address");
	assert_int_equal(SEND(&a, err, "--to", "10.9.0.2", "--port", "1",
			      "--bytes", "1", "--from", "10.9.0"),
			 2);
	assert_string_equal(err, "Invalid --from `10.9.0': expected an IPv4 "
				 "or IPv6 address");
	assert_int_equal(SEND(&a, err, "--to", "10.9.0.2", "--port", "1",
			      "--bytes", "1", "--from", "::1"),
			 2);
	assert_string_equal(err, "send: --from ::1 and --to 10.9.0.2 are not "
				 "of one family");
	/* getopt's refusal is bad usage; --help is not. */
	assert_int_equal(SEND(&a, err, "--bogus"), 2);
	assert_int_equal(SEND(&a, err, "--to"), 2);
	assert_int_equal(SEND(&a, err, "--help"), 0);
}

static void test_recv_opts(void **state)
{
	struct exp_recv_args a;
	char err[EXP_ERR_MAX];

	(void)state;
	assert_int_equal(RECV(&a, err, "--bind", "0.0.0.0", "--port", "5201"),
			 DARD_OPTS_RUN);
	assert_string_equal(a.bind, "0.0.0.0");
	assert_int_equal(a.port, 5201);
	assert_int_equal(ntohs(((struct sockaddr_in *)&a.addr)->sin_port),
			 5201);
	assert_int_equal(a.addr_len, sizeof(struct sockaddr_in));
	assert_false(a.once || a.daemon);
	assert_true(a.timeout == 600);

	assert_int_equal(RECV(&a, err, "--bind", "::", "--port", "1", "--once",
			      "--daemon", "--timeout", "0.5"),
			 DARD_OPTS_RUN);
	assert_int_equal(a.addr.ss_family, AF_INET6);
	assert_true(a.once && a.daemon);
	assert_true(a.timeout == 0.5);

	assert_int_equal(RECV(&a, err, "--port", "1"), 2);
	assert_string_equal(err, "recv: give --bind and --port (try --help)");
	assert_int_equal(RECV(&a, err, "--bind", "::", "--port", "1", "x"), 2);
	assert_string_equal(err, "recv: unexpected arguments (try --help)");
	assert_int_equal(RECV(&a, err, "--bind", "any", "--port", "1"), 2);
	assert_string_equal(err, "Invalid --bind `any': expected an IPv4 or "
				 "IPv6 address");
	assert_int_equal(RECV(&a, err, "--port", "0"), 2);
	assert_string_equal(err, "Invalid --port `0': out of range, expected "
				 "a port from 1 to 65535");
	assert_int_equal(RECV(&a, err, "--timeout", "0.01"), 2);
	assert_int_equal(RECV(&a, err, "--timeout", "86401"), 2);
	assert_int_equal(RECV(&a, err, "--once=1"), 2);
	assert_int_equal(RECV(&a, err, "--help"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_addr),
		cmocka_unit_test(test_mark),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_send_opts),
		cmocka_unit_test(test_recv_opts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
