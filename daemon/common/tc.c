// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Attaching to and detaching from an interface's TC hooks. */
#include <errno.h>

#include "tc.h"

int dard_tc_hook_make(struct dard_tc_hook *tc, unsigned ifindex,
		      uint32_t handle, uint32_t priority)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex,
		    .attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS);
	int ret;

	tc->ifindex = ifindex;
	tc->handle = handle;
	tc->priority = priority;
	tc->hook_created = tc->attached = 0;
	/* Someone else's clsact (or our own earlier one) is used as it is. */
	ret = bpf_tc_hook_create(&hook);
	if (ret && ret != -EEXIST)
		return ret;
	tc->hook_created = !ret;
	return 0;
}

int dard_tc_attach(struct dard_tc_hook *tc, enum bpf_tc_attach_point point,
		   int prog_fd, int replace)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = tc->ifindex,
		    .attach_point = point);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = tc->handle,
		    .priority = tc->priority, .prog_fd = prog_fd,
		    .flags = replace ? BPF_TC_F_REPLACE : 0);
	int ret = bpf_tc_attach(&hook, &opts);

	if (!ret)
		tc->attached |= point;
	return ret;
}

void dard_tc_release(struct dard_tc_hook *tc)
{
	static const enum bpf_tc_attach_point points[] = {BPF_TC_EGRESS,
							  BPF_TC_INGRESS};
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = tc->ifindex);
	unsigned i;

	if (tc->hook_created) {
		hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
		bpf_tc_hook_destroy(&hook);
	} else {
		for (i = 0; i < sizeof(points) / sizeof(points[0]); i++) {
			LIBBPF_OPTS(bpf_tc_opts, opts, .handle = tc->handle,
				    .priority = tc->priority);

			if (!(tc->attached & points[i]))
				continue;
			hook.attach_point = points[i];
			bpf_tc_detach(&hook, &opts);
		}
	}
	tc->hook_created = tc->attached = 0;
}
