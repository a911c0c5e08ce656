/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The multi-rooted tree: levels of switches, hosts below the last level,
 * and links with a capacity between adjacent levels. Pure: no I/O.
 */
#ifndef _DARD_TOPO_H
#define _DARD_TOPO_H

#include <stddef.h>
#include <stdint.h>

enum dard_topo_limits {
	DARD_NAME_MAX = 32,   /* node names, with the NUL */
	DARD_LEVEL_MAX = 8,   /* switch levels, roots included */
	DARD_PORT_MAX = 4096, /* ports per node */
	DARD_ERR_MAX = 256,   /* error message length */
};

#define DARD_NONE UINT32_MAX

/* One switch or host. Ports are numbered 1..nports; port[k - 1] is a link. */
struct dard_node {
	char name[DARD_NAME_MAX];
	uint32_t *port;	 /* link index per port, DARD_NONE if unused */
	uint32_t *down;	 /* down ports in port order (switches) */
	uint32_t *up;	 /* up ports in port order (all but roots) */
	uint32_t id;	 /* host: location-independent ID address */
	uint32_t mgmt;	 /* management address, 0 when unset */
	uint32_t alloc;	 /* first entry in dard_plan.alloc */
	uint32_t nalloc; /* prefixes allocated to this node */
	uint32_t rank;	 /* index among roots (roots) or hosts (hosts) */
	uint16_t nports;
	uint16_t ndown;
	uint16_t nup;
	uint8_t level; /* 0 = roots; topo->nlevels = hosts */
	uint8_t is_host;
};

/* A link from a switch's down port to a node one level below. */
struct dard_link {
	uint32_t up, down; /* node indices */
	uint16_t up_port, down_port;
	uint32_t mbps; /* capacity in Mbit/s */
};

struct dard_topo {
	char name[64];
	char level_name[DARD_LEVEL_MAX][16];
	uint8_t nlevels; /* switch levels; hosts sit at level nlevels */
	uint32_t mbps;	 /* default link capacity, Mbit/s */

	struct dard_node *node;
	uint32_t nnodes, node_cap;
	struct dard_link *link;
	uint32_t nlinks, link_cap;

	uint32_t *roots; /* node indices of level 0, in node order */
	uint32_t nroots;
	uint32_t *hosts; /* node indices of hosts, in node order */
	uint32_t nhosts;
	uint32_t *hash; /* open-addressing name index */
	uint32_t hash_size;
	int finalized;
};

struct dard_topo *dard_topo_new(void);
void dard_topo_free(struct dard_topo *t);

/*
 * Builders return 0 or a negative errno and describe the problem in err
 * (DARD_ERR_MAX bytes) when it is not NULL.
 */
int dard_topo_add_level(struct dard_topo *t, const char *name, char *err);
int dard_topo_add_switch(struct dard_topo *t, const char *name,
			 const char *level, char *err);
int dard_topo_add_host(struct dard_topo *t, const char *name, char *err);
int dard_topo_add_link(struct dard_topo *t, const char *up, unsigned up_port,
		       const char *down, unsigned down_port, uint32_t mbps,
		       char *err);
/*
 * Checks the tree is layered and complete; builds the derived arrays
 * (roots, hosts, and each node's down[] and up[] ports). Returns 0, or a
 * negative errno with the reason in err; when node is not NULL, *node is
 * the node the reason is about (DARD_NONE when it is about no one node),
 * so that a caller can point at where that node was declared.
 */
int dard_topo_finalize(struct dard_topo *t, uint32_t *node, char *err);

/* Letters, digits, _ and -, not starting with -, shorter than max. */
int dard_name_valid(const char *s, size_t max);

uint32_t dard_topo_find(const struct dard_topo *t, const char *name);
/* The host whose ID is id (host byte order), or DARD_NONE. */
uint32_t dard_topo_find_id(const struct dard_topo *t, uint32_t id);
int dard_topo_level(const struct dard_topo *t, const char *name);
const char *dard_topo_level_name(const struct dard_topo *t, unsigned level);
/* The topology's name for messages: "this topology" when it has none. */
const char *dard_topo_label(const struct dard_topo *t);

/* The link on a node's port, or NULL. */
const struct dard_link *dard_topo_port_link(const struct dard_topo *t,
					    uint32_t node, unsigned port);
/* The node on the far side of a port, or DARD_NONE. */
uint32_t dard_topo_peer(const struct dard_topo *t, uint32_t node,
			unsigned port);
/* The link between two adjacent nodes, or DARD_NONE. */
uint32_t dard_topo_link_between(const struct dard_topo *t, uint32_t a,
				uint32_t b);
/* The port a host's one link is on (it may be any), or 0. */
unsigned dard_topo_host_port(const struct dard_topo *t, uint32_t host);
/* A host's ToR (its only neighbour). */
uint32_t dard_topo_tor(const struct dard_topo *t, uint32_t host);
/* The first host below a ToR, or DARD_NONE. */
uint32_t dard_topo_tor_host(const struct dard_topo *t, uint32_t tor);

#define for_each_port(t, n, k) for ((k) = 1; (k) <= (t)->node[n].nports; (k)++)

#endif /* _DARD_TOPO_H */
