// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * dard-controller's path rows and what it decides with them: every ToR
 * pair's rows are dard_path_foreach's paths in its order (the index hosts
 * and the datapath use), on fat-trees, tapered ones, Clos, 3tier and a
 * tree of uneven fan-outs; and seeded reports on fattree:4/8, a tapered
 * fat-tree, two Clos and the uneven tree get the very paths they got
 * when the rows were built by walking the tree (digests recorded then:
 * a change of any flow's path changes them).
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <cmocka.h>

#include "ctlr_fix.h"
#include "rng.h"
#include "sched.h"

/*
 * A tree of uneven fan-outs: ToR pairs whose source reaches switches
 * that do not lead to the destination, and tops with one or two ways
 * down to it (rows counted chain by chain, not by a product).
 */
static const char uneven[] = "topology irregular\n"
			     "levels core aggr tor\n"
			     "switch c1 core\n"
			     "switch c2 core\n"
			     "switch c3 core\n"
			     "switch a1 aggr\n"
			     "switch a2 aggr\n"
			     "switch a3 aggr\n"
			     "switch a4 aggr\n"
			     "switch t1 tor\n"
			     "switch t2 tor\n"
			     "switch t3 tor\n"
			     "switch t4 tor\n"
			     "switch t5 tor\n"
			     "switch t6 tor\n"
			     "host t1h1\n"
			     "host t1h2\n"
			     "host t2h1\n"
			     "host t2h2\n"
			     "host t3h1\n"
			     "host t3h2\n"
			     "host t4h1\n"
			     "host t4h2\n"
			     "host t5h1\n"
			     "host t5h2\n"
			     "host t6h1\n"
			     "host t6h2\n"
			     "link c1:1 a1:3\n"
			     "link c1:2 a2:4\n"
			     "link c1:3 a4:2\n"
			     "link c2:1 a1:4\n"
			     "link c2:2 a3:4\n"
			     "link c2:3 a4:3\n"
			     "link c3:1 a2:5\n"
			     "link c3:2 a3:5\n"
			     "link a1:1 t1:3\n"
			     "link a1:2 t4:3\n"
			     "link a2:1 t1:4\n"
			     "link a2:2 t2:3\n"
			     "link a2:3 t5:3\n"
			     "link a3:1 t2:4\n"
			     "link a3:2 t3:3\n"
			     "link a3:3 t4:4\n"
			     "link a4:1 t6:3\n"
			     "link t1:1 t1h1\n"
			     "link t1:2 t1h2\n"
			     "link t2:1 t2h1\n"
			     "link t2:2 t2h2\n"
			     "link t3:1 t3h1\n"
			     "link t3:2 t3h2\n"
			     "link t4:1 t4h1\n"
			     "link t4:2 t4h2\n"
			     "link t5:1 t5h1\n"
			     "link t5:2 t5h2\n"
			     "link t6:1 t6h1\n"
			     "link t6:2 t6h2\n";

/* start_on() the tree spec names, "uneven" the tree above (a file). */
static void start_spec(int algo, const char *spec)
{
	char path[] = "/tmp/test_controller_rows.XXXXXX";
	int fd;

	if (strcmp(spec, "uneven")) {
		start_on(algo, spec);
		return;
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, uneven, strlen(uneven)), strlen(uneven));
	close(fd);
	start_on(algo, path);
	unlink(path);
}

static unsigned nuneven; /* pairs whose rows are not a product */

struct want {
	uint32_t k;
	uint32_t dl[2 * DARD_LEVEL_MAX];
	unsigned ndl;
	const struct cpset *ps;
};

static int row_cb(const struct dard_path *path, void *arg)
{
	struct want *w = arg;
	uint32_t dl[2 * DARD_LEVEL_MAX], got[2 * DARD_LEVEL_MAX];
	unsigned n = dard_path_dlinks(cfg.topo, path, dl);

	assert_true(w->k < w->ps->npaths);
	assert_int_equal(path->nsw, w->ps->nsw);
	assert_int_equal(paths_dlinks(w->ps, w->k, got), n);
	assert_memory_equal(got, dl, n * sizeof(*dl));
	assert_int_equal(paths_row(&c, w->ps, path), w->k);
	w->k++;
	return 0;
}

static void check_rows(const char *spec)
{
	const struct dard_topo *t;
	uint32_t a, b, hs, hd, n = 0;

	start_spec(DARD_CP_ALGO_GREEDY, spec);
	t = cfg.topo;
	for (a = 0; a < t->nnodes; a++) {
		if (t->node[a].is_host || t->node[a].level != t->nlevels - 1)
			continue;
		hs = dard_topo_tor_host(t, a);
		for (b = 0; b < t->nnodes; b++) {
			struct want w = {0};

			if (t->node[b].is_host ||
			    t->node[b].level != t->nlevels - 1)
				continue;
			hd = dard_topo_tor_host(t, b);
			/* Another host under a's ToR when a == b. */
			if (hd == hs && t->node[hs].rank + 1 < t->nhosts)
				hd = t->hosts[t->node[hs].rank + 1];
			if (hd == hs || dard_topo_tor(t, hd) != b)
				continue;
			assert_int_equal(paths_get(&c, hs, hd, &w.ps), 0);
			if (a == b) {
				assert_int_equal(w.ps->npaths, 1);
				assert_int_equal(w.ps->ndl, 0);
				continue;
			}
			assert_int_equal(w.ps->npaths,
					 dard_path_count(c.pc, hs, hd));
			assert_int_equal(w.ps->ndl, w.ps->nsw - 1);
			dard_path_foreach(c.pc, hs, hd, row_cb, &w);
			assert_int_equal(w.k, w.ps->npaths);
			nuneven += !w.ps->each;
			n++;
		}
	}
	assert_true(n > 0);
	stop();
}

static void test_rows(void **state)
{
	(void)state;
	check_rows("fattree:4");
	check_rows("fattree:8");
	check_rows("fattree:8,3");
	check_rows("clos:8,8");
	check_rows("clos:8,4,3");
	check_rows("3tier");
	assert_int_equal(nuneven, 0);
	check_rows("uneven");
	assert_true(nuneven > 0);
}

/* FNV-1a over what the controller decided, flow by flow. */
static uint64_t mix(uint64_t h, uint64_t v)
{
	unsigned i;

	for (i = 0; i < 8; i++, v >>= 8)
		h = (h ^ (v & 0xff)) * 0x100000001b3ULL;
	return h;
}

static uint64_t decisions(void)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	uint32_t i;
	unsigned j;

	for (i = 0; i < c.nhosts; i++)
		for (j = 0; j < c.host[i].nflows; j++) {
			const struct cflow *f = &c.host[i].flow[j];

			h = mix(h, i);
			h = mix(h, ntohs(f->key.sport));
			h = mix(h, f->dst);
			h = mix(h, (uint32_t)f->assigned);
		}
	h = mix(h, c.st.moves);
	h = mix(h, c.st.last_max_load);
	h = mix(h, c.st.recomputed);
	return mix(h, c.self);
}

/* Host src's full report of n flows (ports from base), random paths. */
static void send_set(unsigned src, unsigned n, unsigned base, uint64_t *rng,
		     uint64_t now)
{
	static struct dard_cp_msg m;
	uint8_t buf[DARD_CP_MSG_MAX];
	unsigned i, nh = cfg.topo->nhosts;
	size_t len;

	memset(&m, 0, sizeof(m));
	m.type = DARD_CP_REPORT;
	m.flags = DARD_CP_F_FIRST | DARD_CP_F_LAST;
	m.sender = host(src)->id;
	m.topo = dard_cp_topo_digest(cfg.topo);
	m.seq = ++seq;
	m.count = n;
	for (i = 0; i < n; i++) {
		unsigned d = (src + 1 + dard_xorshift64s(rng) % (nh - 1)) % nh;
		const struct cpset *ps;

		assert_int_equal(paths_get(&c, host(src) - cfg.topo->node,
					   host(d) - cfg.topo->node, &ps),
				 0);
		m.flow[i].key.saddr = htonl(host(src)->id);
		m.flow[i].key.daddr = htonl(host(d)->id);
		m.flow[i].key.sport = htons(base + i);
		m.flow[i].key.dport = htons(5201);
		m.flow[i].key.proto = IPPROTO_TCP;
		m.flow[i].path = dard_xorshift64s(rng) % ps->npaths;
	}
	len = dard_cp_encode(buf, sizeof(buf), &keys.key[0], &m);
	assert_true(len > 0);
	ctlr_receive(&c, buf, len, host(src)->mgmt, 40000, now);
}

/* Host src could not take its first flow's assigned path. */
static void send_failed(unsigned src, uint64_t now)
{
	static struct dard_cp_msg m;
	const struct cflow *f = &c.host[src].flow[0];
	uint8_t buf[DARD_CP_MSG_MAX];
	size_t len;

	if (!c.host[src].nflows || f->assigned < 0)
		return;
	memset(&m, 0, sizeof(m));
	m.type = DARD_CP_ACK;
	m.sender = host(src)->id;
	m.topo = dard_cp_topo_digest(cfg.topo);
	m.seq = ++seq;
	m.count = 1;
	m.flow[0].key = f->key;
	m.flow[0].path = f->assigned;
	m.flow[0].flags = DARD_CP_FL_FAILED;
	len = dard_cp_encode(buf, sizeof(buf), &keys.key[0], &m);
	ctlr_receive(&c, buf, len, host(src)->mgmt, 40000, now);
}

static void round_at(uint64_t now)
{
	nsent = 0;
	assert_int_equal(ctlr_round(&c, now), 0);
}

/*
 * Three rounds: every host's first flows; a third of the hosts with a
 * new set and a fifth refusing a path; then the same demand again.
 */
static void scenario(int algo, const char *spec, uint64_t *out)
{
	uint64_t rng = 0x5eed0000ULL + algo;
	unsigned i, nh;

	start_spec(algo, spec);
	nh = cfg.topo->nhosts;
	for (i = 0; i < nh; i++)
		send_set(i, 1 + dard_xorshift64s(&rng) % 3, 40000, &rng, SEC);
	round_at(SEC);
	out[0] = decisions();
	for (i = 0; i < nh; i += 3)
		send_set(i, 1 + dard_xorshift64s(&rng) % 4, 41000, &rng,
			 2 * SEC);
	for (i = 0; i < nh; i += 5)
		send_failed(i, 2 * SEC);
	/* Refusals to place around, unless the hosts schedule (SELF). */
	assert_true(c.self || c.st.ack_failed > 0);
	round_at(2 * SEC);
	out[1] = decisions();
	round_at(2 * SEC + SEC / 2);
	out[2] = decisions();
	stop();
}

static const struct {
	int algo;
	const char *spec;
	uint64_t want[3];
} cases[] = {
	{DARD_CP_ALGO_GREEDY,
	 "fattree:4",
	 {0xf4ec8c186cd9bd3eULL, 0x339602959214928ULL, 0x339602959214928ULL}},
	{DARD_CP_ALGO_OPTIMAL,
	 "fattree:4",
	 {0xa5ee37cf3ed563ccULL, 0xebdefe30fdc755adULL, 0xebdefe30fdc755adULL}},
	{DARD_CP_ALGO_ADAPTIVE,
	 "fattree:4",
	 {0x7c13622ad914aadcULL, 0xbc92abc2fdfeb1afULL, 0xbc92abc2fdfeb1afULL}},
	{DARD_CP_ALGO_GREEDY,
	 "fattree:8",
	 {0x40d409393f1393a0ULL, 0xb91703dfee065796ULL, 0xb91703dfee065796ULL}},
	{DARD_CP_ALGO_OPTIMAL,
	 "fattree:8",
	 {0xddee8f2a35dbf5f7ULL, 0x7357fbc5f6ae1aecULL, 0x7357fbc5f6ae1aecULL}},
	{DARD_CP_ALGO_ADAPTIVE,
	 "fattree:8",
	 {0x3c8a29584d6af83ULL, 0x483d838d7179ff67ULL, 0x483d838d7179ff67ULL}},
	{DARD_CP_ALGO_OPTIMAL,
	 "fattree:8,3",
	 {0xded8daf6a4d181e9ULL, 0xe8367d5049fc511fULL, 0xe8367d5049fc511fULL}},
	{DARD_CP_ALGO_GREEDY,
	 "clos:8,8",
	 {0x3473ce0f31482a1cULL, 0xfebe076f2d6e0367ULL, 0xfebe076f2d6e0367ULL}},
	{DARD_CP_ALGO_GREEDY,
	 "uneven",
	 {0xfd8097d9ca39d388ULL, 0x1fc04302123de36ULL, 0x1fc04302123de36ULL}},
	{DARD_CP_ALGO_GREEDY,
	 "clos:8,4,3",
	 {0xe31e70dd0a6c0a75ULL, 0xa9fdf5733e63804fULL, 0xa9fdf5733e63804fULL}},
};

static void test_decisions(void **state)
{
	unsigned i, r, bad = 0;
	uint64_t got[3];

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		scenario(cases[i].algo, cases[i].spec, got);
		for (r = 0; r < 3; r++) {
			if (got[r] == cases[i].want[r])
				continue;
			print_error("%s on %s, round %u: %#llx, not %#llx\n",
				    dard_cp_algo_name(cases[i].algo),
				    cases[i].spec, r + 1,
				    (unsigned long long)got[r],
				    (unsigned long long)cases[i].want[r]);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_decisions),
	};

	dard_log_init("test_controller_rows", DARD_LOG_ERR);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
