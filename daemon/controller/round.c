// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A controller round (Documentation/routing.md, "dard-controller"): the
 * live hosts' elephants placed by the algorithm, then an ASSIGN set to
 * every live host with its own flows' path indices. What a round keeps:
 * - sdn-greedy places only the flows without a path (new ones, those a
 *   host could not move, those on a failed link), given the loads of the
 *   flows it keeps (the thesis's Algorithm 2 run incrementally);
 * - sdn-optimal keeps every path while the demand only shrank and its
 *   L_D is still the lower bound; otherwise it colours the whole demand
 *   at the ToRs afresh (dard_route_optimal_tor) and runs the local search
 *   (dard_route_refine_rows) with each flow's current path preferred:
 *   a flow moves only where the new placement gains. A failed link is
 *   full to the search, so flows leave it for the least loaded live path
 *   (the colouring assumes the intact tree: L_D is then best effort);
 * - sdn-adaptive is sdn-optimal while the demand is at most a
 *   permutation (lower bound 1) and no link has failed, else SELF: hosts
 *   schedule by DARD, which routes around dead paths itself.
 * Failed links carry a load no flow can reach, so SDN-greedy's min-max
 * choice takes a path over them only when every path crosses one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "ctlr.h"
#include "err.h"
#include "route.h"
#include "sched.h"

enum { FAILED_LOAD = 1U << 30 };

/* One flow of the round: whose, and its paths. */
struct rflow {
	struct chost *h;
	struct cflow *f;
	const struct cpset *ps;
	int fresh; /* without a path when the round began */
};

int round_init(struct ctlr *c, char *err)
{
	/* Above any epoch we sent before a restart (cproto.h). */
	c->epoch_base = dard_cp_first_epoch(dard_clock_ns(CLOCK_REALTIME));
	c->epoch = c->epoch_base;
	c->seq = 0;
	c->load = calloc(2 * (size_t)c->t->nlinks + 1, sizeof(*c->load));
	if (!c->load)
		return dard_fail(err, -ENOMEM, "out of memory");
	if (c->o.algo == DARD_CP_ALGO_OPTIMAL ||
	    c->o.algo == DARD_CP_ALGO_ADAPTIVE)
		return dard_route_tree_new(c->t, &c->rt, err);
	return 0;
}

void round_fini(struct ctlr *c)
{
	dard_route_tree_free(c->rt);
	c->rt = NULL;
	free(c->load);
	c->load = NULL;
}

static size_t live_flows(const struct ctlr *c)
{
	size_t n = 0;
	uint32_t i;

	for (i = 0; i < c->nhosts; i++)
		if (host_live(&c->host[i]))
			n += c->host[i].nflows;
	return n;
}

/* The live hosts' flows, into *out (to free); -ENOMEM. */
static int gather(struct ctlr *c, struct rflow **out, size_t *n, uint64_t now)
{
	size_t cap = 0, k = 0;
	struct rflow *fl;
	uint32_t i;
	unsigned j;

	for (i = 0; i < c->nhosts; i++)
		if (host_live(&c->host[i]))
			cap += c->host[i].nflows;
	fl = calloc(cap ? cap : 1, sizeof(*fl));
	if (!fl)
		return -ENOMEM;
	for (i = 0; i < c->nhosts; i++) {
		struct chost *h = &c->host[i];

		if (!host_live(h))
			continue;
		for (j = 0; j < h->nflows; j++) {
			struct rflow *r = &fl[k];

			r->h = h;
			r->f = &h->flow[j];
			/* Built when the report was taken: no failure here. */
			if (paths_get(c, h->node, r->f->dst, &r->ps)) {
				free(fl);
				return -ENOMEM;
			}
			if (r->f->assigned >= (int32_t)r->ps->npaths)
				r->f->assigned = -1;
			/* A link healed (or another failed): the path its
			 * host could not take may be good again. */
			if (c->fail_seen != c->fail_gen ||
			    now - r->f->refused_ns >= CTLR_REFUSED_NS)
				r->f->refused = -1;
			k++;
		}
	}
	*out = fl;
	*n = k;
	return 0;
}

/* A flow's new path: a move when the host is on another. */
static void assign(struct ctlr *c, struct cflow *f, int32_t row)
{
	if (row >= 0 && row != f->assigned && row != f->path)
		c->st.moves++;
	f->assigned = row;
}

static void add_row(struct ctlr *c, const struct cpset *ps, uint32_t k)
{
	uint32_t dl[2 * DARD_LEVEL_MAX];
	unsigned j, n = paths_dlinks(ps, k, dl);

	for (j = 0; j < n; j++)
		c->load[dl[j]]++;
}

/* L_D over switch links of the paths placed, failed links aside. */
static uint32_t max_load(struct ctlr *c, const struct rflow *fl, size_t n)
{
	size_t i, ndl = 2 * (size_t)c->t->nlinks;
	uint32_t m = 0;

	memset(c->load, 0, ndl * sizeof(*c->load));
	for (i = 0; i < n; i++)
		if (fl[i].f->assigned >= 0)
			add_row(c, fl[i].ps, fl[i].f->assigned);
	for (i = 0; i < ndl; i++)
		if (c->load[i] > m)
			m = c->load[i];
	/* Same-ToR flows cross no switch link; a host link carries each. */
	return n && !m ? 1 : m;
}

/* Loads start at 0, and a failed link's beyond any flow count. */
static void load_reset(struct ctlr *c)
{
	size_t i, ndl = 2 * (size_t)c->t->nlinks;

	memset(c->load, 0, ndl * sizeof(*c->load));
	for (i = 0; c->nfailed && i < ndl; i++)
		if (c->down[i / 2])
			c->load[i] = FAILED_LOAD;
}

/*
 * Whether a flow sits on the path its host could not move it to, or has
 * no path since it refused one: avoid_refused() places it, not the
 * algorithm, which knows nothing of refusals (and would count a move
 * that avoid_refused then undoes).
 */
static int on_refused(const struct rflow *r)
{
	return r->f->refused >= 0 &&
	       (r->f->assigned == r->f->refused || r->f->assigned < 0) &&
	       r->ps->npaths > 1;
}

/*
 * A flow its host could not move (ACK FAILED: the path dead in its
 * datapath, most likely) is not pushed onto that path again: SDN-greedy
 * over its other paths, given every other flow's load.
 */
static int avoid_refused(struct ctlr *c, struct rflow *fl, size_t n)
{
	uint32_t *dl = NULL, *tmp, k, r;
	size_t i;

	for (i = 0; i < n && !on_refused(&fl[i]); i++)
		;
	if (i == n)
		return 0;
	load_reset(c);
	for (i = 0; i < n; i++)
		if (fl[i].f->assigned >= 0 && !on_refused(&fl[i]))
			add_row(c, fl[i].ps, fl[i].f->assigned);
	for (i = 0; i < n; i++) {
		const struct cpset *ps = fl[i].ps;
		uint32_t skip = fl[i].f->refused, nd = ps->ndl;
		struct dard_cands cd;

		if (!on_refused(&fl[i]))
			continue;
		tmp = realloc(dl, ((size_t)ps->npaths * nd + 1) * sizeof(*dl));
		if (!tmp) {
			free(dl);
			return -ENOMEM;
		}
		dl = tmp;
		for (k = 0; k < ps->npaths; k++)
			if (k != skip)
				paths_dlinks(
					ps, k,
					&dl[(size_t)(k - (k > skip)) * nd]);
		cd = (struct dard_cands){
			.dl = dl, .npaths = ps->npaths - 1, .ndl = nd};
		dard_route_greedy_rows(&cd, 1, c->load, &r);
		assign(c, fl[i].f, r + (r >= skip));
	}
	free(dl);
	return 0;
}

/* SDN-greedy for the flows without a (live) path, given the others. */
static int place_greedy(struct ctlr *c, struct rflow *fl, size_t n)
{
	struct dard_cands *cd;
	struct rflow **todo;
	size_t i, nnew = 0;
	uint32_t *row;

	cd = calloc(n ? n : 1, sizeof(*cd));
	row = calloc(n ? n : 1, sizeof(*row));
	todo = calloc(n ? n : 1, sizeof(*todo));
	if (!cd || !row || !todo) {
		free(cd);
		free(row);
		free(todo);
		return -ENOMEM;
	}
	load_reset(c);
	for (i = 0; i < n; i++) {
		struct cflow *f = fl[i].f;

		if (f->assigned >= 0 &&
		    !paths_failed(c, fl[i].ps, f->assigned)) {
			add_row(c, fl[i].ps, f->assigned);
			continue;
		}
		if (on_refused(&fl[i]))
			continue;
		cd[nnew] = paths_cands(fl[i].ps);
		todo[nnew++] = &fl[i];
	}
	dard_route_greedy_rows(cd, nnew, c->load, row);
	for (i = 0; i < nnew; i++)
		assign(c, todo[i]->f, row[i]);
	free(cd);
	free(row);
	free(todo);
	return 0;
}

/* Whether some host lately refused a path we pushed (not yet let go). */
static int refusing(const struct rflow *fl, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (fl[i].f->refused >= 0)
			return 1;
	return 0;
}

/*
 * Whether the paths kept, with new flows placed greedily beside them,
 * are good enough not to move anyone: the failed links the same since
 * they were placed, and either L_D at the demand's lower bound, or a
 * link failed (the bound is out of reach: best effort, kept), or a host
 * refusing one of our paths (a colouring cannot avoid that path, and
 * colouring again every round would move flows every round until the
 * refusal lapses: CTLR_REFUSED_NS). Recolouring moves flows that were
 * fine, and every move costs a flow a burst of reordering, so it is
 * the last resort, not the rule.
 */
static int keep_optimal(struct ctlr *c, struct rflow *fl, size_t n,
			const struct dard_demand *d, int *keep)
{
	uint64_t moves = c->st.moves;
	size_t i, placed = 0;
	uint32_t lb;
	int ret;

	/* Marked so that a colouring after it starts from where it was. */
	for (i = 0; i < n; i++) {
		fl[i].fresh = fl[i].f->assigned < 0;
		placed += !fl[i].fresh;
	}
	/* Nothing placed yet (a first round): nothing to keep, colour. */
	*keep = c->fail_seen == c->fail_gen && (placed || !n);
	if (!*keep)
		return 0;
	ret = place_greedy(c, fl, n);
	if (ret || c->nfailed || refusing(fl, n))
		return ret;
	ret = dard_route_lower_bound(c->t, d, n, &lb, NULL) ? -ENOMEM : 0;
	*keep = !ret && max_load(c, fl, n) <= (lb ? lb : 1);
	if (*keep)
		return 0;
	/* Colouring (or a failed round) starts from before the greedy. */
	for (i = 0; i < n; i++)
		if (fl[i].fresh)
			fl[i].f->assigned = -1;
	c->st.moves = moves;
	return ret;
}

/* Refine passes: dard-sim's default, enough to unstack a colouring. */
enum { REFINE_PASSES = 4 };

/*
 * The colouring's rows, then the local search from them, each flow
 * preferring where it is now (our last path, else the one it reported).
 */
static int colour(struct ctlr *c, struct rflow *fl, size_t n,
		  const struct dard_demand *d, char *err)
{
	struct dard_path *p = calloc(n ? n : 1, sizeof(*p));
	struct dard_cands *cd = calloc(n ? n : 1, sizeof(*cd));
	uint32_t *row = calloc(n ? n : 1, sizeof(*row));
	uint32_t *pref = calloc(n ? n : 1, sizeof(*pref));
	size_t i;
	int ret = -ENOMEM;

	if (!p || !cd || !row || !pref)
		goto out;
	ret = dard_route_optimal_tor(c->pc, c->rt, d, n, p, err);
	for (i = 0; !ret && i < n; i++) {
		int r = paths_row(c, fl[i].ps, &p[i]);

		/* A path off the pair's rows would be a bug: never pushed. */
		if (r < 0)
			ret = dard_fail(err, -EIO, "a path off its rows");
		row[i] = r;
		pref[i] = fl[i].f->assigned >= 0 ? (uint32_t)fl[i].f->assigned
						 : fl[i].f->path;
		cd[i] = paths_cands(fl[i].ps);
	}
	if (ret)
		goto out;
	load_reset(c);
	dard_route_refine_rows(cd, n, pref, REFINE_PASSES, c->load, row);
	for (i = 0; i < n; i++)
		assign(c, fl[i].f, row[i]);
	c->st.recomputed++;
out:
	free(p);
	free(cd);
	free(row);
	free(pref);
	return ret;
}

/*
 * SDN-optimal for the whole demand, or (max_lb) only when its lower
 * bound is at most max_lb: *placed says whether it did.
 */
static int place_optimal(struct ctlr *c, struct rflow *fl, size_t n,
			 uint32_t max_lb, int *placed)
{
	struct dard_demand *d = calloc(n ? n : 1, sizeof(*d));
	char err[DARD_ERR_MAX];
	uint32_t lb;
	size_t i;
	int ret = -ENOMEM, keep;

	*placed = 0;
	if (!d)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		d[i] = (struct dard_demand){fl[i].h->node, fl[i].f->dst};
	if (max_lb) {
		if (dard_route_lower_bound(c->t, d, n, &lb, err))
			goto out;
		if (lb > max_lb) {
			ret = 0;
			goto out;
		}
	}
	*placed = 1;
	if (keep_optimal(c, fl, n, d, &keep))
		goto out;
	ret = keep ? 0 : colour(c, fl, n, d, err);
	if (ret)
		log_err("sdn-optimal failed: %s", err);
out:
	free(d);
	return ret;
}

/* Places fl by the algorithm; *self when hosts schedule themselves. */
static int place_algo(struct ctlr *c, struct rflow *fl, size_t n, int *self)
{
	int placed, ret;

	*self = 0;
	switch (c->o.algo) {
	case DARD_CP_ALGO_OPTIMAL:
		return place_optimal(c, fl, n, 0, &placed);
	case DARD_CP_ALGO_OBLIVIOUS:
		/* Elephants stay DARD's; new flows hash by the weights. */
		*self = 1;
		return obl_update(c);
	case DARD_CP_ALGO_ADAPTIVE:
		if (c->nfailed) {
			*self = 1;
			return 0;
		}
		ret = place_optimal(c, fl, n, 1, &placed);
		*self = !placed;
		return ret;
	default:
		return place_greedy(c, fl, n);
	}
}

static int place(struct ctlr *c, struct rflow *fl, size_t n, int *self)
{
	int ret = place_algo(c, fl, n, self);

	return ret || *self ? ret : avoid_refused(c, fl, n);
}

static void xmit(struct ctlr *c, struct chost *h, const void *buf, size_t len,
		 uint64_t now)
{
	if (c->xmit(c, buf, len, h->addr, h->port) < 0) {
		c->st.send_errors++;
		dard_log_ratelimited(&c->rl_send, now, DARD_LOG_WARN,
				     "push to %s failed",
				     c->t->node[h->node].name);
		return;
	}
	c->st.last_msgs++;
	c->st.last_bytes += len;
}

/* One host's ASSIGN set: its flows' paths, FIRST ... LAST. */
static void push_host(struct ctlr *c, struct chost *h, int self, uint64_t now)
{
	static struct dard_cp_msg m;
	static uint8_t buf[DARD_CP_MSG_MAX];
	unsigned i = 0;
	size_t len;

	m = (struct dard_cp_msg){.type = DARD_CP_ASSIGN,
				 .algo = c->o.algo,
				 .flags = DARD_CP_F_FIRST,
				 .topo = c->topo,
				 .epoch = c->epoch};
	if (self)
		m.flags |= DARD_CP_F_SELF;
	do {
		m.count = 0;
		for (; !self && i < h->nflows && m.count < DARD_CP_FLOWS_MAX;
		     i++) {
			const struct cflow *f = &h->flow[i];

			if (f->assigned < 0)
				continue;
			m.flow[m.count++] = (struct dard_cp_flow){
				.key = f->key, .path = f->assigned};
		}
		if (self || i >= h->nflows)
			m.flags |= DARD_CP_F_LAST;
		m.seq = ctlr_next_seq(c);
		len = dard_cp_encode(buf, sizeof(buf), &c->keys->key[0], &m);
		if (len) {
			xmit(c, h, buf, len, now);
			c->st.assigns++;
			c->st.assign_bytes += len;
		}
		m.flags &= ~DARD_CP_F_FIRST;
	} while (!(m.flags & DARD_CP_F_LAST));
}

int ctlr_round(struct ctlr *c, uint64_t now)
{
	struct rflow *fl = NULL;
	uint64_t t0;
	size_t n = 0;
	uint32_t i;
	int self, ret;

	/*
	 * Silence counts up to the host socket's last drain, not past it:
	 * after a stall, reports still waiting there are not yet read.
	 */
	hosts_expire(c, c->drained_ns && c->drained_ns < now ? c->drained_ns
							     : now);
	paths_trim(c, live_flows(c), c->st.rounds);
	c->epoch = dard_cp_next_epoch(c->epoch, dard_clock_ns(CLOCK_REALTIME));
	c->st.rounds++;
	c->st.last_msgs = c->st.last_bytes = 0;
	t0 = dard_clock_ns(CLOCK_MONOTONIC);
	ret = gather(c, &fl, &n, now);
	if (!ret)
		ret = place(c, fl, n, &self);
	c->st.last_ns = dard_clock_ns(CLOCK_MONOTONIC) - t0;
	if (ret) {
		/* Nothing half-placed goes out: hosts keep the last set. */
		free(fl);
		log_err("round %llu: unable to place %zu flows: %s",
			(unsigned long long)c->st.rounds, n, strerror(-ret));
		return ret;
	}
	c->fail_seen = c->fail_gen;
	if (self != c->self)
		log_info("%s: hosts schedule %s", dard_cp_algo_name(c->o.algo),
			 self ? "themselves (DARD)" : "by our paths");
	c->self = self;
	c->st.self_rounds += self;
	c->st.last_flows = n;
	c->st.last_max_load = self ? 0 : max_load(c, fl, n);
	c->st.last_hosts = 0;
	if (c->o.algo == DARD_CP_ALGO_OBLIVIOUS)
		obl_push(c, now);
	for (i = 0; i < c->nhosts; i++)
		if (host_live(&c->host[i])) {
			push_host(c, &c->host[i], self, now);
			c->st.last_hosts++;
		}
	free(fl);
	return 0;
}
