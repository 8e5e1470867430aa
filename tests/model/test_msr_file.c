// SPDX-License-Identifier: GPL-2.0-only
/*
 * The MSR file: every MSR index from 0 to 0x2000 on every CPU model reads
 * if and only if the model has it (the others #GP), and each register
 * keeps what is written to it within its defined bits while a reserved bit
 * or a read-only register faults without changing anything.
 */
#include "model_test.h"

static const char *const models[] = { "core2", "atom", "nehalem", "haswell", "skylake", "icelake", "sapphirerapids" };
#define NR_MODELS (sizeof(models) / sizeof(models[0]))

static bool in(uint32_t msr, uint32_t base, unsigned int nr)
{
	return msr >= base && msr < base + nr;
}

/* The MSRs each model must have, written down from the SDM, not the code. */
static bool expected_present(const struct model_cpu_desc *d, uint32_t msr)
{
	bool legacy_lbr = !d->arch_lbr;

	if (msr == MSR_IA32_TSC || msr == MSR_IA32_DEBUGCTLMSR)
		return true;
	if (in(msr, MSR_ARCH_PERFMON_PERFCTR0, d->nr_gp) ||
	    in(msr, MSR_ARCH_PERFMON_EVENTSEL0, d->nr_gp))
		return true;
	if (d->fw_write && in(msr, MSR_IA32_PMC0, d->nr_gp))
		return true;
	if (in(msr, MSR_CORE_PERF_FIXED_CTR0, d->nr_fixed) ||
	    in(msr, MSR_CORE_PERF_FIXED_CTR_CTRL, 4))	/* 0x38d..0x390 */
		return true;
	if (msr == MSR_CORE_PERF_GLOBAL_STATUS_SET)
		return d->pmu_version >= 4;
	if (msr == MSR_IA32_PERF_CAPABILITIES)
		return d->has_perf_capabilities;
	if (legacy_lbr) {
		if (in(msr, d->lbr_from, d->lbr_nr) || in(msr, d->lbr_to, d->lbr_nr) ||
		    msr == MSR_LBR_TOS)
			return true;
		if (msr == MSR_LBR_SELECT)
			return d->pmu_version >= 3;	/* Nehalem and later */
		if (in(msr, MSR_LBR_INFO_0, d->lbr_nr))
			return d->pmu_version >= 4;
		return false;
	}
	return msr == MSR_ARCH_LBR_CTL || msr == MSR_ARCH_LBR_DEPTH ||
	       in(msr, MSR_ARCH_LBR_FROM_0, 32) || in(msr, MSR_ARCH_LBR_TO_0, 32) ||
	       in(msr, MSR_ARCH_LBR_INFO_0, 32);
}

static void every_msr_index_reads_iff_the_model_has_it(void **state)
{
	(void)state;
	for (size_t m = 0; m < NR_MODELS; m++) {
		struct model_cpu *cpu = model_test_cpu(models[m]);
		const struct model_cpu_desc *d = model_cpu_get_desc(cpu);
		unsigned int present = 0;

		for (uint32_t msr = 0; msr < 0x2000; msr++) {
			uint64_t val;
			int ret = model_rdmsr(cpu, msr, &val);

			if (expected_present(d, msr)) {
				present++;
				if (ret)
					fail_msg("%s: MSR 0x%x should read", d->name, msr);
			} else if (ret != -EIO) {
				fail_msg("%s: MSR 0x%x should #GP, got %d", d->name, msr, ret);
			}
		}
		assert_true(present > 10);
		model_cpu_destroy(cpu);
	}
}

static void msrs_the_model_lacks_fault_on_write_too(void **state)
{
	static const uint32_t absent_everywhere[] = {
		0x0, 0x1b /* APIC base: not modelled */, 0x3f1 /* PEBS_ENABLE */,
		0x392 /* GLOBAL_INUSE */, 0x329 /* PERF_METRICS */, 0x3f7, 0x600 /* DS_AREA */,
		0x1d8, 0x1da, 0xc0000080, 0xc0010000, 0xffffffff,
	};

	(void)state;
	for (size_t m = 0; m < NR_MODELS; m++) {
		struct model_cpu *cpu = model_test_cpu(models[m]);
		const struct model_cpu_desc *d = model_cpu_get_desc(cpu);
		uint64_t val;

		for (size_t i = 0; i < sizeof(absent_everywhere) / sizeof(absent_everywhere[0]); i++) {
			assert_int_equal(model_rdmsr(cpu, absent_everywhere[i], &val), -EIO);
			assert_int_equal(model_wrmsr(cpu, absent_everywhere[i], 0), -EIO);
		}
		/* one past the last counter of each kind */
		assert_int_equal(model_wrmsr(cpu, MSR_ARCH_PERFMON_PERFCTR0 + d->nr_gp, 0), -EIO);
		assert_int_equal(model_wrmsr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + d->nr_gp, 0), -EIO);
		assert_int_equal(model_wrmsr(cpu, MSR_CORE_PERF_FIXED_CTR0 + d->nr_fixed, 0), -EIO);
		if (!d->fw_write)
			assert_int_equal(model_wrmsr(cpu, MSR_IA32_PMC0, 0), -EIO);
		if (d->arch_lbr) {
			assert_int_equal(model_rdmsr(cpu, MSR_LBR_TOS, &val), -EIO);
			assert_int_equal(model_wrmsr(cpu, MSR_LBR_TOS, 0), -EIO);
			assert_int_equal(model_wrmsr(cpu, MSR_LBR_SELECT, 0), -EIO);
		} else {
			assert_int_equal(model_wrmsr(cpu, MSR_ARCH_LBR_CTL, 0), -EIO);
			assert_int_equal(model_wrmsr(cpu, MSR_ARCH_LBR_DEPTH, 8), -EIO);
		}
		model_cpu_destroy(cpu);
	}
}

/* val must round-trip; val | bad must fault and leave val in place */
static void round_trip(struct model_cpu *cpu, uint32_t msr, uint64_t val, uint64_t bad)
{
	wr(cpu, msr, val);
	assert_int_equal(rd(cpu, msr), val);
	if (bad) {
		assert_int_equal(model_wrmsr(cpu, msr, val | bad), -EIO);
		assert_int_equal(rd(cpu, msr), val);
	}
}

static void control_registers_keep_defined_bits_and_reject_reserved(void **state)
{
	(void)state;
	for (size_t m = 0; m < NR_MODELS; m++) {
		struct model_cpu *cpu = model_test_cpu(models[m]);
		const struct model_cpu_desc *d = model_cpu_get_desc(cpu);
		bool any = d->pmu_version == 3 || d->pmu_version == 4;
		uint64_t evtsel = 0xffffffffULL & ~(any ? 0 : ARCH_PERFMON_EVENTSEL_ANY);
		uint64_t fixed = 0, gctrl = ((1ULL << d->nr_gp) - 1) |
					    ((1ULL << d->nr_fixed) - 1) << 32;

		for (unsigned int i = 0; i < d->nr_gp; i++) {
			round_trip(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + i, evtsel, 1ULL << 32);
			round_trip(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + i, evtsel, 1ULL << 63);
			if (!any)
				round_trip(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + i, 0,
					   ARCH_PERFMON_EVENTSEL_ANY);
			wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0 + i, 0);
		}
		for (unsigned int j = 0; j < d->nr_fixed; j++)
			fixed |= (uint64_t)(any ? 0xf : 0xb) << (4 * j);
		round_trip(cpu, MSR_CORE_PERF_FIXED_CTR_CTRL, fixed, 1ULL << (4 * d->nr_fixed));
		if (!any)
			round_trip(cpu, MSR_CORE_PERF_FIXED_CTR_CTRL, fixed, INTEL_FIXED_0_ANYTHREAD);
		wr(cpu, MSR_CORE_PERF_FIXED_CTR_CTRL, 0);

		round_trip(cpu, MSR_CORE_PERF_GLOBAL_CTRL, gctrl, 1ULL << d->nr_gp);
		round_trip(cpu, MSR_CORE_PERF_GLOBAL_CTRL, gctrl, 1ULL << (32 + d->nr_fixed));
		round_trip(cpu, MSR_CORE_PERF_GLOBAL_CTRL, gctrl, 1ULL << 48);

		/* read-only registers */
		assert_int_equal(model_wrmsr(cpu, MSR_CORE_PERF_GLOBAL_STATUS, 0), -EIO);
		if (d->has_perf_capabilities) {
			uint64_t caps = rd(cpu, MSR_IA32_PERF_CAPABILITIES);

			assert_int_equal(model_wrmsr(cpu, MSR_IA32_PERF_CAPABILITIES, caps), -EIO);
			assert_int_equal(caps, d->perf_capabilities);
		}

		/* DEBUGCTL: bit 2 (bus-lock detect) and the top are not modelled */
		round_trip(cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR |
			   DEBUGCTLMSR_FREEZE_LBRS_ON_PMI | DEBUGCTLMSR_FREEZE_PERFMON_ON_PMI,
			   1ULL << 2);
		round_trip(cpu, MSR_IA32_DEBUGCTLMSR, 0, 1ULL << 63);
		wr(cpu, MSR_IA32_TSC, 123456789);
		assert_int_equal(rd(cpu, MSR_IA32_TSC), 123456789);
		assert_int_equal(model_cpu_tsc(cpu), 123456789);
		model_cpu_destroy(cpu);
	}
}

static void global_ctrl_resets_to_all_gp_counters_enabled(void **state)
{
	(void)state;
	for (size_t m = 0; m < NR_MODELS; m++) {
		struct model_cpu *cpu = model_test_cpu(models[m]);
		const struct model_cpu_desc *d = model_cpu_get_desc(cpu);

		assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_CTRL), (1ULL << d->nr_gp) - 1);
		assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_STATUS), 0);
		assert_int_equal(rd(cpu, MSR_IA32_DEBUGCTLMSR), 0);
		model_cpu_destroy(cpu);
	}
}

static void status_reset_and_set_follow_the_pmu_version(void **state)
{
	(void)state;
	for (size_t m = 0; m < NR_MODELS; m++) {
		struct model_cpu *cpu = model_test_cpu(models[m]);
		const struct model_cpu_desc *d = model_cpu_get_desc(cpu);
		uint64_t v4_bits = GLOBAL_STATUS_LBRS_FROZEN | GLOBAL_STATUS_COUNTERS_FROZEN |
				   GLOBAL_STATUS_TRACE_TOPAPMI | GLOBAL_STATUS_ASIF |
				   GLOBAL_STATUS_UNC_OVF;
		uint64_t ctrs = ((1ULL << d->nr_gp) - 1) | ((1ULL << d->nr_fixed) - 1) << 32;

		assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL), 0);
		wr(cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL, ctrs | GLOBAL_STATUS_BUFFER_OVF |
		   GLOBAL_STATUS_COND_CHG);
		assert_int_equal(model_wrmsr(cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL,
					     1ULL << d->nr_gp), -EIO);
		if (d->pmu_version >= 4) {
			wr(cpu, MSR_CORE_PERF_GLOBAL_STATUS_SET, ctrs | v4_bits);
			assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_STATUS), ctrs | v4_bits);
			assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_STATUS_SET), 0);
			assert_int_equal(model_wrmsr(cpu, MSR_CORE_PERF_GLOBAL_STATUS_SET,
						     1ULL << 40), -EIO);
			wr(cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL, 1);
			assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_STATUS), (ctrs | v4_bits) & ~1ULL);
			wr(cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL, ctrs | v4_bits);
			assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_STATUS), 0);
		} else {
			assert_int_equal(model_wrmsr(cpu, MSR_CORE_PERF_GLOBAL_OVF_CTRL,
						     GLOBAL_STATUS_LBRS_FROZEN), -EIO);
		}
		model_cpu_destroy(cpu);
	}
}

/*
 * PMU version 1 (no table row has it; a test's description): GP counters
 * enabled by their EVTSEL alone, and none of version 2's MSRs, fixed
 * counters included, whatever nr_fixed says.
 */
static void a_version_1_pmu_has_only_its_gp_counters(void **state)
{
	static const uint32_t v2_msrs[] = {
		MSR_CORE_PERF_FIXED_CTR0, MSR_CORE_PERF_FIXED_CTR_CTRL,
		MSR_CORE_PERF_GLOBAL_STATUS, MSR_CORE_PERF_GLOBAL_CTRL,
		MSR_CORE_PERF_GLOBAL_OVF_CTRL, MSR_CORE_PERF_GLOBAL_STATUS_SET,
	};
	struct model_cpu_desc d = *model_cpu_desc_lookup("core2");
	struct model_cpu *cpu;
	uint64_t val;

	(void)state;
	d.pmu_version = 1;
	cpu = model_cpu_create(&d, 0);
	assert_non_null(cpu);
	for (size_t i = 0; i < sizeof(v2_msrs) / sizeof(v2_msrs[0]); i++) {
		assert_int_equal(model_rdmsr(cpu, v2_msrs[i], &val), -EIO);
		assert_int_equal(model_wrmsr(cpu, v2_msrs[i], 0), -EIO);
	}
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, EVT_INSNS | EVT_EN_ALL);
	model_retire_insns(cpu, 123, 200, true);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0), 123);
	model_cpu_destroy(cpu);
}

/* A 64-bit counter (wider than any table row's): every bit is the count's. */
static void a_64_bit_counter_keeps_every_bit(void **state)
{
	struct model_cpu_desc d = *model_cpu_desc_lookup("icelake");
	struct model_cpu *cpu;

	(void)state;
	d.gp_width = 64;
	cpu = model_cpu_create(&d, 0);
	assert_non_null(cpu);
	wr(cpu, MSR_IA32_PMC0, ~0ULL - 5);
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0), ~0ULL - 5);
	wr(cpu, MSR_ARCH_PERFMON_EVENTSEL0, EVT_INSNS | EVT_EN_ALL);
	model_retire_insns(cpu, 7, 7, true);
	/* wrapped through all 64 bits, and said so */
	assert_int_equal(rd(cpu, MSR_ARCH_PERFMON_PERFCTR0), 1);
	assert_int_equal(rd(cpu, MSR_CORE_PERF_GLOBAL_STATUS) & 1, 1);
	model_cpu_destroy(cpu);
}

static void counter_writes_sign_extend_or_take_the_full_width(void **state)
{
	(void)state;
	for (size_t m = 0; m < NR_MODELS; m++) {
		struct model_cpu *cpu = model_test_cpu(models[m]);
		const struct model_cpu_desc *d = model_cpu_get_desc(cpu);
		uint64_t gp = counter_mask(d->gp_width), fx = counter_mask(d->fixed_width);

		for (unsigned int i = 0; i < d->nr_gp; i++) {
			uint32_t pmc = MSR_ARCH_PERFMON_PERFCTR0 + i;

			wr(cpu, pmc, 0x7fffffff);
			assert_int_equal(rd(cpu, pmc), 0x7fffffff);
			wr(cpu, pmc, 0x80000000);
			assert_int_equal(rd(cpu, pmc), gp & 0xffffffff80000000ULL);
			/* EDX is ignored: the high half does not count */
			wr(cpu, pmc, 0x123400000001ULL);
			assert_int_equal(rd(cpu, pmc), 1);
			wr(cpu, pmc, 0xfffffffeULL);
			assert_int_equal(rd(cpu, pmc), gp - 1);
			if (d->fw_write) {
				uint32_t apmc = MSR_IA32_PMC0 + i;

				round_trip(cpu, apmc, gp, gp + 1);
				round_trip(cpu, apmc, 0x0000123480000000ULL & gp, 0);
				/* both addresses name the same counter */
				assert_int_equal(rd(cpu, pmc), 0x0000123480000000ULL & gp);
			}
		}
		for (unsigned int j = 0; j < d->nr_fixed; j++)
			round_trip(cpu, MSR_CORE_PERF_FIXED_CTR0 + j, fx, fx + 1);
		model_cpu_destroy(cpu);
	}
}

static void legacy_lbr_registers_round_trip(void **state)
{
	(void)state;
	for (size_t m = 0; m < NR_MODELS; m++) {
		struct model_cpu *cpu = model_test_cpu(models[m]);
		const struct model_cpu_desc *d = model_cpu_get_desc(cpu);

		if (d->arch_lbr) {
			model_cpu_destroy(cpu);
			continue;
		}
		for (unsigned int i = 0; i < d->lbr_nr; i++) {
			round_trip(cpu, d->lbr_from + i, 0xffffffff81000000ULL + i, 0);
			round_trip(cpu, d->lbr_to + i, 0x401000 + i, 0);
			if (d->has_lbr_info)
				round_trip(cpu, MSR_LBR_INFO_0 + i, LBR_INFO_MISPRED | i, 0);
		}
		if (d->has_lbr_select) {
			round_trip(cpu, MSR_LBR_SELECT, 0x1ff, 1ULL << 10);
			if (d->has_lbr_callstack)
				round_trip(cpu, MSR_LBR_SELECT, 0x3ff, 0);
			else
				round_trip(cpu, MSR_LBR_SELECT, 0, LBR_CALL_STACK);
		}
		if (d->has_lbr_callstack) {
			round_trip(cpu, MSR_LBR_TOS, d->lbr_nr - 1, 0);
			assert_int_equal(model_wrmsr(cpu, MSR_LBR_TOS, d->lbr_nr), -EIO);
		} else {
			assert_int_equal(model_wrmsr(cpu, MSR_LBR_TOS, 1), -EIO);
		}
		model_cpu_destroy(cpu);
	}
}

static void arch_lbr_registers_round_trip(void **state)
{
	struct model_cpu *cpu = model_test_cpu("sapphirerapids");
	uint64_t val;

	(void)state;
	assert_int_equal(rd(cpu, MSR_ARCH_LBR_DEPTH), 32);
	round_trip(cpu, MSR_ARCH_LBR_CTL, 0x7f000f, 1ULL << 4);
	round_trip(cpu, MSR_ARCH_LBR_CTL, 0, 1ULL << 23);
	for (unsigned int depth = 8; depth <= 32; depth += 8)
		round_trip(cpu, MSR_ARCH_LBR_DEPTH, depth, 0);
	assert_int_equal(model_wrmsr(cpu, MSR_ARCH_LBR_DEPTH, 0), -EIO);
	assert_int_equal(model_wrmsr(cpu, MSR_ARCH_LBR_DEPTH, 7), -EIO);
	assert_int_equal(model_wrmsr(cpu, MSR_ARCH_LBR_DEPTH, 40), -EIO);
	for (unsigned int i = 0; i < 32; i++) {
		round_trip(cpu, MSR_ARCH_LBR_FROM_0 + i, 0x400000 + i, 0);
		round_trip(cpu, MSR_ARCH_LBR_TO_0 + i, 0x500000 + i, 0);
		round_trip(cpu, MSR_ARCH_LBR_INFO_0 + i, i, 0);
	}
	/* entries beyond the current depth do not exist */
	wr(cpu, MSR_ARCH_LBR_DEPTH, 16);
	assert_int_equal(model_rdmsr(cpu, MSR_ARCH_LBR_FROM_0 + 15, &val), 0);
	assert_int_equal(model_rdmsr(cpu, MSR_ARCH_LBR_FROM_0 + 16, &val), -EIO);
	assert_int_equal(model_wrmsr(cpu, MSR_ARCH_LBR_INFO_0 + 31, 0), -EIO);
	model_cpu_destroy(cpu);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_msr_index_reads_iff_the_model_has_it),
		cmocka_unit_test(msrs_the_model_lacks_fault_on_write_too),
		cmocka_unit_test(control_registers_keep_defined_bits_and_reject_reserved),
		cmocka_unit_test(global_ctrl_resets_to_all_gp_counters_enabled),
		cmocka_unit_test(status_reset_and_set_follow_the_pmu_version),
		cmocka_unit_test(a_version_1_pmu_has_only_its_gp_counters),
		cmocka_unit_test(a_64_bit_counter_keeps_every_bit),
		cmocka_unit_test(counter_writes_sign_extend_or_take_the_full_width),
		cmocka_unit_test(legacy_lbr_registers_round_trip),
		cmocka_unit_test(arch_lbr_registers_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
