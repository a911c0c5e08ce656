/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The host datapath interface: what dardctl and dardd do with a datapath,
 * whatever implements it (the BPF/TC programs today, the kernel module
 * later). Helpers return 0 or a negative errno and never print.
 */
#ifndef _DARD_DP_H
#define _DARD_DP_H

#include <stdint.h>
#include <linux/dard.h>

#include "clock.h"

/*
 * The clock the BPF programs stamp flows with (bpf_ktime_get_coarse_ns):
 * CLOCK_MONOTONIC_COARSE, in ns.
 */
static inline uint64_t dard_coarse_ns(void)
{
	return dard_clock_ns(CLOCK_MONOTONIC_COARSE);
}

struct dard_dp;

struct dard_dp_opts {
	const char *ifname;
	const char *pin_root; /* NULL: DARD_PIN_ROOT */
	uint32_t my_id;	      /* host byte order */
	uint64_t elephant_age_ns;
	/* Payload (dard_is_elephant); DARD_DP_ELEPHANT_BYTES_AUTO: a share
	 * of the host link's capacity (dard_dp_elephant_bytes). */
	uint64_t elephant_bytes;
	int elephant_dscp;  /* < 0: outer DSCP copies the inner */
	uint32_t max_dests; /* 0: DARD_DESTS_MAX */
	/* The cgroup v2 whose TCP sockets are repaired on RTO; NULL: the
	 * root of the cgroup2 mount (none mounted: no RTO repair). */
	const char *cgroup;
	/* The kernel module's device, made if not there; NULL: dard%d, the
	 * first free (dard0). */
	const char *kmod_dev;
	/* The IDs' prefix (host order; plen 0: none), whose route the kernel
	 * module points at its device; dard_dp_attach_host sets it. */
	uint32_t id_net;
	unsigned id_plen;
	/*
	 * The plan of a fabric whose ID traffic goes 4in6 (an IPv6-only one,
	 * or `outer ipv6'), whose IPv6 aliases the outer headers carry (the
	 * IDs and paths stay IPv4); NULL: IPv4 outer headers.
	 * dard_dp_attach_host sets it; the BPF program reads it as its
	 * layout6, the module as DARD_A_LAYOUT6.
	 */
	const struct dard_plan *outer6;
};

typedef int (*dard_dp_flow_cb)(const struct dard_flow_key *key,
			       const struct dard_flow *flow, void *arg);
typedef int (*dard_dp_event_cb)(const struct dard_event *ev, void *arg);

struct dard_dp_ops {
	const char *name;
	/* Loads and attaches to opts->ifname; state survives the process. */
	int (*attach)(struct dard_dp **dp, const struct dard_dp_opts *opts);
	/* Opens the datapath attached to ifname. */
	int (*open)(struct dard_dp **dp, const char *ifname,
		    const char *pin_root);
	/*
	 * Sets the paths to a destination ID (host byte order), and the
	 * order in which in-band repair tries them (next[i]: the path after
	 * path i, dard_repair_order()'s; NULL: index order).
	 */
	int (*set_dest)(struct dard_dp *dp, uint32_t id,
			const struct dard_alias_pair *paths, unsigned n,
			const uint8_t *next);
	/*
	 * Marks which of a destination's paths are dead (bit i of
	 * dead[i / 64]: path i, DARD_PATHS_MAX bits), keeping its paths.
	 */
	int (*set_dead)(struct dard_dp *dp, uint32_t id, const uint64_t *dead);
	/* Weights of a destination's paths for new flows (w[i]: path i, any
	 * scale, 0 = never chosen while another has weight), keeping its
	 * paths, dead bits and repair order; w NULL or n 0: even again.
	 * -EINVAL if n differs from the destination's paths or all are 0,
	 * -ENOENT for an unknown destination. */
	int (*set_weights)(struct dard_dp *dp, uint32_t id, const uint16_t *w,
			   unsigned n);
	/*
	 * The weights as the datapath applies them: if weighted, *n (the
	 * destination's paths) and slots[i], path i's share of
	 * DARD_WCMP_SLOTS (slots: DARD_PATHS_MAX). Returns 1 if weighted, 0
	 * if even, -ENOENT for an unknown destination.
	 */
	int (*weights)(struct dard_dp *dp, uint32_t id, uint16_t *slots,
		       unsigned *n);
	int (*add_alias)(struct dard_dp *dp, uint32_t alias);
	/* Moves a flow to another alias pair, from its next packet on. */
	int (*move)(struct dard_dp *dp, const struct dard_flow_key *key,
		    const struct dard_alias_pair *path);
	int (*flows)(struct dard_dp *dp, dard_dp_flow_cb cb, void *arg);
	/* Forgets flows idle for idle_ns, reporting each as ended. */
	int (*sweep)(struct dard_dp *dp, uint64_t idle_ns, dard_dp_event_cb cb,
		     void *arg);
	/* Waits up to timeout_ms for events; returns how many it handled. */
	int (*poll)(struct dard_dp *dp, dard_dp_event_cb cb, void *arg,
		    int timeout_ms);
	/*
	 * A descriptor that polls readable when events wait; poll(..., 0)
	 * then hands them to cb. For event loops; -errno on failure.
	 */
	int (*event_fd)(struct dard_dp *dp, dard_dp_event_cb cb, void *arg);
	int (*stats)(struct dard_dp *dp, uint64_t *out);
	/* Removes the programs, the hook if it made it, and the pins. */
	int (*detach)(struct dard_dp *dp);
	void (*close)(struct dard_dp *dp);
};

extern const struct dard_dp_ops dard_dp_bpf;
extern const struct dard_dp_ops dard_dp_kmod;

/* What a backend's -errno means to an operator (-ENOPKG: no dard.ko). */
const char *dard_dp_strerror(int err);

/* --datapath / $DARD_DATAPATH: which backend (dp_choose.c). */
enum dard_dp_kind { DARD_DP_AUTO, DARD_DP_BPF, DARD_DP_KMOD };

/* "auto", "bpf" or "kmod"; -EINVAL for anything else (NULL: auto). */
int dard_dp_kind_parse(const char *s);

/* What auto looks at, for an interface. */
struct dard_dp_seen {
	int dard_link; /* it is a dard device, or the uplink of one */
	int pinned;    /* it has the BPF datapath's pinned maps */
	int module;    /* the module's genl family exists */
};

/*
 * The backend for kind: auto takes the one already on the interface (a
 * dard device: kmod; pinned maps: bpf), else kmod when the module is
 * loaded, else bpf. Pure: the tests drive it with made-up sightings.
 */
const struct dard_dp_ops *dard_dp_pick(enum dard_dp_kind kind,
				       const struct dard_dp_seen *seen);

/* dard_dp_pick over what this host shows for ifname. */
const struct dard_dp_ops *dard_dp_choose(enum dard_dp_kind kind,
					 const char *ifname,
					 const char *pin_root);

/* The defaults: the paper's 10 s elephants, marked with DSCP 8. */
void dard_dp_opts_init(struct dard_dp_opts *o, const char *ifname,
		       const char *pin_root);

#define DARD_DP_ELEPHANT_BYTES_AUTO UINT64_MAX

struct dard_topo;
/*
 * The elephant payload o asks for; for DARD_DP_ELEPHANT_BYTES_AUTO, the
 * default share of host me's link to its ToR in t
 * (dard_elephant_bytes_for), or 0 (any payload) without t.
 */
uint64_t dard_dp_elephant_bytes(const struct dard_dp_opts *o,
				const struct dard_topo *t, uint32_t me);

struct dard_plan;
/*
 * Attaches a datapath for host me (its ID and the tree's size go into o)
 * and programs it; on failure nothing is left attached. Returns 0, or
 * -errno with err (DARD_ERR_MAX) saying which step failed.
 */
int dard_dp_attach_host(const struct dard_dp_ops *ops, struct dard_dp **dp,
			struct dard_dp_opts *o, const struct dard_topo *t,
			const struct dard_plan *p, uint32_t me, char *err);

struct bpf_object;
/* A dard_dp over a loaded, unattached object: for tests and benchmarks. */
int dard_dp_bpf_adopt(struct dard_dp **dp, struct bpf_object *obj);

const char *dard_stat_name(unsigned stat);

#endif /* _DARD_DP_H */
