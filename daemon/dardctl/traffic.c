// SPDX-License-Identifier: GPL-2.0 OR MIT
/* dardctl traffic: the paper's traffic patterns as a list of flows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl.h"
#include "args.h"
#include "load.h"
#include "format.h"
#include "objects.h"
#include "objopts.h"
#include "traffic.h"
#include "workload.h"
#include "print.h"

static int usage(FILE *f)
{
	fprintf(f,
		"Usage: dardctl traffic gen [ pattern { stride | random | staggered } ]\n"
		"               [ step N ] [ torp P ] [ podp P ] [ rate R ] [ duration S ]\n"
		"               [ size MB ] [ seed N ] [ format { text | csv | json } ]\n"
		"               [ workload { websearch | datamining } [ load L ] ]\n"
		"               [ TOPO_OPTS ]\n");
	ctl_opts_usage(f, "Where: ", CTL_OPTS_TOPO);
	fprintf(f,
		"\n"
		"The elephant flows of one of the DARD paper's traffic patterns\n"
		"(section 4.1), sorted by start time. Every host is a source whose\n"
		"flows start as a Poisson process of rate R per second (default 0.1)\n"
		"for S seconds (default 60), each carrying MB megabytes (default 16).\n"
		"stride sends host x to host x + N (default: the number of hosts in a\n"
		"pod, so that every flow leaves its pod); random to any other host;\n"
		"staggered to a host under the same ToR with probability torp\n"
		"(default 0.5), in the same pod with podp (default 0.3), else to\n"
		"another pod. The same seed (default 1) gives the same flows.\n"
		"workload draws each flow's size from a measured distribution\n"
		"instead: websearch (DCTCP's, up to 30 MB, mean 1.7 MB) or\n"
		"datamining (VL2's, half of them one packet, up to 973 MB, mean\n"
		"7.5 MB); each host's flows then arrive at L (0.001 to 1;\n"
		"default 0.5) times its link's capacity over the mean size a second,\n"
		"so that its link carries L of its capacity on average, to random\n"
		"destinations unless pattern says otherwise. Not with rate or size.\n"
		"csv prints `id,start,src,dst,src_id,dst_id,bytes'.\n");
	return f == stdout ? CTL_OK : CTL_USAGE;
}

/*
 * A workload draws the sizes and the rate: rate or size would say the
 * traffic twice, and load alone nothing. Random destinations unless
 * pattern is given, as the workloads' own studies send. 0, or said.
 */
static int workload_opts(struct dard_traffic_opts *o, const char *fixed,
			 int pattern, int load)
{
	if (!o->workload) {
		if (!load)
			return 0;
		fprintf(stderr, "traffic gen: load is for a workload only\n");
		return -1;
	}
	if (fixed) {
		fprintf(stderr,
			"traffic gen: workload %s draws the sizes and load the rate: not with %s\n",
			dard_workload_name(o->workload), fixed);
		return -1;
	}
	o->rate = 0;
	o->bytes = 0;
	if (!load)
		o->load = 0.5;
	if (!pattern)
		o->pattern = DARD_PATTERN_RANDOM;
	return 0;
}

/* The flows as CSV, or as text or JSON (ctl_format's choice). */
static void print_flows(const struct dard_topo *t, const struct dard_tflow *f,
			long n, int csv)
{
	char b1[24], b2[24];
	long k;

	if (csv)
		printf("id,start,src,dst,src_id,dst_id,bytes\n");
	for (k = 0; k < n; k++) {
		dard_addr_str(t->node[f[k].src].id, b1);
		dard_addr_str(t->node[f[k].dst].id, b2);
		if (csv) {
			printf("%ld,%.6f,%s,%s,%s,%s,%llu\n", k, f[k].start,
			       t->node[f[k].src].name, t->node[f[k].dst].name,
			       b1, b2, (unsigned long long)f[k].bytes);
			continue;
		}
		open_json_object(NULL);
		print_uint(PRINT_ANY, "id", "%-5llu", k);
		print_float(PRINT_ANY, "start", " %10.3f", f[k].start);
		print_string(PRINT_ANY, "src", " %-8s", t->node[f[k].src].name);
		print_string(PRINT_ANY, "dst", " -> %-8s",
			     t->node[f[k].dst].name);
		print_string(PRINT_ANY, "src_id", " %s", b1);
		print_string(PRINT_ANY, "dst_id", " -> %s", b2);
		print_uint(PRINT_ANY, "bytes", " %llu\n", f[k].bytes);
		close_json_object();
	}
}

int do_traffic(struct ctl *c, int argc, char **argv)
{
	const char *format = "text", *fixed = NULL;
	int pattern = 0, load = 0;
	struct dard_traffic_opts o;
	struct dard_tflow *f = NULL;
	char err[DARD_ERR_MAX];
	const struct dard_topo *t;
	uint32_t step;
	double v;
	long n;
	int i;

	if (argc < 1)
		return usage(stderr);
	if (ctl_wants_help(argc, argv))
		return usage(stdout);
	if (strcmp(argv[0], "gen"))
		return ctl_unknown("traffic", argv[0]);
	dard_traffic_opts_init(&o);
	for (i = 1; i < argc; i += 2) {
		const char *kw = argv[i],
			   *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!val) {
			fprintf(stderr, "traffic gen: `%s' needs a value\n",
				kw);
			return usage(stderr);
		}
		if (!strcmp(kw, "pattern")) {
			o.pattern = dard_pattern_parse(val);
			if (o.pattern < 0) {
				fprintf(stderr,
					"traffic gen: unknown pattern `%s': expected stride, random or staggered\n",
					val);
				return CTL_USAGE;
			}
			pattern = 1;
		} else if (!strcmp(kw, "workload")) {
			o.workload = dard_workload_parse(val);
			if (o.workload < 0) {
				fprintf(stderr,
					"traffic gen: unknown workload `%s': expected websearch or datamining\n",
					val);
				return CTL_USAGE;
			}
		} else if (!strcmp(kw, "load")) {
			/* Below 0.1% a run would hold next to no flow. */
			if (ctl_parse_double(kw, val, 1e-3, 1, &o.load))
				return CTL_USAGE;
			load = 1;
		} else if (!strcmp(kw, "format")) {
			format = val;
			if (strcmp(format, "text") && strcmp(format, "csv") &&
			    strcmp(format, "json")) {
				fprintf(stderr,
					"Invalid format `%s': expected text, csv or json\n",
					format);
				return CTL_USAGE;
			}
		} else if (!strcmp(kw, "step")) {
			if (ctl_parse_u32(kw, val, 1, 1000000, &step))
				return CTL_USAGE;
			o.step = step;
		} else if (!strcmp(kw, "torp")) {
			if (ctl_parse_double(kw, val, 0, 1, &o.torp))
				return CTL_USAGE;
		} else if (!strcmp(kw, "podp")) {
			if (ctl_parse_double(kw, val, 0, 1, &o.podp))
				return CTL_USAGE;
		} else if (!strcmp(kw, "rate")) {
			if (ctl_parse_double(kw, val, 1e-6, 1e4, &o.rate))
				return CTL_USAGE;
			fixed = kw;
		} else if (!strcmp(kw, "duration")) {
			if (ctl_parse_double(kw, val, 1e-3, 1e6, &o.duration))
				return CTL_USAGE;
		} else if (!strcmp(kw, "size")) {
			/* Megabytes. */
			if (ctl_parse_double(kw, val, 1e-6, 1e6, &v))
				return CTL_USAGE;
			o.bytes = v * (1 << 20);
			fixed = kw;
		} else if (!strcmp(kw, "seed")) {
			if (ctl_parse_u64(kw, val, 0, 1000000000000000ULL,
					  &o.seed))
				return CTL_USAGE;
		} else {
			fprintf(stderr, "traffic gen: unexpected `%s'\n", kw);
			return usage(stderr);
		}
	}
	if (workload_opts(&o, fixed, pattern, load))
		return CTL_USAGE;
	if (ctl_format(c, format, "csv"))
		return CTL_USAGE;
	if (ctl_load(c))
		return CTL_ERR;
	t = c->cfg.topo;
	n = dard_traffic_gen(t, &o, &f, err);
	if (n < 0) {
		fprintf(stderr, "traffic gen: %s\n", err);
		return CTL_ERR;
	}
	print_flows(t, f, n, !strcmp(format, "csv"));
	free(f);
	return CTL_OK;
}
