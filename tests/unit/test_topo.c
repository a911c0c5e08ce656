// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Tests the topology model's derived arrays: every node's up[] and down[]
 * ports as dard_topo_finalize() builds them, and the node an error
 * is about (dard_topo_finalize's node out-parameter).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gen.h"
#include "topo.h"
#include "unit.h"

/*
 * up[] and down[] partition the used ports by the link's direction, each
 * in ascending port order: the order the address plan numbers up ports in.
 */
static void check_ports(const struct dard_topo *t)
{
	uint32_t i;

	for (i = 0; i < t->nnodes; i++) {
		const struct dard_node *n = &t->node[i];
		unsigned k, u = 0, d = 0;

		for (k = 1; k <= n->nports; k++) {
			const struct dard_link *l =
				dard_topo_port_link(t, i, k);

			if (!l)
				continue;
			if (l->down == i) {
				if (u >= n->nup || n->up[u] != k)
					fail_msg("%s: up port %u not up[%u]",
						 n->name, k, u);
				u++;
			} else if (!n->is_host) {
				if (d >= n->ndown || n->down[d] != k)
					fail_msg(
						"%s: down port %u not down[%u]",
						n->name, k, d);
				d++;
			}
		}
		assert_int_equal(u, n->nup);
		if (!n->is_host)
			assert_int_equal(d, n->ndown);
		if (n->is_host)
			assert_int_equal(n->nup, 1);
		if (n->level == 0)
			assert_int_equal(n->nup, 0);
		else
			assert_true(n->nup > 0);
	}
}

static void test_up_generated(void **state)
{
	static const char *const spec[] = {"fattree:4", "fattree:8,3",
					   "clos:4,4,2", "3tier:2"};
	unsigned i;

	for (i = 0; i < sizeof(spec) / sizeof(spec[0]); i++) {
		struct dard_topo *t = unit_gen(spec[i]);

		check_ports(t);
		dard_topo_free(t);
	}
}

/* Known ports: fattree:4's aggr1_1 has ToRs on 1-2 and cores on 3-4. */
static void test_up_fattree(void **state)
{
	struct dard_topo *t = unit_gen("fattree:4");
	uint32_t a = dard_topo_find(t, "aggr1_1");
	uint32_t c = dard_topo_find(t, "core1");

	assert_int_not_equal(a, DARD_NONE);
	assert_int_equal(t->node[a].nup, 2);
	assert_int_equal(t->node[a].up[0], 3);
	assert_int_equal(t->node[a].up[1], 4);
	assert_int_equal(dard_topo_peer(t, a, t->node[a].up[0]), c);
	assert_int_equal(t->node[a].ndown, 2);
	assert_int_equal(t->node[a].down[0], 1);
	assert_int_equal(t->node[a].down[1], 2);
	dard_topo_free(t);
}

static void ok(int ret)
{
	assert_int_equal(ret, 0);
}

/*
 * Up and down ports interleaved, and an unused port: up[] keeps port
 * order, not link order (links added r2 first).
 */
static void test_up_interleaved(void **state)
{
	struct dard_topo *t = dard_topo_new();
	char err[DARD_ERR_MAX] = "";
	uint32_t s;

	assert_non_null(t);
	ok(dard_topo_add_level(t, "core", err));
	ok(dard_topo_add_level(t, "tor", err));
	ok(dard_topo_add_switch(t, "r1", "core", err));
	ok(dard_topo_add_switch(t, "r2", "core", err));
	ok(dard_topo_add_switch(t, "s", "tor", err));
	ok(dard_topo_add_host(t, "h1", err));
	ok(dard_topo_add_host(t, "h2", err));
	ok(dard_topo_add_link(t, "r2", 1, "s", 5, 1000, err));
	ok(dard_topo_add_link(t, "r1", 1, "s", 2, 1000, err));
	ok(dard_topo_add_link(t, "s", 1, "h1", 1, 1000, err));
	ok(dard_topo_add_link(t, "s", 4, "h2", 3, 1000, err));
	ok(dard_topo_finalize(t, NULL, err));
	s = dard_topo_find(t, "s");
	assert_int_equal(t->node[s].nup, 2);
	assert_int_equal(t->node[s].up[0], 2);
	assert_int_equal(t->node[s].up[1], 5);
	assert_int_equal(t->node[s].ndown, 2);
	assert_int_equal(t->node[s].down[0], 1);
	assert_int_equal(t->node[s].down[1], 4);
	s = dard_topo_find(t, "h2");
	assert_int_equal(t->node[s].nup, 1);
	assert_int_equal(t->node[s].up[0], 3);
	check_ports(t);
	dard_topo_free(t);
}

/* A finalize error about one node names it; others name none. */
static void test_err_node(void **state)
{
	struct dard_topo *t = dard_topo_new();
	char err[DARD_ERR_MAX] = "";
	uint32_t node = 0;

	assert_non_null(t);
	ok(dard_topo_add_level(t, "core", err));
	ok(dard_topo_add_level(t, "tor", err));
	ok(dard_topo_add_switch(t, "r1", "core", err));
	ok(dard_topo_add_switch(t, "s", "tor", err));
	ok(dard_topo_add_host(t, "h1", err));
	ok(dard_topo_add_link(t, "r1", 1, "s", 1, 1000, err));
	assert_int_equal(dard_topo_finalize(t, &node, err), -EINVAL);
	assert_string_equal(err, "switch `s' (tor) has nothing below it");
	assert_int_equal(node, dard_topo_find(t, "s"));
	/* The host's link mends that; the host alone is then at fault. */
	ok(dard_topo_add_switch(t, "s2", "tor", err));
	ok(dard_topo_add_link(t, "s", 2, "h1", 1, 1000, err));
	ok(dard_topo_add_link(t, "r1", 2, "s2", 1, 1000, err));
	ok(dard_topo_add_host(t, "h2", err));
	ok(dard_topo_add_link(t, "s2", 2, "h2", 1, 1000, err));
	ok(dard_topo_finalize(t, &node, err));
	assert_int_equal(node, DARD_NONE);
	dard_topo_free(t);

	/* An error about the whole tree names no node. */
	t = dard_topo_new();
	assert_non_null(t);
	node = 0;
	assert_int_equal(dard_topo_finalize(t, &node, err), -EINVAL);
	assert_string_equal(err, "no switch levels");
	assert_int_equal(node, DARD_NONE);
	dard_topo_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_up_generated),
		cmocka_unit_test(test_up_fattree),
		cmocka_unit_test(test_up_interleaved),
		cmocka_unit_test(test_err_node),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
