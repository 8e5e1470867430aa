// SPDX-License-Identifier: GPL-2.0-only
/*
 * The legacy LBR: contents after a known branch sequence under each
 * LBR_SELECT suppress bit, TOS moving modulo the depth, the entry encoding
 * of each LBR format (packed 32-bit, flags in FROM, LBR_INFO), and that
 * nothing is recorded without DEBUGCTL.LBR.
 */
#include "model_test.h"

struct branch {
	uint64_t from, to;
	enum model_branch_type type;
	bool user, mispred;
};

/* Each type once in user and once in kernel, alternating mispredictions. */
static unsigned int make_sequence(struct branch *b)
{
	unsigned int n = 0;

	for (int user = 1; user >= 0; user--)
		for (unsigned int t = 0; t < MODEL_BR__NR; t++) {
			uint64_t base = user ? 0x400000 : 0xffffffff81000000ULL;

			b[n] = (struct branch){
				.from = base + 0x100 * n, .to = base + 0x100 * n + 0x40,
				.type = t, .user = user, .mispred = n % 3 == 0,
			};
			n++;
		}
	return n;
}

static const uint64_t suppress_bit[MODEL_BR__NR] = {
	[MODEL_BR_JCC] = LBR_JCC, [MODEL_BR_NEAR_REL_JMP] = LBR_REL_JMP,
	[MODEL_BR_NEAR_IND_JMP] = LBR_IND_JMP, [MODEL_BR_NEAR_REL_CALL] = LBR_REL_CALL,
	[MODEL_BR_NEAR_IND_CALL] = LBR_IND_CALL, [MODEL_BR_NEAR_RET] = LBR_RETURN,
	[MODEL_BR_FAR] = LBR_FAR,
};

static bool suppressed(const struct branch *b, uint64_t sel)
{
	if ((sel & LBR_KERNEL) && !b->user)
		return true;
	if ((sel & LBR_USER) && b->user)
		return true;
	return sel & suppress_bit[b->type];
}

/* Read entry i (0 = newest) the way intel_pmu_lbr_read_64 does. */
static void read_entry(struct model_cpu *cpu, unsigned int i, uint64_t *from, uint64_t *to)
{
	const struct model_cpu_desc *d = model_cpu_get_desc(cpu);
	unsigned int idx = (rd(cpu, MSR_LBR_TOS) - i) & (d->lbr_nr - 1);

	*from = rd(cpu, d->lbr_from + idx);
	*to = rd(cpu, d->lbr_to + idx);
}

/* FROM of the EIP_FLAGS format decoded as the kernel does: drop bit 63, sign-extend. */
static uint64_t eip_flags_addr(uint64_t from)
{
	return (uint64_t)((int64_t)(from << 1) >> 1);
}

static void each_lbr_select_bit_suppresses_its_branches(void **state)
{
	static const char *const with_select[] = { "nehalem", "skylake", "icelake" };
	struct branch seq[2 * MODEL_BR__NR];
	unsigned int n = make_sequence(seq);

	(void)state;
	for (size_t m = 0; m < 3; m++)
		for (int bit = -1; bit <= LBR_FAR_BIT; bit++) {
			struct model_cpu *cpu = model_test_cpu(with_select[m]);
			const struct model_cpu_desc *d = model_cpu_get_desc(cpu);
			uint64_t sel = bit < 0 ? 0 : 1ULL << bit;
			unsigned int want = 0, i;

			wr(cpu, MSR_LBR_SELECT, sel);
			wr(cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR);
			for (i = 0; i < n; i++)
				model_retire_branch(cpu, seq[i].from, seq[i].to, seq[i].type,
						    seq[i].user, seq[i].mispred, 1);
			/* newest first: walk the sequence backwards, skipping the suppressed */
			for (int k = (int)n - 1; k >= 0; k--) {
				uint64_t from, to;

				if (suppressed(&seq[k], sel))
					continue;
				read_entry(cpu, want++, &from, &to);
				if (d->lbr_format == LBR_FORMAT_EIP_FLAGS) {
					assert_int_equal(from >> 63, seq[k].mispred);
					from = eip_flags_addr(from);
				}
				if (from != seq[k].from || to != seq[k].to)
					fail_msg("%s select %#llx entry %u: %#llx->%#llx, want %#llx->%#llx",
						 d->name, (unsigned long long)sel, want - 1,
						 (unsigned long long)from, (unsigned long long)to,
						 (unsigned long long)seq[k].from,
						 (unsigned long long)seq[k].to);
			}
			assert_int_equal(rd(cpu, MSR_LBR_TOS), want % d->lbr_nr);
			/* what is left is empty */
			for (i = want; i < d->lbr_nr; i++) {
				uint64_t from, to;

				read_entry(cpu, i, &from, &to);
				assert_int_equal(from | to, 0);
			}
			model_cpu_destroy(cpu);
		}
}

static void tos_moves_modulo_the_depth(void **state)
{
	static const char *const legacy[] = { "core2", "nehalem", "skylake", "icelake" };

	(void)state;
	for (size_t m = 0; m < 4; m++) {
		struct model_cpu *cpu = model_test_cpu(legacy[m]);
		const struct model_cpu_desc *d = model_cpu_get_desc(cpu);
		unsigned int total = 2 * d->lbr_nr + 3;

		wr(cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR);
		assert_int_equal(rd(cpu, MSR_LBR_TOS), 0);
		for (unsigned int k = 1; k <= total; k++) {
			model_retire_branch(cpu, 0x1000 + k, 0x2000 + k, MODEL_BR_NEAR_REL_JMP,
					    true, false, 1);
			/* incremented before recording: the first record lands in slot 1 */
			assert_int_equal(rd(cpu, MSR_LBR_TOS), k % d->lbr_nr);
		}
		/* the depth newest, newest first */
		for (unsigned int i = 0; i < d->lbr_nr; i++) {
			uint64_t from, to;

			read_entry(cpu, i, &from, &to);
			if (d->lbr_format == LBR_FORMAT_32) {
				to = from >> 32;
				from &= 0xffffffff;
			}
			assert_int_equal(from, 0x1000 + total - i);
			assert_int_equal(to, 0x2000 + total - i);
		}
		model_cpu_destroy(cpu);
	}
}

static void core2_packs_from_and_to_in_one_msr_and_filters_nothing(void **state)
{
	struct model_cpu *cpu = model_test_cpu("core2");
	struct branch seq[2 * MODEL_BR__NR];
	unsigned int n = make_sequence(seq);

	(void)state;
	wr(cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR);
	for (unsigned int i = 0; i < n; i++)
		model_retire_branch(cpu, seq[i].from, seq[i].to, seq[i].type, seq[i].user,
				    seq[i].mispred, 1);
	/* the last four, of every type and privilege (no LBR_SELECT) */
	for (unsigned int i = 0; i < 4; i++) {
		const struct branch *b = &seq[n - 1 - i];
		unsigned int idx = (rd(cpu, MSR_LBR_TOS) - i) & 3;
		uint64_t packed = rd(cpu, MSR_LBR_CORE_FROM + idx);

		assert_int_equal(packed & 0xffffffff, b->from & 0xffffffff);
		assert_int_equal(packed >> 32, b->to & 0xffffffff);
		assert_int_equal(rd(cpu, MSR_LBR_CORE_TO + idx), b->to & 0xffffffff);
	}
	model_cpu_destroy(cpu);
}

static void lbr_info_holds_mispredict_and_saturating_cycles(void **state)
{
	struct model_cpu *cpu = model_test_cpu("skylake");
	unsigned int tos;

	(void)state;
	wr(cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR);
	model_retire_branch(cpu, 0x10, 0x20, MODEL_BR_JCC, true, true, 5);
	/* cycles since the last LBR update: the block plus the branch itself */
	model_retire_insns(cpu, 50, 100, true);
	model_retire_branch(cpu, 0x30, 0x40, MODEL_BR_JCC, true, false, 2);
	model_retire_insns(cpu, 1, 70000, true);
	model_retire_branch(cpu, 0xffffffff81000010ULL, 0x50, MODEL_BR_FAR, false, true, 1);
	tos = rd(cpu, MSR_LBR_TOS);
	assert_int_equal(tos, 3);
	assert_int_equal(rd(cpu, MSR_LBR_INFO_0 + 1), LBR_INFO_MISPRED | 5);
	assert_int_equal(rd(cpu, MSR_LBR_INFO_0 + 2), 102);
	assert_int_equal(rd(cpu, MSR_LBR_INFO_0 + 3), LBR_INFO_MISPRED | 0xffff);
	/* FROM is the plain address in this format */
	assert_int_equal(rd(cpu, MSR_LBR_NHM_FROM + 3), 0xffffffff81000010ULL);
	assert_int_equal(rd(cpu, MSR_LBR_NHM_FROM + 1), 0x10);
	model_cpu_destroy(cpu);
}

static void nothing_is_recorded_without_debugctl_lbr(void **state)
{
	struct model_cpu *cpu = model_test_cpu("nehalem");

	(void)state;
	wr(cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_FREEZE_LBRS_ON_PMI);
	for (int k = 0; k < 5; k++)
		model_retire_branch(cpu, 0x10, 0x20, MODEL_BR_JCC, true, false, 1);
	assert_int_equal(rd(cpu, MSR_LBR_TOS), 0);
	for (unsigned int i = 0; i < 16; i++)
		assert_int_equal(rd(cpu, MSR_LBR_NHM_FROM + i), 0);
	/* and recording stops again when it is cleared */
	wr(cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR);
	model_retire_branch(cpu, 0x10, 0x20, MODEL_BR_JCC, true, false, 1);
	wr(cpu, MSR_IA32_DEBUGCTLMSR, 0);
	model_retire_branch(cpu, 0x10, 0x20, MODEL_BR_JCC, true, false, 1);
	assert_int_equal(rd(cpu, MSR_LBR_TOS), 1);
	model_cpu_destroy(cpu);
}

static void restored_entries_and_tos_are_read_back(void **state)
{
	struct model_cpu *cpu = model_test_cpu("skylake");

	(void)state;
	/* what intel_pmu_lbr_restore does on sched-in */
	wr(cpu, MSR_LBR_NHM_FROM + 7, 0xaaaa);
	wr(cpu, MSR_LBR_NHM_TO + 7, 0xbbbb);
	wr(cpu, MSR_LBR_INFO_0 + 7, 12);
	wr(cpu, MSR_LBR_TOS, 7);
	wr(cpu, MSR_LBR_SELECT, LBR_KERNEL | LBR_JCC | LBR_IND_JMP | LBR_REL_JMP | LBR_FAR |
	   LBR_CALL_STACK);
	wr(cpu, MSR_IA32_DEBUGCTLMSR, DEBUGCTLMSR_LBR);
	model_retire_branch(cpu, 0x1, 0x2, MODEL_BR_NEAR_REL_CALL, true, false, 1);
	assert_int_equal(rd(cpu, MSR_LBR_TOS), 8);
	assert_int_equal(rd(cpu, MSR_LBR_NHM_FROM + 8), 0x1);
	assert_int_equal(rd(cpu, MSR_LBR_NHM_FROM + 7), 0xaaaa);
	model_cpu_destroy(cpu);
}

/*
 * EIP_FLAGS2 (Haswell): without TSX a FROM write must carry bit 60 into
 * bits 62:61 (#GP otherwise), whatever bit 63 (mispredict) says; with
 * TSX (CPUID.7 HLE and RTM) those bits are flags and any value goes in.
 */
static void eip_flags2_from_writes_need_the_sign_extension_without_tsx(void **state)
{
	static const uint64_t kern = 0xffffffff81000010ULL, user = 0x400010ULL;

	(void)state;
	for (int tsx = 0; tsx < 2; tsx++) {
		struct model_cpu_desc d = *model_cpu_desc_lookup("haswell");
		struct model_cpu *cpu;
		uint32_t regs[4];

		d.has_tsx = tsx;
		cpu = model_cpu_create(&d, 0);
		assert_non_null(cpu);
		model_cpuid(cpu, CPUID_LEAF_EXT_FEATURES, 0, regs);
		assert_int_equal(!!(regs[1] & CPUID_7_EBX_RTM), tsx);
		/* as captured: bits 63:61 cut */
		assert_int_equal(model_wrmsr(cpu, MSR_LBR_NHM_FROM, kern & ~(7ULL << 61)), tsx ? 0 : -EIO);
		/* sign-extended into 62:61, mispredict or not */
		assert_int_equal(model_wrmsr(cpu, MSR_LBR_NHM_FROM + 1, kern & ~(1ULL << 63)), 0);
		assert_int_equal(model_wrmsr(cpu, MSR_LBR_NHM_FROM + 2, kern), 0);
		assert_int_equal(model_wrmsr(cpu, MSR_LBR_NHM_FROM + 3, user | 1ULL << 63), 0);
		assert_int_equal(model_wrmsr(cpu, MSR_LBR_NHM_FROM + 4, user | 1ULL << 61),
				 tsx ? 0 : -EIO);
		/* TO has no such rule */
		assert_int_equal(model_wrmsr(cpu, MSR_LBR_NHM_TO, kern & ~(7ULL << 61)), 0);
		model_cpu_destroy(cpu);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_lbr_select_bit_suppresses_its_branches),
		cmocka_unit_test(tos_moves_modulo_the_depth),
		cmocka_unit_test(core2_packs_from_and_to_in_one_msr_and_filters_nothing),
		cmocka_unit_test(lbr_info_holds_mispredict_and_saturating_cycles),
		cmocka_unit_test(nothing_is_recorded_without_debugctl_lbr),
		cmocka_unit_test(restored_entries_and_tos_are_read_back),
		cmocka_unit_test(eip_flags2_from_writes_need_the_sign_extension_without_tsx),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
