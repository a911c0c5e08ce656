/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* libbpf's messages, filtered by level for every program. */
#ifndef _DARD_BPFLOG_H
#define _DARD_BPFLOG_H

/*
 * Sends libbpf's warnings and notes, the verifier's rejections among
 * them, to dard_log() (log.h) always, at DARD_LOG_WARN and _INFO, and its
 * debug messages at DARD_LOG_DEBUG only when verbose (LBB bootstrap.c).
 * Call again to change verbose.
 */
void dard_bpf_log(int verbose);

#endif /* _DARD_BPFLOG_H */
