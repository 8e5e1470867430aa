// SPDX-License-Identifier: GPL-2.0-only
/*
 * DEBUGCTL.FREEZE_LBRS_ON_PMI and FREEZE_PERFMON_ON_PMI per PMU version.
 * Before v4 the PMI clears DEBUGCTL.LBR and the GLOBAL_CTRL enables, and
 * software sets them again; from v4 the PMI sets LBR_FRZ/CTR_FRZ in
 * GLOBAL_STATUS and acking them through STATUS_RESET thaws.  Either way the
 * freeze takes effect when the PMI is delivered, after the retire call.
 */
#include "model_test.h"

#define FREEZE_BOTH (DEBUGCTLMSR_FREEZE_LBRS_ON_PMI | DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI)

struct frozen_seen { uint64_t debugctl, global_ctrl, status; };
static struct frozen_seen seen;

static void look_in_pmi(struct pmi_log *log)
{
	seen.debugctl = rd(log->cpu, MSR_IA32_DEBUGCTLMSR);
	seen.global_ctrl = rd(log->cpu, MSR_CORE_PERF_GLOBAL_CTRL);
	seen.status = rd(log->cpu, MSR_CORE_PERF_GLOBAL_STATUS);
}

/* Enable LBR (legacy or arch) and PMC0 counting branches, PMI after `left` more. */
static void setup(struct model_cpu *cpu, uint64_t debugctl, uint64_t left)
{
	const struct model_cpu_desc *d = model_cpu_get_desc(cpu);

	if (d->arch_lbr) {
		wr(cpu, MSR_ARCH_LBR_CTL, ARCH_LBR_CTL_LBREN | ARCH_LBR_KERNEL | ARCH_LBR_USER |
		   ARCH_LBR_CTL_FILTER);
		wr(cpu, MSR_IA32_DEBUGCTLMSR, debugctl);
	} else {
		wr(cpu, MSR_IA32_DEBUGCTLMSR, debugctl | DEBUGCTLMSR_LBR);
	}
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, EVT_BRANCHES | EVT_EN_ALL | ARCH_PERFMON_EVENTSEL_INT);
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + 1, EVT_INSNS | EVT_EN_ALL);
	wr(cpu, MSR_ARCH_PERFMON_PERFCTR0, (uint64_t)-(int64_t)left);
	wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 3);
}

static uint64_t newest_from(struct model_cpu *cpu)
{
	const struct model_cpu_desc *d = model_cpu_get_desc(cpu);

	if (d->arch_lbr)
		return rd(cpu, MSR_ARCH_LBR_FROM_0);
	return rd(cpu, d->lbr_from + rd(cpu, MSR_LBR_TOS)) & (d->lbr_format == LBR_FORMAT_32 ?
								 0xffffffff : ~0ULL >> 1);
}

static void branch(struct model_cpu *cpu, uint64_t from)
{
	model_retire_branch(cpu, from, from + 0x40, MODEL_BR_JCC, true, false, 1);
}

static void before_v4_the_pmi_clears_the_enables(void **state)
{
	static const char *const names[] = { "core2", "nehalem" };

	(void)state;
	for (size_t m = 0; m < 2; m++) {
		struct model_cpu *cpu = model_test_cpu(names[m]);
		struct pmi_log log;

		pmi_log_attach(&log, cpu);
		log.handler = look_in_pmi;
		setup(cpu, FREEZE_BOTH, 2);
		branch(cpu, 0x1000);
		branch(cpu, 0x2000);	/* overflows: recorded, then frozen */
		assert_int_equal(log.count, 1);
		assert_int_equal(seen.debugctl, FREEZE_BOTH);	/* LBR bit gone */
		assert_int_equal(seen.global_ctrl, 0);
		assert_int_equal(seen.status, 1);		/* no FRZ bits before v4 */
		assert_int_equal(newest_from(cpu), 0x2000);

		branch(cpu, 0x3000);
		assert_int_equal(newest_from(cpu), 0x2000);
		assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0), 0);
		assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 1), 2);

		/* acking the status does not thaw: software re-enables */
		wr(cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL, 1);
		branch(cpu, 0x4000);
		assert_int_equal(newest_from(cpu), 0x2000);
		wr(cpu, MSR_IA32_DEBUGCTLMSR, FREEZE_BOTH | DEBUGCTLMSR_LBR);
		wr(cpu, MSR_CORE_PERF_GLOBAL_CTRL, 3);
		branch(cpu, 0x5000);
		assert_int_equal(newest_from(cpu), 0x5000);
		assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 1), 3);
		model_cpu_destroy(cpu);
	}
}

static void from_v4_the_pmi_sets_frozen_bits_and_the_ack_thaws(void **state)
{
	static const char *const names[] = { "skylake", "icelake", "sapphirerapids" };

	(void)state;
	for (size_t m = 0; m < 3; m++) {
		struct model_cpu *cpu = model_test_cpu(names[m]);
		struct pmi_log log;
		uint64_t status;

		pmi_log_attach(&log, cpu);
		log.handler = look_in_pmi;
		setup(cpu, FREEZE_BOTH, 2);
		branch(cpu, 0x1000);
		branch(cpu, 0x2000);
		assert_int_equal(log.count, 1);
		assert_int_equal(seen.debugctl & DEBUGCTLMSR_FREEZE_LBRS_ON_PMI,
				 DEBUGCTLMSR_FREEZE_LBRS_ON_PMI);
		assert_int_equal(seen.global_ctrl, 3);
		assert_int_equal(seen.status, 1 | GLOBAL_STATUS_LBRS_FROZEN |
				 GLOBAL_STATUS_COUNTERS_FROZEN);
		assert_int_equal(newest_from(cpu), 0x2000);

		branch(cpu, 0x3000);
		assert_int_equal(newest_from(cpu), 0x2000);
		assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 1), 2);

		/* the driver's ack: write back what GLOBAL_STATUS said */
		status = rd(cpu, MSR_CORE_PERF_GLOBAL_STATUS);
		wr(cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL, status);
		assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_STATUS), 0);
		branch(cpu, 0x4000);
		assert_int_equal(newest_from(cpu), 0x4000);
		assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 1), 3);
		model_cpu_destroy(cpu);
	}
}

static void v4_thaws_lbr_and_counters_separately(void **state)
{
	struct model_cpu *cpu = model_test_cpu("skylake");
	struct pmi_log log;

	(void)state;
	pmi_log_attach(&log, cpu);
	setup(cpu, FREEZE_BOTH, 1);
	branch(cpu, 0x1000);
	wr(cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_COUNTERS_FROZEN | 1);
	branch(cpu, 0x2000);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 1), 2);	/* counting */
	assert_int_equal(newest_from(cpu), 0x1000);			/* LBR still frozen */
	wr(cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL, GLOBAL_STATUS_LBRS_FROZEN);
	branch(cpu, 0x3000);
	assert_int_equal(newest_from(cpu), 0x3000);
	/* STATUS_SET can freeze the counters too */
	wr(cpu, MSR_CORE_PERF_GLOBAL_STATUS_SET, GLOBAL_STATUS_COUNTERS_FROZEN);
	branch(cpu, 0x4000);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 1), 3);
	assert_int_equal(newest_from(cpu), 0x4000);
	model_cpu_destroy(cpu);
}

static void the_freeze_waits_for_the_end_of_the_block(void **state)
{
	struct model_cpu *cpu = model_test_cpu("skylake");
	struct pmi_log log;

	(void)state;
	pmi_log_attach(&log, cpu);
	setup(cpu, FREEZE_BOTH, 1);
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, EVT_INSNS | EVT_EN_ALL | ARCH_PERFMON_EVENTSEL_INT);
	wr(cpu, MSR_ARCH_PERFMON_PERFCTR0, (uint64_t)-10);
	model_retire_insns(cpu, 25, 25, true);
	assert_int_equal(log.count, 1);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0), 15);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 1), 25);
	model_cpu_destroy(cpu);
}

static void no_freeze_bits_no_freeze(void **state)
{
	static const char *const names[] = { "nehalem", "skylake" };

	(void)state;
	for (size_t m = 0; m < 2; m++) {
		struct model_cpu *cpu = model_test_cpu(names[m]);
		struct pmi_log log;

		pmi_log_attach(&log, cpu);
		setup(cpu, 0, 1);
		branch(cpu, 0x1000);
		assert_int_equal(log.count, 1);
		assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_STATUS), 1);
		branch(cpu, 0x2000);
		assert_int_equal(newest_from(cpu), 0x2000);
		assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0 + 1), 2);
		model_cpu_destroy(cpu);
	}
}

static void overflow_without_pmi_does_not_freeze(void **state)
{
	struct model_cpu *cpu = model_test_cpu("skylake");

	(void)state;
	setup(cpu, FREEZE_BOTH, 1);
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, EVT_BRANCHES | EVT_EN_ALL);	/* no INT */
	branch(cpu, 0x1000);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_STATUS), 1);
	branch(cpu, 0x2000);
	assert_int_equal(newest_from(cpu), 0x2000);
	model_cpu_destroy(cpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(before_v4_the_pmi_clears_the_enables),
		cmocka_unit_test(from_v4_the_pmi_sets_frozen_bits_and_the_ack_thaws),
		cmocka_unit_test(v4_thaws_lbr_and_counters_separately),
		cmocka_unit_test(the_freeze_waits_for_the_end_of_the_block),
		cmocka_unit_test(no_freeze_bits_no_freeze),
		cmocka_unit_test(overflow_without_pmi_does_not_freeze),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
