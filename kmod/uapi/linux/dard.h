/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * dard's one uapi header, shared by the kernel module, the BPF datapath and
 * userspace (included as <linux/dard.h>).
 *
 * A path through a multi-rooted tree is named by a pair of hierarchical
 * aliases (DARD paper, section 2.3): the source alias encodes the uphill
 * half, the destination alias the downhill half. The datapath writes the
 * pair into the outer IPv4 header of an IP-in-IP packet; switches forward
 * on it with static tables.
 *
 * BPF datapath maps, pinned under DARD_PIN_ROOT/<ifname>/ (see
 * Documentation/datapath.md):
 *   dard_dests    hash   ID (__be32) -> struct dard_dest: this host's
 *                        alias pairs to that destination, one per path
 *   dard_aliases  hash   alias (__be32) -> __u8: this host's own aliases
 *   dard_flows    LRU    struct dard_flow_key -> struct dard_flow
 *   dard_events   ringbuf of struct dard_event
 *   dard_stats    percpu array of __u64, indexed by enum dard_stat
 *   dard_meta     array of one struct dard_meta: how it was attached
 *   dard_live_gen array of one __u32: the liveness generation, bumped
 *                        by userspace after a change of dead bits or
 *                        paths; a known flow checks its path only when
 *                        the generation it noted is not this one
 *
 * dard-switchd's maps (bpf/dard_switch.bpf.c), not pinned:
 *   dard_sw_flows LRU    struct dard_sw_key -> struct dard_sw_flow: when
 *                        last seen and the bytes of its last two windows
 *   dard_sw_stats percpu array of __u64, indexed by enum dard_sw_stat
 */
#ifndef _UAPI_LINUX_DARD_H
#define _UAPI_LINUX_DARD_H

#include <linux/types.h>

#define DARD_GENL_NAME "dard"
#define DARD_GENL_VERSION 1

#define DARD_PIN_ROOT "/sys/fs/bpf/dard"

enum dard_limits {
	DARD_PATHS_MAX = 256,	/* paths per destination: fattree:32 */
	DARD_WCMP_SLOTS = 256,	/* struct dard_dest's slot table */
	DARD_FLOWS_MAX = 65536, /* default size of dard_flows */
	DARD_DESTS_MAX = 65536, /* default size of dard_dests */
	DARD_ALIASES_MAX = 4096,
	DARD_SW_FLOWS_MAX = 16384, /* size of dard_sw_flows: elephants per
				    * switch, all ports together */
	/* dard-switchd's default --min-share, 1/64: a marked flow counts on
	 * a port if it carried 1/64 of the port's bandwidth over a window */
	DARD_SW_SHARE_INV = 64,
	DARD_OUTER_TTL = 64,
};

/*
 * 4in6: how the plan lays its fields out in IPv4 and in IPv6, so that a
 * datapath can turn a path's IPv4 alias into its IPv6 one and back
 * (linux/dard_layout6.h); dardd fills it (dard_plan_layout6) for the BPF
 * program's read-only layout6 or the module's DARD_A_LAYOUT6.
 * outer6 0: IPv4 outer headers, the rest unused.
 */
#define DARD_LAYOUT_FIELDS 9 /* the plan's levels (8) and the host field */
struct dard_layout6 {
	__u32 outer6;
	__u32 base4;	/* host order */
	__u32 base6[4]; /* host-order words, [0] the address's first */
	__u32 nfields;
	__u8 shift4[DARD_LAYOUT_FIELDS], width4[DARD_LAYOUT_FIELDS];
	__u8 shift6[DARD_LAYOUT_FIELDS], width6[DARD_LAYOUT_FIELDS];
};

/* The alias pair naming one path, in network byte order. */
struct dard_alias_pair {
	__be32 saddr;
	__be32 daddr;
};

/*
 * Value of dard_dests: the paths from this host to one destination ID,
 * and which of them are known dead (bit i of dead[i / 64]: path[i]), as
 * dardd learns from the switches: new flows are not placed on a dead
 * path, and a flow on one moves off it at its next packet.
 *
 * A new flow takes path hash % npaths, or, when weighted, path
 * slot[hash % DARD_WCMP_SLOTS]: a table in which each path holds its
 * weight's share of the slots (daemon/lib/wcmp.h), 256 bytes of every
 * entry (16 MiB of a full map of DARD_DESTS_MAX), read only for new
 * flows. Either way a dead choice goes on to the next live path.
 */
struct dard_dest {
	__u32 npaths;
	__u32 weighted; /* 0: hash % npaths (even); 1: by slot[] */
	struct dard_alias_pair path[DARD_PATHS_MAX];
	__u64 dead[DARD_PATHS_MAX / 64];
	/* The path TCP's in-band repair tries after path i (< npaths): one
	 * cycle whose neighbours share few switches (daemon/lib/repair.h). */
	__u8 next[DARD_PATHS_MAX];
	__u8 slot[DARD_WCMP_SLOTS]; /* a path index each (< npaths) */
};

/* Key of dard_flows: the inner (ID) flow. Ports are 0 for other protocols
 * and for fragments. */
struct dard_flow_key {
	__be32 saddr, daddr;
	__be16 sport, dport;
	__u8 proto,
		pad[3]; /* explicit padding: clang -target bpf and gcc agree */
};

/* Key of a switch's dard_sw_flows (bpf/dard_switch.bpf.c): an elephant
 * leaving one exit port. */
struct dard_sw_key {
	__u32 ifindex; /* the exit port's interface */
	struct dard_flow_key flow;
};

/*
 * Value of dard_sw_flows. Windows are the counting window's multiples of
 * bpf_ktime_get_coarse_ns(); bytes are whole frames (skb->len), counted
 * only up to the program's bytes_cap (the largest port's threshold), so
 * that a flow known to be large costs no more writes than its last-seen.
 */
struct dard_sw_flow {
	__u64 seen_ns; /* last seen, bpf_ktime_get_coarse_ns() */
	__u64 window;  /* seen_ns / the window: the one bytes is of */
	__u64 bytes;   /* in that window; not added to past bytes_cap */
	__u64 prev;    /* in the window before it; 0 if none was seen */
};

enum dard_flow_flag {
	DARD_FLOW_F_ELEPHANT = 1U << 0, /* dard_is_elephant (dard_policy.h) */
	DARD_FLOW_F_REPORTED = 1U << 1, /* the elephant event was delivered */
	DARD_FLOW_F_ENDED = 1U << 2,	/* FIN or RST seen */
	DARD_FLOW_F_END_REPORTED = 1U << 3,
	DARD_FLOW_F_SYN_HASH = 1U << 4, /* txhash was noted from a SYN(-ACK) */
	__DARD_FLOW_F_ALL = (1U << 5) - 1
};

/* Value of dard_flows. Counters are updated without locks by every CPU. */
struct dard_flow {
	struct dard_alias_pair path; /* the outer pair of every packet */
	__u64 first_ns, last_ns;     /* bpf_ktime_get_coarse_ns() */
	__u64 bytes, packets;	     /* inner bytes */
	__u64 elephant_ns;	     /* when it became an elephant, or 0 */
	__u32 moves;		     /* path changes made by userspace */
	__u32 flags;		     /* enum dard_flow_flag */
	__u32 path_idx; /* path's index in its dard_dest, or DARD_PATHS_MAX:
			 * unknown, and then never repathed for liveness */
	__u32 txhash;	/* the socket's transmit hash (skb->hash) its last
			 * packet left with; 0: take the next packet's */
	__u32 dsack;	/* TCP: the start of the last D-SACK block it sent */
	__u32 live_gen; /* dard_live_gen when its path was last checked
			 * against the dead bits; DARD_LIVE_GEN_UNCHECKED:
			 * at its next packet */
	__u32 pad;
	__u64 payload; /* TCP or UDP data bytes (dard_payload) */
};

/* A flow's live_gen that no generation equals: userspace moved it. */
#define DARD_LIVE_GEN_UNCHECKED 0xffffffffU

enum dard_event_type {
	DARD_EVENT_ELEPHANT = 1,
	DARD_EVENT_END = 2,
};

/* A ring buffer record: a flow became an elephant, or ended. */
struct dard_event {
	__u32 type; /* enum dard_event_type */
	__u32 pad;
	struct dard_flow_key key;
	struct dard_alias_pair path;
	__u64 ts_ns;
	__u64 bytes;
};

/*
 * Indices of dard_stats: every packet the datapath looks at is counted
 * once under what it did with it (encap, pass, decap or a drop); new_flow,
 * ip_options, event_retry and the liveness counters (new_flow_dead_avoided,
 * all_paths_dead, repath_dead) count alongside. One list gives the enum and
 * the names dardctl prints (X-macro, as <linux/bpf.h>'s __BPF_FUNC_MAPPER),
 * so the two cannot drift; append only.
 */
#define DARD_STAT_MAPPER(FN)                                                   \
	FN(ENCAP, "encap")		     /* egress: encapsulated */        \
	FN(EGRESS_PASS, "egress_pass")	     /* egress: not to an ID */        \
	FN(DECAP, "decap")		     /* ingress: decapsulated */       \
	FN(INGRESS_PASS, "ingress_pass")     /* ingress: not ours */           \
	FN(NEW_FLOW, "new_flow")	     /* egress: placed by hash */      \
	FN(NON_IPV4, "non_ipv4")	     /* either way: passed */          \
	FN(IP_OPTIONS, "ip_options")	     /* encapsulated with options */   \
	FN(DROP_TRUNCATED, "drop_truncated") /* headers shorter than said */   \
	FN(DROP_BAD_IHL, "drop_bad_ihl")     /* IHL < 5 */                     \
	FN(DROP_BAD_LEN, "drop_bad_len")     /* total length vs the packet */  \
	FN(DROP_NO_PATH, "drop_no_path")     /* an ID without paths */         \
	FN(DROP_NOT_MINE, "drop_not_mine")   /* to our alias, not our ID */    \
	FN(DROP_OUTER_OPTIONS, "drop_outer_options") /* outer has options */   \
	FN(DROP_ADJUST, "drop_adjust")	   /* bpf_skb_adjust_room failed */    \
	FN(DROP_OVERSIZE, "drop_oversize") /* too big to wrap */               \
	FN(EVENT_RETRY, "event_retry")	   /* ring full: tried again later */  \
	FN(FLOW_FULL, "flow_full")	   /* flow table update failed */      \
	FN(DROP_OUTER_FRAGMENT, "drop_outer_fragment") /* to our alias */      \
	FN(DROP_CE_NOT_ECT, "drop_ce_not_ect") /* RFC 6040: CE, not ECT */     \
	FN(NEW_FLOW_DEAD_AVOIDED, "new_flow_dead_avoided") /* hash: dead */    \
	FN(ALL_PATHS_DEAD, "all_paths_dead") /* a new flow, none live */       \
	FN(REPATH_DEAD, "repath_dead")	     /* moved off a dead path */       \
	FN(REPATH_RTO, "repath_rto") /* TCP timed out: moved on (sock_ops) */  \
	FN(REPATH_SYN, "repath_syn") /* a SYN(-ACK) sent again, new hash */    \
	FN(REPATH_DSACK, "repath_dsack") /* our ACKs lost: D-SACK repeated */  \
	FN(REPATH_REHASH, "repath_rehash") /* new hash, no RTO callback */     \
	FN(DROP_BIG_TCP, "drop_big_tcp")   /* GSO over 64 KiB: no length */    \
	FN(NEW_FLOW_WEIGHTED, "new_flow_weighted") /* of new_flow: by weight   \
						    */                         \
	FN(RTO_HELD, "rto_held") /* a placed flow's first timeout: kept */     \
	FN(MARK_CLEARED, "mark_cleared") /* egress: DSCP not ours, cleared */

#define __DARD_STAT_ENUM(id, name) DARD_STAT_##id,
/* clang-format off */
enum dard_stat {
	DARD_STAT_MAPPER(__DARD_STAT_ENUM)
	__DARD_STAT_MAX
};
/* clang-format on */
#undef __DARD_STAT_ENUM

/*
 * Indices of a switch's dard_sw_stats (bpf/dard_switch.bpf.c), per CPU:
 * what its counter did with the marked packets it saw, so that elephants
 * it failed to note are visible to dard-switchd's operator.
 */
#define DARD_SW_STAT_MAPPER(FN)                                                \
	FN(NOTED, "noted")	   /* a marked packet noted */                 \
	FN(NEW_FLOW, "new_flow")   /* an elephant entered the table */         \
	FN(FLOW_FULL, "flow_full") /* table update failed: not noted */        \
	FN(TRUNCATED, "truncated") /* inner header unreadable: not noted */    \
	FN(LIGHT, "light")	   /* a flow's window ended under bytes_cap */

#define __DARD_SW_STAT_ENUM(id, name) DARD_SW_STAT_##id,
/* clang-format off */
enum dard_sw_stat {
	DARD_SW_STAT_MAPPER(__DARD_SW_STAT_ENUM)
	__DARD_SW_STAT_MAX
};
/* clang-format on */
#undef __DARD_SW_STAT_ENUM

enum dard_meta_flag {
	DARD_META_F_HOOK_CREATED = 1U << 0, /* detach removes clsact too */
};

/* Value of dard_meta: written by the loader, read back by detach. */
struct dard_meta {
	__u32 ifindex;
	__u32 flags; /* enum dard_meta_flag */
	__be32 my_id;
	__u32 pad;
	__u64 netns_cookie; /* SO_NETNS_COOKIE of the namespace of ifindex */
};

/*
 * The kernel module (kmod/, Documentation/kmod.md): an rtnl link kind
 * DARD_LINK_KIND whose device carries ID traffic (routes to IDs point at
 * it) and a generic netlink family DARD_GENL_NAME that configures it.
 * Addresses travel in network byte order (NLA_BE32), times in ns of
 * CLOCK_MONOTONIC_COARSE (as the BPF datapath's bpf_ktime_get_coarse_ns),
 * so that userspace reads one struct dard_flow from either datapath.
 *
 * `ip link add dard0 link eth0 type dard` records eth0 as the device's
 * lower link (IFLA_LINK, shown as dard0@eth0): userspace finds the dard
 * device of an uplink by it, so `dev eth0` names a host's datapath with
 * either backend. Outer packets leave by the route to their outer
 * destination, which is normally that link.
 */
#define DARD_LINK_KIND "dard"
#define DARD_GENL_MCGRP "events" /* elephant and flow-end notifications */

/* IFLA_INFO_DATA of a dard link, for `ip -d link show`: read only but
 * for the elephant settings, which `ip link add/set ... type dard` may
 * also give. */
enum {
	IFLA_DARD_UNSPEC,
	IFLA_DARD_ID,		   /* __be32: this host's ID, 0 until set */
	IFLA_DARD_FLOWS,	   /* u32: flows in the table */
	IFLA_DARD_FLOWS_MAX,	   /* u32: the table's bound */
	IFLA_DARD_DESTS,	   /* u32: destinations with paths */
	IFLA_DARD_ALIASES,	   /* u32: this host's aliases */
	IFLA_DARD_ELEPHANT_AGE_NS, /* u64 */
	IFLA_DARD_ELEPHANT_BYTES,  /* u64: payload, as DARD_A_ELEPHANT_BYTES */
	IFLA_DARD_ELEPHANT_DSCP,   /* u8: 0-63, or DARD_DSCP_INHERIT */
	IFLA_DARD_PAD,		   /* aligns the u64s (added after the
				    * contract's first cut: appended) */
	__IFLA_DARD_MAX
};
#define IFLA_DARD_MAX (__IFLA_DARD_MAX - 1)

/* Elephant DSCP "none": the outer DSCP copies the inner one. */
#define DARD_DSCP_INHERIT 0xff

/*
 * Commands. Every one names its device by DARD_A_IFINDEX or DARD_A_IFNAME
 * (in the caller's network namespace) and needs CAP_NET_ADMIN there but
 * GET_DEVICE, GET_FLOW (dump) and GET_WEIGHTS, which anyone may read.
 */
enum dard_cmd {
	DARD_CMD_UNSPEC,
	/* do: the device's settings (as SET_DEVICE), DARD_A_FLOWS/_MAX,
	 * DARD_A_DESTS, DARD_A_STATS, DARD_A_LIVE_GEN. */
	DARD_CMD_GET_DEVICE,
	/* Any of DARD_A_ID, DARD_A_ELEPHANT_*, DARD_A_FLOWS_MAX; DARD_A_ALIAS
	 * (repeated) adds aliases, DARD_A_FLAGS & DARD_DEV_F_REPLACE_ALIASES
	 * first forgets the old ones. */
	DARD_CMD_SET_DEVICE,
	/* DARD_A_DEST (the destination's ID) and DARD_A_PATHS: replaces its
	 * paths (every flow to it is re-hashed at its next packet); no
	 * DARD_A_PATHS: forgets the destination. */
	DARD_CMD_SET_DEST,
	/* DARD_A_DEST and DARD_A_DEAD: only the dead bits change. */
	DARD_CMD_SET_DEAD,
	/* dump: one message per flow, DARD_A_FLOW. */
	DARD_CMD_GET_FLOW,
	/* DARD_A_FLOW with its key and DARD_FLOW_A_PATH_SADDR/_DADDR: moves
	 * it from its next packet on; -ENOENT: no such flow, -EINVAL: not
	 * one of its destination's paths. */
	DARD_CMD_MOVE_FLOW,
	/* DARD_A_FLOW with its key: forgets it (no event). */
	DARD_CMD_DEL_FLOW,
	/* Multicast on DARD_GENL_MCGRP: DARD_A_EVENT (enum dard_event_type),
	 * DARD_A_IFINDEX, DARD_A_TIME_NS, DARD_A_FLOW. */
	DARD_CMD_EVENT,
	/* DARD_A_DEST and DARD_A_WEIGHTS (one per path, not all 0): new
	 * flows to it are hashed by the weights from now on; no
	 * DARD_A_WEIGHTS: evenly again. Its paths, dead bits, repair order
	 * and flows stay. -ENOENT: no such destination; -EINVAL: not one
	 * weight per path, or all 0. SET_DEST's new paths are even. */
	DARD_CMD_SET_WEIGHTS,
	/* do: DARD_A_DEST; the reply has DARD_A_DEST and, if weighted,
	 * DARD_A_WEIGHTS: each path's slots of DARD_WCMP_SLOTS. */
	DARD_CMD_GET_WEIGHTS,
	__DARD_CMD_MAX
};
#define DARD_CMD_MAX (__DARD_CMD_MAX - 1)

enum dard_dev_flag {
	DARD_DEV_F_REPLACE_ALIASES = 1U << 0,
	__DARD_DEV_F_ALL = (1U << 1) - 1
};

enum dard_attr {
	DARD_A_UNSPEC,
	DARD_A_IFINDEX,		/* u32 */
	DARD_A_IFNAME,		/* string, < IFNAMSIZ */
	DARD_A_ID,		/* __be32: this host's ID */
	DARD_A_ALIAS,		/* __be32, repeated: one of this host's */
	DARD_A_FLAGS,		/* u32: enum dard_dev_flag */
	DARD_A_ELEPHANT_AGE_NS, /* u64 */
	DARD_A_ELEPHANT_BYTES,	/* u64: payload, dard_is_elephant's */
	DARD_A_ELEPHANT_DSCP,	/* u8: 0-63 or DARD_DSCP_INHERIT */
	DARD_A_FLOWS,		/* u32: flows in the table (read only) */
	DARD_A_FLOWS_MAX, /* u32: the table's bound, 1-DARD_FLOWS_MAX*16 */
	DARD_A_DESTS,	  /* u32: destinations with paths (read only) */
	DARD_A_STATS,	  /* nested: attribute type i + 1 is u64
			   * counter i of enum dard_stat */
	DARD_A_LIVE_GEN,  /* u32 (read only) */
	DARD_A_DEST,	  /* __be32: a destination's ID */
	DARD_A_PATHS,	  /* nested: DARD_A_PATH, 1-DARD_PATHS_MAX of
			   * them in index order */
	DARD_A_PATH,	  /* nested: enum dard_path_attr */
	DARD_A_DEAD,	  /* binary: __u64[DARD_PATHS_MAX / 64] */
	DARD_A_FLOW,	  /* nested: enum dard_flow_attr */
	DARD_A_EVENT,	  /* u32: enum dard_event_type */
	DARD_A_TIME_NS,	  /* u64: when the event happened */
	DARD_A_PAD,
	DARD_A_WEIGHTS, /* binary: __u16[n], host order, one per path
			 * in index order (any scale) */
	DARD_A_LAYOUT6, /* binary: struct dard_layout6, 4in6's; outer6 0:
			 * IP-in-IP again */
	__DARD_A_MAX
};
#define DARD_A_MAX (__DARD_A_MAX - 1)

/* One path of DARD_A_PATHS. */
enum dard_path_attr {
	DARD_PATH_A_UNSPEC,
	DARD_PATH_A_SADDR, /* __be32: the source alias */
	DARD_PATH_A_DADDR, /* __be32: the destination alias */
	DARD_PATH_A_NEXT,  /* u8: the path in-band repair tries after this
			    * one (struct dard_dest's next[]); default i + 1 */
	DARD_PATH_A_DEAD,  /* flag: known dead */
	__DARD_PATH_A_MAX
};
#define DARD_PATH_A_MAX (__DARD_PATH_A_MAX - 1)

/* DARD_A_FLOW: the key (struct dard_flow_key) and, in dumps and events,
 * the value (struct dard_flow). */
enum dard_flow_attr {
	DARD_FLOW_A_UNSPEC,
	DARD_FLOW_A_SADDR,	 /* __be32: the inner (ID) source */
	DARD_FLOW_A_DADDR,	 /* __be32 */
	DARD_FLOW_A_SPORT,	 /* __be16, 0 for protocols without ports */
	DARD_FLOW_A_DPORT,	 /* __be16 */
	DARD_FLOW_A_PROTO,	 /* u8 */
	DARD_FLOW_A_PATH_SADDR,	 /* __be32: the outer pair */
	DARD_FLOW_A_PATH_DADDR,	 /* __be32 */
	DARD_FLOW_A_PATH_IDX,	 /* u32: as struct dard_flow's path_idx */
	DARD_FLOW_A_FIRST_NS,	 /* u64 */
	DARD_FLOW_A_LAST_NS,	 /* u64 */
	DARD_FLOW_A_BYTES,	 /* u64: inner bytes */
	DARD_FLOW_A_PACKETS,	 /* u64 */
	DARD_FLOW_A_ELEPHANT_NS, /* u64, 0: not an elephant */
	DARD_FLOW_A_MOVES,	 /* u32 */
	DARD_FLOW_A_FLAGS,	 /* u32: enum dard_flow_flag */
	DARD_FLOW_A_PAD,
	DARD_FLOW_A_PAYLOAD, /* u64: TCP or UDP data bytes */
	__DARD_FLOW_A_MAX
};
#define DARD_FLOW_A_MAX (__DARD_FLOW_A_MAX - 1)

#endif /* _UAPI_LINUX_DARD_H */
