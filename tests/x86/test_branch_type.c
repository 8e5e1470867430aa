// SPDX-License-Identifier: GPL-2.0-only
/*
 * The software LBR filter's decoder: branch_type() classifies a record
 * from the registered text at "from" and the privilege of both ends (far
 * branches into syscall/sysret/far jump, user-to-kernel transfers that
 * are no syscall into interrupts, TSX aborts, unreadable text into
 * X86_BR_NONE); the text table grows without losing a site and fails
 * cleanly; common_branch_type() gives the PERF_BR_* of each class.
 */
#include "tests/x86/x86_test.h"

#define U(x)	(0x400000ULL + (x))
#define K(x)	(0xffffffff81000000ULL + (x))

static int teardown(void **state)
{
	(void)state;
	pmusim_alloc_fail_after(-1);
	x86_branch_text_reset();
	return 0;
}

static void test_near_branches_take_the_class_of_their_text(void **state)
{
	static const struct {
		enum model_branch_type type;
		int cls;
	} near[] = {
		{ MODEL_BR_JCC, X86_BR_JCC },
		{ MODEL_BR_NEAR_REL_JMP, X86_BR_JMP },
		{ MODEL_BR_NEAR_IND_JMP, X86_BR_IND_JMP },
		{ MODEL_BR_NEAR_REL_CALL, X86_BR_CALL },
		{ MODEL_BR_NEAR_IND_CALL, X86_BR_IND_CALL },
		{ MODEL_BR_NEAR_RET, X86_BR_RET },
	};

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(near); i++) {
		assert_int_equal(x86_branch_text_add(U(i * 16), near[i].type), 0);
		assert_int_equal(x86_branch_text_add(K(i * 16), near[i].type), 0);
		assert_int_equal(branch_type(U(i * 16), U(0x8000), 0), near[i].cls | X86_BR_USER);
		assert_int_equal(branch_type(K(i * 16), K(0x8000), 0), near[i].cls | X86_BR_KERNEL);
		/* kernel to user through a near branch: the class stays, the target is user */
		assert_int_equal(branch_type(K(i * 16), U(0x8000), 0), near[i].cls | X86_BR_USER);
		/* user to kernel without a syscall: an interrupt, trap or fault */
		assert_int_equal(branch_type(U(i * 16), K(0x8000), 0), X86_BR_IRQ | X86_BR_KERNEL);
	}
	assert_int_equal(x86_branch_text_size(), 2 * ARRAY_SIZE(near));
}

static void test_far_branches_are_syscall_sysret_or_far_jump(void **state)
{
	(void)state;
	assert_int_equal(x86_branch_text_add(U(0x10), MODEL_BR_FAR), 0);
	assert_int_equal(x86_branch_text_add(K(0x10), MODEL_BR_FAR), 0);
	assert_int_equal(branch_type(U(0x10), K(0x20), 0), X86_BR_SYSCALL | X86_BR_KERNEL);
	assert_int_equal(branch_type(K(0x10), U(0x20), 0), X86_BR_SYSRET | X86_BR_USER);
	assert_int_equal(branch_type(U(0x10), U(0x20), 0), X86_BR_JMP | X86_BR_USER);
	assert_int_equal(branch_type(K(0x10), K(0x20), 0), X86_BR_JMP | X86_BR_KERNEL);
}

static void test_records_that_cannot_be_classified(void **state)
{
	(void)state;
	/* no table at all yet */
	assert_int_equal(branch_type(U(0x10), U(0x20), 0), X86_BR_NONE);
	assert_int_equal(x86_branch_text_add(U(0x10), MODEL_BR_JCC), 0);
	/* text not registered at from */
	assert_int_equal(branch_type(U(0x11), U(0x20), 0), X86_BR_NONE);
	/* an entry the LBR never filled */
	assert_int_equal(branch_type(0, U(0x20), 0), X86_BR_NONE);
	assert_int_equal(branch_type(U(0x10), 0, 0), X86_BR_NONE);
	/* a TSX abort needs no text; its level is the target's */
	assert_int_equal(branch_type(U(0x11), K(0x20), 1), X86_BR_ABORT | X86_BR_KERNEL);
	assert_int_equal(branch_type(U(0x10), U(0x20), 1), X86_BR_ABORT | X86_BR_USER);
}

static void test_text_table_rejects_bad_sites_and_updates_in_place(void **state)
{
	(void)state;
	assert_int_equal(x86_branch_text_add(0, MODEL_BR_JCC), -EINVAL);
	assert_int_equal(x86_branch_text_add(U(0x10), MODEL_BR__NR), -EINVAL);
	assert_int_equal(x86_branch_text_add(U(0x10), (enum model_branch_type)-1), -EINVAL);
	assert_int_equal(x86_branch_text_size(), 0);
	assert_int_equal(x86_branch_text_add(U(0x10), MODEL_BR_JCC), 0);
	assert_int_equal(x86_branch_text_add(U(0x10), MODEL_BR_NEAR_RET), 0);
	assert_int_equal(x86_branch_text_size(), 1);
	assert_int_equal(branch_type(U(0x10), U(0x20), 0), X86_BR_RET | X86_BR_USER);
}

/* Past half full the table doubles; every site keeps its class through each rehash. */
static void test_text_table_grows_and_keeps_every_site(void **state)
{
	const unsigned int n = 5000;	/* 1024 -> 2048 -> 4096 -> 8192 -> 16384 slots */

	(void)state;
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(x86_branch_text_add(U(i * 4), (enum model_branch_type)(i % 6)), 0);
	assert_int_equal(x86_branch_text_size(), n);
	for (unsigned int i = 0; i < n; i++) {
		int cls = branch_type(U(i * 4), U(0x100000), 0);

		assert_int_not_equal(cls, X86_BR_NONE);
		assert_true(cls & X86_BR_USER);
	}
	assert_int_equal(branch_type(U(5 * 4), U(0x100000), 0), X86_BR_RET | X86_BR_USER);
	assert_int_equal(branch_type(U(n * 4), U(0x100000), 0), X86_BR_NONE);
}

/* A failed growth leaves the table as it was: no site lost, the new one refused. */
static void test_text_table_allocation_failure_keeps_the_old_table(void **state)
{
	unsigned int i;

	(void)state;
	pmusim_alloc_fail_after(0);
	assert_int_equal(x86_branch_text_add(U(0), MODEL_BR_JCC), -ENOMEM);	/* the first table */
	assert_int_equal(x86_branch_text_size(), 0);
	pmusim_alloc_fail_after(-1);
	for (i = 0; i < 512; i++)	/* exactly half of 1024: the next one grows */
		assert_int_equal(x86_branch_text_add(U(i * 4 + 4), MODEL_BR_JCC), 0);
	pmusim_alloc_fail_after(0);
	assert_int_equal(x86_branch_text_add(U(0x100000), MODEL_BR_JCC), -ENOMEM);
	pmusim_alloc_fail_after(-1);
	assert_int_equal(x86_branch_text_size(), 512);
	for (i = 0; i < 512; i++)
		assert_int_equal(branch_type(U(i * 4 + 4), U(0x100000), 0), X86_BR_JCC | X86_BR_USER);
	assert_int_equal(branch_type(U(0x100000), U(0x1000), 0), X86_BR_NONE);
	assert_int_equal(x86_branch_text_add(U(0x100000), MODEL_BR_JCC), 0);
}

static void test_common_branch_type_of_each_class(void **state)
{
	static const struct {
		int cls, perf;
	} map[] = {
		{ X86_BR_CALL, PERF_BR_CALL }, { X86_BR_RET, PERF_BR_RET },
		{ X86_BR_SYSCALL, PERF_BR_SYSCALL }, { X86_BR_SYSRET, PERF_BR_SYSRET },
		{ X86_BR_INT, PERF_BR_UNKNOWN }, { X86_BR_IRET, PERF_BR_ERET },
		{ X86_BR_JCC, PERF_BR_COND }, { X86_BR_JMP, PERF_BR_UNCOND },
		{ X86_BR_IRQ, PERF_BR_IRQ }, { X86_BR_IND_CALL, PERF_BR_IND_CALL },
		{ X86_BR_ABORT, PERF_BR_UNKNOWN }, { X86_BR_NO_TX, PERF_BR_NO_TX },
		{ X86_BR_ZERO_CALL, PERF_BR_CALL }, { X86_BR_IND_JMP, PERF_BR_IND },
		/* the lowest class bit decides */
		{ X86_BR_JCC | X86_BR_IN_TX, PERF_BR_COND },
		/* no class at all, or only the privilege bits */
		{ X86_BR_NONE, PERF_BR_UNKNOWN }, { X86_BR_USER | X86_BR_KERNEL, PERF_BR_UNKNOWN },
		/* a bit past the table (only TYPE_SAVE is there) */
		{ X86_BR_TYPE_SAVE, PERF_BR_UNKNOWN },
	};

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(map); i++) {
		assert_int_equal(common_branch_type(map[i].cls), map[i].perf);
		assert_int_equal(common_branch_type(map[i].cls | X86_BR_USER), map[i].perf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_near_branches_take_the_class_of_their_text, teardown),
		cmocka_unit_test_teardown(test_far_branches_are_syscall_sysret_or_far_jump, teardown),
		cmocka_unit_test_teardown(test_records_that_cannot_be_classified, teardown),
		cmocka_unit_test_teardown(test_text_table_rejects_bad_sites_and_updates_in_place,
					  teardown),
		cmocka_unit_test_teardown(test_text_table_grows_and_keeps_every_site, teardown),
		cmocka_unit_test_teardown(test_text_table_allocation_failure_keeps_the_old_table,
					  teardown),
		cmocka_unit_test_teardown(test_common_branch_type_of_each_class, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
