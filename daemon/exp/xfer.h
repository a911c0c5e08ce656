/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * dard-exp send and recv's shared, pure parts: the receiver's count on
 * the wire, numeric addresses, and the sender's record of a transfer
 * with its JSON in the shape of iperf3 -J (the subset the project
 * reads). send.c fills the record from its socket, the tests from
 * numbers; nothing here does I/O.
 */
#ifndef _DARD_EXP_XFER_H
#define _DARD_EXP_XFER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "be.h"

/* The receiver's count of the bytes it read: 8 bytes, big-endian. */
enum { EXP_XFER_COUNT_LEN = 8 };
/* The most one transfer may carry: 1 TiB. */
#define EXP_XFER_BYTES_MAX (1ULL << 40)

static inline void exp_xfer_count_put(uint8_t *p, uint64_t count)
{
	dard_put64(p, count);
}

static inline uint64_t exp_xfer_count_get(const uint8_t *p)
{
	return dard_get64(p);
}

/*
 * A numeric IPv4 or IPv6 address (no names: nothing to resolve, nothing
 * to wait for) and a port into *ss: 0 or -EINVAL.
 */
int exp_xfer_addr(const char *s, unsigned port, struct sockaddr_storage *ss,
		  socklen_t *len);
/* "A.B.C.D:PORT" or "[V6]:PORT", for messages; out has n bytes. */
void exp_xfer_addr_str(const struct sockaddr *sa, char *out, size_t n);
enum { EXP_XFER_ADDR_STR = 64 };

/* One interval: the bytes the receiver acknowledged in [start, end). */
struct exp_xfer_iv {
	double start, end; /* s since the connect() call */
	uint64_t bytes;
};

/* One transfer as the sender saw it. */
struct exp_xfer {
	const char *host; /* --to, as given */
	unsigned port;
	int64_t timesecs; /* epoch seconds at the connect() call */
	uint64_t bytes;	  /* N, what was asked for */
	uint64_t written; /* into the socket */
	uint64_t count;	  /* the receiver's count, when have_count */
	int have_count;
	double seconds;	      /* connect() to the count, or to the failure */
	uint64_t retransmits; /* TCP_INFO's tcpi_total_retrans */
	char congestion[16];  /* TCP_CA_NAME_MAX; empty: not known */
	const char *error;    /* NULL: none */
	struct exp_xfer_iv *iv;
	size_t niv, cap;
	uint64_t acked; /* the data bytes acknowledged at the last mark */
};

/*
 * Closes the interval from the last mark (or 0) to t, acked being the
 * data bytes acknowledged so far: counted up to x->bytes (what a FIN
 * adds is no data) and never backwards. A mark at or before the last
 * one's end adds its bytes to the last interval, so that a final mark
 * on a tick loses nothing. 0, or -ENOMEM.
 */
int exp_xfer_mark(struct exp_xfer *x, double t, uint64_t acked);

/*
 * The JSON document, NUL-terminated, for the caller to free; NULL when
 * out of memory. "error" is there only when x->error is not empty.
 */
char *exp_xfer_json(const struct exp_xfer *x);

void exp_xfer_free(struct exp_xfer *x);

#endif /* _DARD_EXP_XFER_H */
