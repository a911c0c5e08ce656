// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Oblivious mode (--algo oblivious): the hose-model oblivious routing LP
 * (daemon/algo/oblivious.h) solved for the tree with its failed links,
 * at start and whenever the set of failed links changes, and its path
 * weights pushed to every host as WEIGHTS sets: per destination ToR, the
 * weights of the paths from the host's ToR, quantized for the datapath.
 * Elephants stay DARD's: every ASSIGN carries SELF. A set goes out after
 * each new solution, every WEIGHTS_EVERY rounds, and to a host the first
 * round it is heard from; destination ToRs whose weights are even are
 * left out (the receiver takes them as even).
 */
#include <errno.h>
#include <glpk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ctlr.h"
#include "err.h"
#include "oblivious.h"

enum { WEIGHTS_EVERY = 5 };

int obl_init(struct ctlr *c)
{
	uint32_t r, tor;

	c->obl_gen = UINT64_MAX;
	c->tors = calloc(c->t->nnodes + 1, sizeof(*c->tors));
	c->obl_down = calloc(c->t->nlinks + 1, 1);
	if (!c->tors || !c->obl_down)
		return -ENOMEM;
	/*
	 * Ranks are node order among ToRs (dard_cp_tor_rank), taken in one
	 * pass: dard_cp_tor_of_rank() per rank walks the nodes each time,
	 * 2,048 times 71,680 of them on fattree:64.
	 */
	for (r = 0, tor = 0; tor < c->t->nnodes; tor++)
		if (!c->t->node[tor].is_host &&
		    dard_topo_tor_host(c->t, tor) != DARD_NONE)
			c->tors[r++] = tor;
	c->ntors = r;
	return 0;
}

void obl_fini(struct ctlr *c)
{
	/* A solve under way is waited for (GLPK's time limit bounds it). */
	if (c->obl_busy)
		pthread_join(c->obl_thr, NULL);
	c->obl_busy = 0;
	dard_obl_free(c->obl_res);
	dard_obl_free(c->obl);
	c->obl = c->obl_res = NULL;
	free(c->tors);
	free(c->obl_down);
	c->tors = NULL;
	c->obl_down = NULL;
}

/* The solver: reads only the tree (read-only) and what is its own. */
static void *solve(void *arg)
{
	struct ctlr *c = arg;

	c->obl_ret = dard_obl_solve(c->t, c->obl_pc, c->obl_down,
				    c->o.lp_columns, &c->obl_res, c->obl_err);
	__atomic_store_n(&c->obl_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* GLPK's environment is per thread: this one's goes with it. */
static void *solve_thread(void *arg)
{
	solve(arg);
	glp_free_env();
	return NULL;
}

/* Takes the solver's answer; keeps the last weights on error. */
static int install(struct ctlr *c)
{
	struct dard_obl *o = c->obl_res;
	size_t rows, cols;

	c->obl_res = NULL;
	/* Tried for this set, answer or not: not again every round. */
	c->obl_gen = c->obl_want;
	if (c->obl_ret) {
		log_err("oblivious: unable to solve for %u failed links: %s",
			c->nfailed, c->obl_err);
		return c->obl ? 0 : c->obl_ret;
	}
	dard_obl_free(c->obl);
	c->obl = o;
	c->obl_new = 1;
	c->st.obl_solves++;
	dard_obl_size(o, &rows, &cols);
	if (dard_obl_exact(o))
		log_info("oblivious: %u failed links, the LP's worst-case "
			 "utilisation %.3f (%zu rows, %zu columns)",
			 c->nfailed, dard_obl_util(o), rows, cols);
	else
		log_warn("oblivious: %u failed links, no LP (%s): even "
			 "weights over the surviving paths",
			 c->nfailed, dard_obl_why(o));
	return 0;
}

/*
 * Solving can take seconds (fattree:6) to GLPK's time limit: in the loop
 * it runs in a thread, and rounds go on pushing the last weights and
 * heartbeats meanwhile, so hosts do not fall back for it. A set of
 * failed links that changes while it solves is solved again after.
 */
int obl_update(struct ctlr *c)
{
	uint32_t i;

	if (c->obl_busy) {
		if (!__atomic_load_n(&c->obl_done, __ATOMIC_ACQUIRE))
			return 0;
		pthread_join(c->obl_thr, NULL);
		c->obl_busy = 0;
		if (install(c))
			return c->obl_ret;
	}
	if (c->obl && c->obl_gen == c->fail_gen)
		return 0;
	for (i = 0; i < c->t->nlinks; i++)
		c->obl_down[i] = !!c->down[i];
	c->obl_want = c->fail_gen;
	c->obl_done = 0;
	if (c->epfd >= 0 &&
	    !pthread_create(&c->obl_thr, NULL, solve_thread, c)) {
		c->obl_busy = 1;
		return 0;
	}
	solve(c);
	return install(c);
}

/* Whether quantized weights are even (a record the receiver infers). */
static int even(const uint16_t *q, unsigned n)
{
	unsigned i;

	for (i = 1; i < n; i++)
		if (q[i] > q[0] + 1 || q[i] + 1 < q[0])
			return 0;
	return 1;
}

static void send_set(struct ctlr *c, struct chost *h, struct dard_cp_msg *m,
		     uint64_t now)
{
	static uint8_t buf[DARD_CP_MSG_MAX];
	size_t len;

	m->seq = ctlr_next_seq(c);
	len = dard_cp_encode(buf, sizeof(buf), &c->keys->key[0], m);
	if (!len)
		return;
	if (c->xmit(c, buf, len, h->addr, h->port) < 0) {
		c->st.send_errors++;
		return;
	}
	c->st.weights++;
	c->st.weights_bytes += len;
	c->st.last_msgs++;
	c->st.last_bytes += len;
}

/* One host's WEIGHTS set, FIRST ... LAST. */
static void push_weights(struct ctlr *c, struct chost *h, uint64_t now)
{
	static struct dard_cp_msg m;
	uint32_t src = dard_topo_tor(c->t, h->node), r;
	uint16_t q[DARD_PATHS_MAX];

	m = (struct dard_cp_msg){.type = DARD_CP_WEIGHTS,
				 .algo = DARD_CP_ALGO_OBLIVIOUS,
				 .flags = DARD_CP_F_FIRST,
				 .topo = c->topo,
				 .epoch = c->epoch};
	for (r = 0; r < c->ntors; r++) {
		const double *w;
		unsigned n;

		if (c->tors[r] == src)
			continue;
		w = dard_obl_weights(c->obl, src, c->tors[r], &n);
		if (!w || !n || n > DARD_PATHS_MAX)
			continue;
		dard_obl_quantize(w, n, q);
		if (even(q, n))
			continue;
		if (dard_cp_add_weights(&m, r, q, n) == -ENOSPC) {
			send_set(c, h, &m, now);
			m.count = 0;
			m.flags &= ~DARD_CP_F_FIRST;
			dard_cp_add_weights(&m, r, q, n);
		}
	}
	m.flags |= DARD_CP_F_LAST;
	send_set(c, h, &m, now);
	h->wsent = c->epoch;
}

void obl_push(struct ctlr *c, uint64_t now)
{
	int all = c->obl_new || c->st.rounds % WEIGHTS_EVERY == 0;
	uint32_t i;

	if (!c->obl)
		return;
	for (i = 0; i < c->nhosts; i++) {
		struct chost *h = &c->host[i];

		if (host_live(h) && (all || !h->wsent))
			push_weights(c, h, now);
	}
	c->obl_new = 0;
}
