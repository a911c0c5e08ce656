// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * --run: the schedulers on one traffic, drawn or read from a flow file
 * (daemon/algo/flowsim.c), a line each, then the paper's improvements.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "traffic.h"
#include "workload.h"

/* One traffic and what each scheduler made of it. */
struct runner {
	const struct dard_topo *t;
	const struct dard_plan *p;
	const struct sim_args *a;
	struct dard_tflow *f;
	uint64_t *ids; /* with --flows: each flow's number */
	long n;
	struct dard_sim_flow *out;
	double *moves;
	double avg[DARD_SIM_NSCHED];
	FILE *csv;
	struct dard_sim_fail *fail; /* --fail, resolved */
	size_t nfail;
	struct dard_sim_degrade *degrade; /* --degrade, resolved */
	size_t ndegrade;
	/* With --workload: each flow's size, its time alone on an idle
	 * fabric, its slowdown under the scheduler run last, and each
	 * scheduler's slowdowns by size. */
	uint64_t *bytes;
	double *alone, *slow;
	struct dard_slowdown sl[DARD_SIM_NSCHED][DARD_NBUCKETS];
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The paper's formula (1): how much shorter b's average is than a's. */
static void improvement(const double *avg, int a, int b)
{
	if (avg[a] > 0 && avg[b] > 0)
		printf("improvement of %s over %s: %.1f%%\n",
		       dard_sim_sched_name(b), dard_sim_sched_name(a),
		       100 * (avg[a] - avg[b]) / avg[a]);
}

/*
 * What can be refused before any flow: a scheduler the tree or the
 * failures rule out (skipped, with a note, under all; dard_sim_check)
 * and a traffic too big to draw. The exit status, or 0.
 */
static int run_check(const struct dard_topo *t, const struct sim_args *a,
		     const struct runner *r, int *want)
{
	double flows = a->rate * a->duration * t->nhosts;
	struct dard_sim_opts so = a->sim;
	char err[DARD_ERR_MAX];
	int s;

	so.fail = r->fail;
	so.nfail = r->nfail;
	so.degrade = r->degrade;
	so.ndegrade = r->ndegrade;
	/* The others ignore it: a list without DARD asked for nothing. */
	if (a->sim.split > 1 && !want[DARD_SIM_DARD] &&
	    !want[DARD_SIM_DARD_PAPER]) {
		fprintf(stderr,
			"dard-sim: --split is for dard and dard-paper, and --sched `%s' has neither\n",
			a->sched);
		return 2;
	}
	for (s = 0; s < DARD_SIM_NSCHED; s++) {
		const char *name = dard_sim_sched_name(s);

		so.sched = s;
		if (!want[s] || !dard_sim_check(t, &so, err))
			continue;
		if (strcmp(a->sched, "all")) {
			fprintf(stderr, "dard-sim: %s: %s\n", name, err);
			return 1;
		}
		printf("%s skipped: %s\n", name, err);
		want[s] = 0;
	}
	if (a->workload)
		flows = dard_workload_rate(a->workload, a->load,
					   a->sim.link > 0 ? a->sim.link
							   : t->mbps) *
			a->duration * t->nhosts;
	/* Each flow costs about 200 bytes, and time; keep it to 10 GB. */
	if (!a->flows && flows > 5e7) {
		if (a->workload)
			fprintf(stderr,
				"dard-sim: --load %g of %s for %g s on %u hosts starts about %.3g flows; at most 5e7\n",
				a->load, a->workload_name, a->duration,
				t->nhosts, flows);
		else
			fprintf(stderr,
				"dard-sim: --rate %g for %g s on %u hosts starts about %.3g flows; at most 5e7\n",
				a->rate, a->duration, t->nhosts, flows);
		return 2;
	}
	return 0;
}

/* Scheduler s on the traffic: its line, and its CSV rows. */
static int run_one(struct runner *r, int s)
{
	const struct sim_args *a = r->a;
	const struct dard_topo *t = r->t;
	struct dard_sim_flow *out = r->out;
	struct dard_sim_opts so;
	struct dard_sim_stats st;
	char err[DARD_ERR_MAX];
	long i, n = r->n, nfin;

	so = a->sim;
	so.sched = s;
	so.fail = r->fail;
	so.nfail = r->nfail;
	so.degrade = r->degrade;
	so.ndegrade = r->ndegrade;
	if (dard_sim_run(t, r->p, r->f, n, &so, out, &st, err)) {
		fprintf(stderr, "dard-sim: %s: %s\n", dard_sim_sched_name(s),
			err);
		return -1;
	}
	/* Flows stalled for good (--fail) have no time: left out. */
	nfin = n - (long)st.unfinished;
	for (i = 0; i < n; i++) {
		if (out[i].end >= 0)
			r->avg[s] += (out[i].end - out[i].start) / nfin;
		r->moves[i] = out[i].moves;
		if (r->slow)
			r->slow[i] = out[i].end >= 0
					     ? (out[i].end - out[i].start) /
						       r->alone[i]
					     : -1;
		if (!r->csv)
			continue;
		fprintf(r->csv, "%s,%llu,%s,%s,%.6f,%.6f,%.6f,%u",
			dard_sim_sched_name(s),
			r->ids ? (unsigned long long)r->ids[i]
			       : (unsigned long long)i,
			t->node[r->f[i].src].name, t->node[r->f[i].dst].name,
			out[i].start, out[i].end, out[i].end - out[i].start,
			out[i].moves);
		if (r->slow)
			fprintf(r->csv, ",%llu,%.6f",
				(unsigned long long)r->bytes[i], r->slow[i]);
		fprintf(r->csv, "\n");
	}
	if (r->slow &&
	    dard_slowdown_stats(r->slow, r->bytes, n, r->sl[s]) < 0) {
		fprintf(stderr, "dard-sim: out of memory\n");
		return -1;
	}
	qsort(r->moves, n, sizeof(*r->moves), cmp_double);
	printf("%-18s %10.3f %8.0f %8.0f %9zu %12.0f %9.1f",
	       dard_sim_sched_name(s), r->avg[s],
	       n ? r->moves[(n * 9 + 9) / 10 - 1] : 0, n ? r->moves[n - 1] : 0,
	       st.elephants, st.end > 0 ? st.ctl_bytes / st.end : 0, st.end);
	if (r->nfail)
		printf(" %12.1f %10zu", st.stalled, st.unfinished);
	printf("\n");
	fflush(stdout);
	return 0;
}

/* The flows, drawn or read from --flows: 0 or -1, said. */
static int run_traffic(struct runner *r)
{
	const struct sim_args *a = r->a;
	struct dard_traffic_opts to;
	char err[DARD_ERR_MAX + PATH_MAX];

	if (a->flows) {
		r->n = sim_flows(r->t, a->flows, &r->f, &r->ids, err,
				 sizeof(err));
	} else {
		dard_traffic_opts_init(&to);
		to.pattern = a->pattern;
		to.rate = a->rate;
		to.duration = a->duration;
		to.bytes = a->size * (1 << 20);
		to.seed = a->sim.seed;
		if (a->workload) {
			to.workload = a->workload;
			to.load = a->load;
			to.mbps = a->sim.link;
			to.rate = 0;
			to.bytes = 0;
		}
		r->n = dard_traffic_gen(r->t, &to, &r->f, err);
	}
	if (r->n < 0) {
		r->f = NULL;
		r->ids = NULL;
		fprintf(stderr, "dard-sim: %s\n", err);
		return -1;
	}
	return 0;
}

/* A host's link capacity under the run's options, Mbit/s. */
static double host_mbps(const struct runner *r, uint32_t host)
{
	const struct dard_link *l;

	if (r->a->sim.link > 0)
		return r->a->sim.link;
	l = r->t->node[host].nup
		    ? dard_topo_port_link(r->t, host, r->t->node[host].up[0])
		    : NULL;
	return l ? l->mbps : r->t->mbps;
}

/*
 * Each flow's time alone on an idle fabric: its bits at the slower of
 * its two host links, at the goodput flows get of them. 0 or -ENOMEM.
 */
static int run_alone(struct runner *r)
{
	long i;

	r->bytes = malloc((r->n ? r->n : 1) * sizeof(*r->bytes));
	r->alone = malloc((r->n ? r->n : 1) * sizeof(*r->alone));
	r->slow = malloc((r->n ? r->n : 1) * sizeof(*r->slow));
	if (!r->bytes || !r->alone || !r->slow)
		return -ENOMEM;
	for (i = 0; i < r->n; i++) {
		double mbps = fmin(host_mbps(r, r->f[i].src),
				   host_mbps(r, r->f[i].dst));

		r->bytes[i] = r->f[i].bytes;
		r->alone[i] =
			r->f[i].bytes * 8 / 1e6 / (mbps * r->a->sim.goodput);
	}
	return 0;
}

/* The traffic, the room for outcomes, and the CSV file: 0 or -1, said. */
static int run_open(struct runner *r)
{
	const struct sim_args *a = r->a;

	if (run_traffic(r))
		return -1;
	r->out = calloc(r->n ? r->n : 1, sizeof(*r->out));
	r->moves = calloc(r->n ? r->n : 1, sizeof(*r->moves));
	if (!r->out || !r->moves || (a->workload && run_alone(r))) {
		fprintf(stderr, "dard-sim: out of memory\n");
		return -1;
	}
	if (!a->csv)
		return 0;
	r->csv = fopen(a->csv, "w");
	if (!r->csv) {
		fprintf(stderr, "dard-sim: unable to create `%s': %s\n", a->csv,
			strerror(errno));
		return -1;
	}
	fprintf(r->csv, "sched,flow,src,dst,start,end,time,moves%s\n",
		a->workload ? ",bytes,slowdown" : "");
	return 0;
}

/* What was simulated: the traffic, the seed, and links not as given. */
static void run_title(const struct runner *r)
{
	const struct sim_args *a = r->a;
	double bytes = 0;
	long i;

	if (a->flows) {
		for (i = 0; i < r->n; i++)
			bytes += r->f[i].bytes;
		printf("%s, %ld flows from %s, %.6g MB in all, seed %llu\n",
		       dard_topo_label(r->t), r->n, a->flows, bytes / (1 << 20),
		       (unsigned long long)a->sim.seed);
	} else if (a->workload) {
		printf("%s, %s, %ld flows of %s (mean %.3g MB) at load %g for %g s, seed %llu\n",
		       dard_topo_label(r->t), a->pattern_name, r->n,
		       a->workload_name, dard_workload_mean(a->workload) / 1e6,
		       a->load, a->duration, (unsigned long long)a->sim.seed);
	} else {
		printf("%s, %s, %ld flows of %g MB, %g per second per source for %g s, seed %llu\n",
		       dard_topo_label(r->t), a->pattern_name, r->n, a->size,
		       a->rate, a->duration, (unsigned long long)a->sim.seed);
	}
	if (a->sim.link > 0)
		printf("links at %g Mbit/s", a->sim.link);
	else if (a->sim.goodput < 1)
		printf("links at the topology's rates");
	if (a->sim.link > 0 || a->sim.goodput < 1)
		printf(", flows sharing %g of it (--goodput)\n",
		       a->sim.goodput);
	if (a->sim.split > 1)
		printf("dard, dard-paper: elephants split over up to %u paths (--split)\n",
		       a->sim.split);
}

/* Which links run degraded: the title says what was simulated. */
static void run_degraded(const struct runner *r)
{
	size_t i;

	for (i = 0; i < r->ndegrade; i++) {
		const struct dard_link *l = &r->t->link[r->degrade[i].link];

		printf("%s%s-%s at %g",
		       i ? ", " : "degraded: ", r->t->node[l->up].name,
		       r->t->node[l->down].name, r->degrade[i].factor);
	}
	if (r->ndegrade)
		printf("\n");
}

/* Each scheduler's slowdowns by flow size, a line each. */
static void print_slowdowns(const struct runner *r, const int *want)
{
	int s, b;

	printf("slowdown (completion time over the time alone on an idle fabric)\n");
	printf("%-18s", "sched");
	for (b = 0; b < DARD_NBUCKETS; b++)
		printf(" %8s %8s %8s", dard_size_bucket_name(b), "mean", "p99");
	printf("\n");
	for (s = 0; s < DARD_SIM_NSCHED; s++) {
		if (!want[s])
			continue;
		printf("%-18s", dard_sim_sched_name(s));
		for (b = 0; b < DARD_NBUCKETS; b++)
			printf(" %8zu %8.2f %8.2f", r->sl[s][b].n,
			       r->sl[s][b].mean, r->sl[s][b].p99);
		printf("\n");
	}
	printf("small: below 100 KB; medium: to 10 MB; large: 10 MB and more\n");
}

int sim_run(const struct dard_topo *t, const struct dard_plan *p,
	    const struct sim_args *a)
{
	struct runner r = {.t = t, .p = p, .a = a};
	int want[DARD_SIM_NSCHED], s, ret;
	char err[DARD_ERR_MAX];

	memcpy(want, a->want, sizeof(want));
	if (sim_fail_resolve(t, a, &r.fail, &r.nfail, err) ||
	    sim_degrade_resolve(t, a, &r.degrade, &r.ndegrade, err)) {
		fprintf(stderr, "dard-sim: %s\n", err);
		free(r.fail);
		return 2;
	}
	if (r.nfail && !strcmp(a->sched, "all"))
		want[DARD_SIM_SWITCH_ECMP] = 1;
	ret = run_check(t, a, &r, want);
	if (ret)
		goto out;
	ret = 1;
	if (run_open(&r))
		goto out;
	run_title(&r);
	if (r.nfail)
		printf("%zu link failures, switch-ecmp converging in %g s, rto %g s\n",
		       r.nfail, a->sim.converge, a->sim.rto);
	run_degraded(&r);
	printf("%-18s %10s %8s %8s %9s %12s %9s", "sched", "avg time s",
	       "p90 sw", "max sw", "elephants", "control B/s", "last end");
	printf(r.nfail ? " %12s %10s\n" : "\n", "stalled f-s", "unfinished");
	for (s = 0; s < DARD_SIM_NSCHED; s++)
		if (want[s] && run_one(&r, s))
			goto out;
	if (a->workload)
		print_slowdowns(&r, want);
	improvement(r.avg, DARD_SIM_ECMP, DARD_SIM_DARD);
	improvement(r.avg, DARD_SIM_PVLB, DARD_SIM_DARD);
	improvement(r.avg, DARD_SIM_DARD, DARD_SIM_HEDERA);
	ret = 0;
out:
	if (r.csv && fclose(r.csv) && !ret) {
		fprintf(stderr, "dard-sim: writing `%s': %s\n", a->csv,
			strerror(errno));
		ret = 1;
	}
	free(r.f);
	free(r.ids);
	free(r.out);
	free(r.moves);
	free(r.fail);
	free(r.degrade);
	free(r.bytes);
	free(r.alone);
	free(r.slow);
	return ret;
}
