// SPDX-License-Identifier: GPL-2.0-only
/*
 * LBR record formats and filters beyond the shipped CPU models: each
 * legacy format of PERF_CAPABILITIES decoded as the kernel does (plain
 * EIP, EIP_FLAGS2, TIME with cycles in TO, INFO2), LBR_INFO skipped for
 * NO_CYCLES|NO_FLAGS, the software filter's TX, IND_JUMP, CALL and
 * TYPE_SAVE bits, an Arch LBR CPU with no usable depth, and call-stack
 * save/restore edge cases: a kernel-only call stack (not saved, as the
 * kernel saves user call stacks only) and a full Arch LBR stack.
 */
#include "tests/x86/x86_test.h"

#define U	PERF_SAMPLE_BRANCH_USER

static struct model_cpu_desc custom;

static const struct model_cpu_desc *with_format(const char *name, unsigned int fmt)
{
	custom = *model_cpu_desc_lookup(name);
	custom.lbr_format = fmt;
	custom.perf_capabilities = (custom.perf_capabilities & ~0x3fULL) | fmt;
	custom.has_perf_capabilities = true;	/* the format is read from PERF_CAPABILITIES */
	return &custom;
}

static struct perf_event *open_lbr(u64 period, u64 br_type)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS,
					   period);
	struct perf_event *e;
	int err;

	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = br_type;
	e = xt_open(&a, 0, NULL, &err);
	assert_non_null(e);
	return e;
}

/* Three user JCCs, the middle one mispredicted, each taking 5 cycles. */
static void three_branches(void)
{
	for (int i = 0; i < 3; i++) {
		x86_branch_text_add(0x1000 + i * 16, MODEL_BR_JCC);
		xt.regs[0].ip = 0x2000 + i;
		xt.regs[0].user = true;
		model_retire_branch(xt.cpu[0], 0x1000 + i * 16, 0x2000 + i, MODEL_BR_JCC, true,
				    i == 1, 5);
	}
}

static void test_each_legacy_format_decodes_its_flags(void **state)
{
	static const struct {
		const char *model;
		unsigned int fmt;
		bool mispred, cycles;
	} f[] = {
		{ "nehalem", LBR_FORMAT_EIP, false, false },		/* addresses only */
		/* Core 2's 4 entries with PDCM and a 64-bit format: no LBR_SELECT at all */
		{ "core2", LBR_FORMAT_EIP_FLAGS, true, false },
		{ "haswell", LBR_FORMAT_EIP_FLAGS2, true, false },
		{ "haswell", LBR_FORMAT_TIME, true, true },		/* cycles in TO[63:48] */
		{ "skylake", LBR_FORMAT_INFO2, true, true },		/* LBR_INFO, no TSX */
	};

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(f); i++) {
		struct perf_event *e;

		assert_int_equal(xt_boot_desc(with_format(f[i].model, f[i].fmt)), 0);
		assert_int_equal(x86_pmu.lbr_format, f[i].fmt);
		e = open_lbr(3, PERF_SAMPLE_BRANCH_ANY | U);
		three_branches();
		assert_int_equal(xt.nr_samples, 1);
		assert_true(xt.samples[0].br.nr >= 3);
		for (int k = 0; k < 3; k++) {
			const struct perf_branch_entry *b = &xt.samples[0].entries[k];

			/* newest first, addresses whole: the flag bits stripped and sign-extended */
			assert_int_equal(b->from, 0x1000 + (2 - k) * 16);
			assert_int_equal(b->to, 0x2000 + (2 - k));
			assert_int_equal(b->mispred, f[i].mispred && k == 1);
			assert_int_equal(b->predicted, f[i].mispred && k != 1);
			assert_int_equal(b->cycles, f[i].cycles ? 5 : 0);
			assert_int_equal(b->in_tx, 0);
			assert_int_equal(b->abort, 0);
		}
		perf_event_release_kernel(e);
		xt_shutdown();
	}
}

/* NO_CYCLES|NO_FLAGS: LBR_INFO is not read, so neither flags nor cycles appear. */
static void test_no_cycles_no_flags_skips_lbr_info(void **state)
{
	struct perf_event *e;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	e = open_lbr(3, PERF_SAMPLE_BRANCH_ANY | U | PERF_SAMPLE_BRANCH_NO_CYCLES |
		     PERF_SAMPLE_BRANCH_NO_FLAGS);
	assert_true(e->hw.branch_reg.config & LBR_NO_INFO);
	three_branches();
	assert_int_equal(xt.nr_samples, 1);
	for (int k = 0; k < 3; k++) {
		assert_int_equal(xt.samples[0].entries[k].from, 0x1000 + (2 - k) * 16);
		assert_int_equal(xt.samples[0].entries[k].mispred, 0);
		assert_int_equal(xt.samples[0].entries[k].cycles, 0);
	}
	perf_event_release_kernel(e);
	xt_shutdown();

	/* one of the two alone still reads LBR_INFO */
	assert_int_equal(xt_boot("skylake"), 0);
	e = open_lbr(3, PERF_SAMPLE_BRANCH_ANY | U | PERF_SAMPLE_BRANCH_NO_CYCLES);
	assert_false(e->hw.branch_reg.config & LBR_NO_INFO);
	three_branches();
	assert_int_equal(xt.samples[0].entries[1].mispred, 1);
	perf_event_release_kernel(e);
	xt_shutdown();

	/* no LBR_INFO (Haswell): nothing to skip, the flags in FROM still decode */
	assert_int_equal(xt_boot("haswell"), 0);
	e = open_lbr(3, PERF_SAMPLE_BRANCH_ANY | U | PERF_SAMPLE_BRANCH_NO_CYCLES |
		     PERF_SAMPLE_BRANCH_NO_FLAGS);
	assert_false(e->hw.branch_reg.config & LBR_NO_INFO);
	three_branches();
	assert_int_equal(xt.samples[0].entries[1].mispred, 1);
	perf_event_release_kernel(e);
}

/* One of each near branch type, user; the sample at the last. */
static const struct {
	u64 from, to;
	enum model_branch_type type;
} mix[] = {
	{ 0x1000, 0x1010, MODEL_BR_JCC },
	{ 0x1020, 0x2000, MODEL_BR_NEAR_REL_CALL },
	{ 0x2010, 0x2020, MODEL_BR_NEAR_REL_JMP },
	{ 0x2030, 0x3000, MODEL_BR_NEAR_IND_CALL },
	{ 0x3010, 0x3020, MODEL_BR_NEAR_IND_JMP },
	{ 0x3030, 0x2035, MODEL_BR_NEAR_RET },
};

static unsigned int run_mix(u64 br_type)
{
	struct perf_event *e = open_lbr(ARRAY_SIZE(mix), br_type);

	for (unsigned int i = 0; i < ARRAY_SIZE(mix); i++) {
		x86_branch_text_add(mix[i].from, mix[i].type);
		xt_branch(0, mix[i].from, mix[i].to, mix[i].type);
	}
	assert_int_equal(xt.nr_samples, 1);
	perf_event_release_kernel(e);
	xt.nr_samples = 0;
	return xt.samples[0].br.nr;
}

static void test_software_filter_bits(void **state)
{
	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	/* IND_JUMP: the one indirect jump */
	assert_int_equal(run_mix(PERF_SAMPLE_BRANCH_IND_JUMP | U), 1);
	assert_int_equal(xt.samples[0].entries[0].from, 0x3010);
	/* CALL: direct calls only */
	assert_int_equal(run_mix(PERF_SAMPLE_BRANCH_CALL | U), 1);
	assert_int_equal(xt.samples[0].entries[0].from, 0x1020);
	/* no TSX in the model: every branch is outside a transaction */
	assert_int_equal(run_mix(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_NO_TX | U), 6);
	assert_int_equal(run_mix(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_IN_TX | U), 0);
	assert_int_equal(run_mix(PERF_SAMPLE_BRANCH_ABORT_TX | U), 0);
	/* TYPE_SAVE: every record keeps its PERF_BR_* type, newest first */
	assert_int_equal(run_mix(PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_TYPE_SAVE | U), 6);
	{
		static const int want[] = { PERF_BR_RET, PERF_BR_IND, PERF_BR_IND_CALL,
					    PERF_BR_UNCOND, PERF_BR_CALL, PERF_BR_COND };

		for (unsigned int i = 0; i < ARRAY_SIZE(want); i++)
			assert_int_equal(xt.samples[0].entries[i].type, want[i]);
	}
	/* everything asked for, no type saved: no software filter, the whole LBR */
	assert_int_equal(run_mix(PERF_SAMPLE_BRANCH_ANY | U | PERF_SAMPLE_BRANCH_KERNEL),
			 x86_pmu.lbr_nr);
	for (unsigned int i = 0; i < ARRAY_SIZE(mix); i++)
		assert_int_equal(xt.samples[0].entries[i].from, mix[ARRAY_SIZE(mix) - 1 - i].from);
	/* kernel records are dropped for a user-only filter even where the type matches */
	{
		struct perf_event *e = open_lbr(2, PERF_SAMPLE_BRANCH_ANY | U);
		u64 k = 0xffffffff81000000ULL;

		x86_branch_text_add(k, MODEL_BR_JCC);
		x86_branch_text_add(0x1000, MODEL_BR_JCC);
		model_retire_branch(xt.cpu[0], k, 0x1010, MODEL_BR_JCC, false, false, 1);
		xt_branch(0, 0x1000, 0x1010, MODEL_BR_JCC);
		assert_int_equal(xt.nr_samples, 1);
		assert_int_equal(xt.samples[0].br.nr, 1);
		assert_int_equal(xt.samples[0].entries[0].from, 0x1000);
		perf_event_release_kernel(e);
	}
}

/* Arch LBR whose CPUID offers no depth: no LBR at all, LBR events refused. */
static void test_arch_lbr_without_a_depth_has_no_lbr(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 10);
	int err;

	(void)state;
	custom = *model_cpu_desc_lookup("sapphirerapids");
	custom.lbr_nr = 0;
	assert_int_equal(xt_boot_desc(&custom), 0);
	assert_false(x86_pmu.arch_lbr);
	assert_int_equal(x86_pmu.lbr_nr, 0);
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	assert_null(xt_open(&a, 0, NULL, &err));
	assert_int_equal(err, -EOPNOTSUPP);
	/* counting still works */
	a.sample_type = 0;
	a.sample_period = 0;
	{
		struct perf_event *e = xt_open(&a, 0, NULL, &err);

		assert_non_null(e);
		xt_branch(0, 0x1000, 0x2000, MODEL_BR_JCC);
		assert_int_equal(xt_read(e), 1);
		perf_event_release_kernel(e);
	}
}

static struct task_struct ta = { .pid = 20, .tid = 20 }, tb = { .pid = 21, .tid = 21 };

static void switch_to(struct task_struct *prev, struct task_struct *next)
{
	x86_pmu_sched_out(prev);
	perf_event_sched_out(0, prev);
	pmusim_curr[0] = next;
	perf_event_sched_in(0, next);
	x86_pmu_sched_in(next);
}

static int teardown_tasks(void **state)
{
	pmusim_curr[0] = NULL;
	return xt_teardown(state);
}

static void calls(u64 base, int first, int n, bool user)
{
	for (int i = first; i < first + n; i++) {
		u64 from = base + 0x1000 * i + 0x10;

		x86_branch_text_add(from, MODEL_BR_NEAR_REL_CALL);
		xt.regs[0].ip = base + 0x1000 * (i + 1);
		xt.regs[0].user = user;
		model_retire_branch(xt.cpu[0], from, base + 0x1000 * (i + 1),
				    MODEL_BR_NEAR_REL_CALL, user, false, 1);
	}
}

/*
 * A kernel-only call stack has task data but no user call-stack user:
 * the switch saves nothing and the stack is wiped when the task returns,
 * as in the kernel, which keeps user call stacks only.
 */
static void test_kernel_call_stack_is_not_kept_across_a_switch(void **state)
{
	u64 kbase = 0xffffffff81000000ULL;
	struct perf_event *e;
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 7);
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	pmusim_curr[0] = &ta;
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK | PERF_SAMPLE_BRANCH_KERNEL;
	a.exclude_kernel = 0;
	e = xt_open(&a, -1, &ta, &err);
	assert_non_null(e);
	assert_int_equal(e->state, PERF_EVENT_STATE_ACTIVE);
	calls(kbase, 0, 5, false);
	switch_to(&ta, &tb);
	calls(0x800000, 0, 3, true);		/* tb's branches: nobody counts them */
	switch_to(&tb, &ta);
	calls(kbase, 5, 2, false);
	assert_int_equal(xt.nr_samples, 1);
	/* only the two calls after the switch: the five before were not kept */
	assert_int_equal(xt.samples[0].br.nr, 2);
	assert_int_equal(xt.samples[0].entries[0].from, kbase + 0x1000 * 6 + 0x10);
	perf_event_disable(e);
	perf_event_release_kernel(e);
}

/*
 * Arch LBR, a stack deeper than the LBR saved and restored: all 32
 * entries come back without a reset first; the same task coming back
 * with nobody in between is not restored at all.
 */
static void test_full_arch_lbr_call_stack_survives_a_switch(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 42);
	struct perf_event *e;
	int err;

	(void)state;
	assert_int_equal(xt_boot("sapphirerapids"), 0);
	pmusim_curr[0] = &ta;
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK | U;
	e = xt_open(&a, -1, &ta, &err);
	assert_non_null(e);
	calls(0x100000, 0, 40, true);
	switch_to(&ta, &tb);
	calls(0x800000, 0, 10, true);
	switch_to(&tb, &ta);
	/* back with nobody in between: the registers are left as they are */
	x86_pmu_sched_out(&ta);
	assert_int_equal(model_wrmsr(xt.cpu[0], MSR_ARCH_LBR_TO_0, 0x4242), 0);
	x86_pmu_sched_in(&ta);
	assert_int_equal(xt_rdmsr(0, MSR_ARCH_LBR_TO_0), 0x4242);
	assert_int_equal(model_wrmsr(xt.cpu[0], MSR_ARCH_LBR_TO_0, 0x100000 + 0x1000 * 40), 0);
	calls(0x100000, 40, 2, true);
	assert_int_equal(xt.nr_samples, 1);
	assert_int_equal(xt.samples[0].br.nr, 32);
	for (int i = 0; i < 32; i++)
		assert_int_equal(xt.samples[0].entries[i].from, 0x100000 + 0x1000 * (41 - i) + 0x10);
	perf_event_disable(e);
	perf_event_release_kernel(e);
}

/*
 * The same task back with nobody in between, but the LBR lost its
 * contents meanwhile (a deep C-state resets it; FROM at the TOS reads 0):
 * the saved stack is written back rather than trusted.
 */
static void test_lbr_reset_in_a_cstate_is_restored(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 100);
	struct perf_event *e;
	u64 tos;
	int err;

	(void)state;
	assert_int_equal(xt_boot("skylake"), 0);
	pmusim_curr[0] = &ta;
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK | U;
	e = xt_open(&a, -1, &ta, &err);
	assert_non_null(e);
	calls(0x100000, 0, 5, true);
	tos = xt_rdmsr(0, MSR_LBR_TOS);
	x86_pmu_sched_out(&ta);
	for (int i = 0; i < 32; i++)		/* the C-state wipes the stack */
		assert_int_equal(model_wrmsr(xt.cpu[0], MSR_LBR_NHM_FROM + i, 0), 0);
	x86_pmu_sched_in(&ta);
	assert_int_equal(xt_rdmsr(0, MSR_LBR_TOS), tos);
	for (int i = 0; i < 5; i++)
		assert_int_equal(xt_rdmsr(0, MSR_LBR_NHM_FROM + ((tos - i) & 31)),
				 0x100000 + 0x1000 * (4 - i) + 0x10);
	perf_event_disable(e);
	perf_event_release_kernel(e);
}

/*
 * EIP_FLAGS2 without TSX (the model's Haswell): captured FROMs have bits
 * 62:61 clear, a FROM write #GPs unless they copy bit 60. A kernel call
 * stack written back after a C-state wipe must be sign-extended into
 * them (lbr_from_signext_quirk_wr) and read back without taking them as
 * the TSX flags (lbr_from_signext_quirk_rd).
 */
static void test_eip_flags2_without_tsx_sign_extends_restored_froms(void **state)
{
	struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 7);
	u64 kbase = 0xffffffff81000000ULL;
	unsigned long warns = pmusim_warn_count();
	struct perf_event *e;
	u64 tos;
	int err;

	(void)state;
	assert_int_equal(xt_boot("haswell"), 0);
	pmusim_curr[0] = &ta;
	a.sample_type = PERF_SAMPLE_BRANCH_STACK;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK | U | PERF_SAMPLE_BRANCH_KERNEL;
	a.exclude_kernel = 0;
	e = xt_open(&a, -1, &ta, &err);
	assert_non_null(e);
	calls(kbase, 0, 5, false);
	tos = xt_rdmsr(0, MSR_LBR_TOS);
	/* captured: the address's top bits cut at bit 61 */
	assert_int_equal(xt_rdmsr(0, MSR_LBR_NHM_FROM + tos), (kbase + 0x4010) & ~(7ULL << 61));
	x86_pmu_sched_out(&ta);
	for (int i = 0; i < 16; i++)
		assert_int_equal(model_wrmsr(xt.cpu[0], MSR_LBR_NHM_FROM + i, 0), 0);
	x86_pmu_sched_in(&ta);
	assert_int_equal(pmusim_warn_count(), warns);
	assert_int_equal(xt_rdmsr(0, MSR_LBR_NHM_FROM + tos), (kbase + 0x4010) & ~(1ULL << 63));
	calls(kbase, 5, 2, false);
	assert_int_equal(xt.nr_samples, 1);
	assert_int_equal(xt.samples[0].br.nr, 7);
	for (int i = 0; i < 7; i++) {
		assert_int_equal(xt.samples[0].entries[i].from, kbase + 0x1000 * (6 - i) + 0x10);
		assert_int_equal(xt.samples[0].entries[i].in_tx, 0);
		assert_int_equal(xt.samples[0].entries[i].abort, 0);
	}
	perf_event_disable(e);
	perf_event_release_kernel(e);
}

/*
 * Haswell with TSX may record an abort twice, the newer copy without the
 * abort bit: the kernel (lbr_double_abort) keeps the abort record in the
 * copy's place. Skylake's format has no such quirk.
 */
static void test_haswell_drops_the_duplicated_abort_record(void **state)
{
	static const char *const names[] = { "haswell", "skylake" };

	(void)state;
	for (unsigned int m = 0; m < ARRAY_SIZE(names); m++) {
		bool haswell = m == 0;
		u32 from_msr = MSR_LBR_NHM_FROM, info_msr = MSR_LBR_INFO_0;
		struct perf_event *e;
		u64 tos;

		custom = *model_cpu_desc_lookup(names[m]);
		custom.has_tsx = true;
		assert_int_equal(xt_boot_desc(&custom), 0);
		/* every branch at every level: no software filter, the raw records */
		e = open_lbr(2, PERF_SAMPLE_BRANCH_ANY | U | PERF_SAMPLE_BRANCH_KERNEL);
		/* two older records: the abort at tos, its copy at tos + 1 */
		tos = xt_rdmsr(0, MSR_LBR_TOS);
		assert_int_equal(model_wrmsr(xt.cpu[0], from_msr + tos,
					     haswell ? 0x3000 | LBR_FROM_FLAG_ABORT : 0x3000), 0);
		assert_int_equal(model_wrmsr(xt.cpu[0], MSR_LBR_NHM_TO + tos, 0x4000), 0);
		assert_int_equal(model_wrmsr(xt.cpu[0], from_msr + ((tos + 1) & (x86_pmu.lbr_nr - 1)),
					     0x3000), 0);
		assert_int_equal(model_wrmsr(xt.cpu[0], MSR_LBR_NHM_TO + ((tos + 1) & (x86_pmu.lbr_nr - 1)),
					     0x4000), 0);
		if (!haswell)
			assert_int_equal(model_wrmsr(xt.cpu[0], info_msr + tos, LBR_INFO_ABORT), 0);
		assert_int_equal(model_wrmsr(xt.cpu[0], MSR_LBR_TOS, (tos + 1) & (x86_pmu.lbr_nr - 1)), 0);
		/* two branches: a period of one is programmed as two */
		x86_branch_text_add(0x1000, MODEL_BR_JCC);
		xt_branch(0, 0x1000, 0x2000, MODEL_BR_JCC);
		xt_branch(0, 0x1000, 0x2000, MODEL_BR_JCC);
		assert_int_equal(xt.nr_samples, 1);
		assert_int_equal(xt.samples[0].entries[1].from, 0x1000);
		assert_int_equal(xt.samples[0].entries[2].from, 0x3000);
		/* Haswell: the abort record in the copy's place, one entry fewer */
		assert_int_equal(xt.samples[0].entries[2].abort, haswell);
		assert_int_equal(xt.samples[0].entries[3].from, haswell ? 0 : 0x3000);
		assert_int_equal(xt.samples[0].br.nr, x86_pmu.lbr_nr - haswell);
		perf_event_release_kernel(e);
		xt_shutdown();
	}
}

/*
 * Arch LBR: each filter CPUID.1CH:EBX lists is used on its own. CPL and
 * branch filtering without the call stack: ANY|USER is programmed into
 * ARCH_LBR_CTL, CALL_STACK refused; CPL only (with or without the call
 * stack): branch types refused; no CPL: USER and KERNEL refused.
 */
static void test_arch_lbr_filters_each_as_cpuid_lists_them(void **state)
{
	static const struct {
		unsigned int caps;
		int any_user, call_stack;
		u64 ctl;
	} c[] = {
		{ 0x3, 0, -EOPNOTSUPP, ARCH_LBR_CTL_LBREN | ARCH_LBR_USER | ARCH_LBR_ANY },
		{ 0x5, -EOPNOTSUPP, -EOPNOTSUPP, 0 },
		{ 0x1, -EOPNOTSUPP, -EOPNOTSUPP, 0 },
		{ 0x2, -EOPNOTSUPP, -EOPNOTSUPP, 0 },
		{ 0x7, 0, 0, ARCH_LBR_CTL_LBREN | ARCH_LBR_USER | ARCH_LBR_ANY },
	};

	(void)state;
	for (unsigned int i = 0; i < ARRAY_SIZE(c); i++) {
		struct perf_event_attr a = xt_attr(PERF_TYPE_HARDWARE,
						   PERF_COUNT_HW_BRANCH_INSTRUCTIONS, 10);
		struct perf_event *e;
		int err;

		custom = *model_cpu_desc_lookup("sapphirerapids");
		custom.arch_lbr_caps = c[i].caps;
		assert_int_equal(xt_boot_desc(&custom), 0);
		assert_true(x86_pmu.arch_lbr);
		a.sample_type = PERF_SAMPLE_BRANCH_STACK;
		a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | U;
		e = xt_open(&a, 0, NULL, &err);
		if (c[i].any_user) {
			assert_null(e);
			assert_int_equal(err, c[i].any_user);
		} else {
			assert_non_null(e);
			assert_int_equal(xt_rdmsr(0, MSR_ARCH_LBR_CTL), c[i].ctl);
			perf_event_release_kernel(e);
		}
		a.branch_sample_type = PERF_SAMPLE_BRANCH_CALL_STACK | U;
		e = xt_open(&a, 0, NULL, &err);
		if (c[i].call_stack) {
			assert_null(e);
			assert_int_equal(err, c[i].call_stack);
		} else {
			assert_non_null(e);
			perf_event_release_kernel(e);
		}
		xt_shutdown();
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_each_legacy_format_decodes_its_flags, xt_teardown),
		cmocka_unit_test_teardown(test_no_cycles_no_flags_skips_lbr_info, xt_teardown),
		cmocka_unit_test_teardown(test_software_filter_bits, xt_teardown),
		cmocka_unit_test_teardown(test_arch_lbr_without_a_depth_has_no_lbr, xt_teardown),
		cmocka_unit_test_teardown(test_kernel_call_stack_is_not_kept_across_a_switch,
					  teardown_tasks),
		cmocka_unit_test_teardown(test_full_arch_lbr_call_stack_survives_a_switch,
					  teardown_tasks),
		cmocka_unit_test_teardown(test_lbr_reset_in_a_cstate_is_restored, teardown_tasks),
		cmocka_unit_test_teardown(test_eip_flags2_without_tsx_sign_extends_restored_froms,
					  teardown_tasks),
		cmocka_unit_test_teardown(test_haswell_drops_the_duplicated_abort_record, xt_teardown),
		cmocka_unit_test_teardown(test_arch_lbr_filters_each_as_cpuid_lists_them, xt_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
