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
	if (!c->tors)
		return -ENOMEM;
	/* Ranks are node order among ToRs (dard_cp_tor_rank): once here. */
	for (r = 0; (tor = dard_cp_tor_of_rank(c->t, r)) != DARD_NONE; r++)
		c->tors[r] = tor;
	c->ntors = r;
	return 0;
}

void obl_fini(struct ctlr *c)
{
	dard_obl_free(c->obl);
	c->obl = NULL;
	free(c->tors);
	c->tors = NULL;
}

/* Solves again when the failed links changed; keeps the last on error. */
int obl_update(struct ctlr *c)
{
	char err[DARD_ERR_MAX];
	struct dard_obl *o;
	uint8_t *down;
	size_t rows, cols;
	uint32_t i;
	int ret;

	if (c->obl && c->obl_gen == c->fail_gen)
		return 0;
	down = calloc(c->t->nlinks + 1, 1);
	if (!down)
		return -ENOMEM;
	for (i = 0; i < c->t->nlinks; i++)
		down[i] = !!c->down[i];
	ret = dard_obl_solve(c->t, c->pc, down, c->o.lp_columns, &o, err);
	free(down);
	if (ret) {
		log_err("oblivious: unable to solve for %u failed links: %s",
			c->nfailed, err);
		/* Tried for this set: not again every round. */
		c->obl_gen = c->fail_gen;
		return c->obl ? 0 : ret;
	}
	dard_obl_free(c->obl);
	c->obl = o;
	c->obl_gen = c->fail_gen;
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
