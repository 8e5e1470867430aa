// SPDX-License-Identifier: GPL-2.0-only
/*
 * Where a PMI is taken (model_cpu_set_pmi_at): with a hook, a block of
 * instructions at one cycle each is split where a PMI counter wraps, the
 * PMI comes right after the wrapping instruction with no overshoot in
 * that counter, and the hook learns how many of the block's instructions
 * came before it; a second counter, or the same one re-armed by the
 * handler, wraps later in the same block and gets a PMI of its own. A
 * branch is one instruction. Without the hook, or in a block whose cycles
 * are not its instructions, the PMI comes once, at the call's end.
 */
#include "model_test.h"

struct at_log {
	struct pmi_log pmi;
	uint64_t retired[8];
	uint64_t gp0_at_pmi[8];
	unsigned int nr;
	bool rearm;			/* the handler programs GP0 for 37 more */
};

static void at_fn(void *ctx, uint64_t retired)
{
	struct at_log *log = ctx;

	assert_true(log->nr < 8);
	log->retired[log->nr++] = retired;
}

static void handler(struct pmi_log *pmi)
{
	struct at_log *log = (struct at_log *)pmi;
	uint64_t status = rd(pmi->cpu, MSR_CORE_PERF_GLOBAL_STATUS);

	log->gp0_at_pmi[log->nr ? log->nr - 1 : 0] = rd(pmi->cpu, MSR_IA32_PMC0);
	wr(pmi->cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL, status);
	if (log->rearm && (status & 1))
		wr(pmi->cpu, MSR_IA32_PMC0, (0 - 37ULL) & counter_mask(48));
}

/* skylake: GP0 counts instructions with PMI from -37; fixed 1 cycles from -60 */
static struct model_cpu *armed(struct at_log *log, bool hook)
{
	struct model_cpu *cpu = model_test_cpu("skylake");

	*log = (struct at_log){ 0 };
	pmi_log_attach(&log->pmi, cpu);
	log->pmi.handler = handler;
	if (hook)
		model_cpu_set_pmi_at(cpu, at_fn, log);
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, EVT_INSNS | EVT_EN_ALL | ARCH_PERFMON_EVENTSEL_INT);
	wr(cpu, MSR_IA32_PMC0, (0 - 37ULL) & counter_mask(48));
	wr(cpu, MSR_CORE_PERF_FIXED_CTR_CTRL, 0xbULL << 4);
	wr(cpu, MSR_CORE_PERF_FIXED_CTR0 + 1, (0 - 60ULL) & counter_mask(48));
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 1ULL | 1ULL << 33);
	return cpu;
}

static void test_a_block_is_split_where_counters_wrap(void **state)
{
	struct at_log log;
	struct model_cpu *cpu = armed(&log, true);

	(void)state;
	log.rearm = true;
	model_retire_insns(cpu, 100, 100, true);
	/* GP0 after 37 and, re-armed, 74; the cycles counter after 60 */
	assert_int_equal(log.pmi.count, 3);
	assert_int_equal(log.nr, 3);
	assert_int_equal(log.retired[0], 37);
	assert_int_equal(log.retired[1], 60);
	assert_int_equal(log.retired[2], 74);
	/* the PMI comes with the wrapping instruction: nothing counted past it */
	assert_int_equal(log.gp0_at_pmi[0], 0);
	assert_int_equal(log.gp0_at_pmi[2], 0);
	/* re-armed at 74 again: 26 of its 37 since */
	assert_int_equal(rd(cpu, MSR_IA32_PMC0), (0 - 37ULL + 26) & counter_mask(48));
	assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 1), 100 - 60);
	model_cpu_destroy(cpu);
}

static void test_a_wrap_at_the_last_instruction_is_the_block_end(void **state)
{
	struct at_log log;
	struct model_cpu *cpu = armed(&log, true);

	(void)state;
	model_retire_insns(cpu, 30, 30, true);
	assert_int_equal(log.nr, 0);
	model_retire_insns(cpu, 7, 7, true);	/* the 37th is the last */
	assert_int_equal(log.nr, 1);
	assert_int_equal(log.retired[0], 7);
	/* a branch overflowing is the one instruction of its call */
	model_retire_insns(cpu, 22, 22, true);	/* cycles at 59 */
	model_retire_branch(cpu, 0x1000, 0x2000, MODEL_BR_JCC, true, false, 1);
	assert_int_equal(log.nr, 2);
	assert_int_equal(log.retired[1], 1);
	model_cpu_destroy(cpu);
}

static void test_without_the_hook_one_pmi_at_the_end(void **state)
{
	struct at_log log;
	struct model_cpu *cpu = armed(&log, false);

	(void)state;
	log.rearm = true;
	model_retire_insns(cpu, 100, 100, true);
	/* both wrapped in the call: one PMI after it, the overshoot in the counters */
	assert_int_equal(log.pmi.count, 1);
	assert_int_equal(log.nr, 0);
	assert_int_equal(log.gp0_at_pmi[0], 100 - 37);
	model_cpu_destroy(cpu);
}

static void test_a_block_of_other_cycles_is_not_split(void **state)
{
	struct at_log log;
	struct model_cpu *cpu = armed(&log, true);

	(void)state;
	/* 50 instructions over 200 cycles: which one wrapped is not known */
	model_retire_insns(cpu, 50, 200, true);
	assert_int_equal(log.pmi.count, 1);
	assert_int_equal(log.nr, 1);
	assert_int_equal(log.retired[0], 50);
	model_cpu_destroy(cpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_a_block_is_split_where_counters_wrap),
		cmocka_unit_test(test_a_wrap_at_the_last_instruction_is_the_block_end),
		cmocka_unit_test(test_without_the_hook_one_pmi_at_the_end),
		cmocka_unit_test(test_a_block_of_other_cycles_is_not_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
