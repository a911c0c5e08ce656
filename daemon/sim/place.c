// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * --place: one demand placed by a routing algorithm, printed as JSON so
 * that any placement can be checked from outside.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "sim.h"

/* A placement being made: the demand, its paths and the links' loads. */
struct placement {
	const struct dard_topo *t;
	struct dard_pathctx *pc;
	const struct dard_demand *d;
	long n;
	struct dard_path *paths;
	uint32_t *load; /* per directed link */
	int loaded;	/* load already counted by the algorithm */
	const char *choice;
};

struct algo {
	const char *name;
	int which; /* enum dard_modk, for the mod-k family */
	/* 0, or -1 with err set. */
	int (*route)(struct placement *pl, const struct algo *a, char *err);
};

static int route_modk(struct placement *pl, const struct algo *a, char *err)
{
	const struct dard_topo *t = pl->t;
	long i;

	for (i = 0; i < pl->n; i++)
		if (dard_route_modk(pl->pc, t, pl->d[i].src, pl->d[i].dst,
				    a->which, &pl->paths[i])) {
			snprintf(err, DARD_ERR_MAX, "no %s path from %s to %s",
				 a->name, t->node[pl->d[i].src].name,
				 t->node[pl->d[i].dst].name);
			return -1;
		}
	return 0;
}

/* SDN-greedy counts its loads as it goes. */
static int route_greedy(struct placement *pl, const struct algo *a, char *err)
{
	(void)a;
	if (dard_route_greedy(pl->pc, pl->t, pl->d, pl->n, pl->load,
			      pl->paths)) {
		snprintf(err, DARD_ERR_MAX, "no path for a flow");
		return -1;
	}
	pl->loaded = 1;
	return 0;
}

static int route_optimal(struct placement *pl, const struct algo *a, char *err)
{
	(void)a;
	return dard_route_optimal(pl->pc, pl->t, pl->d, pl->n, pl->paths, err)
		       ? -1
		       : 0;
}

/* Multipath: SDN-greedy's single paths stand in for it. */
static int route_adaptive(struct placement *pl, const struct algo *a, char *err)
{
	int ret = dard_route_adaptive(pl->pc, pl->t, pl->d, pl->n, pl->paths,
				      err);

	if (ret < 0)
		return -1;
	if (ret == DARD_SDN_SINGLE) {
		pl->choice = "sdn-optimal";
		return 0;
	}
	pl->choice = "multipath";
	return route_greedy(pl, a, err);
}

/* --algo, as its help lists them. */
static const struct algo algos[] = {
	{"d-mod-k", DARD_DMODK_DIGIT, route_modk},
	{"d-mod-k-literal", DARD_DMODK_LITERAL, route_modk},
	{"s-mod-k", DARD_SMODK_DIGIT, route_modk},
	{"s-mod-k-literal", DARD_SMODK_LITERAL, route_modk},
	{"sdn-greedy", 0, route_greedy},
	{"sdn-optimal", 0, route_optimal},
	{"sdn-adaptive", 0, route_adaptive},
};

int sim_algo_find(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof(algos) / sizeof(algos[0]); i++)
		if (!strcmp(s, algos[i].name))
			return i;
	return -1;
}

static json_object *names(const struct dard_topo *t, const struct dard_path *p)
{
	json_object *a = json_object_new_array();
	unsigned i;

	for (i = 0; i < p->nsw; i++)
		json_object_array_add(
			a, json_object_new_string(t->node[p->sw[i]].name));
	return a;
}

static json_object *flows_json(const struct placement *pl)
{
	const struct dard_topo *t = pl->t;
	json_object *flows = json_object_new_array();
	long i;

	for (i = 0; i < pl->n; i++) {
		json_object *f = json_object_new_object();

		json_object_object_add(
			f, "src",
			json_object_new_string(t->node[pl->d[i].src].name));
		json_object_object_add(
			f, "dst",
			json_object_new_string(t->node[pl->d[i].dst].name));
		json_object_object_add(f, "path", names(t, &pl->paths[i]));
		json_object_array_add(flows, f);
	}
	return flows;
}

/* Every loaded directed link: even l up a link, odd l down it. */
static json_object *links_json(const struct placement *pl)
{
	const struct dard_topo *t = pl->t;
	json_object *links = json_object_new_array();
	uint32_t l;

	for (l = 0; l < 2 * t->nlinks; l++) {
		const struct dard_link *k = &t->link[l / 2];
		json_object *o;

		if (!pl->load[l])
			continue;
		o = json_object_new_object();
		json_object_object_add(
			o, "from",
			json_object_new_string(
				t->node[l % 2 ? k->up : k->down].name));
		json_object_object_add(
			o, "to",
			json_object_new_string(
				t->node[l % 2 ? k->down : k->up].name));
		json_object_object_add(o, "load",
				       json_object_new_int64(pl->load[l]));
		json_object_array_add(links, o);
	}
	return links;
}

static void print_json(const struct placement *pl, const char *algo,
		       uint32_t nl, uint32_t lb)
{
	const struct dard_topo *t = pl->t;
	json_object *doc = json_object_new_object();

	json_object_object_add(doc, "topology",
			       json_object_new_string(dard_topo_label(t)));
	json_object_object_add(doc, "algo", json_object_new_string(algo));
	if (pl->choice)
		json_object_object_add(doc, "choice",
				       json_object_new_string(pl->choice));
	json_object_object_add(doc, "flows", flows_json(pl));
	json_object_object_add(doc, "links", links_json(pl));
	json_object_object_add(
		doc, "L_D",
		json_object_new_int64(dard_route_max_load(t, pl->load)));
	json_object_object_add(doc, "NL_D", json_object_new_int64(nl));
	json_object_object_add(doc, "lower_bound", json_object_new_int64(lb));
	puts(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN));
	json_object_put(doc);
}

int sim_place(const struct dard_topo *t, const struct dard_plan *p,
	      const struct sim_args *a)
{
	struct placement pl = {.t = t};
	struct dard_demand *d = NULL;
	char err[DARD_ERR_MAX + PATH_MAX];
	uint32_t nl, lb;
	int ret = 1;
	long i;

	pl.n = sim_demand(t, a->demand, a->sim.seed, &d, err, sizeof(err));
	if (pl.n < 0) {
		fprintf(stderr, "dard-sim: %s\n", err);
		return 1;
	}
	pl.d = d;
	pl.pc = dard_pathctx_new(t, p);
	pl.paths = calloc(pl.n ? pl.n : 1, sizeof(*pl.paths));
	pl.load = calloc(2 * (size_t)t->nlinks, sizeof(*pl.load));
	if (!pl.pc || !pl.paths || !pl.load) {
		fprintf(stderr, "dard-sim: out of memory\n");
		goto out;
	}
	if (algos[a->algo].route(&pl, &algos[a->algo], err)) {
		fprintf(stderr, "dard-sim: %s\n", err);
		goto out;
	}
	for (i = 0; !pl.loaded && i < pl.n; i++)
		dard_route_load(t, &pl.paths[i], pl.load);
	if (dard_route_node_load(t, d, pl.n, &nl, err) ||
	    dard_route_lower_bound(t, d, pl.n, &lb, err)) {
		fprintf(stderr, "dard-sim: %s\n", err);
		goto out;
	}
	print_json(&pl, a->algo_name, nl, lb);
	ret = 0;
out:
	free(pl.paths);
	free(pl.load);
	free(d);
	dard_pathctx_free(pl.pc);
	return ret;
}
