// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * libFuzzer target for what dardd does with a datagram on its controller
 * socket (daemon/dardd/controller.c, cpapply.c): host e1_1 of fattree:4
 * with a few elephants, a fake datapath. Input byte 0 picks how the rest
 * is sent: bit 0 signs it with the key first (what the controller could
 * send, so that the fuzzer gets past the MAC); bit 1 first makes its
 * header one dardd takes (sender 0, our digest, the next seq, an epoch
 * not stale) and points records whose first byte is below 0x80 at one of
 * our elephants, so that ASSIGN and WEIGHTS are applied; bit 2 lets time
 * pass (reports, the fallback on silence). Beyond not crashing: every
 * elephant stays on a path its destination has, the datapath is asked
 * only for weights it can take, and everything dardd sends decodes.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <sodium.h>

#include "be.h"
#include "dardd_priv.h"
#include "monitors.h"
#include "track.h"
#include "gen.h"

#define CTLR 0x0a640063U
enum { NELS = 6 };

static struct dardd d;
static uint64_t clock_ns = 1000000000ULL;
static struct dard_flow_key keys[NELS];
/* dardd holds its keys by pointer (keyfile.h); these need no hiding. */
static struct dard_keys mac_keys = {.n = 1, .key = {{.id = 1, .k = {42}}}};

/* clock.c's and dp's, which this target does not link. */
uint64_t dardd_now_ns(void)
{
	return clock_ns;
}

const char *dard_dp_strerror(int err)
{
	return strerror(-err);
}

static int fake_move(struct dard_dp *dp, const struct dard_flow_key *key,
		     const struct dard_alias_pair *path)
{
	(void)dp;
	(void)key;
	(void)path;
	return 0;
}

static int fake_set_dead(struct dard_dp *dp, uint32_t id, const uint64_t *dead)
{
	(void)dp;
	(void)id;
	(void)dead;
	return 0;
}

static int fake_set_weights(struct dard_dp *dp, uint32_t id, const uint16_t *w,
			    unsigned n)
{
	(void)dp;
	(void)id;
	if (n > DARD_PATHS_MAX || (w && !n))
		abort();
	return !w || n == 4 ? 0 : -EINVAL;
}

static const struct dard_dp_ops ops = {
	.name = "fuzz",
	.move = fake_move,
	.set_dead = fake_set_dead,
	.set_weights = fake_set_weights,
};

static ssize_t xmit(struct dardd *dd, enum dardd_sock sock, const void *buf,
		    size_t len, uint32_t addr)
{
	(void)sock;
	(void)addr;
	static struct dard_cp_msg m;
	char err[DARD_ERR_MAX];

	if (dard_cp_decode(buf, len, dd->keys, &m, err))
		abort(); /* dardd sent something the controller refuses */
	return len;
}

static int first_path(const struct dard_path *p, void *arg)
{
	struct dard_alias_pair *pair = arg;

	pair->saddr = htonl(p->saddr);
	pair->daddr = htonl(p->daddr);
	return 1;
}

static void setup(void)
{
	static const char *const dst[NELS] = {"e2_1", "e2_2", "e3_1",
					      "e4_2", "e1_3", "e1_4"};
	struct dard_plan_opts po;
	char err[DARD_ERR_MAX];
	struct dard_topo *t;
	struct dard_plan *p;
	unsigned i;

	dard_log_init("dardd", DARD_LOG_ERR);
	if (sodium_init() < 0)
		abort();
	t = dard_gen_fattree(4, 1000, err);
	dard_plan_opts_init(&po);
	p = t ? dard_plan_new(t, &po, err) : NULL;
	d.pc = p ? dard_pathctx_new(t, p) : NULL;
	if (!d.pc)
		abort();
	d.t = t;
	d.me = dard_topo_find(d.t, "e1_1");
	d.my_tor = dard_topo_tor(d.t, d.me);
	/* dardd's defaults that these parts read (opts.c is not linked). */
	d.o.schedule_ns = 5000000000ULL;
	d.o.max_age_ns = 3000000000ULL;
	d.o.cp_timeout_ns = 3000000000ULL;
	d.o.cp_report_ns = 1000000000ULL;
	d.o.controller = CTLR;
	d.ops = &ops;
	d.keys = &mac_keys;
	elephants_init(&d);
	monitors_init(&d, 1);
	io_init(&d);
	d.io.xmit = xmit;
	if (controller_init(&d))
		abort();
	for (i = 0; i < NELS; i++) {
		uint32_t h = dard_topo_find(d.t, dst[i]);
		struct dard_alias_pair pair;

		keys[i].saddr = htonl(d.t->node[d.me].id);
		keys[i].daddr = htonl(d.t->node[h].id);
		keys[i].sport = htons(1000 + i);
		keys[i].dport = htons(5001);
		keys[i].proto = 6;
		dard_path_foreach(d.pc, d.me, h, first_path, &pair);
		if (!track_add(&d, &keys[i], &pair, clock_ns))
			abort();
	}
}

/* A header dardd takes, and records naming our elephants. */
static void patch(uint8_t *in, size_t n)
{
	size_t off;

	if (n < DARD_CP_HDR_LEN)
		return;
	dard_put32(in + 16, 0);
	dard_put32(in + 20, d.io.digest);
	dard_put64(in + 24, d.cp.seq_in + 1);
	if (dard_get64(in + 32) < d.cp.epoch)
		dard_put64(in + 32, d.cp.epoch);
	if (in[3] != DARD_CP_ASSIGN)
		return;
	for (off = DARD_CP_HDR_LEN; off + DARD_CP_FLOW_LEN <= n;
	     off += DARD_CP_FLOW_LEN)
		if (in[off] < 0x80)
			memcpy(in + off, &keys[in[off + 1] % NELS], 13);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t in[DARD_CP_MSG_MAX + DARD_CP_MAC_LEN];
	struct elephant *e;
	size_t n;

	if (!d.t)
		setup();
	if (!size || size - 1 > DARD_CP_MSG_MAX)
		return 0;
	memcpy(in, data + 1, size - 1);
	n = size - 1;
	if (data[0] & 2)
		patch(in, n);
	if (data[0] & 1) {
		crypto_auth_hmacsha512256(in + n, in, n, d.keys->key[0].k);
		n += DARD_CP_MAC_LEN;
	}
	controller_input(&d, in, n, CTLR, DARD_CP_PORT, clock_ns);
	if (data[0] & 4) {
		clock_ns += (uint64_t)(data[0] >> 3) * 250000000ULL;
		controller_tick(&d, clock_ns);
	}
	controller_flush(&d);
	for (e = d.els; e; e = e->next)
		if (cp_path_index(&d, e) < 0)
			abort(); /* moved somewhere its destination has not */
	return 0;
}
