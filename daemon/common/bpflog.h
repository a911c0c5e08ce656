/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* libbpf's messages, filtered by level for every program. */
#ifndef _DARD_BPFLOG_H
#define _DARD_BPFLOG_H

/*
 * Sends libbpf's warnings and notes, the verifier's rejections among
 * them, to stderr always, and its debug messages only when verbose
 * (LBB bootstrap.c). Call again to change verbose.
 */
void dard_bpf_log(int verbose);

#endif /* _DARD_BPFLOG_H */
