// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Encoding and checking the controller protocol (cproto.h). Its frame,
 * the MAC and what is checked before it, is frame.c's, as the switch
 * protocol's: one library, one key file, one review.
 */
#include <errno.h>
#include <string.h>

#include "be.h"
#include "cproto.h"
#include "err.h"
#include "frame.h"

static const char *const type_names[__DARD_CP_TYPE_MAX] = {
	[DARD_CP_REPORT] = "report",
	[DARD_CP_ASSIGN] = "assign",
	[DARD_CP_WEIGHTS] = "weights",
	[DARD_CP_ACK] = "ack",
};

static const char *const algo_names[__DARD_CP_ALGO_MAX] = {
	[DARD_CP_ALGO_NONE] = "none",
	[DARD_CP_ALGO_GREEDY] = "sdn-greedy",
	[DARD_CP_ALGO_OPTIMAL] = "sdn-optimal",
	[DARD_CP_ALGO_ADAPTIVE] = "sdn-adaptive",
	[DARD_CP_ALGO_OBLIVIOUS] = "oblivious",
};

const char *dard_cp_type_name(unsigned type)
{
	return type < __DARD_CP_TYPE_MAX ? type_names[type] : NULL;
}

const char *dard_cp_algo_name(unsigned algo)
{
	return algo < __DARD_CP_ALGO_MAX ? algo_names[algo] : NULL;
}

static int has_flows(unsigned type)
{
	return type == DARD_CP_REPORT || type == DARD_CP_ASSIGN ||
	       type == DARD_CP_ACK;
}

size_t dard_cp_len(const struct dard_cp_msg *m)
{
	size_t len = DARD_CP_HDR_LEN + DARD_CP_MAC_LEN;
	unsigned i;

	if (has_flows(m->type))
		return len + (size_t)m->count * DARD_CP_FLOW_LEN;
	for (i = 0; i < m->count && i < DARD_CP_WRECS_MAX; i++)
		len += DARD_CP_WREC_LEN + 2 * (size_t)m->wrec[i].npaths;
	return len;
}

/* Which flow flags a message of this type may carry. */
static unsigned flow_flags(unsigned type)
{
	switch (type) {
	case DARD_CP_REPORT:
		return DARD_CP_FL_END;
	case DARD_CP_ACK:
		return DARD_CP_FL_FAILED;
	default:
		return 0;
	}
}

/* What the decoder would refuse in m's header, checked before sending. */
static int header_ok(const struct dard_cp_msg *m)
{
	if (!m->seq || !dard_cp_type_name(m->type) || !m->type)
		return 0;
	if (m->flags & ~__DARD_CP_F_ALL || !dard_cp_algo_name(m->algo))
		return 0;
	if ((m->flags & DARD_CP_F_SELF) && m->type != DARD_CP_ASSIGN)
		return 0;
	return m->count <=
	       (has_flows(m->type) ? DARD_CP_FLOWS_MAX : DARD_CP_WRECS_MAX);
}

static int weights_ok(const uint16_t *w, unsigned n)
{
	unsigned i;

	if (!n || n > DARD_PATHS_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (w[i])
			return 1;
	return 0;
}

int dard_cp_add_weights(struct dard_cp_msg *m, uint32_t dst_tor,
			const uint16_t *w, unsigned n)
{
	unsigned used = 0, i;

	if (!weights_ok(w, n))
		return -EINVAL;
	for (i = 0; i < m->count; i++)
		used += m->wrec[i].npaths;
	if (m->count >= DARD_CP_WRECS_MAX || used + n > DARD_CP_WVALS_MAX ||
	    dard_cp_len(m) + DARD_CP_WREC_LEN + 2 * n > DARD_CP_MSG_MAX)
		return -ENOSPC;
	m->wrec[m->count].dst_tor = dst_tor;
	m->wrec[m->count].npaths = n;
	m->wrec[m->count].off = used;
	memcpy(m->w + used, w, n * sizeof(*w));
	m->count++;
	return 0;
}

static void put_flow(uint8_t *r, const struct dard_cp_flow *f)
{
	/* The key is already in network order: its bytes go as they are. */
	memcpy(r, &f->key.saddr, 4);
	memcpy(r + 4, &f->key.daddr, 4);
	memcpy(r + 8, &f->key.sport, 2);
	memcpy(r + 10, &f->key.dport, 2);
	r[12] = f->key.proto;
	r[13] = f->flags;
	dard_put16(r + 14, f->path);
}

static size_t put_body(uint8_t *p, const struct dard_cp_msg *m)
{
	uint8_t *r = p + DARD_CP_HDR_LEN;
	unsigned i, j;

	if (has_flows(m->type)) {
		for (i = 0; i < m->count; i++) {
			const struct dard_cp_flow *f = &m->flow[i];

			if (f->flags & ~flow_flags(m->type))
				return 0;
			put_flow(r, f);
			r += DARD_CP_FLOW_LEN;
		}
		return r - p;
	}
	for (i = 0; i < m->count; i++) {
		const struct dard_cp_wrec *wr = &m->wrec[i];

		if (wr->off + (size_t)wr->npaths > DARD_CP_WVALS_MAX ||
		    !weights_ok(m->w + wr->off, wr->npaths))
			return 0;
		dard_put32(r, wr->dst_tor);
		dard_put16(r + 4, wr->npaths);
		dard_put16(r + 6, 0);
		for (j = 0; j < wr->npaths; j++)
			dard_put16(r + 8 + 2 * j, m->w[wr->off + j]);
		r += DARD_CP_WREC_LEN + 2 * wr->npaths;
	}
	return r - p;
}

size_t dard_cp_encode(void *buf, size_t cap, const struct dard_key *k,
		      const struct dard_cp_msg *m)
{
	size_t len, body;
	uint8_t *p = buf;

	if (!header_ok(m))
		return 0;
	len = dard_cp_len(m);
	if (len > cap || len > DARD_CP_MSG_MAX)
		return 0;
	dard_put16(p, DARD_CP_MAGIC);
	p[2] = DARD_CP_VERSION;
	p[3] = m->type;
	dard_put16(p + 4, len);
	dard_put16(p + 6, m->count);
	dard_put16(p + 8, m->flags);
	p[10] = m->algo;
	p[11] = 0;
	dard_put32(p + 12, k->id);
	dard_put32(p + 16, m->sender);
	dard_put32(p + 20, m->topo);
	dard_put64(p + 24, m->seq);
	dard_put64(p + 32, m->epoch);
	body = put_body(p, m);
	if (body != len - DARD_CP_MAC_LEN)
		return 0;
	dard_frame_sign(p, body, k);
	return len;
}

/* The controller protocol's frame: what is checked before all else. Its
 * longest datagram is refused before, as malformed (dard_cp_decode). */
static const struct dard_frame frame = {
	.magic = DARD_CP_MAGIC,
	.version = DARD_CP_VERSION,
	.hdr_len = DARD_CP_HDR_LEN,
	.key_at = 12,
	.name = "dard controller message",
	.version_name = "controller protocol version",
	.version_note = "",
};
_Static_assert((int)DARD_CP_MAC_LEN == (int)DARD_FRAME_MAC_LEN,
	       "the frame's MAC");

static int get_flows(const uint8_t *p, size_t len, struct dard_cp_msg *m,
		     char *err)
{
	size_t want = DARD_CP_HDR_LEN + (size_t)m->count * DARD_CP_FLOW_LEN;
	unsigned i;

	if (m->count > DARD_CP_FLOWS_MAX || want + DARD_CP_MAC_LEN != len)
		return dard_fail(err, -EBADMSG,
				 "%u flow records at byte 6 need %zu bytes, "
				 "the message has %zu",
				 m->count, want + DARD_CP_MAC_LEN, len);
	for (i = 0; i < m->count; i++) {
		const uint8_t *r = p + DARD_CP_HDR_LEN + DARD_CP_FLOW_LEN * i;
		struct dard_cp_flow *f = &m->flow[i];

		memset(f, 0, sizeof(*f));
		memcpy(&f->key.saddr, r, 4);
		memcpy(&f->key.daddr, r + 4, 4);
		memcpy(&f->key.sport, r + 8, 2);
		memcpy(&f->key.dport, r + 10, 2);
		f->key.proto = r[12];
		f->flags = r[13];
		f->path = dard_get16(r + 14);
		if (f->flags & ~flow_flags(m->type))
			return dard_fail(err, -EBADMSG,
					 "flow flags 0x%02x at byte %zu are "
					 "not allowed in a %s",
					 f->flags, (size_t)(r + 13 - p),
					 dard_cp_type_name(m->type));
		if (f->path >= DARD_PATHS_MAX)
			return dard_fail(err, -EBADMSG,
					 "path %u at byte %zu is beyond the "
					 "%d paths a destination may have",
					 f->path, (size_t)(r + 14 - p),
					 DARD_PATHS_MAX);
	}
	return 0;
}

static int get_weights(const uint8_t *p, size_t len, struct dard_cp_msg *m,
		       char *err)
{
	size_t at = DARD_CP_HDR_LEN, end = len - DARD_CP_MAC_LEN;
	unsigned i, j, used = 0;

	if (m->count > DARD_CP_WRECS_MAX)
		return dard_fail(err, -EBADMSG,
				 "%u weight records at byte 6, more than the "
				 "%d a message may carry",
				 m->count, DARD_CP_WRECS_MAX);
	for (i = 0; i < m->count; i++) {
		struct dard_cp_wrec *wr = &m->wrec[i];
		int any = 0;

		if (end - at < DARD_CP_WREC_LEN)
			return dard_fail(err, -EBADMSG,
					 "weight record %u at byte %zu is cut "
					 "short",
					 i, at);
		wr->dst_tor = dard_get32(p + at);
		wr->npaths = dard_get16(p + at + 4);
		wr->off = used;
		if (!wr->npaths || wr->npaths > DARD_PATHS_MAX)
			return dard_fail(err, -EBADMSG,
					 "%u paths at byte %zu (1 to %d)",
					 wr->npaths, at + 4, DARD_PATHS_MAX);
		if (dard_get16(p + at + 6))
			return dard_fail(err, -EBADMSG,
					 "reserved byte %zu is not zero",
					 at + 6);
		if (used + wr->npaths > DARD_CP_WVALS_MAX ||
		    (end - at - DARD_CP_WREC_LEN) / 2 < wr->npaths)
			return dard_fail(err, -EBADMSG,
					 "weight record %u at byte %zu needs "
					 "%u weights, the message ends first",
					 i, at, wr->npaths);
		at += DARD_CP_WREC_LEN;
		for (j = 0; j < wr->npaths; j++, at += 2) {
			m->w[used + j] = dard_get16(p + at);
			any |= !!m->w[used + j];
		}
		if (!any)
			return dard_fail(err, -EBADMSG,
					 "every weight of record %u is 0 (it "
					 "ends at byte %zu)",
					 i, at);
		used += wr->npaths;
	}
	if (at != end)
		return dard_fail(err, -EBADMSG,
				 "%zu bytes after the last weight record at "
				 "byte %zu",
				 end - at, at);
	return 0;
}

int dard_cp_decode(const void *buf, size_t len, const struct dard_keys *keys,
		   struct dard_cp_msg *m, char *err)
{
	const uint8_t *p = buf;
	int ret;

	/* Before the MAC: no one makes us hash more than a message holds. */
	if (len > DARD_CP_MSG_MAX)
		return dard_fail(err, -EBADMSG,
				 "datagram of %zu bytes is longer than the %d "
				 "a controller message may take",
				 len, DARD_CP_MSG_MAX);
	ret = dard_frame_check(&frame, p, len, keys, err);
	if (ret)
		return ret;
	m->type = p[3];
	if (!m->type || !dard_cp_type_name(m->type))
		return dard_fail(err, -EBADMSG,
				 "unknown message type %u at byte 3", p[3]);
	if (dard_get16(p + 4) != len)
		return dard_fail(err, -EBADMSG,
				 "length field says %u bytes at byte 4, the "
				 "datagram has %zu",
				 dard_get16(p + 4), len);
	m->len = len;
	m->count = dard_get16(p + 6);
	m->flags = dard_get16(p + 8);
	m->algo = p[10];
	if (m->flags & ~__DARD_CP_F_ALL ||
	    ((m->flags & DARD_CP_F_SELF) && m->type != DARD_CP_ASSIGN))
		return dard_fail(err, -EBADMSG,
				 "flags 0x%04x at byte 8 are not allowed in "
				 "a %s",
				 m->flags, dard_cp_type_name(m->type));
	if (!dard_cp_algo_name(m->algo))
		return dard_fail(err, -EBADMSG,
				 "unknown algorithm %u at byte 10", m->algo);
	if (p[11])
		return dard_fail(err, -EBADMSG, "reserved byte 11 is not zero");
	m->key_id = dard_get32(p + 12);
	m->sender = dard_get32(p + 16);
	m->topo = dard_get32(p + 20);
	m->seq = dard_get64(p + 24);
	m->epoch = dard_get64(p + 32);
	if (!m->seq)
		return dard_fail(err, -EBADMSG,
				 "seq 0 at byte 24 (never sent)");
	if (has_flows(m->type))
		return get_flows(p, len, m, err);
	return get_weights(p, len, m, err);
}

/* FNV-1a, 32 bits, over what names the tree's paths. */
static uint32_t fnv(uint32_t h, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len--)
		h = (h ^ *p++) * 16777619U;
	return h;
}

static uint32_t fnv32(uint32_t h, uint32_t v)
{
	uint8_t b[4];

	dard_put32(b, v);
	return fnv(h, b, sizeof(b));
}

uint32_t dard_cp_topo_digest(const struct dard_topo *t)
{
	uint32_t h = 2166136261U, i;

	h = fnv32(h, t->nlevels);
	h = fnv32(h, t->nnodes);
	for (i = 0; i < t->nnodes; i++) {
		const struct dard_node *n = &t->node[i];

		h = fnv(h, n->name, strnlen(n->name, DARD_NAME_MAX));
		h = fnv32(h, n->level << 16 | n->nports);
		h = fnv32(h, n->is_host ? n->id : 0);
	}
	h = fnv32(h, t->nlinks);
	for (i = 0; i < t->nlinks; i++) {
		const struct dard_link *l = &t->link[i];

		h = fnv32(h, l->up);
		h = fnv32(h, l->down);
		h = fnv32(h, (uint32_t)l->up_port << 16 | l->down_port);
		h = fnv32(h, l->mbps);
	}
	return h;
}

static int is_tor(const struct dard_topo *t, uint32_t n)
{
	return !t->node[n].is_host && dard_topo_tor_host(t, n) != DARD_NONE;
}

uint32_t dard_cp_tor_rank(const struct dard_topo *t, uint32_t tor)
{
	uint32_t i, rank = 0;

	if (tor >= t->nnodes || !is_tor(t, tor))
		return DARD_NONE;
	for (i = 0; i < tor; i++)
		rank += is_tor(t, i);
	return rank;
}

uint32_t dard_cp_tor_of_rank(const struct dard_topo *t, uint32_t rank)
{
	uint32_t i;

	for (i = 0; i < t->nnodes; i++)
		if (is_tor(t, i) && !rank--)
			return i;
	return DARD_NONE;
}

uint64_t dard_cp_next_seq(uint64_t last, uint64_t now_ns)
{
	return now_ns > last ? now_ns : last + 1;
}

static uint64_t dist(uint64_t a, uint64_t b)
{
	return a > b ? a - b : b - a;
}

int dard_cp_seq_check(uint64_t seq, uint64_t last, uint64_t now_ns, char *err)
{
	if (seq <= last)
		return dard_fail(
			err, -EALREADY, "seq %llu not above %llu (a replay)",
			(unsigned long long)seq, (unsigned long long)last);
	if (dist(seq, now_ns) > DARD_CP_SKEW_NS)
		return dard_fail(err, -ETIME,
				 "seq %llu is %.1f s %s our clock (at most "
				 "%.0f s: a recording, or clocks apart)",
				 (unsigned long long)seq,
				 dist(seq, now_ns) / 1e9,
				 seq < now_ns ? "behind" : "ahead of",
				 DARD_CP_SKEW_NS / 1e9);
	return 0;
}

uint64_t dard_cp_first_epoch(uint64_t now_ns)
{
	return now_ns / 1000000000ULL << 20;
}

uint64_t dard_cp_next_epoch(uint64_t last, uint64_t now_ns)
{
	uint64_t e = dard_cp_first_epoch(now_ns);

	return e > last ? e : last + 1;
}

uint64_t dard_cp_epoch_max(uint64_t now_ns)
{
	return dard_cp_first_epoch(now_ns + DARD_CP_SKEW_NS) - 1;
}

int dard_cp_epoch_check(uint64_t epoch, uint64_t now_ns, char *err)
{
	uint64_t s = epoch >> 20, now_s = now_ns / 1000000000ULL;

	if (epoch > dard_cp_epoch_max(now_ns))
		return dard_fail(err, -ETIME,
				 "epoch %llu starts %llu s ahead of our clock "
				 "(under %.0f s taken)",
				 (unsigned long long)epoch,
				 (unsigned long long)(s - now_s),
				 DARD_CP_SKEW_NS / 1e9);
	return 0;
}
