// SPDX-License-Identifier: GPL-2.0-only
/* Tests of the core/kernel.h shim: what core/ relies on from it. */
#include "core/kernel.h"
#include "tests/test.h"

static void test_is_enabled_follows_autoconf(void **state)
{
	(void)state;
#ifdef CONFIG_DEBUG_PERF
	assert_int_equal(IS_ENABLED(CONFIG_DEBUG_PERF), 1);
#else
	assert_int_equal(IS_ENABLED(CONFIG_DEBUG_PERF), 0);
#endif
	assert_int_equal(IS_ENABLED(CONFIG_SYMBOL_THAT_DOES_NOT_EXIST), 0);
}

static void test_local_try_cmpxchg_updates_expected_on_failure(void **state)
{
	local_t l;
	long old = 5;

	(void)state;
	local_set(&l, 7);
	assert_false(local_try_cmpxchg(&l, &old, 9));
	assert_int_equal(old, 7);
	assert_true(local_try_cmpxchg(&l, &old, 9));
	assert_int_equal(local_read(&l), 9);
	assert_int_equal(local_xchg(&l, 0), 9);
	assert_int_equal(local_inc_return(&l), 1);
}

static void test_alloc_fails_on_demand_then_recovers(void **state)
{
	void *a, *b;

	(void)state;
	pmusim_alloc_fail_after(1);
	a = kzalloc(16);
	b = kzalloc(16);
	assert_non_null(a);
	assert_null(b);
	pmusim_alloc_fail_after(-1);
	b = kzalloc(16);
	assert_non_null(b);
	assert_int_equal(((char *)b)[15], 0);
	kfree(a);
	kfree(b);
	assert_null(kcalloc(SIZE_MAX / 2, 4));
	/* elements of no size cannot overflow: an allocation of 0 bytes */
	a = kcalloc(SIZE_MAX, 0);
	assert_non_null(a);
	kfree(a);
}

static void test_align_and_power_of_two(void **state)
{
	(void)state;
	assert_int_equal(ALIGN(13u, 8u), 16);
	assert_int_equal(ALIGN(16u, 8u), 16);
	assert_true(is_power_of_2(64));
	assert_false(is_power_of_2(0));
	assert_false(is_power_of_2(12));
	assert_int_equal(GENMASK_ULL(5, 2), 0x3c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_is_enabled_follows_autoconf),
		cmocka_unit_test(test_local_try_cmpxchg_updates_expected_on_failure),
		cmocka_unit_test(test_alloc_fails_on_demand_then_recovers),
		cmocka_unit_test(test_align_and_power_of_two),
	};
	return cmocka_run_group_tests_name("kernel", tests, NULL, NULL);
}
