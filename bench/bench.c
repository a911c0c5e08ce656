// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-bench: how long the library takes to generate a topology, plan its
 * addresses, enumerate paths and build every switch's tables, and how much
 * memory that needs. Each topology runs in its own child process so that
 * the peak RSS reported is that topology's alone. Prints a markdown table.
 *
 *   dard-bench [-s SOURCES] [SPEC[@BASE]...]
 */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "addr.h"
#include "clock.h"
#include "gen.h"
#include "num.h"
#include "path.h"
#include "table.h"

enum { MAX_RUNS = 16, DEFAULT_SOURCES = 16 };

/* fattree:48 needs 26 alias bits, more than a /8 leaves. */
static const char *const default_runs[] = {
	"fattree:8",
	"fattree:32",
	"fattree:48@16.0.0.0/4",
};

/* Filled by the child in shared memory, read by the parent. */
struct result {
	int ok;
	char err[DARD_ERR_MAX];
	char layout[48];
	uint32_t hosts, switches, tors, srcs;
	uint64_t aliases, pairs, paths, entries;
	double gen_ms, plan_ms, alias_ms, path_ms, table_ms;
	long maxrss_kb;
};

/* Keeps the results of the timed loops observable. */
static volatile uint64_t sink;

struct path_acc {
	uint64_t n, sum;
};

static int on_path(const struct dard_path *path, void *arg)
{
	struct path_acc *a = arg;

	a->n++;
	a->sum += path->saddr ^ path->daddr;
	return 0;
}

static int fail(struct result *r, const char *what, const char *err)
{
	snprintf(r->err, sizeof(r->err), "%s: %s", what, err);
	return -1;
}

/* First host of every ToR, in host order. */
static uint32_t *tor_hosts(const struct dard_topo *t, uint32_t *ntors)
{
	uint8_t *seen = calloc(t->nnodes, 1);
	uint32_t *first = calloc(t->nhosts, sizeof(*first));
	uint32_t i, n = 0;

	if (!seen || !first) {
		free(seen);
		free(first);
		return NULL;
	}
	for (i = 0; i < t->nhosts; i++) {
		uint32_t tor = dard_topo_tor(t, t->hosts[i]);

		if (!seen[tor]) {
			seen[tor] = 1;
			first[n++] = t->hosts[i];
		}
	}
	free(seen);
	*ntors = n;
	return first;
}

/* Paths from an evenly spread sample of source ToRs to every other ToR. */
static int bench_paths(const struct dard_topo *t, const struct dard_plan *p,
		       unsigned nsrc, struct result *r)
{
	struct path_acc acc = {0};
	struct dard_pathctx *c;
	uint32_t *first, ntors, i, j;
	double t0;

	first = tor_hosts(t, &ntors);
	c = dard_pathctx_new(t, p);
	if (!first || !c) {
		free(first);
		dard_pathctx_free(c);
		return fail(r, "paths", "out of memory");
	}
	if (nsrc > ntors)
		nsrc = ntors;
	r->tors = ntors;
	r->srcs = nsrc;
	t0 = dard_clock_ms(CLOCK_MONOTONIC);
	for (i = 0; i < nsrc; i++) {
		uint32_t src = first[(uint64_t)i * ntors / nsrc];

		for (j = 0; j < ntors; j++) {
			if (first[j] == src)
				continue;
			if (dard_path_foreach(c, src, first[j], on_path, &acc) <
			    0) {
				free(first);
				dard_pathctx_free(c);
				return fail(r, "paths", "enumeration failed");
			}
			r->pairs++;
		}
	}
	r->path_ms = dard_clock_ms(CLOCK_MONOTONIC) - t0;
	r->paths = acc.n;
	sink += acc.sum;
	free(first);
	dard_pathctx_free(c);
	return 0;
}

/* Downhill and uphill tables of every switch, into one reused buffer. */
static int bench_tables(const struct dard_topo *t, const struct dard_plan *p,
			struct result *r)
{
	struct dard_route *out;
	uint32_t i, max = 1;
	uint64_t sum = 0;
	double t0;

	for (i = 0; i < t->nnodes; i++) {
		uint32_t d = dard_table_downhill_size(t, i);
		uint32_t u = dard_table_uphill_size(t, i);

		if (d > max)
			max = d;
		if (u > max)
			max = u;
	}
	out = calloc(max, sizeof(*out));
	if (!out)
		return fail(r, "tables", "out of memory");
	t0 = dard_clock_ms(CLOCK_MONOTONIC);
	for (i = 0; i < t->nnodes; i++) {
		uint32_t n;

		if (t->node[i].is_host)
			continue;
		n = dard_table_downhill(t, p, i, out);
		if (n)
			sum += out[n - 1].prefix ^ out[0].port;
		r->entries += n;
		n = dard_table_uphill(t, p, i, out);
		if (n)
			sum += out[n - 1].prefix ^ out[0].port;
		r->entries += n;
	}
	r->table_ms = dard_clock_ms(CLOCK_MONOTONIC) - t0;
	sink += sum;
	free(out);
	return 0;
}

static int bench_one(const char *run, unsigned nsrc, struct result *r)
{
	char spec[64], err[DARD_ERR_MAX] = "", *at;
	struct dard_plan_opts opts;
	struct dard_topo *t;
	struct dard_plan *p;
	uint64_t sum = 0;
	uint32_t i, j, f;
	double t0;
	int ret;

	snprintf(spec, sizeof(spec), "%s", run);
	dard_plan_opts_init(&opts);
	at = strchr(spec, '@');
	if (at) {
		*at++ = '\0';
		if (dard_prefix_parse(at, &opts.base))
			return fail(r, "base", "invalid prefix");
	}

	t0 = dard_clock_ms(CLOCK_MONOTONIC);
	t = dard_gen_spec(spec, 1000, err);
	r->gen_ms = dard_clock_ms(CLOCK_MONOTONIC) - t0;
	if (!t)
		return fail(r, "generate", err);
	r->hosts = t->nhosts;
	r->switches = t->nnodes - t->nhosts;

	t0 = dard_clock_ms(CLOCK_MONOTONIC);
	p = dard_plan_new(t, &opts, err);
	r->plan_ms = dard_clock_ms(CLOCK_MONOTONIC) - t0;
	if (!p) {
		dard_topo_free(t);
		return fail(r, "plan", err);
	}
	snprintf(r->layout, sizeof(r->layout), "%s ", dard_mode_name(p->mode));
	for (f = 0; f < p->nfields; f++)
		snprintf(r->layout + strlen(r->layout),
			 sizeof(r->layout) - strlen(r->layout), "%s%u",
			 f ? "+" : "", p->width[f]);

	t0 = dard_clock_ms(CLOCK_MONOTONIC);
	for (i = 0; i < t->nhosts; i++) {
		uint32_t h = t->hosts[i], n = dard_plan_naliases(t, h);

		for (j = 0; j < n; j++)
			sum += dard_plan_alias(t, p, h, j);
		r->aliases += n;
	}
	r->alias_ms = dard_clock_ms(CLOCK_MONOTONIC) - t0;
	sink += sum;

	ret = bench_paths(t, p, nsrc, r) ?: bench_tables(t, p, r);
	dard_plan_free(p);
	dard_topo_free(t);
	if (!ret)
		r->ok = 1;
	return ret;
}

/* Runs one topology (none if run is NULL) in a child; collects its RSS. */
static void run_child(const char *run, unsigned nsrc, struct result *r)
{
	struct rusage ru;
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fail(r, "fork", strerror(errno));
		return;
	}
	if (!pid)
		_exit(run && bench_one(run, nsrc, r) ? 1 : 0);
	if (wait4(pid, &status, 0, &ru) < 0) {
		fail(r, "wait4", strerror(errno));
		r->ok = 0;
		return;
	}
	r->maxrss_kb = ru.ru_maxrss;
	if (!WIFEXITED(status) && !r->err[0])
		snprintf(r->err, sizeof(r->err), "child killed by signal %d",
			 WTERMSIG(status));
}

/* 12345678 -> "12,345,678" */
static const char *num(uint64_t v, char *buf)
{
	char tmp[32];
	int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);
	int i, o = 0;

	for (i = 0; i < n; i++) {
		if (i && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256], *colon;

	snprintf(buf, len, "unknown CPU");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) ||
		    !(colon = strchr(line, ':')))
			continue;
		colon += strspn(colon, ": \t");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		break;
	}
	fclose(f);
}

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: dard-bench [ -s SOURCES ] [ SPEC[@BASE]... ]\n"
		"  SPEC is fattree:P, clos:DI,DA[,HOSTS] or 3tier[:PODS]; BASE the\n"
		"  alias prefix (default 10.0.0.0/8). Paths are enumerated from the\n"
		"  first host of SOURCES ToRs (default %d) to that of every ToR.\n"
		"  Default: fattree:8 fattree:32 fattree:48@16.0.0.0/4\n",
		DEFAULT_SOURCES);
}

int main(int argc, char **argv)
{
	const char *const *runs = default_runs;
	unsigned nsrc = DEFAULT_SOURCES, nruns, i;
	struct result *res, base = {0};
	char cpu[128], nb[7][32];
	int opt, rc = 0;

	while ((opt = getopt(argc, argv, "s:h")) != -1) {
		switch (opt) {
		case 's':
			if (dard_parse_u32(optarg, 1, UINT32_MAX, &nsrc)) {
				usage(stderr);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		runs = (const char *const *)argv + optind;
		nruns = argc - optind;
	} else {
		nruns = sizeof(default_runs) / sizeof(default_runs[0]);
	}
	if (nruns > MAX_RUNS) {
		fprintf(stderr, "dard-bench: at most %d topologies\n",
			MAX_RUNS);
		return 2;
	}
	res = mmap(NULL, (nruns + 1) * sizeof(*res), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED) {
		perror("dard-bench: mmap");
		return 1;
	}
	memset(res, 0, (nruns + 1) * sizeof(*res));

	/* A child that does nothing: the RSS every child starts from. */
	run_child(NULL, 0, &res[nruns]);
	base.maxrss_kb = res[nruns].maxrss_kb;

	printf("Command: `");
	for (i = 0; i < (unsigned)argc; i++)
		printf("%s%s", i ? " " : "", argv[i]);
	printf("` (dard %s)\n\n", DARD_VERSION);
	cpu_model(cpu, sizeof(cpu));
	printf("CPU: %s; times are wall clock (CLOCK_MONOTONIC), one run each.\n\n",
	       cpu);
	printf("| topology | alias base | layout | hosts | switches | gen ms | plan ms | aliases | aliases ms | path pairs | paths | paths ms | paths/s | table entries | tables ms | peak RSS MiB |\n");
	printf("|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n");
	for (i = 0; i < nruns; i++) {
		struct result *r = &res[i];
		const char *at = strchr(runs[i], '@');
		int speclen = at ? (int)(at - runs[i]) : (int)strlen(runs[i]);

		run_child(runs[i], nsrc, r);
		if (!r->ok) {
			fprintf(stderr, "dard-bench: %s: %s\n", runs[i],
				r->err[0] ? r->err : "failed");
			rc = 1;
			continue;
		}
		printf("| %.*s | %s | %s | %s | %s | %.1f | %.1f | %s | %.1f | %s | %s | %.1f | %s | %s | %.1f | %.1f |\n",
		       speclen, runs[i], at ? at + 1 : "10.0.0.0/8", r->layout,
		       num(r->hosts, nb[0]), num(r->switches, nb[1]), r->gen_ms,
		       r->plan_ms, num(r->aliases, nb[2]), r->alias_ms,
		       num(r->pairs, nb[3]), num(r->paths, nb[4]), r->path_ms,
		       num(r->path_ms > 0 ? r->paths / (r->path_ms / 1e3) : 0,
			   nb[6]),
		       num(r->entries, nb[5]), r->table_ms,
		       r->maxrss_kb / 1024.0);
		fflush(stdout);
	}
	printf("\npath pairs: from the first host of %u ToRs spread evenly to the first host of every other ToR. Peak RSS is the child's ru_maxrss from wait4(); an empty child peaks at %.1f MiB.\n",
	       nsrc, base.maxrss_kb / 1024.0);
	munmap(res, (nruns + 1) * sizeof(*res));
	return rc;
}
