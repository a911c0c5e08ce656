// SPDX-License-Identifier: GPL-2.0 OR MIT
/* Loading, attaching and reading bpf/dard_switch.bpf.c. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "counter.h"
#include "dard_switch.skel.h"
#include "err.h"
#include "topo.h"
#include "tc.h"

/* Its own handle and priority: a port may carry other filters. */
enum { TC_HANDLE = 0xda5d, TC_PRIORITY = 1 };

struct sw_counter {
	struct dard_switch *skel;
	struct dard_tc_hook *hook; /* one per port */
	unsigned nhooks;
};

#define SW_STAT_NAME(id, name) [DARD_SW_STAT_##id] = name,
static const char *const sw_stat_names[] = {DARD_SW_STAT_MAPPER(SW_STAT_NAME)};
#undef SW_STAT_NAME
_Static_assert(sizeof(sw_stat_names) / sizeof(sw_stat_names[0]) ==
		       __DARD_SW_STAT_MAX,
	       "a name for every enum dard_sw_stat");

const char *sw_stat_name(unsigned stat)
{
	return stat < __DARD_SW_STAT_MAX ? sw_stat_names[stat] : "?";
}

void sw_counter_detach(struct sw_counter *c)
{
	unsigned i;

	if (!c)
		return;
	for (i = 0; i < c->nhooks; i++)
		dard_tc_release(&c->hook[i]);
	dard_switch__destroy(c->skel);
	free(c->hook);
	free(c);
}

static int attach_ports(struct sw_counter *c, const struct sw_port *port,
			unsigned nports, char *err)
{
	int fd = bpf_program__fd(c->skel->progs.dard_sw_egress), ret;
	unsigned i;

	for (i = 0; i < nports; i++) {
		struct dard_tc_hook *h = &c->hook[i];

		ret = dard_tc_hook_make(h, port[i].ifindex, TC_HANDLE,
					TC_PRIORITY);
		if (ret)
			return dard_fail(
				err, ret,
				"Unable to create the clsact hook on %s: %s",
				port[i].ifname, strerror(-ret));
		c->nhooks++;
		/* A crashed agent's filter: replaced, not in the way. */
		ret = dard_tc_attach(h, BPF_TC_EGRESS, fd, 1);
		if (ret)
			return dard_fail(err, ret,
					 "Unable to attach to %s egress: %s",
					 port[i].ifname, strerror(-ret));
	}
	return 0;
}

int sw_counter_attach(struct sw_counter **out, struct sw_port *port,
		      unsigned nports, const struct sw_count_opts *o, char *err)
{
	struct sw_counter *c = calloc(1, sizeof(*c));
	uint64_t cap = 0;
	unsigned i;
	int ret;

	if (!c || !(c->hook = calloc(nports ? nports : 1, sizeof(*c->hook)))) {
		ret = dard_fail(err, -ENOMEM, "out of memory");
		goto err;
	}
	c->skel = dard_switch__open();
	if (!c->skel) {
		ret = dard_fail(err, -errno,
				"Unable to open the BPF object: %s",
				strerror(errno));
		goto err;
	}
	/* The program adds a flow's bytes up to the largest threshold. */
	for (i = 0; i < nports; i++) {
		port[i].min_bytes =
			sw_min_bytes(port[i].mbps, o->min_share, o->window_ns);
		if (port[i].min_bytes > cap)
			cap = port[i].min_bytes;
	}
	c->skel->rodata->elephant_dscp = o->dscp;
	c->skel->rodata->window_ns = o->window_ns;
	c->skel->rodata->bytes_cap = cap;
	ret = dard_switch__load(c->skel);
	if (ret) {
		dard_fail(err, ret, "Unable to load the BPF object: %s",
			  strerror(-ret));
		goto err;
	}
	ret = attach_ports(c, port, nports, err);
	if (ret)
		goto err;
	*out = c;
	return 0;
err:
	sw_counter_detach(c);
	return ret;
}

int sw_count_map(int fd, struct sw_port *port, unsigned nports, uint64_t now,
		 uint64_t window_ns)
{
	enum { BATCH = 512 };
	static struct dard_sw_key keys[BATCH];
	static struct dard_sw_flow val[BATCH];
	static uint8_t forget[BATCH];
	void *cursor = NULL;
	int ret;
	__u32 in = 0, out, n, k;
	unsigned i;

	for (i = 0; i < nports; i++)
		port[i].elephants = 0;
	do {
		n = BATCH;
		ret = bpf_map_lookup_batch(fd, cursor, &out, keys, val, &n,
					   NULL);
		/* -ENOENT: the last batch, which may still hold entries. */
		if (ret && ret != -ENOENT)
			return ret;
		if (sw_tally(port, nports, keys, val, n, now, window_ns,
			     forget))
			for (k = 0; k < n; k++)
				if (forget[k])
					bpf_map_delete_elem(fd, &keys[k]);
		in = out;
		cursor = &in;
	} while (!ret);
	return 0;
}

int sw_counter_count(struct sw_counter *c, struct sw_port *port,
		     unsigned nports, uint64_t now, uint64_t window_ns)
{
	return sw_count_map(bpf_map__fd(c->skel->maps.dard_sw_flows), port,
			    nports, now, window_ns);
}

int sw_counter_stats(struct sw_counter *c, uint64_t out[__DARD_SW_STAT_MAX])
{
	int fd = bpf_map__fd(c->skel->maps.dard_sw_stats);
	int ncpus = libbpf_num_possible_cpus(), i;
	uint64_t *v;
	__u32 s;

	if (ncpus < 1)
		return ncpus < 0 ? ncpus : -EINVAL;
	v = calloc(ncpus, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (s = 0; s < __DARD_SW_STAT_MAX; s++) {
		out[s] = 0;
		if (bpf_map_lookup_elem(fd, &s, v)) {
			free(v);
			return -errno;
		}
		for (i = 0; i < ncpus; i++)
			out[s] += v[i];
	}
	free(v);
	return 0;
}
