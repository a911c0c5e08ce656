// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The optional controller (Documentation/protocol.md, "Controller
 * protocol"): dardd reports its elephants to dard-controller, a full
 * report every report interval (also its keepalive) and an incremental
 * one as soon as an elephant begins or ends, and takes ASSIGN and
 * WEIGHTS only from the configured controller's address and port,
 * authentic, made for our tree, fresh and not stale. While the
 * controller places our elephants, DARD's rounds do not move them; when
 * it says SELF, or falls silent for the timeout, DARD schedules them
 * again and every destination's weights go back to even. The elephants,
 * their paths and their history stay in our table throughout.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "clock.h"
#include "dardd_priv.h"
#include "controller.h"
#include "counters.h"
#include "elephants.h"
#include "io.h"
#include "log.h"

int controller_places(const struct dardd *d)
{
	return d->cp.mode == CP_PLACES;
}

const char *controller_mode_name(const struct dardd *d)
{
	return controller_places(d) ? "controller" : "dard";
}

const char *controller_mode_why(const struct dardd *d)
{
	static const char *const why[] = {
		[CP_NONE] = "no controller configured",
		[CP_UNHEARD] = "controller not heard from yet",
		[CP_SILENT] = "controller silent past the timeout",
		[CP_SELF] = "controller leaves elephants to DARD (self)",
		[CP_PLACES] = "controller places elephants",
	};

	return why[d->cp.mode];
}

static const struct dard_rx_ops cp_ops;

int controller_init(struct dardd *d)
{
	struct cp *c = &d->cp;
	uint32_t r;

	memset(c, 0, sizeof(*c));
	c->mode = d->o.controller ? CP_UNHEARD : CP_NONE;
	c->mode_wall_ns = d->io.wall_ns();
	dard_rx_init(&c->rx, &cp_ops, d);
	for (r = 0; dard_cp_tor_of_rank(d->t, r) != DARD_NONE; r++)
		;
	c->ntors = r;
	c->in = calloc(1, sizeof(*c->in));
	c->out = calloc(1, sizeof(*c->out));
	c->ack = calloc(1, sizeof(*c->ack));
	c->wgen = calloc(r + 1, sizeof(*c->wgen));
	if (!c->in || !c->out || !c->ack || !c->wgen)
		return -ENOMEM;
	c->out->type = DARD_CP_REPORT;
	return 0;
}

int controller_open(struct dardd *d)
{
	if (!d->o.controller)
		return 0;
	return io_open(d, DARDD_SOCK_CONTROLLER, "controller");
}

void controller_fini(struct dardd *d)
{
	struct cp *c = &d->cp;

	if (!c->in)
		return;
	io_close(d, DARDD_SOCK_CONTROLLER);
	free(c->in);
	free(c->out);
	free(c->ack);
	free(c->wgen);
	memset(c, 0, sizeof(*c));
}

/*
 * e as a report's record; 0, or -1 when its path has no index: a pair
 * naming no shortest path (a hand move) has nothing to say, but its end
 * is still news (the path of an END means nothing).
 */
static int record(struct dardd *d, const struct elephant *e, int end,
		  struct dard_cp_flow *f)
{
	int path = cp_path_index(d, e);

	if (path < 0 && !end)
		return -1;
	if (path < 0)
		path = 0;
	f->key = e->key;
	f->path = path;
	f->flags = end ? DARD_CP_FL_END : 0;
	return 0;
}

void controller_flush(struct dardd *d)
{
	struct dard_cp_msg *m = d->cp.out;

	if (!d->o.controller || !m || !m->count)
		return;
	m->type = DARD_CP_REPORT;
	m->flags = 0;
	m->algo = DARD_CP_ALGO_NONE;
	m->epoch = d->cp.epoch;
	io_send_cp(d, m);
	m->count = 0;
}

void controller_note(struct dardd *d, const struct elephant *e, int end)
{
	struct dard_cp_msg *m = d->cp.out;

	if (!d->o.controller || !m)
		return;
	if (m->count == DARD_CP_FLOWS_MAX)
		controller_flush(d);
	if (!record(d, e, end, &m->flow[m->count]))
		m->count++;
}

/*
 * Every elephant, FIRST ... LAST over as many datagrams as it takes; a
 * full datagram goes only once another record is known to follow, so
 * that the last one carries LAST. None: one empty datagram, the
 * keepalive.
 */
static void report_full(struct dardd *d)
{
	struct dard_cp_msg *m = d->cp.in; /* free between datagrams */
	struct elephant *e;
	int first = 1;

	controller_flush(d);
	memset(m, 0, offsetof(struct dard_cp_msg, flow));
	m->type = DARD_CP_REPORT;
	m->epoch = d->cp.epoch;
	for (e = d->els; e; e = e->next) {
		struct dard_cp_flow f;

		if (record(d, e, 0, &f))
			continue;
		if (m->count == DARD_CP_FLOWS_MAX) {
			m->flags = first ? DARD_CP_F_FIRST : 0;
			io_send_cp(d, m);
			m->count = 0;
			first = 0;
		}
		m->flow[m->count++] = f;
	}
	m->flags = (first ? DARD_CP_F_FIRST : 0) | DARD_CP_F_LAST;
	io_send_cp(d, m);
}

/* Silent past the timeout: DARD again, weights even, nothing forgotten. */
static void fall_back(struct dardd *d, enum cp_mode why)
{
	struct in_addr in = {.s_addr = htonl(d->o.controller)};

	d->cp.mode = why;
	d->cp.mode_wall_ns = d->io.wall_ns();
	d->st.controller_fallbacks++;
	cp_weights_even(d);
	log_warn(
		"controller %s silent for %.3g s: DARD schedules our elephants",
		inet_ntoa(in), d->o.cp_timeout_ns / 1e9);
}

void controller_tick(struct dardd *d, uint64_t now)
{
	struct cp *c = &d->cp;

	if (!d->o.controller)
		return;
	if ((c->mode == CP_PLACES || c->mode == CP_SELF) &&
	    now - c->heard_ns > d->o.cp_timeout_ns)
		fall_back(d, CP_SILENT);
	if (now >= c->next_report_ns) {
		c->next_report_ns += d->o.cp_report_ns;
		if (c->next_report_ns <= now)
			c->next_report_ns = now + d->o.cp_report_ns;
		report_full(d);
	}
}

/* Whether authentic m may be taken: DARD_RX_TAKEN, or the refusal. */
static int check(struct dardd *d, const struct dard_cp_msg *m, char *why,
		 size_t len)
{
	uint64_t wall = d->io.wall_ns();
	char err[DARD_ERR_MAX];
	int rank, ret;

	if (m->sender) {
		snprintf(why, len, "sender %u, not 0 (the controller's)",
			 m->sender);
		return DARD_RX_SENDER;
	}
	if (m->topo != d->io.digest) {
		snprintf(why, len,
			 "topology differs (digest 0x%08x, ours 0x%08x)",
			 m->topo, d->io.digest);
		return DARD_RX_TOPO;
	}
	if (m->type != DARD_CP_ASSIGN && m->type != DARD_CP_WEIGHTS) {
		snprintf(why, len, "a %s, which only hosts send",
			 dard_cp_type_name(m->type));
		return DARD_RX_MALFORMED;
	}
	/* A replay, or a recording or forgery far from our clock. */
	ret = dard_cp_seq_check(m->seq, d->cp.seq_in, wall, err);
	if (!ret)
		ret = dard_cp_epoch_check(m->epoch, wall, err);
	if (ret) {
		snprintf(why, len, "%s", err);
		return dard_rx_kind_of(ret);
	}
	if (m->epoch < d->cp.epoch) {
		snprintf(why, len, "epoch %llu below %llu (stale)",
			 (unsigned long long)m->epoch,
			 (unsigned long long)d->cp.epoch);
		return DARD_RX_STALE;
	}
	rank = m->type == DARD_CP_WEIGHTS ? cp_weights_check(d, m) : -1;
	if (rank >= 0) {
		snprintf(why, len, "weight record %d names no ToR (rank %u)",
			 rank, m->wrec[rank].dst_tor);
		return DARD_RX_MALFORMED;
	}
	return DARD_RX_TAKEN;
}

/* Heard: the mode that m asks for, said when it changes. */
static void heard(struct dardd *d, const struct dard_cp_msg *m, uint64_t now)
{
	struct cp *c = &d->cp;
	enum cp_mode was = c->mode, is = was;
	const char *algo = dard_cp_algo_name(m->algo);

	c->heard_ns = now;
	c->algo = m->algo;
	if (m->type == DARD_CP_ASSIGN)
		is = m->flags & DARD_CP_F_SELF ? CP_SELF : CP_PLACES;
	else if (was != CP_PLACES)
		is = CP_SELF; /* weights alone leave elephants to DARD */
	if (is == was)
		return;
	c->mode = is;
	c->mode_wall_ns = d->io.wall_ns();
	if (is == CP_PLACES)
		log_info("controller (%s, epoch %llu) places our elephants",
			 algo ? algo : "?", (unsigned long long)m->epoch);
	else
		log_info("controller (%s) heard: DARD schedules our elephants",
			 algo ? algo : "?");
}

/* Not from the controller: not even worth a MAC's work. */
static int cp_source(void *arg, uint32_t addr, uint16_t port, char *why)
{
	struct dardd *d = arg;

	if (addr == d->o.controller && port == DARD_CP_PORT)
		return DARD_RX_TAKEN;
	strcpy(why, addr != d->o.controller ? "not the controller's address"
					    : "not from the controller's port");
	return DARD_RX_SOURCE;
}

static int cp_decode(void *arg, const uint8_t *buf, size_t len, char *err)
{
	struct dardd *d = arg;

	return dard_cp_decode(buf, len, d->keys, d->cp.in, err);
}

static int cp_take(void *arg, size_t len, uint32_t addr, uint16_t port,
		   uint64_t now, char *why)
{
	struct dardd *d = arg;
	struct dard_cp_msg *m = d->cp.in;
	int ret = check(d, m, why, DARD_RX_WHY_MAX);

	if (ret != DARD_RX_TAKEN)
		return ret;
	d->cp.seq_in = m->seq;
	d->cp.epoch = m->epoch;
	heard(d, m, now);
	if (m->type == DARD_CP_ASSIGN)
		cp_assign(d, m, now);
	else
		cp_weights(d, m);
	return DARD_RX_TAKEN;
}

/* Each kind warned of once a second: one must not hide another. */
static const struct dard_rx_ops cp_ops = {
	.what = "controller message",
	.max_len = DARD_CP_MSG_MAX,
	.kinds = DARD_RX_KINDS_OF(DARDD_CP_REFUSALS),
	.log_per_kind = 1,
	.source = cp_source,
	.decode = cp_decode,
	.take = cp_take,
	.now = dardd_now_ns,
};

void controller_input(struct dardd *d, const uint8_t *buf, size_t len,
		      uint32_t addr, uint16_t port, uint64_t now)
{
	dard_rx_input(&d->cp.rx, buf, len, addr, port, now);
}

unsigned controller_receive(struct dardd *d)
{
	return dard_rx_drain(&d->cp.rx, d->io.fd[DARDD_SOCK_CONTROLLER], NULL);
}
