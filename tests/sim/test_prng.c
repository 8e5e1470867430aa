// SPDX-License-Identifier: GPL-2.0-only
/*
 * The generator's shortcuts give what the plain forms give: draws made
 * ahead in batches (each path this host can run: AVX-512, AVX2, scalar)
 * are the prng_next() sequence, and a draw below prng_permille_bound(p)
 * is exactly prng_below(1000) < p, checked at both sides of every bound.
 */
#include <stdbool.h>

#include "tests/test.h"
#include "sim/prng.h"

/* Five batches from @seed by @path (prng_fill() where PRNG_FILL__NR), one draw at a time. */
static void check_fill(enum prng_fill_path path, uint64_t seed)
{
	uint64_t plain = seed, batched = seed;
	uint64_t out[PRNG_BATCH];

	for (unsigned int batch = 0; batch < 5; batch++) {
		if (path == PRNG_FILL__NR)
			prng_fill(&batched, out);
		else if (!prng_fill_on(path, &batched, out))
			return;
		for (unsigned int i = 0; i < PRNG_BATCH; i++)
			assert_true(out[i] == prng_next(&plain));
		assert_true(batched == plain);
	}
}

static void batches_are_the_plain_sequence(void **state)
{
	static const uint64_t seeds[] = { 0, 1, 7, 0x9e3779b97f4a7c15ULL, UINT64_MAX,
					  0x123456789abcdef0ULL };

	(void)state;
	assert_true(prng_fill_on(PRNG_FILL_SCALAR, &(uint64_t){ 0 }, (uint64_t[PRNG_BATCH]){ 0 }));
	/* no such path: refused, the state untouched */
	{
		uint64_t st = 7;

		assert_false(prng_fill_on(PRNG_FILL__NR, &st, (uint64_t[PRNG_BATCH]){ 0 }));
		assert_true(st == 7);
	}
	for (unsigned int i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++)
		for (unsigned int path = 0; path <= PRNG_FILL__NR; path++)
			check_fill((enum prng_fill_path)path, seeds[i]);
}

/* prng_below(1000) < p for a generator whose next output is @draw (its formula). */
static bool taken(uint64_t draw, uint32_t p)
{
	return (uint32_t)(((draw >> 32) * 1000) >> 32) < p;
}

static void permille_bound_is_prng_below(void **state)
{
	(void)state;
	for (uint32_t p = 1; p < 1000; p++) {
		uint64_t bound = prng_permille_bound(p);

		assert_true(bound > 0);
		/* the last draw below the bound is taken, the bound itself is not */
		assert_true(taken(bound - 1, p));
		assert_false(taken(bound, p));
		assert_true(taken(0, p));
		assert_false(taken(UINT64_MAX, p));
	}
	/* and along a stream, against prng_below() itself */
	for (uint32_t p = 1; p < 1000; p += 37) {
		uint64_t a = p, b = p;
		uint64_t bound = prng_permille_bound(p);

		for (unsigned int i = 0; i < 20000; i++)
			assert_int_equal(prng_below(&a, 1000) < p, prng_next(&b) < bound);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(batches_are_the_plain_sequence),
		cmocka_unit_test(permille_bound_is_prng_below),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
