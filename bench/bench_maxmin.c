// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-bench-maxmin: max-min fair rates on the seed paper's 11,664-host
 * tree (fattree:36) for a random permutation and for 20 random
 * destinations per host (233,280 flows), each flow on one shortest path
 * chosen by destination (D-mod-k-like: path dst mod npaths). Only the
 * rate computation is timed; choosing the paths is set-up.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "../daemon/lib/gen.h"
#include "../daemon/lib/maxmin.h"
#include "../daemon/lib/path.h"

struct pick {
	const struct dard_topo *t;
	long want, seen;
	uint32_t *links;
	unsigned n;
};

static int pick_cb(const struct dard_path *p, void *arg)
{
	struct pick *k = arg;

	if (k->seen++ != k->want)
		return 0;
	k->n = dard_path_links(k->t, p, k->links);
	return 1;
}

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void run(struct dard_topo *t, struct dard_pathctx *pc, unsigned dests,
		const char *what)
{
	size_t nf = (size_t)t->nhosts * dests, i;
	struct dard_mm_flow *f = calloc(nf, sizeof(*f));
	uint32_t *links = calloc(nf * 8, sizeof(*links));
	double *cap = malloc(t->nlinks * sizeof(*cap)), *rate;
	uint32_t *perm = malloc(t->nhosts * sizeof(*perm)), h, d;
	double t0, ms;

	rate = malloc(nf * sizeof(*rate));
	if (!f || !links || !cap || !perm || !rate)
		exit(1);
	/* Links are undirected in the model: one capacity per direction
	 * would double the work but not change its shape. */
	for (i = 0; i < t->nlinks; i++)
		cap[i] = t->link[i].mbps;
	for (h = 0; h < t->nhosts; h++)
		perm[h] = h;
	for (d = 0; d < dests; d++) {
		/* Sattolo's shuffle: a random cycle, so nobody sends to
		 * itself. */
		for (h = t->nhosts - 1; h > 0; h--) {
			uint32_t r = rand() % h, x = perm[h];

			perm[h] = perm[r];
			perm[r] = x;
		}
		for (h = 0; h < t->nhosts; h++) {
			struct pick k = {
				t, 0, 0,
				links + ((size_t)d * t->nhosts + h) * 8, 0};
			uint32_t src = t->hosts[h], dst = t->hosts[perm[h]];
			long n = dard_path_count(pc, src, dst);

			k.want = n > 0 ? (long)(dst % n) : 0;
			dard_path_foreach(pc, src, dst, pick_cb, &k);
			f[(size_t)d * t->nhosts + h].links = k.links;
			f[(size_t)d * t->nhosts + h].nlinks = k.n;
		}
	}
	t0 = cpu_ms();
	if (dard_maxmin(cap, t->nlinks, f, nf, rate)) {
		fprintf(stderr, "maxmin failed\n");
		exit(1);
	}
	ms = cpu_ms() - t0;
	printf("| %s | %zu | %.1f |\n", what, nf, ms);
	free(f);
	free(links);
	free(cap);
	free(perm);
	free(rate);
}

int main(void)
{
	char err[DARD_ERR_MAX];
	struct dard_plan_opts o;
	struct dard_topo *t = dard_gen_spec("fattree:36", 1000, err);
	struct dard_plan *p;
	struct dard_pathctx *pc;

	if (!t) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	dard_plan_opts_init(&o);
	/* fattree:36 needs 25 alias bits: more than 10/8 leaves. */
	dard_prefix_parse("16.0.0.0/4", &o.base);
	p = dard_plan_new(t, &o, err);
	pc = p ? dard_pathctx_new(t, p) : NULL;
	if (!pc) {
		fprintf(stderr, "fattree:36: %s\n", p ? "out of memory" : err);
		return 1;
	}
	srand(1);
	printf("\nCommand: make bench (build/bin/dard-bench-maxmin), fattree:36, %u hosts, one thread\n\n",
	       t->nhosts);
	printf("| demand | flows | max-min rates, ms CPU |\n|---|--:|--:|\n");
	run(t, pc, 1, "random permutation");
	run(t, pc, 20, "20 random destinations per host");
	return 0;
}
