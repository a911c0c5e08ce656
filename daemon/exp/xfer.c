// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-exp send and recv's pure parts (xfer.h): addresses, the record of
 * intervals and its JSON. The JSON keeps iperf3 -J's names and places,
 * so that what reads iperf3's reports (scripts/experiment, dard-exp
 * report's flows.c) reads these, but its times mean what the model's
 * do: the transfer ends when the receiver has every byte.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "buf.h"
#include "xfer.h"

int exp_xfer_addr(const char *s, unsigned port, struct sockaddr_storage *ss,
		  socklen_t *len)
{
	struct sockaddr_in *v4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)ss;

	if (port > 65535)
		return -EINVAL;
	memset(ss, 0, sizeof(*ss));
	if (inet_pton(AF_INET, s, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons(port);
		*len = sizeof(*v4);
		return 0;
	}
	if (inet_pton(AF_INET6, s, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(port);
		*len = sizeof(*v6);
		return 0;
	}
	return -EINVAL;
}

void exp_xfer_addr_str(const struct sockaddr *sa, char *out, size_t n)
{
	const struct sockaddr_in *v4 = (const struct sockaddr_in *)sa;
	const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)sa;
	char a[INET6_ADDRSTRLEN];

	if (sa->sa_family == AF_INET) {
		inet_ntop(AF_INET, &v4->sin_addr, a, sizeof(a));
		snprintf(out, n, "%s:%u", a, ntohs(v4->sin_port));
	} else if (sa->sa_family == AF_INET6) {
		inet_ntop(AF_INET6, &v6->sin6_addr, a, sizeof(a));
		snprintf(out, n, "[%s]:%u", a, ntohs(v6->sin6_port));
	} else {
		snprintf(out, n, "(family %u)", sa->sa_family);
	}
}

int exp_xfer_mark(struct exp_xfer *x, double t, uint64_t acked)
{
	struct exp_xfer_iv *iv;
	double start = x->niv ? x->iv[x->niv - 1].end : 0;
	uint64_t now = acked < x->bytes ? acked : x->bytes;
	size_t cap;

	if (now < x->acked)
		now = x->acked;
	if (x->niv && t <= start) {
		x->iv[x->niv - 1].bytes += now - x->acked;
		x->acked = now;
		return 0;
	}
	if (x->niv == x->cap) {
		cap = x->cap ? 2 * x->cap : 64;
		iv = realloc(x->iv, cap * sizeof(*iv));
		if (!iv)
			return -ENOMEM;
		x->iv = iv;
		x->cap = cap;
	}
	x->iv[x->niv++] = (struct exp_xfer_iv){.start = start,
					       .end = t > start ? t : start,
					       .bytes = now - x->acked};
	x->acked = now;
	return 0;
}

void exp_xfer_free(struct exp_xfer *x)
{
	free(x->iv);
	x->iv = NULL;
	x->niv = x->cap = 0;
}

/* s as a JSON string: quoted, with what JSON must escape escaped. */
static void jstr(struct dard_buf *b, const char *s)
{
	const unsigned char *p;

	dard_buf_printf(b, "\"");
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			dard_buf_printf(b, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			dard_buf_printf(b, "\\u%04x", *p);
		else
			dard_buf_printf(b, "%c", *p);
	}
	dard_buf_printf(b, "\"");
}

/*
 * An iperf3 "sum" on one line, left open for the caller to add to and
 * close: seconds to the microsecond, the rate over them (0 over no
 * time).
 */
static void jsum(struct dard_buf *b, double start, double end, uint64_t bytes)
{
	double s = end - start;

	dard_buf_printf(b,
			"{\"start\": %.6f, \"end\": %.6f, \"seconds\": %.6f, "
			"\"bytes\": %llu, \"bits_per_second\": %.3f",
			start, end, s, (unsigned long long)bytes,
			s > 0 ? bytes * 8.0 / s : 0);
}

static void jstart(struct dard_buf *b, const struct exp_xfer *x)
{
	dard_buf_printf(b,
			"\t\"start\": {\n\t\t\"connecting_to\": {\"host\": ");
	jstr(b, x->host ? x->host : "");
	dard_buf_printf(b,
			", \"port\": %u},\n"
			"\t\t\"timestamp\": {\"timesecs\": %lld},\n"
			"\t\t\"test_start\": {\"protocol\": \"TCP\", "
			"\"num_streams\": 1, \"bytes\": %llu}\n\t},\n",
			x->port, (long long)x->timesecs,
			(unsigned long long)x->bytes);
}

static void jintervals(struct dard_buf *b, const struct exp_xfer *x)
{
	size_t i;

	dard_buf_printf(b, "\t\"intervals\": [");
	for (i = 0; i < x->niv; i++) {
		dard_buf_printf(b, "%s\n\t\t{\"sum\": ", i ? "," : "");
		jsum(b, x->iv[i].start, x->iv[i].end, x->iv[i].bytes);
		dard_buf_printf(b, "}}");
	}
	dard_buf_printf(b, "%s],\n", x->niv ? "\n\t" : "");
}

static void jend(struct dard_buf *b, const struct exp_xfer *x)
{
	dard_buf_printf(b, "\t\"end\": {\n\t\t\"sum_sent\": ");
	jsum(b, 0, x->seconds, x->written);
	dard_buf_printf(b, ", \"retransmits\": %llu},\n\t\t\"sum_received\": ",
			(unsigned long long)x->retransmits);
	jsum(b, 0, x->seconds, x->have_count ? x->count : 0);
	dard_buf_printf(b, "}");
	if (x->congestion[0]) {
		dard_buf_printf(b, ",\n\t\t\"sender_tcp_congestion\": ");
		jstr(b, x->congestion);
	}
	dard_buf_printf(b, "\n\t}");
}

char *exp_xfer_json(const struct exp_xfer *x)
{
	struct dard_buf b = {0};

	dard_buf_printf(&b, "{\n");
	jstart(&b, x);
	jintervals(&b, x);
	jend(&b, x);
	if (x->error && x->error[0]) {
		dard_buf_printf(&b, ",\n\t\"error\": ");
		jstr(&b, x->error);
	}
	dard_buf_printf(&b, "\n}\n");
	if (b.oom) {
		dard_buf_free(&b);
		return NULL;
	}
	return b.s;
}
