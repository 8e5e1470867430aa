/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulator's one source of randomness: splitmix64 (Steele, Lea and
 * Flood), a 64-bit state that a scenario's seed starts. Every random
 * decision of a run draws from a generator derived from that seed, so a
 * run is a function of its configuration, scenario and seed.
 */
#ifndef PMUSIM_SIM_PRNG_H
#define PMUSIM_SIM_PRNG_H

#include <stdbool.h>
#include <stdint.h>

#define PRNG_GAMMA	0x9e3779b97f4a7c15ULL	/* the state's increment per draw */

/* The output for state @z: splitmix64's finaliser. */
static inline uint64_t prng_mix(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t prng_next(uint64_t *state)
{
	return prng_mix(*state += PRNG_GAMMA);
}

/* Uniform in [0, n) without division (Lemire's multiply-shift). */
static inline uint32_t prng_below(uint64_t *state, uint32_t n)
{
	return (uint32_t)(((prng_next(state) >> 32) * (uint64_t)n) >> 32);
}

/*
 * "prng_below(state, 1000) < permille" as one compare: the draw's top 32
 * bits h give floor(h * 1000 / 2^32) < p exactly when h * 1000 < p * 2^32,
 * that is when h < ceil(p * 2^32 / 1000), that is when the whole draw is
 * below that bound shifted up by 32.  For 0 < p < 1000 the bound fits;
 * 0 and 1000 draw nothing where the callers use them, so they have none.
 */
static inline uint64_t prng_permille_bound(uint32_t permille)
{
	return (((uint64_t)permille << 32) + 999) / 1000 << 32;
}

/*
 * Draws made ahead: prng_fill() writes the next PRNG_BATCH outputs of
 * *state to out[], in order, and moves *state past them: exactly what
 * PRNG_BATCH prng_next() calls return. splitmix64's nth output depends
 * only on state + n * its increment, so the batch is worked out several
 * lanes at a time (sim/prng.c), where the one-at-a-time form keeps a
 * serial chain and its constants in the caller's registers.
 */
#define PRNG_BATCH	64
void prng_fill(uint64_t *state, uint64_t out[PRNG_BATCH]);
/* The ways prng_fill() can go, for tests: false, nothing drawn, where this host has no such path. */
enum prng_fill_path { PRNG_FILL_SCALAR, PRNG_FILL_AVX2, PRNG_FILL_AVX512, PRNG_FILL__NR };
bool prng_fill_on(enum prng_fill_path path, uint64_t *state, uint64_t out[PRNG_BATCH]);

/* A generator for a sub-stream (a task, a CPU) that does not overlap its parent's draws. */
static inline uint64_t prng_split(uint64_t seed, uint64_t stream)
{
	uint64_t s = seed ^ (stream * 0xd1342543de82ef95ULL);

	return prng_next(&s);
}

#endif /* PMUSIM_SIM_PRNG_H */
