// SPDX-License-Identifier: GPL-2.0-only
/*
 * Overflow and the PMI: a counter programmed to -period raises exactly one
 * PMI on the period-th event and not before, for periods 1, 2, 2^31-1 and
 * near the counter width, in every GP and fixed counter of every model;
 * a wrap inside a block leaves the exact overshoot; the PMI comes after the
 * whole state update of the retire call, once per call, and never nests.
 */
#include "model_test.h"

static const char *const models[] = { "core2", "atom", "nehalem", "haswell", "skylake", "icelake", "sapphirerapids" };
#define NR_MODELS (sizeof(models) / sizeof(models[0]))

/* Retire `units` of what counter ctr counts (dense: GP 0..7 count insns, fixed from 8). */
static void retire_units(struct model_cpu *cpu, unsigned int ctr, uint64_t units)
{
	if (ctr < 8 || ctr == 8)
		model_retire_insns(cpu, units, 0, true);
	else
		model_retire_insns(cpu, 0, units, true);	/* cycles, ref cycles, slots */
}

static uint64_t per_unit(const struct model_cpu_desc *d, unsigned int ctr)
{
	return ctr == 11 ? d->slots_per_cycle : 1;
}

/* Program counter ctr for `period` events with PMI; returns its MSR. */
static uint32_t arm(struct model_cpu *cpu, unsigned int ctr, uint64_t period, bool full_width)
{
	const struct model_cpu_desc *d = model_cpu_get_desc(cpu);
	uint64_t mask;
	uint32_t msr;

	if (ctr < 8) {
		mask = counter_mask(d->gp_width);
		msr = (full_width ? MSR_IA32_PMC0 : MSR_ARCH_PERFMON_PERFCTR0) + ctr;
		wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + ctr, EVT_INSNS | EVT_EN_ALL |
		   ARCH_PERFMON_EVENTSEL_INT);
		wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 1ULL << ctr);
	} else {
		unsigned int j = ctr - 8;

		mask = counter_mask(d->fixed_width);
		msr = MSR_CORE_PERF_FIXED_CTR0 + j;
		wr(cpu, MSR_CORE_PERF_FIXED_CTR_CTRL, 0xbULL << (4 * j));
		wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 1ULL << (32 + j));
	}
	wr(cpu, msr, (0 - period) & mask);
	return msr;
}

static void check_period(const struct model_cpu_desc *d, unsigned int ctr, uint64_t period,
			 bool full_width)
{
	struct model_cpu *cpu = model_cpu_create(d, 3);
	uint64_t u = per_unit(d, ctr), units = (period + u - 1) / u;
	unsigned int bit = ctr < 8 ? ctr : 32 + ctr - 8;
	struct pmi_log log;
	uint32_t msr;

	pmi_log_attach(&log, cpu);
	msr = arm(cpu, ctr, period, full_width);
	if (units > 1)
		retire_units(cpu, ctr, units - 1);
	if (log.count != 0)
		fail_msg("%s ctr %u period %llu: PMI one unit early", d->name, ctr,
			 (unsigned long long)period);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_STATUS), 0);
	retire_units(cpu, ctr, 1);
	if (log.count != 1)
		fail_msg("%s ctr %u period %llu: %u PMIs", d->name, ctr,
			 (unsigned long long)period, log.count);
	assert_int_equal(log.last_cpu, 3);
	assert_int_equal(log.status_seen, 1ULL << bit);
	assert_int_equal(rd(cpu, msr), units * u - period);
	/* the next event does not raise another */
	retire_units(cpu, ctr, 1);
	assert_int_equal(log.count, 1);
	model_cpu_destroy(cpu);
}

static void pmi_arrives_at_exactly_the_programmed_period(void **state)
{
	(void)state;
	for (size_t m = 0; m < NR_MODELS; m++) {
		const struct model_cpu_desc *d = model_cpu_desc_lookup(models[m]);
		uint64_t gp = counter_mask(d->gp_width), fx = counter_mask(d->fixed_width);

		for (unsigned int i = 0; i < d->nr_gp; i++) {
			/* what the plain 32-bit write can express */
			check_period(d, i, 1, false);
			check_period(d, i, 2, false);
			check_period(d, i, (1ULL << 31) - 1, false);
			check_period(d, i, 1ULL << 31, false);
			if (d->fw_write) {
				check_period(d, i, 1ULL << 32, true);
				check_period(d, i, gp >> 1, true);	/* the driver's max_period */
				check_period(d, i, gp - 1, true);
				check_period(d, i, gp, true);
			}
		}
		for (unsigned int j = 0; j < d->nr_fixed; j++) {
			check_period(d, 8 + j, 1, true);
			check_period(d, 8 + j, 2, true);
			check_period(d, 8 + j, (1ULL << 31) - 1, true);
			check_period(d, 8 + j, fx >> 1, true);
			check_period(d, 8 + j, fx - 1, true);
		}
	}
}

static void plain_write_cannot_express_a_period_above_2_31(void **state)
{
	struct model_cpu *cpu = model_test_cpu("nehalem");

	(void)state;
	/* -(2^32 - 1) has low half 0x00000001, which sign-extends to +1 */
	wr(cpu, MSR_ARCH_PERFMON_PERFCTR0, (0 - ((1ULL << 32) - 1)) & counter_mask(48));
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0), 1);
	model_cpu_destroy(cpu);
}

static void wrap_inside_a_block_keeps_the_overshoot(void **state)
{
	(void)state;
	for (size_t m = 0; m < NR_MODELS; m++) {
		struct model_cpu *cpu = model_test_cpu(models[m]);
		const struct model_cpu_desc *d = model_cpu_get_desc(cpu);
		struct pmi_log log;

		pmi_log_attach(&log, cpu);
		arm(cpu, 1, 10, false);
		model_retire_insns(cpu, 25, 30, true);
		assert_int_equal(log.count, 1);
		assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 1), 15);
		arm(cpu, 8 + 1, 100, true);	/* fixed 1: cycles */
		model_retire_insns(cpu, 1, 1000, false);
		assert_int_equal(log.count, 2);
		assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 1), 900);
		/* a block of several whole periods still wraps once: one bit, one PMI */
		arm(cpu, 8 + 1, 100, true);
		model_retire_insns(cpu, 1, 1000, false);
		assert_int_equal(log.count, 3);
		assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 1), 900);
		(void)d;
		model_cpu_destroy(cpu);
	}
}

static void overflow_without_int_sets_status_but_raises_no_pmi(void **state)
{
	struct model_cpu *cpu = model_test_cpu("skylake");
	struct pmi_log log;

	(void)state;
	pmi_log_attach(&log, cpu);
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + 2, EVT_BRANCHES | EVT_EN_ALL);
	wr(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 2, 0xffffffff);	/* -1 */
	wr(cpu, MSR_CORE_PERF_FIXED_CTR_CTRL, 0x3 << 4);	/* fixed 1, no PMI bit */
	wr(cpu, MSR_CORE_PERF_FIXED_CTR0 + 1, counter_mask(48));
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 0x4 | 2ULL << 32);
	model_retire_branch(cpu, 1, 2, MODEL_BR_JCC, false, false, 1);
	assert_int_equal(log.count, 0);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_STATUS), 0x4 | 2ULL << 32);
	model_cpu_destroy(cpu);
}

static void two_counters_wrapping_in_one_call_raise_one_pmi(void **state)
{
	struct model_cpu *cpu = model_test_cpu("icelake");
	struct pmi_log log;

	(void)state;
	pmi_log_attach(&log, cpu);
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, EVT_BRANCHES | EVT_EN_ALL | ARCH_PERFMON_EVENTSEL_INT);
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + 5, EVT_BRANCH_MISSES | EVT_EN_ALL |
	   ARCH_PERFMON_EVENTSEL_INT);
	wr(cpu, MSR_IA32_PMC0, counter_mask(48));
	wr(cpu, MSR_IA32_PMC0 + 5, counter_mask(48));
	wr(cpu, MSR_CORE_PERF_FIXED_CTR_CTRL, 0xb);
	wr(cpu, MSR_CORE_PERF_FIXED_CTR0, counter_mask(48));
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 0x21 | 1ULL << 32);
	model_retire_branch(cpu, 1, 2, MODEL_BR_NEAR_IND_CALL, true, true, 4);
	assert_int_equal(log.count, 1);
	assert_int_equal(log.status_seen, 0x21 | 1ULL << 32);
	assert_int_equal(model_cpu_nr_pmis(cpu), 1);
	model_cpu_destroy(cpu);
}

/* Inside the PMI everything of the retire call is already visible. */
static void read_state_in_pmi(struct pmi_log *log)
{
	assert_int_equal(rd(log->cpu, MSR_ARCH_PERFMON_PERFCTR0), 3);
	assert_int_equal(rd(log->cpu, MSR_LBR_NHM_FROM + rd(log->cpu, MSR_LBR_TOS)), 0x1234);
	assert_int_equal(rd(log->cpu, MSR_LBR_NHM_TO + rd(log->cpu, MSR_LBR_TOS)), 0x5678);
	assert_int_equal(model_cpu_tsc(log->cpu), 7);
}

static void pmi_sees_the_whole_update_of_the_retire_call(void **state)
{
	struct model_cpu *cpu = model_test_cpu("skylake");
	struct pmi_log log;

	(void)state;
	pmi_log_attach(&log, cpu);
	log.handler = read_state_in_pmi;
	wr(cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR);
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, EVT_CYCLES | EVT_EN_ALL | ARCH_PERFMON_EVENTSEL_INT);
	wr(cpu, MSR_ARCH_PERFMON_PERFCTR0, (uint64_t)-4);
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 1);
	model_retire_branch(cpu, 0x1234, 0x5678, MODEL_BR_JCC, true, false, 7);
	assert_int_equal(log.count, 1);
	model_cpu_destroy(cpu);
}

static unsigned int pmi_depth, pmi_max_depth;

/* A handler that (wrongly) retires work which overflows again. */
static void retire_inside_pmi(struct pmi_log *log)
{
	if (++pmi_depth > pmi_max_depth)
		pmi_max_depth = pmi_depth;
	if (log->count == 1) {
		wr(log->cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL, 1);
		wr(log->cpu, MSR_ARCH_PERFMON_PERFCTR0, (uint64_t)-1);
		model_retire_insns(log->cpu, 5, 5, false);
		assert_int_equal(log->count, 1);	/* not nested */
	}
	pmi_depth--;
}

static void pmi_raised_inside_the_pmi_is_delivered_after_it(void **state)
{
	struct model_cpu *cpu = model_test_cpu("skylake");
	struct pmi_log log;

	(void)state;
	pmi_log_attach(&log, cpu);
	log.handler = retire_inside_pmi;
	pmi_depth = pmi_max_depth = 0;
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, EVT_INSNS | EVT_EN_ALL | ARCH_PERFMON_EVENTSEL_INT);
	wr(cpu, MSR_ARCH_PERFMON_PERFCTR0, (uint64_t)-1);
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 1);
	model_retire_insns(cpu, 1, 1, true);
	assert_int_equal(log.count, 2);
	assert_int_equal(pmi_max_depth, 1);
	model_cpu_destroy(cpu);
}

static void overflow_with_no_pmi_handler_only_sets_status(void **state)
{
	struct model_cpu *cpu = model_test_cpu("core2");

	(void)state;
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, EVT_INSNS | EVT_EN_ALL | ARCH_PERFMON_EVENTSEL_INT);
	wr(cpu, MSR_ARCH_PERFMON_PERFCTR0, (uint64_t)-1);
	model_retire_insns(cpu, 1, 1, true);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_STATUS), 1);
	assert_int_equal(model_cpu_nr_pmis(cpu), 1);
	model_cpu_destroy(cpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pmi_arrives_at_exactly_the_programmed_period),
		cmocka_unit_test(plain_write_cannot_express_a_period_above_2_31),
		cmocka_unit_test(wrap_inside_a_block_keeps_the_overshoot),
		cmocka_unit_test(overflow_without_int_sets_status_but_raises_no_pmi),
		cmocka_unit_test(two_counters_wrapping_in_one_call_raise_one_pmi),
		cmocka_unit_test(pmi_sees_the_whole_update_of_the_retire_call),
		cmocka_unit_test(pmi_raised_inside_the_pmi_is_delivered_after_it),
		cmocka_unit_test(overflow_with_no_pmi_handler_only_sets_status),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
