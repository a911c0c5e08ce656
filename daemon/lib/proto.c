// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Encoding and checking the switch state query protocol; its frame, the
 * MAC and what is checked before it, is frame.c's, as the controller and
 * share protocols' (Documentation/protocol.md says why libsodium).
 */
#include <errno.h>
#include <string.h>

#include "be.h"
#include "err.h"
#include "frame.h"
#include "proto.h"

static void header(uint8_t *p, uint8_t type, size_t len, unsigned count,
		   uint32_t key_id, uint32_t sender, uint64_t seq)
{
	dard_put16(p, DARD_PROTO_MAGIC);
	p[2] = DARD_PROTO_VERSION;
	p[3] = type;
	dard_put16(p + 4, len);
	dard_put16(p + 6, count);
	dard_put32(p + 8, key_id);
	dard_put32(p + 12, sender);
	dard_put64(p + 16, seq);
}

uint64_t dard_proto_next_seq(uint64_t last, uint64_t now_us)
{
	return now_us > last ? now_us : last + 1;
}

size_t dard_proto_reply_len(unsigned n)
{
	return DARD_HDR_LEN + DARD_PORT_REC_LEN * (size_t)n + DARD_MAC_LEN;
}

size_t dard_proto_query_len(unsigned n)
{
	size_t bare = DARD_HDR_LEN + 2 * (size_t)n + DARD_MAC_LEN;
	size_t reply = dard_proto_reply_len(n);

	return reply > bare + DARD_PROTO_SLACK ? reply - DARD_PROTO_SLACK
					       : bare;
}

/* A message of ports; with agent (non-zero) a watch's field before them. */
static size_t ports_msg(uint8_t type, void *buf, size_t cap,
			const struct dard_key *k, uint32_t sender, uint64_t seq,
			uint32_t agent, const uint16_t *ports, unsigned n,
			size_t padto)
{
	size_t at = DARD_HDR_LEN + (agent ? 4 : 0);
	size_t body = at + 2 * (size_t)n, len = body + DARD_MAC_LEN;
	uint8_t *p = buf;
	unsigned i;

	if (padto > len)
		len = padto;
	if (n > DARD_MSG_PORTS_MAX || len > cap || len > DARD_MSG_MAX ||
	    !sender || !seq)
		return 0;
	header(p, type, len, n, k->id, sender, seq);
	if (agent)
		dard_put32(p + DARD_HDR_LEN, agent);
	for (i = 0; i < n; i++)
		dard_put16(p + at + 2 * i, ports[i]);
	memset(p + body, 0, len - DARD_MAC_LEN - body);
	dard_frame_sign(p, len - DARD_MAC_LEN, k);
	return len;
}

size_t dard_proto_query(void *buf, size_t cap, const struct dard_key *k,
			uint32_t sender, uint64_t seq, const uint16_t *ports,
			unsigned n, size_t padto)
{
	return ports_msg(DARD_MSG_QUERY, buf, cap, k, sender, seq, 0, ports, n,
			 padto);
}

size_t dard_proto_watch(void *buf, size_t cap, const struct dard_key *k,
			uint32_t sender, uint64_t seq, uint32_t agent,
			const uint16_t *ports, unsigned n, size_t padto)
{
	if (!agent || !n)
		return 0;
	return ports_msg(DARD_MSG_WATCH, buf, cap, k, sender, seq, agent, ports,
			 n, padto);
}

size_t dard_proto_watch_len(unsigned n)
{
	return dard_proto_query_len(n) + 4;
}

/* A message of records; with agent (non-zero) a notice's field first. */
static size_t records_msg(uint8_t type, void *buf, size_t cap,
			  const struct dard_key *k, uint32_t sender,
			  uint64_t seq, uint32_t agent,
			  const struct dard_port_state *st, unsigned n)
{
	size_t at = DARD_HDR_LEN + (agent ? 4 : 0);
	size_t len = dard_proto_reply_len(n) + (agent ? 4 : 0);
	uint8_t *p = buf;
	unsigned i;

	if (n > DARD_MSG_PORTS_MAX || len > cap || !sender || !seq)
		return 0;
	header(p, type, len, n, k->id, sender, seq);
	if (agent)
		dard_put32(p + DARD_HDR_LEN, agent);
	for (i = 0; i < n; i++) {
		uint8_t *r = p + at + DARD_PORT_REC_LEN * i;

		dard_put16(r, st[i].port);
		dard_put16(r + 2, st[i].flags);
		dard_put32(r + 4, st[i].mbps);
		dard_put32(r + 8, st[i].elephants);
		dard_put32(r + 12, st[i].load_kbps);
	}
	dard_frame_sign(p, len - DARD_MAC_LEN, k);
	return len;
}

size_t dard_proto_reply(void *buf, size_t cap, const struct dard_key *k,
			uint32_t sender, uint64_t seq,
			const struct dard_port_state *st, unsigned n)
{
	return records_msg(DARD_MSG_REPLY, buf, cap, k, sender, seq, 0, st, n);
}

size_t dard_proto_notice(void *buf, size_t cap, const struct dard_key *k,
			 uint32_t sender, uint64_t seq, uint32_t agent,
			 const struct dard_port_state *st, unsigned n)
{
	if (!agent || !n)
		return 0;
	return records_msg(DARD_MSG_NOTICE, buf, cap, k, sender, seq, agent, st,
			   n);
}

/* The switch protocol's frame: what is checked before all else. */
static const struct dard_frame frame = {
	.magic = DARD_PROTO_MAGIC,
	.version = DARD_PROTO_VERSION,
	.hdr_len = DARD_HDR_LEN,
	.key_at = 8,
	.name = "dard message",
	.version_name = "version",
	.version_note = ", authenticated",
};
_Static_assert((int)DARD_MAC_LEN == (int)DARD_FRAME_MAC_LEN, "the frame's MAC");

int dard_proto_decode(const void *buf, size_t len, const struct dard_keys *keys,
		      struct dard_msg *msg, char *err)
{
	uint8_t seen[65536 / 8] = {0};
	const uint8_t *p = buf;
	size_t want, rec, i, at;
	unsigned count;
	int ret, asks;

	ret = dard_frame_check(&frame, p, len, keys, err);
	if (ret)
		return ret;
	if (p[3] < DARD_MSG_QUERY || p[3] > DARD_MSG_NOTICE)
		return dard_fail(err, -EBADMSG,
				 "unknown message type %u at byte 3", p[3]);
	if (dard_get16(p + 4) != len)
		return dard_fail(
			err, -EBADMSG,
			"length field says %u bytes at byte 4, the datagram has %zu",
			dard_get16(p + 4), len);
	count = dard_get16(p + 6);
	if (count > DARD_MSG_PORTS_MAX)
		return dard_fail(
			err, -EBADMSG,
			"%u ports at byte 6, more than the %d a message may carry",
			count, DARD_MSG_PORTS_MAX);
	if (!dard_get32(p + 12))
		return dard_fail(err, -EBADMSG,
				 "sender 0 at byte 12 (never sent)");
	if (!dard_get64(p + 16))
		return dard_fail(err, -EBADMSG,
				 "seq 0 at byte 16 (never sent)");
	asks = dard_proto_asks(p[3]);
	rec = asks ? 2 : DARD_PORT_REC_LEN;
	/* A watch's and a notice's agent field, before the body. */
	at = DARD_HDR_LEN +
	     (p[3] == DARD_MSG_WATCH || p[3] == DARD_MSG_NOTICE ? 4 : 0);
	want = at + rec * count + DARD_MAC_LEN;
	/* Only a query or watch is padded. */
	if (asks ? want > len : want != len)
		return dard_fail(err, -EBADMSG,
				 "%u %s need %zu bytes, the message has %zu",
				 count, asks ? "ports" : "port records", want,
				 len);
	for (i = want - DARD_MAC_LEN; i < len - DARD_MAC_LEN; i++)
		if (p[i])
			return dard_fail(err, -EBADMSG,
					 "padding byte %zu is not zero", i);
	msg->agent = at > DARD_HDR_LEN ? dard_get32(p + DARD_HDR_LEN) : 0;
	if (at > DARD_HDR_LEN && (!msg->agent || !count))
		return dard_fail(err, -EBADMSG, "%s at byte %d",
				 msg->agent ? "no ports" : "agent 0",
				 msg->agent ? 6 : DARD_HDR_LEN);
	msg->type = p[3];
	msg->count = count;
	msg->len = len;
	msg->key_id = dard_get32(p + 8);
	msg->sender = dard_get32(p + 12);
	msg->seq = dard_get64(p + 16);
	for (i = 0; i < count; i++) {
		const uint8_t *r = p + at + rec * i;
		uint16_t port = dard_get16(r);

		if (!port)
			return dard_fail(
				err, -EBADMSG,
				"port 0 at byte %zu (ports count from 1)",
				at + rec * i);
		if (seen[port / 8] & 1 << port % 8)
			return dard_fail(err, -EBADMSG,
					 "port %u at byte %zu appears twice",
					 port, at + rec * i);
		seen[port / 8] |= 1 << port % 8;
		if (asks) {
			msg->ports[i] = port;
			continue;
		}
		msg->state[i].port = port;
		msg->state[i].flags = dard_get16(r + 2);
		if (msg->state[i].flags & ~__DARD_PORT_F_ALL)
			return dard_fail(err, -EBADMSG,
					 "unknown flags 0x%04x at byte %zu",
					 msg->state[i].flags, at + rec * i + 2);
		msg->state[i].mbps = dard_get32(r + 4);
		msg->state[i].elephants = dard_get32(r + 8);
		msg->state[i].load_kbps = dard_get32(r + 12);
	}
	return 0;
}
