// SPDX-License-Identifier: GPL-2.0-only
/*
 * model_cpu_set_pmi_cycles(): a handled PMI costs the CPU time that the
 * PMU does not see.  The handler runs at the TSC of the overflow; after it
 * returns the TSC and the unhalted cycles have moved on by the cost (scaled
 * to the TSC when the core clock differs), while no counter (cycles, ref
 * cycles, instructions) and no LBR cycle count took any of it; every PMI
 * pays, a nested one too; with no handler, or the reset value 0, a PMI
 * takes no time; the lazy counting stays exact across many PMIs.
 */
#include <generated/autoconf.h>

#include "model_test.h"

#define COST 4200

/* The TSC the handler ran at, and a re-arm of GP 0 to -period. */
struct cost_log {
	struct pmi_log log;
	uint64_t tsc_in_pmi;
	uint64_t period;
	bool retire_inside;
};

static void handler(struct pmi_log *log)
{
	struct cost_log *c = (struct cost_log *)log;
	uint64_t status = rd(log->cpu, MSR_CORE_PERF_GLOBAL_STATUS);

	c->tsc_in_pmi = model_cpu_tsc(log->cpu);
	if (c->period)
		wr(log->cpu, MSR_ARCH_PERFMON_PERFCTR0,
		   (0 - c->period) & counter_mask(model_cpu_get_desc(log->cpu)->gp_width));
	wr(log->cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL, status);
	if (c->retire_inside) {
		c->retire_inside = false;
		/* wraps GP 0 again (period 1): a second PMI, after this one */
		model_retire_insns(log->cpu, 1, 1, true);
	}
}

/*
 * GP 0 counts cycles with a PMI every @period; fixed 0 (insns), 1
 * (cycles) and 2 (ref cycles) count without one.
 */
static struct model_cpu *armed_cpu(struct cost_log *c, uint64_t period)
{
	struct model_cpu *cpu = model_test_cpu("skylake");

	*c = (struct cost_log){ .period = period };
	pmi_log_attach(&c->log, cpu);
	c->log.handler = handler;
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, EVT_CYCLES | EVT_EN_ALL | ARCH_PERFMON_EVENTSEL_INT);
	wr(cpu, MSR_ARCH_PERFMON_PERFCTR0, (0 - period) & counter_mask(48));
	wr(cpu, MSR_CORE_PERF_FIXED_CTR_CTRL, 0x333);
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 1ULL | 7ULL << 32);
	return cpu;
}

static void a_pmi_takes_no_time_by_default(void **state)
{
	struct cost_log c;
	struct model_cpu *cpu = armed_cpu(&c, 100);

	(void)state;
	model_retire_insns(cpu, 10, 100, true);
	assert_int_equal(c.log.count, 1);
	assert_int_equal(c.tsc_in_pmi, 100);
	assert_int_equal(model_cpu_tsc(cpu), 100);
	assert_int_equal(model_cpu_cycles(cpu), 100);
	model_cpu_destroy(cpu);
}

static void the_handler_runs_at_the_overflow_and_its_time_follows(void **state)
{
	struct cost_log c;
	struct model_cpu *cpu = armed_cpu(&c, 100);

	(void)state;
	model_cpu_set_pmi_cycles(cpu, COST);
	model_retire_insns(cpu, 10, 60, true);
	assert_int_equal(model_cpu_tsc(cpu), 60);
	model_retire_insns(cpu, 10, 40, true);
	assert_int_equal(c.log.count, 1);
	assert_int_equal(c.tsc_in_pmi, 100);
	assert_int_equal(model_cpu_tsc(cpu), 100 + COST);
	assert_int_equal(model_cpu_cycles(cpu), 100 + COST);
	/* the PMU saw only the work: 20 insns, 100 cycles, 100 ref cycles */
	assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0), 20);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 1), 100);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 2), 100);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0), (0 - 100ULL) & counter_mask(48));
	/* and counts on from there */
	model_retire_insns(cpu, 5, 30, true);
	assert_int_equal(model_cpu_tsc(cpu), 130 + COST);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 2), 130);
	model_cpu_destroy(cpu);
}

static void the_lbr_cycle_count_does_not_take_the_handler(void **state)
{
	struct cost_log c;
	struct model_cpu *cpu = armed_cpu(&c, 3);

	(void)state;
	c.period = 1000;	/* one PMI only */
	model_cpu_set_pmi_cycles(cpu, COST);
	wr(cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR);
	model_retire_branch(cpu, 0x10, 0x20, MODEL_BR_JCC, true, false, 3);	/* PMI */
	assert_int_equal(c.log.count, 1);
	model_retire_branch(cpu, 0x30, 0x40, MODEL_BR_JCC, true, false, 7);
	assert_int_equal(rd(cpu, MSR_LBR_TOS), 2);
	assert_int_equal(rd(cpu, MSR_LBR_INFO_0 + 1), 3);
	assert_int_equal(rd(cpu, MSR_LBR_INFO_0 + 2), 7);
	assert_int_equal(model_cpu_tsc(cpu), 10 + COST);
	model_cpu_destroy(cpu);
}

static void a_pmi_raised_in_the_handler_pays_too(void **state)
{
	struct cost_log c;
	struct model_cpu *cpu = armed_cpu(&c, 50);

	(void)state;
	model_cpu_set_pmi_cycles(cpu, COST);
	c.period = 1;
	c.retire_inside = true;
	model_retire_insns(cpu, 1, 50, true);
	assert_int_equal(c.log.count, 2);
	assert_int_equal(model_cpu_nr_pmis(cpu), 2);
	/* the second handler ran after the first one's time */
	assert_int_equal(c.tsc_in_pmi, 51 + COST);
	assert_int_equal(model_cpu_tsc(cpu), 51 + 2 * COST);
	model_cpu_destroy(cpu);
}

static void no_handler_no_cost(void **state)
{
	struct cost_log c;
	struct model_cpu *cpu = armed_cpu(&c, 10);

	(void)state;
	model_cpu_set_pmi(cpu, NULL, NULL);
	model_cpu_set_pmi_cycles(cpu, COST);
	model_retire_insns(cpu, 1, 10, true);
	assert_int_equal(model_cpu_nr_pmis(cpu), 1);
	assert_int_equal(model_cpu_tsc(cpu), 10);
	model_cpu_destroy(cpu);
}

static void the_cost_is_in_core_cycles(void **state)
{
	struct cost_log c;
	struct model_cpu *cpu = armed_cpu(&c, 100);

	(void)state;
	/* the core at twice the TSC rate: 4200 core cycles are 2100 TSC ticks */
	model_cpu_set_core_khz(cpu, 2 * CONFIG_MODEL_TSC_KHZ);
	model_cpu_set_pmi_cycles(cpu, COST);
	model_retire_insns(cpu, 1, 100, true);
	assert_int_equal(c.log.count, 1);
	assert_int_equal(model_cpu_tsc(cpu), (100 + COST) / 2);
	assert_int_equal(model_cpu_cycles(cpu), 100 + COST);
	/* the ref cycles counter saw the work's 50 ticks only */
	assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 2), 50);
	model_cpu_destroy(cpu);
}

/*
 * Many PMIs among fast-path retire calls: the counters hold exactly the
 * work, the TSC the work plus a cost per PMI.
 */
static void lazy_counting_stays_exact_across_many_pmis(void **state)
{
	struct cost_log c;
	struct model_cpu *cpu = armed_cpu(&c, 1000);

	(void)state;
	model_cpu_set_pmi_cycles(cpu, COST);
	for (unsigned int i = 0; i < 10000; i++) {
		if (i % 3)
			model_retire_insns(cpu, 3, 7, true);
		else
			model_retire_branch(cpu, 0x10, 0x20, MODEL_BR_JCC, true, false, 7);
	}
	/* a PMI every 143 calls: the re-arm drops the 1-cycle overshoot */
	assert_int_equal(c.log.count, 10000 / 143);
	assert_int_equal(model_cpu_tsc(cpu), 70000 + 10000 / 143 * COST);
	assert_int_equal(model_cpu_cycles(cpu), 70000 + 10000 / 143 * COST);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0), 6666 * 3 + 3334);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 1), 70000);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_FIXED_CTR0 + 2), 70000);
	model_cpu_destroy(cpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_pmi_takes_no_time_by_default),
		cmocka_unit_test(the_handler_runs_at_the_overflow_and_its_time_follows),
		cmocka_unit_test(the_lbr_cycle_count_does_not_take_the_handler),
		cmocka_unit_test(a_pmi_raised_in_the_handler_pays_too),
		cmocka_unit_test(no_handler_no_cost),
		cmocka_unit_test(the_cost_is_in_core_cycles),
		cmocka_unit_test(lazy_counting_stays_exact_across_many_pmis),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
