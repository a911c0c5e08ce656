// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-controller without sockets, its placements: a permutation under
 * sdn-optimal gets L_D = 1; sdn-adaptive says SELF past a permutation;
 * sdn-greedy and sdn-optimal keep flows off a link a switch's agent
 * reports down, and a silent agent is not a dead link; sdn-optimal keeps
 * placed flows where they are and reaches the lower bound on a tapered
 * tree; path sets nobody uses go once they are many.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <arpa/inet.h>
#include <cmocka.h>

#include "ctlr_fix.h"

static void test_optimal_permutation(void **state)
{
	unsigned perm[16], i, hits = 0;
	const struct dard_cp_msg *m;

	(void)state;
	start(DARD_CP_ALGO_OPTIMAL);
	assert_int_equal(cfg.topo->nhosts, 16);
	/* Host i to i + 4 (mod 16): every flow leaves its pod. */
	for (i = 0; i < 16; i++) {
		perm[i] = (i + 4) % 16;
		report(i, &perm[i], 1, SEC);
	}
	assert_int_equal(c.st.reports, 16);
	assert_int_equal(ctlr_round(&c, SEC + 1), 0);
	assert_int_equal(nsent, 16);
	for (i = 0; i < 16; i++) {
		m = assign_to(i);
		assert_non_null(m);
		assert_int_equal(m->type, DARD_CP_ASSIGN);
		assert_int_equal(m->algo, DARD_CP_ALGO_OPTIMAL);
		assert_int_equal(m->flags, DARD_CP_F_FIRST | DARD_CP_F_LAST);
		assert_int_equal(m->sender, 0);
		assert_int_equal(m->epoch, c.epoch);
		assert_int_equal(m->count, 1);
		assert_int_equal(ntohl(m->flow[0].key.daddr),
				 host(perm[i])->id);
		hits += sent[i].port == 40000;
	}
	assert_int_equal(hits, 16);
	assert_int_equal(pushed_max_load(), 1);
	assert_int_equal(c.st.last_max_load, 1);
	/* The same demand next round: nothing recomputed, nothing moves. */
	nsent = 0;
	assert_int_equal(ctlr_round(&c, SEC + 2), 0);
	assert_int_equal(c.st.recomputed, 1);
	assert_int_equal(pushed_max_load(), 1);
	assert_true(sent[0].m.epoch > c.epoch_base + 1);
	stop();
}

static void test_adaptive_self(void **state)
{
	unsigned two[2] = {5, 9}, one = 5;

	(void)state;
	start(DARD_CP_ALGO_ADAPTIVE);
	/* One flow: a permutation, placed by sdn-optimal. */
	report(0, &one, 1, SEC);
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(nsent, 1);
	assert_false(sent[0].m.flags & DARD_CP_F_SELF);
	assert_int_equal(sent[0].m.count, 1);
	/* Host 0 sends two: more than a permutation, SELF and no records. */
	nsent = 0;
	report(0, two, 2, SEC);
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(nsent, 1);
	assert_true(sent[0].m.flags & DARD_CP_F_SELF);
	assert_int_equal(sent[0].m.algo, DARD_CP_ALGO_ADAPTIVE);
	assert_int_equal(sent[0].m.count, 0);
	assert_int_equal(c.st.self_rounds, 1);
	stop();
}

/* The agent of switch sw answers its last query with one port down. */
static void switch_reply(uint32_t sw, unsigned down_port, uint64_t now)
{
	struct dard_port_state st[DARD_MSG_PORTS_MAX];
	uint8_t buf[DARD_MSG_MAX];
	struct dard_msg q;
	char e[DARD_ERR_MAX];
	unsigned k, n = 0, i;
	size_t len;

	for (i = 0; i < nswq && swq[i].addr != cfg.topo->node[sw].mgmt; i++)
		;
	assert_true(i < nswq);
	assert_int_equal(
		dard_proto_decode(swq[i].buf, swq[i].len, &keys, &q, e), 0);
	assert_int_equal(q.count, 0); /* every port */
	for_each_port(cfg.topo, sw, k)
		st[n++] = (struct dard_port_state){
			.port = k,
			.flags = k == down_port ? 0 : DARD_PORT_F_UP,
			.mbps = 100};
	len = dard_proto_reply(buf, sizeof(buf), &keys.key[0], q.sender, q.seq,
			       st, n);
	links_receive(&c, buf, len, cfg.topo->node[sw].mgmt, DARD_PROTO_PORT,
		      now);
}

static void test_greedy_failed_link(void **state)
{
	uint32_t dl[2 * DARD_LEVEL_MAX];
	const struct cpset *ps;
	const struct dard_link *l;
	unsigned dst = 4;
	uint32_t tor;
	int32_t k;

	(void)state;
	start(DARD_CP_ALGO_GREEDY);
	assert_true(c.nsw > 0);
	tor = dard_topo_tor(cfg.topo, cfg.topo->hosts[0]);
	report(0, &dst, 1, SEC);
	assert_int_equal(ctlr_round(&c, SEC), 0);
	/* Ties go to the first path. */
	assert_int_equal(c.host[0].flow[0].assigned, 0);
	assert_int_equal(
		paths_get(&c, cfg.topo->hosts[0], cfg.topo->hosts[4], &ps), 0);
	/* Its first link, ToR up to aggregation, goes down at the ToR. */
	paths_dlinks(ps, 0, dl);
	l = &cfg.topo->link[dl[0] / 2];
	assert_int_equal(l->down, tor);
	nswq = 0;
	links_query(&c, 2 * SEC);
	assert_int_equal(nswq, c.nsw);
	assert_int_equal(c.st.queries, c.nsw);
	switch_reply(tor, l->down_port, 2 * SEC);
	assert_int_equal(c.st.replies, 1);
	assert_int_equal(c.nfailed, 1);
	/* A replay of the reply is refused: no query is pending. */
	switch_reply(tor, l->down_port, 2 * SEC);
	assert_int_equal(dard_rx_refused(&c.srx), 1);
	/* The flow leaves the failed link; nothing else crosses it. */
	assert_int_equal(ctlr_round(&c, 2 * SEC), 0);
	k = c.host[0].flow[0].assigned;
	assert_true(k > 0);
	assert_false(paths_failed(&c, ps, k));
	assert_int_equal(c.st.moves, 1);
	/* The ToR's agent falls silent: not a dead link, after 3 s. */
	nswq = 0;
	links_query(&c, 3 * SEC);
	nswq = 0;
	links_query(&c, 4 * SEC);
	assert_int_equal(c.nfailed, 1);
	nswq = 0;
	links_query(&c, 5 * SEC);
	assert_int_equal(c.nfailed, 0);
	assert_true(c.st.silent > 0);
	stop();
}

/*
 * sdn-optimal with a link failed: a colouring, then the local search
 * takes every flow off the failed link, and the placement is kept while
 * nothing changes; once the link is back, one fresh colouring, L_D 1.
 */
static void test_optimal_failed_link(void **state)
{
	uint32_t tor, dl[2 * DARD_LEVEL_MAX];
	unsigned perm[16], i;
	const struct cpset *ps;
	const struct dard_link *l;
	uint64_t before;

	(void)state;
	start(DARD_CP_ALGO_OPTIMAL);
	for (i = 0; i < 16; i++) {
		perm[i] = (i + 4) % 16;
		report(i, &perm[i], 1, SEC);
	}
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(c.st.recomputed, 1);
	/* The first up link of host 0's flow's path fails at its ToR. */
	assert_int_equal(
		paths_get(&c, cfg.topo->hosts[0], cfg.topo->hosts[4], &ps), 0);
	paths_dlinks(ps, c.host[0].flow[0].assigned, dl);
	l = &cfg.topo->link[dl[0] / 2];
	tor = l->down;
	nswq = 0;
	links_query(&c, 2 * SEC);
	switch_reply(tor, l->down_port, 2 * SEC);
	assert_int_equal(c.nfailed, 1);
	assert_int_equal(ctlr_round(&c, 2 * SEC), 0);
	/* Coloured again, and the search took every flow off the link. */
	assert_int_equal(c.st.recomputed, 2);
	for (i = 0; i < 16; i++) {
		const struct cpset *p;

		assert_int_equal(paths_get(&c, cfg.topo->hosts[i],
					   cfg.topo->hosts[perm[i]], &p),
				 0);
		assert_false(paths_failed(&c, p, c.host[i].flow[0].assigned));
	}
	/* The same failure next round: kept, best effort. */
	assert_int_equal(ctlr_round(&c, 2 * SEC), 0);
	assert_int_equal(c.st.recomputed, 2);
	/* Back up: one fresh colouring, L_D 1 again. */
	nswq = 0;
	links_query(&c, 3 * SEC);
	switch_reply(tor, 0, 3 * SEC);
	assert_int_equal(c.nfailed, 0);
	before = c.st.recomputed;
	nsent = 0;
	assert_int_equal(ctlr_round(&c, 3 * SEC), 0);
	assert_int_equal(c.st.recomputed, before + 1);
	assert_int_equal(pushed_max_load(), 1);
	assert_int_equal(ctlr_round(&c, 3 * SEC), 0);
	assert_int_equal(c.st.recomputed, before + 1);
	stop();
}

/*
 * New flows beside placed ones: put greedily where they fit, nobody
 * moved, while that reaches the lower bound; and when the whole demand
 * is coloured again (here: the set of failed links changed), the old
 * flows stay where the new colouring gains nothing (fattree:8, a random
 * permutation, then 16 more flows from the first 16 hosts).
 */
static void test_optimal_keeps_paths(void **state)
{
	uint32_t perm[128], old[128], i, n, moved = 0;
	unsigned two[2];

	(void)state;
	start_on(DARD_CP_ALGO_OPTIMAL, "fattree:8");
	n = cfg.topo->nhosts;
	assert_int_equal(n, 128);
	srand(7);
	unit_derangement(perm, n);
	for (i = 0; i < n; i++) {
		unsigned d = perm[i];

		report(i, &d, 1, SEC);
	}
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(c.st.recomputed, 1);
	for (i = 0; i < n; i++)
		old[i] = c.host[i].flow[0].assigned;
	for (i = 0; i < 16; i++) {
		two[0] = perm[i];
		two[1] = (perm[i] + 64) % n == i ? (i + 1) % n
						 : (perm[i] + 64) % n;
		report(i, two, 2, SEC);
	}
	nsent = 0;
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(c.st.recomputed, 1);
	for (i = 0; i < n; i++)
		moved += c.host[i].flow[0].assigned != (int32_t)old[i];
	assert_int_equal(moved, 0);
	/* L_D is the bound: hosts 0-15 send two each. */
	assert_int_equal(c.st.last_max_load, 2);
	/* Coloured again from scratch, each flow preferring its path. */
	c.fail_gen++;
	nsent = 0;
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(c.st.recomputed, 2);
	for (i = 0, moved = 0; i < n; i++)
		moved += c.host[i].flow[0].assigned != (int32_t)old[i];
	print_message("old flows moved, coloured again: %u of 128\n", moved);
	/* Without the preference 110 move; with it, 23 (seed 7). */
	assert_true(moved <= 32);
	assert_true(c.st.last_max_load <= 2);
	stop();
}

/* A ToR-tapered tree (fattree:8,3): L_D is the lower bound. */
static void test_optimal_tapered(void **state)
{
	uint32_t perm[256], i, n, lb;
	struct dard_demand *d;

	(void)state;
	start_on(DARD_CP_ALGO_OPTIMAL, "fattree:8,3");
	n = cfg.topo->nhosts;
	assert_true(n <= 256);
	d = calloc(n, sizeof(*d));
	assert_non_null(d);
	srand(3);
	unit_derangement(perm, n);
	for (i = 0; i < n; i++) {
		unsigned dst = perm[i];

		report(i, &dst, 1, SEC);
		d[i] = (struct dard_demand){cfg.topo->hosts[i],
					    cfg.topo->hosts[perm[i]]};
	}
	assert_int_equal(ctlr_round(&c, SEC), 0);
	assert_int_equal(dard_route_lower_bound(cfg.topo, d, n, &lb, err), 0);
	assert_true(lb > 1);
	assert_int_equal(c.st.last_max_load, lb);
	free(d);
	stop();
}

/* Path sets no flow asked for lately go once they are many. */
static void test_paths_trim(void **state)
{
	const struct dard_topo *t;
	const struct cpset *ps, *kept, *again;
	uint32_t a, b, n = 0, per_tor;

	(void)state;
	start_on(DARD_CP_ALGO_GREEDY, "fattree:16");
	t = cfg.topo;
	per_tor = 8; /* fattree:16: 8 hosts a ToR, 128 ToRs */
	for (a = 0; a < 128 && n < 1100; a++)
		for (b = 0; b < 128 && n < 1100; b++, n++)
			assert_int_equal(paths_get(&c, t->hosts[a * per_tor],
						   t->hosts[b * per_tor], &ps),
					 0);
	assert_int_equal(c.nps, 1100);
	/* Few flows, but not many more sets than flows: kept. */
	paths_trim(&c, 100, 1);
	assert_int_equal(c.nps, 1100);
	c.st.rounds = 1;
	assert_int_equal(
		paths_get(&c, t->hosts[0], t->hosts[9 * per_tor], &kept), 0);
	paths_trim(&c, 1, 1);
	assert_int_equal(c.nps, 1);
	assert_int_equal(
		paths_get(&c, t->hosts[1], t->hosts[9 * per_tor + 3], &again),
		0);
	assert_ptr_equal(again, kept);
	assert_int_equal(again->npaths, 64);
	stop();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_optimal_permutation),
		cmocka_unit_test(test_adaptive_self),
		cmocka_unit_test(test_greedy_failed_link),
		cmocka_unit_test(test_optimal_failed_link),
		cmocka_unit_test(test_optimal_keeps_paths),
		cmocka_unit_test(test_optimal_tapered),
		cmocka_unit_test(test_paths_trim),
	};

	/* The tests cause replayed replies and silent agents: errors only. */
	dard_log_init("test_controller_place", DARD_LOG_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
