/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Decisions both host datapaths make, written once: pure integer
 * functions that the BPF program, the kernel module and userspace (its
 * tests, the simulator, dardd's defaults) all include, so that one
 * definition holds everywhere and the unit tests test the kernel's.
 *
 * An elephant is a flow that has lived the elephant age and carried the
 * elephant payload: bytes of TCP or UDP data, headers left out. A flow
 * that carries only ACKs (a transfer's receiver) never becomes one,
 * whatever the thresholds say, so no switch counts it and no dardd
 * schedules it.
 */
#ifndef _UAPI_LINUX_DARD_POLICY_H
#define _UAPI_LINUX_DARD_POLICY_H

#include <linux/types.h>

/*
 * The default elephant payload as a share of the host link's capacity
 * over a second, in percent: Hedera's 10%. 12,500 bytes per Mbit/s:
 * 250 KB on a 20 Mbit/s link, 1.25 MB on 100 Mbit/s, 125 MB on
 * 10 Gbit/s.
 */
#define DARD_ELEPHANT_SHARE_PCT 10

static __inline__ __u64 dard_elephant_bytes_for(__u64 link_mbps)
{
	return link_mbps * (1000000 / 8 / 100) * DARD_ELEPHANT_SHARE_PCT;
}

/*
 * The payload of an IPv4 packet of tot_len bytes with an ip_hlen-byte
 * header and an l4_hlen-byte TCP or UDP header (0 for other protocols
 * and fragments, whose every byte past the IP header counts). A GSO
 * packet carries its headers once, so this is its segments' payload.
 */
static __inline__ __u32 dard_payload(__u32 tot_len, __u32 ip_hlen,
				     __u32 l4_hlen)
{
	return tot_len > ip_hlen + l4_hlen ? tot_len - ip_hlen - l4_hlen : 0;
}

/*
 * Whether a flow age_ns old that has carried payload bytes is an
 * elephant by min_age_ns and min_payload. At least one byte of payload
 * always: with min_payload 0, any flow of data of the age.
 */
static __inline__ int dard_is_elephant(__u64 age_ns, __u64 payload,
				       __u64 min_age_ns, __u64 min_payload)
{
	return age_ns >= min_age_ns && payload > 0 && payload >= min_payload;
}

#endif /* _UAPI_LINUX_DARD_POLICY_H */
