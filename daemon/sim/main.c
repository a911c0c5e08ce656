// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-sim: the flow-level simulator. --place places one demand with a
 * routing algorithm and prints the placement as JSON, so that any
 * placement can be checked from outside; --run simulates the paper's
 * section 4.3 under each scheduler (daemon/lib/flowsim.c).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "cfgfile.h"
#include "gen.h"
#include "flowsim.h"
#include "route.h"
#include "traffic.h"

#ifndef DARD_VERSION
#define DARD_VERSION "unknown"
#endif

/* --algo, in the order of algos[]. */
enum {
	ALGO_DMODK,
	ALGO_DMODK_LITERAL,
	ALGO_SMODK,
	ALGO_SMODK_LITERAL,
	ALGO_GREEDY,
	ALGO_OPTIMAL,
	ALGO_ADAPTIVE,
};

static const char *const algos[] = {
	"d-mod-k",    "d-mod-k-literal", "s-mod-k",	 "s-mod-k-literal",
	"sdn-greedy", "sdn-optimal",	 "sdn-adaptive",
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dard-sim --place [ --topo TOPO ] [ --algo ALGO ]\n"
		"                [ --demand { stride | random | staggered | FILE } ]\n"
		"                [ --seed N ]\n"
		"       dard-sim --run [ --topo TOPO ] [ --pattern P ] [ --rate R ]\n"
		"                [ --size MB ] [ --duration S ] [ --seed N ]\n"
		"                [ --sched LIST ] [ --step S ] [ --elephant-age S ]\n"
		"                [ --anneal N ] [ --large F ] [ --csv FILE ]\n"
		"\n"
		"--run:\n"
		"Simulates elephant flows at the flow level (the DARD paper, section\n"
		"4.3): from every host, flows arrive as a Poisson process to the\n"
		"destinations the pattern draws (as dardctl traffic gen), share links\n"
		"max-min fairly (its Appendix A) and run to completion. Each scheduler\n"
		"starts every flow on the same hashed path:\n"
		"  ecmp         never moves it;\n"
		"  pvlb         moves it to a random path every 10 s of its life;\n"
		"  dard         dardd's own monitors and rounds: elephants after 10\n"
		"               s, switch queries every 1 s, rounds every 5 s +\n"
		"               U[0, 5 s], delta 10 Mbit/s;\n"
		"  hedera       every 5 s, demand estimation and simulated annealing\n"
		"               over a path per destination host, for the flows the\n"
		"               edge switches report (Hedera's large flows, at 10%%\n"
		"               of their host link, and the elephants);\n"
		"  sdn-greedy   every 5 s, SDN-greedy over the same flows;\n"
		"  sdn-optimal  every 5 s, SDN-optimal over the same flows (fat-\n"
		"               trees whose aggregation switches have full\n"
		"               bisection, tapered ToRs allowed; under `all' it is\n"
		"               skipped on other trees, with a note).\n"
		"It prints, per scheduler, the average transfer time, the 90th\n"
		"percentile and largest path switches per flow, how many flows became\n"
		"elephants, the control traffic by the paper's message sizes (48 and\n"
		"32 bytes a query and reply, 80 a report, 72 a switch update) and the\n"
		"last completion; then DARD's improvement over ECMP and pVLB, and\n"
		"Hedera's over DARD, by the paper's formula (1).\n"
		"\n"
		"  --pattern P    stride (default), random or staggered (0.5, 0.3)\n"
		"  --rate R       flows per second per source (default 0.2)\n"
		"  --size MB      per flow (default 512)\n"
		"  --duration S   seconds in which flows arrive (default 120)\n"
		"                 The paper's ns-2 runs say 5 per second of 128 MB;\n"
		"                 on 1 Gbit/s links that is 5.4 times what a host\n"
		"                 link carries. The defaults load host links to 0.86\n"
		"                 (Documentation/experiments.md, \"Simulation\").\n"
		"  --sched LIST   comma-separated schedulers, or all (default)\n"
		"  --step S       rates are recomputed every S seconds (default\n"
		"                 0.25; 0.001 at least): arrivals wait for the next\n"
		"                 step and other events are taken at the step after\n"
		"                 them; 0 makes every event exact, which is slow on\n"
		"                 big trees\n"
		"  --elephant-age S  when a flow becomes an elephant (default 10)\n"
		"  --anneal N     Hedera's annealing steps per round (default 1000\n"
		"                 plus 10 per destination host)\n"
		"  --large F      the controllers' large-flow share (default 0.1;\n"
		"                 0 shows them every flow, 1 only the elephants)\n"
		"  --csv FILE     every flow of every scheduler: sched, flow, src,\n"
		"                 dst, start, end, time, moves\n"
		"\n"
		"--place:\n"
		"Places one demand of elephant flows on a multi-rooted tree with a\n"
		"routing algorithm and prints the placement as JSON: every flow's\n"
		"switches, every directed switch-to-switch link's load, the largest\n"
		"load L_D and the largest number of flows a host sends or receives\n"
		"NL_D (L_D >= NL_D for any placement; the SDN thesis, Theorem 1),\n"
		"and lower_bound, the larger of NL_D and any ToR's non-local flows\n"
		"over its up ports, rounded up: no single-path placement has a\n"
		"smaller L_D, and sdn-optimal reaches it.\n"
		"\n"
		"  --topo TOPO    fattree:P, clos:DI,DA[,HOSTS], 3tier[:PODS] or a\n"
		"                 configuration file (default fattree:4)\n"
		"  --algo ALGO    d-mod-k (the XGFT digit form, the default),\n"
		"                 d-mod-k-literal (port d mod k at every hop),\n"
		"                 s-mod-k, s-mod-k-literal, sdn-greedy (flows in\n"
		"                 the demand's order, each on the path whose most\n"
		"                 loaded link is least loaded, ties to the first),\n"
		"                 sdn-optimal (fat-trees with full-bisection\n"
		"                 aggregation: the smallest L_D, Documentation/\n"
		"                 routing.md), or sdn-adaptive (the SDN thesis:\n"
		"                 sdn-optimal when it places the demand free of\n"
		"                 contention, else adaptive multipath routing,\n"
		"                 shown as sdn-greedy's paths; \"choice\" says which)\n"
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

struct run_opts {
	const char *sched, *pattern, *csv;
	double rate, size, duration, step, age, large;
	unsigned anneal;
	uint64_t seed;
};

/* --sched: a comma-separated list, or all; marks want[]. */
static int parse_scheds(const char *list, int *want)
{
	char buf[256], *tok, *save;
	int s;

	if (!strcmp(list, "all")) {
		for (s = 0; s < DARD_SIM_NSCHED; s++)
			want[s] = 1;
		return 0;
	}
	snprintf(buf, sizeof(buf), "%s", list);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		s = dard_sim_sched_parse(tok);
		if (s < 0) {
			fprintf(stderr,
				"dard-sim: unknown scheduler `%s' in --sched: ecmp, pvlb, dard, hedera, sdn-greedy, sdn-optimal or all\n",
				tok);
			return -1;
		}
		want[s] = 1;
	}
	return 0;
}

/* The paper's formula (1): how much shorter b's average is than a's. */
static void improvement(const double *avg, int a, int b)
{
	if (avg[a] > 0 && avg[b] > 0)
		printf("improvement of %s over %s: %.1f%%\n",
		       dard_sim_sched_name(b), dard_sim_sched_name(a),
		       100 * (avg[a] - avg[b]) / avg[a]);
}

/* --run: the schedulers on one traffic, a line each. */
static int simulate(const struct dard_topo *t, const struct dard_plan *p,
		    const struct run_opts *r)
{
	struct dard_traffic_opts to;
	struct dard_sim_opts so;
	struct dard_sim_stats st;
	struct dard_tflow *f;
	struct dard_sim_flow *out;
	char err[DARD_ERR_MAX];
	double avg[DARD_SIM_NSCHED] = {0}, *moves;
	int want[DARD_SIM_NSCHED] = {0}, s, ret = 1;
	FILE *csv = NULL;
	long n, i;

	if (parse_scheds(r->sched, want))
		return 2;
	/* SDN-optimal's tree is known before any flow: say so up front. */
	if (want[DARD_SIM_OPTIMAL] && dard_route_optimal_check(t, err)) {
		if (strcmp(r->sched, "all")) {
			fprintf(stderr, "dard-sim: sdn-optimal: %s\n", err);
			return 1;
		}
		printf("sdn-optimal skipped: %s\n", err);
		want[DARD_SIM_OPTIMAL] = 0;
	}
	dard_traffic_opts_init(&to);
	to.pattern = dard_pattern_parse(r->pattern);
	if (to.pattern < 0) {
		fprintf(stderr,
			"dard-sim: unknown --pattern `%s': stride, random or staggered\n",
			r->pattern);
		return 2;
	}
	/* Each flow costs about 200 bytes, and time; keep it to 10 GB. */
	if (r->rate * r->duration * t->nhosts > 5e7) {
		fprintf(stderr,
			"dard-sim: --rate %g for %g s on %u hosts starts about %.3g flows; at most 5e7\n",
			r->rate, r->duration, t->nhosts,
			r->rate * r->duration * t->nhosts);
		return 2;
	}
	to.rate = r->rate;
	to.duration = r->duration;
	to.bytes = r->size * (1 << 20);
	to.seed = r->seed;
	n = dard_traffic_gen(t, &to, &f, err);
	if (n < 0) {
		fprintf(stderr, "dard-sim: %s\n", err);
		return 1;
	}
	out = calloc(n ? n : 1, sizeof(*out));
	moves = calloc(n ? n : 1, sizeof(*moves));
	if (!out || !moves) {
		fprintf(stderr, "dard-sim: out of memory\n");
		goto out;
	}
	if (r->csv) {
		csv = fopen(r->csv, "w");
		if (!csv) {
			fprintf(stderr, "dard-sim: unable to create `%s': %s\n",
				r->csv, strerror(errno));
			goto out;
		}
		fprintf(csv, "sched,flow,src,dst,start,end,time,moves\n");
	}
	printf("%s, %s, %ld flows of %g MB, %g per second per source for %g s, seed %llu\n",
	       dard_topo_label(t), r->pattern, n, r->size, r->rate, r->duration,
	       (unsigned long long)r->seed);
	printf("%-11s %10s %8s %8s %9s %12s %9s\n", "sched", "avg time s",
	       "p90 sw", "max sw", "elephants", "control B/s", "last end");
	for (s = 0; s < DARD_SIM_NSCHED; s++) {
		if (!want[s])
			continue;
		dard_sim_opts_init(&so);
		so.sched = s;
		so.seed = r->seed;
		so.step = r->step;
		so.elephant_age = r->age;
		so.anneal = r->anneal;
		so.large = r->large;
		if (dard_sim_run(t, p, f, n, &so, out, &st, err)) {
			fprintf(stderr, "dard-sim: %s: %s\n",
				dard_sim_sched_name(s), err);
			goto out;
		}
		for (i = 0; i < n; i++) {
			avg[s] += (out[i].end - out[i].start) / n;
			moves[i] = out[i].moves;
			if (csv)
				fprintf(csv, "%s,%ld,%s,%s,%.6f,%.6f,%.6f,%u\n",
					dard_sim_sched_name(s), i,
					t->node[f[i].src].name,
					t->node[f[i].dst].name, out[i].start,
					out[i].end, out[i].end - out[i].start,
					out[i].moves);
		}
		qsort(moves, n, sizeof(*moves), cmp_double);
		printf("%-11s %10.3f %8.0f %8.0f %9zu %12.0f %9.1f\n",
		       dard_sim_sched_name(s), avg[s],
		       n ? moves[(n * 9 + 9) / 10 - 1] : 0,
		       n ? moves[n - 1] : 0, st.elephants,
		       st.end > 0 ? st.ctl_bytes / st.end : 0, st.end);
		fflush(stdout);
	}
	improvement(avg, DARD_SIM_ECMP, DARD_SIM_DARD);
	improvement(avg, DARD_SIM_PVLB, DARD_SIM_DARD);
	improvement(avg, DARD_SIM_DARD, DARD_SIM_HEDERA);
	ret = 0;
out:
	if (csv && fclose(csv) && !ret) {
		fprintf(stderr, "dard-sim: writing `%s': %s\n", r->csv,
			strerror(errno));
		ret = 1;
	}
	free(f);
	free(out);
	free(moves);
	return ret;
}

/* The long name of a short option, for messages. */
static const char *option_name(const struct option *o, int val)
{
	for (; o->name; o++)
		if (o->val == val)
			return o->name;
	return "?";
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
		{"step", required_argument, NULL, 'T'},
		{"elephant-age", required_argument, NULL, 'E'},
		{"anneal", required_argument, NULL, 'A'},
		{"large", required_argument, NULL, 'L'},
		{"csv", required_argument, NULL, 'C'},
		{"topo", required_argument, NULL, 't'},
		{"algo", required_argument, NULL, 'a'},
		{"demand", required_argument, NULL, 'd'},
		{"seed", required_argument, NULL, 's'},
		{"version", no_argument, NULL, 'V'},
		{"help", no_argument, NULL, 'h'},
		{},
	};
	const char *topo = "fattree:4", *algo = "d-mod-k", *demand = "stride";
	const char *choice = NULL;
	char e2[DARD_ERR_MAX];
	int loaded = 0;
	struct dard_config cfg = {0};
	struct dard_demand *d = NULL;
	struct dard_path *paths;
	struct dard_pathctx *pc;
	struct dard_plan_opts o;
	const struct dard_topo *t;
	char err[DARD_ERR_MAX + PATH_MAX], *end;
	json_object *doc, *flows, *links;
	uint64_t seed = 1;
	uint32_t *load, l, nl, lb;
	int opt, place = 0, run = 0, a = -1, pattern, run_opt = 0,
		 place_opt = 0, ret;
	struct run_opts r = {
		.sched = "all",
		.pattern = "stride",
		.rate = 0.2,
		.size = 512,
		.duration = 120,
		.step = 0.25,
		.large = 0.1,
		.age = 10,
		.seed = 1,
	};
	long n, i;

	while ((opt = getopt_long(argc, argv,
				  "PRS:p:r:z:D:T:E:A:L:C:t:a:d:s:Vh", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'P':
			place = 1;
			break;
		case 'R':
			run = 1;
			break;
		case 'S':
			run_opt = opt;
			r.sched = optarg;
			break;
		case 'p':
			run_opt = opt;
			r.pattern = optarg;
			break;
		case 'C':
			run_opt = opt;
			r.csv = optarg;
			break;
		case 'r':
		case 'z':
		case 'D':
		case 'T':
		case 'E': {
			double v = strtod(optarg, &end);
			const char *name = opt == 'r'	? "rate"
					   : opt == 'z' ? "size"
					   : opt == 'D' ? "duration"
					   : opt == 'T' ? "step"
							: "elephant-age";

			/*
			 * A step or an age of 0 is meaningful: exact, all.
			 * Written to refuse NaN too. A step below 1 ms would
			 * take forever.
			 */
			run_opt = opt;
			if (*end || end == optarg || !(v >= 0 && v <= 1e7) ||
			    (v == 0 && opt != 'T' && opt != 'E') ||
			    (opt == 'T' && v > 0 && v < 1e-3)) {
				fprintf(stderr,
					"dard-sim: --%s needs %s, not `%s'\n",
					name,
					opt == 'T'
						? "0 or a number from 0.001 to 10^7"
					: opt == 'E'
						? "a number from 0 to 10^7"
						: "a positive number up to 10^7",
					optarg);
				return 2;
			}
			*(opt == 'r'   ? &r.rate
			  : opt == 'z' ? &r.size
			  : opt == 'D' ? &r.duration
			  : opt == 'T' ? &r.step
				       : &r.age) = v;
			break;
		}
		case 'L': {
			double v = strtod(optarg, &end);

			if (*end || end == optarg || !(v >= 0 && v <= 1)) {
				fprintf(stderr,
					"dard-sim: --large needs a fraction in [0, 1], not `%s'\n",
					optarg);
				return 2;
			}
			r.large = v;
			run_opt = opt;
			break;
		}
		case 'A': {
			unsigned long v = strtoul(optarg, &end, 10);

			if (*end || end == optarg || *optarg == '-' ||
			    v > 100000000) {
				fprintf(stderr,
					"dard-sim: --anneal needs a number of steps up to 10^8, not `%s'\n",
					optarg);
				return 2;
			}
			r.anneal = v;
			run_opt = opt;
			break;
		}
		case 't':
			topo = optarg;
			break;
		case 'a':
			algo = optarg;
			place_opt = opt;
			break;
		case 'd':
			demand = optarg;
			place_opt = opt;
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
	if ((place && run_opt) || (run && place_opt)) {
		fprintf(stderr, "dard-sim: --%s is for --%s only\n",
			option_name(longopts, place ? run_opt : place_opt),
			place ? "run" : "place");
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
	if (run) {
		r.seed = seed;
		ret = simulate(t, cfg.plan, &r);
		dard_config_free(&cfg);
		return ret;
	}
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
	switch (a) {
	case ALGO_ADAPTIVE:
		ret = dard_route_adaptive(pc, t, d, n, paths, e2);
		if (ret < 0) {
			fprintf(stderr, "dard-sim: %s\n", e2);
			return 1;
		}
		choice = ret == DARD_SDN_SINGLE ? "sdn-optimal" : "multipath";
		if (ret == DARD_SDN_SINGLE)
			break;
		/* Multipath: SDN-greedy's single paths stand in for it. */
		/* fall through */
	case ALGO_GREEDY:
		if (dard_route_greedy(pc, t, d, n, load, paths)) {
			fprintf(stderr, "dard-sim: no path for a flow\n");
			return 1;
		}
		loaded = 1;
		break;
	case ALGO_OPTIMAL:
		if (dard_route_optimal(pc, t, d, n, paths, e2)) {
			fprintf(stderr, "dard-sim: %s\n", e2);
			return 1;
		}
		break;
	default: {
		static const int which[] = {
			DARD_DMODK_DIGIT, DARD_DMODK_LITERAL, DARD_SMODK_DIGIT,
			DARD_SMODK_LITERAL};

		for (i = 0; i < n; i++)
			if (dard_route_modk(pc, t, d[i].src, d[i].dst, which[a],
					    &paths[i])) {
				fprintf(stderr,
					"dard-sim: no %s path from %s to %s\n",
					algo, t->node[d[i].src].name,
					t->node[d[i].dst].name);
				return 1;
			}
	}
	}
	/* SDN-greedy counts its loads as it goes; the others are counted. */
	for (i = 0; !loaded && i < n; i++)
		dard_route_load(t, &paths[i], load);
	if (dard_route_node_load(t, d, n, &nl, e2) ||
	    dard_route_lower_bound(t, d, n, &lb, e2)) {
		fprintf(stderr, "dard-sim: %s\n", e2);
		return 1;
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
	if (choice)
		json_object_object_add(doc, "choice",
				       json_object_new_string(choice));
	json_object_object_add(doc, "flows", flows);
	json_object_object_add(doc, "links", links);
	json_object_object_add(
		doc, "L_D",
		json_object_new_int64(dard_route_max_load(t, load)));
	json_object_object_add(doc, "NL_D", json_object_new_int64(nl));
	json_object_object_add(doc, "lower_bound", json_object_new_int64(lb));
	puts(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN));
	json_object_put(doc);
	free(paths);
	free(load);
	free(d);
	dard_pathctx_free(pc);
	dard_config_free(&cfg);
	return 0;
}
