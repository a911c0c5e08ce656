/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * 4in6's alias arithmetic, written once for both host datapaths: the BPF
 * program (bpf/encap6.h) and the kernel module (kmod/send.c, receive.c)
 * turn a path's IPv4 alias into the IPv6 one the plan gives it and back,
 * with the plan's struct dard_layout6 (<linux/dard.h>), which dardd fills
 * from the plan (dard_plan_layout6); userspace's tests hold both to the
 * plan's own encoding (daemon/lib/addr6.c).
 *
 * An IPv6 alias is the IPv6 base with each of the plan's fields, read
 * from the IPv4 alias (shift4, width4), written at its IPv6 place
 * (shift6, width6). Values and words are host order; w[0] is the
 * address's first word and bit 0 is w[3]'s lowest. The layout pointer is
 * volatile because the BPF program's is read-only data that the loader
 * sets: the compiler must not take its initial zeros for its value.
 *
 * As <linux/dard_policy.h>: <linux/types.h> only, loops with a constant
 * bound, so each compiles for BPF, the kernel and userspace.
 */
#ifndef _UAPI_LINUX_DARD_LAYOUT6_H
#define _UAPI_LINUX_DARD_LAYOUT6_H

#include <linux/types.h>
#include <linux/dard.h>

#ifndef __dard_inline
#ifdef __always_inline
#define __dard_inline __always_inline
#else
#define __dard_inline inline __attribute__((always_inline))
#endif
#endif

static __dard_inline __u32 dard_l6_mask(__u32 width)
{
	return width >= 32 ? ~0U : (1U << width) - 1;
}

/* x (width bits) into w at bit shift. */
static __dard_inline void dard_l6_put(__u32 *w, __u32 shift, __u32 width,
				      __u32 x)
{
	__u32 i = (shift / 32) & 3, s = shift % 32;

	w[3 - i] |= x << s;
	if (s && s + width > 32 && i < 3)
		w[2 - i] |= x >> (32 - s);
}

/* The width bits of w at bit shift. */
static __dard_inline __u32 dard_l6_get(const __u32 *w, __u32 shift, __u32 width)
{
	__u32 i = (shift / 32) & 3, s = shift % 32;
	__u64 v = w[3 - i] >> s;

	if (s && s + width > 32 && i < 3)
		v |= (__u64)w[2 - i] << (32 - s);
	return (__u32)v & dard_l6_mask(width);
}

/* The IPv4 alias v as IPv6 words w. */
static __dard_inline void dard_alias_v6(const volatile struct dard_layout6 *l,
					__u32 v, __u32 *w)
{
	int f;

	w[0] = l->base6[0];
	w[1] = l->base6[1];
	w[2] = l->base6[2];
	w[3] = l->base6[3];
/* For the BPF verifier, which walks it unrolled; gcc has no unroll. */
#ifdef __bpf__
#pragma unroll
#endif
	for (f = 0; f < DARD_LAYOUT_FIELDS; f++) {
		if (f >= (int)l->nfields)
			break;
		dard_l6_put(w, l->shift6[f], l->width6[f],
			    (v >> l->shift4[f]) & dard_l6_mask(l->width4[f]));
	}
}

/*
 * The IPv4 alias that the IPv6 address w re-encodes, in *v; -1 when it
 * re-encodes none (outside the base, bits no field has, a field too wide
 * for its IPv4 place), so that no two addresses decode to one alias.
 */
static __dard_inline int dard_alias_v4(const volatile struct dard_layout6 *l,
				       const __u32 *w, __u32 *v)
{
	__u32 x, a = l->base4, back[4];
	int f;

/* For the BPF verifier, which walks it unrolled; gcc has no unroll. */
#ifdef __bpf__
#pragma unroll
#endif
	for (f = 0; f < DARD_LAYOUT_FIELDS; f++) {
		if (f >= (int)l->nfields)
			break;
		x = dard_l6_get(w, l->shift6[f], l->width6[f]);
		if (x > dard_l6_mask(l->width4[f]))
			return -1;
		a |= x << l->shift4[f];
	}
	dard_alias_v6(l, a, back);
	if (back[0] != w[0] || back[1] != w[1] || back[2] != w[2] ||
	    back[3] != w[3])
		return -1;
	*v = a;
	return 0;
}

/*
 * Whether a layout from outside (the module's netlink) is one the two
 * functions above read safely and one-to-one: at most DARD_LAYOUT_FIELDS
 * fields, each of 1 to 32 bits inside its address, IPv6 no narrower than
 * IPv4, and no two fields over one bit in either family.
 */
static inline int dard_layout6_valid(const struct dard_layout6 *l)
{
	__u32 f, g;

	if (l->outer6 != 1 || l->nfields > DARD_LAYOUT_FIELDS)
		return 0;
	for (f = 0; f < l->nfields; f++) {
		if (!l->width4[f] || l->width4[f] > 32 || !l->width6[f] ||
		    l->width6[f] > 32 || l->width6[f] < l->width4[f] ||
		    l->shift4[f] + l->width4[f] > 32 ||
		    l->shift6[f] + l->width6[f] > 128)
			return 0;
		for (g = 0; g < f; g++) {
			if (l->shift4[f] < l->shift4[g] + l->width4[g] &&
			    l->shift4[g] < l->shift4[f] + l->width4[f])
				return 0;
			if (l->shift6[f] < l->shift6[g] + l->width6[g] &&
			    l->shift6[g] < l->shift6[f] + l->width6[f])
				return 0;
		}
	}
	return 1;
}

#endif /* _UAPI_LINUX_DARD_LAYOUT6_H */
