/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Reading a whole file or socket into memory, with a bound on its size. */
#ifndef _DARD_READALL_H
#define _DARD_READALL_H

#include <stddef.h>
#include <stdint.h>

/*
 * Reads fd to its end into a new buffer *buf (NUL-terminated; the caller
 * frees it) of *len bytes. At most max bytes (below SIZE_MAX / 2): a
 * longer stream, /dev/zero say, is refused rather than read until memory
 * runs out. Returns 0, -EFBIG past max, -EINVAL for a max not below
 * SIZE_MAX / 2, -ENOMEM, or read's -errno; on
 * failure *buf and *len are untouched.
 */
int dard_read_all(int fd, size_t max, char **buf, size_t *len);

/*
 * dard_read_all, but with the stream's end due by `by' (CLOCK_MONOTONIC
 * ns, as dard_clock_ns reads it): -ETIMEDOUT past it, so that a peer
 * that stopped (SIGSTOP) or hung before its last byte is an error, not
 * a wait without end. Bytes already there are still read past it: a
 * reader descheduled past the deadline takes an answer that came in time.
 */
int dard_read_all_by(int fd, size_t max, uint64_t by, char **buf, size_t *len);

#endif /* _DARD_READALL_H */
