// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for dard-exp sample's walk of rtnetlink dumps
 * (daemon/exp/nlstats.c, on libdard's dard_nl_walk): what one recv()
 * hands it, a datagram of the link dump (IFLA_STATS64) or of the qdisc
 * dump (a root qdisc's TCA_STATS2 queue statistics, or TCA_STATS).
 * Beyond not crashing: the walk ends on an errno, 0 or more to come;
 * an interface is kept once, by its index, a link with its name, a
 * name always terminated and never longer than an interface's.
 */
#include <net/if.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nlstats.h"

/* The dump's sequence number; the seeds carry it. */
enum { SEQ = 7 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* recv() fills an aligned buffer; libFuzzer's data is not. */
	static uint32_t in[EXP_NL_BUF / 4];
	struct exp_ifstats s = {0};
	size_t i, j;
	int ret;

	if (size > sizeof(in))
		return 0;
	memcpy(in, data, size);
	ret = exp_nl_walk(in, size, SEQ, &s);
	if (ret > 1 || ret < -4095)
		abort();
	for (i = 0; i < s.n; i++) {
		const struct exp_ifstat *v = &s.v[i];

		if (!memchr(v->name, 0, IF_NAMESIZE) ||
		    (v->have_link && !v->name[0]) ||
		    (!v->have_link && !v->have_qdisc))
			abort();
		for (j = 0; j < i; j++)
			if (s.v[j].ifindex == v->ifindex)
				abort();
	}
	exp_ifstats_free(&s);
	return 0;
}
