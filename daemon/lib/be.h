/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Big-endian fields of the wire protocols (proto.c, cproto.c), read and
 * written byte by byte so that no buffer needs to be aligned.
 */
#ifndef _DARD_BE_H
#define _DARD_BE_H

#include <stdint.h>

static inline void dard_put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static inline void dard_put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

static inline void dard_put64(uint8_t *p, uint64_t v)
{
	dard_put32(p, v >> 32);
	dard_put32(p + 4, v);
}

static inline uint16_t dard_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t dard_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t dard_get64(const uint8_t *p)
{
	return (uint64_t)dard_get32(p) << 32 | dard_get32(p + 4);
}

#endif /* _DARD_BE_H */
