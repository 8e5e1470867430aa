// SPDX-License-Identifier: GPL-2.0-only
/*
 * prng_fill(): a batch of splitmix64 draws, eight lanes at a time. Lane k
 * of a step mixes state + (k + 1) * gamma, so the lanes are independent
 * and the vector multiplies of AVX-512 (vpmullq) or AVX2 do them side by
 * side. The result is the same bit for bit on every path: the lanes do
 * the 64-bit arithmetic of prng_next(), nothing else.
 */
#include <string.h>

#include "sim/prng.h"

#define LANES	8
typedef uint64_t prng_lanes __attribute__((vector_size(LANES * sizeof(uint64_t))));

static inline __attribute__((always_inline)) void fill_lanes(uint64_t *state,
							     uint64_t out[PRNG_BATCH])
{
	const prng_lanes k = { 1, 2, 3, 4, 5, 6, 7, 8 };
	prng_lanes s = *state + k * PRNG_GAMMA;

	for (unsigned int i = 0; i < PRNG_BATCH; i += LANES) {
		prng_lanes z = s;

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		z ^= z >> 31;
		memcpy(&out[i], &z, sizeof(z));
		s += LANES * PRNG_GAMMA;
	}
	*state += PRNG_BATCH * PRNG_GAMMA;
}

#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f,avx512dq")))
static void fill_avx512(uint64_t *state, uint64_t out[PRNG_BATCH])
{
	fill_lanes(state, out);
}

__attribute__((target("avx2")))
static void fill_avx2(uint64_t *state, uint64_t out[PRNG_BATCH])
{
	fill_lanes(state, out);
}
#endif

/* Without vector multiplies, one draw at a time is as fast as lanes. */
static void fill_scalar(uint64_t *state, uint64_t out[PRNG_BATCH])
{
	for (unsigned int i = 0; i < PRNG_BATCH; i++)
		out[i] = prng_next(state);
}

bool prng_fill_on(enum prng_fill_path path, uint64_t *state, uint64_t out[PRNG_BATCH])
{
	switch (path) {
	case PRNG_FILL_SCALAR:
		fill_scalar(state, out);
		return true;
#if defined(__x86_64__) && defined(__GNUC__)
	case PRNG_FILL_AVX2:
		if (!__builtin_cpu_supports("avx2"))
			return false;
		fill_avx2(state, out);
		return true;
	case PRNG_FILL_AVX512:
		if (!__builtin_cpu_supports("avx512dq"))
			return false;
		fill_avx512(state, out);
		return true;
#endif
	default:
		return false;
	}
}

void prng_fill(uint64_t *state, uint64_t out[PRNG_BATCH])
{
	if (!prng_fill_on(PRNG_FILL_AVX512, state, out) && !prng_fill_on(PRNG_FILL_AVX2, state, out))
		fill_scalar(state, out);
}
