/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/* Small, fast, seedable pseudo-random numbers, the same everywhere. */
#ifndef _DARD_RNG_H
#define _DARD_RNG_H

#include <stdint.h>

/* splitmix64's finaliser: a well mixed 64-bit value from any input. */
static inline uint64_t dard_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* splitmix64: *s steps by the golden ratio; any seed, 0 included. */
static inline uint64_t dard_splitmix64(uint64_t *s)
{
	return dard_mix64(*s += 0x9e3779b97f4a7c15ULL);
}

/* A uniform double in (0, 1] from splitmix64's top 53 bits: never 0, so
 * that -log() of it, an exponential draw, is finite. */
static inline double dard_splitmix_unit(uint64_t *s)
{
	return ((dard_splitmix64(s) >> 11) + 1) * (1.0 / 9007199254740992.0);
}

/* xorshift64*: *s must not be 0. */
static inline uint64_t dard_xorshift64s(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

/* A uniform double in [0, 1) from xorshift64*'s top 53 bits. */
static inline double dard_urand(uint64_t *s)
{
	return (dard_xorshift64s(s) >> 11) * (1.0 / 9007199254740992.0);
}

#endif /* _DARD_RNG_H */
