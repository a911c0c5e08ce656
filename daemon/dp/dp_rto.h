/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* The RTO repair's cgroup attachment, for dp_bpf.c (dp_rto.c). */
#ifndef _DARD_DP_RTO_H
#define _DARD_DP_RTO_H

/* The pin, beside the maps, of the link attaching dard_sockops. */
#define DARD_RTO_LINK "dard_sockops"

struct bpf_program;
/*
 * Attaches prog to the cgroup v2 directory cgroup (NULL: the root of the
 * first cgroup2 mount; none mounted: nothing, and 0) and pins the link
 * in dir. Returns 0 or -errno.
 */
int dard_dp_rto_attach(struct bpf_program *prog, const char *cgroup,
		       const char *dir);
/* Unpins the link, which detaches the program; none is no error. */
int dard_dp_rto_detach(const char *dir);

#endif /* _DARD_DP_RTO_H */
