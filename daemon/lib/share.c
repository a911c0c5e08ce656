// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Encoding and checking the SHARE message among a ToR's hosts (share.h),
 * and the receiver's rules. Its frame, the MAC and what is checked before
 * it, is frame.c's, as the switch and controller protocols': one library,
 * one key file.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "be.h"
#include "cproto.h"
#include "err.h"
#include "frame.h"
#include "proto.h"
#include "share.h"

int dard_share_scope_init(struct dard_share_scope *sc,
			  const struct dard_topo *t, uint32_t tor)
{
	uint32_t *todo, ntodo = 0, n, l;
	unsigned i;

	memset(sc, 0, sizeof(*sc));
	if (tor >= t->nnodes || t->node[tor].is_host ||
	    dard_topo_tor_host(t, tor) == DARD_NONE)
		return -EINVAL;
	sc->tor = tor;
	sc->ndl = 2 * t->nlinks;
	sc->in = calloc(sc->ndl ? sc->ndl : 1, 1);
	sc->above = calloc(t->nnodes, 1);
	todo = calloc(t->nnodes, sizeof(*todo));
	if (!sc->in || !sc->above || !todo) {
		free(todo);
		dard_share_scope_free(sc);
		return -ENOMEM;
	}
	/* Upwards from the ToR: each switch once. */
	sc->above[tor] = 1;
	todo[ntodo++] = tor;
	while (ntodo) {
		uint32_t at = todo[--ntodo];
		const struct dard_node *nd = &t->node[at];

		for (i = 0; i < nd->nup; i++) {
			const struct dard_link *lk =
				dard_topo_port_link(t, at, nd->up[i]);

			if (!lk || sc->above[lk->up])
				continue;
			sc->above[lk->up] = 1;
			todo[ntodo++] = lk->up;
		}
	}
	free(todo);
	for (l = 0; l < t->nlinks; l++) {
		const struct dard_link *lk = &t->link[l];

		/* Up, leaving the lower node; down, towards a switch. */
		n = lk->down;
		sc->in[dard_dlink(l, DARD_UP)] =
			!t->node[n].is_host && sc->above[n];
		sc->in[dard_dlink(l, DARD_DOWN)] =
			!t->node[n].is_host && sc->above[lk->up];
	}
	return 0;
}

void dard_share_scope_free(struct dard_share_scope *sc)
{
	free(sc->in);
	free(sc->above);
	sc->in = sc->above = NULL;
	sc->ndl = 0;
}

int dard_share_scope_switch(const struct dard_share_scope *sc, uint32_t sw)
{
	return sc->above && sc->above[sw];
}

static unsigned rec_len(unsigned type)
{
	switch (type) {
	case DARD_SHARE_MSG:
		return DARD_SHARE_REC_LEN;
	case DARD_SHARE_WANT:
		return DARD_SHARE_WREC_LEN;
	default:
		return 0;
	}
}

static unsigned recs_max(unsigned type)
{
	return type == DARD_SHARE_MSG ? DARD_SHARE_RECS_MAX
				      : DARD_SHARE_WANTS_MAX;
}

size_t dard_share_len(unsigned type, unsigned n)
{
	if (!rec_len(type))
		return 0;
	return DARD_SHARE_HDR_LEN + (size_t)n * rec_len(type) +
	       DARD_SHARE_MAC_LEN;
}

static int put_recs(uint8_t *p, const struct dard_share_msg *m)
{
	unsigned i;

	for (i = 0; i < m->count; i++) {
		uint8_t *q = p + rec_len(m->type) * i;
		const struct dard_share_rec *r;

		if (m->type == DARD_SHARE_WANT) {
			dard_put32(q, m->want[i]);
			continue;
		}
		r = &m->rec[i];
		if (r->flags & ~__DARD_PORT_F_ALL)
			return -1;
		dard_put32(q, r->dl);
		dard_put16(q + 4, r->elephants);
		q[6] = r->flags;
		q[7] = r->age;
		dard_put32(q + 8, r->load_kbps);
	}
	return 0;
}

size_t dard_share_encode(void *buf, size_t cap, const struct dard_key *k,
			 const struct dard_share_msg *m)
{
	size_t len = dard_share_len(m->type, m->count);
	uint8_t *p = buf;

	if (!len || m->count > recs_max(m->type) || len > cap || !m->seq)
		return 0;
	dard_put16(p, DARD_SHARE_MAGIC);
	p[2] = DARD_SHARE_VERSION;
	p[3] = m->type;
	dard_put16(p + 4, len);
	dard_put16(p + 6, m->count);
	dard_put32(p + 8, k->id);
	dard_put32(p + 12, m->sender);
	dard_put32(p + 16, m->topo);
	dard_put32(p + 20, 0);
	dard_put64(p + 24, m->seq);
	if (put_recs(p + DARD_SHARE_HDR_LEN, m))
		return 0;
	len -= DARD_SHARE_MAC_LEN;
	dard_frame_sign(p, len, k);
	return len + DARD_SHARE_MAC_LEN;
}

/* The share protocol's frame: what is checked before all else. */
static const struct dard_frame frame = {
	.magic = DARD_SHARE_MAGIC,
	.version = DARD_SHARE_VERSION,
	.hdr_len = DARD_SHARE_HDR_LEN,
	.key_at = 8,
	.max_len = DARD_SHARE_MSG_MAX,
	.name = "dard share",
	.version_name = "share version",
	.version_note = "",
	.max_name = "a share",
};
_Static_assert((int)DARD_SHARE_MAC_LEN == (int)DARD_FRAME_MAC_LEN,
	       "the frame's MAC");

/* The directed link at byte at, for record i: in range, in scope. */
static int get_dl(const uint8_t *q, size_t at, uint32_t ndl,
		  const struct dard_share_scope *sc, uint32_t *dl, char *err)
{
	*dl = dard_get32(q);
	if (*dl >= ndl)
		return dard_fail(err, -ERANGE,
				 "directed link %u at byte %zu is beyond the "
				 "tree's %u",
				 *dl, at, ndl);
	if (sc && !sc->in[*dl])
		return dard_fail(err, -ERANGE,
				 "directed link %u at byte %zu is not one a "
				 "ToR's hosts share",
				 *dl, at);
	return 0;
}

static int get_rec(const uint8_t *q, size_t at, uint32_t ndl,
		   const struct dard_share_scope *sc, struct dard_share_rec *r,
		   char *err)
{
	r->elephants = dard_get16(q + 4);
	r->flags = q[6];
	r->age = q[7];
	r->load_kbps = dard_get32(q + 8);
	if (r->flags & ~__DARD_PORT_F_ALL)
		return dard_fail(err, -EBADMSG,
				 "unknown flags 0x%02x at byte %zu", r->flags,
				 at + 6);
	return get_dl(q, at, ndl, sc, &r->dl, err);
}

/* The records of an authentic message: each link once. */
static int get_recs(const uint8_t *p, uint32_t ndl,
		    const struct dard_share_scope *sc, struct dard_share_msg *m,
		    char *err)
{
	uint32_t *dl = m->type == DARD_SHARE_WANT ? m->want : NULL;
	unsigned i, j;
	int ret;

	for (i = 0; i < m->count; i++) {
		size_t at = DARD_SHARE_HDR_LEN + rec_len(m->type) * i;

		if (dl)
			ret = get_dl(p + at, at, ndl, sc, &dl[i], err);
		else
			ret = get_rec(p + at, at, ndl, sc, &m->rec[i], err);
		if (ret)
			return ret;
		/* Records are few (352 at most): a pairwise look will do. */
		for (j = 0; j < i; j++)
			if (dl ? dl[j] == dl[i] : m->rec[j].dl == m->rec[i].dl)
				return dard_fail(err, -EBADMSG,
						 "directed link %u at byte %zu "
						 "appears twice",
						 dl ? dl[i] : m->rec[i].dl, at);
	}
	return 0;
}

int dard_share_decode(const void *buf, size_t len, const struct dard_keys *keys,
		      const struct dard_share_scope *sc,
		      struct dard_share_msg *m, char *err)
{
	uint32_t ndl = sc ? sc->ndl : UINT32_MAX;
	const uint8_t *p = buf;
	int ret;

	ret = dard_frame_check(&frame, p, len, keys, err);
	if (ret)
		return ret;
	m->type = p[3];
	if (!rec_len(m->type))
		return dard_fail(err, -EBADMSG,
				 "unknown message type %u at byte 3", p[3]);
	if (dard_get16(p + 4) != len)
		return dard_fail(err, -EBADMSG,
				 "length field says %u bytes at byte 4, the "
				 "datagram has %zu",
				 dard_get16(p + 4), len);
	m->count = dard_get16(p + 6);
	if (dard_share_len(m->type, m->count) != len)
		return dard_fail(err, -EBADMSG,
				 "%u records at byte 6 need %zu bytes, the "
				 "message has %zu",
				 m->count, dard_share_len(m->type, m->count),
				 len);
	if (dard_get32(p + 20))
		return dard_fail(err, -EBADMSG,
				 "reserved bytes 20-23 are not zero");
	m->len = len;
	m->key_id = dard_get32(p + 8);
	m->sender = dard_get32(p + 12);
	m->topo = dard_get32(p + 16);
	m->seq = dard_get64(p + 24);
	if (!m->seq)
		return dard_fail(err, -EBADMSG,
				 "seq 0 at byte 24 (never sent)");
	return get_recs(p, ndl, sc, m, err);
}

int dard_share_check(const struct dard_share_msg *m, uint32_t sender,
		     uint32_t topo, uint64_t last, uint64_t now_ns, char *err)
{
	if (m->sender != sender)
		return dard_fail(err, -EACCES,
				 "sender 0x%08x at byte 12 is not the peer at "
				 "that address (0x%08x)",
				 m->sender, sender);
	if (m->topo != topo)
		return dard_fail(err, -ESTALE,
				 "tree digest 0x%08x at byte 16 is not ours "
				 "(0x%08x): the configurations differ",
				 m->topo, topo);
	return dard_cp_seq_check(m->seq, last, now_ns, err);
}

/*
 * How old record r is at our wall clock wall: its age at the sender plus
 * the time since the sender's seq (its wall clock when sent), so that a
 * SHARE held in transit ages as it waits. A seq ahead of our clock
 * (skew, bounded by dard_share_check()) adds nothing.
 */
static uint64_t rec_age_ns(const struct dard_share_rec *r, uint64_t seq,
			   uint64_t wall)
{
	uint64_t age = (uint64_t)r->age * DARD_SHARE_AGE_MS * 1000000;

	return age + (wall > seq ? wall - seq : 0);
}

unsigned dard_share_apply(const struct dard_topo *t,
			  const struct dard_share_msg *m,
			  struct dard_lstate *ls, uint64_t *when,
			  struct dard_share_seen *seen, uint64_t now,
			  uint64_t wall, struct dard_share_counts *c)
{
	const uint64_t max =
		DARD_SHARE_AGE_MAX * DARD_SHARE_AGE_MS * 1000000ULL;
	unsigned i, n = 0;

	memset(c, 0, sizeof(*c));
	/* A WANT has no states (and more records than rec[] holds). */
	for (i = 0; m->type == DARD_SHARE_MSG && i < m->count; i++) {
		const struct dard_share_rec *r = &m->rec[i];
		uint64_t age = rec_age_ns(r, m->seq, wall);
		uint64_t at = now > age ? now - age : 1;

		/* Held on the way: neither a state nor a cover. */
		if (age > max) {
			c->stale++;
			continue;
		}
		if (!(r->flags & DARD_PORT_F_UP)) {
			/* Not covered: the switch is asked at once. */
			seen->got_ns[r->dl] = 0;
			c->down++;
			continue;
		}
		if ((ls[r->dl].known && ls[r->dl].dead) || when[r->dl] >= at)
			continue;
		ls[r->dl].mbps = t->link[r->dl / 2].mbps;
		ls[r->dl].flows = r->elephants;
		ls[r->dl].loaded = r->load_kbps != DARD_LOAD_UNKNOWN;
		ls[r->dl].load = ls[r->dl].loaded ? r->load_kbps / 1000.0 : 0;
		ls[r->dl].known = 1;
		ls[r->dl].dead = 0;
		when[r->dl] = at;
		seen->got_ns[r->dl] = now;
		n++;
	}
	return n;
}

int dard_share_covered(const struct dard_share_seen *seen, uint32_t dl,
		       uint64_t prev_tick)
{
	return seen->got_ns[dl] > prev_tick;
}

uint64_t dard_share_mix(uint32_t dl)
{
	uint64_t z = dl + 0x9e3779b97f4a7c15ULL;

	z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ z >> 27) * 0x94d049bb133111ebULL;
	return z ^ z >> 31;
}

/* A link state's load in kbit/s, as a switch would have sent it. */
static uint32_t load_kbps(const struct dard_lstate *ls)
{
	double kbps = ls->load * 1000.0;

	if (!ls->loaded || kbps != kbps)
		return DARD_LOAD_UNKNOWN;
	if (kbps <= 0)
		return 0;
	return kbps + 0.5 >= DARD_LOAD_MAX ? DARD_LOAD_MAX
					   : (uint32_t)(kbps + 0.5);
}

int dard_share_rec_of(struct dard_share_rec *r, uint32_t dl,
		      const struct dard_lstate *ls, uint64_t when_ns,
		      uint64_t now)
{
	uint64_t unit = DARD_SHARE_AGE_MS * 1000000ULL;
	uint64_t age = now > when_ns ? (now - when_ns) / unit : 0;

	if (!when_ns || !ls->known || age > DARD_SHARE_AGE_MAX)
		return -ERANGE;
	r->dl = dl;
	r->elephants = ls->flows > UINT16_MAX ? UINT16_MAX : ls->flows;
	r->flags = ls->dead ? 0 : DARD_PORT_F_UP;
	r->age = age;
	r->load_kbps = load_kbps(ls);
	return 0;
}
