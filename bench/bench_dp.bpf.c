// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Loops for dard-bench-dp: the datapath's own egress and ingress, timed by
 * BPF_PROG_TEST_RUN with a large `repeat'.
 *
 * The kernel runs a program again and again on one buffer, so each loop
 * here leaves the buffer as it found it: the egress loop strips the header
 * it pushed, the ingress loop pushes back the header it stripped, and the
 * strip and the push are timed on their own (bench_strip, bench_pair) to
 * be taken off again. Each iteration first writes the next flow's source
 * address and port, so lookups walk the whole table; bench_noop does only
 * that, and is the baseline.
 *
 * Built without BPF_F_ADJ_ROOM_ENCAP_L3_IPV4: with it the kernel marks the
 * skb as encapsulated and refuses a second encapsulation of the same skb
 * (-EALREADY), and no helper clears the mark. Without it the helper skips
 * setting the inner header offsets, a few stores.
 */
#define DARD_ENCAP_FLAGS 0
/* 4in6 likewise; and a decap that leaves skb->protocol IPv6, so that
 * the ingress loop's push puts the packet back as it was. */
#define DARD_ENCAP6_FLAGS 0
#define DARD_DECAP6_FLAGS 0
#include "../bpf/dard_tc.bpf.c"

/* Set by dard-bench-dp before load. */
const volatile __u32 nflows = 1;     /* flows cycled through; 0: all new */
const volatile __u32 first_flow = 0; /* the loop's first flow */
const volatile __u32 strip_batch = 64;
/* What the ingress loop puts back (written after load: a const one would
 * be folded to its zero initialiser). */
struct iphdr outer_hdr;
struct ipv6hdr outer6_hdr; /* 4in6's (bench_*6 on a 4in6 load) */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} bench_iter SEC(".maps");

static __always_inline __u32 next_iter(void)
{
	__u32 zero = 0, *v = bpf_map_lookup_elem(&bench_iter, &zero);

	return v ? (*v)++ : 0;
}

/* Makes the packet flow first_flow + (i mod nflows): source address
 * my_id + flow / 65536, source port flow % 65536 (dard-bench-dp fills the
 * table the same way). */
static __always_inline void set_flow(struct __sk_buff *skb, __u32 off)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;
	struct iphdr *ip = data + off;
	__u32 i = next_iter(), flow;
	__be16 *sport = (void *)(ip + 1);

	flow = first_flow + (nflows ? i % nflows : i);
	if ((void *)(sport + 1) > data_end)
		return;
	ip->saddr = bpf_htonl(bpf_ntohl(my_id) + (flow >> 16));
	*sport = bpf_htons(flow & 0xffff);
}

static __always_inline int bare_push(struct __sk_buff *skb)
{
	void *data, *data_end;

	if (bpf_skb_adjust_room(skb, sizeof(struct iphdr), BPF_ADJ_ROOM_MAC,
				BPF_F_ADJ_ROOM_FIXED_GSO))
		return -1;
	data = (void *)(long)skb->data;
	data_end = (void *)(long)skb->data_end;
	if (data + ETH_HLEN + sizeof(struct iphdr) > data_end)
		return -1;
	__builtin_memcpy(data + ETH_HLEN, &outer_hdr, sizeof(struct iphdr));
	return 0;
}

static __always_inline int bare_strip(struct __sk_buff *skb, int n)
{
	return bpf_skb_adjust_room(skb, -n, BPF_ADJ_ROOM_MAC,
				   BPF_F_ADJ_ROOM_FIXED_GSO);
}

SEC("tc")
int bench_noop(struct __sk_buff *skb)
{
	set_flow(skb, ETH_HLEN);
	return TC_ACT_OK;
}

/* One push and one strip of 20 bytes: P + S. */
SEC("tc")
int bench_pair(struct __sk_buff *skb)
{
	set_flow(skb, ETH_HLEN);
	if (bare_push(skb) || bare_strip(skb, sizeof(struct iphdr)))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

/*
 * S alone: strips of 20 bytes, and every strip_batch-th iteration one push
 * of all of them back. Once the first push has made the headroom, pushing
 * is a move of the MAC header and a memset, its share 1/strip_batch.
 */
SEC("tc")
int bench_strip(struct __sk_buff *skb)
{
	__u32 zero = 0, *v = bpf_map_lookup_elem(&bench_iter, &zero);
	__u32 i = v ? *v : 0;

	set_flow(skb, ETH_HLEN);
	if (i % strip_batch == 0)
		return bpf_skb_adjust_room(
			       skb, sizeof(struct iphdr) * (strip_batch - 1),
			       BPF_ADJ_ROOM_MAC, 0)
			       ? TC_ACT_SHOT
			       : TC_ACT_OK;
	return bare_strip(skb, sizeof(struct iphdr)) ? TC_ACT_SHOT : TC_ACT_OK;
}

/* The datapath's egress, then S to undo its push. */
SEC("tc")
int bench_egress(struct __sk_buff *skb)
{
	set_flow(skb, ETH_HLEN);
	if (egress(skb) != TC_ACT_OK || bare_strip(skb, sizeof(struct iphdr)))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

/* The datapath's ingress, then P to undo its strip. */
SEC("tc")
int bench_ingress(struct __sk_buff *skb)
{
	set_flow(skb, ETH_HLEN + sizeof(struct iphdr));
	if (ingress(skb) != TC_ACT_OK || bare_push(skb))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

/* 4in6: the same loops with 40 bytes of IPv6 and the Ethernet type. */
static __always_inline int set_proto(struct __sk_buff *skb, __u16 proto)
{
	__be16 p = bpf_htons(proto);

	return bpf_skb_store_bytes(skb, offsetof(struct ethhdr, h_proto), &p,
				   sizeof(p), 0);
}

static __always_inline int bare_push6(struct __sk_buff *skb)
{
	if (bpf_skb_adjust_room(skb, sizeof(struct ipv6hdr), BPF_ADJ_ROOM_MAC,
				BPF_F_ADJ_ROOM_FIXED_GSO) ||
	    bpf_skb_store_bytes(skb, ETH_HLEN, &outer6_hdr, sizeof(outer6_hdr),
				0))
		return -1;
	return set_proto(skb, ETH_P_IPV6);
}

static __always_inline int bare_strip6(struct __sk_buff *skb)
{
	return bare_strip(skb, sizeof(struct ipv6hdr)) ||
	       set_proto(skb, ETH_P_IP);
}

/* P6 + S6. */
SEC("tc")
int bench_pair6(struct __sk_buff *skb)
{
	set_flow(skb, ETH_HLEN);
	if (bare_push6(skb) || bare_strip6(skb))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

/* S6 alone, as bench_strip: the batch's push also writes a type. */
SEC("tc")
int bench_strip6(struct __sk_buff *skb)
{
	__u32 zero = 0, *v = bpf_map_lookup_elem(&bench_iter, &zero);
	__u32 i = v ? *v : 0;

	set_flow(skb, ETH_HLEN);
	if (i % strip_batch == 0)
		return bpf_skb_adjust_room(
			       skb, sizeof(struct ipv6hdr) * (strip_batch - 1),
			       BPF_ADJ_ROOM_MAC, 0) ||
				       set_proto(skb, ETH_P_IP)
			       ? TC_ACT_SHOT
			       : TC_ACT_OK;
	return bare_strip6(skb) ? TC_ACT_SHOT : TC_ACT_OK;
}

SEC("tc")
int bench_egress6(struct __sk_buff *skb)
{
	set_flow(skb, ETH_HLEN);
	if (egress(skb) != TC_ACT_OK || bare_strip6(skb))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}

SEC("tc")
int bench_ingress6(struct __sk_buff *skb)
{
	set_flow(skb, ETH_HLEN + sizeof(struct ipv6hdr));
	if (ingress(skb) != TC_ACT_OK || bare_push6(skb))
		return TC_ACT_SHOT;
	return TC_ACT_OK;
}
