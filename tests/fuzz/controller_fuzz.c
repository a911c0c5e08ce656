// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for dard-controller's host table (daemon/controller/
 * hosts.c), which takes datagrams from the network. Input byte 0 picks
 * the source (one of fattree:4's hosts' management addresses, or one
 * that is none of them), whether its seq is made fresh (bit 6), whether
 * the rest is signed with the key (so the
 * fuzzer reaches the checks after the MAC: sender, source, topology,
 * replay, each record), and whether silent hosts are expired after it.
 * State carries over from input to input, as on a live controller.
 * Beyond not crashing, the table must stay sound: every flow kept is its
 * host's, to another host, on a path that exists.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sodium.h>

#include "be.h"
#include "clock.h"
#include "ctlr.h"
#include "gen.h"

static const struct dard_keys keys = {.n = 1, .key = {{.id = 1, .k = {42}}}};
static struct ctlr c;
static struct dard_plan *plan;
static struct dard_topo *topo;
static uint64_t now = 1;

/* loop.c's, which this target does not link. */
uint64_t ctlr_now_ns(void)
{
	return now;
}

static void setup(void)
{
	struct dard_plan_opts o;
	char err[DARD_ERR_MAX];

	dard_log_init("controller_fuzz", DARD_LOG_ERR - 1);
	topo = dard_gen_fattree(4, 100, err);
	dard_plan_opts_init(&o);
	plan = topo ? dard_plan_new(topo, &o, err) : NULL;
	if (!plan)
		abort();
	c.t = topo;
	c.keys = &keys;
	c.topo = dard_cp_topo_digest(topo);
	c.o.host_timeout_ns = 3000000000ULL;
	c.pc = dard_pathctx_new(topo, plan);
	if (!c.pc || hosts_init(&c) || paths_init(&c))
		abort();
}

/* Every flow kept is sound. */
static void check(void)
{
	uint32_t i;
	unsigned j;

	for (i = 0; i < c.nhosts; i++) {
		const struct chost *h = &c.host[i];
		const struct dard_node *me = &topo->node[h->node];

		if (!host_live(h) && h->nflows)
			abort();
		for (j = 0; j < h->nflows; j++) {
			const struct cflow *f = &h->flow[j];
			const struct cpset *ps;

			if (ntohl(f->key.saddr) != me->id ||
			    f->dst == h->node ||
			    dard_topo_find_id(topo, ntohl(f->key.daddr)) !=
				    f->dst ||
			    paths_get(&c, h->node, f->dst, &ps) ||
			    f->path >= ps->npaths)
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t in[DARD_CP_MSG_MAX + DARD_CP_MAC_LEN];
	uint32_t addr;
	size_t n;

	if (!c.host)
		setup();
	if (!size || size - 1 > DARD_CP_MSG_MAX)
		return 0;
	memcpy(in, data + 1, size - 1);
	n = size - 1;
	/*
	 * Bit 6: the seq (bytes 24-31) becomes our clock give or take 2 s,
	 * the low 32 bits of the input's, so the fuzzer gets past the
	 * freshness check (seqs are clock times, cproto.h).
	 */
	if ((data[0] & 0x40) && n >= 32) {
		uint64_t seq = dard_clock_ns(CLOCK_REALTIME) - (1ULL << 31) +
			       dard_get32(in + 28);

		dard_put64(in + 24, seq);
	}
	if (data[0] & 1) {
		crypto_auth_hmacsha512256(in + n, in, n, keys.key[0].k);
		n += DARD_CP_MAC_LEN;
	}
	/* Bits 1-5: a host's management address, or one of nobody's. */
	addr = (data[0] >> 1 & 31) < topo->nhosts
		       ? topo->node[topo->hosts[data[0] >> 1 & 31]].mgmt
		       : 0x0a000001;
	now += 1000000000ULL;
	ctlr_receive(&c, in, n, addr, 40000, now);
	if (data[0] & 0x80)
		hosts_expire(&c, now);
	check();
	return 0;
}
