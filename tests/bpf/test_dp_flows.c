// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The flow table and its events under BPF_PROG_TEST_RUN: a flow becoming
 * an elephant and ending, each reported once; a flow of ACKs never one,
 * as only payload counts; a new connection on an
 * ended flow's 5-tuple starting afresh; events the full ring buffer
 * could not take delivered later; the batched walk and sweep; and what
 * an LRU eviction leaves for dardd. Needs root (CAP_BPF); without it,
 * says so and skips (fails under CI).
 */
#include <errno.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/in.h>
#include <linux/pkt_cls.h>

#include <cmocka.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "dp_env.h"

struct evcount {
	unsigned elephant, end;
	uint16_t sport;
	uint64_t ts_ns; /* the last event's */
};

static int count_ev(const struct dard_event *ev, void *arg)
{
	struct evcount *c = arg;

	if (ntohs(ev->key.sport) != c->sport)
		return 0;
	c->ts_ns = ev->ts_ns;
	c->elephant += ev->type == DARD_EVENT_ELEPHANT;
	c->end += ev->type == DARD_EVENT_END;
	return 0;
}

/*
 * Flow 4444 to port 80 made an elephant, then ended: six packets of 1400
 * bytes, marked from the third, then two FINs.
 */
static void elephant_ended(struct env *e)
{
	struct pkt_opts o = {ME_TO_PEER, .proto = IPPROTO_TCP, .sport = 4444,
			     .dport = 80, .payload = 1400};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, &o);
	uint32_t n;
	int i;

	/* Two packets stay under 3000 bytes, the third makes it. */
	for (i = 0; i < 6; i++) {
		assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
		check_encap(in, len, out, n, i < 2 ? 0 : 8 << 2);
	}
	o.tcp_flags = 0x01; /* FIN */
	len = build(in, &o);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
}

static void test_elephant_once(void **state)
{
	struct env *e = *state;
	struct evcount c = {.sport = 4444};

	elephant_ended(e);
	assert_true(dard_dp_bpf.poll(e->dp, count_ev, &c, 100) >= 0);
	assert_int_equal(c.elephant, 1);
	assert_int_equal(c.end, 1);
}

/*
 * A flow of ACKs never becomes an elephant, however many bytes its
 * headers add up to (here 100 packets of 40, above the 3000 bytes), and
 * never carries the mark: only TCP's and UDP's data counts, and the
 * flow's payload says exactly how much there was.
 */
static void test_acks_no_elephant(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER, .proto = IPPROTO_TCP, .sport = 5555,
			     .dport = 80, .tcp_flags = 0x10};
	struct dard_flow_key key = {.saddr = A(MY_ID),
				    .daddr = A(PEER_ID),
				    .sport = htons(5555),
				    .dport = htons(80),
				    .proto = IPPROTO_TCP};
	struct evcount c = {.sport = 5555};
	/* NOP, NOP, timestamps: Linux's usual options. */
	static const uint8_t ts[12] = {1, 1, 8, 10};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, &o);
	struct dard_flow f;
	uint32_t n;
	int i;

	for (i = 0; i < 100; i++) {
		assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
		assert_true(check_encap(in, len, out, n, 0) >= 0);
	}
	flow_of(e, &key, &f);
	assert_int_equal(f.bytes, 100 * 40);
	assert_int_equal(f.payload, 0);
	assert_false(f.flags & DARD_FLOW_F_ELEPHANT);
	assert_true(dard_dp_bpf.poll(e->dp, count_ev, &c, 0) >= 0);
	assert_int_equal(c.elephant, 0);

	/* Its first data: 1000 bytes behind 32 of header, not enough... */
	o.payload = 1000;
	o.tcp_opts = ts;
	o.tcp_optlen = sizeof(ts);
	len = build(in, &o);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	flow_of(e, &key, &f);
	assert_int_equal(f.payload, 1000);
	assert_false(f.flags & DARD_FLOW_F_ELEPHANT);
	/* ...until the payload passes 3000, and the mark goes on. */
	for (i = 0; i < 2; i++) {
		assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
		check_encap(in, len, out, n, i < 1 ? 0 : 8 << 2);
	}
	flow_of(e, &key, &f);
	assert_int_equal(f.payload, 3000);
	assert_true(f.flags & DARD_FLOW_F_ELEPHANT);
}

/* UDP's data is its payload, fragments' every byte after the IP header. */
static void test_payload_udp(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER, .proto = IPPROTO_UDP, .sport = 6666,
			     .dport = 53, .payload = 700};
	struct dard_flow_key key = {.saddr = A(MY_ID),
				    .daddr = A(PEER_ID),
				    .sport = htons(6666),
				    .dport = htons(53),
				    .proto = IPPROTO_UDP};
	struct dard_flow f;

	assert_true(send_one(e, &o) >= 0);
	flow_of(e, &key, &f);
	assert_int_equal(f.bytes, 20 + 8 + 700);
	assert_int_equal(f.payload, 700);
}

/* A new connection on an ended flow's 5-tuple starts afresh. */
static void test_syn_resets(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER, .proto = IPPROTO_TCP, .sport = 4444,
			     .dport = 80, .tcp_flags = 0x02};
	struct dard_flow_key key = {.saddr = A(MY_ID),
				    .daddr = A(PEER_ID),
				    .sport = htons(4444),
				    .dport = htons(80),
				    .proto = IPPROTO_TCP};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	size_t len = build(in, &o);
	struct dard_flow f;
	uint32_t n;

	elephant_ended(e);
	flow_of(e, &key, &f);
	assert_true(f.flags & DARD_FLOW_F_ELEPHANT);
	assert_true(f.flags & DARD_FLOW_F_ENDED);
	/* Its client's SYN. */
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_int_equal(check_encap(in, len, out, n, 0) >= 0, 1);
	flow_of(e, &key, &f);
	assert_int_equal(f.flags, 0);
	assert_int_equal(f.packets, 1);
	assert_int_equal(f.payload, 0);

	/* Ended again; a server's SYN-ACK on the 5-tuple starts afresh too. */
	o.tcp_flags = 0x11; /* FIN, ACK */
	send_one(e, &o);
	flow_of(e, &key, &f);
	assert_true(f.flags & DARD_FLOW_F_ENDED);
	o.tcp_flags = 0x12; /* SYN, ACK */
	send_one(e, &o);
	flow_of(e, &key, &f);
	assert_false(f.flags & DARD_FLOW_F_ENDED);
	assert_int_equal(f.packets, 1);
}

static int drain(const struct dard_event *ev, void *arg)
{
	return 0;
}

/*
 * An event the ring cannot take is not lost: the flow stays unreported
 * and its next packet tries again.
 */
static void test_ring_full(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER, .proto = IPPROTO_TCP, .dport = 443,
			     .tcp_flags = 0x01};
	struct dard_flow_key key = {.saddr = A(MY_ID),
				    .daddr = A(PEER_ID),
				    .sport = htons(60000),
				    .dport = htons(443),
				    .proto = IPPROTO_TCP};
	struct evcount c = {.sport = 60000};
	uint8_t in[PKT_MAX], out[PKT_MAX];
	uint64_t retries = stat_of(e, DARD_STAT_EVENT_RETRY);
	struct dard_flow f;
	size_t len;
	uint32_t n, i;

	/* FINs of 6000 flows: more end events than 256 KiB holds. */
	for (i = 0; i < 6000; i++) {
		o.sport = 10000 + i;
		len = build(in, &o);
		assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	}
	assert_true(stat_of(e, DARD_STAT_EVENT_RETRY) > retries);
	/* An elephant now: its event cannot go out yet. */
	o.sport = 60000;
	o.tcp_flags = 0x10;
	o.payload = 1400;
	len = build(in, &o);
	for (i = 0; i < 3; i++)
		assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	flow_of(e, &key, &f);
	assert_true(f.flags & DARD_FLOW_F_ELEPHANT);
	assert_false(f.flags & DARD_FLOW_F_REPORTED);
	/* Once the daemon reads, the next packet delivers it. */
	assert_true(dard_dp_bpf.poll(e->dp, drain, NULL, 0) > 0);
	assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_true(dard_dp_bpf.poll(e->dp, count_ev, &c, 100) >= 0);
	assert_int_equal(c.elephant, 1);
	flow_of(e, &key, &f);
	assert_true(f.flags & DARD_FLOW_F_REPORTED);
}

static int count_flow(const struct dard_flow_key *key,
		      const struct dard_flow *flow, void *arg)
{
	unsigned *n = arg;

	(*n)++;
	return 0;
}

static int stop_at_three(const struct dard_flow_key *key,
			 const struct dard_flow *flow, void *arg)
{
	unsigned *n = arg;

	return ++(*n) == 3 ? -EINTR : 0;
}

static int count_end(const struct dard_event *ev, void *arg)
{
	unsigned *n = arg;

	*n += ev->type == DARD_EVENT_END;
	return 0;
}

/* The walks read the table in batches: more flows than one batch holds. */
static void test_walk_and_sweep(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER, .sport = 1, .dport = 9};
	struct pkt_opts fin = {ME_TO_PEER, .proto = IPPROTO_TCP, .sport = 1,
			       .dport = 9, .tcp_flags = 0x01};
	int fd = bpf_map__fd(e->skel->maps.dard_flows);
	struct dard_flow_key k, next;
	uint8_t in[PKT_MAX], out[PKT_MAX];
	unsigned before = 0, walked = 0, ends = 0, i;
	void *prev = NULL;
	uint32_t n;

	for (i = 0; i < 600; i++) {
		o.sport = 20000 + i;
		assert_int_equal(run(e, 1, in, build(in, &o), out, &n),
				 TC_ACT_OK);
	}
	/* And one ended, its end reported by the program. */
	assert_true(send_one(e, &fin) >= 0);
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		k = next;
		prev = &k;
		before++;
	}
	assert_int_equal(before, 601);
	assert_int_equal(dard_dp_bpf.flows(e->dp, count_flow, &walked), 0);
	assert_int_equal(walked, before);
	walked = 0;
	assert_int_equal(dard_dp_bpf.flows(e->dp, stop_at_three, &walked),
			 -EINTR);
	assert_int_equal(walked, 3);
	/* Nothing is idle for a day; after a few jiffies all is for 1 ns. */
	assert_int_equal(dard_dp_bpf.sweep(e->dp, 86400e9, count_end, &ends),
			 0);
	usleep(50000);
	assert_int_equal(dard_dp_bpf.sweep(e->dp, 1, count_end, &ends),
			 (int)before);
	/* Flows whose end was reported already are not reported again. */
	assert_int_equal(ends, 600);
	walked = 0;
	assert_int_equal(dard_dp_bpf.flows(e->dp, count_flow, &walked), 0);
	assert_int_equal(walked, 0);
}

/*
 * LRU eviction. A BPF LRU hash has no eviction callback, and an insert
 * cannot tell that it evicted something: the program cannot report an
 * evicted flow's end, and does not. What it leaves is the evidence
 * dardd's walk ends an elephant by (daemon/dardd/flows.c, walk_cb): the
 * flow's next packet makes a new entry, begun (first_ns) after dardd took
 * the old one for an elephant, with no moves and no elephant flags. Shown
 * here on the real program with the table shrunk to LRU_FLOWS entries:
 * an elephant, moved once, then LRU_FLOWS new flows, one packet each.
 *
 * Why the elephant must go, and by the last of them: an LRU hash
 * preallocates exactly max_entries entries, no spares, so it and
 * LRU_FLOWS others cannot all be there. The common LRU hands each CPU
 * free entries in batches (128 at most; on 6.18 max_entries / possible
 * CPUs / 2, 16 with 2 CPUs), keeps the entries a CPU made on that CPU's
 * pending list until its next batch, and once no entry is free evicts a
 * batch from the tail of the global inactive list, oldest first among
 * those not looked up since they went there. Pinned to one CPU
 * (setup_lru), every entry goes through that CPU's lists in the order it
 * was made, and no flow is seen again, so the oldest, the elephant, is
 * in the first batch evicted. Unpinned, it could wait on another CPU's
 * pending list, which this CPU's evictions never reach: with the mice
 * sent from the other CPU it kept its entry through all 64. The test
 * prints when it went and how many went with it (6.18, 2 CPUs: at the
 * 64th, with 15 others).
 */
enum { LRU_FLOWS = 64 };

static cpu_set_t lru_was;

static int teardown_lru(void **state)
{
	env_teardown(state);
	sched_setaffinity(0, sizeof(lru_was), &lru_was);
	return 0;
}

static int setup_lru(void **state)
{
	struct env *e;
	cpu_set_t one;

	if (sched_getaffinity(0, sizeof(lru_was), &lru_was))
		return -1;
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	*state = e = calloc(1, sizeof(*e));
	if (!e || sched_setaffinity(0, sizeof(one), &one) ||
	    env_load(e, LRU_FLOWS)) {
		teardown_lru(state);
		return -1;
	}
	return 0;
}

/* Whether key has an entry; a syscall's lookup, which the LRU ignores. */
static int has_flow(struct env *e, const struct dard_flow_key *key)
{
	struct dard_flow f;

	return !bpf_map_lookup_elem(bpf_map__fd(e->skel->maps.dard_flows), key,
				    &f);
}

struct find {
	struct dard_flow_key key;
	struct dard_flow flow;
	unsigned found;
};

static int find_flow(const struct dard_flow_key *key,
		     const struct dard_flow *flow, void *arg)
{
	struct find *w = arg;

	if (!memcmp(key, &w->key, sizeof(*key))) {
		w->flow = *flow;
		w->found++;
	}
	return 0;
}

static void test_lru_evicted(void **state)
{
	struct env *e = *state;
	struct pkt_opts o = {ME_TO_PEER, .sport = 40000, .dport = 7000,
			     .payload = 1400};
	struct dard_flow_key key = key_of(&o);
	struct evcount c = {.sport = 40000};
	struct find w = {.key = key};
	struct dard_alias_pair to;
	struct dard_flow old;
	uint8_t in[PKT_MAX], out[PKT_MAX];
	uint64_t new_flows, full, since;
	unsigned i, at = 0, left = 0, ends = 0, size;
	size_t len = build(in, &o);
	uint32_t n;
	int k = -1, m;

	/* An elephant at its third packet (3000 bytes), reported once. */
	for (i = 0; i < 3; i++) {
		assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
		k = check_encap(in, len, out, n, i < 2 ? 0 : 8 << 2);
		assert_true(k >= 0);
	}
	assert_true(dard_dp_bpf.poll(e->dp, count_ev, &c, 100) >= 0);
	assert_int_equal(c.elephant, 1);
	/* dardd takes it for an elephant as it reads the event (track_add). */
	since = dard_clock_ns(CLOCK_MONOTONIC);
	assert_true(c.ts_ns <= since);
	m = (k + 1) % NPATHS;
	to = pair_of(m);
	assert_int_equal(dard_dp_bpf.move(e->dp, &key, &to), 0);
	flow_of(e, &key, &old);
	assert_int_equal(old.moves, 1);
	assert_int_equal(old.path_idx, m);
	assert_int_equal(old.flags &
				 (DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED),
			 DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED);

	/* LRU_FLOWS mice: every one gets an entry, the elephant loses its. */
	new_flows = stat_of(e, DARD_STAT_NEW_FLOW);
	full = stat_of(e, DARD_STAT_FLOW_FULL);
	for (i = 1; i <= LRU_FLOWS; i++) {
		struct pkt_opts mouse = o;

		mouse.sport = 1000 + i;
		mouse.payload = 8;
		assert_true(send_one(e, &mouse) >= 0);
		if (!at && !has_flow(e, &key)) {
			at = i;
			assert_int_equal(
				dard_dp_bpf.flows(e->dp, count_flow, &left), 0);
		}
	}
	assert_int_equal(stat_of(e, DARD_STAT_NEW_FLOW), new_flows + LRU_FLOWS);
	assert_int_equal(stat_of(e, DARD_STAT_FLOW_FULL), full);
	size = bpf_map__max_entries(e->skel->maps.dard_flows);
	if (!at)
		fail_msg("the elephant kept its entry through %u new flows in "
			 "a table of %u",
			 LRU_FLOWS, size);
	printf("flow table of %u: the elephant evicted by new flow %u after "
	       "it, with %u others\n",
	       size, at, at - left);
	/* Nothing reported its end, nor any other evicted flow's. */
	c.elephant = 0;
	assert_true(dard_dp_bpf.poll(e->dp, count_ev, &c, 0) >= 0);
	assert_int_equal(c.elephant + c.end, 0);
	assert_true(dard_dp_bpf.poll(e->dp, count_end, &ends, 0) >= 0);
	assert_int_equal(ends, 0);

	/*
	 * Its next packet, a few jiffies on (the coarse clock's): a new
	 * flow, on its hashed path (the move is gone with the entry), a
	 * mouse that leaves unmarked. dardd's walk sees a first_ns after it
	 * took the old entry for an elephant, and ends that.
	 */
	usleep(50000);
	o.payload = 8;
	assert_int_equal(send_one(e, &o), k);
	assert_int_equal(stat_of(e, DARD_STAT_NEW_FLOW),
			 new_flows + LRU_FLOWS + 1);
	assert_int_equal(dard_dp_bpf.flows(e->dp, find_flow, &w), 0);
	assert_int_equal(w.found, 1);
	assert_true(w.flow.first_ns > since);
	assert_true(w.flow.first_ns > old.elephant_ns);
	assert_int_equal(w.flow.moves, 0);
	assert_int_equal(w.flow.path_idx, k);
	assert_int_equal(w.flow.flags &
				 (DARD_FLOW_F_ELEPHANT | DARD_FLOW_F_REPORTED),
			 0);
	assert_int_equal(w.flow.elephant_ns, 0);
	assert_int_equal(w.flow.packets, 1);

	/* An elephant again: a second event, for dardd to adopt it by. */
	o.payload = 1400;
	len = build(in, &o);
	for (i = 0; i < 3; i++)
		assert_int_equal(run(e, 1, in, len, out, &n), TC_ACT_OK);
	assert_true(dard_dp_bpf.poll(e->dp, count_ev, &c, 100) >= 0);
	assert_int_equal(c.elephant, 1);
	assert_true(c.ts_ns > since);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		DP_TEST(test_elephant_once),
		DP_TEST(test_acks_no_elephant),
		DP_TEST(test_payload_udp),
		DP_TEST(test_syn_resets),
		DP_TEST(test_ring_full),
		DP_TEST(test_walk_and_sweep),
		cmocka_unit_test_setup_teardown(test_lru_evicted, setup_lru,
						teardown_lru),
	};

	return dp_main("test_dp_flows", NULL, 0, tests, ARRAY_SIZE(tests));
}
