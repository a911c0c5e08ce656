// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Reading an experiment directory (dir.h): meta, the layout (DIR's own
 * results.csv, or run1 ... runN), the topology meta names, and each
 * run's results.csv and model.csv; samples.c and flows.c judge each
 * scheduler's run.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cfgfile.h"
#include "dir.h"
#include "flows.h"
#include "num.h"
#include "readall.h"
#include "samples.h"

/* No file the script writes comes near it; /dev/zero is refused. */
enum { EXP_FILE_MAX = 1 << 30 };

int exp_path(char *out, const char *dir, const char *name, char *err)
{
	if (snprintf(out, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX)
		return exp_fail(err, -ENAMETOOLONG, "%s/%s: path too long", dir,
				name);
	return 0;
}

int exp_file(const char *path, char **buf, size_t *len, char *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0 && errno == ENOENT)
		return -ENOENT;
	if (fd < 0)
		return exp_fail(err, -errno, "Unable to open `%s': %s", path,
				strerror(errno));
	ret = dard_read_all(fd, EXP_FILE_MAX, buf, len);
	close(fd);
	if (ret)
		return exp_fail(err, ret, "Unable to read `%s': %s", path,
				strerror(-ret));
	return 0;
}

int exp_csv_file(struct exp_csv *c, const char *path, const char *const *cols,
		 unsigned ncols, int header, char *err)
{
	size_t len;
	char *buf;
	int ret = exp_file(path, &buf, &len, err);

	memset(c, 0, sizeof(*c));
	if (ret)
		return ret;
	ret = exp_csv_read(c, path, buf, len, cols, ncols, header, err);
	free(buf);
	if (ret)
		return ret;
	c->own = strdup(path);
	if (!c->own) {
		exp_csv_free(c);
		return exp_fail(err, -ENOMEM, "out of memory");
	}
	c->name = c->own;
	return 0;
}

/* A number meta may hold (NAN when absent): refused if it is not one. */
static int meta_num(struct exp *e, const char *path, const char *key,
		    double min, double max, double *v, char *err)
{
	unsigned line;
	const char *s = exp_kv_get(&e->meta.kv, key, &line);
	int ret;

	*v = NAN;
	if (!s)
		return 0;
	ret = dard_parse_double(s, min, max, v);
	if (ret)
		return exp_fail(err, -EINVAL, "%s:%u: %s `%s': %s", path, line,
				key, s, dard_num_strerror(ret));
	return 0;
}

/* meta's schedulers, in their run order, and the seeds' words. */
static int meta_lists(struct exp *e, const char *path, char *err)
{
	unsigned line;
	const char *s = exp_kv_get(&e->meta.kv, "schedulers", &line);
	char name[DARD_NAME_MAX];
	size_t len;

	for (; s && *s; s += len + (s[len] == ',')) {
		len = strcspn(s, ",");
		if (!len || len >= sizeof(name))
			return exp_fail(err, -EINVAL,
					"%s:%u: schedulers: an empty or long "
					"name",
					path, line);
		memcpy(name, s, len);
		name[len] = '\0';
		if (exp_sched_index(e, name) < 0)
			return exp_fail(err, -EINVAL,
					"%s:%u: more than %d schedulers", path,
					line, EXP_SCHED_MAX);
	}
	s = exp_kv_get(&e->meta.kv, "seeds", &line);
	while (s && *(s += strspn(s, " "))) {
		char word[32];
		uint64_t v;

		len = strcspn(s, " ");
		snprintf(word, sizeof(word), "%.*s", (int)len, s);
		if (len >= sizeof(word) ||
		    dard_parse_u64(word, 0, UINT64_MAX, &v))
			return exp_fail(err, -EINVAL,
					"%s:%u: seeds: `%.*s' is not a seed",
					path, line, (int)len, s);
		s += len;
	}
	return 0;
}

static int load_meta(struct exp *e, char *err)
{
	struct exp_meta *m = &e->meta;
	char path[PATH_MAX], *buf;
	double runs, nproc, x;
	size_t len;
	int ret;

	m->link = m->goodput = m->loadavg = NAN;
	ret = exp_path(path, e->dir, "meta", err);
	if (!ret)
		ret = exp_file(path, &buf, &len, err);
	if (ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	ret = exp_kv_read(&m->kv, path, buf, len, err);
	free(buf);
	if (ret)
		return ret;
	m->have = 1;
	if ((ret = meta_num(e, path, "link", 1e-3, 1e7, &m->link, err)) ||
	    (ret = meta_num(e, path, "goodput", 1e-6, 1, &m->goodput, err)) ||
	    (ret = meta_num(e, path, "loadavg", 0, 1e6, &m->loadavg, err)) ||
	    (ret = meta_num(e, path, "runs", 1, EXP_RUN_MAX, &runs, err)) ||
	    (ret = meta_num(e, path, "nproc", 1, 1e6, &nproc, err)) ||
	    (ret = meta_num(e, path, "rate", 0, 1e7, &x, err)) ||
	    (ret = meta_num(e, path, "duration", 0, 1e7, &x, err)) ||
	    (ret = meta_num(e, path, "size", 0, 1e7, &x, err)))
		return ret;
	if ((isfinite(runs) && runs != floor(runs)) ||
	    (isfinite(nproc) && nproc != floor(nproc)))
		return exp_fail(err, -EINVAL, "%s: runs and nproc are counts",
				path);
	m->runs = isfinite(runs) ? (unsigned)runs : 0;
	m->nproc = isfinite(nproc) ? (unsigned)nproc : 0;
	m->topo = exp_kv_get(&m->kv, "topo", NULL);
	if (m->topo && !*m->topo)
		m->topo = NULL;
	return meta_lists(e, path, err);
}

/* meta's topology at its link rate, for the shares: noted if none. */
static void load_topo(struct exp *e)
{
	const struct dard_load_opts lo = {.mbps = 1000, .wide_base = 1};
	char err[DARD_ERR_MAX + PATH_MAX];

	if (!e->meta.topo) {
		if (e->meta.have)
			exp_note(e, "no topology in meta: no flow is judged "
				    "against its share");
		return;
	}
	if (dard_topo_load(&e->cfg, e->meta.topo, &lo, err, sizeof(err))) {
		exp_note(e,
			 "topology `%s': %s: no flow is judged against its "
			 "share",
			 e->meta.topo, err);
		return;
	}
	e->have_topo = 1;
}

/* run R's seed: the R-th word of meta's seeds. */
static void run_seed(const struct exp *e, unsigned r, char *out, size_t len)
{
	const char *s = exp_kv_get(&e->meta.kv, "seeds", NULL);
	size_t n;

	out[0] = '\0';
	for (; s && *(s += strspn(s, " ")); s += n, r--) {
		n = strcspn(s, " ");
		if (r == 1) {
			snprintf(out, len, "%.*s", (int)n, s);
			return;
		}
	}
}

/* The runs: DIR itself, meta's N, or run1 ... as far as they go. */
static int find_runs(struct exp *e, char *err)
{
	char path[PATH_MAX];
	struct stat st;
	unsigned n = 0, i;
	int ret;

	if ((ret = exp_path(path, e->dir, "results.csv", err)))
		return ret;
	e->single = !stat(path, &st);
	if (e->single) {
		n = 1;
	} else if (e->meta.runs) {
		n = e->meta.runs;
	} else {
		for (n = 0; n < EXP_RUN_MAX; n++)
			if (snprintf(path, sizeof(path), "%s/run%u/results.csv",
				     e->dir, n + 1) >= (int)sizeof(path) ||
			    stat(path, &st))
				break;
	}
	if (!n)
		return exp_fail(err, -ENOENT,
				"%s: no results.csv, run1/results.csv or meta: "
				"not an experiment directory",
				e->dir);
	e->run = calloc(n, sizeof(*e->run));
	if (!e->run)
		return exp_fail(err, -ENOMEM, "out of memory");
	e->nruns = n;
	for (i = 0; i < n; i++) {
		struct exp_run *r = &e->run[i];

		r->num = i + 1;
		if (e->single)
			ret = snprintf(r->dir, sizeof(r->dir), "%s", e->dir);
		else
			ret = snprintf(r->dir, sizeof(r->dir), "%s/run%u",
				       e->dir, i + 1);
		if (ret >= (int)sizeof(r->dir))
			return exp_fail(err, -ENAMETOOLONG, "%s: path too long",
					e->dir);
		run_seed(e, i + 1, r->seed, sizeof(r->seed));
	}
	return 0;
}

static const char *const results_cols[] = {
	"scheduler", "id", "src", "dst", "start", "seconds", "bytes", "moves",
};
enum { R_SCHED, R_ID, R_SRC, R_DST, R_START, R_SECS, R_BYTES, R_MOVES };

/* One results.csv row into f, checked; its scheduler's index in *si. */
static int result_row(struct exp *e, const struct exp_csv *c, size_t i,
		      struct exp_rflow *f, int *si, char *err)
{
	double x;
	unsigned moves;
	int ret;

	*si = exp_sched_index(e, exp_csv_str(c, i, R_SCHED));
	if (*si < 0)
		return exp_fail(err, -EINVAL,
				"%s:%u: scheduler `%s': empty, too long or "
				"more than %d",
				c->name, c->line[i], exp_csv_str(c, i, R_SCHED),
				EXP_SCHED_MAX);
	f->line = c->line[i];
	f->src = exp_csv_str(c, i, R_SRC);
	f->dst = exp_csv_str(c, i, R_DST);
	if (!*f->src || !*f->dst)
		return exp_fail(err, -EINVAL, "%s:%u: no src or dst", c->name,
				c->line[i]);
	if ((ret = exp_csv_uint(c, i, R_ID, UINT32_MAX, &f->id, err)) ||
	    (ret = exp_csv_num(c, i, R_START, 0, 1e9, 0, &f->start, err)) ||
	    (ret = exp_csv_num(c, i, R_SECS, 0, 1e9, 1, &f->seconds, err)) ||
	    (ret = exp_csv_num(c, i, R_BYTES, 0, 1e18, 0, &x, err)) ||
	    (ret = exp_csv_uint(c, i, R_MOVES, UINT32_MAX, &moves, err)))
		return ret;
	return 0;
}

/* The run's results: each scheduler's flows, counts and average. */
static int load_results(struct exp *e, struct exp_run *r, struct exp_csv *c,
			struct exp_rflow **rf, int **rs, char *err)
{
	char path[PATH_MAX];
	struct exp_cell *cell;
	double *sum;
	size_t i;
	int ret, s;

	if ((ret = exp_path(path, r->dir, "results.csv", err)))
		return ret;
	ret = exp_csv_file(c, path, results_cols, 8, 1, err);
	if (ret == -ENOENT)
		exp_note(e, "run %u: no results.csv", r->num);
	if (ret)
		return ret == -ENOENT ? 0 : ret;
	*rf = calloc(c->nrows ? c->nrows : 1, sizeof(**rf));
	*rs = calloc(c->nrows ? c->nrows : 1, sizeof(**rs));
	sum = calloc(EXP_SCHED_MAX, sizeof(*sum));
	if (!*rf || !*rs || !sum) {
		free(sum);
		return exp_fail(err, -ENOMEM, "out of memory");
	}
	for (i = 0; i < c->nrows; i++) {
		ret = result_row(e, c, i, &(*rf)[i], &s, err);
		if (ret)
			break;
		(*rs)[i] = s;
		cell = &r->cell[s];
		cell->present = 1;
		cell->flows++;
		if (isnan((*rf)[i].seconds))
			cell->failed++;
		else
			sum[s] += (*rf)[i].seconds;
	}
	for (s = 0; !ret && s < EXP_SCHED_MAX; s++) {
		cell = &r->cell[s];
		cell->avg = cell->flows > cell->failed
				    ? sum[s] / (cell->flows - cell->failed)
				    : NAN;
	}
	free(sum);
	return ret;
}

/* model.csv's rows, sorted by scheduler and flow. */
struct mrow {
	const char *sched;
	unsigned flow;
	double time;
};

static int by_sched_flow(const void *a, const void *b)
{
	const struct mrow *x = a, *y = b;
	int c = strcmp(x->sched, y->sched);

	return c ? c : (x->flow > y->flow) - (x->flow < y->flow);
}

static const struct mrow *mrow_find(const struct mrow *m, size_t n,
				    const char *sched, unsigned flow)
{
	struct mrow key = {sched, flow, 0};

	return bsearch(&key, m, n, sizeof(*m), by_sched_flow);
}

/* Each cell's model and bound: the mean time of its finished flows'. */
static void model_means(struct exp *e, struct exp_run *r, const struct mrow *m,
			size_t nm, const struct exp_rflow *rf, const int *rs,
			size_t nrf)
{
	double sum[EXP_SCHED_MAX] = {0}, bsum[EXP_SCHED_MAX] = {0};
	unsigned n[EXP_SCHED_MAX] = {0}, bn[EXP_SCHED_MAX] = {0};
	const struct mrow *x;
	unsigned s;
	size_t i;

	for (i = 0; i < nrf; i++) {
		if (isnan(rf[i].seconds))
			continue;
		x = mrow_find(m, nm, e->sched[rs[i]], rf[i].id);
		if (x && isfinite(x->time)) {
			sum[rs[i]] += x->time;
			n[rs[i]]++;
		}
		x = mrow_find(m, nm, "bound", rf[i].id);
		if (x && isfinite(x->time)) {
			bsum[rs[i]] += x->time;
			bn[rs[i]]++;
		}
	}
	for (s = 0; s < EXP_SCHED_MAX; s++) {
		r->cell[s].model = n[s] ? sum[s] / n[s] : NAN;
		r->cell[s].bound = bn[s] ? bsum[s] / bn[s] : NAN;
	}
}

static const char *const model_cols[] = {"sched", "flow", "time"};

static int load_model(struct exp *e, struct exp_run *r,
		      const struct exp_rflow *rf, const int *rs, size_t nrf,
		      char *err)
{
	char path[PATH_MAX];
	struct exp_csv c;
	struct mrow *m;
	size_t i;
	int ret;

	if ((ret = exp_path(path, r->dir, "model.csv", err)))
		return ret;
	ret = exp_csv_file(&c, path, model_cols, 3, 1, err);
	if (ret == -ENOENT) {
		exp_note(e, "run %u: no model.csv: no model or bound figures",
			 r->num);
		model_means(e, r, NULL, 0, rf, rs, 0);
		return 0;
	}
	if (ret)
		return ret;
	m = calloc(c.nrows ? c.nrows : 1, sizeof(*m));
	ret = m ? 0 : exp_fail(err, -ENOMEM, "out of memory");
	for (i = 0; !ret && i < c.nrows; i++) {
		m[i].sched = exp_csv_str(&c, i, 0);
		ret = exp_csv_uint(&c, i, 1, UINT32_MAX, &m[i].flow, err);
		if (!ret)
			ret = exp_csv_num(&c, i, 2, 0, 1e9, 1, &m[i].time, err);
	}
	if (!ret) {
		qsort(m, c.nrows, sizeof(*m), by_sched_flow);
		model_means(e, r, m, c.nrows, rf, rs, nrf);
	}
	free(m);
	exp_csv_free(&c);
	return ret;
}

static int load_run(struct exp *e, struct exp_run *r, char *err)
{
	struct exp_rflow *rf = NULL;
	struct exp_csv c = {0};
	int *rs = NULL, ret;
	unsigned s;
	double idle = 0;

	for (s = 0; s < EXP_SCHED_MAX; s++)
		r->cell[s] = (struct exp_cell){.avg = NAN,
					       .model = NAN,
					       .bound = NAN,
					       .idle = NAN,
					       .cpu_busy = NAN,
					       .below = NAN};
	r->idle = NAN;
	ret = load_results(e, r, &c, &rf, &rs, err);
	if (!ret && c.text)
		ret = load_model(e, r, rf, rs, c.nrows, err);
	for (s = 0; !ret && s < e->nsched; s++) {
		if (!r->cell[s].present)
			continue;
		ret = exp_judge_cell(e, r, s, rf, rs, c.nrows, err);
		if (r->cell[s].idle_n) {
			idle += r->cell[s].idle * r->cell[s].idle_n;
			r->idle_n += r->cell[s].idle_n;
		}
	}
	if (r->idle_n)
		r->idle = idle / r->idle_n;
	free(rf);
	free(rs);
	exp_csv_free(&c);
	return ret;
}

int exp_load(struct exp *e, const char *dir, char *err)
{
	unsigned i;
	int ret;

	memset(e, 0, sizeof(*e));
	if (snprintf(e->dir, sizeof(e->dir), "%s", dir) >= (int)sizeof(e->dir))
		return exp_fail(err, -ENAMETOOLONG, "%s: path too long", dir);
	if ((ret = load_meta(e, err)) || (ret = find_runs(e, err)))
		return ret;
	if (!e->meta.have)
		exp_note(e,
			 "no meta: the link rate, goodput, topology and load "
			 "average are unknown; averages only");
	load_topo(e);
	ret = exp_calib_load(e, err);
	for (i = 0; !ret && i < e->nruns; i++)
		ret = load_run(e, &e->run[i], err);
	return ret;
}

void exp_free(struct exp *e)
{
	exp_kv_free(&e->meta.kv);
	if (e->have_topo)
		dard_config_free(&e->cfg);
	free(e->run);
	e->run = NULL;
}
