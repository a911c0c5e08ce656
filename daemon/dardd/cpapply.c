// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The controller's ASSIGN and WEIGHTS, through the datapath. A path
 * index is the path's position in dard_path_foreach()'s order from us to
 * the flow's destination host, the order of the datapath's own paths
 * (dp_program.c); matched by switches, as dead.c matches a monitor's. An
 * assignment moves only our own elephants, only onto a path that exists,
 * that the monitor does not have dead and that the datapath did not
 * itself leave twice (repathed off it, dead or timing out, sent back,
 * and off it again) in the last DARDD_LEFT_NS; each one it could not
 * move goes back in the ACK,
 * FAILED, and so does one assigned the dead path it is already on.
 */
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>

#include "dardd_priv.h"
#include "controller.h"
#include "elephants.h"
#include "io.h"
#include "monitors.h"
#include "log.h"

/* A walk of the paths to a host: by switches, or by index. */
struct find {
	const struct dard_path *want; /* NULL: the path at index want_i */
	struct dard_path *out;
	unsigned i, want_i;
	int found;
};

static int same_switches(const struct dard_path *a, const struct dard_path *b)
{
	return a->nsw == b->nsw &&
	       !memcmp(a->sw, b->sw, a->nsw * sizeof(a->sw[0]));
}

static int find_cb(const struct dard_path *p, void *arg)
{
	struct find *f = arg;

	if (f->want ? same_switches(p, f->want) : f->i == f->want_i) {
		if (f->out)
			*f->out = *p;
		f->found = 1;
		return 1;
	}
	f->i++;
	return 0;
}

int cp_path_index(struct dardd *d, const struct elephant *e)
{
	char err[DARD_ERR_MAX];
	struct dard_path p;
	struct find f = {.want = &p};

	if (dard_path_decode(d->pc, ntohl(e->pair.saddr), ntohl(e->pair.daddr),
			     &p, err))
		return -1;
	dard_path_foreach(d->pc, d->me, e->dst, find_cb, &f);
	return f.found ? (int)f.i : -1;
}

/* The path at index i to host dst: 0, or -1 when there is none. */
static int path_at(struct dardd *d, uint32_t dst, unsigned i,
		   struct dard_path *out)
{
	struct find f = {.out = out, .want_i = i};

	dard_path_foreach(d->pc, d->me, dst, find_cb, &f);
	return f.found ? 0 : -1;
}

static int is_dead(const struct mon *mon, int i)
{
	return i >= 0 && i < DARD_PATHS_MAX &&
	       (mon->dead[i / 64] >> (i % 64) & 1);
}

/* One record of an ASSIGN: 0 when e is where it says, else why not. */
static const char *apply(struct dardd *d, const struct dard_cp_flow *r,
			 uint64_t now)
{
	struct elephant *e = el_find(d, &r->key);
	struct dard_alias_pair pair;
	struct dard_path p;
	char b[96];
	int i, ret;

	if (!e)
		return "not one of our elephants";
	if (path_at(d, e->dst, r->path, &p))
		return "path out of range";
	/*
	 * The datapath would move it off again at its next packet; and if it
	 * is there already, the controller must still learn that it is not
	 * where it thinks it can stay.
	 */
	i = dard_monitor_path_index(e->mon->m, &p);
	if (is_dead(e->mon, i))
		return "path dead";
	/* Left by the datapath itself lately, again after the controller
	 * sent it back: its own evidence of a fault (DARDD_LEFT_TIMES). */
	if (i >= 0 && i == e->left && now - e->left_ns < DARDD_LEFT_NS &&
	    e->left_times >= DARDD_LEFT_TIMES)
		return "path the datapath left twice";
	if (cp_path_index(d, e) == r->path)
		return NULL;
	pair.saddr = htonl(p.saddr);
	pair.daddr = htonl(p.daddr);
	ret = d->ops->move(d->dp, &e->key, &pair);
	if (ret)
		return dard_dp_strerror(ret);
	e->pair = pair;
	e->path = i;
	e->moves++;
	e->dp_moves++; /* the datapath counts ours: not its own repath */
	/* Held as a round's move is: after a fallback to DARD, the fast
	 * rounds do not undo the controller's placement at once. */
	e->moved_ns = now;
	/* Not a round's gain to judge (dard_round_flow's moved_rate). */
	e->moved_rate = e->moved_est = 0;
	el_hist_add(e, now, i);
	d->st.controller_moves++;
	log_info("controller moved %s to path %u",
		 flow_str(&e->key, b, sizeof(b)), r->path + 1);
	return NULL;
}

/* The ACK so far: FIRST if the set's first, LAST if its last. */
static void ack_send(struct dardd *d, int last)
{
	struct dard_cp_msg *a = d->cp.ack;

	a->type = DARD_CP_ACK;
	a->algo = DARD_CP_ALGO_NONE;
	a->epoch = d->cp.ack_epoch;
	a->flags = (d->cp.ack_sent ? 0 : DARD_CP_F_FIRST) |
		   (last ? DARD_CP_F_LAST : 0);
	io_send_cp(d, a);
	a->count = 0;
	d->cp.ack_sent = 1;
}

void cp_assign(struct dardd *d, const struct dard_cp_msg *m, uint64_t now)
{
	struct cp *c = &d->cp;
	char b[96];
	unsigned i;

	/*
	 * Weights come only from the oblivious algorithm: a controller that
	 * restarted with another one never sends the set that would clear
	 * them, and its assignments would be skewed by them for new flows.
	 */
	if (c->weighted && m->algo != DARD_CP_ALGO_OBLIVIOUS) {
		log_info("controller runs %s: every destination's weights even",
			 dard_cp_algo_name(m->algo) ? dard_cp_algo_name(m->algo)
						    : "?");
		cp_weights_even(d);
	}

	/* A new set; or its FIRST was lost: the ACK starts with this one. */
	if ((m->flags & DARD_CP_F_FIRST) || !c->ack_open ||
	    c->ack_epoch != m->epoch) {
		c->ack_open = 1;
		c->ack_epoch = m->epoch;
		c->ack_sent = 0;
		c->ack->count = 0;
	}
	for (i = 0; i < m->count; i++) {
		const char *why = apply(d, &m->flow[i], now);

		if (!why)
			continue;
		d->st.controller_failed++;
		log_debug("controller's path %u for %s: %s",
			  m->flow[i].path + 1,
			  flow_str(&m->flow[i].key, b, sizeof(b)), why);
		if (c->ack->count == DARD_CP_FLOWS_MAX)
			ack_send(d, 0);
		c->ack->flow[c->ack->count] = m->flow[i];
		c->ack->flow[c->ack->count++].flags = DARD_CP_FL_FAILED;
	}
	if (m->flags & DARD_CP_F_LAST) {
		ack_send(d, 1);
		c->ack_open = 0;
		d->st.controller_assigns++;
	}
}

int cp_weights_check(struct dardd *d, const struct dard_cp_msg *m)
{
	unsigned i;

	for (i = 0; i < m->count; i++)
		if (m->wrec[i].dst_tor >= d->cp.ntors)
			return i;
	return -1;
}

/*
 * Weights w (NULL: even) for every destination under ToR tor: how many
 * the datapath refused, the first's error in *first. A destination the
 * datapath does not have yet (-ENOENT) is none of those: it has no
 * weights, and starts even when it comes.
 */
static unsigned weigh_tor(struct dardd *d, uint32_t tor, const uint16_t *w,
			  unsigned n, int *first)
{
	const struct dard_topo *t = d->t;
	unsigned failed = 0;
	uint32_t i;
	int ret;

	/* Our own ToR's hosts have one path: nothing to weigh. */
	if (tor == d->my_tor || !d->ops->set_weights)
		return 0;
	for (i = 0; i < t->nhosts; i++) {
		uint32_t h = t->hosts[i];

		if (dard_topo_tor(t, h) != tor)
			continue;
		ret = d->ops->set_weights(d->dp, t->node[h].id, w, n);
		if (ret && ret != -ENOENT && !failed++)
			*first = ret;
	}
	d->st.controller_weights_failed += failed;
	return failed;
}

/*
 * A datapath that refuses one ToR refuses them all, and a set names every
 * ToR: one line a second, not one per ToR per set.
 */
static void weigh(struct dardd *d, uint32_t tor, const uint16_t *w, unsigned n)
{
	int first = 0;
	unsigned failed = weigh_tor(d, tor, w, n, &first);

	if (failed)
		dard_log_ratelimited(&d->cp.w_rl, dardd_now_ns(), DARD_LOG_WARN,
				     "weights to %u hosts under %s: %s", failed,
				     d->t->node[tor].name,
				     dard_dp_strerror(first));
}

void cp_weights(struct dardd *d, const struct dard_cp_msg *m)
{
	struct cp *c = &d->cp;
	uint32_t i, r;

	if (!d->ops->set_weights && !c->w_warned) {
		log_warn(
			"the %s datapath does not weigh paths: the controller's weights are ignored",
			d->ops->name);
		c->w_warned = 1;
	}
	if ((m->flags & DARD_CP_F_FIRST) || !c->w_open ||
	    c->w_epoch != m->epoch) {
		c->wset++;
		c->w_open = 1;
		c->w_epoch = m->epoch;
	}
	for (i = 0; i < m->count; i++) {
		const struct dard_cp_wrec *wr = &m->wrec[i];

		r = wr->dst_tor;
		weigh(d, dard_cp_tor_of_rank(d->t, r), m->w + wr->off,
		      wr->npaths);
		c->wgen[r] = c->wset;
		c->weighted = 1;
	}
	if (!(m->flags & DARD_CP_F_LAST))
		return;
	/* A set replaces the one before: ToRs it leaves out are even. */
	for (r = 0; r < c->ntors; r++)
		if (c->wgen[r] && c->wgen[r] != c->wset) {
			weigh(d, dard_cp_tor_of_rank(d->t, r), NULL, 0);
			c->wgen[r] = 0;
		}
	c->w_open = 0;
	d->st.controller_weights++;
}

/*
 * Every ToR's, not only those we weighed: a dardd before us may have
 * left weights in the pinned maps, which nothing else would clear.
 */
void cp_weights_even(struct dardd *d)
{
	struct cp *c = &d->cp;
	unsigned failed = 0;
	uint32_t r, tor;
	int first = 0, ret;

	for (r = 0; (tor = dard_cp_tor_of_rank(d->t, r)) != DARD_NONE; r++) {
		ret = 0;
		if (weigh_tor(d, tor, NULL, 0, &ret) && !failed++)
			first = ret;
		if (c->wgen && r < c->ntors)
			c->wgen[r] = 0;
	}
	c->w_open = 0;
	c->weighted = 0;
	if (failed)
		log_warn("even weights: %u ToRs' destinations failed: %s",
			 failed, dard_dp_strerror(first));
}
