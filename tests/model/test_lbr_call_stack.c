// SPDX-License-Identifier: GPL-2.0-only
/*
 * LBR call-stack mode (LBR_SELECT.EN_CALLSTACK, Haswell and later): calls
 * push, returns pop and clear, a stack deeper than the LBR loses its oldest
 * frames without a trace, and after returning below the retained frames the
 * stack reads short or empty -- the situation LBR stitching repairs.
 */
#include "model_test.h"

/* perf record --call-graph lbr, user only (see the notes: 0x3c5) */
#define USER_CALL_STACK (LBR_KERNEL | LBR_JCC | LBR_IND_JMP | LBR_REL_JMP | LBR_FAR | \
			 LBR_CALL_STACK)

static uint64_t call_site(unsigned int f) { return 0x400000 + 0x1000 * f + 0x10; }
static uint64_t func(unsigned int f) { return 0x400000 + 0x1000 * f; }

/* intel_pmu_lbr_read_64 in call-stack mode: from TOS down until FROM == 0 */
static unsigned int read_stack(struct model_cpu *cpu, uint64_t *from, uint64_t *to)
{
	const struct model_cpu_desc *d = model_cpu_get_desc(cpu);
	unsigned int tos = rd(cpu, MSR_LBR_TOS), n;

	for (n = 0; n < d->lbr_nr; n++) {
		unsigned int idx = (tos - n) & (d->lbr_nr - 1);

		from[n] = rd(cpu, d->lbr_from + idx);
		to[n] = rd(cpu, d->lbr_to + idx);
		if (!from[n])
			break;
	}
	return n;
}

static struct model_cpu *call_stack_cpu(const char *name)
{
	struct model_cpu *cpu = model_test_cpu(name);

	wr(cpu, MSR_LBR_SELECT, USER_CALL_STACK);
	wr(cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR);
	return cpu;
}

/* f calls f+1, with a loop branch and a kernel excursion in between */
static void call(struct model_cpu *cpu, unsigned int f)
{
	model_retire_branch(cpu, call_site(f) - 8, call_site(f) - 16, MODEL_BR_JCC, true, false, 1);
	model_retire_branch(cpu, 0xffffffff81000000ULL, 0xffffffff81000100ULL,
			    MODEL_BR_NEAR_REL_CALL, false, false, 1);
	model_retire_branch(cpu, call_site(f), func(f + 1), MODEL_BR_NEAR_REL_CALL, true, false, 1);
}

static void ret(struct model_cpu *cpu, unsigned int f)
{
	model_retire_branch(cpu, func(f + 1) + 0x80, call_site(f) + 5, MODEL_BR_NEAR_RET, true,
			    false, 1);
}

static void shallow_stack_reads_back_newest_first(void **state)
{
	struct model_cpu *cpu = call_stack_cpu("skylake");
	uint64_t from[32], to[32];

	(void)state;
	for (unsigned int f = 1; f <= 5; f++)
		call(cpu, f);
	assert_int_equal(read_stack(cpu, from, to), 5);
	for (unsigned int i = 0; i < 5; i++) {
		assert_int_equal(from[i], call_site(5 - i));
		assert_int_equal(to[i], func(6 - i));
	}
	ret(cpu, 5);
	ret(cpu, 4);
	assert_int_equal(read_stack(cpu, from, to), 3);
	assert_int_equal(from[0], call_site(3));
	assert_int_equal(rd(cpu, MSR_LBR_TOS), 3);
	call(cpu, 3);	/* a new call reuses the popped slot */
	assert_int_equal(read_stack(cpu, from, to), 4);
	assert_int_equal(from[0], call_site(3));
	assert_int_equal(from[1], call_site(3));
	model_cpu_destroy(cpu);
}

static void deeper_than_the_lbr_loses_the_oldest_frames(void **state)
{
	static const char *const names[] = { "skylake", "icelake" };

	(void)state;
	for (size_t m = 0; m < 2; m++) {
		struct model_cpu *cpu = call_stack_cpu(names[m]);
		uint64_t from[32], to[32];
		unsigned int n;

		for (unsigned int f = 1; f <= 40; f++)
			call(cpu, f);
		assert_int_equal(rd(cpu, MSR_LBR_TOS), 40 % 32);
		n = read_stack(cpu, from, to);
		assert_int_equal(n, 32);	/* f40 .. f9: f1..f8 are gone */
		for (unsigned int i = 0; i < n; i++)
			assert_int_equal(from[i], call_site(40 - i));

		/* return from 20 frames: 12 retained remain */
		for (unsigned int f = 40; f > 20; f--)
			ret(cpu, f);
		n = read_stack(cpu, from, to);
		assert_int_equal(n, 12);
		assert_int_equal(from[0], call_site(20));
		assert_int_equal(from[11], call_site(9));

		/* return below the retained frames: the stack reads empty... */
		for (unsigned int f = 20; f > 8; f--)
			ret(cpu, f);
		assert_int_equal(read_stack(cpu, from, to), 0);
		/* ...and stays so through the frames that were lost */
		ret(cpu, 8);
		ret(cpu, 7);
		assert_int_equal(read_stack(cpu, from, to), 0);
		assert_int_equal(rd(cpu, MSR_LBR_TOS), (40u - 34u) % 32);

		/* a call from f6 now gives a stack of one: the short stack */
		call(cpu, 6);
		n = read_stack(cpu, from, to);
		assert_int_equal(n, 1);
		assert_int_equal(from[0], call_site(6));
		model_cpu_destroy(cpu);
	}
}

static void exactly_the_depth_fills_every_slot(void **state)
{
	struct model_cpu *cpu = call_stack_cpu("skylake");
	uint64_t from[32], to[32];

	(void)state;
	for (unsigned int f = 1; f <= 32; f++)
		call(cpu, f);
	assert_int_equal(read_stack(cpu, from, to), 32);
	assert_int_equal(from[31], call_site(1));
	for (unsigned int f = 32; f >= 1; f--)
		ret(cpu, f);
	assert_int_equal(read_stack(cpu, from, to), 0);
	assert_int_equal(rd(cpu, MSR_LBR_TOS), 0);
	model_cpu_destroy(cpu);
}

static void without_en_callstack_returns_are_plain_records(void **state)
{
	struct model_cpu *cpu = model_test_cpu("skylake");

	(void)state;
	wr(cpu, MSR_LBR_SELECT, USER_CALL_STACK & ~LBR_CALL_STACK);
	wr(cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR);
	call(cpu, 1);
	ret(cpu, 1);
	assert_int_equal(rd(cpu, MSR_LBR_TOS), 2);
	assert_int_equal(rd(cpu, MSR_LBR_NHM_FROM + 2), func(2) + 0x80);
	assert_int_equal(rd(cpu, MSR_LBR_NHM_FROM + 1), call_site(1));
	model_cpu_destroy(cpu);
}

static void nehalem_has_no_call_stack_mode(void **state)
{
	struct model_cpu *cpu = model_test_cpu("nehalem");

	(void)state;
	assert_int_equal(model_wrmsr(cpu, MSR_LBR_SELECT, USER_CALL_STACK), -EIO);
	model_cpu_destroy(cpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shallow_stack_reads_back_newest_first),
		cmocka_unit_test(deeper_than_the_lbr_loses_the_oldest_frames),
		cmocka_unit_test(exactly_the_depth_fills_every_slot),
		cmocka_unit_test(without_en_callstack_returns_are_plain_records),
		cmocka_unit_test(nehalem_has_no_call_stack_mode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
