// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The multi-rooted tree model. Nodes and links are added by name, checked
 * as they arrive, and dard_topo_finalize() checks the whole: every link
 * joins adjacent levels, every switch below the roots has a way up, every
 * host hangs off exactly one switch of the last level.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "topo.h"

struct dard_topo *dard_topo_new(void)
{
	struct dard_topo *t = calloc(1, sizeof(*t));

	if (t)
		t->mbps = 1000;
	return t;
}

void dard_topo_free(struct dard_topo *t)
{
	uint32_t i;

	if (!t)
		return;
	for (i = 0; i < t->nnodes; i++) {
		free(t->node[i].port);
		free(t->node[i].down);
		free(t->node[i].up);
	}
	free(t->node);
	free(t->link);
	free(t->roots);
	free(t->hosts);
	free(t->hash);
	free(t);
}

static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */

	while (*s)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static int hash_grow(struct dard_topo *t)
{
	uint32_t size = t->hash_size ? t->hash_size * 2 : 64, i, j;
	uint32_t *h = malloc(size * sizeof(*h));

	if (!h)
		return -ENOMEM;
	memset(h, 0xff, size * sizeof(*h));
	for (i = 0; i < t->nnodes; i++) {
		j = hash_name(t->node[i].name) & (size - 1);
		while (h[j] != DARD_NONE)
			j = (j + 1) & (size - 1);
		h[j] = i;
	}
	free(t->hash);
	t->hash = h;
	t->hash_size = size;
	return 0;
}

uint32_t dard_topo_find(const struct dard_topo *t, const char *name)
{
	uint32_t j;

	if (!t->hash_size)
		return DARD_NONE;
	j = hash_name(name) & (t->hash_size - 1);
	while (t->hash[j] != DARD_NONE) {
		if (!strcmp(t->node[t->hash[j]].name, name))
			return t->hash[j];
		j = (j + 1) & (t->hash_size - 1);
	}
	return DARD_NONE;
}

uint32_t dard_topo_find_id(const struct dard_topo *t, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < t->nhosts; i++)
		if (t->node[t->hosts[i]].id == id)
			return t->hosts[i];
	return DARD_NONE;
}

int dard_topo_level(const struct dard_topo *t, const char *name)
{
	int l;

	for (l = 0; l < t->nlevels; l++)
		if (!strcmp(t->level_name[l], name))
			return l;
	return -1;
}

const char *dard_topo_label(const struct dard_topo *t)
{
	return t->name[0] ? t->name : "this topology";
}

const char *dard_topo_level_name(const struct dard_topo *t, unsigned level)
{
	return level < t->nlevels ? t->level_name[level] : "host";
}

int dard_name_valid(const char *s, size_t max)
{
	size_t n = strlen(s), i;

	if (!n || n >= max || s[0] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_' ||
		      s[i] == '-'))
			return 0;
	return 1;
}

int dard_topo_add_level(struct dard_topo *t, const char *name, char *err)
{
	if (t->nnodes)
		return dard_fail(err, -EINVAL, "levels must come before nodes");
	if (t->nlevels >= DARD_LEVEL_MAX)
		return dard_fail(err, -E2BIG, "at most %d switch levels",
				 DARD_LEVEL_MAX);
	if (!dard_name_valid(name, sizeof(t->level_name[0])) ||
	    !strcmp(name, "host"))
		return dard_fail(
			err, -EINVAL,
			"invalid level name `%s' (letters, digits, _ and -, at most %zu, not `host')",
			name, sizeof(t->level_name[0]) - 1);
	if (dard_topo_level(t, name) >= 0)
		return dard_fail(err, -EEXIST, "level `%s' given twice", name);
	strcpy(t->level_name[t->nlevels++], name);
	return 0;
}

static int add_node(struct dard_topo *t, const char *name, int level, char *err)
{
	struct dard_node *n;
	int ret;

	if (t->finalized)
		return dard_fail(err, -EBUSY, "topology already finalized");
	if (!dard_name_valid(name, DARD_NAME_MAX))
		return dard_fail(
			err, -EINVAL,
			"invalid node name `%s' (letters, digits, _ and -, at most %d)",
			name, DARD_NAME_MAX - 1);
	if (dard_topo_find(t, name) != DARD_NONE)
		return dard_fail(err, -EEXIST, "node `%s' declared twice",
				 name);
	if (t->nnodes == t->node_cap) {
		uint32_t cap = t->node_cap ? t->node_cap * 2 : 64;
		void *p = realloc(t->node, cap * sizeof(*t->node));

		if (!p)
			return dard_fail(err, -ENOMEM, "out of memory");
		t->node = p;
		t->node_cap = cap;
	}
	n = &t->node[t->nnodes++];
	memset(n, 0, sizeof(*n));
	strcpy(n->name, name);
	n->level = level;
	n->is_host = level == t->nlevels;
	n->rank = DARD_NONE;
	if ((t->nnodes + 1) * 2 > t->hash_size) {
		ret = hash_grow(t);
		if (ret < 0)
			return dard_fail(err, ret, "out of memory");
	} else {
		uint32_t j = hash_name(name) & (t->hash_size - 1);

		while (t->hash[j] != DARD_NONE)
			j = (j + 1) & (t->hash_size - 1);
		t->hash[j] = t->nnodes - 1;
	}
	return 0;
}

int dard_topo_add_switch(struct dard_topo *t, const char *name,
			 const char *level, char *err)
{
	int l = dard_topo_level(t, level);

	if (l < 0)
		return dard_fail(err, -EINVAL,
				 "switch `%s': unknown level `%s'", name,
				 level);
	return add_node(t, name, l, err);
}

int dard_topo_add_host(struct dard_topo *t, const char *name, char *err)
{
	if (!t->nlevels)
		return dard_fail(err, -EINVAL,
				 "hosts need switch levels first");
	return add_node(t, name, t->nlevels, err);
}

static int set_port(struct dard_node *n, unsigned port, uint32_t link,
		    char *err)
{
	if (port < 1 || port > DARD_PORT_MAX)
		return dard_fail(err, -EINVAL, "%s: port %u out of range 1..%d",
				 n->name, port, DARD_PORT_MAX);
	if (port > n->nports) {
		uint32_t *p = realloc(n->port, port * sizeof(*p));
		unsigned k;

		if (!p)
			return dard_fail(err, -ENOMEM, "out of memory");
		for (k = n->nports; k < port; k++)
			p[k] = DARD_NONE;
		n->port = p;
		n->nports = port;
	}
	if (n->port[port - 1] != DARD_NONE)
		return dard_fail(err, -EEXIST, "%s: port %u is used twice",
				 n->name, port);
	n->port[port - 1] = link;
	return 0;
}

int dard_topo_add_link(struct dard_topo *t, const char *up, unsigned up_port,
		       const char *down, unsigned down_port, uint32_t mbps,
		       char *err)
{
	uint32_t u = dard_topo_find(t, up), d = dard_topo_find(t, down);
	struct dard_link *l;
	int ret;

	if (t->finalized)
		return dard_fail(err, -EBUSY, "topology already finalized");
	if (u == DARD_NONE)
		return dard_fail(err, -ENOENT, "unknown node `%s'", up);
	if (d == DARD_NONE)
		return dard_fail(err, -ENOENT, "unknown node `%s'", down);
	if (t->node[u].is_host)
		return dard_fail(
			err, -EINVAL,
			"`%s' is a host and cannot be the upper end of a link",
			up);
	if (t->node[d].level != t->node[u].level + 1)
		return dard_fail(err, -EINVAL,
				 "`%s' (%s) is not one level below `%s' (%s)",
				 down,
				 dard_topo_level_name(t, t->node[d].level), up,
				 dard_topo_level_name(t, t->node[u].level));
	if (!mbps)
		return dard_fail(err, -EINVAL,
				 "link %s-%s: capacity must be > 0", up, down);
	if (dard_topo_link_between(t, u, d) != DARD_NONE)
		return dard_fail(
			err, -EEXIST,
			"a second link between `%s' and `%s' (parallel links are not supported)",
			up, down);
	if (t->node[d].is_host && t->node[d].nports)
		return dard_fail(
			err, -EINVAL,
			"host `%s' already has a link (hosts have one)", down);
	if (t->nlinks == t->link_cap) {
		uint32_t cap = t->link_cap ? t->link_cap * 2 : 64;
		void *p = realloc(t->link, cap * sizeof(*t->link));

		if (!p)
			return dard_fail(err, -ENOMEM, "out of memory");
		t->link = p;
		t->link_cap = cap;
	}
	ret = set_port(&t->node[u], up_port, t->nlinks, err);
	if (ret < 0)
		return ret;
	ret = set_port(&t->node[d], down_port, t->nlinks, err);
	if (ret < 0) {
		t->node[u].port[up_port - 1] = DARD_NONE;
		return ret;
	}
	l = &t->link[t->nlinks++];
	l->up = u;
	l->down = d;
	l->up_port = up_port;
	l->down_port = down_port;
	l->mbps = mbps;
	return 0;
}

const struct dard_link *dard_topo_port_link(const struct dard_topo *t,
					    uint32_t node, unsigned port)
{
	const struct dard_node *n = &t->node[node];

	if (port < 1 || port > n->nports || n->port[port - 1] == DARD_NONE)
		return NULL;
	return &t->link[n->port[port - 1]];
}

uint32_t dard_topo_peer(const struct dard_topo *t, uint32_t node, unsigned port)
{
	const struct dard_link *l = dard_topo_port_link(t, node, port);

	if (!l)
		return DARD_NONE;
	return l->up == node ? l->down : l->up;
}

uint32_t dard_topo_link_between(const struct dard_topo *t, uint32_t a,
				uint32_t b)
{
	const struct dard_node *n = &t->node[a];
	unsigned k;

	for (k = 0; k < n->nports; k++) {
		uint32_t li = n->port[k];

		if (li != DARD_NONE &&
		    (t->link[li].up == b || t->link[li].down == b))
			return li;
	}
	return DARD_NONE;
}

unsigned dard_topo_host_port(const struct dard_topo *t, uint32_t host)
{
	const struct dard_node *n = &t->node[host];
	unsigned k;

	for (k = 1; k <= n->nports; k++)
		if (n->port[k - 1] != DARD_NONE)
			return k;
	return 0;
}

uint32_t dard_topo_tor(const struct dard_topo *t, uint32_t host)
{
	unsigned k = dard_topo_host_port(t, host);

	return k ? t->link[t->node[host].port[k - 1]].up : DARD_NONE;
}

uint32_t dard_topo_tor_host(const struct dard_topo *t, uint32_t tor)
{
	unsigned k;

	for (k = 0; k < t->node[tor].ndown; k++) {
		uint32_t n = dard_topo_peer(t, tor, t->node[tor].down[k]);

		if (n != DARD_NONE && t->node[n].is_host)
			return n;
	}
	return DARD_NONE;
}

/* A node's down[] and up[] ports, each in port order. */
static int build_ports(struct dard_topo *t, uint32_t i)
{
	struct dard_node *n = &t->node[i];
	unsigned k;

	free(n->down);
	free(n->up);
	n->down = malloc((n->ndown ? n->ndown : 1) * sizeof(*n->down));
	n->up = malloc((n->nup ? n->nup : 1) * sizeof(*n->up));
	if (!n->down || !n->up)
		return -ENOMEM;
	n->ndown = n->nup = 0;
	for (k = 0; k < n->nports; k++) {
		uint32_t li = n->port[k];

		if (li == DARD_NONE)
			continue;
		if (t->link[li].up == i)
			n->down[n->ndown++] = k + 1;
		else
			n->up[n->nup++] = k + 1;
	}
	return 0;
}

/* Checks one node's links; a message about it starts with its name. */
static int check_node(struct dard_topo *t, uint32_t i, char *err)
{
	struct dard_node *n = &t->node[i];
	unsigned k;

	n->ndown = n->nup = 0;
	for (k = 0; k < n->nports; k++) {
		uint32_t li = n->port[k];

		if (li == DARD_NONE)
			continue;
		if (t->link[li].up == i)
			n->ndown++;
		else
			n->nup++;
	}
	if (n->is_host) {
		if (n->nup != 1)
			return dard_fail(err, -EINVAL,
					 "host `%s' has no link to a %s switch",
					 n->name,
					 t->level_name[t->nlevels - 1]);
		n->rank = t->nhosts;
		t->hosts[t->nhosts++] = i;
	} else if (n->level == 0) {
		n->rank = t->nroots;
		t->roots[t->nroots++] = i;
	} else if (!n->nup) {
		return dard_fail(
			err, -EINVAL,
			"switch `%s' (%s) has no link to a %s switch above it",
			n->name, t->level_name[n->level],
			t->level_name[n->level - 1]);
	}
	if (!n->is_host && !n->ndown)
		return dard_fail(err, -EINVAL,
				 "switch `%s' (%s) has nothing below it",
				 n->name, t->level_name[n->level]);
	if (build_ports(t, i))
		return dard_fail(err, -ENOMEM, "out of memory");
	return 0;
}

int dard_topo_finalize(struct dard_topo *t, uint32_t *node, char *err)
{
	uint32_t i;
	int ret;

	if (node)
		*node = DARD_NONE;
	if (t->finalized)
		return 0;
	if (!t->nlevels)
		return dard_fail(err, -EINVAL, "no switch levels");
	free(t->roots);
	free(t->hosts);
	t->roots = calloc(t->nnodes + 1, sizeof(*t->roots));
	t->hosts = calloc(t->nnodes + 1, sizeof(*t->hosts));
	if (!t->roots || !t->hosts)
		return dard_fail(err, -ENOMEM, "out of memory");
	t->nroots = t->nhosts = 0;

	for (i = 0; i < t->nnodes; i++) {
		ret = check_node(t, i, err);
		if (ret < 0) {
			if (node && ret != -ENOMEM)
				*node = i;
			return ret;
		}
	}
	if (!t->nroots)
		return dard_fail(err, -EINVAL,
				 "no switch at level `%s' (the roots)",
				 t->level_name[0]);
	if (!t->nhosts)
		return dard_fail(err, -EINVAL, "no hosts");
	t->finalized = 1;
	return 0;
}
