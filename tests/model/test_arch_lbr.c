// SPDX-License-Identifier: GPL-2.0-only
/*
 * Architectural LBR (Sapphire Rapids): entry 0 is always the newest and a
 * record moves the others down; ARCH_LBR_DEPTH accepts multiples of 8 up to
 * the maximum and clears every entry; ARCH_LBR_CTL filters in the positive
 * sense; call-stack mode pops from entry 0; INFO carries MISPRED,
 * CYC_CNT_VALID, BR_TYPE and the cycle count.
 */
#include "model_test.h"

#define CAPTURE_ALL (ARCH_LBR_CTL_LBREN | ARCH_LBR_KERNEL | ARCH_LBR_USER | ARCH_LBR_CTL_FILTER)

static struct model_cpu *arch_cpu(uint64_t ctl)
{
	struct model_cpu *cpu = model_test_cpu("sapphirerapids");

	wr(cpu, MSR_ARCH_LBR_CTL, ctl);
	return cpu;
}

static void jmp(struct model_cpu *cpu, uint64_t k)
{
	model_retire_branch(cpu, 0x1000 + k, 0x2000 + k, MODEL_BR_NEAR_REL_JMP, true, false, 1);
}

static void entry_0_is_the_newest_and_records_shift_down(void **state)
{
	struct model_cpu *cpu = arch_cpu(CAPTURE_ALL);

	(void)state;
	for (uint64_t k = 1; k <= 5; k++) {
		jmp(cpu, k);
		for (uint64_t i = 0; i < k; i++) {
			assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0 + i), 0x1000 + k - i);
			assert_int_equal(rd(cpu, MSR_ARCH_LBR_TO_0 + i), 0x2000 + k - i);
		}
		assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0 + k), 0);
	}
	/* past the depth the oldest falls off the end */
	for (uint64_t k = 6; k <= 40; k++)
		jmp(cpu, k);
	for (uint64_t i = 0; i < 32; i++)
		assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0 + i), 0x1000 + 40 - i);
	model_cpu_destroy(cpu);
}

static void depth_write_clears_every_entry_and_sets_the_ring(void **state)
{
	(void)state;
	for (unsigned int depth = 8; depth <= 32; depth += 8) {
		struct model_cpu *cpu = arch_cpu(CAPTURE_ALL);
		uint64_t val;

		for (uint64_t k = 1; k <= 20; k++)
			jmp(cpu, k);
		wr(cpu, MSR_ARCH_LBR_DEPTH, depth);
		for (unsigned int i = 0; i < depth; i++) {
			assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0 + i), 0);
			assert_int_equal(rd(cpu, MSR_ARCH_LBR_TO_0 + i), 0);
			assert_int_equal(rd(cpu, MSR_ARCH_LBR_INFO_0 + i), 0);
		}
		assert_int_equal(model_rdmsr(cpu, MSR_ARCH_LBR_FROM_0 + depth, &val),
				 -EIO);
		/* a ring of `depth` entries, also when it is not a power of two */
		for (uint64_t k = 1; k <= 2 * depth + 5; k++)
			jmp(cpu, k);
		for (unsigned int i = 0; i < depth; i++)
			assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0 + i), 0x1000 + 2 * depth + 5 - i);
		/* rewriting the same depth still clears */
		wr(cpu, MSR_ARCH_LBR_DEPTH, depth);
		assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0), 0);
		model_cpu_destroy(cpu);
	}
}

static const uint64_t ctl_bit[MODEL_BR__NR] = {
	[MODEL_BR_JCC] = ARCH_LBR_JCC, [MODEL_BR_NEAR_REL_JMP] = ARCH_LBR_REL_JMP,
	[MODEL_BR_NEAR_IND_JMP] = ARCH_LBR_IND_JMP, [MODEL_BR_NEAR_REL_CALL] = ARCH_LBR_REL_CALL,
	[MODEL_BR_NEAR_IND_CALL] = ARCH_LBR_IND_CALL, [MODEL_BR_NEAR_RET] = ARCH_LBR_RETURN,
	[MODEL_BR_FAR] = ARCH_LBR_OTHER_BRANCH,
};

static void ctl_bits_select_what_is_recorded(void **state)
{
	(void)state;
	for (unsigned int t = 0; t < MODEL_BR__NR; t++)
		for (int priv = 0; priv < 3; priv++) {
			uint64_t cpl = priv == 0 ? ARCH_LBR_KERNEL : priv == 1 ? ARCH_LBR_USER :
				       ARCH_LBR_KERNEL | ARCH_LBR_USER;
			struct model_cpu *cpu = arch_cpu(ARCH_LBR_CTL_LBREN | cpl | ctl_bit[t]);
			unsigned int want = 0;

			/* every type at both privileges, newest last */
			for (unsigned int u = 0; u < 2; u++)
				for (unsigned int s = 0; s < MODEL_BR__NR; s++)
					model_retire_branch(cpu, 0x100 * (8 * u + s + 1), 0x10, s, u,
							    false, 1);
			for (int u = 1; u >= 0; u--) {
				bool priv_ok = (u && (cpl & ARCH_LBR_USER)) ||
					       (!u && (cpl & ARCH_LBR_KERNEL));

				if (!priv_ok)
					continue;
				assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0 + want),
						 0x100 * (8 * u + t + 1));
				want++;
			}
			assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0 + want), 0);
			model_cpu_destroy(cpu);
		}
}

static void nothing_without_lbren_or_type_bits(void **state)
{
	struct model_cpu *cpu = arch_cpu(CAPTURE_ALL & ~ARCH_LBR_CTL_LBREN);

	(void)state;
	/* DEBUGCTL.LBR does not matter with Arch LBR */
	wr(cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR);
	jmp(cpu, 1);
	assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0), 0);
	wr(cpu, MSR_ARCH_LBR_CTL, ARCH_LBR_CTL_LBREN | ARCH_LBR_KERNEL | ARCH_LBR_USER);
	jmp(cpu, 2);
	assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0), 0);
	wr(cpu, MSR_IA32_DEBUGCTLMSR, 0);
	wr(cpu, MSR_ARCH_LBR_CTL, CAPTURE_ALL);
	jmp(cpu, 3);
	assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0), 0x1003);
	model_cpu_destroy(cpu);
}

static void info_has_type_mispredict_and_valid_cycles(void **state)
{
	static const uint64_t br_type[MODEL_BR__NR] = {
		[MODEL_BR_JCC] = 0, [MODEL_BR_NEAR_IND_JMP] = 1, [MODEL_BR_NEAR_REL_JMP] = 2,
		[MODEL_BR_NEAR_IND_CALL] = 3, [MODEL_BR_NEAR_REL_CALL] = 4,
		[MODEL_BR_NEAR_RET] = 5, [MODEL_BR_FAR] = 8,
	};
	struct model_cpu *cpu = arch_cpu(CAPTURE_ALL);

	(void)state;
	model_retire_insns(cpu, 10, 9, true);
	for (unsigned int t = 0; t < MODEL_BR__NR; t++)
		model_retire_branch(cpu, 0x10 + t, 0x20, t, true, t & 1, 10 + t);
	for (unsigned int t = 0; t < MODEL_BR__NR; t++) {
		uint64_t info = rd(cpu, MSR_ARCH_LBR_INFO_0 + MODEL_BR__NR - 1 - t);
		uint64_t cycles = t == 0 ? 19 : 10 + t;

		assert_int_equal((info & LBR_INFO_BR_TYPE) >> LBR_INFO_BR_TYPE_OFFSET, br_type[t]);
		assert_int_equal(!!(info & LBR_INFO_MISPRED), t & 1);
		/* the first record after enabling has no valid count */
		assert_int_equal(!!(info & LBR_INFO_CYC_CNT_VALID), t != 0);
		assert_int_equal(info & LBR_INFO_CYCLES, cycles);
	}
	model_cpu_destroy(cpu);
}

static void call_stack_pops_entry_0(void **state)
{
	struct model_cpu *cpu = arch_cpu(ARCH_LBR_CTL_LBREN | ARCH_LBR_USER | ARCH_LBR_CTL_STACK |
					 ARCH_LBR_REL_CALL | ARCH_LBR_IND_CALL | ARCH_LBR_RETURN);

	(void)state;
	for (uint64_t f = 1; f <= 36; f++) {
		model_retire_branch(cpu, 0x10 * f, 0x5000, MODEL_BR_JCC, true, false, 1);
		model_retire_branch(cpu, 0x1000 * f, 0x1000 * (f + 1), MODEL_BR_NEAR_REL_CALL,
				    true, false, 1);
	}
	for (uint64_t i = 0; i < 32; i++)
		assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0 + i), 0x1000 * (36 - i));
	for (uint64_t f = 36; f > 30; f--)
		model_retire_branch(cpu, 0x1000 * (f + 1) + 0x80, 0x1000 * f + 5,
				    MODEL_BR_NEAR_RET, true, false, 1);
	/* entries moved up; the bottom is empty */
	assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0), 0x1000 * 30);
	assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0 + 25), 0x1000 * 5);
	for (unsigned int i = 26; i < 32; i++)
		assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0 + i), 0);
	for (uint64_t f = 30; f > 4; f--)
		model_retire_branch(cpu, 0x1000 * (f + 1) + 0x80, 0x1000 * f + 5,
				    MODEL_BR_NEAR_RET, true, false, 1);
	assert_int_equal(rd(cpu, MSR_ARCH_LBR_FROM_0), 0);
	model_cpu_destroy(cpu);
}

/* CPUID.1CH:EBX lists the filters: a CTL bit of one it does not list #GPs, and CPUID says so. */
static void ctl_takes_only_the_filters_cpuid_lists(void **state)
{
	static const struct {
		unsigned int caps;
		uint64_t refused;
	} c[] = {
		{ 0x7, 0 },
		{ 0x6, ARCH_LBR_CTL_CPL },
		{ 0x5, ARCH_LBR_CTL_FILTER },
		{ 0x3, ARCH_LBR_CTL_STACK },
		{ 0x0, ARCH_LBR_CTL_CPL | ARCH_LBR_CTL_FILTER | ARCH_LBR_CTL_STACK },
	};

	(void)state;
	for (unsigned int i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct model_cpu_desc d = *model_cpu_desc_lookup("sapphirerapids");
		struct model_cpu *cpu;
		uint32_t regs[4];

		d.arch_lbr_caps = c[i].caps;
		cpu = model_cpu_create(&d, 0);
		assert_non_null(cpu);
		model_cpuid(cpu, CPUID_LEAF_ARCH_LBR, 0, regs);
		assert_int_equal(regs[1], c[i].caps);
		wr(cpu, MSR_ARCH_LBR_CTL, ARCH_LBR_CTL_LBREN);
		for (uint64_t bit = 2; bit; bit <<= 1) {
			if (!(bit & (ARCH_LBR_CTL_CPL | ARCH_LBR_CTL_FILTER | ARCH_LBR_CTL_STACK)))
				continue;
			assert_int_equal(model_wrmsr(cpu, MSR_ARCH_LBR_CTL, ARCH_LBR_CTL_LBREN | bit),
					 (bit & c[i].refused) ? -EIO : 0);
		}
		model_cpu_destroy(cpu);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(entry_0_is_the_newest_and_records_shift_down),
		cmocka_unit_test(depth_write_clears_every_entry_and_sets_the_ring),
		cmocka_unit_test(ctl_bits_select_what_is_recorded),
		cmocka_unit_test(nothing_without_lbren_or_type_bits),
		cmocka_unit_test(info_has_type_mispredict_and_valid_cycles),
		cmocka_unit_test(call_stack_pops_entry_0),
		cmocka_unit_test(ctl_takes_only_the_filters_cpuid_lists),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
