// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-sim: the flow-level simulator. So far it places one demand with a
 * routing algorithm and prints the placement as JSON, so that any
 * placement can be checked from outside; the event-driven simulation of
 * the paper's section 4.3 comes next.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cfgfile.h"
#include "lib/gen.h"
#include "lib/flowsim.h"
#include "lib/route.h"
#include "lib/traffic.h"

#ifndef DARD_VERSION
#define DARD_VERSION "unknown"
#endif

static const char *const algos[] = {
	"d-mod-k",	   "d-mod-k-literal", "s-mod-k",
	"s-mod-k-literal", "sdn-greedy",      "sdn-optimal",
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dard-sim --place [ --topo TOPO ] [ --algo ALGO ]\n"
		"                [ --demand { stride | random | staggered | FILE } ]\n"
		"                [ --seed N ]\n"
		"       dard-sim --run [ --topo TOPO ] [ --pattern P ] [ --rate R ]\n"
		"                [ --size MB ] [ --duration S ] [ --seed N ]\n"
		"                [ --sched { ecmp | pvlb | dard | all } ]\n"
		"\n"
		"--run simulates elephant flows at the flow level (the DARD paper,\n"
		"section 4.3): they arrive by the pattern (as dardctl traffic gen;\n"
		"default stride, 5 per second per source, 128 MB, for 120 s), share\n"
		"links max-min fairly, and are scheduled by ECMP (a path by hash),\n"
		"pVLB (a random path every 10 s) or DARD (dardd's own monitors and\n"
		"rounds: queries every 1 s, rounds every 5 s + U[0, 5 s], delta 10\n"
		"Mbit/s, elephants after 10 s). It prints the average transfer time\n"
		"and the 90th percentile and largest path switches per flow for\n"
		"each scheduler, and DARD's improvement by the paper's formula.\n"
		"\n"
		"--place:\n"
		"Places one demand of elephant flows on a multi-rooted tree with a\n"
		"routing algorithm and prints the placement as JSON: every flow's\n"
		"switches, every directed switch-to-switch link's load, the largest\n"
		"load L_D and the largest number of flows a host sends or receives\n"
		"NL_D (L_D >= NL_D for any placement; the SDN thesis, Theorem 1).\n"
		"\n"
		"  --topo TOPO    fattree:P, clos:DI,DA[,HOSTS], 3tier[:PODS] or a\n"
		"                 configuration file (default fattree:4)\n"
		"  --algo ALGO    d-mod-k (the XGFT digit form, the default),\n"
		"                 d-mod-k-literal (port d mod k at every hop),\n"
		"                 s-mod-k, s-mod-k-literal, sdn-greedy (flows in\n"
		"                 the demand's order, each on the path whose most\n"
		"                 loaded link is least loaded, ties to the first),\n"
		"                 or sdn-optimal (full-bisection fat-trees: L_D =\n"
		"                 NL_D, Documentation/routing.md)\n"
		"  --demand D     a traffic pattern, one flow per host (stride: to\n"
		"                 the host one pod on; random; staggered 0.5/0.3), or\n"
		"                 a file of `SRC DST' host-name lines, # comments\n"
		"                 (default stride)\n"
		"  --seed N       for random and staggered (default 1)\n"
		"  -V, --version  -h, --help\n"
		"\n"
		"Exit status: 0 success, 1 error, 2 bad usage.\n");
}

/* A demand file: `SRC DST' per line; errors name the line. */
static long read_demand(const struct dard_topo *t, const char *path,
			struct dard_demand **out)
{
	struct dard_demand *d = NULL;
	size_t n = 0, cap = 0;
	char line[256];
	unsigned lineno = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		fprintf(stderr, "dard-sim: unable to open `%s': %s\n", path,
			strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		char a[64], b[64], extra[2];
		int k;

		lineno++;
		line[strcspn(line, "#\n")] = 0;
		k = sscanf(line, "%63s %63s %1s", a, b, extra);
		if (k <= 0)
			continue;
		if (k != 2) {
			fprintf(stderr, "%s:%u: expected `SRC DST'\n", path,
				lineno);
			goto bad;
		}
		if (n == cap) {
			void *p = realloc(d, (cap = cap ? 2 * cap : 64) *
						     sizeof(*d));

			if (!p)
				goto bad;
			d = p;
		}
		d[n].src = dard_topo_find(t, a);
		d[n].dst = dard_topo_find(t, b);
		if (d[n].src == DARD_NONE || !t->node[d[n].src].is_host ||
		    d[n].dst == DARD_NONE || !t->node[d[n].dst].is_host) {
			fprintf(stderr,
				"%s:%u: `%s' or `%s' is no host of %s\n", path,
				lineno, a, b, dard_topo_label(t));
			goto bad;
		}
		if (d[n].src == d[n].dst) {
			fprintf(stderr, "%s:%u: %s sends to itself\n", path,
				lineno, a);
			goto bad;
		}
		n++;
	}
	fclose(f);
	*out = d;
	return n;
bad:
	fclose(f);
	free(d);
	return -1;
}

/* One flow per host, the pattern's choice of destination. */
static long pattern_demand(const struct dard_topo *t, int pattern,
			   uint64_t seed, struct dard_demand **out)
{
	struct dard_traffic_opts o;
	struct dard_tflow *f;
	char err[DARD_ERR_MAX];
	uint8_t *done = calloc(t->nnodes, 1);
	struct dard_demand *d = calloc(t->nhosts, sizeof(*d));
	long n, i, k = 0;

	dard_traffic_opts_init(&o);
	o.pattern = pattern;
	o.seed = seed;
	o.rate = 1;
	/* e^-40: every host has an arrival, without millions of flows. */
	o.duration = 40;
	n = done && d ? dard_traffic_gen(t, &o, &f, err) : -ENOMEM;
	if (n < 0) {
		fprintf(stderr, "dard-sim: %s\n",
			n == -ENOMEM ? "out of memory" : err);
		free(done);
		free(d);
		return -1;
	}
	for (i = 0; i < n && k < (long)t->nhosts; i++)
		if (!done[f[i].src]) {
			done[f[i].src] = 1;
			d[k].src = f[i].src;
			d[k].dst = f[i].dst;
			k++;
		}
	free(f);
	free(done);
	*out = d;
	return k;
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

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* --run: the schedulers on one traffic, a line each. */
static int simulate(const struct dard_topo *t, const struct dard_plan *p,
		    const char *sched, const char *pattern, double rate,
		    double size, double duration, uint64_t seed)
{
	struct dard_traffic_opts to;
	struct dard_sim_opts so;
	struct dard_tflow *f;
	struct dard_sim_flow *out;
	char err[DARD_ERR_MAX];
	double avg[3] = {0}, *moves;
	long n, i;
	int s, only = -1;

	if (strcmp(sched, "all")) {
		only = dard_sim_sched_parse(sched);
		if (only < 0) {
			fprintf(stderr,
				"dard-sim: unknown --sched `%s': ecmp, pvlb, dard or all\n",
				sched);
			return 2;
		}
	}
	dard_traffic_opts_init(&to);
	to.pattern = dard_pattern_parse(pattern);
	if (to.pattern < 0) {
		fprintf(stderr, "dard-sim: unknown --pattern `%s'\n", pattern);
		return 2;
	}
	to.rate = rate;
	to.duration = duration;
	to.bytes = size * (1 << 20);
	to.seed = seed;
	n = dard_traffic_gen(t, &to, &f, err);
	if (n < 0) {
		fprintf(stderr, "dard-sim: %s\n", err);
		return 1;
	}
	out = calloc(n ? n : 1, sizeof(*out));
	moves = calloc(n ? n : 1, sizeof(*moves));
	if (!out || !moves)
		return 1;
	printf("%s, %s, %ld flows of %g MB, %g per second per source, seed %llu\n",
	       dard_topo_label(t), pattern, n, size, rate,
	       (unsigned long long)seed);
	printf("%-6s %12s %14s %12s\n", "sched", "avg time s", "p90 switches",
	       "max switches");
	for (s = DARD_SIM_ECMP; s <= DARD_SIM_DARD; s++) {
		if (only >= 0 && s != only)
			continue;
		dard_sim_opts_init(&so);
		so.sched = s;
		so.seed = seed;
		if (dard_sim_run(t, p, f, n, &so, out, err)) {
			fprintf(stderr, "dard-sim: %s\n", err);
			return 1;
		}
		for (i = 0; i < n; i++) {
			avg[s] += (out[i].end - out[i].start) / n;
			moves[i] = out[i].moves;
		}
		qsort(moves, n, sizeof(*moves), cmp_double);
		printf("%-6s %12.3f %14.0f %12.0f\n", dard_sim_sched_name(s),
		       avg[s], n ? moves[(n * 9) / 10 - (n >= 10)] : 0,
		       n ? moves[n - 1] : 0);
	}
	if (avg[DARD_SIM_ECMP] > 0 && avg[DARD_SIM_DARD] > 0)
		printf("improvement of DARD over ECMP (paper formula (1)): %.1f%%\n",
		       100 * (avg[DARD_SIM_ECMP] - avg[DARD_SIM_DARD]) /
			       avg[DARD_SIM_ECMP]);
	if (avg[DARD_SIM_PVLB] > 0 && avg[DARD_SIM_DARD] > 0)
		printf("improvement of DARD over pVLB: %.1f%%\n",
		       100 * (avg[DARD_SIM_PVLB] - avg[DARD_SIM_DARD]) /
			       avg[DARD_SIM_PVLB]);
	free(f);
	free(out);
	free(moves);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{"place", no_argument, NULL, 'P'},
		{"run", no_argument, NULL, 'R'},
		{"sched", required_argument, NULL, 'S'},
		{"pattern", required_argument, NULL, 'p'},
		{"rate", required_argument, NULL, 'r'},
		{"size", required_argument, NULL, 'z'},
		{"duration", required_argument, NULL, 'D'},
		{"topo", required_argument, NULL, 't'},
		{"algo", required_argument, NULL, 'a'},
		{"demand", required_argument, NULL, 'd'},
		{"seed", required_argument, NULL, 's'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	const char *topo = "fattree:4", *algo = "d-mod-k", *demand = "stride";
	struct dard_config cfg = {0};
	struct dard_demand *d = NULL;
	struct dard_path *paths;
	struct dard_pathctx *pc;
	struct dard_plan_opts o;
	const struct dard_topo *t;
	char err[DARD_ERR_MAX + PATH_MAX], *end;
	json_object *doc, *flows, *links;
	uint64_t seed = 1;
	uint32_t *load, l;
	int opt, place = 0, run = 0, a = -1, pattern;
	const char *sched = "all", *rpattern = "stride";
	double rate = 5, size = 128, duration = 120;
	long n, i;

	while ((opt = getopt_long(argc, argv, "PRS:p:r:z:D:t:a:d:s:Vh",
				  longopts, NULL)) != -1) {
		switch (opt) {
		case 'P':
			place = 1;
			break;
		case 'R':
			run = 1;
			break;
		case 'S':
			sched = optarg;
			break;
		case 'p':
			rpattern = optarg;
			break;
		case 'r':
		case 'z':
		case 'D': {
			double v = strtod(optarg, &end);

			if (*end || end == optarg || !(v > 0) || v > 1e7) {
				fprintf(stderr,
					"dard-sim: --%s needs a positive number, not `%s'\n",
					opt == 'r'   ? "rate"
					: opt == 'z' ? "size"
						     : "duration",
					optarg);
				return 2;
			}
			*(opt == 'r'   ? &rate
			  : opt == 'z' ? &size
				       : &duration) = v;
			break;
		}
		case 't':
			topo = optarg;
			break;
		case 'a':
			algo = optarg;
			break;
		case 'd':
			demand = optarg;
			break;
		case 's':
			seed = strtoull(optarg, &end, 10);
			if (*end || end == optarg) {
				fprintf(stderr,
					"dard-sim: --seed needs a number, not `%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'V':
			printf("dard-sim %s\n", DARD_VERSION);
			return 0;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (place + run != 1 || optind != argc) {
		fprintf(stderr, "dard-sim: %s\n",
			optind != argc ? "unexpected arguments"
				       : "give --place or --run");
		usage(stderr);
		return 2;
	}
	for (i = 0; i < (long)(sizeof(algos) / sizeof(algos[0])); i++)
		if (!strcmp(algo, algos[i]))
			a = i;
	if (place && a < 0) {
		fprintf(stderr, "dard-sim: unknown --algo `%s' (try --help)\n",
			algo);
		return 2;
	}
	if (dard_gen_is_spec(topo)) {
		cfg.topo = dard_gen_spec(topo, 1000, err);
		if (cfg.topo) {
			dard_plan_opts_init(&o);
			/* Big trees need more alias bits than 10/8 has. */
			if (cfg.topo->nhosts > 8192)
				dard_prefix_parse("16.0.0.0/4", &o.base);
			cfg.plan = dard_plan_new(cfg.topo, &o, err);
		}
		if (!cfg.topo || !cfg.plan) {
			fprintf(stderr, "dard-sim: %s: %s\n", topo, err);
			return 1;
		}
	} else if (dard_config_read(&cfg, topo, NULL, 0, err, sizeof(err))) {
		fprintf(stderr, "dard-sim: %s\n", err);
		return 1;
	}
	t = cfg.topo;
	if (run)
		return simulate(t, cfg.plan, sched, rpattern, rate, size,
				duration, seed);
	pattern = dard_pattern_parse(demand);
	n = pattern >= 0 ? pattern_demand(t, pattern, seed, &d)
			 : read_demand(t, demand, &d);
	if (n < 0)
		return 1;
	pc = dard_pathctx_new(t, cfg.plan);
	paths = calloc(n ? n : 1, sizeof(*paths));
	load = calloc(2 * (size_t)t->nlinks, sizeof(*load));
	if (!pc || !paths || !load) {
		fprintf(stderr, "dard-sim: out of memory\n");
		return 1;
	}
	if (a == 4) {
		if (dard_route_greedy(pc, t, d, n, load, paths)) {
			fprintf(stderr, "dard-sim: no path for a flow\n");
			return 1;
		}
	} else if (a == 5) {
		char e2[DARD_ERR_MAX];

		if (dard_route_optimal(pc, t, d, n, paths, e2)) {
			fprintf(stderr, "dard-sim: %s\n", e2);
			return 1;
		}
		for (i = 0; i < n; i++)
			dard_route_load(t, &paths[i], load);
	} else {
		static const int which[] = {
			DARD_DMODK_DIGIT, DARD_DMODK_LITERAL, DARD_SMODK_DIGIT,
			DARD_SMODK_LITERAL};

		for (i = 0; i < n; i++) {
			if (dard_route_modk(pc, t, d[i].src, d[i].dst, which[a],
					    &paths[i])) {
				fprintf(stderr,
					"dard-sim: no %s path from %s to %s\n",
					algo, t->node[d[i].src].name,
					t->node[d[i].dst].name);
				return 1;
			}
			dard_route_load(t, &paths[i], load);
		}
	}
	doc = json_object_new_object();
	flows = json_object_new_array();
	for (i = 0; i < n; i++) {
		json_object *f = json_object_new_object();

		json_object_object_add(
			f, "src",
			json_object_new_string(t->node[d[i].src].name));
		json_object_object_add(
			f, "dst",
			json_object_new_string(t->node[d[i].dst].name));
		json_object_object_add(f, "path", names(t, &paths[i]));
		json_object_array_add(flows, f);
	}
	links = json_object_new_array();
	for (l = 0; l < 2 * t->nlinks; l++) {
		const struct dard_link *k = &t->link[l / 2];
		json_object *o2;

		if (!load[l])
			continue;
		o2 = json_object_new_object();
		json_object_object_add(
			o2, "from",
			json_object_new_string(
				t->node[l % 2 ? k->up : k->down].name));
		json_object_object_add(
			o2, "to",
			json_object_new_string(
				t->node[l % 2 ? k->down : k->up].name));
		json_object_object_add(o2, "load",
				       json_object_new_int64(load[l]));
		json_object_array_add(links, o2);
	}
	json_object_object_add(doc, "topology",
			       json_object_new_string(dard_topo_label(t)));
	json_object_object_add(doc, "algo", json_object_new_string(algo));
	json_object_object_add(doc, "flows", flows);
	json_object_object_add(doc, "links", links);
	json_object_object_add(
		doc, "L_D",
		json_object_new_int64(dard_route_max_load(t, load)));
	json_object_object_add(
		doc, "NL_D",
		json_object_new_int64(dard_route_node_load(t, d, n)));
	puts(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN));
	json_object_put(doc);
	free(paths);
	free(load);
	free(d);
	dard_pathctx_free(pc);
	dard_config_free(&cfg);
	return 0;
}
