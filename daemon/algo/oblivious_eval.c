// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The worst-case hose utilisation of given weights, link by link, and
 * the weights to compare: the LP's, uniform over live paths, ECMP as the
 * datapaths hash; and the datapath's integer form of weights.
 */
#include <errno.h>
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "oblivious_int.h"
#include "repair.h"

/* A pair's share of a link: sum of its weights on paths through it. */
struct share {
	uint32_t dl, a, b;
	double f;
};

struct eval {
	const struct dard_topo *t;
	const struct obl_tors *tr;
	dard_obl_weights_cb cb;
	void *arg;
	double w[DARD_PATHS_MAX];
	struct obl_hop *hop;
	struct share *sh;
	size_t nsh, cap;
	char *err;
};

static int check_weights(struct eval *e, const struct obl_pair *pp)
{
	const char *s = e->t->node[e->tr->node[pp->a]].name;
	const char *d = e->t->node[e->tr->node[pp->b]].name;
	double sum = 0;
	unsigned i;

	for (i = 0; i < pp->n; i++) {
		if (!isfinite(e->w[i]) || e->w[i] < 0)
			return dard_fail(e->err, -EINVAL,
					 "%s -> %s: weight %g of path %u", s, d,
					 e->w[i], i);
		if (pp->dead[i] && e->w[i] > 0)
			return dard_fail(
				e->err, -EINVAL,
				"%s -> %s: weight %g on dead path %u would be lost",
				s, d, e->w[i], i);
		sum += e->w[i];
	}
	if (fabs(sum - 1) > 1e-6)
		return dard_fail(e->err, -EINVAL,
				 "%s -> %s: weights sum to %.9g, not 1", s, d,
				 sum);
	return 0;
}

static int eval_pair(struct obl_pair *pp, void *arg)
{
	struct eval *e = arg;
	size_t nh, i, j;
	int ret;

	if (!pp->nlive)
		return 0;
	memset(e->w, 0, sizeof(e->w));
	ret = e->cb(e->tr->node[pp->a], e->tr->node[pp->b], pp->path, pp->dead,
		    pp->n, e->w, e->arg);
	if (ret)
		return dard_fail(e->err, ret, "%s -> %s: no weights: %s",
				 e->t->node[e->tr->node[pp->a]].name,
				 e->t->node[e->tr->node[pp->b]].name,
				 strerror(-ret));
	ret = check_weights(e, pp);
	if (ret)
		return ret;
	nh = obl_hops(pp, e->w, e->hop);
	for (i = 0; i < nh; i = j) {
		struct share s = {e->hop[i].dl, pp->a, pp->b, 0};

		for (j = i; j < nh && e->hop[j].dl == s.dl; j++)
			s.f += e->w[e->hop[j].path];
		if (e->nsh == e->cap) {
			size_t cap = e->cap ? 2 * e->cap : 4096;
			struct share *p = realloc(e->sh, cap * sizeof(*p));

			if (!p)
				return dard_fail(e->err, -ENOMEM,
						 "out of memory");
			e->sh = p;
			e->cap = cap;
		}
		e->sh[e->nsh++] = s;
	}
	return 0;
}

static int cmp_share(const void *x, const void *y)
{
	const struct share *p = x, *q = y;

	if (p->dl != q->dl)
		return p->dl < q->dl ? -1 : 1;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	return p->b < q->b ? -1 : p->b > q->b;
}

/*
 * The most one link can carry for these n pairs: maximise sum f T_ab
 * with each source's T_a. <= H_a and each destination's T_.b <= H_b (in
 * units of scale). row[] maps ToRs to rows: 0 unused, reset on return.
 */
static int worst_load(const struct share *sh, size_t n,
		      const struct obl_tors *tr, double scale, int *srow,
		      int *drow, double *load)
{
	glp_prob *lp = glp_create_prob();
	glp_smcp parm;
	size_t i;
	int ret = 0, r, c;

	glp_set_obj_dir(lp, GLP_MAX);
	for (i = 0; i < n; i++) {
		int ind[3];
		double val[3] = {0, 1, 1};

		if (!srow[sh[i].a]) {
			srow[sh[i].a] = r = glp_add_rows(lp, 1);
			glp_set_row_bnds(lp, r, GLP_UP, 0,
					 tr->h[sh[i].a] / scale);
		}
		if (!drow[sh[i].b]) {
			drow[sh[i].b] = r = glp_add_rows(lp, 1);
			glp_set_row_bnds(lp, r, GLP_UP, 0,
					 tr->h[sh[i].b] / scale);
		}
		c = glp_add_cols(lp, 1);
		glp_set_col_bnds(lp, c, GLP_LO, 0, 0);
		glp_set_obj_coef(lp, c, sh[i].f);
		ind[1] = srow[sh[i].a];
		ind[2] = drow[sh[i].b];
		glp_set_mat_col(lp, c, 2, ind, val);
	}
	glp_init_smcp(&parm);
	parm.msg_lev = GLP_MSG_OFF;
	if (glp_simplex(lp, &parm) || glp_get_status(lp) != GLP_OPT)
		ret = -EIO;
	*load = glp_get_obj_val(lp);
	glp_delete_prob(lp);
	for (i = 0; i < n; i++)
		srow[sh[i].a] = drow[sh[i].b] = 0;
	return ret;
}

static int eval_links(struct eval *e, double *util)
{
	const struct dard_topo *t = e->t;
	double scale = obl_scale(t), load;
	int *srow = calloc(e->tr->n + 1, sizeof(int));
	int *drow = calloc(e->tr->n + 1, sizeof(int));
	size_t i, j;
	int ret = 0;

	*util = 0;
	if (!srow || !drow) {
		ret = dard_fail(e->err, -ENOMEM, "out of memory");
		goto out;
	}
	qsort(e->sh, e->nsh, sizeof(*e->sh), cmp_share);
	for (i = 0; i < e->nsh; i = j) {
		uint32_t dl = e->sh[i].dl;

		for (j = i; j < e->nsh && e->sh[j].dl == dl; j++)
			;
		ret = worst_load(e->sh + i, j - i, e->tr, scale, srow, drow,
				 &load);
		if (ret) {
			ret = dard_fail(e->err, ret,
					"GLPK found no worst case for %s-%s",
					t->node[t->link[dl / 2].up].name,
					t->node[t->link[dl / 2].down].name);
			goto out;
		}
		load /= t->link[dl / 2].mbps / scale;
		*util = load > *util ? load : *util;
	}
out:
	free(srow);
	free(drow);
	return ret;
}

int dard_obl_eval(const struct dard_topo *t, struct dard_pathctx *pc,
		  const uint8_t *down, dard_obl_weights_cb cb, void *arg,
		  double *util, char *err)
{
	struct eval e = {.t = t, .cb = cb, .arg = arg, .err = err};
	struct obl_tors tr;
	struct obl_pair *pp = NULL;
	int ret;

	if (!cb || !util)
		return dard_fail(err, -EINVAL, "no %s given",
				 cb ? "result" : "weights callback");
	ret = obl_check(t, pc, down, t ? t->nlinks : 0, err);
	if (ret)
		return ret;
	ret = obl_tors_init(&tr, t, down, err);
	if (ret)
		return ret;
	e.tr = &tr;
	pp = malloc(sizeof(*pp));
	e.hop = malloc(DARD_PATHS_MAX * 2 * DARD_LEVEL_MAX * sizeof(*e.hop));
	if (!pp || !e.hop) {
		ret = dard_fail(err, -ENOMEM, "out of memory");
		goto out;
	}
	ret = obl_each_pair(t, pc, down, &tr, pp, eval_pair, &e, err);
	if (!ret)
		ret = eval_links(&e, util);
out:
	free(pp);
	free(e.hop);
	free(e.sh);
	obl_tors_free(&tr);
	return ret;
}

int dard_obl_cb(uint32_t src_tor, uint32_t dst_tor,
		const struct dard_path *paths, const uint8_t *dead, unsigned n,
		double *w, void *arg)
{
	unsigned m = 0;
	const double *v = dard_obl_weights(arg, src_tor, dst_tor, &m);

	/* A solution for other failures: its pair is not this one. */
	if (!v || m != n)
		return -ESTALE;
	memcpy(w, v, n * sizeof(*w));
	return 0;
}

int dard_obl_live_cb(uint32_t src_tor, uint32_t dst_tor,
		     const struct dard_path *paths, const uint8_t *dead,
		     unsigned n, double *w, void *arg)
{
	unsigned i, live = 0;

	for (i = 0; i < n; i++)
		live += !dead[i];
	for (i = 0; i < n; i++)
		w[i] = dead[i] ? 0 : 1.0 / live;
	return 0;
}

/* The first live path after i, going round (dard_next_live's rule). */
static unsigned next_live(const uint8_t *dead, unsigned i, unsigned n)
{
	unsigned k;

	for (k = 1; k < n; k++)
		if (!dead[(i + k) % n])
			return (i + k) % n;
	return i;
}

int dard_obl_ecmp_cb(uint32_t src_tor, uint32_t dst_tor,
		     const struct dard_path *paths, const uint8_t *dead,
		     unsigned n, double *w, void *arg)
{
	unsigned i;

	for (i = 0; i < n; i++)
		w[dead[i] ? next_live(dead, i, n) : i] += 1.0 / n;
	return 0;
}

int dard_obl_repair_cb(uint32_t src_tor, uint32_t dst_tor,
		       const struct dard_path *paths, const uint8_t *dead,
		       unsigned n, double *w, void *arg)
{
	uint8_t next[DARD_PATHS_MAX];
	unsigned i, j;

	dard_repair_order(paths, n, next);
	/* move_on(): the repair order's next, or the next live after it. */
	for (i = 0; i < n; i++) {
		j = i;
		if (dead[i]) {
			j = next[i];
			if (dead[j])
				j = next_live(dead, j, n);
		}
		w[j] += 1.0 / n;
	}
	return 0;
}

/* The largest entry: it can spare one (n <= 256 < DARD_OBL_WEIGHT_SUM). */
static unsigned largest(const uint16_t *out, unsigned n)
{
	unsigned i, big = 0;

	for (i = 1; i < n; i++)
		if (out[i] > out[big])
			big = i;
	return big;
}

void dard_obl_quantize(const double *w, unsigned n, uint16_t *out)
{
	double sum = 0, frac[DARD_PATHS_MAX];
	unsigned i, best, total = 0;

	for (i = 0; i < n && n <= DARD_PATHS_MAX; i++)
		sum += w[i] > 0 ? w[i] : 0;
	memset(out, 0, n * sizeof(*out));
	if (!(sum > 0) || !isfinite(sum))
		return;
	for (i = 0; i < n; i++) {
		double x = w[i] > 0 ? w[i] / sum * DARD_OBL_WEIGHT_SUM : 0;

		out[i] = (uint16_t)floor(x);
		frac[i] = w[i] > 0 ? x - out[i] : -1;
		total += out[i];
	}
	/* Largest remainders first, the lower index among equals. */
	while (total < DARD_OBL_WEIGHT_SUM) {
		for (best = n, i = 0; i < n; i++)
			if (frac[i] >= 0 && (best == n || frac[i] > frac[best]))
				best = i;
		if (best == n) /* rounding left more than one per path */
			best = largest(out, n);
		else
			frac[best] = -1;
		out[best]++;
		total++;
	}
	/* A path with a weight keeps a share: taken from the largest. */
	for (i = 0; i < n; i++) {
		if (w[i] > 0 && !out[i]) {
			out[largest(out, n)]--;
			out[i] = 1;
		}
	}
}
